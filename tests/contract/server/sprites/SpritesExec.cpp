// Exec: the WebSocket /v1/sprites/{name}/exec?cmd=..&cmd=..&path=&tty=&rows=&cols=&stdin=&dir=
// &env=K=V&max_run_after_disconnect= (a new session), /exec/{id} (or /exec?id=, attach to one),
// GET /exec (the sessions), POST /exec/{id}/kill (NDJSON progress), POST /exec (HTTP exec:
// one chunk per frame, the last [3, code]) and the port watcher /ports/watch.
#include "SpritesContext.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QDir>
#include <QJsonDocument>
#include <QWebSocket>
#include <csignal>

namespace contract::sprites {

namespace {

constexpr qint64 kMaxStdin = 10 * 1024 * 1024;
constexpr qint64 kNonTtyDetachMs = 10000;
constexpr qint64 kKillTimeoutMs = 10000;

bool isUpgrade(const Request &request)
{
    return request.header("upgrade").toLower() == "websocket";
}

// The process a request's query describes; an error message when it cannot run.
QString buildSpec(const Request &request, ProcessSpec *spec, QString *workdir)
{
    QStringList cmd = Context::queryValues(request, QStringLiteral("cmd"));
    const QString path = Context::queryValue(request, QStringLiteral("path"));
    if (cmd.isEmpty())
        cmd.append(path.isEmpty() ? QStringLiteral("bash") : path);
    spec->cmd = path.isEmpty() ? cmd.constFirst() : path;
    spec->args = cmd.mid(1);
    const QString dir = Context::queryValue(request, QStringLiteral("dir"), QLatin1String(kHome));
    auto kitDir = Context::kitPath(dir, QLatin1String(kHome));
    if (!kitDir)
        return kitDir.message();
    spec->cwd = *kitDir;
    *workdir = QDir::cleanPath(dir.startsWith(QLatin1Char('/')) ? dir : QLatin1String(kHome) + QLatin1Char('/') + dir);
    for (const QString &pair : Context::queryValues(request, QStringLiteral("env"))) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return QStringLiteral("env must be KEY=VALUE: %1").arg(pair);
        spec->envs.insert(pair.left(eq), pair.mid(eq + 1));
    }
    spec->pty = Context::queryValue(request, QStringLiteral("tty")) == QLatin1String("true");
    spec->cols = qBound(1, Context::queryValue(request, QStringLiteral("cols")).toInt(), 1000);
    spec->rows = qBound(1, Context::queryValue(request, QStringLiteral("rows")).toInt(), 1000);
    if (Context::queryValue(request, QStringLiteral("cols")).isEmpty())
        spec->cols = 80;
    if (Context::queryValue(request, QStringLiteral("rows")).isEmpty())
        spec->rows = 24;
    spec->stdinOpen = spec->pty || Context::queryValue(request, QStringLiteral("stdin")) != QLatin1String("false");
    spec->tag = QStringLiteral("exec");
    return {};
}

// Starts a session for the request; nullptr with `failure` set when it cannot.
ExecSession *startSession(Context &ctx, SpriteRecord &record, const Request &request, QString *failure)
{
    ProcessSpec spec;
    QString workdir;
    *failure = buildSpec(request, &spec, &workdir);
    Sandbox *kit = ctx.kit(record);
    if (!failure->isEmpty() || !kit) {
        if (failure->isEmpty())
            *failure = QStringLiteral("the sprite has no machine");
        return nullptr;
    }
    const QString maxRun = Context::queryValue(request, QStringLiteral("max_run_after_disconnect"));
    std::optional<qint64> maxRunMs = maxRun.isEmpty() ? std::nullopt : Context::durationMs(maxRun);
    if (!maxRun.isEmpty() && !maxRunMs) {
        *failure = QStringLiteral("max_run_after_disconnect must be a duration such as 30s");
        return nullptr;
    }
    SandboxProcess *process = kit->start(spec, failure);
    if (!process)
        return nullptr;
    const int number = ctx.nextSessionId++;
    auto *session = new ExecSession(ctx, QString::number(number), record.name, &ctx);
    session->command = QStringList{spec.cmd} + spec.args;
    session->workdir = workdir;
    session->tty = spec.pty;
    session->cols = spec.cols;
    session->rows = spec.rows;
    // A TTY session runs on after its last socket closed; other commands 10 s.
    session->maxRunAfterDisconnectMs = maxRunMs ? *maxRunMs : spec.pty ? -1 : kNonTtyDetachMs;
    session->start(process);
    ctx.sessions.insert(number, session);
    ctx.updateStatus(record);
    return session;
}

ExecSession *runningSession(const Context &ctx, const QString &sprite, const QString &id)
{
    ExecSession *session = ctx.sessions.value(id.toInt());
    return session && session->spriteName == sprite && session->isRunning() ? session : nullptr;
}

// An upgrade that the WebSocket routes refused (bad token, no sprite, no session): the same
// request answered as HTTP.
void refuseOrList(Context &ctx, const Request &request, Responder *responder)
{
    const SpritePtr record = ctx.spriteFor(request, responder);
    if (!record)
        return;
    const QString id = request.param(QStringLiteral("id")).isEmpty()
                           ? Context::queryValue(request, QStringLiteral("id"))
                           : request.param(QStringLiteral("id"));
    if (!id.isEmpty()) {
        if (ExecSession *session = runningSession(ctx, record->name, id))
            responder->sendJson(200, session->toJson());
        else
            Context::error(responder, 404, QStringLiteral("not_found"),
                           QStringLiteral("session not found: %1").arg(id));
        return;
    }
    if (isUpgrade(request)) {
        ProcessSpec spec;
        QString workdir;
        const QString problem = buildSpec(request, &spec, &workdir);
        Context::error(responder, 400, QStringLiteral("invalid_request"),
                       problem.isEmpty() ? QStringLiteral("cannot start the command") : problem);
        return;
    }
    QJsonArray list;
    for (ExecSession *session : ctx.sessionsOf(record->name)) {
        if (session->isRunning())
            list.append(session->toJson());
    }
    responder->sendJson(200, QJsonObject{{QStringLiteral("sessions"), list}});
}

void killSession(Context &ctx, const Request &request, Responder *responder)
{
    const SpritePtr record = ctx.spriteFor(request, responder);
    if (!record)
        return;
    const QString id = request.param(QStringLiteral("id"));
    ExecSession *session = runningSession(ctx, record->name, id);
    if (!session) {
        Context::error(responder, 404, QStringLiteral("not_found"), QStringLiteral("session not found: %1").arg(id));
        return;
    }
    const QString signalName = Context::queryValue(request, QStringLiteral("signal"), QStringLiteral("SIGTERM"));
    const int sig = signalNumber(signalName);
    const QString timeoutText = Context::queryValue(request, QStringLiteral("timeout"));
    const std::optional<qint64> timeout = timeoutText.isEmpty() ? kKillTimeoutMs : Context::durationMs(timeoutText);
    if (sig <= 0 || !timeout) {
        Context::error(responder, 400, QStringLiteral("invalid_request"),
                       sig <= 0 ? QStringLiteral("unknown signal %1").arg(signalName)
                                : QStringLiteral("timeout must be a duration such as 5s"));
        return;
    }
    const QString name = signalName.toUpper().startsWith(QLatin1String("SIG"))
                             ? signalName.toUpper()
                             : QStringLiteral("SIG") + signalName.toUpper();
    const qint64 pid = session->process->pid();
    responder->begin(200, {{"Content-Type", "application/x-ndjson"}});
    responder->write(Context::ndjson(
        {{QStringLiteral("type"), QStringLiteral("signal")},
         {QStringLiteral("message"), QStringLiteral("Signaling %1 to process group %2").arg(name).arg(pid)},
         {QStringLiteral("signal"), name},
         {QStringLiteral("pid"), pid}}));
    auto timedOut = std::make_shared<bool>(false);
    QObject::connect(session, &ExecSession::ended, responder, [responder, timedOut](int code) {
        responder->write(
            Context::ndjson({{QStringLiteral("type"), *timedOut ? QStringLiteral("killed") : QStringLiteral("exited")},
                             {QStringLiteral("message"),
                              *timedOut ? QStringLiteral("Process killed") : QStringLiteral("Process exited")}}));
        responder->write(Context::ndjson(
            {{QStringLiteral("type"), QStringLiteral("complete")}, {QStringLiteral("exit_code"), code}}));
        responder->end();
    });
    const QPointer<ExecSession> guard(session);
    QTimer::singleShot(*timeout, responder, [responder, guard, timedOut, timeoutText] {
        if (!guard || !guard->isRunning())
            return;
        *timedOut = true;
        responder->write(Context::ndjson(
            {{QStringLiteral("type"), QStringLiteral("timeout")},
             {QStringLiteral("message"), QStringLiteral("Timeout after %1, sending SIGKILL").arg(timeoutText)}}));
        guard->abandon();
    });
    session->process->sendSignal(sig);
}

// The frames of an HTTP exec, one HTTP chunk each, spaced in time: the SDK tells frames apart
// only by chunk boundaries, which a client reading two chunks at once merges. Frames of one
// stream waiting their turn merge into one (still a valid frame); the exit frame ends the reply.
class FramePacer : public QObject
{
public:
    explicit FramePacer(Responder *responder)
        : QObject(responder)
        , m_responder(responder)
    {
        m_timer.setSingleShot(true);
        connect(&m_timer, &QTimer::timeout, this, &FramePacer::pump);
    }

