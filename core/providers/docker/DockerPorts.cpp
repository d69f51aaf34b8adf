#include "providers/docker/DockerPorts.h"

#include "providers/docker/DockerApi.h"
#include "providers/docker/DockerTr.h"
#include "providers/docker/JsonFields.h"

#include <QCoreApplication>
#include <QPointer>
#include <QSet>
#include <algorithm>
#include <nlohmann/json.hpp>

namespace sandbar::docker {

using nlohmann::json;

namespace {
// The wildcard addresses say "every interface", which includes loopback; a specific address
// is where the port is.
QString urlHost(const QString &hostIp)
{
    if (hostIp.isEmpty() || hostIp == QLatin1String("0.0.0.0") || hostIp == QLatin1String("::"))
        return QStringLiteral("127.0.0.1");
    return hostIp.contains(QLatin1Char(':')) ? QLatin1Char('[') + hostIp + QLatin1Char(']') : hostIp;
}

SessionEndpoint endpoint(int sessionPort, const QString &protocol, const QString &hostIp, int hostPort)
{
    SessionEndpoint e;
    e.name = QStringLiteral("%1/%2").arg(sessionPort).arg(protocol);
    e.sessionPort = sessionPort;
    e.hostPort = hostPort;
    // What an agent serves on TCP is most often a web page; UDP has no URL a browser opens.
    const QString scheme = protocol == QLatin1String("udp") ? QStringLiteral("udp") : QStringLiteral("http");
    e.url = QStringLiteral("%1://%2:%3").arg(scheme, urlHost(hostIp)).arg(hostPort);
    return e;
}

// Docker lists a port once per address family (0.0.0.0 and ::); one row is enough.
void appendUnique(QList<SessionEndpoint> *out, QSet<QString> *seen, const SessionEndpoint &e)
{
    const QString key = e.name + QLatin1Char('>') + QString::number(e.hostPort);
    if (seen->contains(key))
        return;
    seen->insert(key);
    out->append(e);
}
} // namespace

VoidResult addPortBindings(const QList<PortSpec> &ports, bool network, json *body, json *host)
{
    if (ports.isEmpty())
        return {};
    if (!network)
        return makeError(ErrorCode::InvalidArgument,
                         tr("Forwarding ports needs the network on: a session without a network has no port to "
                            "forward. Turn the network on or leave out the ports."));
    json exposed = json::object();
    json bindings = json::object();
    for (const PortSpec &p : ports) {
        if (p.sessionPort < 1 || p.sessionPort > 65535 || p.hostPort < 0 || p.hostPort > 65535)
            return makeError(ErrorCode::InvalidArgument,
                             tr("Port %1 is not between 1 and 65535.")
                                 .arg(p.sessionPort < 1 || p.sessionPort > 65535 ? p.sessionPort : p.hostPort));
        if (p.protocol != QLatin1String("tcp") && p.protocol != QLatin1String("udp"))
            return makeError(ErrorCode::InvalidArgument,
                             tr("Port protocol '%1' is not tcp or udp.").arg(p.protocol.left(20)));
        const std::string key = std::to_string(p.sessionPort) + "/" + p.protocol.toStdString();
        exposed[key] = json::object();
        // Loopback only, always: an agent's dev server is for this computer, not its network.
        bindings[key].push_back(
            {{"HostIp", "127.0.0.1"}, {"HostPort", p.hostPort > 0 ? std::to_string(p.hostPort) : std::string()}});
    }
    (*body)["ExposedPorts"] = exposed;
    (*host)["PortBindings"] = bindings;
    return {};
}

QList<SessionEndpoint> endpointsFromInspectPorts(const json &ports)
{
    QList<SessionEndpoint> out;
    QSet<QString> seen;
    if (!ports.is_object())
        return out;
    for (auto it = ports.begin(); it != ports.end(); ++it) {
        const QString key = QString::fromStdString(it.key());
        const auto slash = key.indexOf(QLatin1Char('/'));
        const int sessionPort = key.left(slash).toInt();
        const QString protocol = slash < 0 ? QStringLiteral("tcp") : key.mid(slash + 1);
        if (sessionPort <= 0 || !it.value().is_array())
            continue; // exposed but not published: null
        for (const auto &b : it.value()) {
            if (!b.is_object())
                continue;
            const auto ip = b.find("HostIp");
            const auto port = b.find("HostPort");
            const int hostPort =
                port != b.end() && port->is_string() ? QString::fromStdString(port->get<std::string>()).toInt() : 0;
            if (hostPort <= 0)
                continue;
            const QString hostIp =
                ip != b.end() && ip->is_string() ? QString::fromStdString(ip->get<std::string>()) : QString();
            appendUnique(&out, &seen, endpoint(sessionPort, protocol, hostIp, hostPort));
        }
    }
    return out;
}

QList<SessionEndpoint> endpointsFromListPorts(const json &ports)
{
    QList<SessionEndpoint> out;
    QSet<QString> seen;
    if (!ports.is_array())
        return out;
    for (const auto &p : ports) {
        if (!p.is_object())
            continue;
        const int sessionPort = jsonInt(p, "PrivatePort");
        const int hostPort = jsonInt(p, "PublicPort");
        if (sessionPort <= 0 || hostPort <= 0)
            continue;
        const QString protocol = QString::fromStdString(jsonText(p, "Type", "tcp"));
        const QString hostIp = QString::fromStdString(jsonText(p, "IP"));
        appendUnique(&out, &seen, endpoint(sessionPort, protocol, hostIp, hostPort));
    }
    return out;
}

Callback<SessionInfo> requirePublished(DockerApi *api, const QList<PortSpec> &ports, Callback<SessionInfo> done)
{
    if (ports.isEmpty())
        return done;
    return Callback<SessionInfo>(done.context(), [api = QPointer<DockerApi>(api), ports, done](Result<SessionInfo> r) {
        if (!r || !api)
            return done(r);
        QStringList missing;
        for (const PortSpec &p : ports) {
            const QString name = QStringLiteral("%1/%2").arg(p.sessionPort).arg(p.protocol);
            const bool found = std::any_of(r->endpoints.cbegin(), r->endpoints.cend(), [&](const SessionEndpoint &e) {
                return e.name == name && (p.hostPort == 0 || e.hostPort == p.hostPort);
            });
            if (!found)
                missing << name;
        }
        if (missing.isEmpty())
            return done(r);
        const Error error =
            makeError(ErrorCode::Unavailable,
                      tr("The engine did not forward %1 to this computer: its network cannot publish ports (an engine "
                         "started with --bridge=none, or a network without port mapping). The session was removed.")
                          .arg(missing.join(QStringLiteral(", "))));
        api->call("DELETE", "/containers/" + DockerApi::enc(r->id) + "?force=true&v=true", {},
                  Callback<net::HttpResponse>(api, [done, error](Result<net::HttpResponse>) { done(error); }));
    });
}

} // namespace sandbar::docker
