#pragma once

#include "common/Result.h"

#include <QString>
#include <QStringList>

namespace sandbar::net {

// A remote engine reached over SSH, as ssh://[user@]host[:port][/socket-path] names it. The
// path is the engine's socket on the remote machine (as Podman reads it); without one the
// remote's default engine is meant. Empty user and zero port leave them to ssh's own
// configuration (~/.ssh/config, or the file given as configFile).
struct SshTarget {
    QString user;
    QString host;
    int port = 0;
    QString socketPath;
    QString identityFile; // ssh -i; empty: the user's configuration and ssh-agent
    QString configFile;   // ssh -F; empty: ~/.ssh/config

    static Result<SshTarget> parse(const QString &url);
    QString toUrl() const;
    // [user@]host, what ssh is given after "--".
    QString destination() const;

private:
    // Translates in the context lupdate gives this struct's tr() calls.
    static QString tr(const char *text);
};

// How Sandbar runs the system's OpenSSH client: never forwarding the agent or X11, never
// running a local command, host keys checked by ssh itself (StrictHostKeyChecking=yes: an
// unknown or changed key fails, nothing is sent), a connect timeout and keep-alives, and one
// master connection per host in controlDir (ControlPath %C keeps the path short).
struct SshOptions {
    QString controlDir;       // a folder only the user can read
    int connectTimeoutS = 15; // ssh's ConnectTimeout
    int aliveIntervalS = 15;  // ServerAliveInterval; three missed answers end the connection
    int persistS = 600;       // ControlPersist: the master outlives its last use this long
    bool batchMode = false;   // true for sandbarctl: no prompt, a passphrase must be in ssh-agent
    QString ciphers;          // ssh's Ciphers when Sandbar chooses their order (preferredCiphers)
};

// The options every call of ssh gets, before the destination.
QStringList sshBaseArguments(const SshTarget &target, const SshOptions &options);
// ssh runs command on the remote machine (its words as ssh passes them: one string).
QStringList sshCommandArguments(const SshTarget &target, const SshOptions &options, const QString &command);
// ssh becomes the host's master connection and goes to the background once logged in; it
// binds the sockets later forwardings ask for owner-only.
QStringList sshMasterArguments(const SshTarget &target, const SshOptions &options);
// ssh asks the master to forward localSocket to remoteSocket on the host, and returns.
QStringList sshForwardArguments(const SshTarget &target, const SshOptions &options, const QString &localSocket,
                                const QString &remoteSocket);
// ssh asks the master to forward this machine's 127.0.0.1:localPort to remoteHost:remotePort as
// the host sees it (a session's published port), and returns.
QStringList sshTcpForwardArguments(const SshTarget &target, const SshOptions &options, int localPort,
                                   const QString &remoteHost, int remotePort);
// ssh asks the master something (-O check: is it up; -O exit: end it, and its forwardings).
QStringList sshControlArguments(const SshTarget &target, const SshOptions &options, const QString &request);

// ssh prints the configuration it would use for the host (-G), its known_hosts files among it.
QStringList sshConfigQueryArguments(const SshTarget &target);
// The same for ssh's built-in defaults alone (-F /dev/null): what a configuration changed.
QStringList sshDefaultConfigQueryArguments(const SshTarget &target);

// OpenSSH puts ChaCha20 first because it is fast without AES instructions; with them AES-GCM
// moves about a third more bytes per second through the engine socket. Returns the Ciphers
// value that puts AES-GCM first ("^aes128-gcm@openssh.com,aes256-gcm@openssh.com") when the
// processor has AES instructions and the host's ciphers (ssh -G output) are ssh's defaults
// (the -F /dev/null output), both offering AES-GCM; empty otherwise, so a person's own
// Ciphers line is never overridden.
QString preferredCiphers(const QByteArray &hostConfig, const QByteArray &defaultConfig, bool cpuHasAes);
// Whether this processor has AES instructions (AES-NI, ARMv8 AES).
bool cpuHasAesInstructions();
// ssh connects only to learn the key the host offers: it writes it to knownHostsFile as it
// writes any new key (hashed when HashKnownHosts says so, under HostKeyAlias when set), offers
// no credentials at all, and fails at the login. No master connection takes part.
QStringList sshScanArguments(const SshTarget &target, const SshOptions &options, const QString &knownHostsFile);
// "SHA256:…" of the key on a known_hosts line, as ssh-keygen -l and ssh print it; empty for a
// line that holds no key.
QString hostKeyFingerprint(const QByteArray &knownHostsLine);
// The first user known_hosts file of `ssh -G`'s output (where ssh adds keys); empty if none.
QString userKnownHostsFile(const QByteArray &configOutput);

} // namespace sandbar::net
