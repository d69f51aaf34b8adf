#include "Connection.h"

#include "Responder.h"
#include "Server.h"

#include <QTcpSocket>

namespace contract {

Connection::Connection(QTcpSocket *socket, Server *server, bool tls)
    : QObject(server)
    , m_socket(socket)
    , m_server(server)
    , m_tls(tls)
{
    m_socket->setParent(this);
    // Bounded reads: a fast uploader is held back by TCP instead of filling our memory.
    m_socket->setReadBufferSize(1024 * 1024);
    connect(m_socket, &QTcpSocket::readyRead, this, &Connection::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &Connection::onDisconnected);
    connect(m_socket, &QTcpSocket::bytesWritten, this, [this] {
        if (m_current)
            m_current->onBytesWritten();
        if (m_closing && m_socket && m_socket->bytesToWrite() == 0)
            m_socket->disconnectFromHost();
    });
    QMetaObject::invokeMethod(this, &Connection::onReadyRead, Qt::QueuedConnection);
}

Connection::~Connection()
{
    if (m_current)
        m_current->markGone();
}

void Connection::write(const QByteArray &bytes)
{
    if (m_socket && m_socket->state() == QAbstractSocket::ConnectedState)
        m_socket->write(bytes);
}

qint64 Connection::pendingBytes() const
{
    return m_socket ? m_socket->bytesToWrite() : 0;
}

void Connection::responseDone(bool close)
{
    m_current = nullptr;
    if (close || m_closing) {
        m_closing = true;
        if (m_socket && m_socket->bytesToWrite() == 0)
            m_socket->disconnectFromHost();
        return;
    }
    m_parser.reset();
    m_continueSent = false;
    QMetaObject::invokeMethod(this, &Connection::process, Qt::QueuedConnection);
}

void Connection::abort()
{
    m_closing = true;
    if (m_current) {
        QPointer<Responder> current = m_current;
        m_current = nullptr;
        if (current && !current->isFinished())
            current->markGone();
    }
    if (m_socket) {
        // What a stream already sent before the cut must reach the client.
        m_socket->flush();
        m_socket->abort();
    }
    deleteLater();
}

QTcpSocket *Connection::release()
{
    QTcpSocket *socket = m_socket;
    m_socket = nullptr;
    if (socket) {
        disconnect(socket, nullptr, this, nullptr);
        socket->setParent(nullptr);
    }
    deleteLater();
    return socket;
}

void Connection::onReadyRead()
{
    process();
}

void Connection::onDisconnected()
{
    if (m_current) {
        QPointer<Responder> current = m_current;
        m_current = nullptr;
        current->markGone();
    }
    deleteLater();
}

void Connection::process()
{
    while (m_socket && !m_closing && !m_current) {
        if (m_parser.state() == HttpParser::State::Head && m_buffer.isEmpty()) {
            // Peek until the head is complete so a WebSocket upgrade can take the socket
            // with its handshake unread.
            const QByteArray peeked = m_socket->peek(HttpParser::kMaxHeadSize + 1);
            const int end = peeked.indexOf("\r\n\r\n");
            if (end < 0 && peeked.size() <= HttpParser::kMaxHeadSize)
                return;
            if (end >= 0) {
                Request head;
                int status = 0;
                QByteArray message;
                if (HttpParser::parseHead(peeked.left(end), &head, &status, &message) &&
                    head.header("upgrade").toLower() == "websocket") {
                    head.tls = m_tls;
                    head.localPort = m_socket->localPort();
                    if (m_server->tryUpgrade(this, head))
                        return;
                }
            }
        }
        m_buffer.append(m_socket->readAll());
        if (m_buffer.isEmpty() && m_parser.state() == HttpParser::State::Head)
            return;
        const HttpParser::State state = m_parser.feed(m_buffer);
        if (state == HttpParser::State::Error) {
            const QByteArray body = "{\"code\":" + QByteArray::number(m_parser.errorStatus()) + ",\"message\":\"" +
                                    m_parser.errorMessage() + "\"}";
            write("HTTP/1.1 " + QByteArray::number(m_parser.errorStatus()) + ' ' +
                  Responder::reasonPhrase(m_parser.errorStatus()) +
                  "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " +
                  QByteArray::number(body.size()) + "\r\n\r\n" + body);
            m_closing = true;
            if (m_socket->bytesToWrite() == 0)
                m_socket->disconnectFromHost();
            return;
        }
        if (state == HttpParser::State::Body) {
            if (m_parser.wantsContinue() && !m_continueSent) {
                m_continueSent = true;
                write("HTTP/1.1 100 Continue\r\n\r\n");
            }
            if (m_socket->bytesAvailable() == 0)
                return;
            continue;
        }
        if (state != HttpParser::State::Complete)
            return;
        Request &request = m_parser.request();
        request.tls = m_tls;
        request.localPort = m_socket->localPort();
        auto *responder = new Responder(this, request.method, m_parser.keepAlive());
        m_current = responder;
        m_server->dispatch(request, responder);
        return; // responseDone() queues the next round
    }
}

} // namespace contract
