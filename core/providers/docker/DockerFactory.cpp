#include "providers/docker/DockerFactory.h"

#include "providers/docker/DockerProvider.h"
#include "providers/docker/DockerSsh.h"
#include "providers/docker/DockerTr.h"
#include "providers/docker/discovery/DockerDiscovery.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QLocalSocket>

namespace sandbar::docker {

namespace {
// Set by DockerFactory::preparation: the endpoint setting holds what discovery found.
constexpr char kAutodetected[] = "autodetected";

// "Podman — /run/user/1000/podman/podman.sock", with where it was found when that is not
// the socket itself. A free function, so that lupdate files it under the namespace whose
// tr() translates it at run time.
QString choiceLabel(const QString &engine, const EndpointCandidate &c)
{
    return c.origin.isEmpty() || c.origin == c.endpoint.path
               ? tr("%1 — %2").arg(engine, c.endpoint.display())
               : tr("%1 — %2 (%3)").arg(engine, c.endpoint.display(), c.origin);
}

// Sends one request and reads until the peer closes (HTTP/1.0 semantics); blocking.
QByteArray rawGet(const QString &socketPath, const QByteArray &target, QDeadlineTimer deadline)
{
    QLocalSocket s;
    s.connectToServer(socketPath);
    if (!s.waitForConnected(int(qMax<qint64>(1, deadline.remainingTime()))))
        return {};
    s.write("GET " + target + " HTTP/1.0\r\nHost: docker\r\n\r\n");
    QByteArray reply;
    while (s.state() == QLocalSocket::ConnectedState && !deadline.hasExpired()) {
        if (s.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime()))))
            reply += s.readAll();
        else if (s.state() != QLocalSocket::ConnectedState || deadline.hasExpired())
            break;
    }
    reply += s.readAll();
    return reply;
}
} // namespace

