# The provider list: one line per provider, in the order of first-start detection and of the
# provider choosers. Each line is
#   id | the header that declares its factory | the expression that makes the factory (in
#   namespace sandbar) | what its tests need (local, docker, podman or contract)
# It makes app/wiring's registerProviders (ProviderList.h, generated) and one run of the
# conformance suite per provider (tests/conformance), and tst_completioncontract checks that
# each factory's descriptor carries the id of its line.
set(SANDBAR_PROVIDERS
  "local|providers/local/LocalProvider.h|std::make_unique<local::LocalProviderFactory>()|local"
  "docker|providers/docker/DockerFactory.h|docker::makeDockerFactory()|docker"
  "podman|providers/docker/DockerFactory.h|docker::makePodmanFactory()|podman"
  "e2b|providers/e2b/E2bFactory.h|e2b::makeE2bFactory()|contract"
  "daytona|providers/daytona/DaytonaFactory.h|daytona::makeDaytonaFactory()|contract"
)

# SANDBAR_PROVIDER_IDS: the ids, in order.
set(SANDBAR_PROVIDER_IDS "")
foreach(_line IN LISTS SANDBAR_PROVIDERS)
  string(REPLACE "|" ";" _parts "${_line}")
  list(GET _parts 0 _id)
  list(APPEND SANDBAR_PROVIDER_IDS ${_id})
endforeach()

# sandbar_provider_field(<line> <index> <out>): one field of a line.
function(sandbar_provider_field line index out)
  string(REPLACE "|" ";" parts "${line}")
  list(GET parts ${index} value)
  set(${out} "${value}" PARENT_SCOPE)
endfunction()
