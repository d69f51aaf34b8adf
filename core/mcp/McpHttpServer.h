#pragma once

#include "common/Result.h"
#include "mcp/McpHttpRequest.h"
#include "mcp/McpServer.h" // complete, so that sessionStarted's argument has a meta type

#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <chrono>
#include <functional>

class QTcpServer;

namespace sandbar::mcp {

class McpHttpConnection;
class McpHttpSession;

// A bearer token for McpHttpServer: 32 bytes from the system's secure generator, base64url
// without padding (43 characters).
QString newBearerToken();

// MCP's Streamable HTTP transport (specification 2025-11-25; 2025-03-26 clients too) on
// 127.0.0.1 only, at the single endpoint /mcp:
// - POST carries one JSON-RPC message. A request is answered with application/json, or, for
//   tools/call when the client takes it, with a text/event-stream that carries the call's
//   progress notifications before its result; a notification or response gets 202.
// - initialize starts a session with its own McpServer (from the factory) and a random
//   Mcp-Session-Id, which every later request must carry (400 without, 404 once ended).
//   DELETE ends it; so does a long idle time. GET is 405: the server never starts a stream.
// - Every request needs "Authorization: Bearer <token>" (401 otherwise) and is refused (403)
//   when its Host is not this address or when it carries an Origin other than this server's
//   own: a web page in a browser must never reach it, DNS rebinding included.
// A client that goes away while its tools/call runs cancels that call when the tool is marked
// cancelOnDisconnect, as the end of input does on stdio: no stream can resume here, so its
// result could never be delivered.
class McpHttpServer : public QObject
{
    Q_OBJECT
public:
    // Makes the server of one MCP session, tools included, as a child of `parent` (it is
    // deleted with the session, after its calls in flight have ended).
    using SessionFactory = std::function<McpServer *(QObject *parent)>;

    struct Limits {
        qsizetype maxHeaderBytes = 64 * 1024;
        qint64 maxBodyBytes = 16 * 1024 * 1024;
        std::chrono::milliseconds idleTimeout{60000}; // a connection without an exchange
        std::chrono::milliseconds heartbeat{15000};   // a comment on an SSE stream that waits
        std::chrono::milliseconds sessionIdleTimeout{30 * 60 * 1000};
        int maxConnections = 64;
        int maxSessions = 32; // then the longest idle session goes to make room
    };

    explicit McpHttpServer(SessionFactory factory, QObject *parent = nullptr);
    ~McpHttpServer() override;

    // The token every request must present; may change while listening (sessions stay).
    void setToken(const QString &token);
    // Before listen().
    void setLimits(const Limits &limits) { m_limits = limits; }
    const Limits &limits() const { return m_limits; }

    // 127.0.0.1:port (0: one the system picks). Fails without a token.
    VoidResult listen(quint16 port = 0);
    // Stops listening, ends every session and cuts every connection.
    void close();
    bool isListening() const;
    QHostAddress serverAddress() const;
    quint16 serverPort() const;
    QString url() const; // http://127.0.0.1:PORT/mcp

    int sessionCount() const { return int(m_sessions.size()); }
    int connectionCount() const { return int(m_connections.size()); }
    McpServer *session(const QString &id) const;

Q_SIGNALS:
    // A client initialized a session (its McpServer knows the client's name by now).
    void sessionStarted(const QString &id, sandbar::mcp::McpServer *server);
    // By DELETE, idle time, eviction or close(). Calls that do not cancel on disconnect may
    // still be running in its McpServer.
    void sessionEnded(const QString &id);

private:
    void accept();
    void handleRequest(McpHttpConnection *conn, const http::Request &request);
    void handlePost(McpHttpConnection *conn, const http::Request &request);
    void handleDelete(McpHttpConnection *conn, const http::Request &request);
    void startSession(McpHttpConnection *conn, const http::Request &request, const QJsonValue &id, bool sse);
    void dispatch(McpHttpSession *session, McpHttpConnection *conn, const http::Request &request);
    void route(McpHttpSession *session, const QByteArray &line);
    void abandoned(McpHttpConnection *conn);
    void endSession(McpHttpSession *session);
    bool makeRoom();
    void touch(McpHttpSession *session);
    bool hostAllowed(const QByteArray &host) const;
    bool originAllowed(const QByteArray &origin) const;

    SessionFactory m_factory;
    Limits m_limits;
    QByteArray m_tokenHash; // SHA-256 of the token: compared in constant time
    QTcpServer *m_server = nullptr;
    QHash<QString, McpHttpSession *> m_sessions;
    QSet<McpHttpConnection *> m_connections;
    // The connection waiting for each request's answer: its session and the request's key.
    QHash<McpHttpConnection *, QPair<QPointer<McpHttpSession>, QString>> m_waiting;
    quint64 m_activity = 0; // orders sessions by last use
};

} // namespace sandbar::mcp
