#include "main/EngineChoices.h"

#include "providers/docker/DockerFactory.h"
#include "providers/docker/discovery/DockerDiscovery.h"

#include <QCoreApplication>

namespace sandbar::ui {

QList<EngineChoice> discoverEngines()
{
    using namespace docker;
    const auto tr = [](const char *s) { return QCoreApplication::translate("sandbar::ui::EngineChoices", s); };
    QList<EngineChoice> out;
    const DiscoveryResult found = discoverEndpoints(DiscoveryEnvironment::system());
    for (const EndpointCandidate &c : found.candidates) {
        if (c.source == CandidateSource::PlatformDefault)
            continue;
        QString flavour = c.flavour;
        if (c.endpoint.kind == net::Endpoint::Kind::Unix) {
            const auto answered = probeSocket(c.endpoint.path, std::chrono::milliseconds(500));
            if (!answered)
                continue; // a socket file nobody listens on is no choice
            flavour = *answered == Flavour::Podman ? QStringLiteral("podman") : QStringLiteral("docker");
        }
        if (flavour.isEmpty())
            flavour = QStringLiteral("docker");
        EngineChoice e;
        e.provider = flavour;
        e.endpoint = c.endpoint.toUrl();
        const QString name = flavour == QLatin1String("podman") ? tr("Podman") : tr("Docker");
        e.label = c.origin.isEmpty() || c.origin == c.endpoint.path
                      ? tr("%1 — %2").arg(name, c.endpoint.display())
                      : tr("%1 — %2 (%3)").arg(name, c.endpoint.display(), c.origin);
        bool seen = false;
        for (const EngineChoice &o : std::as_const(out))
            seen = seen || (o.endpoint == e.endpoint);
        if (!seen)
            out << e;
    }
    return out;
}

} // namespace sandbar::ui
