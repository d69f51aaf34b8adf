#include "Server.h"

#include "Connection.h"
#include "SandboxHost.h"

#include <QFile>
#include <QJsonDocument>
#include <QNetworkRequest>
#include <QSslConfiguration>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTimer>
#include <QWebSocket>
#include <QWebSocketServer>

using sandbar::ErrorCode;
using sandbar::makeError;

namespace contract {

QJsonObject Server::errorBody(int status, const QString &message) const
{
    if (m_errorBody)
        return m_errorBody(status, message);
    return {{QStringLiteral("code"), status}, {QStringLiteral("message"), message}};
}

Server::Server(QObject *parent)
    : QObject(parent)
    , m_wsServer(new QWebSocketServer(QStringLiteral("sandbar-contract"), QWebSocketServer::NonSecureMode, this))
{
    connect(m_wsServer, &QWebSocketServer::newConnection, this, &Server::onWebSocket);
}

Server::~Server() = default;

sandbar::VoidResult Server::setTls(const QString &certFile, const QString &keyFile)
{
    QFile cert(certFile);
    QFile key(keyFile);
    if (!cert.open(QIODevice::ReadOnly) || !key.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::NotFound, QStringLiteral("cannot read the TLS certificate or key"));
    m_cert = QSslCertificate(&cert, QSsl::Pem);
    m_key = QSslKey(&key, QSsl::Rsa, QSsl::Pem);
    if (m_key.isNull()) {
        key.seek(0);
        m_key = QSslKey(&key, QSsl::Ec, QSsl::Pem);
    }
    if (m_cert.isNull() || m_key.isNull())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("invalid TLS certificate or key (PEM expected)"));
    return {};
}

sandbar::VoidResult Server::listen(quint16 port)
{
    if (isTls()) {
        auto *ssl = new QSslServer(this);
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        config.setLocalCertificate(m_cert);
        config.setPrivateKey(m_key);
        config.setPeerVerifyMode(QSslSocket::VerifyNone);
        ssl->setSslConfiguration(config);
        m_server = ssl;
    } else {
        m_server = new QTcpServer(this);
    }
    connect(m_server, &QTcpServer::pendingConnectionAvailable, this, &Server::onNewConnection);
    if (!m_server->listen(QHostAddress::LocalHost, port))
        return makeError(ErrorCode::Unavailable, m_server->errorString());
    return {};
}

quint16 Server::port() const
{
    return m_server ? m_server->serverPort() : 0;
}

QString Server::baseUrl() const
{
    return QStringLiteral("%1://127.0.0.1:%2")
        .arg(isTls() ? QStringLiteral("https") : QStringLiteral("http"))
        .arg(port());
}

Route &Server::route(const QByteArray &method, const QString &pattern, Handler handler)
{
    Route r;
    r.method = method;
    r.pattern = pattern;
    r.handler = std::move(handler);
    r.name = QString::fromLatin1(method) + QLatin1Char(' ') + pattern;
    m_routes.append(std::move(r));
    return m_routes.last();
}

Route &Server::webSocket(const QString &pattern, WebSocketHandler handler)
{
    Route r;
    r.method = "GET";
    r.pattern = pattern;
    r.wsHandler = std::move(handler);
    r.name = QStringLiteral("WS ") + pattern;
    m_routes.append(std::move(r));
    return m_routes.last();
}

bool Server::matchPattern(const QString &pattern, const QString &path, QHash<QString, QString> *params)
{
    const QStringList want = pattern.split(QLatin1Char('/'));
    const QStringList have = path.split(QLatin1Char('/'));
    QHash<QString, QString> found;
    for (int i = 0; i < want.size(); ++i) {
        const QString &w = want.at(i);
        if (w.startsWith(QLatin1Char('{')) && w.endsWith(QLatin1String("*}"))) {
            found.insert(w.mid(1, w.size() - 3), have.mid(i).join(QLatin1Char('/')));
            if (params)
                *params = found;
            return i < have.size() || w.size() > 3;
        }
        if (i >= have.size())
            return false;
        if (w.startsWith(QLatin1Char('{')) && w.endsWith(QLatin1Char('}'))) {
            if (have.at(i).isEmpty())
                return false;
            found.insert(w.mid(1, w.size() - 2), have.at(i));
        } else if (w != have.at(i)) {
            return false;
        }
    }
    if (want.size() != have.size())
        return false;
    if (params)
        *params = found;
    return true;
}

void Server::onNewConnection()
{
    while (m_server->hasPendingConnections()) {
        QTcpSocket *socket = m_server->nextPendingConnection();
        if (!socket)
            continue;
        // As the real services (Go's net/http sets TCP_NODELAY): a keystroke's echo must not
        // wait for the client's delayed ACK.
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        new Connection(socket, this, isTls());
    }
}

