#pragma once

// Socket plumbing for HttpExchange: creating, connecting and closing the three kinds of
// socket, and turning their errors into messages a person can act on. Internal to net/.

#include "common/Result.h"
#include "net/Endpoint.h"

#include <functional>

class QIODevice;
class QLocalSocket;
class QObject;
class QSslSocket;
class QTcpSocket;

namespace sandbar::net {

// A QSslSocket set up from the endpoint's CA, client certificate, key and verifyPeer.
Result<QSslSocket *> makeSslSocket(const Endpoint &endpoint, QObject *parent);

// connected fires once the socket can carry the request (after the TLS handshake for TLS);
// failed fires for connection errors, but not when the peer merely closed (the socket's
// disconnected signal reports that).
void connectTcpSignals(QTcpSocket *socket, const Endpoint &endpoint, QObject *context, std::function<void()> connected,
                       std::function<void(const Error &)> failed);
void connectLocalSignals(QLocalSocket *socket, const Endpoint &endpoint, QObject *context,
                         std::function<void()> connected, std::function<void(const Error &)> failed);

void startConnecting(QIODevice *socket, const Endpoint &endpoint);
void abortSocket(QIODevice *socket);
// shutdown(fd, SHUT_WR): the far side reads EOF while we keep reading.
bool shutdownWrite(QIODevice *socket);

} // namespace sandbar::net
