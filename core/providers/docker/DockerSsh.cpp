#include "providers/docker/DockerSsh.h"

#include "common/OffThread.h"
#include "net/SshAskpass.h"
#include "net/SshLink.h"
#include "providers/docker/DockerTr.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QLocalSocket>
#include <QPointer>
#include <QTcpServer>
#include <QUrl>

namespace sandbar::docker {

namespace {
// Written by prepareSshAccount for create(); never saved (the registry's copy only).
constexpr char kLocalSocket[] = "sshLocalSocket";
constexpr char kRemoteSocket[] = "sshRemoteSocket";
constexpr char kDialStdio[] = "sshDialStdio"; // the command whose stdio is the engine's socket
constexpr char kSshError[] = "sshError";
constexpr char kSshErrorCode[] = "sshErrorCode";
constexpr int kLoginMs = 30000;
constexpr int kCallMs = 15000;

net::SshOptions options(const QString &folder)
{
    net::SshOptions o;
    o.controlDir = folder;
    // The window answers passphrases and PINs (askpass); sandbarctl cannot, so ssh asks nothing
    // there and a key with a passphrase must be in ssh-agent.
    o.batchMode = !net::askpassEnvironment();
    return o;
}

// What the remote machine says its engine's socket is: Podman reports it; Docker's is
// DOCKER_HOST's there, or the standard socket.
Result<QString> remoteSocket(net::SshLink &link, Flavour flavour)
{
    const QString command = flavour == Flavour::Podman
                                ? QStringLiteral("podman info --format '{{.Host.RemoteSocket.Path}}'")
                                : QStringLiteral("printf '%s' \"${DOCKER_HOST:-unix:///var/run/docker.sock}\"");
    auto out = link.run(command, kCallMs);
    if (!out)
        return out.error();
    QString path = QString::fromUtf8(out->trimmed());
    if (path.startsWith(QLatin1String("unix://")))
        path = path.mid(7);
    if (!path.startsWith(QLatin1Char('/')))
        return makeError(ErrorCode::Unsupported,
                         tr("The engine on %1 is not on a unix socket (%2); name its socket in the address, "
                            "ssh://host/path/to/engine.sock.")
                             .arg(link.target().host, path.isEmpty() ? tr("no answer") : path));
    return path;
}

// Whether what listens on local answers HTTP: a forwarding the server refuses is accepted
// here and closed at once. Blocks (preparation's worker thread).
bool answersPing(const QString &local)
{
    QLocalSocket s;
    s.connectToServer(local);
    if (!s.waitForConnected(kCallMs))
        return false;
    s.write("GET /_ping HTTP/1.1\r\nHost: docker\r\nConnection: close\r\n\r\n");
    if (!s.waitForBytesWritten(kCallMs))
        return false;
    QByteArray got;
    while (got.size() < 8 && s.waitForReadyRead(kCallMs))
        got += s.readAll();
    return got.startsWith("HTTP/1.");
}

QString shellQuoted(const QString &text)
{
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

// The engine CLI's dial-stdio on the host, to the socket the address names or its default.
QString dialStdioCommand(Flavour flavour, const QString &remoteSocket)
{
    const bool podman = flavour == Flavour::Podman;
    QString command = podman ? QStringLiteral("podman") : QStringLiteral("docker");
    if (!remoteSocket.isEmpty())
        command += (podman ? QStringLiteral(" --url ") : QStringLiteral(" -H ")) +
                   shellQuoted(QStringLiteral("unix://") + remoteSocket);
    return command + QStringLiteral(" system dial-stdio");
}

AccountConfig stored(AccountConfig config, const Error &error)
{
    config.settings.insert(QLatin1String(kSshError), error.message);
    config.settings.insert(QLatin1String(kSshErrorCode), int(error.code));
    return config;
}

AccountConfig failed(AccountConfig config, const Error &error)
{
    if (error.code == ErrorCode::UnknownHost) {
        // What the person needs to decide: the key the host offers, and how to accept it.
        auto target = sshTargetFromSettings(config.settings);
        auto folder = net::SshLink::privateFolder();
        if (target && folder) {
            net::SshLink link(*target, options(*folder));
            if (auto key = link.scanHostKey(kCallMs)) {
                const Error offered = makeError(
                    ErrorCode::UnknownHost, tr("The host key of %1 is not known: refused, nothing was sent. The host "
                                               "offers %2; if that is its key, trust it (sandbarctl accounts trust %3 "
                                               "--fingerprint %2).")
                                                .arg(target->host, key->fingerprint, config.name));
                return stored(std::move(config), offered);
            }
        }
    }
    return stored(std::move(config), error);
}

// Outside SshRecovery, whose tr() would be QObject's.
Error retryLater(const Error &last, qint64 seconds)
{
    return makeError(last.code, tr("%1 (Sandbar tries again in %n s.)", nullptr, int(seconds)).arg(last.message));
}

Error unreachableHost(const QString &host, const Error &why)
{
    return makeError(why.code, tr("%1 is unreachable: %2").arg(host, why.message));
}

class SshRecovery : public QObject, public net::ConnectRecovery
{
public:
    SshRecovery(net::SshTarget target, QString local, QString remote)
        : m_target(std::move(target))
        , m_local(std::move(local))
        , m_remote(std::move(remote))
    {
    }

    void restore(QObject *context, std::function<void(const VoidResult &)> done) override
    {
        if (!m_retryAt.hasExpired()) {
            const qint64 seconds = (m_retryAt.remainingTime() + 999) / 1000;
            return done(retryLater(m_lastError, seconds));
        }
        m_waiting.append({QPointer<QObject>(context), std::move(done)});
        if (m_waiting.size() > 1)
            return; // an attempt is under way: its result is this request's too
        runOffThread<VoidResult>(
            this,
            [target = m_target, local = m_local, remote = m_remote]() -> VoidResult {
                auto folder = net::SshLink::privateFolder();
                if (!folder)
                    return folder.error();
                net::SshLink link(target, options(*folder));
                if (auto r = link.connect(kLoginMs); !r)
                    return r;
                return link.forward(local, remote, kCallMs);
            },
            [this](const VoidResult &r) { settle(r); });
    }

private:
    void settle(const VoidResult &r)
    {
        if (r.ok()) {
            m_backoff = kFirstBackoffMs;
            m_retryAt = QDeadlineTimer();
        } else {
            m_lastError = unreachableHost(m_target.host, r.error());
            m_retryAt = QDeadlineTimer(m_backoff);
            m_backoff = std::min(m_backoff * 2, kMaxBackoffMs);
        }
        const auto waiting = std::exchange(m_waiting, {});
        for (const auto &[context, done] : waiting)
            if (context)
                done(r.ok() ? r : VoidResult(m_lastError));
    }

    static constexpr qint64 kFirstBackoffMs = 1000;
    static constexpr qint64 kMaxBackoffMs = 30000;
    net::SshTarget m_target;
    QString m_local, m_remote;
    QList<QPair<QPointer<QObject>, std::function<void(const VoidResult &)>>> m_waiting;
    QDeadlineTimer m_retryAt;
    qint64 m_backoff = kFirstBackoffMs;
    Error m_lastError;
};

} // namespace

std::shared_ptr<net::ConnectRecovery> sshRecovery(const QVariantMap &settings)
{
    auto target = sshTargetFromSettings(settings);
    const QString local = settings.value(QLatin1String(kLocalSocket)).toString();
    const QString remote = settings.value(QLatin1String(kRemoteSocket)).toString();
    if (!target || local.isEmpty() || remote.isEmpty())
        return {};
    return std::make_shared<SshRecovery>(*target, local, remote);
}

bool isSshEndpoint(const QVariantMap &settings)
{
    return settings.value(QStringLiteral("endpoint"))
        .toString()
        .trimmed()
        .startsWith(QLatin1String("ssh://"), Qt::CaseInsensitive);
}

Result<net::SshTarget> sshTargetFromSettings(const QVariantMap &settings)
{
    auto target = net::SshTarget::parse(settings.value(QStringLiteral("endpoint")).toString());
    if (!target)
        return target.error();
    target->identityFile = settings.value(QStringLiteral("identity")).toString().trimmed();
    target->configFile = settings.value(QStringLiteral("ssh-config")).toString().trimmed();
    return target;
}

AccountConfig prepareSshAccount(Flavour flavour, AccountConfig config)
{
    auto target = sshTargetFromSettings(config.settings);
    if (!target)
        return failed(config, target.error());
    auto folder = net::SshLink::privateFolder();
    if (!folder)
        return failed(config, folder.error());
    net::SshLink link(*target, options(*folder));
    if (auto r = link.connect(kLoginMs); !r)
        return failed(config, r.error());
    // One socket per account and address, short enough for a unix socket path.
    const QByteArray key = (config.name + QLatin1Char('\n') + target->toUrl()).toUtf8();
    const QString base = QDir(*folder).filePath(
        QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha1).toHex().left(16)));
    QString remote = target->socketPath;
    Error why;
    if (remote.isEmpty()) {
        auto found = remoteSocket(link, flavour);
        if (found)
            remote = *found;
        else
            why = found.error();
    }
    if (!remote.isEmpty()) {
        const QString local = base + QStringLiteral(".sock");
        auto forwarded = link.forward(local, remote, kCallMs);
        if (forwarded && answersPing(local)) {
            config.settings.insert(QLatin1String(kLocalSocket), local);
            config.settings.insert(QLatin1String(kRemoteSocket), remote);
            return config;
        }
        // No socket there: say so, rather than try the engine's dial-stdio on nothing.
        if (!link.run(QStringLiteral("test -S ") + shellQuoted(remote), kCallMs))
            return failed(
                config,
                makeError(
                    ErrorCode::Unavailable,
                    tr("There is no engine socket %1 on %2: is the engine running there?").arg(remote, target->host)));
        why = forwarded ? makeError(ErrorCode::Unavailable,
                                    tr("%1 does not forward the engine's socket %2 (AllowStreamLocalForwarding).")
                                        .arg(target->host, remote))
                        : forwarded.error();
    }
    // Docker's own way: the engine's dial-stdio on the host, one channel per connection.
    const QString program = flavour == Flavour::Podman ? QStringLiteral("podman") : QStringLiteral("docker");
    if (!link.run(QStringLiteral("command -v ") + program, kCallMs))
        return failed(config, why);
    config.settings.insert(QLatin1String(kLocalSocket), QString(base + QStringLiteral(".dial.sock")));
    config.settings.insert(QLatin1String(kDialStdio), dialStdioCommand(flavour, remote));
    return config;
}

