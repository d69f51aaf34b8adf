#pragma once
// A private OpenSSH server for the remote tests: /usr/sbin/sshd -D -f CONFIG on a free loopback
// port, its own ed25519 host key, an ed25519 user key authorized for the current user, and an
// ssh_config (given to Sandbar as --ssh-config) whose host "sandbar-test" names all of it, with
// a known_hosts of its own: nothing of the user's own SSH setup is read or changed.

#include "net/SshLink.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>
#include <csignal>
#include <pwd.h>
#include <unistd.h>

namespace sandbar::test {

class PrivateSshd
{
public:
    static QString program() { return QStringLiteral("/usr/sbin/sshd"); }
    static bool available()
    {
        return QFile::exists(program()) && !QStandardPaths::findExecutable(QStringLiteral("ssh")).isEmpty();
    }

    // streamForwarding false: the server refuses to forward unix sockets (AllowStreamLocalForwarding no).
    explicit PrivateSshd(bool streamForwarding = true)
        : m_streamForwarding(streamForwarding)
    {
    }
    ~PrivateSshd() { stop(); }

    // Keys, configuration and the server; false with error() set when something failed.
    bool start()
    {
        if (!m_dir.isValid())
            return fail(QStringLiteral("no temporary folder"));
        // sshd wants its privilege separation folder, as the package's service makes it.
        QDir().mkpath(QStringLiteral("/run/sshd"));
        if (!keygen(QStringLiteral("host_ed25519")) || !keygen(QStringLiteral("id_ed25519")) ||
            !keygen(QStringLiteral("other_ed25519")) || !keygen(QStringLiteral("impostor_ed25519")) ||
            !keygen(QStringLiteral("locked_ed25519"), passphrase()))
            return false;
        // The plain key and the one locked with a passphrase may log in.
        QFile::copy(path(QStringLiteral("id_ed25519.pub")), path(QStringLiteral("authorized_keys")));
        QFile locked(path(QStringLiteral("locked_ed25519.pub")));
        QFile authorized(path(QStringLiteral("authorized_keys")));
        if (!locked.open(QIODevice::ReadOnly) || !authorized.open(QIODevice::Append) ||
            authorized.write(locked.readAll()) <= 0)
            return fail(QStringLiteral("cannot authorize the locked key"));
        authorized.close();
        m_port = freePort();
        write(QStringLiteral("sshd_config"),
              QStringLiteral("Port %1\nListenAddress 127.0.0.1\nHostKey %2\nPidFile %3\nAuthorizedKeysFile %4\n"
                             "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                             "PermitRootLogin prohibit-password\nUsePAM no\nStrictModes no\n"
                             "AllowStreamLocalForwarding %5\nMaxStartups 100\nLogLevel VERBOSE\n")
                  .arg(m_port)
                  .arg(path(QStringLiteral("host_ed25519")), path(QStringLiteral("sshd.pid")),
                       path(QStringLiteral("authorized_keys")),
                       m_streamForwarding ? QStringLiteral("yes") : QStringLiteral("no")));
        trustHostKey(QStringLiteral("host_ed25519.pub"));
        write(QStringLiteral("ssh_config"),
              QStringLiteral("Host sandbar-test\n  HostName 127.0.0.1\n  Port %1\n  User %2\n  IdentityFile %3\n"
                             "  IdentitiesOnly yes\n  UserKnownHostsFile %4\n  GlobalKnownHostsFile /dev/null\n"
                             "  LogLevel ERROR\n")
                  .arg(m_port)
                  .arg(userName(), path(QStringLiteral("id_ed25519")), path(QStringLiteral("known_hosts"))));
        return launch();
    }

    // The server (again, after stop()) on the same port, keys and configuration.
    bool launch()
    {
        m_server.setProcessChannelMode(QProcess::MergedChannels);
        m_server.setStandardOutputFile(path(QStringLiteral("sshd.log")), QIODevice::Append);
        m_server.start(program(), {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"),
                                   path(QStringLiteral("sshd_config"))});
        if (!m_server.waitForStarted(10000))
            return fail(QStringLiteral("sshd did not start: ") + m_server.errorString());
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 20000) {
            QTcpSocket probe;
            probe.connectToHost(QStringLiteral("127.0.0.1"), quint16(m_port));
            if (probe.waitForConnected(500))
                return true;
            if (m_server.state() == QProcess::NotRunning)
                return fail(QStringLiteral("sshd ended: ") + QString::fromUtf8(log()));
            QThread::msleep(50);
        }
        return fail(QStringLiteral("sshd did not listen on port %1").arg(m_port));
    }

    void stop()
    {
        if (m_server.state() != QProcess::NotRunning) {
            m_server.terminate();
            if (!m_server.waitForFinished(5000))
                m_server.kill();
            m_server.waitForFinished(2000);
        }
    }

