#include "providers/daytona/DaytonaFactory.h"
#include "providers/docker/DockerFactory.h"
#include "providers/e2b/E2bFactory.h"
#include "providers/local/LocalProvider.h"
#include "wiring/AppServices.h"

namespace sandbar {

void registerProviders(ProviderFactories &factories)
{
    // Order is the order of first-start detection and of the provider choosers.
    factories.add(std::make_unique<local::LocalProviderFactory>());
    factories.add(docker::makeDockerFactory());
    factories.add(docker::makePodmanFactory());
    factories.add(e2b::makeE2bFactory());
    factories.add(daytona::makeDaytonaFactory());
}

} // namespace sandbar
