#pragma once

#include "Faults.h"
#include "Request.h"
#include "Responder.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>
#include <functional>
#include <memory>

class QTcpServer;
class QTcpSocket;
class QWebSocket;
class QWebSocketServer;

namespace contract {

class Connection;
class SandboxHost;

using Handler = std::function<void(const Request &request, Responder *responder)>;
using Predicate = std::function<bool(const Request &request)>;
// The socket is owned by the server (deleted on disconnect); the request is rebuilt
// from the handshake (path, query, headers, params).
using WebSocketHandler = std::function<void(const Request &request, QWebSocket *socket)>;

struct Route {
    QByteArray method; // "*" any
    QString pattern;   // "/sandboxes/{id}/pause", "{rest*}" captures the remainder
    Handler handler;
    WebSocketHandler wsHandler;
    Predicate when; // optional extra condition (e.g. an envd Host header)
    bool streaming = false;
    QString name; // the key for request counts (defaults to "METHOD pattern")

    Route &onlyWhen(Predicate predicate)
    {
        when = std::move(predicate);
        return *this;
    }
    Route &streams()
    {
        streaming = true;
        return *this;
    }
    Route &named(QString routeName)
    {
        name = std::move(routeName);
        return *this;
    }
};

// A small HTTP/1.1 (+TLS, +WebSocket) server for contract tests, loopback only.
class Server : public QObject
{
    Q_OBJECT
public:
    explicit Server(QObject *parent = nullptr);
    ~Server() override;

    // Certificate and key in PEM; call before listen().
    sandbar::VoidResult setTls(const QString &certFile, const QString &keyFile);
    // Listens on 127.0.0.1 only; port 0 picks one.
    sandbar::VoidResult listen(quint16 port);
    quint16 port() const;
    bool isTls() const { return !m_cert.isNull(); }
    // "http://127.0.0.1:PORT" or "https://...".
    QString baseUrl() const;

    // Routes are tried in the order added; the first whose method, pattern and predicate
    // match wins. The returned reference stays valid until the next route() call.
    Route &route(const QByteArray &method, const QString &pattern, Handler handler);
    Route &webSocket(const QString &pattern, WebSocketHandler handler);
    // When no route matches (default: 404 {"code":404,"message":"no route"}).
    void setFallback(Handler handler) { m_fallback = std::move(handler); }
    // Extra fields merged into GET /_contract/state (provider specifics).
    void setStateExtra(std::function<QJsonObject()> extra) { m_stateExtra = std::move(extra); }
    // The service's own error body, for what the kit answers itself (faults, no route, bad
    // JSON); E2B's {code, message} unless a service says otherwise.
    using ErrorBody = std::function<QJsonObject(int status, const QString &message)>;
    void setErrorBody(ErrorBody body) { m_errorBody = std::move(body); }
    QJsonObject errorBody(int status, const QString &message) const;
    void setSandboxHost(SandboxHost *host) { m_host = host; }

    Faults &faults() { return m_faults; }
    // Everything GET /_contract/state answers: {"requests":{"ROUTE":n},"sandboxesCreated":n,
    // "sandboxes":[{id,state,metadata,...}],"activePtys":n, ...extra}.
    QJsonObject stateJson() const;
    void countRequest(const QString &routeName) { ++m_requestCounts[routeName]; }

    // Matches a pattern against a path, filling params; exposed for tests.
    static bool matchPattern(const QString &pattern, const QString &path, QHash<QString, QString> *params);

    // Used by Connection.
    void dispatch(Request &request, Responder *responder);
    bool tryUpgrade(Connection *connection, const Request &head);

private:
    void onNewConnection();
    void onWebSocket();
    void handleAdmin(const Request &request, Responder *responder);
    void runRoute(const Route &route, const Request &request, Responder *responder);

    QTcpServer *m_server = nullptr;
    QWebSocketServer *m_wsServer = nullptr;
    QSslCertificate m_cert;
    QSslKey m_key;
    QList<Route> m_routes;
    Handler m_fallback;
    std::function<QJsonObject()> m_stateExtra;
    ErrorBody m_errorBody;
    SandboxHost *m_host = nullptr;
    Faults m_faults;
    QMap<QString, int> m_requestCounts;
    QList<QPair<QByteArray, int>> m_pendingWsClose; // request target, delay in ms
};

} // namespace contract
