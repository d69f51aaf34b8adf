#include "providers/docker/discovery/DockerDiscovery.h"

#include "net/SshTarget.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>

namespace sandbar::docker {

namespace {

QString joinPath(const QString &dir, const QString &name)
{
    if (dir.endsWith(QLatin1Char('/')))
        return dir + name;
    return dir + QLatin1Char('/') + name;
}

class Resolver
{
public:
    // The context lupdate gives the tr() calls in this class's members.
    static QString tr(const char *text) { return QCoreApplication::translate("sandbar::docker::Resolver", text); }

    explicit Resolver(const DiscoveryEnvironment &env)
        : m_env(env)
    {
    }

    DiscoveryResult run();

private:
    QString var(const char *name) const { return m_env.env.value(QLatin1String(name)).trimmed(); }
    bool exists(const QString &path) const { return m_env.readFile && m_env.readFile(path).has_value(); }
    QString configDir() const
    {
        const QString dir = var("DOCKER_CONFIG");
        return dir.isEmpty() ? joinPath(m_env.homeDir, QStringLiteral(".docker")) : dir;
    }
    std::optional<QJsonObject> readJsonObject(const QString &path, bool emptyIsOk);
    void addDockerHost();
    void addContainerHost();
    void addContext(const QString &name, CandidateSource source, const QString &via);
    void addWellKnownSockets();
    void add(net::Endpoint ep, CandidateSource source, QString origin, QString flavour);
    // An ssh:// setting: a remote, or a problem naming where it was found.
    bool addRemote(const QString &url, const QString &identity, const QString &origin, const QString &flavour);
    void addPodmanConnections();
    void addServiceDestinations();
    QString containersConfigDir() const
    {
        const QString xdg = var("XDG_CONFIG_HOME");
        return joinPath(xdg.isEmpty() ? joinPath(m_env.homeDir, QStringLiteral(".config")) : xdg,
                        QStringLiteral("containers"));
    }
    static QString flavourOf(const net::Endpoint &ep);

