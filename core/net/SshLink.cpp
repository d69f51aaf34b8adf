#include "net/SshLink.h"

#include "net/SshAskpass.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocalSocket>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryFile>

namespace sandbar::net {

namespace {

const QString kSsh = QStringLiteral("ssh");

// ssh's last words, without its warnings about adding host keys and the like.
QString lastLine(const QByteArray &text)
{
    const QList<QByteArray> lines = text.trimmed().split('\n');
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        const QByteArray l = it->trimmed();
        if (!l.isEmpty() && !l.startsWith("Warning: Permanently added"))
            return QString::fromUtf8(l);
    }
    return {};
}

} // namespace

QString SshLink::tr(const char *text)
{
    return QCoreApplication::translate("sandbar::net::SshLink", text);
}

SshLink::SshLink(SshTarget target, SshOptions options)
    : m_target(std::move(target))
    , m_options(std::move(options))
{
}

Result<QString> SshLink::privateFolder()
{
    const QString runtime = QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation);
    if (runtime.isEmpty())
        return makeError(ErrorCode::Unavailable, tr("There is no runtime folder for SSH's sockets."));
    const QString dir = QDir(runtime).filePath(QStringLiteral("sandbar/ssh"));
    if (!QDir().mkpath(dir) ||
        !QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner))
        return makeError(ErrorCode::Unavailable, tr("Cannot make the private folder %1 for SSH's sockets.").arg(dir));
    return dir;
}

Error SshLink::sshError(const QString &host, int exitCode, const QByteArray &stderrText)
{
    const QString said = lastLine(stderrText);
    if (stderrText.contains("REMOTE HOST IDENTIFICATION HAS CHANGED") ||
        stderrText.contains("has changed and you have"))
        return makeError(ErrorCode::Unauthorized,
                         tr("The host key of %1 has changed: refused, nothing was sent. If the host was "
                            "reinstalled, remove its old key from known_hosts and trust the new one.")
                             .arg(host));
    if (stderrText.contains("Host key verification failed") || stderrText.contains("host key is known"))
        return makeError(ErrorCode::UnknownHost,
                         tr("The host key of %1 is not known: refused, nothing was sent. Check its fingerprint "
                            "and trust it first.")
                             .arg(host));
    if (stderrText.contains("Permission denied"))
        return makeError(ErrorCode::Unauthorized, tr("%1 refused the login (%2). Load the key into ssh-agent or "
                                                     "name it with --identity.")
                                                      .arg(host, said));
    if (said.isEmpty())
        return makeError(ErrorCode::Unavailable, tr("ssh to %1 ended with code %2.").arg(host).arg(exitCode));
    return makeError(ErrorCode::Unavailable, tr("ssh to %1: %2").arg(host, said));
}

Result<SshLink::Ended> SshLink::runProcess(const QStringList &arguments, int timeoutMs, bool wantOutput)
{
    QProcess p;
    p.setProgram(kSsh);
    p.setArguments(arguments);
    p.setStandardInputFile(QProcess::nullDevice());
    if (const auto env = askpassEnvironment())
        p.setProcessEnvironment(*env);
    // A master that ssh leaves in the background keeps what it inherited open: its output
    // goes to a file, so that nothing here waits for a pipe it holds.
    QTemporaryFile err(QDir(m_options.controlDir).filePath(QStringLiteral("ssh-XXXXXX.err")));
    if (!err.open())
        return makeError(ErrorCode::Unavailable, tr("Cannot write in %1.").arg(m_options.controlDir));
    p.setStandardErrorFile(err.fileName());
    if (!wantOutput)
        p.setStandardOutputFile(QProcess::nullDevice());
    p.start();
    if (!p.waitForStarted(timeoutMs))
        return makeError(ErrorCode::Unavailable,
                         tr("Cannot run ssh (%1); install the OpenSSH client.").arg(p.errorString()));
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(2000);
        return makeError(ErrorCode::Timeout,
                         tr("ssh to %1 did not finish within %2 s.").arg(m_target.host).arg(timeoutMs / 1000));
    }
    Ended ended;
    ended.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    ended.out = wantOutput ? p.readAllStandardOutput() : QByteArray();
    ended.err = err.readAll();
    return ended;
}

Result<QByteArray> SshLink::runSsh(const QStringList &arguments, int timeoutMs, bool wantOutput)
{
    auto ended = runProcess(arguments, timeoutMs, wantOutput);
    if (!ended)
        return ended.error();
    if (ended->code != 0)
        return sshError(m_target.host, ended->code, ended->err);
    return ended->out;
}

