#include "providers/Provider.h"

namespace sandbar {

void Provider::listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done)
{
    Q_UNUSED(sessionId);
    done(unsupportedError(descriptor(), Capability::Reattach));
}

void Provider::adopt(const QString &sessionId, Callback<SessionInfo> done)
{
    Q_UNUSED(sessionId);
    done(unsupportedError(descriptor(), Capability::Adopt));
}

Error unsupportedError(const ProviderDescriptor &provider, Capability cap)
{
    return makeError(ErrorCode::Unsupported, QCoreApplication::translate("sandbar::Provider", "%1 does not support %2")
                                                 .arg(provider.displayName, capabilityName(cap)));
}

} // namespace sandbar
