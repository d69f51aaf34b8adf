# The Local (bubblewrap) provider's library (included by core/CMakeLists.txt for the provider
# list's folders); seccomp filters where libseccomp is found.
sandbar_core_module(sandbar-local PROVIDER DIRS providers/local RECURSE
  PUBLIC sandbar-base sandbar-files Qt6::Network PRIVATE nlohmann_json::nlohmann_json LibArchive::LibArchive)
if(TARGET sandbar-local AND TARGET PkgConfig::SECCOMP)
  target_link_libraries(sandbar-local PRIVATE PkgConfig::SECCOMP)
  target_compile_definitions(sandbar-local PRIVATE SANDBAR_HAVE_SECCOMP=1)
endif()
