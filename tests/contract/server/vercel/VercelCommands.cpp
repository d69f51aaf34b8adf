// Commands of a session: POST .../cmd runs a real process of the sandbox (wait:true answers an
// NDJSON stream as the output happens), GET .../cmd/{id} (?wait=true long-polls), GET
// .../cmd/{id}/logs replays the output from the start and then follows it, POST .../kill.
#include "VercelContext.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QDir>
#include <QJsonDocument>
#include <csignal>

namespace contract::vercel {

namespace {

// What a command's log keeps for replays; beyond it the output still streams live.
constexpr qint64 kMaxLogChars = 16 * 1024 * 1024;
// A process too short-lived for a CPU sample between two ticks still costs its start.
constexpr qint64 kStartCpuMs = 2;

const Headers kNdjson{{"Content-Type", "application/x-ndjson"}};

void writeLine(Responder *responder, const QJsonObject &line)
{
    if (responder)
        responder->write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
}

QJsonObject logLine(const QString &stream, const QString &data)
{
    return QJsonObject{{QStringLiteral("stream"), stream}, {QStringLiteral("data"), data}};
}

QJsonObject commandLine(const Command &command)
{
    return QJsonObject{{QStringLiteral("command"), command.toJson()}};
}

bool isStringMap(const QJsonValue &v)
{
    if (!v.isObject())
        return false;
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it.value().isString())
            return false;
    }
    return true;
}

QString validateCommand(const QJsonObject &body)
{
    if (!body.value(QStringLiteral("command")).isString() || body.value(QStringLiteral("command")).toString().isEmpty())
        return QStringLiteral("command must be a non-empty string");
    const QJsonValue args = body.value(QStringLiteral("args"));
    bool argsOk = args.isUndefined() || args.isArray();
    for (const QJsonValue &arg : args.toArray())
        argsOk = argsOk && arg.isString();
    if (!argsOk)
        return QStringLiteral("args must be an array of strings");
    const QJsonValue env = body.value(QStringLiteral("env"));
    if (!env.isUndefined() && !isStringMap(env))
        return QStringLiteral("env must be an object of strings");
    if (!body.value(QStringLiteral("cwd")).isUndefined() && !body.value(QStringLiteral("cwd")).isString())
        return QStringLiteral("cwd must be a string");
    for (const char *flag : {"sudo", "wait", "logs"}) {
        const QJsonValue v = body.value(QLatin1String(flag));
        if (!v.isUndefined() && !v.isBool())
            return QStringLiteral("%1 must be a boolean").arg(QLatin1String(flag));
    }
    const QJsonValue timeout = body.value(QStringLiteral("timeout"));
    if (!timeout.isUndefined() && (!timeout.isDouble() || timeout.toDouble() <= 0))
        return QStringLiteral("timeout must be a positive number of milliseconds");
    return {};
}

// Answers wait:true: the command (exitCode null), its output as it happens, the command again
// with its exit code.
void streamCommand(Responder *responder, Command *command, bool logs)
{
    responder->begin(200, kNdjson);
    QJsonObject first = command->toJson();
    first.insert(QStringLiteral("exitCode"), QJsonValue::Null);
    writeLine(responder, QJsonObject{{QStringLiteral("command"), first}});
    if (logs) {
        for (const Command::Line &line : std::as_const(command->log))
            writeLine(responder, logLine(line.stream, line.data));
    }
    if (command->isFinished()) {
        writeLine(responder, commandLine(*command));
        responder->end();
        return;
    }
    QPointer<Responder> reply(responder);
    QPointer<Command> guard(command);
    if (logs) {
        QObject::connect(command, &Command::output, responder, [reply](const QString &stream, const QString &data) {
            writeLine(reply, logLine(stream, data));
        });
    }
    QObject::connect(command, &Command::finished, responder, [reply, guard] {
        if (!reply || !guard)
            return;
        writeLine(reply, commandLine(*guard));
        reply->end();
    });
}