ProviderDescriptor makeDescriptor(Flavour flavour)
{
    const bool podman = flavour == Flavour::Podman;
    ProviderDescriptor d;
    d.id = podman ? QStringLiteral("podman") : QStringLiteral("docker");
    d.displayName = podman ? tr("Podman") : tr("Docker");
    d.description = podman ? tr("Containers on a Podman service (its Docker-compatible API).")
                           : tr("Containers on a Docker Engine, local or remote.");
    d.selfHosted = true;
    d.look.badgeRgb = podman ? 0x892ca0 : 0x1d63ed;
    d.look.docsUrl = podman ? QStringLiteral("https://docs.podman.io/en/latest/_static/api.html")
                            : QStringLiteral("https://docs.docker.com/reference/api/engine/");
    d.accountFields = {
        makeField(QStringLiteral("endpoint"), tr("Engine endpoint"),
                  tr("unix:///var/run/docker.sock, tcp://host:2376, ssh://user@host[/socket], "
                     "npipe:////./pipe/docker_engine; empty: find it"),
                  FieldType::Url, QString()),
        makeField(QStringLiteral("tlsVerify"), tr("Verify TLS"),
                  tr("Check the engine's certificate (tcp:// endpoints)"), FieldType::Boolean, true),
        makeField(QStringLiteral("certPath"), tr("Certificate folder"),
                  tr("Folder with ca.pem, cert.pem and key.pem for TLS"), FieldType::Path),
        makeField(QStringLiteral("identity"), tr("SSH key"),
                  tr("Private key for ssh:// endpoints (ssh -i); empty: your ssh configuration and ssh-agent"),
                  FieldType::Path),
        makeField(QStringLiteral("ssh-config"), tr("SSH configuration"),
                  tr("ssh_config file for ssh:// endpoints (ssh -F); empty: ~/.ssh/config"), FieldType::Path),
        makeField(QLatin1String(kHostHourlyPriceField), tr("Host price (USD/h)"),
                  tr("What the engine's machine costs per hour, split across its running sessions by CPUs; empty: "
                     "nothing"),
                  FieldType::Number, {}, 0, 100000),
    };
    auto image =
        makeField(QStringLiteral("image"), tr("Image"), tr("Container image the session runs"), FieldType::String);
    image.required = true;
    d.createOptions = {
        image,
        makeField(QStringLiteral("cpus"), tr("CPUs"), tr("CPU cores (fractions allowed)"), FieldType::Number, {}, 0.01,
                  1024),
        makeField(QStringLiteral("memory"), tr("Memory"), tr("Memory limit (swap is disabled)"), FieldType::Bytes, {},
                  qint64(6 * 1024 * 1024)),
        makeField(QStringLiteral("pidsLimit"), tr("Process limit"), tr("Most processes at once"), FieldType::Integer,
                  {}, 1, 1 << 22),
        makeField(QStringLiteral("ttl"), tr("Time limit"),
                  tr("The session ends itself after this long, even with Sandbar closed; 0 = none"),
                  FieldType::Duration, 0, 0),
        makeField(QStringLiteral("env"), tr("Environment"), tr("KEY=VALUE, one a line"), FieldType::Env),
        labelsOption(),
        makeField(QStringLiteral("mounts"), tr("Mounts"), tr("HOST:SESSION[:ro] folders to share, one a line"),
                  FieldType::Mounts),
        makeField(QStringLiteral("readOnlyMounts"), tr("Read-only mounts"), tr("Share every mount read-only"),
                  FieldType::Boolean, false),
        makeField(QStringLiteral("network"), tr("Network"), tr("Give the session a network (off: no network at all)"),
                  FieldType::Boolean, false),
        makeField(QStringLiteral("ports"), tr("Forwarded ports"),
                  tr("[HOST:]SESSION[/udp], one a line; reachable on 127.0.0.1 only; needs the network on"),
                  FieldType::Ports),
        makeField(QStringLiteral("user"), tr("User"), tr("uid[:gid] or name; empty: 1000:1000"), FieldType::String),
        makeField(QStringLiteral("tmpfs"), tr("tmpfs mounts"),
                  tr("Comma-separated paths mounted as tmpfs, e.g. /scratch"), FieldType::String),
        makeField(QStringLiteral("readOnlyRoot"), tr("Read-only root"), tr("Make the image's file system read-only"),
                  FieldType::Boolean, false),
        makeField(QStringLiteral("workdir"), tr("Working folder"), tr("Where commands start"), FieldType::Path,
                  QStringLiteral("/workspace")),
    };
    if (!podman)
        d.createOptions.append(makeField(QStringLiteral("gpus"), tr("GPUs"),
                                         tr("all, a number of GPUs, or GPU UUIDs separated by commas (nvidia-smi -L); "
                                            "needs the NVIDIA Container Toolkit on the engine"),
                                         FieldType::Gpus, QStringLiteral("none")));
    Capabilities caps = Capability::Pty | Capability::PtyResize | Capability::Exec | Capability::Files |
                        Capability::FileList | Capability::StatsCpu | Capability::StatsMemory |
                        Capability::StatsNetwork | Capability::StatsDisk | Capability::PauseResume |
                        Capability::SetTimeout | Capability::StatsStream | Capability::Events | Capability::Mounts |
                        Capability::Network | Capability::Kill | Capability::Adopt | Capability::Logs |
                        Capability::Ports | Capability::Images;
    if (!podman)
        caps |= Capability::Gpu;
    d.capabilities = caps;
    return d;
}

std::optional<Flavour> probeSocket(const QString &socketPath, std::chrono::milliseconds timeout)
{
    if (!QFileInfo::exists(socketPath))
        return std::nullopt;
    QDeadlineTimer deadline(timeout);
    const QByteArray ping = rawGet(socketPath, "/_ping", deadline);
    if (!ping.startsWith("HTTP/1.") || !ping.contains(" 200 "))
        return std::nullopt;
    // Podman's ping carries Libpod-Api-Version; its /version takes most of a second.
    if (ping.toLower().contains("\r\nlibpod-api-version:"))
        return Flavour::Podman;
    const QByteArray version = rawGet(socketPath, "/version", QDeadlineTimer(std::chrono::milliseconds(1500)));
    return version.contains("\"Podman Engine\"") ? Flavour::Podman : Flavour::Docker;
}

