#pragma once

#include "providers/ProviderFactory.h"

#include <memory>

namespace sandbar::daytona {

// Account fields (keys are sandbarctl's options): api-key (secret), endpoint, organization,
// target, ca-file. Create options: image, snapshot, cpus, memory, disk, gpus, env, network,
// autoStop (Daytona's idle stop), ttl (a wall-clock limit Sandbar enforces while it runs).
ProviderDescriptor makeDaytonaDescriptor();

// The cloud kit's factory (cloud::CloudFactory) over this descriptor.
std::unique_ptr<ProviderFactory> makeDaytonaFactory();

} // namespace sandbar::daytona