void runCommand(Context &ctx, const Request &request, Responder *responder)
{
    const SessionPtr session = ctx.runningSession(request, responder);
    QJsonObject body;
    if (!session || !Context::jsonBody(request, responder, &body))
        return;
    if (const QString problem = validateCommand(body); !problem.isEmpty()) {
        Context::error(responder, 400, QStringLiteral("bad_request"), problem);
        return;
    }
    const QString apiCwd = Context::absolutePath(body.value(QStringLiteral("cwd")).toString(QLatin1String(kCwd)));
    const auto kitCwd = Context::kitPath(apiCwd);
    const SandboxPtr record = ctx.sandbox(session->teamId, session->sandboxName);
    Sandbox *kit = record ? ctx.kitSandbox(*record) : nullptr;
    if (!kitCwd || !kit) {
        Context::error(responder, 400, QStringLiteral("bad_request"),
                       kitCwd ? QStringLiteral("the sandbox is gone") : kitCwd.message());
        return;
    }
    ProcessSpec spec;
    spec.cmd = body.value(QStringLiteral("command")).toString();
    for (const QJsonValue &arg : body.value(QStringLiteral("args")).toArray())
        spec.args.append(arg.toString());
    const QJsonObject env = body.value(QStringLiteral("env")).toObject();
    for (auto it = env.begin(); it != env.end(); ++it)
        spec.envs.insert(it.key(), it.value().toString());
    spec.cwd = *kitCwd;
    spec.stdinOpen = false; // the API has no stdin for commands
    spec.tag = QStringLiteral("cmd");
    QString failure;
    SandboxProcess *process = kit->start(spec, &failure);
    if (!process) {
        Context::error(responder, 400, QStringLiteral("bad_request"), failure);
        return;
    }
    auto *command = new Command(Context::newId(QStringLiteral("cmd")), session->id, &ctx);
    command->name = spec.cmd;
    command->args = spec.args;
    command->cwd = apiCwd;
    command->startedAt = Context::nowMs();
    command->attach(process);
    session->commands.insert(command->id, command);
    session->ingress += request.bodySize;
    session->startupCpuMs += kStartCpuMs;
    std::weak_ptr<SessionRecord> weak = session;
    QObject::connect(command, &Command::output, &ctx, [weak](const QString &, const QString &data) {
        if (const SessionPtr s = weak.lock())
            s->egress += data.toUtf8().size();
    });
    if (const qint64 timeout = qint64(body.value(QStringLiteral("timeout")).toDouble()); timeout > 0)
        QTimer::singleShot(int(qMin<qint64>(timeout, kMaxTimeoutMs)), command, [command] { command->kill(SIGKILL); });
    if (!body.value(QStringLiteral("wait")).toBool()) {
        responder->sendJson(200, commandLine(*command));
        return;
    }
    streamCommand(responder, command, body.value(QStringLiteral("logs")).toBool());
}

// The command named by {cmdId} in the session named by {sessionId}; nullptr after a 404.
Command *commandFor(Context &ctx, const Request &request, Responder *responder)
{
    const SessionPtr session = ctx.sessionFor(request, responder);
    if (!session)
        return nullptr;
    const QString id = request.param(QStringLiteral("cmdId"));
    Command *command = session->commands.value(id);
    if (!command)
        Context::error(responder, 404, QStringLiteral("not_found"), QStringLiteral("Command not found: %1").arg(id));
    return command;
}

void getCommand(Context &ctx, const Request &request, Responder *responder)
{
    Command *command = commandFor(ctx, request, responder);
    if (!command)
        return;
    if (command->isFinished() || request.queryValue(QStringLiteral("wait")) != QLatin1String("true")) {
        responder->sendJson(200, commandLine(*command));
        return;
    }
    // Long poll: the answer comes when the command ends.
    QPointer<Responder> reply(responder);
    QPointer<Command> guard(command);
    QObject::connect(command, &Command::finished, responder, [reply, guard] {
        if (reply && guard)
            reply->sendJson(200, commandLine(*guard));
    });
}

void commandLogs(Context &ctx, const Request &request, Responder *responder)
{
    Command *command = commandFor(ctx, request, responder);
    if (!command)
        return;
    responder->begin(200, kNdjson);
    for (const Command::Line &line : std::as_const(command->log))
        writeLine(responder, logLine(line.stream, line.data));
    if (command->isFinished()) {
        responder->end();
        return;
    }
    QPointer<Responder> reply(responder);
    QObject::connect(command, &Command::output, responder,
                     [reply](const QString &stream, const QString &data) { writeLine(reply, logLine(stream, data)); });
    QObject::connect(command, &Command::finished, responder, [reply] {
        if (reply)
            reply->end();
    });
}

