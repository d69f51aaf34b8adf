# The provider list: one line per provider, in the order of first-start detection and of the
# provider choosers. Each line is
#   id | the header that declares its factory | the expression that makes the factory (in
#   namespace sandbar) | what its tests need (local, docker, podman or contract)
# It makes app/wiring's registerProviders (ProviderList.h, generated), the provider libraries
# (each folder's module.cmake, included by core/CMakeLists.txt), the contract-server dispatch,
# the bench's contract group, one run of the conformance suite per provider
# (tests/conformance), the cloud tests of sandbarctl, and the fuzzers of the folders that have
# fuzz/fuzz.cpp (tests/fuzz/targets.sh reads this file too); tst_completioncontract checks that
# each factory's descriptor carries the id of its line.
set(SANDBAR_PROVIDERS
  "local|providers/local/LocalProvider.h|std::make_unique<local::LocalProviderFactory>()|local"
  "docker|providers/docker/DockerFactory.h|docker::makeDockerFactory()|docker"
  "podman|providers/docker/DockerFactory.h|docker::makePodmanFactory()|podman"
  "e2b|providers/e2b/E2bFactory.h|e2b::makeE2bFactory()|contract"
  "daytona|providers/daytona/DaytonaFactory.h|daytona::makeDaytonaFactory()|contract"
  "vercel|providers/vercel/VercelFactory.h|vercel::makeVercelFactory()|contract"
  "sprites|providers/sprites/SpritesFactory.h|sprites::makeSpritesFactory()|contract"
)

# SANDBAR_PROVIDER_IDS: the ids, in order. SANDBAR_PROVIDER_FOLDERS: the folders (relative to
# core/) that hold them, each once, in the order of their first line.
set(SANDBAR_PROVIDER_IDS "")
set(SANDBAR_PROVIDER_FOLDERS "")
foreach(_line IN LISTS SANDBAR_PROVIDERS)
  string(REPLACE "|" ";" _parts "${_line}")
  list(GET _parts 0 _id)
  list(GET _parts 1 _header)
  get_filename_component(_folder "${_header}" DIRECTORY)
  list(APPEND SANDBAR_PROVIDER_IDS ${_id})
  list(APPEND SANDBAR_PROVIDER_FOLDERS ${_folder})
endforeach()
list(REMOVE_DUPLICATES SANDBAR_PROVIDER_FOLDERS)

# sandbar_provider_field(<line> <index> <out>): one field of a line.
function(sandbar_provider_field line index out)
  string(REPLACE "|" ";" parts "${line}")
  list(GET parts ${index} value)
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# sandbar_provider_folder(<line> <out>): the folder (relative to core/) of a line's provider.
function(sandbar_provider_folder line out)
  sandbar_provider_field("${line}" 1 header)
  get_filename_component(folder "${header}" DIRECTORY)
  set(${out} "${folder}" PARENT_SCOPE)
endfunction()