Result<std::unique_ptr<net::SshStdioBridge>> sshBridge(const QVariantMap &settings)
{
    const QString command = settings.value(QLatin1String(kDialStdio)).toString();
    if (command.isEmpty() || settings.contains(QLatin1String(kSshError)))
        return std::unique_ptr<net::SshStdioBridge>();
    auto target = sshTargetFromSettings(settings);
    auto folder = net::SshLink::privateFolder();
    if (!target)
        return target.error();
    if (!folder)
        return folder.error();
    auto bridge = std::make_unique<net::SshStdioBridge>(*target, options(*folder), command);
    if (auto r = bridge->listen(settings.value(QLatin1String(kLocalSocket)).toString()); !r)
        return r.error();
    return bridge;
}

SshPortForwarder::SshPortForwarder(net::SshTarget target, QObject *parent)
    : QObject(parent)
    , m_target(std::move(target))
{
}

QList<SessionEndpoint> SshPortForwarder::map(QList<SessionEndpoint> endpoints)
{
    for (SessionEndpoint &e : endpoints) {
        QUrl url(e.url);
        if (!url.isValid() || url.port() <= 0)
            continue;
        // A port published on every address of the host is reached on its loopback.
        QString host = url.host();
        if (host == QLatin1String("0.0.0.0") || host == QLatin1String("::") || host.isEmpty())
            host = QStringLiteral("127.0.0.1");
        const int remotePort = url.port();
        const QString key = host + QLatin1Char(':') + QString::number(remotePort);
        int local = m_local.value(key);
        if (local == 0) {
            QTcpServer probe; // a free port here, given back at once for ssh to bind
            if (!probe.listen(QHostAddress::LocalHost, 0))
                continue;
            local = probe.serverPort();
            probe.close();
            m_local.insert(key, local);
            runOffThread<VoidResult>(
                this,
                [target = m_target, local, host, remotePort]() -> VoidResult {
                    auto folder = net::SshLink::privateFolder();
                    if (!folder)
                        return folder.error();
                    return net::SshLink(target, options(*folder)).forwardTcp(local, host, remotePort, kCallMs);
                },
                [this, key](const VoidResult &r) {
                    if (!r.ok())
                        m_local.remove(key);
                });
        }
        url.setHost(QStringLiteral("127.0.0.1"));
        url.setPort(local);
        e.url = url.toString();
    }
    return endpoints;
}