    void add(char stream, const QByteArray &payload)
    {
        if (!m_queue.isEmpty() && stream != 3 && m_queue.constLast().at(0) == stream)
            m_queue.last().append(payload);
        else
            m_queue.append(stream + payload);
        if (!m_timer.isActive())
            pump();
    }

private:
    void pump()
    {
        if (m_queue.isEmpty())
            return;
        const QByteArray frame = m_queue.takeFirst();
        m_responder->write(frame);
        if (frame.at(0) == 3)
            m_responder->end();
        else
            m_timer.start(kFrameSpacingMs);
    }

    static constexpr int kFrameSpacingMs = 15;
    Responder *m_responder;
    QList<QByteArray> m_queue;
    QTimer m_timer;
};

// POST .../exec: the command's output as one chunk per frame, the exit frame [3, code] last.
void httpExec(Context &ctx, const Request &request, Responder *responder)
{
    const SpritePtr record = ctx.spriteFor(request, responder);
    if (!record)
        return;
    if (request.bodySize > kMaxStdin) {
        Context::error(responder, 413, QStringLiteral("payload_too_large"), QStringLiteral("stdin exceeds 10 MiB"));
        return;
    }
    QString failure;
    ExecSession *session = startSession(ctx, *record, request, &failure);
    if (!session) {
        Context::error(responder, 400, QStringLiteral("invalid_request"), failure);
        return;
    }
    const QPointer<SandboxProcess> process = session->process;
    responder->begin(200, {{"Content-Type", "application/octet-stream"}});
    auto *pacer = new FramePacer(responder);
    QObject::connect(process, &SandboxProcess::output, pacer,
                     [pacer](SandboxProcess::Channel channel, const QByteArray &bytes) {
                         pacer->add(channel == SandboxProcess::Channel::Stderr ? 2 : 1, bytes);
                     });
    QObject::connect(session, &ExecSession::ended, pacer,
                     [pacer](int code) { pacer->add(3, QByteArray(1, char(code & 0xff))); });
    // The request's caller is the only reader: a caller gone ends the command.
    QObject::connect(responder, &Responder::clientGone, session, [session] { session->abandon(); });
    if (Context::queryValue(request, QStringLiteral("stdin")) == QLatin1String("true"))
        process->write(request.readBody());
    process->closeStdin();
}

void openExec(Context &ctx, const Request &request, QWebSocket *socket)
{
    const SpritePtr record = ctx.sprites.value(request.param(QStringLiteral("name")));
    const QString attachId = request.param(QStringLiteral("id")).isEmpty()
                                 ? Context::queryValue(request, QStringLiteral("id"))
                                 : request.param(QStringLiteral("id"));
    if (!record) {
        socket->close(QWebSocketProtocol::CloseCodePolicyViolated, QStringLiteral("sprite not found"));
        return;
    }
    if (!attachId.isEmpty()) {
        if (ExecSession *session = runningSession(ctx, record->name, attachId))
            session->attach(socket);
        else
            socket->close(QWebSocketProtocol::CloseCodePolicyViolated, QStringLiteral("session not found"));
        return;
    }
    QString failure;
    ExecSession *session = startSession(ctx, *record, request, &failure);
    if (!session) {
        socket->sendTextMessage(
            QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("error")},
                                                        {QStringLiteral("message"), failure}})
                                  .toJson(QJsonDocument::Compact)));
        socket->close(QWebSocketProtocol::CloseCodeBadOperation, failure.left(120));
        return;
    }
    session->attach(socket);
}

