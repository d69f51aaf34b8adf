#pragma once

#include <QList>
#include <QString>
#include <functional>

namespace sandbar::ui {

// An engine found on this computer, offered as a one-click account.
struct EngineChoice {
    QString provider; // "docker", "podman"
    QString endpoint; // unix:///run/user/1000/podman/podman.sock, tcp://...
    QString label;    // for people: "Podman — /run/user/1000/podman/podman.sock"
};

// Blocking (reads the docker CLI's configuration, asks each socket who answers): callers run
// it on a worker thread (runOffThread). Tests pass their own.
using EngineDiscovery = std::function<QList<EngineChoice>()>;

// Docker contexts, DOCKER_HOST, CONTAINER_HOST and the well-known Docker and Podman sockets
// (core/providers/docker/discovery), a socket kept only when an engine answers on it.
QList<EngineChoice> discoverEngines();

} // namespace sandbar::ui
