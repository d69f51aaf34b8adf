// Toolbox PTY sessions: HTTP create/list/get/resize/kill, and the WebSocket a client (or
// several at once) attaches with. Wire format as the daemon speaks it: a text control frame
// {"type":"control","status":"connected"} first, terminal output as binary frames, input
// frames written verbatim, and on exit (for clients that offered the
// X-Daytona-Pty-Exit-Control subprotocol) a text {"status":"exited"} control frame, then a
// close 1000 whose reason is {"exitCode":N,"exitReason":"..."}.
#include "DaytonaContext.h"
#include "DaytonaFiles.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>
#include <QWebSocket>
#include <csignal>
#include <sys/types.h>

namespace contract::daytona {

namespace {

constexpr qsizetype kBacklogLimit = 64 * 1024;
constexpr char kExitControl[] = "X-Daytona-Pty-Exit-Control";
constexpr char kEnvsPrefix[] = "X-Daytona-Pty-Envs~";

QJsonObject infoJson(const PtySession &s)
{
    return QJsonObject{{QStringLiteral("id"), s.id},
                       {QStringLiteral("cwd"), s.cwd},
                       {QStringLiteral("envs"), s.envs},
                       {QStringLiteral("cols"), s.cols},
                       {QStringLiteral("rows"), s.rows},
                       {QStringLiteral("createdAt"), Context::iso(s.createdAt)},
                       {QStringLiteral("active"), !s.process.isNull() && s.process->isRunning()},
                       {QStringLiteral("lazyStart"), s.lazyStart}};
}

// Kills a PTY's whole terminal session. The kit signals the process tree, but under
// bubblewrap the shell's parent can be re-parented to init mid-kill and survive, keeping
// the pseudo-terminal open so the exit is never seen; every process of the session
// (forkpty made the child its leader) is found by its session id instead.
void killSession(SandboxProcess *process)
{
    if (!process || !process->isRunning())
        return;
    const qint64 sid = process->pid();
    process->sendSignal(SIGKILL);
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool ok = false;
        const qint64 pid = entry.toLongLong(&ok);
        if (!ok || pid == sid)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // After "pid (comm) ": state ppid pgrp session ...
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 3 && fields.at(3).toLongLong() == sid)
            ::kill(pid_t(pid), SIGKILL);
    }
}

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// The subprotocol tokens a WebSocket client offered.
QStringList offeredProtocols(const Request &request)
{
    QStringList out;
    for (const auto &[name, value] : request.headers) {
        if (name.compare("sec-websocket-protocol", Qt::CaseInsensitive) != 0)
            continue;
        for (const QByteArray &token : value.split(','))
            out.append(QString::fromLatin1(token.trimmed()));
    }
    return out;
}

class Ptys
{
public:
    explicit Ptys(Context &c)
        : ctx(c)
    {
    }

    // Validates and registers a session; the process starts now unless lazyStart.
    std::shared_ptr<PtySession> create(Sandbox *sandbox, const QJsonObject &body, QString *error, int *status);
    bool start(Sandbox *sandbox, const std::shared_ptr<PtySession> &session, QString *error);
    void attach(Sandbox *sandbox, const std::shared_ptr<PtySession> &session, QWebSocket *socket, bool exitControl);
    void finished(const QString &sandboxId, const std::shared_ptr<PtySession> &session, int code,
                  const QString &status);
    void closeAll(Sandbox *sandbox);

    // The sandbox of a WebSocket handshake, or nullptr after closing the socket.
    Sandbox *wsSandbox(const Request &request, QWebSocket *socket);

    Context &ctx;
};

std::shared_ptr<PtySession> Ptys::create(Sandbox *sandbox, const QJsonObject &body, QString *error, int *status)
{
    *status = 400;
    QString id = body.value(QStringLiteral("id")).toString();
    if (id.isEmpty())
        id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    auto &ptys = ctx.extra(sandbox->id()).ptys;
    if (ptys.contains(id)) {
        *status = 409;
        *error = QStringLiteral("PTY session with ID %1 already exists").arg(id);
        return nullptr;
    }
    const int cols = body.value(QStringLiteral("cols")).toInt(80);
    const int rows = body.value(QStringLiteral("rows")).toInt(24);
    if (cols < 1 || cols > 1000 || rows < 1 || rows > 1000) {
        *error = QStringLiteral("cols and rows must be between 1 and 1000");
        return nullptr;
    }
    auto session = std::make_shared<PtySession>();
    session->id = id;
    session->cols = cols;
    session->rows = rows;
    session->envs = body.value(QStringLiteral("envs")).toObject();
    session->lazyStart = body.value(QStringLiteral("lazyStart")).toBool(false);
    session->createdAt = QDateTime::currentDateTimeUtc();
    const QString cwd = body.value(QStringLiteral("cwd")).toString();
    if (!cwd.isEmpty()) {
        const auto mapped = mapApiPath(sandbox, cwd);
        if (!mapped.ok() || !QFileInfo(mapped.value()).isDir()) {
            *error = QStringLiteral("invalid working directory: %1").arg(cwd);
            return nullptr;
        }
        session->cwd = sandbox->apiPath(mapped.value());
    } else {
        session->cwd = QStringLiteral("/home/user");
    }
    if (!session->lazyStart && !start(sandbox, session, error))
        return nullptr;
    ptys.insert(id, session);
    return session;
}

