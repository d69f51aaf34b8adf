#pragma once

#include "HttpParser.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>

class QTcpSocket;

namespace contract {

class Responder;
class Server;

// One client connection: parses requests one after another (keep-alive), hands each to
// the server, and serialises responses.
class Connection : public QObject
{
    Q_OBJECT
public:
    Connection(QTcpSocket *socket, Server *server, bool tls);
    ~Connection() override;

    QTcpSocket *socket() const { return m_socket; }
    void write(const QByteArray &bytes);
    qint64 pendingBytes() const;
    // The response for the current request is complete; `close` ends the connection.
    void responseDone(bool close);
    void abort();
    // Gives the socket away (WebSocket upgrade); this object deletes itself.
    QTcpSocket *release();

private:
    void onReadyRead();
    void onDisconnected();
    void process();

    QTcpSocket *m_socket = nullptr;
    Server *m_server = nullptr;
    bool m_tls = false;
    QByteArray m_buffer;
    HttpParser m_parser;
    QPointer<Responder> m_current;
    bool m_continueSent = false;
    bool m_closing = false;
};

} // namespace contract
