#pragma once

#include "net/Endpoint.h"
#include "providers/ProviderFactory.h"
#include "providers/docker/DockerApi.h"
#include "providers/docker/discovery/DockerDiscovery.h"

#include <QStringList>
#include <chrono>
#include <memory>

namespace sandbar::docker {

// Descriptors as data: the same code serves "docker" and "podman"; Podman ignores
// DeviceRequests, so it has no Gpu capability.
ProviderDescriptor makeDescriptor(Flavour flavour);

std::unique_ptr<ProviderFactory> makeDockerFactory();
std::unique_ptr<ProviderFactory> makePodmanFactory();

// The endpoint an account's settings name ("endpoint", "tlsVerify", "certPath"); an empty
// endpoint means the first local socket of that flavour that answers.
Result<net::Endpoint> endpointFromSettings(Flavour flavour, const QVariantMap &settings);

// The first endpoint of that flavour found by discovery (DOCKER_HOST, contexts, well-known
// sockets) whose socket answers; with requireAnswer false, also a TCP DOCKER_HOST that
// cannot be probed quickly.
std::optional<net::Endpoint> autodetectEndpoint(Flavour flavour, bool requireAnswer);

// The engines over SSH that discovery found, as account choices of this flavour: offered,
// never contacted (adding an account does not log in).
QList<AccountChoice> remoteAccountChoices(const QList<RemoteCandidate> &remotes, Flavour flavour,
                                          const ProviderDescriptor &descriptor);

// Whether a unix socket answers GET /_ping within the timeout, and as which flavour
// (GET /version lists "Podman Engine"). Blocking; local sockets only.
std::optional<Flavour> probeSocket(const QString &socketPath, std::chrono::milliseconds timeout);

class DockerFactory : public ProviderFactory
{
public:
    explicit DockerFactory(Flavour flavour);
    const ProviderDescriptor &descriptor() const override { return m_descriptor; }
    Result<std::unique_ptr<Provider>> create(const AccountConfig &account) const override;
    // With no endpoint configured: discovery and its socket probes, off the caller's thread.
    std::function<AccountConfig(AccountConfig)> preparation(const AccountConfig &account) const override;
    QString accountHost(const QVariantMap &settings) const override;
    HostKeyTask hostKeyTask(const AccountConfig &account) const override;
    std::function<void()> disconnection(const AccountConfig &account) const override;
    std::optional<QVariantMap> detectDefault() const override;
    // Docker contexts, DOCKER_HOST, CONTAINER_HOST and the well-known sockets of this
    // flavour; a socket counts only when an engine of this flavour answers on it.
    QList<AccountChoice> discoverAccounts() const override;

private:
    Flavour m_flavour;
    ProviderDescriptor m_descriptor;
};

} // namespace sandbar::docker
