// The interactive PTY: POST .../interactive hands out a WebSocket URL and a token; the socket
// (the token in ?token=) takes a TEXT {"type":"start",command,args,env:["K=V"],cwd,cols,rows}
// first, then BINARY keystrokes and TEXT {"type":"resize",cols,rows}; it sends the terminal's
// output as BINARY frames and, when the process ends, TEXT {"type":"exit","code":N} and closes.
// Also GET /health (the CLI probes it before connecting) and the ports' /route/... URLs.
#include "VercelContext.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QWebSocket>
#include <csignal>
#include <sys/types.h>

namespace contract::vercel {

namespace {

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// Kills a PTY's whole terminal session: signalled along the process tree, a shell under
// bubblewrap can be re-parented mid-kill and keep the terminal open, so every process whose
// session id is the PTY's (forkpty made the child a session leader) is killed too.
void killTerminal(SandboxProcess *process)
{
    if (!process || !process->isRunning())
        return;
    const qint64 sid = process->pid();
    process->sendSignal(SIGKILL);
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool ok = false;
        const qint64 pid = entry.toLongLong(&ok);
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!ok || pid == sid || !stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // After "pid (comm) ": state ppid pgrp session ...
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 3 && fields.at(3).toLongLong() == sid)
            ::kill(pid_t(pid), SIGKILL);
    }
}

