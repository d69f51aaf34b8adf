// The TCP proxy, WebSocket /v1/sprites/{name}/proxy, as sprites-go dials it: the first text
// frame is {"host","port"}, the answer {"status":"connected","target"} (or an error and a
// close), then raw bytes both ways as binary frames. Every sandbox command here has a network
// namespace of its own, so the connection is made inside the namespace of the process that
// listens on the port (nsenter; the port watcher knows which), by bash's /dev/tcp and two cats.
#include "SpritesContext.h"
#include "kit/Server.h"

#include <QJsonDocument>
#include <QProcess>
#include <QWebSocket>
#include <unistd.h>

namespace contract::sprites {

namespace {

// Says "connected" on stderr once connected and "closed" when the far side ends; exit 7 when
// nothing listens.
constexpr char kRelay[] = "exec 3<>/dev/tcp/127.0.0.1/\"$1\" || exit 7; echo connected >&2; "
                          "{ cat <&3; echo closed >&2; } & cat >&3";

void refuse(QWebSocket *socket, const QString &why)
{
    socket->sendTextMessage(QString::fromUtf8(
        QJsonDocument(QJsonObject{{QStringLiteral("status"), QStringLiteral("error")}, {QStringLiteral("error"), why}})
            .toJson(QJsonDocument::Compact)));
    socket->close(QWebSocketProtocol::CloseCodeNormal, why.left(100));
}

void relay(QWebSocket *socket, qint64 pid, int port)
{
    auto *process = new QProcess(socket);
    QStringList args{QStringLiteral("-t"), QString::number(pid), QStringLiteral("-n")};
    if (::geteuid() != 0) // bubblewrap gave an unprivileged sandbox a user namespace of its own
        args << QStringLiteral("-U") << QStringLiteral("--preserve-credentials");
    args << QStringLiteral("bash") << QStringLiteral("-c") << QLatin1String(kRelay) << QStringLiteral("relay")
         << QString::number(port);
    auto connected = std::make_shared<bool>(false);
    QObject::connect(process, &QProcess::readyReadStandardError, socket, [socket, process, connected, port] {
        const QByteArray said = process->readAllStandardError();
        if (!*connected && said.contains("connected")) {
            *connected = true;
            socket->sendTextMessage(QString::fromUtf8(
                QJsonDocument(QJsonObject{{QStringLiteral("status"), QStringLiteral("connected")},
                                          {QStringLiteral("target"), QStringLiteral("localhost:%1").arg(port)}})
                    .toJson(QJsonDocument::Compact)));
        }
        if (said.contains("closed"))
            socket->close();
    });
    QObject::connect(process, &QProcess::readyReadStandardOutput, socket,
                     [socket, process] { socket->sendBinaryMessage(process->readAllStandardOutput()); });
    QObject::connect(process, &QProcess::finished, socket, [socket, connected, port](int code) {
        if (!*connected)
            return refuse(socket, code == 7 ? QStringLiteral("connection refused: nothing listens on port %1").arg(port)
                                            : QStringLiteral("the proxy could not reach port %1").arg(port));
        socket->close();
    });
    QObject::connect(socket, &QWebSocket::binaryMessageReceived, process,
                     [process](const QByteArray &bytes) { process->write(bytes); });
    QObject::connect(socket, &QWebSocket::disconnected, process, [process] {
        process->closeWriteChannel();
        process->kill();
    });
    process->start(QStringLiteral("nsenter"), args);
}

void openProxy(Context &ctx, const Request &request, QWebSocket *socket)
{
    const QString name = request.param(QStringLiteral("name"));
    QObject::connect(socket, &QWebSocket::textMessageReceived, socket, [&ctx, socket, name](const QString &text) {
        if (socket->property("proxyStarted").toBool())
            return;
        socket->setProperty("proxyStarted", true);
        const QJsonObject init = QJsonDocument::fromJson(text.toUtf8()).object();
        const QString host = init.value(QStringLiteral("host")).toString();
        const int port = init.value(QStringLiteral("port")).toInt();
        if (host != QLatin1String("localhost") && host != QLatin1String("127.0.0.1"))
            return refuse(socket, QStringLiteral("host must be localhost"));
        if (port <= 0 || port > 65535)
            return refuse(socket, QStringLiteral("port must be 1-65535"));
        const SpritePtr record = ctx.sprites.value(name);
        if (!record)
            return refuse(socket, QStringLiteral("sprite not found"));
        ctx.touch(*record);
        const qint64 pid = record->ports.value(port);
        if (pid <= 0)
            return refuse(socket, QStringLiteral("connection refused: nothing listens on port %1").arg(port));
        relay(socket, pid, port);
    });
}

} // namespace

void installProxy(Context &context)
{
    Context *ctx = &context;
    Server &s = context.server;
    s.webSocket(QStringLiteral("/v1/sprites/{name}/proxy"), [ctx](const Request &r, QWebSocket *socket) {
         openProxy(*ctx, r, socket);
     }).onlyWhen([ctx](const Request &r) {
        return ctx->authorized(r) && ctx->sprites.contains(r.param(QStringLiteral("name")));
    });
    s.route("GET", QStringLiteral("/v1/sprites/{name}/proxy"), [ctx](const Request &r, Responder *out) {
        if (ctx->spriteFor(r, out))
            Context::error(out, 400, QStringLiteral("invalid_request"),
                           QStringLiteral("a WebSocket upgrade is expected"));
    });
}

} // namespace contract::sprites