void Server::dispatch(Request &request, Responder *responder)
{
    if (request.path.startsWith(QLatin1String("/_contract/"))) {
        handleAdmin(request, responder);
        return;
    }
    bool pathMatched = false;
    for (const Route &route : std::as_const(m_routes)) {
        if (route.wsHandler)
            continue;
        QHash<QString, QString> params;
        if (!matchPattern(route.pattern, request.path, &params))
            continue;
        Request candidate = request;
        candidate.params = params;
        if (route.when && !route.when(candidate))
            continue;
        pathMatched = true;
        const bool methodOk = route.method == "*" || route.method == request.method ||
                              (request.method == "HEAD" && route.method == "GET");
        if (!methodOk)
            continue;
        request.params = params;
        countRequest(route.name);
        runRoute(route, request, responder);
        return;
    }
    countRequest(QStringLiteral("unmatched"));
    if (m_fallback) {
        m_fallback(request, responder);
        return;
    }
    if (pathMatched)
        responder->sendJson(405, errorBody(405, QStringLiteral("method not allowed")));
    else
        responder->sendJson(404, errorBody(404, QStringLiteral("no route for %1").arg(request.path)));
}

void Server::runRoute(const Route &route, const Request &request, Responder *responder)
{
    const std::optional<FaultRule> fault = m_faults.take(request.method, request.path);
    const Handler handler = route.handler;
    if (!fault) {
        handler(request, responder);
        return;
    }
    const QString message = QStringLiteral("injected fault: %1").arg(Faults::kindName(fault->kind, fault->argument));
    switch (fault->kind) {
    case FaultKind::Status500: responder->sendJson(500, errorBody(500, message)); return;
    case FaultKind::Status503: responder->sendJson(503, errorBody(503, message)); return;
    case FaultKind::Status401: responder->sendJson(401, errorBody(401, message)); return;
    case FaultKind::Status429: responder->sendJson(429, errorBody(429, message), {{"Retry-After", "1"}}); return;
    case FaultKind::Malformed:
        responder->send(200, {{"Content-Type", "application/json"}}, "{\"sandboxID\": \"broken\", \"templ");
        return;
    case FaultKind::Slow: {
        QPointer<Responder> guard(responder);
        QTimer::singleShot(fault->argument, responder, [handler, request, guard] {
            if (guard && !guard->isFinished())
                handler(request, guard.data());
        });
        return;
    }
    case FaultKind::Reset:
        if (!route.streaming) {
            responder->reset();
            return;
        }
        responder->setMode(Responder::Mode::Reset, fault->argument > 0 ? fault->argument : 64);
        break;
    case FaultKind::Truncate: responder->setMode(Responder::Mode::Truncate); break;
    case FaultKind::LostReply: responder->setMode(Responder::Mode::LostReply); break;
    case FaultKind::WsClose: break;
    }
    handler(request, responder);
}

bool Server::tryUpgrade(Connection *connection, const Request &head)
{
    for (const Route &route : std::as_const(m_routes)) {
        if (!route.wsHandler)
            continue;
        Request candidate = head;
        if (!matchPattern(route.pattern, head.path, &candidate.params))
            continue;
        if (route.when && !route.when(candidate))
            continue;
        const std::optional<FaultRule> fault = m_faults.take(head.method, head.path);
        if (fault && fault->kind != FaultKind::WsClose && fault->kind != FaultKind::Slow) {
            // Refuse the upgrade the way a failing gateway would.
            const int status = fault->kind == FaultKind::Status503   ? 503
                               : fault->kind == FaultKind::Status429 ? 429
                               : fault->kind == FaultKind::Status401 ? 401
                                                                     : 500;
            if (fault->kind == FaultKind::Reset || fault->kind == FaultKind::LostReply) {
                connection->abort();
                return true;
            }
            const QByteArray body =
                QJsonDocument(errorBody(status, QStringLiteral("injected fault"))).toJson(QJsonDocument::Compact);
            QTcpSocket *socket = connection->socket();
            socket->readAll();
            connection->write("HTTP/1.1 " + QByteArray::number(status) + ' ' + Responder::reasonPhrase(status) +
                              "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " +
                              QByteArray::number(body.size()) + "\r\n\r\n" + body);
            socket->disconnectFromHost();
            return true;
        }
        countRequest(route.name);
        QTcpSocket *socket = connection->release();
        socket->setParent(this);
        if (fault && fault->kind == FaultKind::WsClose)
            m_pendingWsClose.emplaceBack(head.target, fault->argument > 0 ? fault->argument : 300);
        m_wsServer->handleConnection(socket);
        return true;
    }
    return false;
}

