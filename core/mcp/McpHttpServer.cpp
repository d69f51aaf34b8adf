#include "mcp/McpHttpServer.h"

#include "mcp/JsonRpc.h"
#include "mcp/McpHttpConnection.h"
#include "mcp/McpServer.h"

#include <QCryptographicHash>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

namespace sandbar::mcp {

namespace {

// Not in JSON-RPC's reserved range; what LSP answers a cancelled request with.
constexpr int kRequestCancelled = -32800;

QString randomBase64Url(int bytes)
{
    QByteArray raw(bytes, Qt::Uninitialized);
    QRandomGenerator::system()->generate(raw.begin(), raw.end());
    return QString::fromLatin1(raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QByteArray sha256(QByteArrayView bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
}

// Equal-length digests compared without an early exit: the time taken tells nothing about
// how much of a guessed token was right.
bool sameDigest(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a.at(i) ^ b.at(i));
    return diff == 0;
}

QByteArray rpcError(const QJsonValue &id, int code, const QString &message)
{
    return encodeError(id, RpcError{code, message, QJsonValue::Undefined});
}

} // namespace

QString newBearerToken()
{
    return randomBase64Url(32);
}

// One MCP session: its McpServer (a child) and the requests waiting for an answer, by id.
class McpHttpSession : public QObject
{
public:
    struct Exchange {
        QPointer<McpHttpConnection> connection;
        QJsonValue id;
        QJsonValue progressToken; // undefined: the client asked for no progress
        bool sse = false;
        bool cancelOnDisconnect = false;
        bool initialize = false;
    };

    using QObject::QObject;