    // The processes that serve the server's connections (its descendants): killed, the
    // connections end as if the network dropped them, whether the listener still runs or not.
    QList<qint64> connectionProcesses() const
    {
        QHash<qint64, qint64> parentOf;
        const auto entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        for (const QString &pid : entries) {
            QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
            if (!stat.open(QIODevice::ReadOnly))
                continue;
            // pid (comm) state ppid ...: comm may hold spaces, the last ')' ends it.
            const QByteArray text = stat.readAll();
            const QList<QByteArray> rest = text.mid(text.lastIndexOf(')') + 2).split(' ');
            if (rest.size() > 1)
                parentOf.insert(pid.toLongLong(), rest.at(1).toLongLong());
        }
        const qint64 server = m_server.processId();
        QList<qint64> serving;
        for (auto it = parentOf.cbegin(); it != parentOf.cend(); ++it) {
            qint64 up = it.value();
            for (int depth = 0; depth < 8 && up > 1 && up != server; ++depth)
                up = parentOf.value(up);
            if (up == server && server > 0)
                serving << it.key();
        }
        return serving;
    }
    static int kill(const QList<qint64> &processes)
    {
        int killed = 0;
        for (qint64 pid : processes)
            killed += ::kill(pid_t(pid), SIGKILL) == 0 ? 1 : 0;
        return killed;
    }

    // The passphrase of locked_ed25519.
    static QString passphrase() { return QStringLiteral("correct horse battery"); }

    QString path(const QString &name) const { return m_dir.filePath(name); }
    QString sshConfig() const { return path(QStringLiteral("ssh_config")); }
    int port() const { return m_port; }
    const QString &error() const { return m_error; }
    QByteArray log() const
    {
        QFile f(path(QStringLiteral("sshd.log")));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    // Logins the server accepted so far.
    int logins() const { return int(log().count("Accepted publickey")); }

    // Sandbar's way to this server, with its master connection's control socket in controlDir.
    net::SshLink link(const QString &controlDir) const
    {
        net::SshTarget target;
        target.host = QStringLiteral("sandbar-test");
        target.configFile = sshConfig();
        net::SshOptions options;
        options.controlDir = controlDir;
        options.batchMode = true;
        return net::SshLink(target, options);
    }
    // Ends the master connection whose control socket is in controlDir (and the server's side
    // of it), so that none is left for its ControlPersist; nothing when there is none.
    void endMaster(const QString &controlDir) const { (void)link(controlDir).exitMaster(10000); }

    // The same ssh_config with another key in place of the authorized one.
    QString sshConfigWithKey(const QString &keyName)
    {
        QFile f(sshConfig());
        QString text = f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
        text.replace(path(QStringLiteral("id_ed25519")), path(keyName));
        const QString name = QStringLiteral("ssh_config-") + keyName;
        write(name, text);
        return path(name);
    }

    // known_hosts names the server's real key, another key (as if the host changed), or none.
    void trustHostKey(const QString &publicKeyFile)
    {
        QFile pub(path(publicKeyFile));
        QByteArray key = pub.open(QIODevice::ReadOnly) ? pub.readAll().trimmed() : QByteArray();
        const QList<QByteArray> parts = key.split(' ');
        key = parts.size() >= 2 ? parts.at(0) + ' ' + parts.at(1) : QByteArray();
        write(QStringLiteral("known_hosts"),
              QStringLiteral("[127.0.0.1]:%1 %2\n").arg(m_port).arg(QString::fromLatin1(key)));
    }
    QByteArray knownHosts() const
    {
        QFile f(path(QStringLiteral("known_hosts")));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    void forgetHostKeys() { write(QStringLiteral("known_hosts"), QString()); }

private:
    bool fail(const QString &why)
    {
        m_error = why;
        return false;
    }
    bool keygen(const QString &name, const QString &passphrase = {})
    {
        QProcess k;
        k.start(QStringLiteral("ssh-keygen"),
                {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                 passphrase, QStringLiteral("-C"), name, QStringLiteral("-f"), path(name)});
        if (!k.waitForFinished(20000) || k.exitCode() != 0)
            return fail(QStringLiteral("ssh-keygen failed: ") + QString::fromUtf8(k.readAllStandardError()));
        return true;
    }
    void write(const QString &name, const QString &text) const
    {
        QFile f(path(name));
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(text.toUtf8());
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
    static QString userName()
    {
        const passwd *pw = getpwuid(getuid());
        return pw ? QString::fromLocal8Bit(pw->pw_name) : QStringLiteral("root");
    }
    static int freePort()
    {
        QTcpServer s;
        s.listen(QHostAddress::LocalHost, 0);
        return s.serverPort();
    }

    bool m_streamForwarding = true;
    QTemporaryDir m_dir;
    QProcess m_server;
    int m_port = 0;
    QString m_error;
};

} // namespace sandbar::test