std::optional<net::Endpoint> autodetectEndpoint(Flavour flavour, bool requireAnswer)
{
    const QString want = flavour == Flavour::Podman ? QStringLiteral("podman") : QStringLiteral("docker");
    const DiscoveryResult found = discoverEndpoints(DiscoveryEnvironment::system());
    for (const EndpointCandidate &c : found.candidates) {
        if (!c.flavour.isEmpty() && c.flavour != want)
            continue;
        if (c.endpoint.kind == net::Endpoint::Kind::Unix) {
            if (probeSocket(c.endpoint.path, std::chrono::milliseconds(300)) == flavour)
                return c.endpoint;
        } else if (!requireAnswer && c.source != CandidateSource::PlatformDefault) {
            return c.endpoint;
        }
    }
    if (requireAnswer)
        return std::nullopt;
    if (auto c = pickEndpoint(found, want))
        return c->endpoint; // errors then name the place the docker CLI would try
    return std::nullopt;
}

Result<net::Endpoint> endpointFromSettings(Flavour flavour, const QVariantMap &settings)
{
    const QString url = settings.value(QStringLiteral("endpoint")).toString().trimmed();
    if (url.isEmpty()) {
        // DockerFactory::preparation searched already (on a worker thread) and found nothing.
        if (!settings.value(QLatin1String(kAutodetected)).toBool())
            if (auto ep = autodetectEndpoint(flavour, false))
                return *ep;
        return makeError(ErrorCode::Unavailable,
                         flavour == Flavour::Podman
                             ? tr("No Podman service was found; start one (systemctl --user start podman.socket) or "
                                  "enter its endpoint.")
                             : tr("No Docker engine was found; start one or enter its endpoint."));
    }
    auto ep = net::Endpoint::parse(url);
    if (!ep)
        return ep.error();
    const QString certPath = settings.value(QStringLiteral("certPath")).toString();
    if (ep->kind == net::Endpoint::Kind::Tcp && (!certPath.isEmpty() || ep->tls)) {
        ep->tls = true;
        ep->verifyPeer = settings.value(QStringLiteral("tlsVerify"), true).toBool();
        if (!certPath.isEmpty()) {
            ep->caFile = certPath + QStringLiteral("/ca.pem");
            ep->certFile = certPath + QStringLiteral("/cert.pem");
            ep->keyFile = certPath + QStringLiteral("/key.pem");
        }
    }
    return *ep;
}

DockerFactory::DockerFactory(Flavour flavour)
    : m_flavour(flavour)
    , m_descriptor(makeDescriptor(flavour))
{
}

Result<std::unique_ptr<Provider>> DockerFactory::create(const AccountConfig &account) const
{
    auto ep = isSshEndpoint(account.settings) ? sshLocalEndpoint(account.settings)
                                              : endpointFromSettings(m_flavour, account.settings);
    if (!ep)
        return ep.error();
    auto bridge = sshBridge(account.settings);
    if (!bridge)
        return bridge.error();
    auto docker = std::make_unique<DockerProvider>(m_descriptor, account.name, *ep, account.dataDir);
    if (isSshEndpoint(account.settings)) {
        if (auto target = sshTargetFromSettings(account.settings)) {
            docker->setRemoteHost(target->host, sshRecovery(account.settings));
            auto *ports = new SshPortForwarder(*target, docker.get());
            docker->setEndpointMapper([ports](QList<SessionEndpoint> e) { return ports->map(std::move(e)); });
        }
    }
    // The bridge lives and ends with the provider it serves.
    if (*bridge)
        bridge->release()->setParent(docker.get());
    std::unique_ptr<Provider> p = std::move(docker);
    return p;
}

QString DockerFactory::accountHost(const QVariantMap &settings) const
{
    if (isSshEndpoint(settings)) {
        const auto target = sshTargetFromSettings(settings);
        return target ? target->host : QString();
    }
    const QString endpoint = settings.value(QStringLiteral("endpoint")).toString().trimmed();
    if (!endpoint.startsWith(QLatin1String("tcp://"), Qt::CaseInsensitive))
        return {};
    const auto ep = net::Endpoint::parse(endpoint);
    return ep ? ep->host : QString();
}

ProviderFactory::HostKeyTask DockerFactory::hostKeyTask(const AccountConfig &account) const
{
    if (!isSshEndpoint(account.settings))
        return {};
    return [settings = account.settings](const QString &pin, bool trust) { return sshHostKey(settings, pin, trust); };
}