// Whether an exec upgrade may go ahead: the token, the sprite, a session to attach or a
// command that can start. Otherwise the request is answered as HTTP (401, 404 or 400).
bool acceptsExec(const Context &ctx, const Request &request)
{
    const SpritePtr record = ctx.sprites.value(request.param(QStringLiteral("name")));
    if (!ctx.authorized(request) || !record)
        return false;
    const QString id = request.param(QStringLiteral("id")).isEmpty()
                           ? Context::queryValue(request, QStringLiteral("id"))
                           : request.param(QStringLiteral("id"));
    if (!id.isEmpty())
        return runningSession(ctx, record->name, id) != nullptr;
    ProcessSpec spec;
    QString workdir;
    return buildSpec(request, &spec, &workdir).isEmpty();
}

void watchPorts(Context &ctx, const Request &request, QWebSocket *socket)
{
    const SpritePtr record = ctx.sprites.value(request.param(QStringLiteral("name")));
    if (!record) {
        socket->close(QWebSocketProtocol::CloseCodePolicyViolated, QStringLiteral("sprite not found"));
        return;
    }
    socket->setProperty("sprite", record->name);
    ctx.portWatchers.removeIf([](const QPointer<QWebSocket> &watcher) { return !watcher; });
    ctx.portWatchers.append(socket);
    QJsonArray ports;
    for (auto it = record->ports.cbegin(); it != record->ports.cend(); ++it)
        ports.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("port_opened")},
                                 {QStringLiteral("port"), it.key()},
                                 {QStringLiteral("address"), QStringLiteral("%1:%2").arg(record->url).arg(it.key())},
                                 {QStringLiteral("pid"), it.value()}});
    socket->sendTextMessage(
        QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("port_list")},
                                                    {QStringLiteral("ports"), ports}})
                              .toJson(QJsonDocument::Compact)));
}

} // namespace