    QString id;
    McpServer *server = nullptr;
    QHash<QString, Exchange> pending;
    QTimer idle;
    quint64 lastUse = 0;
    bool started = false; // initialize succeeded
    bool ended = false;
};

McpHttpServer::McpHttpServer(SessionFactory factory, QObject *parent)
    : QObject(parent)
    , m_factory(std::move(factory))
{
}

McpHttpServer::~McpHttpServer()
{
    close();
}

void McpHttpServer::setToken(const QString &token)
{
    m_tokenHash = token.isEmpty() ? QByteArray() : sha256(token.toUtf8());
}

VoidResult McpHttpServer::listen(quint16 port)
{
    if (m_tokenHash.isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("The MCP HTTP endpoint needs a bearer token."));
    if (isListening())
        return {};
    if (!m_server) {
        m_server = new QTcpServer(this);
        m_server->setMaxPendingConnections(m_limits.maxConnections);
        connect(m_server, &QTcpServer::newConnection, this, [this] { accept(); });
    }
    // The loopback address only: QHostAddress::LocalHost is 127.0.0.1, never "any".
    if (!m_server->listen(QHostAddress(QHostAddress::LocalHost), port))
        return makeError(ErrorCode::Unavailable,
                         QStringLiteral("Could not listen on 127.0.0.1:%1: %2").arg(port).arg(m_server->errorString()));
    return {};
}

void McpHttpServer::close()
{
    if (m_server)
        m_server->close();
    const auto sessions = m_sessions.values();
    for (McpHttpSession *s : sessions)
        endSession(s);
    const auto connections = m_connections.values();
    for (McpHttpConnection *c : connections)
        c->abort();
    m_connections.clear();
    m_waiting.clear();
}

bool McpHttpServer::isListening() const
{
    return m_server && m_server->isListening();
}

QHostAddress McpHttpServer::serverAddress() const
{
    return m_server ? m_server->serverAddress() : QHostAddress();
}

quint16 McpHttpServer::serverPort() const
{
    return m_server ? m_server->serverPort() : 0;
}

QString McpHttpServer::url() const
{
    return QStringLiteral("http://127.0.0.1:%1/mcp").arg(serverPort());
}

McpServer *McpHttpServer::session(const QString &id) const
{
    McpHttpSession *s = m_sessions.value(id);
    return s ? s->server : nullptr;
}

void McpHttpServer::accept()
{
    while (m_server->hasPendingConnections()) {
        QTcpSocket *socket = m_server->nextPendingConnection();
        McpHttpConnection::Options options;
        options.limits = {m_limits.maxHeaderBytes, m_limits.maxBodyBytes};
        options.idleTimeout = m_limits.idleTimeout;
        options.heartbeat = m_limits.heartbeat;
        auto *conn = new McpHttpConnection(socket, options, this);
        const bool full = m_connections.size() >= m_limits.maxConnections;
        m_connections.insert(conn);
        conn->onRequest = [this](McpHttpConnection *c, const http::Request &r) { handleRequest(c, r); };
        conn->onAbandoned = [this](McpHttpConnection *c) { abandoned(c); };
        connect(conn, &McpHttpConnection::closed, this, [this, conn] {
            m_connections.remove(conn);
            m_waiting.remove(conn);
        });
        conn->start();
        if (full)
            conn->refuse(503, QStringLiteral("Too many connections to the MCP endpoint."));
    }
}

bool McpHttpServer::hostAllowed(const QByteArray &host) const
{
    const QByteArray h = host.toLower();
    const QByteArray port = QByteArray::number(serverPort());
    if (h == "127.0.0.1:" + port || h == "localhost:" + port)
        return true;
    return serverPort() == 80 && (h == "127.0.0.1" || h == "localhost");
}

bool McpHttpServer::originAllowed(const QByteArray &origin) const
{
    const QByteArray o = origin.toLower();
    const QByteArray port = QByteArray::number(serverPort());
    return o == "http://127.0.0.1:" + port || o == "http://localhost:" + port;
}

void McpHttpServer::handleRequest(McpHttpConnection *conn, const http::Request &request)
{
    // Where the request comes from first: a page in a browser learns nothing, not even whether
    // its token guess was right.
    if (request.headerCount("host") != 1)
        return conn->respondJson(400, {},
                                 rpcError(QJsonValue::Null, rpc::InvalidRequest,
                                          QStringLiteral("A request needs exactly one Host header.")));
    if (!hostAllowed(request.header("host")))
        return conn->refuse(403, QStringLiteral("Host \"%1\" is not this server: use %2.")
                                     .arg(QString::fromLatin1(request.header("host")), url()));
    if (request.headerCount("origin") > 0 &&
        (request.headerCount("origin") > 1 || !originAllowed(request.header("origin"))))
        return conn->refuse(403, QStringLiteral("Requests from web pages are refused (Origin \"%1\").")
                                     .arg(QString::fromLatin1(request.header("origin"))));
    const QByteArray auth = request.header("authorization");
    const bool bearer =
        request.headerCount("authorization") == 1 && auth.size() > 7 && auth.first(7).toLower() == "bearer ";
    if (!bearer || m_tokenHash.isEmpty() || !sameDigest(sha256(auth.mid(7).trimmed()), m_tokenHash)) {
        const QByteArray challenge =
            bearer ? R"(Bearer realm="sandbar", error="invalid_token")" : R"(Bearer realm="sandbar")";
        return conn->respondJson(
            401, {{"WWW-Authenticate", challenge}},
            rpcError(QJsonValue::Null, rpc::InvalidRequest,
                     bearer ? QStringLiteral("The bearer token is not this server's (Sandbar shows it in Preferences).")
                            : QStringLiteral("Authorization: Bearer <token> is required (Sandbar shows the token in "
                                             "Preferences).")));
    }
    if (request.path() != "/mcp")
        return conn->respondJson(
            404, {}, rpcError(QJsonValue::Null, rpc::InvalidRequest, QStringLiteral("The MCP endpoint is /mcp.")));
    if (request.method == "POST")
        return handlePost(conn, request);
    if (request.method == "DELETE")
        return handleDelete(conn, request);
    // GET would open a stream for messages the server starts on its own; it starts none.
    conn->respondJson(405, {{"Allow", "POST, DELETE"}},
                      rpcError(QJsonValue::Null, rpc::InvalidRequest,
                               QStringLiteral("%1 is not supported at /mcp: POST messages, DELETE to end a session.")
                                   .arg(QString::fromLatin1(request.method))));
}

void McpHttpServer::handlePost(McpHttpConnection *conn, const http::Request &request)
{
    const auto bad = [conn](int status, const QString &message) {
        conn->respondJson(status, {}, rpcError(QJsonValue::Null, rpc::InvalidRequest, message));
    };
    if (http::mediaTypeEssence(request.header("content-type")) != "application/json")
        return bad(415, QStringLiteral("POST a JSON-RPC message as Content-Type application/json."));
    const QList<QByteArray> accepted = http::acceptedMediaTypes(request.header("accept"));
    const bool json = http::acceptsMediaType(accepted, "application/json");
    const bool sse = http::acceptsMediaType(accepted, "text/event-stream");
    if (!json && !sse)
        return bad(406, QStringLiteral("Accept must list application/json and text/event-stream."));
    if (request.headerCount("mcp-protocol-version") > 0) {
        const QString version = QString::fromLatin1(request.header("mcp-protocol-version"));
        if (!supportedProtocolVersions().contains(version))
            return bad(400, QStringLiteral("MCP-Protocol-Version %1 is not supported; this server speaks %2.")
                                .arg(version, supportedProtocolVersions().join(QStringLiteral(", "))));
    }
    const RpcMessage m = decodeMessage(request.body);
    if (m.kind == RpcMessage::Kind::Empty)
        return bad(400, QStringLiteral("The body holds no JSON-RPC message."));
    if (m.kind == RpcMessage::Kind::Invalid)
        return conn->respondJson(400, {}, encodeError(m.id, m.error));
    if (request.headerCount("mcp-session-id") > 1)
        return bad(400, QStringLiteral("A request carries one Mcp-Session-Id."));
    const QString sessionId = QString::fromLatin1(request.header("mcp-session-id"));
    if (m.kind == RpcMessage::Kind::Request && m.method == QLatin1String("initialize")) {
        if (!sessionId.isEmpty())
            return bad(400, QStringLiteral("initialize starts a new session: send it without Mcp-Session-Id."));
        return startSession(conn, request, m.id, sse && !json);
    }
    if (sessionId.isEmpty())
        return bad(400, QStringLiteral("Mcp-Session-Id is required: initialize first."));
    McpHttpSession *s = m_sessions.value(sessionId);
    if (!s)
        return bad(404, QStringLiteral("Session %1 has ended or never existed: initialize a new one.").arg(sessionId));
    touch(s);
    if (m.kind != RpcMessage::Kind::Request) {
        s->server->handleLine(request.body);
        conn->respond(202, {}, {});
        if (m.method == QLatin1String("notifications/cancelled")) {
            // The call is gone without an answer; its exchange still needs an end.
            const QJsonValue requestId = m.params.toObject().value(QLatin1String("requestId"));
            const QString key = isValidId(requestId) ? idKey(requestId) : QString();
            if (!key.isEmpty() && s->pending.contains(key)) {
                const McpHttpSession::Exchange ex = s->pending.take(key);
                m_waiting.remove(ex.connection);
                if (ex.connection && ex.sse)
                    ex.connection->endStream();
                else if (ex.connection)
                    ex.connection->respondJson(
                        200, {}, rpcError(ex.id, kRequestCancelled, QStringLiteral("The request was cancelled.")));
            }
        }
        return;
    }
    const QString key = idKey(m.id);
    if (s->pending.contains(key))
        return conn->respondJson(
            400, {}, rpcError(m.id, rpc::InvalidRequest, QStringLiteral("A request with this id is still in flight.")));
    const QJsonObject params = m.params.toObject();
    McpHttpSession::Exchange ex;
    ex.connection = conn;
    ex.id = m.id;
    ex.progressToken = params.value(QLatin1String("_meta")).toObject().value(QLatin1String("progressToken"));
    const bool toolCall = m.method == QLatin1String("tools/call");
    // Only a tool call runs long enough to have progress to tell; the rest answer at once.
    ex.sse = sse && (toolCall || !json);
    if (toolCall) {
        const Tool *tool = s->server->tool(params.value(QLatin1String("name")).toString());
        ex.cancelOnDisconnect = tool && tool->cancelOnDisconnect;
    }
    s->pending.insert(key, ex);
    m_waiting.insert(conn, {s, key});
    if (ex.sse)
        conn->beginStream({{"Mcp-Session-Id", s->id.toLatin1()}});
    s->server->handleLine(request.body);
}

void McpHttpServer::startSession(McpHttpConnection *conn, const http::Request &request, const QJsonValue &id, bool sse)
{
    if (!makeRoom())
        return conn->respondJson(503, {},
                                 rpcError(id, rpc::InternalError,
                                          QStringLiteral("Too many MCP sessions are busy; end one (DELETE) first.")));
    auto *s = new McpHttpSession(this);
    s->id = randomBase64Url(32);
    s->server = m_factory ? m_factory(s) : nullptr;
    if (!s->server) {
        delete s;
        return conn->respondJson(
            500, {}, rpcError(id, rpc::InternalError, QStringLiteral("The MCP session could not be set up.")));
    }
    connect(s->server, &McpServer::send, s, [this, s](const QByteArray &line) { route(s, line); });
    s->idle.setSingleShot(true);
    s->idle.setInterval(m_limits.sessionIdleTimeout);
    connect(&s->idle, &QTimer::timeout, s, [this, s] {
        if (!s->pending.isEmpty() || s->server->callsInFlight() > 0)
            s->idle.start();
        else
            endSession(s);
    });
    m_sessions.insert(s->id, s);
    touch(s);
    McpHttpSession::Exchange ex;
    ex.connection = conn;
    ex.id = id;
    ex.sse = sse;
    ex.initialize = true;
    s->pending.insert(idKey(id), ex);
    m_waiting.insert(conn, {s, idKey(id)});
    if (sse)
        conn->beginStream({{"Mcp-Session-Id", s->id.toLatin1()}});
    const QPointer<McpHttpSession> alive(s);
    s->server->handleLine(request.body);
    if (alive && !s->ended && s->started)
        Q_EMIT sessionStarted(s->id, s->server);
}

void McpHttpServer::route(McpHttpSession *s, const QByteArray &line)
{
    if (s->ended)
        return;
    const RpcMessage m = decodeMessage(line);
    if (m.kind == RpcMessage::Kind::Notification) {
        // Progress goes to the stream of the request it is about; anything else has no stream
        // to go to (there is no GET stream here) and is dropped.
        const QJsonValue token = m.params.toObject().value(QLatin1String("progressToken"));
        if (token.isUndefined())
            return;
        for (const auto &ex : std::as_const(s->pending)) {
            if (ex.sse && ex.connection && ex.progressToken == token) {
                ex.connection->sendEvent(line);
                return;
            }
        }
        return;
    }
    if (m.kind != RpcMessage::Kind::Response)
        return;
    const QString key = idKey(m.id);
    if (!s->pending.contains(key))
        return; // its client went away
    const McpHttpSession::Exchange ex = s->pending.take(key);
    m_waiting.remove(ex.connection);
    touch(s);
    if (ex.initialize)
        s->started = m.responseError.isEmpty();
    const bool failedStart = ex.initialize && !s->started;
    if (ex.connection) {
        if (ex.sse) {
            ex.connection->sendEvent(line);
            ex.connection->endStream();
        } else {
            http::HeaderList headers;
            if (!failedStart)
                headers.emplaceBack("Mcp-Session-Id", s->id.toLatin1());
            ex.connection->respondJson(200, headers, line);
        }
    }
    // A failed initialize leaves no session behind.
    if (failedStart)
        endSession(s);
}

void McpHttpServer::handleDelete(McpHttpConnection *conn, const http::Request &request)
{
    const QString sessionId = QString::fromLatin1(request.header("mcp-session-id"));
    if (sessionId.isEmpty())
        return conn->respondJson(
            400, {}, rpcError(QJsonValue::Null, rpc::InvalidRequest, QStringLiteral("DELETE needs Mcp-Session-Id.")));
    McpHttpSession *s = m_sessions.value(sessionId);
    if (!s)
        return conn->respondJson(404, {},
                                 rpcError(QJsonValue::Null, rpc::InvalidRequest,
                                          QStringLiteral("Session %1 has ended or never existed.").arg(sessionId)));
    endSession(s);
    conn->respond(204, {}, {});
}

void McpHttpServer::abandoned(McpHttpConnection *conn)
{
    const auto ref = m_waiting.take(conn);
    McpHttpSession *s = ref.first;
    if (!s || s->ended)
        return;
    const auto it = s->pending.constFind(ref.second);
    if (it == s->pending.cend() || it->connection != conn)
        return;
    const McpHttpSession::Exchange ex = *it;
    s->pending.erase(it);
    if (!ex.cancelOnDisconnect)
        return;
    // The stdio transport's end of input, for this one call: the client can never read its
    // result, so the tool stops (an exec's process is killed) instead of running on.
    QByteArray cancel =
        encodeNotification(QStringLiteral("notifications/cancelled"),
                           QJsonObject{{QStringLiteral("requestId"), ex.id},
                                       {QStringLiteral("reason"), QStringLiteral("The HTTP client disconnected.")}});
    cancel.chop(1);
    s->server->handleLine(cancel);
}

void McpHttpServer::endSession(McpHttpSession *s)
{
    if (s->ended)
        return;
    s->ended = true;
    s->idle.stop();
    m_sessions.remove(s->id);
    const auto pending = std::exchange(s->pending, {});
    for (const auto &ex : pending) {
        m_waiting.remove(ex.connection);
        if (!ex.connection)
            continue;
        const QByteArray error = rpcError(ex.id, rpc::InternalError,
                                          QStringLiteral("The MCP session ended before this request was answered."));
        if (ex.sse) {
            ex.connection->sendEvent(error);
            ex.connection->endStream();
        } else {
            ex.connection->respondJson(200, {}, error);
        }
    }
    // Calls that must not be abandoned (a create) finish first; the session's server goes once
    // nothing runs in it.
    s->server->inputClosed();
    if (s->server->callsInFlight() == 0)
        s->deleteLater();
    else
        connect(s->server, &McpServer::idle, s, [s] { s->deleteLater(); });
    if (s->started)
        Q_EMIT sessionEnded(s->id);
}

bool McpHttpServer::makeRoom()
{
    if (m_sessions.size() < m_limits.maxSessions)
        return true;
    McpHttpSession *oldest = nullptr;
    for (McpHttpSession *s : std::as_const(m_sessions)) {
        if (!s->pending.isEmpty() || s->server->callsInFlight() > 0)
            continue;
        if (!oldest || s->lastUse < oldest->lastUse)
            oldest = s;
    }
    if (!oldest)
        return false;
    endSession(oldest);
    return true;
}

void McpHttpServer::touch(McpHttpSession *s)
{
    s->lastUse = ++m_activity;
    s->idle.start();
}

} // namespace sandbar::mcp
