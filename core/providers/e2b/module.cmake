# The E2B provider's library (included by core/CMakeLists.txt for the provider list's folders).
sandbar_core_module(sandbar-e2b PROVIDER DIRS providers/e2b PUBLIC sandbar-cloud PRIVATE nlohmann_json::nlohmann_json)