    const DiscoveryEnvironment &m_env;
    DiscoveryResult m_result;
};

std::optional<QJsonObject> Resolver::readJsonObject(const QString &path, bool emptyIsOk)
{
    const auto bytes = m_env.readFile ? m_env.readFile(path) : std::nullopt;
    if (!bytes)
        return std::nullopt;
    if (bytes->trimmed().isEmpty()) {
        if (!emptyIsOk)
            m_result.problems << makeError(ErrorCode::InvalidArgument, tr("%1 is empty.").arg(path));
        return QJsonObject{};
    }
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &err);
    if (err.error != QJsonParseError::NoError) {
        m_result.problems << makeError(
            ErrorCode::InvalidArgument,
            tr("Cannot parse %1: %2 at byte %3.").arg(path, err.errorString()).arg(err.offset));
        return QJsonObject{};
    }
    if (!doc.isObject()) {
        m_result.problems << makeError(ErrorCode::InvalidArgument,
                                       tr("Cannot use %1: it holds no JSON object.").arg(path));
        return QJsonObject{};
    }
    return doc.object();
}

QString Resolver::flavourOf(const net::Endpoint &ep)
{
    if (ep.kind != net::Endpoint::Kind::Tcp && ep.path.contains(QLatin1String("podman"), Qt::CaseInsensitive))
        return QStringLiteral("podman");
    return {};
}

void Resolver::add(net::Endpoint ep, CandidateSource source, QString origin, QString flavour)
{
    // The same socket reached two ways (DOCKER_HOST and a well-known path) is listed once,
    // where it ranks highest.
    for (const EndpointCandidate &c : std::as_const(m_result.candidates)) {
        if (c.endpoint.toUrl() == ep.toUrl())
            return;
    }
    m_result.candidates << EndpointCandidate{std::move(ep), source, std::move(origin), std::move(flavour)};
}

void Resolver::addDockerHost()
{
    const QString host = var("DOCKER_HOST");
    if (host.isEmpty() || addRemote(host, QString(), QStringLiteral("DOCKER_HOST"), QString()))
        return;
    auto ep = net::Endpoint::parse(host);
    if (!ep) {
        m_result.problems << makeError(ep.code(), tr("DOCKER_HOST is not usable: %1").arg(ep.message()));
        return;
    }
    // As the docker CLI: any non-empty DOCKER_TLS_VERIFY turns TLS on and checks the server;
    // DOCKER_CERT_PATH alone turns TLS on without checking it.
    const bool verify = !var("DOCKER_TLS_VERIFY").isEmpty();
    const QString certPath = var("DOCKER_CERT_PATH");
    if (ep->kind == net::Endpoint::Kind::Tcp && (verify || !certPath.isEmpty())) {
        const QString dir = certPath.isEmpty() ? configDir() : certPath;
        ep->tls = true;
        ep->verifyPeer = verify;
        const QString ca = joinPath(dir, QStringLiteral("ca.pem"));
        const QString cert = joinPath(dir, QStringLiteral("cert.pem"));
        const QString key = joinPath(dir, QStringLiteral("key.pem"));
        if (exists(ca))
            ep->caFile = ca;
        else if (verify)
            m_result.problems << makeError(ErrorCode::NotFound,
                                           tr("DOCKER_TLS_VERIFY is set but %1 does not exist.").arg(ca));
        if (exists(cert) && exists(key)) {
            ep->certFile = cert;
            ep->keyFile = key;
        }
    }
    const QString flavour = flavourOf(*ep);
    add(std::move(*ep), CandidateSource::DockerHost, QStringLiteral("DOCKER_HOST"), flavour);
}

void Resolver::addContainerHost()
{
    const QString host = var("CONTAINER_HOST");
    if (host.isEmpty() || addRemote(host, QString(), QStringLiteral("CONTAINER_HOST"), QStringLiteral("podman")))
        return;
    auto ep = net::Endpoint::parse(host);
    if (!ep) {
        m_result.problems << makeError(ep.code(), tr("CONTAINER_HOST is not usable: %1").arg(ep.message()));
        return;
    }
    add(std::move(*ep), CandidateSource::ContainerHost, QStringLiteral("CONTAINER_HOST"), QStringLiteral("podman"));
}

void Resolver::addContext(const QString &name, CandidateSource source, const QString &via)
{
    const QString origin = tr("context \"%1\" (%2)").arg(name, via);
    const QString dirName = contextDirName(name);
    const QString metaPath =
        joinPath(configDir(), QStringLiteral("contexts/meta/") + dirName + QStringLiteral("/meta.json"));
    const qsizetype problemsBefore = m_result.problems.size();
    const auto meta = readJsonObject(metaPath, false);
    if (!meta) {
        m_result.problems << makeError(ErrorCode::NotFound,
                                       tr("Docker %1 does not exist: %2 was not found.").arg(origin, metaPath));
        return;
    }
    if (m_result.problems.size() != problemsBefore)
        return; // unparsable; the problem names the file
    const QJsonObject docker =
        meta->value(QLatin1String("Endpoints")).toObject().value(QLatin1String("docker")).toObject();
    const QString host = docker.value(QLatin1String("Host")).toString();
    if (host.isEmpty()) {
        m_result.problems << makeError(ErrorCode::InvalidArgument,
                                       tr("Docker %1 has no Endpoints.docker.Host in %2.").arg(origin, metaPath));
        return;
    }
    if (addRemote(host, QString(), origin, QString()))
        return;
    auto ep = net::Endpoint::parse(host);
    if (!ep) {
        m_result.problems << makeError(ep.code(), tr("Docker %1 in %2: %3").arg(origin, metaPath, ep.message()));
        return;
    }
    if (ep->kind == net::Endpoint::Kind::Tcp) {
        const QString tlsDir =
            joinPath(configDir(), QStringLiteral("contexts/tls/") + dirName + QStringLiteral("/docker"));
        const QString ca = joinPath(tlsDir, QStringLiteral("ca.pem"));
        const QString cert = joinPath(tlsDir, QStringLiteral("cert.pem"));
        const QString key = joinPath(tlsDir, QStringLiteral("key.pem"));
        if (exists(ca)) {
            ep->tls = true;
            ep->caFile = ca;
        }
        if (exists(cert) && exists(key)) {
            ep->tls = true;
            ep->certFile = cert;
            ep->keyFile = key;
        }
        ep->verifyPeer = !docker.value(QLatin1String("SkipTLSVerify")).toBool(false);
    }
    const QString flavour = flavourOf(*ep);
    add(std::move(*ep), source, origin, flavour);
}

bool Resolver::addRemote(const QString &url, const QString &identity, const QString &origin, const QString &flavour)
{
    if (!url.startsWith(QLatin1String("ssh://"), Qt::CaseInsensitive))
        return false;
    const auto target = net::SshTarget::parse(url);
    if (!target) {
        m_result.problems << makeError(target.code(), tr("%1: %2").arg(origin, target.message()));
        return true;
    }
    for (const RemoteCandidate &r : std::as_const(m_result.remotes)) {
        if (r.url == target->toUrl())
            return true;
    }
    m_result.remotes << RemoteCandidate{target->toUrl(), identity, origin, flavour};
    return true;
}

// Podman 5: podman-connections.json, {"Connection": {"Connections": {NAME: {"URI", "Identity"}}}}.
void Resolver::addPodmanConnections()
{
    const QString path = joinPath(containersConfigDir(), QStringLiteral("podman-connections.json"));
    const auto file = readJsonObject(path, true);
    if (!file)
        return;
    const QJsonObject connections =
        file->value(QLatin1String("Connection")).toObject().value(QLatin1String("Connections")).toObject();
    for (auto it = connections.constBegin(); it != connections.constEnd(); ++it) {
        const QJsonObject c = it.value().toObject();
        addRemote(c.value(QLatin1String("URI")).toString(), c.value(QLatin1String("Identity")).toString(),
                  tr("Podman connection \"%1\"").arg(it.key()), QStringLiteral("podman"));
    }
}

// Podman 4: containers.conf's [engine.service_destinations.NAME] tables with uri and identity.
// Only those keys are read, line by line: the rest of the TOML is not Sandbar's business.
void Resolver::addServiceDestinations()
{
    const QString path = joinPath(containersConfigDir(), QStringLiteral("containers.conf"));
    const auto bytes = m_env.readFile ? m_env.readFile(path) : std::nullopt;
    if (!bytes)
        return;
    const QString prefix = QStringLiteral("[engine.service_destinations.");
    QString name, uri, identity;
    const auto flush = [&] {
        if (!name.isEmpty() && !uri.isEmpty())
            addRemote(uri, identity, tr("Podman connection \"%1\" (%2)").arg(name, path), QStringLiteral("podman"));
        name.clear();
        uri.clear();
        identity.clear();
    };
    const auto unquote = [](QString v) {
        v = v.trimmed();
        if (v.size() >= 2 && (v.startsWith(QLatin1Char('"')) || v.startsWith(QLatin1Char('\''))))
            v = v.mid(1, v.size() - 2);
        return v;
    };
    for (const QByteArray &raw : bytes->split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.startsWith(QLatin1Char('['))) {
            flush();
            if (line.startsWith(prefix) && line.endsWith(QLatin1Char(']')))
                name = unquote(line.mid(prefix.size(), line.size() - prefix.size() - 1));
            continue;
        }
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (name.isEmpty() || eq <= 0)
            continue;
        const QString key = line.left(eq).trimmed();
        if (key == QLatin1String("uri"))
            uri = unquote(line.mid(eq + 1));
        else if (key == QLatin1String("identity"))
            identity = unquote(line.mid(eq + 1));
    }
    flush();
}

