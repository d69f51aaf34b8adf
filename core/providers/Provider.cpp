#include "providers/Provider.h"

namespace sandbar {

Error unsupportedError(const ProviderDescriptor &provider, Capability cap)
{
    return makeError(ErrorCode::Unsupported,
                     QCoreApplication::translate("sandbar::Provider", "%1 does not support %2")
                         .arg(provider.displayName, capabilityName(cap)));
}

} // namespace sandbar
