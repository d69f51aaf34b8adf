#pragma once

// The factory every cloud provider's accounts come from: its descriptor, the shared account
// fields read back checked (readCloudAccount: the key from the keychain, where sandbarctl's
// --api-key-env put it, the endpoint, the CA file) and the provider made from them. A cloud
// provider writes its descriptor and the one function that builds it; nothing of its
// factory but that.

#include "cloud/CloudAccount.h"
#include "providers/ProviderFactory.h"

#include <functional>
#include <memory>

namespace sandbar::cloud {

class CloudFactory final : public ProviderFactory
{
public:
    // Makes the provider from the account (its own fields) and its checked common part.
    using Make = std::function<Result<std::unique_ptr<Provider>>(
        const ProviderDescriptor &descriptor, const AccountConfig &account, const CloudAccount &common)>;
    // spec is read when an account is made, so its texts follow the language then.
    CloudFactory(ProviderDescriptor descriptor, std::function<CloudAccountSpec()> spec, Make make);

    const ProviderDescriptor &descriptor() const override { return m_descriptor; }
    Result<std::unique_ptr<Provider>> create(const AccountConfig &account) const override;

private:
    ProviderDescriptor m_descriptor;
    std::function<CloudAccountSpec()> m_spec;
    Make m_make;
};

} // namespace sandbar::cloud
