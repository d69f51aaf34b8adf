#pragma once

#include "providers/ProviderFactory.h"

#include <memory>

namespace sandbar::vercel {

// Account fields (keys are sandbarctl's options): api-key (an access token, secret), endpoint,
// team, project, ca-file, max-ttl. Create options: image, runtime, cpus, source, persistent,
// env, network, ttl.
ProviderDescriptor makeVercelDescriptor();

// The cloud kit's factory (cloud::CloudFactory) over this descriptor.
std::unique_ptr<ProviderFactory> makeVercelFactory();

} // namespace sandbar::vercel
