# The Daytona provider's library (included by core/CMakeLists.txt for the provider list's folders).
sandbar_core_module(sandbar-daytona PROVIDER DIRS providers/daytona PUBLIC sandbar-cloud
  PRIVATE nlohmann_json::nlohmann_json)