void Resolver::addWellKnownSockets()
{
    struct Known {
        QString path;
        const char *flavour;
    };
    QList<Known> known;
    if (m_env.windows) {
        // Named pipes cannot be probed cheaply; both are offered and the connection tells.
        for (const char *pipe : {"docker_engine", "podman-machine-default"}) {
            net::Endpoint ep;
            ep.kind = net::Endpoint::Kind::NamedPipe;
            ep.path = QLatin1String(pipe);
            const bool podman = QLatin1String(pipe).startsWith(QLatin1String("podman"));
            add(ep, CandidateSource::WellKnownSocket, ep.toUrl(),
                podman ? QStringLiteral("podman") : QStringLiteral("docker"));
        }
        return;
    }
    const QString runtime = var("XDG_RUNTIME_DIR");
    const QString home = m_env.homeDir;
    known << Known{QStringLiteral("/var/run/docker.sock"), "docker"};
    if (!runtime.isEmpty())
        known << Known{joinPath(runtime, QStringLiteral("docker.sock")), "docker"};
    if (!home.isEmpty()) {
        known << Known{joinPath(home, QStringLiteral(".docker/desktop/docker.sock")), "docker"};
        known << Known{joinPath(home, QStringLiteral(".docker/run/docker.sock")), "docker"};
    }
    if (!runtime.isEmpty())
        known << Known{joinPath(runtime, QStringLiteral("podman/podman.sock")), "podman"};
    known << Known{QStringLiteral("/run/podman/podman.sock"), "podman"};

    for (const Known &k : std::as_const(known)) {
        if (!m_env.socketExists || !m_env.socketExists(k.path))
            continue;
        net::Endpoint ep;
        ep.kind = net::Endpoint::Kind::Unix;
        ep.path = k.path;
        add(ep, CandidateSource::WellKnownSocket, k.path, QLatin1String(k.flavour));
    }
}

