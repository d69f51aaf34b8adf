// Daytona's notification gateway: Socket.IO (Engine.IO v4, WebSocket transport only) at
// {apiUrl}/socket.io/. The SDK listens there for sandbox.state.updated and sandbox.created
// and polls less; only what that needs is spoken: the open packet, a namespace CONNECT
// authenticated by {"token": API key}, pings, and EVENT packets.
#include "DaytonaContext.h"
#include "kit/Server.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>
#include <QWebSocket>
#include <QWebSocketServer>

namespace contract::daytona {

namespace {

constexpr int kPingIntervalMs = 25000;
constexpr int kPingTimeoutMs = 20000;

QString sid()
{
    return QUuid::createUuid().toString(QUuid::Id128).left(20);
}

void serve(Context *ctx, QWebSocket *socket)
{
    // Engine.IO open packet ("0" + handshake JSON).
    const QJsonObject open{{QStringLiteral("sid"), sid()},
                           {QStringLiteral("upgrades"), QJsonArray()},
                           {QStringLiteral("pingInterval"), kPingIntervalMs},
                           {QStringLiteral("pingTimeout"), kPingTimeoutMs},
                           {QStringLiteral("maxPayload"), 1000000}};
    socket->sendTextMessage(QLatin1Char('0') + QString::fromUtf8(QJsonDocument(open).toJson(QJsonDocument::Compact)));
    auto *ping = new QTimer(socket);
    ping->setInterval(kPingIntervalMs);
    QObject::connect(ping, &QTimer::timeout, socket, [socket] { socket->sendTextMessage(QStringLiteral("2")); });
    ping->start();
    auto authed = std::make_shared<bool>(false);
    QObject::connect(socket, &QWebSocket::textMessageReceived, socket, [ctx, socket, authed](const QString &packet) {
        if (packet.startsWith(QLatin1String("40"))) {
            // Socket.IO CONNECT to the main namespace; the token rides in the auth payload.
            const QJsonObject auth = QJsonDocument::fromJson(packet.mid(2).toUtf8()).object();
            if (auth.value(QStringLiteral("token")).toString() != ctx->apiKey) {
                socket->sendTextMessage(QStringLiteral("44{\"message\":\"Unauthorized\"}"));
                return;
            }
            *authed = true;
            socket->sendTextMessage(QStringLiteral("40{\"sid\":\"%1\"}").arg(sid()));
        } else if (packet == QLatin1String("41")) {
            socket->close();
        } else if (packet == QLatin1String("2")) {
            socket->sendTextMessage(QStringLiteral("3"));
        }
    });
    QObject::connect(ctx, &Context::event, socket, [socket, authed](const QString &name, const QJsonObject &payload) {
        if (!*authed)
            return;
        const QJsonArray event{name, payload};
        socket->sendTextMessage(QStringLiteral("42") +
                                QString::fromUtf8(QJsonDocument(event).toJson(QJsonDocument::Compact)));
    });
}

} // namespace

void installSocketIo(Context &context)
{
    Context *ctx = &context;
    for (const QString &path : {QStringLiteral("/api/socket.io/"), QStringLiteral("/api/socket.io")})
        context.server.webSocket(path, [ctx](const Request &, QWebSocket *socket) { serve(ctx, socket); });
    // The SDK offers subprotocols on PTY sockets and (node `ws`) refuses a handshake that
    // does not echo one back; the kit's QWebSocketServer is told which ones it may accept.
    if (auto *ws = context.server.findChild<QWebSocketServer *>()) {
        QStringList protocols = ws->supportedSubprotocols();
        if (!protocols.contains(QLatin1String("X-Daytona-Pty-Exit-Control")))
            protocols.append(QStringLiteral("X-Daytona-Pty-Exit-Control"));
        ws->setSupportedSubprotocols(protocols);
    }
}

} // namespace contract::daytona