std::function<void()> DockerFactory::disconnection(const AccountConfig &account) const
{
    if (!isSshEndpoint(account.settings))
        return {};
    return [settings = account.settings] { endSshMaster(settings); };
}

std::function<AccountConfig(AccountConfig)> DockerFactory::preparation(const AccountConfig &account) const
{
    const Flavour flavour = m_flavour;
    // Over SSH: the login and the forwarding of the remote socket block.
    if (isSshEndpoint(account.settings))
        return [flavour](AccountConfig config) { return prepareSshAccount(flavour, std::move(config)); };
    // Otherwise only discovery blocks (it probes sockets); a configured endpoint needs nothing.
    if (!account.settings.value(QStringLiteral("endpoint")).toString().trimmed().isEmpty())
        return {};
    return [flavour](AccountConfig config) {
        config.settings.insert(QLatin1String(kAutodetected), true);
        const auto ep = autodetectEndpoint(flavour, false);
        if (!ep)
            return config;
        config.settings.insert(QStringLiteral("endpoint"), ep->toUrl());
        if (ep->tls) {
            config.settings.insert(QStringLiteral("tlsVerify"), ep->verifyPeer);
            if (!ep->caFile.isEmpty() && !ep->certFile.isEmpty() && !ep->keyFile.isEmpty())
                config.settings.insert(QStringLiteral("certPath"), QFileInfo(ep->caFile).path());
        }
        return config;
    };
}

std::optional<QVariantMap> DockerFactory::detectDefault() const
{
    if (auto ep = autodetectEndpoint(m_flavour, true))
        return QVariantMap{{QStringLiteral("endpoint"), ep->toUrl()}};
    return std::nullopt;
}

QList<AccountChoice> DockerFactory::discoverAccounts() const
{
    QList<AccountChoice> out;
    const DiscoveryResult found = discoverEndpoints(DiscoveryEnvironment::system());
    for (const EndpointCandidate &c : found.candidates) {
        if (c.source == CandidateSource::PlatformDefault)
            continue;
        Flavour flavour = c.flavour == QLatin1String("podman") ? Flavour::Podman : Flavour::Docker;
        if (c.endpoint.kind == net::Endpoint::Kind::Unix) {
            const auto answered = probeSocket(c.endpoint.path, std::chrono::milliseconds(500));
            if (!answered)
                continue; // a socket file nobody listens on is no choice
            flavour = *answered;
        }
        if (flavour != m_flavour)
            continue;
        AccountChoice a;
        a.provider = m_descriptor.id;
        a.settings.insert(QStringLiteral("endpoint"), c.endpoint.toUrl());
        a.label = choiceLabel(m_descriptor.displayName, c);
        out << a; // the same engine found twice is dropped once, in ProviderFactories::discoverAccounts
    }
    return out + remoteAccountChoices(found.remotes, m_flavour, m_descriptor);
}

QList<AccountChoice> remoteAccountChoices(const QList<RemoteCandidate> &remotes, Flavour flavour,
                                          const ProviderDescriptor &descriptor)
{
    QList<AccountChoice> out;
    for (const RemoteCandidate &r : remotes) {
        // The docker CLI's settings (DOCKER_HOST, contexts) name Docker engines unless they say.
        const Flavour of = r.flavour == QLatin1String("podman") ? Flavour::Podman : Flavour::Docker;
        if (of != flavour)
            continue;
        AccountChoice a;
        a.provider = descriptor.id;
        a.settings.insert(QStringLiteral("endpoint"), r.url);
        if (!r.identity.isEmpty())
            a.settings.insert(QStringLiteral("identity"), r.identity);
        a.label = tr("%1 over SSH — %2 (%3)").arg(descriptor.displayName, r.url, r.origin);
        out << a;
    }
    return out;
}

std::unique_ptr<ProviderFactory> makeDockerFactory()
{
    return std::make_unique<DockerFactory>(Flavour::Docker);
}

std::unique_ptr<ProviderFactory> makePodmanFactory()
{
    return std::make_unique<DockerFactory>(Flavour::Podman);
}

} // namespace sandbar::docker