bool Ptys::start(Sandbox *sandbox, const std::shared_ptr<PtySession> &session, QString *error)
{
    ProcessSpec spec;
    spec.cmd = QStringLiteral("bash");
    spec.pty = true;
    spec.cols = session->cols;
    spec.rows = session->rows;
    spec.cwd = session->cwd;
    spec.tag = session->id;
    spec.envs.insert(QStringLiteral("TERM"), QStringLiteral("xterm-256color"));
    for (auto it = session->envs.begin(); it != session->envs.end(); ++it)
        spec.envs.insert(it.key(), it.value().toString());
    SandboxProcess *process = sandbox->start(spec, error);
    if (!process)
        return false;
    session->process = process;
    const QString sandboxId = sandbox->id();
    std::weak_ptr<PtySession> weak = session;
    QObject::connect(process, &SandboxProcess::output, process,
                     [weak](SandboxProcess::Channel, const QByteArray &bytes) {
                         auto s = weak.lock();
                         if (!s)
                             return;
                         bool delivered = false;
                         for (const auto &[socket, exitControl] : std::as_const(s->clients)) {
                             if (socket && socket->state() == QAbstractSocket::ConnectedState) {
                                 socket->sendBinaryMessage(bytes);
                                 delivered = true;
                             }
                         }
                         if (!delivered) {
                             s->backlog.append(bytes);
                             if (s->backlog.size() > kBacklogLimit)
                                 s->backlog = s->backlog.right(kBacklogLimit);
                         }
                     });
    QObject::connect(process, &SandboxProcess::finished, &ctx,
                     [this, sandboxId, weak](int code, const QString &status) {
                         if (auto s = weak.lock())
                             finished(sandboxId, s, code, status);
                     });
    return true;
}

void Ptys::finished(const QString &sandboxId, const std::shared_ptr<PtySession> &session, int code,
                    const QString &status)
{
    QJsonObject reason{{QStringLiteral("exitCode"), code}};
    if (code != 0) {
        reason.insert(QStringLiteral("exitReason"),
                      code > 0 ? QStringLiteral("exit status %1").arg(code)
                               : (status.isEmpty() ? QStringLiteral("signal: killed") : status));
    }
    const auto clients = session->clients;
    session->clients.clear();
    for (const auto &[socket, exitControl] : clients) {
        if (!socket)
            continue;
        if (exitControl) {
            QJsonObject control = reason;
            control.insert(QStringLiteral("type"), QStringLiteral("control"));
            control.insert(QStringLiteral("status"), QStringLiteral("exited"));
            socket->sendTextMessage(QString::fromUtf8(compact(control)));
        }
        socket->close(QWebSocketProtocol::CloseCodeNormal, QString::fromUtf8(compact(reason)));
    }
    // An exited session is gone, as in the daemon; its id can be used again.
    auto &ptys = ctx.extra(sandboxId).ptys;
    if (ptys.value(session->id) == session)
        ptys.remove(session->id);
}

