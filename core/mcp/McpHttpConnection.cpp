#include "mcp/McpHttpConnection.h"

#include "mcp/JsonRpc.h"

#include <QTcpSocket>
#include <sys/socket.h>

namespace sandbar::mcp {

namespace {

// While an answer is pending a client may send its next request; more than one request's worth
// of bytes waiting is no client this endpoint serves.
qint64 maxQueuedInput(const http::RequestParser::Limits &limits)
{
    return limits.maxBodyBytes + 2 * limits.maxHeaderBytes;
}

// A refused client still sending a large body gets this much read and dropped before the
// connection is cut.
constexpr qint64 kMaxDiscard = 64 * 1024 * 1024;

} // namespace

McpHttpConnection::McpHttpConnection(QTcpSocket *socket, const Options &options, QObject *parent)
    : QObject(parent)
    , m_socket(socket)
    , m_options(options)
    , m_parser(options.limits)
{
    m_socket->setParent(this);
    m_idle.setSingleShot(true);
    m_idle.setInterval(m_options.idleTimeout);
    m_heartbeat.setInterval(m_options.heartbeat);
    m_linger.setSingleShot(true);
    m_linger.setInterval(m_options.linger);
}

McpHttpConnection::~McpHttpConnection() = default;

void McpHttpConnection::start()
{
    connect(m_socket, &QTcpSocket::readyRead, this, [this] { readSome(); });
    connect(m_socket, &QTcpSocket::disconnected, this, [this] { socketGone(); });
    connect(m_socket, &QTcpSocket::bytesWritten, this, [this] {
        if (m_state == State::Closing && !m_writeShut && m_socket->bytesToWrite() == 0)
            shutdownWrite();
    });
    connect(&m_idle, &QTimer::timeout, this, [this] {
        if (m_state != State::Reading)
            return;
        if (m_parser.midRequest())
            refuse(408, QStringLiteral("The request did not arrive in time."));
        else
            startClosing();
    });
    // A comment line: clients skip it, and it keeps their read timeouts (undici: 5 minutes
    // between body bytes) from ending a long call.
    connect(&m_heartbeat, &QTimer::timeout, this, [this] {
        if (m_state == State::Streaming)
            write(m_chunked ? http::chunk(": keep-alive\n\n") : QByteArray(": keep-alive\n\n"));
    });
    connect(&m_linger, &QTimer::timeout, this, [this] { cutOff(); });
    m_idle.start();
    if (m_socket->bytesAvailable() > 0)
        readSome();
}

void McpHttpConnection::readSome()
{
    const QByteArray data = m_socket->readAll();
    if (m_state == State::Closing) {
        m_discarded += data.size();
        if (m_discarded > kMaxDiscard)
            cutOff();
        return;
    }
    if (m_state == State::Closed)
        return;
    m_parser.feed(data);
    if (m_state == State::Reading) {
        m_idle.start();
        processInput();
    } else if (m_parser.buffered() > maxQueuedInput(m_options.limits)) {
        cutOff();
    }
}

void McpHttpConnection::processInput()
{
    m_processQueued = false;
    if (m_state != State::Reading)
        return;
    if (m_parser.failed())
        return refuse(m_parser.failureStatus(), m_parser.errorString());
    if (m_parser.requestComplete()) {
        http::Request request = m_parser.take();
        m_continued = false;
        m_keepAlive = request.keepAlive();
        m_head = request.method == "HEAD";
        m_chunked = request.minorVersion >= 1;
        m_state = State::Answering;
        m_idle.stop();
        if (onRequest)
            onRequest(this, std::move(request));
        return;
    }
    if (m_parser.headComplete() && m_parser.current().expectsContinue() && !m_continued) {
        m_continued = true;
        write("HTTP/1.1 100 Continue\r\n\r\n");
    }
}

void McpHttpConnection::write(const QByteArray &bytes)
{
    if (m_state != State::Closed)
        m_socket->write(bytes);
}

void McpHttpConnection::respond(int status, http::HeaderList headers, const QByteArray &body, bool close)
{
    if (m_state != State::Answering)
        return;
    if (close)
        m_keepAlive = false;
    headers.emplaceBack("Cache-Control", "no-store");
    if (!m_keepAlive)
        headers.emplaceBack("Connection", "close");
    // 204 has no body and must not say Content-Length (RFC 9110 8.6).
    const bool bodyless = status == 204;
    write(http::responseHead(status, headers, bodyless ? -1 : body.size()) +
          (m_head || bodyless ? QByteArray() : body));
    exchangeDone();
}

void McpHttpConnection::respondJson(int status, http::HeaderList headers, const QByteArray &json, bool close)
{
    headers.emplaceBack("Content-Type", "application/json");
    respond(status, std::move(headers), json.endsWith('\n') ? json.chopped(1) : json, close);
}

void McpHttpConnection::refuse(int status, const QString &message, http::HeaderList headers)
{
    if (m_state == State::Reading)
        m_state = State::Answering; // a refusal of what could not be read as a request
    // The SDKs read a JSON-RPC error without an id out of an HTTP error.
    respondJson(status, std::move(headers),
                encodeError(QJsonValue::Null, RpcError{rpc::InvalidRequest, message, QJsonValue::Undefined}), true);
}

void McpHttpConnection::beginStream(http::HeaderList headers)
{
    if (m_state != State::Answering)
        return;
    headers.emplaceBack("Content-Type", "text/event-stream");
    headers.emplaceBack("Cache-Control", "no-store");
    if (!m_chunked) {
        m_keepAlive = false;
        headers.emplaceBack("Connection", "close");
    }
    write(http::responseHead(200, headers, -1, m_chunked));
    m_state = State::Streaming;
    m_heartbeat.start();
}

void McpHttpConnection::sendEvent(QByteArrayView json)
{
    if (m_state != State::Streaming)
        return;
    if (json.endsWith('\n'))
        json.chop(1);
    // Compact JSON never holds a raw newline, so one data line carries the whole message.
    const QByteArray event = "event: message\ndata: " + json.toByteArray() + "\n\n";
    write(m_chunked ? http::chunk(event) : event);
}

void McpHttpConnection::endStream()
{
    if (m_state != State::Streaming)
        return;
    m_heartbeat.stop();
    if (m_chunked)
        write(http::chunk({}));
    exchangeDone();
}

void McpHttpConnection::exchangeDone()
{
    if (!m_keepAlive) {
        startClosing();
        return;
    }
    m_state = State::Reading;
    m_idle.start();
    // A pipelined request is taken up from the event loop, not from inside the answer to the
    // one before it (which may itself be running inside a tool's callback).
    if (!m_processQueued) {
        m_processQueued = true;
        QMetaObject::invokeMethod(
            this, [this] { processInput(); }, Qt::QueuedConnection);
    }
}

void McpHttpConnection::startClosing()
{
    if (m_state == State::Closing || m_state == State::Closed)
        return;
    m_state = State::Closing;
    m_idle.stop();
    m_heartbeat.stop();
    m_linger.start();
    if (m_socket->bytesToWrite() == 0)
        shutdownWrite();
}

void McpHttpConnection::shutdownWrite()
{
    // Half-closing (instead of close()) lets a client still sending read the answer: a close
    // with unread input would reset the connection and could discard it on the client's side.
    m_writeShut = true;
    if (m_socket->socketDescriptor() >= 0)
        ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR);
}

void McpHttpConnection::cutOff()
{
    m_socket->abort();
    socketGone(); // in case abort() did not report the disconnection
}

void McpHttpConnection::socketGone()
{
    if (m_state == State::Closed)
        return;
    const bool abandoned = answering();
    m_state = State::Closed;
    m_idle.stop();
    m_heartbeat.stop();
    m_linger.stop();
    if (abandoned && onAbandoned)
        onAbandoned(this);
    Q_EMIT closed();
    deleteLater();
}

} // namespace sandbar::mcp
