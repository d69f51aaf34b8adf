#pragma once

#include "mcp/McpHttpRequest.h"

#include <QObject>
#include <QTimer>
#include <chrono>
#include <functional>

class QTcpSocket;

namespace sandbar::mcp {

// One accepted TCP connection of McpHttpServer: HTTP/1.1 keep-alive, one exchange at a time
// (a pipelined request waits for the one before it), and the three ways MCP answers a POST: a
// whole response, an SSE stream of events, or nothing yet. It keeps reading while an answer
// is pending so that a client going away is seen at once (onAbandoned), which is how a call
// learns its caller left.
class McpHttpConnection : public QObject
{
    Q_OBJECT
public:
    struct Options {
        http::RequestParser::Limits limits;
        std::chrono::milliseconds idleTimeout{60000}; // no exchange and no bytes: closed
        std::chrono::milliseconds heartbeat{15000};   // an SSE comment while a stream waits
        std::chrono::milliseconds linger{2000};       // reading what a refused client still sends
    };

    // Takes the socket (reparents it).
    McpHttpConnection(QTcpSocket *socket, const Options &options, QObject *parent);
    ~McpHttpConnection() override;

    // A complete request, which must be answered with respond() or beginStream()..endStream().
    std::function<void(McpHttpConnection *, http::Request)> onRequest;
    // The peer went away (or was cut off) before the answer to its request was complete.
    std::function<void(McpHttpConnection *)> onAbandoned;

    void start();
    // Cuts the connection at once (the server is closing); a pending answer is abandoned.
    void abort() { cutOff(); }

    bool answering() const { return m_state == State::Answering || m_state == State::Streaming; }
    bool streaming() const { return m_state == State::Streaming; }

    // A whole response; the connection then reads the next request, or closes when the client
    // or `close` asked for it.
    void respond(int status, http::HeaderList headers, const QByteArray &body, bool close = false);
    // A JSON body (a JSON-RPC message or error), Content-Type application/json.
    void respondJson(int status, http::HeaderList headers, const QByteArray &json, bool close = false);
    // A refusal that also ends the connection: what the client still sends is read and dropped
    // for a moment, so that it gets to read the answer instead of a reset.
    void refuse(int status, const QString &message, http::HeaderList headers = {});

    // 200 text/event-stream, then one event per JSON-RPC message, then the end of the stream.
    void beginStream(http::HeaderList headers);
    void sendEvent(QByteArrayView json);
    void endStream();

Q_SIGNALS:
    // The socket is gone; the object deletes itself next.
    void closed();

private:
    enum class State { Reading, Answering, Streaming, Closing, Closed };

    void readSome();
    void processInput();
    void exchangeDone();
    void startClosing();
    void shutdownWrite();
    void cutOff();
    void socketGone();
    void write(const QByteArray &bytes);

    QTcpSocket *m_socket;
    Options m_options;
    http::RequestParser m_parser;
    State m_state = State::Reading;
    bool m_keepAlive = true;
    bool m_head = false;      // the request being answered is HEAD: no body goes back
    bool m_chunked = true;    // the stream is chunked (HTTP/1.1), else it ends with the connection
    bool m_continued = false; // 100 Continue was sent for the request being read
    bool m_processQueued = false;
    bool m_writeShut = false;
    qint64 m_discarded = 0;
    QTimer m_idle;
    QTimer m_heartbeat;
    QTimer m_linger;
};

} // namespace sandbar::mcp
