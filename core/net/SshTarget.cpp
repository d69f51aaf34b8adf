#include "net/SshTarget.h"

#include "net/NetTr.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QUrl>

#if defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace sandbar::net {

namespace {

Error badSshAddress(const QString &url, const QString &why)
{
    return makeError(ErrorCode::InvalidArgument, tr("Invalid SSH address \"%1\": %2").arg(url, why));
}

// The account's ssh config file and port, as every call names them.
QStringList configAndPort(const SshTarget &target)
{
    QStringList args;
    if (!target.configFile.isEmpty())
        args << QStringLiteral("-F") << target.configFile;
    if (target.port > 0)
        args << QStringLiteral("-p") << QString::number(target.port);
    return args;
}

// A name ssh would read as an option, or one that carries a space or a control character,
// is refused rather than quoted: none is a real user or host.
bool safeName(const QString &name)
{
    if (name.startsWith(QLatin1Char('-')))
        return false;
    for (const QChar c : name) {
        if (c.isSpace() || c.category() == QChar::Other_Control)
            return false;
    }
    return true;
}

} // namespace

QString SshTarget::tr(const char *text)
{
    return QCoreApplication::translate("sandbar::net::SshTarget", text);
}

Result<SshTarget> SshTarget::parse(const QString &input)
{
    const QString url = input.trimmed();
    if (!url.startsWith(QLatin1String("ssh://"), Qt::CaseInsensitive))
        return badSshAddress(url, tr("expected ssh://[user@]host[:port][/socket-path]"));
    const QUrl parsed(url, QUrl::StrictMode);
    if (!parsed.isValid() || parsed.host().isEmpty())
        return badSshAddress(url, tr("the host is missing"));
    if (!parsed.password().isEmpty())
        return badSshAddress(url, tr("passwords are not taken in the address; use a key (ssh-agent or --identity)"));
    if (parsed.hasQuery() || parsed.hasFragment())
        return badSshAddress(url, tr("queries and fragments are not supported"));
    SshTarget t;
    t.user = parsed.userName();
    t.host = parsed.host();
    if (!safeName(t.host))
        return badSshAddress(url, tr("the host \"%1\" is not a host name").arg(t.host));
    if (!safeName(t.user))
        return badSshAddress(url, tr("the user \"%1\" is not a user name").arg(t.user));
    const int port = parsed.port(0);
    if (port < 0 || port > 65535)
        return badSshAddress(url, tr("invalid port"));
    t.port = port;
    const QString path = parsed.path();
    if (!path.isEmpty() && path != QLatin1String("/"))
        t.socketPath = QDir::cleanPath(path);
    return t;
}

QString SshTarget::toUrl() const
{
    QUrl u;
    u.setScheme(QStringLiteral("ssh"));
    u.setUserName(user);
    u.setHost(host);
    if (port > 0)
        u.setPort(port);
    u.setPath(socketPath);
    return u.toString();
}

QString SshTarget::destination() const
{
    // ssh takes an IPv6 address bare, without URL brackets.
    return user.isEmpty() ? host : user + QLatin1Char('@') + host;
}

QStringList sshBaseArguments(const SshTarget &target, const SshOptions &options)
{
    QStringList args = configAndPort(target);
    if (!target.identityFile.isEmpty())
        args << QStringLiteral("-i") << target.identityFile;
    const auto option = [&args](const QString &text) { args << QStringLiteral("-o") << text; };
    option(QStringLiteral("ForwardAgent=no"));
    option(QStringLiteral("ForwardX11=no"));
    option(QStringLiteral("PermitLocalCommand=no"));
    option(QStringLiteral("StrictHostKeyChecking=yes"));
    option(QStringLiteral("ConnectTimeout=%1").arg(options.connectTimeoutS));
    option(QStringLiteral("ServerAliveInterval=%1").arg(options.aliveIntervalS));
    option(QStringLiteral("ServerAliveCountMax=3"));
    if (options.batchMode)
        option(QStringLiteral("BatchMode=yes"));
    if (!options.ciphers.isEmpty())
        option(QStringLiteral("Ciphers=") + options.ciphers);
    if (!options.controlDir.isEmpty()) {
        option(QStringLiteral("ControlMaster=auto"));
        option(QStringLiteral("ControlPath=") + QDir(options.controlDir).filePath(QStringLiteral("%C")));
        option(QStringLiteral("ControlPersist=%1").arg(options.persistS));
    }
    return args;
}