Result<HostKey> SshLink::scanHostKey(int timeoutMs)
{
    QTemporaryFile seen(QDir(m_options.controlDir).filePath(QStringLiteral("hostkey-XXXXXX")));
    if (!seen.open())
        return makeError(ErrorCode::Unavailable, tr("Cannot write in %1.").arg(m_options.controlDir));
    auto ended = runProcess(sshScanArguments(m_target, m_options, seen.fileName()), timeoutMs, false);
    if (!ended)
        return ended.error();
    HostKey key;
    for (const QByteArray &line : seen.readAll().split('\n')) {
        const QString fp = hostKeyFingerprint(line);
        if (fp.isEmpty() || (!key.fingerprint.isEmpty() && fp != key.fingerprint))
            continue;
        key.fingerprint = fp;
        key.lines += line.trimmed() + '\n';
    }
    if (key.fingerprint.isEmpty())
        return sshError(m_target.host, ended->code, ended->err);
    auto config = runSsh(sshConfigQueryArguments(m_target), timeoutMs, true);
    if (!config)
        return config.error();
    key.knownHostsFile = userKnownHostsFile(*config);
    if (key.knownHostsFile.isEmpty())
        return makeError(
            ErrorCode::Unsupported,
            tr("The ssh configuration for %1 names no known_hosts file to trust its key in.").arg(m_target.host));
    return key;
}

Result<HostKey> SshLink::trustHostKey(const QString &pin, int timeoutMs)
{
    auto key = scanHostKey(timeoutMs);
    if (!key)
        return key.error();
    if (!pin.isEmpty() && pin != key->fingerprint)
        return makeError(ErrorCode::Conflict, tr("%1 now offers the key %2, not the %3 you accepted: nothing was "
                                                 "trusted.")
                                                  .arg(m_target.host, key->fingerprint, pin));
    const QFileInfo info(key->knownHostsFile);
    if (!info.dir().exists() &&
        (!QDir().mkpath(info.path()) ||
         !QFile::setPermissions(info.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner)))
        return makeError(ErrorCode::Unavailable, tr("Cannot make the folder %1.").arg(info.path()));
    QFile file(key->knownHostsFile);
    if (!file.open(QIODevice::ReadWrite | QIODevice::Append))
        return makeError(ErrorCode::Unavailable,
                         tr("Cannot write %1: %2").arg(key->knownHostsFile, file.errorString()));
    // A last line without its newline would join the new one.
    QByteArray text = key->lines;
    if (file.size() > 0 && file.seek(file.size() - 1) && file.read(1) != "\n")
        text.prepend('\n');
    if (file.write(text) != text.size() || !file.flush())
        return makeError(ErrorCode::Unavailable,
                         tr("Cannot write %1: %2").arg(key->knownHostsFile, file.errorString()));
    return key;
}

bool SshLink::masterAlive()
{
    return runSsh(sshControlArguments(m_target, m_options, QStringLiteral("check")), 5000, false).ok();
}

VoidResult SshLink::connect(int timeoutMs)
{
    // A master left by an earlier run (sandbarctl's last command, say) is reused: no login.
    if (masterAlive())
        return {};
    // Two reads of ssh's configuration, no network: the master negotiates the cipher for all.
    if (m_options.ciphers.isEmpty() && cpuHasAesInstructions()) {
        auto host = runSsh(sshConfigQueryArguments(m_target), timeoutMs, true);
        auto defaults = runSsh(sshDefaultConfigQueryArguments(m_target), timeoutMs, true);
        if (host && defaults)
            m_options.ciphers = preferredCiphers(*host, *defaults, true);
    }
    auto r = runSsh(sshMasterArguments(m_target, m_options), timeoutMs, false);
    if (!r)
        return r.error();
    return {};
}

Result<QByteArray> SshLink::run(const QString &command, int timeoutMs)
{
    return runSsh(sshCommandArguments(m_target, m_options, command), timeoutMs, true);
}

VoidResult SshLink::forward(const QString &localSocket, const QString &remoteSocket, int timeoutMs)
{
    if (QFileInfo(localSocket).exists()) {
        // The master forwards it still (an earlier run asked): nothing to do.
        QLocalSocket probe;
        probe.connectToServer(localSocket);
        if (probe.waitForConnected(1000))
            return {};
        // Left by a master that is gone: the forwarding would fail on it.
        if (!QFile::remove(localSocket))
            return makeError(ErrorCode::Unavailable, tr("Cannot replace the old socket %1.").arg(localSocket));
    }
    auto r = runSsh(sshForwardArguments(m_target, m_options, localSocket, remoteSocket), timeoutMs, false);
    if (!r)
        return r.error();
    return {};
}

VoidResult SshLink::forwardTcp(int localPort, const QString &remoteHost, int remotePort, int timeoutMs)
{
    auto r = runSsh(sshTcpForwardArguments(m_target, m_options, localPort, remoteHost, remotePort), timeoutMs, false);
    if (!r)
        return r.error();
    return {};
}

VoidResult SshLink::exitMaster(int timeoutMs)
{
    if (!masterAlive())
        return {};
    auto r = runSsh(sshControlArguments(m_target, m_options, QStringLiteral("exit")), timeoutMs, false);
    if (!r)
        return r.error();
    return {};
}

} // namespace sandbar::net
