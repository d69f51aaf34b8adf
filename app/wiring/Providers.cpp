#include "wiring/AppServices.h"
#include "wiring/ProviderList.h"

namespace sandbar {

void registerProviders(ProviderFactories &factories)
{
    // The provider list's order is the order of first-start detection and of the choosers.
    SANDBAR_ADD_PROVIDERS(factories);
}

} // namespace sandbar
