#include "providers/docker/DockerSsh.h"

#include "net/SshLink.h"
#include "providers/docker/DockerTr.h"

#include <QCryptographicHash>
#include <QDir>

namespace sandbar::docker {

namespace {
// Written by prepareSshAccount for create(); never saved (the registry's copy only).
constexpr char kLocalSocket[] = "sshLocalSocket";
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

} // namespace

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