Result<HostKeyOffer> sshHostKey(const QVariantMap &settings, const QString &pin, bool trust)
{
    auto target = sshTargetFromSettings(settings);
    if (!target)
        return target.error();
    auto folder = net::SshLink::privateFolder();
    if (!folder)
        return folder.error();
    net::SshLink link(*target, options(*folder));
    auto key = trust ? link.trustHostKey(pin, kCallMs) : link.scanHostKey(kCallMs);
    if (!key)
        return key.error();
    return HostKeyOffer{target->host, key->fingerprint, key->knownHostsFile};
}

void endSshMaster(const QVariantMap &settings)
{
    auto target = sshTargetFromSettings(settings);
    auto folder = net::SshLink::privateFolder();
    if (!target || !folder)
        return;
    net::SshLink link(*target, options(*folder));
    (void)link.exitMaster(kCallMs);
}

Result<net::Endpoint> sshLocalEndpoint(const QVariantMap &settings)
{
    if (settings.contains(QLatin1String(kSshError)))
        return makeError(ErrorCode(settings.value(QLatin1String(kSshErrorCode)).toInt()),
                         settings.value(QLatin1String(kSshError)).toString());
    const QString local = settings.value(QLatin1String(kLocalSocket)).toString();
    if (local.isEmpty())
        return makeError(ErrorCode::Internal, tr("The SSH connection was not prepared."));
    net::Endpoint ep;
    ep.kind = net::Endpoint::Kind::Unix;
    ep.path = local;
    return ep;
}

} // namespace sandbar::docker
