#pragma once

#include "net/Endpoint.h"
#include "net/SshStdioBridge.h"
#include "net/SshTarget.h"
#include "providers/ProviderFactory.h"
#include "providers/docker/DockerApi.h"

#include <QHash>
#include <QObject>

namespace sandbar::docker {

// A Docker or Podman account on another machine: endpoint ssh://[user@]host[:port][/socket],
// with the account's "identity" and "ssh-config" fields. Its engine socket is made local by
// net::SshLink (one master connection per host, the socket forwarded into a private folder),
// so the provider talks to a unix socket as for a local engine.
bool isSshEndpoint(const QVariantMap &settings);
Result<net::SshTarget> sshTargetFromSettings(const QVariantMap &settings);

// The blocking part, for ProviderFactory::preparation (a worker thread): log in, find the
// remote engine's socket when the address names none, forward it. The config comes back with
// the local socket, or the reason there is none, in settings only create() reads.
AccountConfig prepareSshAccount(Flavour flavour, AccountConfig config);

// The key the account's host offers, and with trust, trusting it (ProviderFactory::hostKeyTask).
Result<HostKeyOffer> sshHostKey(const QVariantMap &settings, const QString &pin, bool trust);
// Ends the host's master connection and its forwardings (the account is removed, the window
// quits); nothing when there is none. Blocks.
void endSshMaster(const QVariantMap &settings);

// Restores an account's forwarded engine socket when it stops answering (the master connection
// ended: sshd restarted, the network dropped, the laptop slept): logs in again and forwards
// again on a worker thread, one attempt at a time for every request waiting, with a back-off
// between failed attempts (1 s doubling to 30 s) during which requests fail at once with the
// reason, so that a dead host costs its own account nothing more and others nothing at all.
std::shared_ptr<net::ConnectRecovery> sshRecovery(const QVariantMap &settings);

// In create(): where the host refuses stream forwarding or its engine socket is not known, the
// bridge (listening already) whose connections run the engine's dial-stdio; null otherwise.
Result<std::unique_ptr<net::SshStdioBridge>> sshBridge(const QVariantMap &settings);

// A remote engine's published ports made reachable from this machine: each port the host
// publishes gets a free local port forwarded through the host's master connection (once, on a
// worker thread), and the session's endpoint names the local one, so that Open and Copy work
// here. A forwarding that fails is asked again at the next look.
class SshPortForwarder : public QObject
{
public:
    explicit SshPortForwarder(net::SshTarget target, QObject *parent = nullptr);
    QList<SessionEndpoint> map(QList<SessionEndpoint> endpoints);

private:
    net::SshTarget m_target;
    QHash<QString, int> m_local; // "host:port" as the host sees it -> the local port
};

// In create(): the local endpoint preparation made, or its error.
Result<net::Endpoint> sshLocalEndpoint(const QVariantMap &settings);

} // namespace sandbar::docker
