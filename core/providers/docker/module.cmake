# The Docker and Podman providers' library (included by core/CMakeLists.txt for the provider
# list's folders): the Engine API over a Unix socket, files through sandbar-files where built.
set(_docker_deps sandbar-base sandbar-net)
if(TARGET sandbar-files)
  list(APPEND _docker_deps sandbar-files)
endif()
sandbar_core_module(sandbar-docker PROVIDER DIRS providers/docker RECURSE
  PUBLIC ${_docker_deps} Qt6::Network PRIVATE nlohmann_json::nlohmann_json LibArchive::LibArchive)
