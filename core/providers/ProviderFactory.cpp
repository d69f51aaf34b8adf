#include "providers/ProviderFactory.h"

#include <algorithm>

namespace sandbar {

void ProviderFactories::add(std::unique_ptr<ProviderFactory> factory)
{
    m_factories.push_back(std::move(factory));
}

const ProviderFactory *ProviderFactories::find(const QString &id) const
{
    for (const auto &f : m_factories) {
        if (f->descriptor().id == id)
            return f.get();
    }
    return nullptr;
}

QStringList ProviderFactories::ids() const
{
    QStringList out;
    for (const auto &f : m_factories)
        out << f->descriptor().id;
    return out;
}

QList<AccountChoice> ProviderFactories::discoverAccounts() const
{
    QList<AccountChoice> out;
    for (const auto &f : m_factories) {
        for (AccountChoice &c : f->discoverAccounts()) {
            const bool seen = std::any_of(out.cbegin(), out.cend(), [&](const AccountChoice &o) {
                return o.provider == c.provider && o.settings == c.settings;
            });
            if (!seen)
                out << std::move(c);
        }
    }
    return out;
}

} // namespace sandbar