QString newToken()
{
    QByteArray bytes(24, '\0');
    for (char &b : bytes)
        b = char(QRandomGenerator::global()->bounded(256));
    return QString::fromLatin1(bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

// The session a WebSocket handshake names, when its token is one the session handed out.
SessionPtr tokenSession(const Context &ctx, const Request &request)
{
    const SessionPtr session = ctx.sessions.value(request.param(QStringLiteral("sessionId")));
    if (!session || session->status != QLatin1String("running") ||
        !session->tokens.contains(request.queryValue(QStringLiteral("token"))))
        return nullptr;
    return session;
}

class Terminal
{
public:
    Terminal(Context &context, SessionPtr session, QWebSocket *socket)
        : m_ctx(context)
        , m_session(std::move(session))
        , m_socket(socket)
    {
    }

    void onText(const QString &text);
    void onBinary(const QByteArray &bytes);
    void onClosed();

private:
    void start(const QJsonObject &message);
    void fail(const QString &message);
    void exited(int code, const QString &status);

    Context &m_ctx;
    std::weak_ptr<SessionRecord> m_session;
    QPointer<QWebSocket> m_socket;
    QPointer<SandboxProcess> m_process;
};

void Terminal::onText(const QString &text)
{
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    const QString type = doc.object().value(QStringLiteral("type")).toString();
    if (type == QLatin1String("start") && !m_process) {
        start(doc.object());
    } else if (type == QLatin1String("resize") && m_process) {
        const int cols = doc.object().value(QStringLiteral("cols")).toInt();
        const int rows = doc.object().value(QStringLiteral("rows")).toInt();
        if (cols > 0 && cols <= 1000 && rows > 0 && rows <= 1000)
            m_process->resize(cols, rows);
    } else if (!doc.isObject() && m_process) {
        onBinary(text.toUtf8()); // text that is no message: keystrokes all the same
    }
}

void Terminal::onBinary(const QByteArray &bytes)
{
    if (!m_process || !m_process->isRunning())
        return; // keystrokes before the start message have no terminal yet
    if (const SessionPtr session = m_session.lock())
        session->ingress += bytes.size();
    m_process->write(bytes);
}

void Terminal::onClosed()
{
    killTerminal(m_process);
}

void Terminal::fail(const QString &message)
{
    if (!m_socket)
        return;
    m_socket->sendTextMessage(QString::fromUtf8(
        compact(QJsonObject{{QStringLiteral("type"), QStringLiteral("error")}, {QStringLiteral("message"), message}})));
    m_socket->close(QWebSocketProtocol::CloseCodeBadOperation, message.left(120));
}

void Terminal::start(const QJsonObject &message)
{
    const SessionPtr session = m_session.lock();
    const SandboxPtr record = session ? m_ctx.sandbox(session->teamId, session->sandboxName) : nullptr;
    Sandbox *kit = record ? m_ctx.kitSandbox(*record) : nullptr;
    if (!kit || session->status != QLatin1String("running")) {
        fail(QStringLiteral("the sandbox session is not running"));
        return;
    }
    ProcessSpec spec;
    spec.cmd = message.value(QStringLiteral("command")).toString(QStringLiteral("sh"));
    if (spec.cmd == QLatin1String("sh") || spec.cmd == QLatin1String("/bin/sh")) {
        // The service's image has bash as /bin/sh. Where sh is dash, its job control cannot
        // give the terminal back to a process group outside bubblewrap's pid namespace when it
        // exits, and it turns `exit 7` into status 2; bash in POSIX mode stands in for it.
        spec.cmd = QStringLiteral("bash");
        spec.args.append(QStringLiteral("--posix"));
    }
    for (const QJsonValue &arg : message.value(QStringLiteral("args")).toArray())
        spec.args.append(arg.toString());
    for (const QJsonValue &pair : message.value(QStringLiteral("env")).toArray()) {
        const QString text = pair.toString();
        const qsizetype eq = text.indexOf(QLatin1Char('='));
        if (eq > 0)
            spec.envs.insert(text.left(eq), text.mid(eq + 1));
    }
    const auto cwd = Context::kitPath(message.value(QStringLiteral("cwd")).toString(QLatin1String(kCwd)));
    if (!cwd) {
        fail(cwd.message());
        return;
    }
    spec.cwd = *cwd;
    spec.pty = true;
    spec.cols = qBound(1, message.value(QStringLiteral("cols")).toInt(80), 1000);
    spec.rows = qBound(1, message.value(QStringLiteral("rows")).toInt(24), 1000);
    spec.tag = QStringLiteral("interactive");
    QString failure;
    m_process = kit->start(spec, &failure);
    if (!m_process) {
        fail(failure);
        return;
    }
    session->startupCpuMs += 2;
    const std::weak_ptr<SessionRecord> weak = session;
    const QPointer<QWebSocket> socket = m_socket;
    QObject::connect(m_process, &SandboxProcess::output, m_socket.data(),
                     [weak, socket](SandboxProcess::Channel, const QByteArray &bytes) {
                         if (const SessionPtr s = weak.lock())
                             s->egress += bytes.size();
                         if (socket && socket->state() == QAbstractSocket::ConnectedState)
                             socket->sendBinaryMessage(bytes);
                     });
    QObject::connect(m_process, &SandboxProcess::finished, m_socket.data(),
                     [this](int code, const QString &status) { exited(code, status); });
}

void Terminal::exited(int code, const QString &status)
{
    if (!m_socket || m_socket->state() != QAbstractSocket::ConnectedState)
        return;
    const int exitCode = exitCodeFor(code, status);
    m_socket->sendTextMessage(QString::fromUtf8(
        compact(QJsonObject{{QStringLiteral("type"), QStringLiteral("exit")}, {QStringLiteral("code"), exitCode}})));
    m_socket->close(QWebSocketProtocol::CloseCodeNormal, QStringLiteral("exit"));
}

void openInteractive(Context &ctx, const Request &request, Responder *responder)
{
    const SessionPtr session = ctx.runningSession(request, responder);
    QJsonObject body;
    if (!session || !Context::jsonBody(request, responder, &body))
        return;
    const QString token = newToken();
    session->tokens.insert(token);
    const QString url = QStringLiteral("%1://127.0.0.1:%2/interactive/%3")
                            .arg(ctx.tls ? QStringLiteral("wss") : QStringLiteral("ws"))
                            .arg(ctx.server.port())
                            .arg(session->id);
    responder->sendJson(200, QJsonObject{{QStringLiteral("url"), url}, {QStringLiteral("token"), token}});
}

} // namespace

void installPty(Context &context)
{
    Context *ctx = &context;
    routeBoth(context, "POST", QStringLiteral("/v2/sandboxes/sessions/{sessionId}/interactive"), openInteractive);
    context.closePtys = [](SessionRecord &session) {
        for (const QPointer<QWebSocket> &socket : std::as_const(session.ptys)) {
            if (socket)
                socket->close(QWebSocketProtocol::CloseCodeGoingAway, QStringLiteral("sandbox stopped"));
        }
        session.ptys.clear();
    };
    context.server
        .webSocket(QStringLiteral("/interactive/{sessionId}"),
                   [ctx](const Request &request, QWebSocket *socket) {
                       const SessionPtr session = tokenSession(*ctx, request);
                       if (!session) {
                           socket->close(QWebSocketProtocol::CloseCodePolicyViolated, QStringLiteral("invalid token"));
                           return;
                       }
                       session->ptys.append(socket);
                       auto terminal = std::make_shared<Terminal>(*ctx, session, socket);
                       QObject::connect(socket, &QWebSocket::textMessageReceived, socket,
                                        [terminal](const QString &text) { terminal->onText(text); });
                       QObject::connect(socket, &QWebSocket::binaryMessageReceived, socket,
                                        [terminal](const QByteArray &bytes) { terminal->onBinary(bytes); });
                       QObject::connect(socket, &QWebSocket::disconnected, socket,
                                        [terminal] { terminal->onClosed(); });
                   })
        .onlyWhen([ctx](const Request &request) { return tokenSession(*ctx, request) != nullptr; });
    // An upgrade without a valid token is refused with 401 before it happens.
    context.server.route("GET", QStringLiteral("/interactive/{sessionId}"), [](const Request &, Responder *responder) {
        Context::error(responder, 401, QStringLiteral("unauthorized"),
                       QStringLiteral("The interactive session needs a valid token"));
    });
    context.server.route("GET", QStringLiteral("/health"), [](const Request &, Responder *responder) {
        responder->sendJson(200, QJsonObject{{QStringLiteral("status"), QStringLiteral("ok")}});
    });
    // The service serves a sandbox's port at https://<subdomain>.vercel.run; the sandboxes here
    // have a network of their own (bubblewrap), which nothing outside can reach.
    for (const QString &path :
         {QStringLiteral("/route/{sessionId}/{port}"), QStringLiteral("/route/{sessionId}/{port}/{rest*}")}) {
        context.server.route("*", path, [](const Request &request, Responder *responder) {
            Context::error(responder, 502, QStringLiteral("port_not_reachable"),
                           QStringLiteral("Port %1 of the sandbox is not reachable from outside the contract server's "
                                          "sandbox")
                               .arg(request.param(QStringLiteral("port"))));
        });
    }
}

} // namespace contract::vercel
