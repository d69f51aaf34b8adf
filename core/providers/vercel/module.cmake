# The Vercel Sandbox provider's library (included by core/CMakeLists.txt for the provider list's folders).
sandbar_core_module(sandbar-vercel PROVIDER DIRS providers/vercel PUBLIC sandbar-cloud sandbar-files)
