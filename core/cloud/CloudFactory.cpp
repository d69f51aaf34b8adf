#include "cloud/CloudFactory.h"

#include "providers/Provider.h"

namespace sandbar::cloud {

CloudFactory::CloudFactory(ProviderDescriptor descriptor, std::function<CloudAccountSpec()> spec, Make make)
    : m_descriptor(std::move(descriptor))
    , m_spec(std::move(spec))
    , m_make(std::move(make))
{
}

Result<std::unique_ptr<Provider>> CloudFactory::create(const AccountConfig &account) const
{
    auto common = readCloudAccount(account, m_spec());
    if (!common)
        return common.error();
    return m_make(m_descriptor, account, common.value());
}

} // namespace sandbar::cloud