void Ptys::attach(Sandbox *sandbox, const std::shared_ptr<PtySession> &session, QWebSocket *socket, bool exitControl)
{
    if (session->process.isNull()) {
        QString error;
        if (!start(sandbox, session, &error)) {
            socket->sendTextMessage(
                QString::fromUtf8(compact(QJsonObject{{QStringLiteral("type"), QStringLiteral("control")},
                                                      {QStringLiteral("status"), QStringLiteral("error")},
                                                      {QStringLiteral("error"), error}})));
            socket->close(QWebSocketProtocol::CloseCodeBadOperation, QStringLiteral("failed to start PTY"));
            return;
        }
    }
    socket->sendTextMessage(QStringLiteral("{\"type\":\"control\",\"status\":\"connected\"}"));
    if (!session->backlog.isEmpty()) {
        socket->sendBinaryMessage(session->backlog);
        session->backlog.clear();
    }
    session->clients.append({QPointer<QWebSocket>(socket), exitControl});
    const QString sandboxId = sandbox->id();
    std::weak_ptr<PtySession> weak = session;
    auto input = [this, weak, sandboxId](const QByteArray &bytes) {
        auto s = weak.lock();
        if (s && s->process && s->process->isRunning()) {
            s->process->write(bytes);
            ctx.touch(sandboxId);
        }
    };
    QObject::connect(socket, &QWebSocket::binaryMessageReceived, socket, input);
    QObject::connect(socket, &QWebSocket::textMessageReceived, socket,
                     [input](const QString &text) { input(text.toUtf8()); });
    QObject::connect(socket, &QWebSocket::disconnected, socket, [weak, socket] {
        if (auto s = weak.lock()) {
            s->clients.removeIf([socket](const auto &client) { return client.first == socket || !client.first; });
        }
    });
}

void Ptys::closeAll(Sandbox *sandbox)
{
    auto &ptys = ctx.extra(sandbox->id()).ptys;
    const auto sessions = ptys.values();
    ptys.clear();
    for (const auto &session : sessions) {
        if (session->process) {
            QObject::disconnect(session->process, nullptr, &ctx, nullptr);
            killSession(session->process);
        }
        for (const auto &[socket, exitControl] : std::as_const(session->clients)) {
            if (socket)
                socket->close(QWebSocketProtocol::CloseCodeGoingAway,
                              QStringLiteral("{\"error\":\"sandbox stopped\"}"));
        }
        session->clients.clear();
    }
}

Sandbox *Ptys::wsSandbox(const Request &request, QWebSocket *socket)
{
    if (!ctx.authorized(request)) {
        socket->close(QWebSocketProtocol::CloseCodePolicyViolated, QStringLiteral("{\"error\":\"Unauthorized\"}"));
        return nullptr;
    }
    Sandbox *sandbox = ctx.host.find(request.param(QStringLiteral("sandboxId")));
    if (!sandbox || sandbox->state() != QLatin1String(kStarted)) {
        socket->close(QWebSocketProtocol::CloseCodeBadOperation,
                      QStringLiteral("{\"error\":\"sandbox not found or not started\"}"));
        return nullptr;
    }
    ctx.touch(sandbox->id());
    return sandbox;
}

} // namespace

