#pragma once

#include "common/Result.h"
#include "net/Endpoint.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <functional>
#include <optional>

namespace sandbar::docker {

// Everything discovery looks at, injected so that tests need no real files or sockets.
struct DiscoveryEnvironment {
    QHash<QString, QString> env; // DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH, DOCKER_CONTEXT,
                                 // DOCKER_CONFIG, CONTAINER_HOST, XDG_RUNTIME_DIR, XDG_CONFIG_HOME
    QString homeDir;
    bool windows = false;
    // The file's bytes, or nullopt when it does not exist or cannot be read.
    std::function<std::optional<QByteArray>(const QString &path)> readFile;
    std::function<bool(const QString &path)> socketExists;

    // The real process environment and file system.
    static DiscoveryEnvironment system();
};

enum class CandidateSource {
    DockerHost,    // DOCKER_HOST (with DOCKER_TLS_VERIFY / DOCKER_CERT_PATH)
    ContainerHost, // CONTAINER_HOST, which Podman's tools read
    DockerContext, // the context named by DOCKER_CONTEXT
    ConfigContext, // currentContext in config.json
    WellKnownSocket,
    PlatformDefault, // nothing else found: where the docker CLI would try
};

struct EndpointCandidate {
    net::Endpoint endpoint;
    CandidateSource source = CandidateSource::WellKnownSocket;
    QString origin;  // for people: "DOCKER_HOST", "context \"colima\" (DOCKER_CONTEXT)", a socket path
    QString flavour; // "docker", "podman", or empty when only /version can tell
};

// An engine on another machine that the user has already set up (an ssh:// DOCKER_HOST,
// CONTAINER_HOST or Docker context, a Podman connection): offered as an account, never
// contacted by discovery.
struct RemoteCandidate {
    QString url;      // ssh://[user@]host[:port][/socket]
    QString identity; // the key the setting names; empty: the user's ssh configuration
    QString origin;   // for people: "Podman connection \"m\"", "context \"build\" (DOCKER_CONTEXT)"
    QString flavour;  // "docker", "podman", or empty when only the engine can tell
};

struct DiscoveryResult {
    // Best first: the first entry is what the docker CLI would use.
    QList<EndpointCandidate> candidates;
    // Engines over SSH, in the same order of precedence, then Podman's connections.
    QList<RemoteCandidate> remotes;
    // Settings that were found but could not be used (a corrupt config.json, a context
    // without meta.json, an unparsable DOCKER_HOST), each naming the file or variable.
    QList<Error> problems;
};

// Resolves engine endpoints the way the docker CLI does, then adds the well-known sockets
// of Docker, rootless Docker, Docker Desktop and Podman that exist; ssh:// settings and
// Podman's connections (podman-connections.json, containers.conf) become remotes.
DiscoveryResult discoverEndpoints(const DiscoveryEnvironment &environment);

// The first candidate for "docker" or "podman": one of that flavour, or of unknown flavour
// (an explicit DOCKER_HOST, a context). nullopt when none fits.
std::optional<EndpointCandidate> pickEndpoint(const DiscoveryResult &result, const QString &flavour);

// contexts/meta/<this>/meta.json: the hex SHA-256 of the context name.
QString contextDirName(const QString &contextName);

} // namespace sandbar::docker
