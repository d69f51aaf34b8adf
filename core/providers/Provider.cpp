#include "providers/Provider.h"

#include <QCoreApplication>

namespace sandbar {

Capabilities facetCapabilities(const Facets &f)
{
    Capabilities caps;
    if (f.terminals)
        caps |= Capability::Pty | (f.terminals->terminalFlags() & Capabilities::fromInt(kTerminalFlags));
    if (f.exec)
        caps |= Capability::Exec;
    if (f.files)
        caps |= Capability::Files | (f.files->fileFlags() & Capabilities::fromInt(kFileFlags));
    if (f.stats)
        caps |= f.stats->statsFlags() & Capabilities::fromInt(kStatsFlags);
    if (f.logs)
        caps |= Capability::Logs;
    if (f.images)
        caps |= Capability::Images;
    if (f.pause)
        caps |= Capability::PauseResume;
    if (f.archive)
        caps |= Capability::Archive;
    if (f.timeLimit)
        caps |= Capability::SetTimeout;
    if (f.snapshots)
        caps |= Capability::Snapshots;
    if (f.fork)
        caps |= Capability::Fork;
    if (f.settings)
        caps |= Capability::Settings;
    if (f.background)
        caps |= Capability::Background;
    if (f.labels)
        caps |= Capability::Labels;
    return caps;
}

Capabilities Provider::capabilities() const
{
    return coreCapabilities() | facetCapabilities(m_facets);
}

Capabilities Provider::coreCapabilities() const
{
    return descriptor().capabilities & ~Capabilities::fromInt(kFacetFlags);
}

void Provider::adopt(const QString &sessionId, Callback<SessionInfo> done)
{
    Q_UNUSED(sessionId);
    done.post(unsupportedError(descriptor(), Capability::Adopt));
}

Error unsupportedError(const ProviderDescriptor &provider, Capability cap)
{
    return makeError(ErrorCode::Unsupported, QCoreApplication::translate("sandbar::Provider", "%1 does not support %2")
                                                 .arg(provider.displayName, capabilityName(cap)));
}

} // namespace sandbar