void killCommand(Context &ctx, const Request &request, Responder *responder)
{
    Command *command = commandFor(ctx, request, responder);
    QJsonObject body;
    if (!command || !Context::jsonBody(request, responder, &body))
        return;
    const QJsonValue signal = body.value(QStringLiteral("signal"));
    const int number = signal.isUndefined() ? SIGTERM : signal.toInt(-1);
    if (number < 1 || number > 64 || (signal.isDouble() && signal.toDouble() != double(number))) {
        Context::error(responder, 400, QStringLiteral("bad_request"),
                       QStringLiteral("signal must be a signal number between 1 and 64"));
        return;
    }
    command->kill(number); // an ended command stays as it was
    responder->sendJson(200, commandLine(*command));
}

} // namespace

int exitCodeFor(int code, const QString &status, int signalSent)
{
    if (code >= 0)
        return code;
    int number = signalSent;
    if (number <= 0) {
        // The kit's "signal: killed", "signal: terminated", "signal: hangup" or "signal: N".
        bool ok = false;
        const int named = status.section(QLatin1Char(' '), -1).toInt(&ok);
        number = ok && named > 0                                ? named
                 : status.endsWith(QLatin1String("terminated")) ? SIGTERM
                 : status.endsWith(QLatin1String("hangup"))     ? SIGHUP
                                                                : SIGKILL;
    }
    return 128 + number;
}

Command::Command(QString commandId, QString session, QObject *parent)
    : QObject(parent)
    , id(std::move(commandId))
    , sessionId(std::move(session))
{
}

void Command::attach(SandboxProcess *process)
{
    m_process = process;
    connect(process, &SandboxProcess::output, this, [this](SandboxProcess::Channel channel, const QByteArray &bytes) {
        onOutput(channel == SandboxProcess::Channel::Stderr, bytes);
    });
    connect(process, &SandboxProcess::finished, this, &Command::onFinished);
}

void Command::onOutput(bool toStderr, const QByteArray &bytes)
{
    // The log lines carry the output as JSON strings, i.e. as UTF-8 text, as the service sends
    // them: a character split between two reads is joined by the stateful decoder, and bytes that
    // are not UTF-8 become U+FFFD (the replacement character), so binary output does not survive
    // the trip (an incomplete character at the very end is dropped).
    QStringDecoder &decoder = toStderr ? m_stderr : m_stdout;
    const QString text = decoder.decode(bytes);
    if (text.isEmpty())
        return;
    const QString stream = toStderr ? QStringLiteral("stderr") : QStringLiteral("stdout");
    if (m_logBytes < kMaxLogChars) {
        log.append({stream, text});
        m_logBytes += text.size();
    }
    Q_EMIT output(stream, text);
}

void Command::onFinished(int code, const QString &status)
{
    if (isFinished())
        return;
    exitCode = exitCodeFor(code, status, m_signalSent);
    durationMs = Context::nowMs() - startedAt;
    Q_EMIT finished();
}

bool Command::kill(int signal)
{
    if (isFinished() || !m_process || !m_process->isRunning())
        return false;
    m_signalSent = signal;
    return m_process->sendSignal(signal);
}

void Command::abandon()
{
    if (isFinished())
        return;
    if (m_process && m_process->isRunning())
        m_process->sendSignal(SIGKILL);
    m_signalSent = SIGKILL;
    onFinished(-1, QStringLiteral("signal: killed"));
}

QJsonObject Command::toJson() const
{
    QJsonObject o{{QStringLiteral("id"), id},
                  {QStringLiteral("name"), name},
                  {QStringLiteral("args"), QJsonArray::fromStringList(args)},
                  {QStringLiteral("cwd"), cwd},
                  {QStringLiteral("sessionId"), sessionId},
                  {QStringLiteral("exitCode"), exitCode ? QJsonValue(*exitCode) : QJsonValue(QJsonValue::Null)},
                  {QStringLiteral("startedAt"), startedAt}};
    if (exitCode)
        o.insert(QStringLiteral("durationMs"), durationMs);
    return o;
}

void installCommands(Context &context)
{
    const QString base = QStringLiteral("/v2/sandboxes/sessions/{sessionId}/cmd");
    routeBoth(context, "POST", base, runCommand, true);
    routeBoth(context, "GET", base + QStringLiteral("/{cmdId}"), getCommand);
    routeBoth(context, "GET", base + QStringLiteral("/{cmdId}/logs"), commandLogs, true);
    routeBoth(context, "POST", base + QStringLiteral("/{cmdId}/kill"), killCommand);
}

} // namespace contract::vercel
