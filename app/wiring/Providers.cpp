#include "wiring/AppServices.h"

namespace sandbar {

void registerProviders(ProviderFactories &factories)
{
    Q_UNUSED(factories);
}

} // namespace sandbar
