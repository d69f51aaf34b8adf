#include "providers/docker/DockerSsh.h"

#include "common/OffThread.h"
#include "net/SshLink.h"
#include "providers/docker/DockerTr.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QPointer>

namespace sandbar::docker {

namespace {
// Written by prepareSshAccount for create(); never saved (the registry's copy only).
constexpr char kLocalSocket[] = "sshLocalSocket";
constexpr char kRemoteSocket[] = "sshRemoteSocket";
constexpr char kSshError[] = "sshError";
constexpr char kSshErrorCode[] = "sshErrorCode";
constexpr int kLoginMs = 30000;
constexpr int kCallMs = 15000;

net::SshOptions options(const QString &folder)
{
    net::SshOptions o;
    o.controlDir = folder;
    // Nothing can answer a prompt yet: a key with a passphrase is used through ssh-agent.
    o.batchMode = true;
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
    QString remote = target->socketPath;
    if (remote.isEmpty()) {
        auto found = remoteSocket(link, flavour);
        if (!found)
            return failed(config, found.error());
        remote = *found;
    }
    // One socket per account and address, short enough for a unix socket path.
    const QByteArray key = (config.name + QLatin1Char('\n') + target->toUrl()).toUtf8();
    const QString local = QDir(*folder).filePath(
        QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha1).toHex().left(16)) +
        QStringLiteral(".sock"));
    if (auto r = link.forward(local, remote, kCallMs); !r)
        return failed(config, r.error());
    config.settings.insert(QLatin1String(kLocalSocket), local);
    config.settings.insert(QLatin1String(kRemoteSocket), remote);
    return config;
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
    if (link.masterAlive())
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