DiscoveryResult Resolver::run()
{
    addDockerHost();
    addContainerHost();

    const QString envContext = var("DOCKER_CONTEXT");
    if (!envContext.isEmpty() && envContext != QLatin1String("default"))
        addContext(envContext, CandidateSource::DockerContext, QStringLiteral("DOCKER_CONTEXT"));

    const QString configPath = joinPath(configDir(), QStringLiteral("config.json"));
    if (const auto config = readJsonObject(configPath, true)) {
        const QJsonValue current = config->value(QLatin1String("currentContext"));
        if (!current.isUndefined() && !current.isNull() && !current.isString()) {
            m_result.problems << makeError(ErrorCode::InvalidArgument,
                                           tr("Cannot use %1: currentContext is not a string.").arg(configPath));
        }
        const QString name = current.toString().trimmed();
        if (!name.isEmpty() && name != QLatin1String("default") && name != envContext)
            addContext(name, CandidateSource::ConfigContext, configPath);
    }

    addWellKnownSockets();
    if (!m_env.windows) {
        addPodmanConnections();
        addServiceDestinations();
    }

    if (m_result.candidates.isEmpty()) {
        net::Endpoint ep;
        if (m_env.windows) {
            ep.kind = net::Endpoint::Kind::NamedPipe;
            ep.path = QStringLiteral("docker_engine");
        } else {
            ep.path = QStringLiteral("/var/run/docker.sock");
        }
        add(ep, CandidateSource::PlatformDefault, ep.toUrl(), QString());
    }
    return std::move(m_result);
}

} // namespace

QString contextDirName(const QString &contextName)
{
    return QString::fromLatin1(QCryptographicHash::hash(contextName.toUtf8(), QCryptographicHash::Sha256).toHex());
}

DiscoveryEnvironment DiscoveryEnvironment::system()
{
    DiscoveryEnvironment e;
    const QProcessEnvironment pe = QProcessEnvironment::systemEnvironment();
    for (const QString &key : pe.keys())
        e.env.insert(key, pe.value(key));
    e.homeDir = QDir::homePath();
#ifdef Q_OS_WIN
    e.windows = true;
#endif
    e.readFile = [](const QString &path) -> std::optional<QByteArray> {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return std::nullopt;
        // Config and PEM files are small; a bigger one is not what we look for.
        return f.read(4 * 1024 * 1024);
    };
    e.socketExists = [](const QString &path) {
        const QFileInfo fi(path);
        return fi.exists() && !fi.isDir();
    };
    return e;
}

DiscoveryResult discoverEndpoints(const DiscoveryEnvironment &environment)
{
    return Resolver(environment).run();
}

std::optional<EndpointCandidate> pickEndpoint(const DiscoveryResult &result, const QString &flavour)
{
    for (const EndpointCandidate &c : result.candidates) {
        if (c.flavour.isEmpty() || c.flavour == flavour)
            return c;
    }
    return std::nullopt;
}

} // namespace sandbar::docker
