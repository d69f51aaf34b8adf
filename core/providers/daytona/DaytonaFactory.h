#pragma once

#include "providers/ProviderFactory.h"

#include <memory>

namespace sandbar::daytona {

// Account fields (keys are sandbarctl's options): api-key (secret), endpoint, organization,
// target, ca-file. Create options: image, snapshot, cpus, memory, disk, gpus, env, network,
// autoStop (Daytona's idle stop), ttl (a wall-clock limit Sandbar enforces while it runs).
ProviderDescriptor makeDaytonaDescriptor();

class DaytonaFactory : public ProviderFactory
{
public:
    DaytonaFactory();
    const ProviderDescriptor &descriptor() const override { return m_descriptor; }
    Result<std::unique_ptr<Provider>> create(const AccountConfig &account) const override;

private:
    ProviderDescriptor m_descriptor;
};

std::unique_ptr<ProviderFactory> makeDaytonaFactory();

} // namespace sandbar::daytona