QStringList sshCommandArguments(const SshTarget &target, const SshOptions &options, const QString &command)
{
    return sshBaseArguments(target, options)
           << QStringLiteral("-T") << QStringLiteral("--") << target.destination() << command;
}

QStringList sshMasterArguments(const SshTarget &target, const SshOptions &options)
{
    QStringList args = sshBaseArguments(target, options);
    // The master binds every forwarded socket: owner only, replacing one left from before.
    args << QStringLiteral("-o") << QStringLiteral("StreamLocalBindMask=0177") << QStringLiteral("-o")
         << QStringLiteral("StreamLocalBindUnlink=yes") << QStringLiteral("-o")
         << QStringLiteral("ExitOnForwardFailure=yes") << QStringLiteral("-N") << QStringLiteral("-f")
         << QStringLiteral("--") << target.destination();
    return args;
}

QStringList sshForwardArguments(const SshTarget &target, const SshOptions &options, const QString &localSocket,
                                const QString &remoteSocket)
{
    return sshBaseArguments(target, options)
           << QStringLiteral("-O") << QStringLiteral("forward") << QStringLiteral("-L")
           << localSocket + QLatin1Char(':') + remoteSocket << QStringLiteral("--") << target.destination();
}

QStringList sshTcpForwardArguments(const SshTarget &target, const SshOptions &options, int localPort,
                                   const QString &remoteHost, int remotePort)
{
    // IPv6 addresses go in brackets, as -L spells them.
    const QString host =
        remoteHost.contains(QLatin1Char(':')) ? QLatin1Char('[') + remoteHost + QLatin1Char(']') : remoteHost;
    return sshBaseArguments(target, options)
           << QStringLiteral("-O") << QStringLiteral("forward") << QStringLiteral("-L")
           << QStringLiteral("127.0.0.1:%1:%2:%3").arg(localPort).arg(host).arg(remotePort) << QStringLiteral("--")
           << target.destination();
}

QStringList sshControlArguments(const SshTarget &target, const SshOptions &options, const QString &request)
{
    return sshBaseArguments(target, options)
           << QStringLiteral("-O") << request << QStringLiteral("--") << target.destination();
}

QStringList sshConfigQueryArguments(const SshTarget &target)
{
    return configAndPort(target) << QStringLiteral("-G") << QStringLiteral("--") << target.destination();
}

QStringList sshDefaultConfigQueryArguments(const SshTarget &target)
{
    return {QStringLiteral("-F"), QStringLiteral("/dev/null"), QStringLiteral("-G"), QStringLiteral("--"),
            target.destination()};
}

namespace {
QByteArray cipherLine(const QByteArray &configOutput)
{
    for (const QByteArray &line : configOutput.split('\n'))
        if (line.trimmed().toLower().startsWith("ciphers "))
            return line.trimmed().mid(8).trimmed();
    return {};
}
} // namespace

QString preferredCiphers(const QByteArray &hostConfig, const QByteArray &defaultConfig, bool cpuHasAes)
{
    const QByteArray host = cipherLine(hostConfig);
    if (!cpuHasAes || host.isEmpty() || host != cipherLine(defaultConfig))
        return {};
    const QList<QByteArray> offered = host.split(',');
    if (!offered.contains("aes128-gcm@openssh.com") || !offered.contains("aes256-gcm@openssh.com"))
        return {};
    return QStringLiteral("^aes128-gcm@openssh.com,aes256-gcm@openssh.com");
}

