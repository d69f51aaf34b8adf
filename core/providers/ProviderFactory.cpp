#include "providers/ProviderFactory.h"

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

} // namespace sandbar
