#include "providers/docker/DockerFactory.h"
#include "providers/local/LocalProvider.h"
#include "wiring/AppServices.h"

namespace sandbar {

void registerProviders(ProviderFactories &factories)
{
    // Order is the order of first-start detection and of the provider choosers.
    factories.add(std::make_unique<local::LocalProviderFactory>());
    factories.add(docker::makeDockerFactory());
    factories.add(docker::makePodmanFactory());
}

} // namespace sandbar