bool cpuHasAesInstructions()
{
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_cpu_supports("aes");
#elif defined(__aarch64__) && defined(__linux__)
    return (getauxval(AT_HWCAP) & HWCAP_AES) != 0;
#elif defined(__aarch64__) && defined(__APPLE__)
    return true; // every Apple processor has them
#else
    return false;
#endif
}

QStringList sshScanArguments(const SshTarget &target, const SshOptions &options, const QString &knownHostsFile)
{
    // ssh keeps the first value it gets for an option: these come before the config file's.
    QStringList args;
    const auto option = [&args](const QString &text) { args << QStringLiteral("-o") << text; };
    option(QStringLiteral("StrictHostKeyChecking=accept-new"));
    option(QStringLiteral("UserKnownHostsFile=") + knownHostsFile);
    option(QStringLiteral("GlobalKnownHostsFile=/dev/null"));
    option(QStringLiteral("UpdateHostKeys=no"));
    option(QStringLiteral("BatchMode=yes"));
    option(QStringLiteral("ControlMaster=no"));
    option(QStringLiteral("ControlPath=none"));
    // No credential leaves this machine: a method that is off, no agent, no key file.
    option(QStringLiteral("PreferredAuthentications=hostbased"));
    option(QStringLiteral("HostbasedAuthentication=no"));
    option(QStringLiteral("IdentityAgent=none"));
    option(QStringLiteral("IdentitiesOnly=yes"));
    option(QStringLiteral("ForwardAgent=no"));
    option(QStringLiteral("ForwardX11=no"));
    option(QStringLiteral("PermitLocalCommand=no"));
    option(QStringLiteral("ClearAllForwardings=yes"));
    option(QStringLiteral("ConnectTimeout=%1").arg(options.connectTimeoutS));
    return args << configAndPort(target) << QStringLiteral("-T") << QStringLiteral("--") << target.destination()
                << QStringLiteral("true");
}

QString hostKeyFingerprint(const QByteArray &knownHostsLine)
{
    QList<QByteArray> fields = knownHostsLine.simplified().split(' ');
    if (!fields.isEmpty() && fields.first().startsWith('@')) // @cert-authority, @revoked
        fields.removeFirst();
    if (fields.size() < 3 || fields.first().startsWith('#'))
        return {};
    const auto decoded = QByteArray::fromBase64Encoding(fields.at(2), QByteArray::Base64Encoding |
                                                                          QByteArray::AbortOnBase64DecodingErrors);
    // A key blob is length-prefixed fields, the first the type the line names, the last ending
    // where the blob ends: anything else was cut or is not a key.
    const QByteArray &type = fields.at(1);
    const QByteArray &blob = decoded.decoded;
    if (!decoded || blob.size() < 4 + type.size() || blob.mid(4, type.size()) != type)
        return {};
    qsizetype at = 0;
    int parts = 0;
    while (at + 4 <= blob.size()) {
        const auto *p = reinterpret_cast<const uchar *>(blob.constData() + at);
        const quint32 length = (quint32(p[0]) << 24) | (quint32(p[1]) << 16) | (quint32(p[2]) << 8) | p[3];
        if (length > quint32(blob.size() - at - 4))
            return {};
        at += 4 + qsizetype(length);
        ++parts;
    }
    if (at != blob.size() || parts < 2)
        return {};
    const QByteArray digest = QCryptographicHash::hash(decoded.decoded, QCryptographicHash::Sha256);
    return QStringLiteral("SHA256:") +
           QString::fromLatin1(digest.toBase64(QByteArray::Base64Encoding | QByteArray::OmitTrailingEquals));
}

QString userKnownHostsFile(const QByteArray &configOutput)
{
    for (const QByteArray &line : configOutput.split('\n')) {
        const QByteArray l = line.trimmed();
        if (!l.toLower().startsWith("userknownhostsfile "))
            continue;
        const QList<QByteArray> files = l.mid(19).simplified().split(' ');
        const QString first = QString::fromLocal8Bit(files.value(0));
        return first == QLatin1String("none") || !first.startsWith(QLatin1Char('/')) ? QString() : first;
    }
    return {};
}

} // namespace sandbar::net
