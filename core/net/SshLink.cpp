#include "net/SshLink.h"

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
        return makeError(ErrorCode::Unauthorized,
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

Result<QByteArray> SshLink::runSsh(const QStringList &arguments, int timeoutMs, bool wantOutput)
{
    QProcess p;
    p.setProgram(kSsh);
    p.setArguments(arguments);
    p.setStandardInputFile(QProcess::nullDevice());
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
    const QByteArray out = wantOutput ? p.readAllStandardOutput() : QByteArray();
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return sshError(m_target.host, p.exitCode(), err.readAll());
    return out;
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

VoidResult SshLink::exitMaster(int timeoutMs)
{
    auto r = runSsh(sshControlArguments(m_target, m_options, QStringLiteral("exit")), timeoutMs, false);
    if (!r)
        return r.error();
    return {};
}

} // namespace sandbar::net
