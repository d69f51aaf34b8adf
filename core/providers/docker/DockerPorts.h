#pragma once

#include "common/Callback.h"
#include "common/Result.h"
#include "providers/Session.h"

#include <nlohmann/json_fwd.hpp>

// Forwarded ports in the Engine API's words; internal to the Docker provider (the parsers'
// public face is sessionFromInspect/sessionsFromList, table-tested in tests/dockerunit).
namespace sandbar::docker {

// Fills body["ExposedPorts"] and host["PortBindings"]; InvalidArgument for a port out of range,
// an unknown protocol, or ports without the network (a container without one cannot publish).
VoidResult addPortBindings(const QList<PortSpec> &ports, bool network, nlohmann::json *body, nlohmann::json *host);

// NetworkSettings.Ports of an inspect: {"8080/tcp": [{"HostIp": "127.0.0.1", "HostPort": "49153"}], ...}.
QList<SessionEndpoint> endpointsFromInspectPorts(const nlohmann::json &ports);
// Ports of a /containers/json entry: [{"IP", "PrivatePort", "PublicPort", "Type"}, ...].
QList<SessionEndpoint> endpointsFromListPorts(const nlohmann::json &ports);

class DockerApi;

// Wraps create's answer: an engine may accept port bindings and publish nothing (dockerd
// --bridge=none, a network without port mapping). Then the new container is removed and the
// answer is an error naming the ports, not a session whose ports silently go nowhere.
Callback<SessionInfo> requirePublished(DockerApi *api, const QList<PortSpec> &ports, Callback<SessionInfo> done);

} // namespace sandbar::docker