void installPty(Context &context)
{
    auto ptys = std::make_shared<Ptys>(context);
    context.closeAllPtys = [ptys](Sandbox *sandbox) { ptys->closeAll(sandbox); };
    Server &server = context.server;
    Context *ctx = &context;
    const QString base = QStringLiteral("/toolbox/{sandboxId}/process/pty");

    server.route("POST", base, [ctx, ptys](const Request &request, Responder *responder) {
        Sandbox *sandbox = ctx->toolboxSandbox(request, responder);
        if (!sandbox)
            return;
        QJsonDocument doc;
        if (!request.json(&doc) || !doc.isObject()) {
            Context::error(responder, 400, QStringLiteral("invalid request body"));
            return;
        }
        QString error;
        int status = 400;
        const auto session = ptys->create(sandbox, doc.object(), &error, &status);
        if (!session) {
            Context::error(responder, status, error);
            return;
        }
        responder->sendJson(201, QJsonObject{{QStringLiteral("sessionId"), session->id}});
    });
    server.route("GET", base, [ctx](const Request &request, Responder *responder) {
        Sandbox *sandbox = ctx->toolboxSandbox(request, responder);
        if (!sandbox)
            return;
        QJsonArray sessions;
        const auto all = ctx->extra(sandbox->id()).ptys;
        for (const auto &session : all)
            sessions.append(infoJson(*session));
        responder->sendJson(200, QJsonObject{{QStringLiteral("sessions"), sessions}});
    });
    // The session of {sessionId}, or nullptr after a 404.
    auto sessionFor = [ctx](Sandbox *sandbox, const Request &request, Responder *responder) {
        const QString id = request.param(QStringLiteral("sessionId"));
        auto session = ctx->extra(sandbox->id()).ptys.value(id);
        if (!session)
            Context::error(responder, 404, QStringLiteral("PTY session %1 not found").arg(id));
        return session;
    };
    server.route("GET", base + QStringLiteral("/{sessionId}"),
                 [ctx, sessionFor](const Request &request, Responder *responder) {
                     if (Sandbox *sandbox = ctx->toolboxSandbox(request, responder)) {
                         if (auto session = sessionFor(sandbox, request, responder))
                             responder->sendJson(200, infoJson(*session));
                     }
                 });
    server.route(
        "DELETE", base + QStringLiteral("/{sessionId}"),
        [ctx, sessionFor](const Request &request, Responder *responder) {
            Sandbox *sandbox = ctx->toolboxSandbox(request, responder);
            if (!sandbox)
                return;
            auto session = sessionFor(sandbox, request, responder);
            if (!session)
                return;
            if (session->process && session->process->isRunning())
                killSession(session->process);
            else
                ctx->extra(sandbox->id()).ptys.remove(session->id);
            responder->sendJson(200, QJsonObject{{QStringLiteral("message"), QStringLiteral("PTY session deleted")}});
        });
    server.route("POST", base + QStringLiteral("/{sessionId}/resize"),
                 [ctx, sessionFor](const Request &request, Responder *responder) {
                     Sandbox *sandbox = ctx->toolboxSandbox(request, responder);
                     if (!sandbox)
                         return;
                     auto session = sessionFor(sandbox, request, responder);
                     if (!session)
                         return;
                     QJsonDocument doc;
                     const QJsonObject body = request.json(&doc) ? doc.object() : QJsonObject();
                     const int cols = body.value(QStringLiteral("cols")).toInt(0);
                     const int rows = body.value(QStringLiteral("rows")).toInt(0);
                     if (cols < 1 || cols > 1000 || rows < 1 || rows > 1000) {
                         Context::error(responder, 400, QStringLiteral("cols and rows must be between 1 and 1000"));
                         return;
                     }
                     session->cols = cols;
                     session->rows = rows;
                     if (session->process)
                         session->process->resize(cols, rows);
                     responder->sendJson(200, infoJson(*session));
                 });

    server.webSocket(
        base + QStringLiteral("/{sessionId}/connect"), [ctx, ptys](const Request &request, QWebSocket *socket) {
            Sandbox *sandbox = ptys->wsSandbox(request, socket);
            if (!sandbox)
                return;
            auto session = ctx->extra(sandbox->id()).ptys.value(request.param(QStringLiteral("sessionId")));
            if (!session) {
                // The daemon reports an unknown session in the close reason.
                socket->close(QWebSocketProtocol::CloseCodeBadOperation,
                              QStringLiteral("{\"error\":\"PTY session not found\"}"));
                return;
            }
            ptys->attach(sandbox, session, socket, offeredProtocols(request).contains(QLatin1String(kExitControl)));
        });
    // What SDK 0.218's createPty uses: create and attach in one round trip; the
    // environment comes base64url-encoded in a subprotocol token.
    server.webSocket(base + QStringLiteral("/create-connect"), [ptys](const Request &request, QWebSocket *socket) {
        Sandbox *sandbox = ptys->wsSandbox(request, socket);
        if (!sandbox)
            return;
        QJsonObject body{{QStringLiteral("id"), request.queryValue(QStringLiteral("id"))},
                         {QStringLiteral("cols"), request.queryValue(QStringLiteral("cols")).toInt()},
                         {QStringLiteral("rows"), request.queryValue(QStringLiteral("rows")).toInt()},
                         {QStringLiteral("cwd"), request.queryValue(QStringLiteral("cwd"))}};
        if (request.queryValue(QStringLiteral("cols")).isEmpty())
            body.remove(QStringLiteral("cols"));
        if (request.queryValue(QStringLiteral("rows")).isEmpty())
            body.remove(QStringLiteral("rows"));
        const QStringList offered = offeredProtocols(request);
        for (const QString &token : offered) {
            if (token.startsWith(QLatin1String(kEnvsPrefix))) {
                const QByteArray json = QByteArray::fromBase64(token.mid(int(qstrlen(kEnvsPrefix))).toLatin1(),
                                                               QByteArray::Base64UrlEncoding);
                body.insert(QStringLiteral("envs"), QJsonDocument::fromJson(json).object());
            }
        }
        QString error;
        int status = 400;
        const auto session = ptys->create(sandbox, body, &error, &status);
        if (!session) {
            socket->sendTextMessage(
                QString::fromUtf8(compact(QJsonObject{{QStringLiteral("type"), QStringLiteral("control")},
                                                      {QStringLiteral("status"), QStringLiteral("error")},
                                                      {QStringLiteral("error"), error}})));
            socket->close(QWebSocketProtocol::CloseCodeBadOperation,
                          QString::fromUtf8(compact(QJsonObject{{QStringLiteral("error"), error}})));
            return;
        }
        ptys->attach(sandbox, session, socket, offered.contains(QLatin1String(kExitControl)));
    });
}

} // namespace contract::daytona