void Server::onWebSocket()
{
    while (m_wsServer->hasPendingConnections()) {
        QWebSocket *ws = m_wsServer->nextPendingConnection();
        if (!ws)
            continue;
        ws->setParent(this);
        connect(ws, &QWebSocket::disconnected, ws, &QObject::deleteLater);
        Request request;
        request.method = "GET";
        const QUrl url = ws->requestUrl();
        request.path = url.path(QUrl::FullyDecoded);
        request.target = url.path(QUrl::FullyEncoded).toLatin1();
        if (url.hasQuery()) {
            request.target += '?' + url.query(QUrl::FullyEncoded).toLatin1();
            request.query.setQuery(url.query(QUrl::FullyEncoded));
        }
        const QNetworkRequest handshake = ws->request();
        for (const QByteArray &name : handshake.rawHeaderList())
            request.headers.emplaceBack(name, handshake.rawHeader(name));
        request.tls = isTls();
        request.localPort = port();
        for (int i = 0; i < m_pendingWsClose.size(); ++i) {
            if (m_pendingWsClose.at(i).first == request.target) {
                const int ms = m_pendingWsClose.at(i).second;
                m_pendingWsClose.removeAt(i);
                QTimer::singleShot(ms, ws, [ws] {
                    ws->close(QWebSocketProtocol::CloseCodeBadOperation, QStringLiteral("injected ws-close"));
                });
                break;
            }
        }
        const Route *matched = nullptr;
        for (const Route &route : std::as_const(m_routes)) {
            if (!route.wsHandler || !matchPattern(route.pattern, request.path, &request.params))
                continue;
            if (route.when && !route.when(request))
                continue;
            matched = &route;
            break;
        }
        if (!matched) {
            ws->close(QWebSocketProtocol::CloseCodePolicyViolated, QStringLiteral("no route"));
            continue;
        }
        matched->wsHandler(request, ws);
    }
}

void Server::handleAdmin(const Request &request, Responder *responder)
{
    if (request.path == QLatin1String("/_contract/state") && request.method == "GET") {
        responder->sendJson(200, stateJson());
        return;
    }
    if (request.path == QLatin1String("/_contract/faults")) {
        if (request.method == "DELETE") {
            m_faults.clear();
            responder->send(204, {}, {});
            return;
        }
        if (request.method == "GET") {
            responder->sendJson(200, QJsonObject{{QStringLiteral("rules"), m_faults.toJson()}});
            return;
        }
        if (request.method == "POST") {
            QJsonDocument doc;
            QString error;
            if (!request.json(&doc, &error) || !doc.isObject()) {
                responder->sendJson(400, errorBody(400, QStringLiteral("invalid JSON: %1").arg(error)));
                return;
            }
            auto rules = Faults::parseJson(doc.object());
            if (!rules) {
                responder->sendJson(400, errorBody(400, rules.message()));
                return;
            }
            m_faults.add(*rules);
            responder->sendJson(200, QJsonObject{{QStringLiteral("rules"), m_faults.toJson()}});
            return;
        }
    }
    responder->sendJson(404, errorBody(404, QStringLiteral("unknown admin endpoint")));
}

QJsonObject Server::stateJson() const
{
    QJsonObject requests;
    for (auto it = m_requestCounts.cbegin(); it != m_requestCounts.cend(); ++it)
        requests.insert(it.key(), it.value());
    QJsonObject state{{QStringLiteral("requests"), requests}, {QStringLiteral("faults"), m_faults.toJson()}};
    if (m_host) {
        QJsonArray sandboxes;
        for (Sandbox *sandbox : m_host->sandboxes()) {
            QJsonObject s{{QStringLiteral("id"), sandbox->id()},
                          {QStringLiteral("state"), sandbox->state()},
                          {QStringLiteral("metadata"), sandbox->metadata},
                          {QStringLiteral("folder"), sandbox->root()},
                          {QStringLiteral("processes"), static_cast<int>(sandbox->processes().size())},
                          {QStringLiteral("activePtys"), sandbox->activePtys()}};
            if (sandbox->endAt.isValid())
                s.insert(QStringLiteral("endAt"), sandbox->endAt.toUTC().toString(Qt::ISODateWithMs));
            sandboxes.append(s);
        }
        state.insert(QStringLiteral("sandboxesCreated"), m_host->createdTotal());
        state.insert(QStringLiteral("sandboxes"), sandboxes);
        state.insert(QStringLiteral("activePtys"), m_host->activePtys());
        state.insert(QStringLiteral("bubblewrap"), m_host->usesBubblewrap());
    }
    if (m_stateExtra) {
        const QJsonObject extra = m_stateExtra();
        for (auto it = extra.begin(); it != extra.end(); ++it)
            state.insert(it.key(), it.value());
    }
    return state;
}

} // namespace contract
