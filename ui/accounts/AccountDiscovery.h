#pragma once

#include "providers/ProviderFactory.h"

#include <QList>
#include <functional>

namespace sandbar::ui {

// What the first-start panel and the account dialog offer as one-click accounts. Blocking
// (sockets are asked who answers): the views run it on a worker thread. Tests pass their own.
using AccountDiscovery = std::function<QList<AccountChoice>()>;

// Every provider's own discovery (ProviderFactory::discoverAccounts): no view names one.
inline AccountDiscovery discoveryOf(const ProviderFactories &factories)
{
    return [&factories] { return factories.discoverAccounts(); };
}

} // namespace sandbar::ui