void installExec(Context &context)
{
    Context *ctx = &context;
    Server &s = context.server;
    for (const QString &path :
         {QStringLiteral("/v1/sprites/{name}/exec"), QStringLiteral("/v1/sprites/{name}/exec/{id}")}) {
        s.webSocket(path, [ctx](const Request &r, QWebSocket *socket) {
             openExec(*ctx, r, socket);
         }).onlyWhen([ctx](const Request &r) { return acceptsExec(*ctx, r); });
        s.route("GET", path, [ctx](const Request &r, Responder *out) { refuseOrList(*ctx, r, out); });
    }
    s.route("POST", QStringLiteral("/v1/sprites/{name}/exec"), [ctx](const Request &r, Responder *out) {
         httpExec(*ctx, r, out);
     }).streams();
    s.route("POST", QStringLiteral("/v1/sprites/{name}/exec/{id}/kill"), [ctx](const Request &r, Responder *out) {
         killSession(*ctx, r, out);
     }).streams();
    s.webSocket(QStringLiteral("/v1/sprites/{name}/ports/watch"), [ctx](const Request &r, QWebSocket *socket) {
         watchPorts(*ctx, r, socket);
     }).onlyWhen([ctx](const Request &r) {
        return ctx->authorized(r) && ctx->sprites.contains(r.param(QStringLiteral("name")));
    });
    s.route("GET", QStringLiteral("/v1/sprites/{name}/ports/watch"), [ctx](const Request &r, Responder *out) {
        if (ctx->spriteFor(r, out))
            Context::error(out, 400, QStringLiteral("invalid_request"),
                           QStringLiteral("a WebSocket upgrade is expected"));
    });
}

} // namespace contract::sprites
