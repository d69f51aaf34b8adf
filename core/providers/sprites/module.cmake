# The Fly.io Sprites provider's library (included by core/CMakeLists.txt for the provider list's folders).
sandbar_core_module(sandbar-sprites PROVIDER DIRS providers/sprites PUBLIC sandbar-cloud sandbar-files)
