#pragma once

#include "common/Result.h"
#include "net/SshTarget.h"

#include <QByteArray>
#include <QString>

namespace sandbar::net {

// A remote engine's socket made local over SSH with the system's OpenSSH client: the host's
// master connection (started in the background by ssh itself, ControlPersist) carries a
// forwarding of the remote socket to a private local socket, so the engine's HTTP client,
// streams, hijacked terminals and uploads work as on a local socket. Every call is a short
// ssh process and BLOCKS until it ends: for worker threads only (ProviderFactory::preparation).
// The key a host offers, as ssh would write it to known_hosts, and the file it goes to.
struct HostKey {
    QString fingerprint;    // SHA256:…, what the person compares
    QByteArray lines;       // known_hosts lines, as ssh itself wrote them
    QString knownHostsFile; // the first UserKnownHostsFile in effect for the host
};

class SshLink
{
public:
    // options.controlDir holds the master's control socket: a folder only the user can read
    // (privateFolder()), short, since a unix socket path has about 100 bytes.
    SshLink(SshTarget target, SshOptions options);

    // The host's master connection, started once: later calls and forwardings ride on it,
    // and it ends by itself after options.persistS without use (ControlPersist).
    VoidResult connect(int timeoutMs);
    // Whether the master connection is up (ssh -O check: no login).
    bool masterAlive();
    // Runs command on the host through the master; its standard output.
    Result<QByteArray> run(const QString &command, int timeoutMs);
    // Forwards the remote socket to localSocket; a forwarding the master still serves there is
    // kept, a socket left by a master that is gone is replaced.
    VoidResult forward(const QString &localSocket, const QString &remoteSocket, int timeoutMs);
    // Forwards this machine's 127.0.0.1:localPort to remoteHost:remotePort on the host.
    VoidResult forwardTcp(int localPort, const QString &remoteHost, int remotePort, int timeoutMs);
    // Ends the master and with it its forwardings (ssh -O exit): the account is removed, or a
    // test is done with its server. Nothing to do (and success) when no master is up.
    VoidResult exitMaster(int timeoutMs);

    // The key the host offers now, learnt without trusting it or logging in (no credential is
    // offered); nothing is written where ssh looks for keys.
    Result<HostKey> scanHostKey(int timeoutMs);
    // Trusts the key the host offers: appended to the known_hosts file in effect for the host.
    // With pin (a fingerprint the person was shown), only that key: another is refused.
    Result<HostKey> trustHostKey(const QString &pin, int timeoutMs);

    const SshTarget &target() const { return m_target; }
    const SshOptions &options() const { return m_options; }

    // The folder for control sockets and local engine sockets: the user's runtime folder's
    // sandbar/ssh, made private; an error when it cannot be.
    static Result<QString> privateFolder();
    // What ssh said, as one line a person can act on (host key, login, network).
    static Error sshError(const QString &host, int exitCode, const QByteArray &stderrText);

private:
    // Translates in the context lupdate gives this class's tr() calls.
    static QString tr(const char *text);
    struct Ended {
        int code = -1;
        QByteArray out, err;
    };
    // ssh to its end, whatever its exit code; an error only when it did not run or end.
    Result<Ended> runProcess(const QStringList &arguments, int timeoutMs, bool wantOutput);
    Result<QByteArray> runSsh(const QStringList &arguments, int timeoutMs, bool wantOutput);

    SshTarget m_target;
    SshOptions m_options;
};

} // namespace sandbar::net
