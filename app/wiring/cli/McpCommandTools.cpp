// The MCP tools for commands left running (BackgroundFacet): an agent starts a development
// server or a watcher, reads what it has printed so far, and stops it when done.
#include "providers/Provider.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/CliTr.h"
#include "wiring/cli/McpAgent.h"
#include "wiring/cli/McpTools.h"

#include <QTimer>

namespace sandbar::cli {

using mcp::Tool;
using mcp::ToolCall;
using mcp::ToolResult;
using namespace mcpschema;

namespace {

constexpr qsizetype kTailBytes = 256 * 1024; // the end of the output is where a server's news is
constexpr double kMaxWaitSeconds = 30;

// The last kTailBytes of a stream and how much there was.
struct Tail {
    QByteArray kept;
    qint64 total = 0;
    void add(const QByteArray &b)
    {
        total += b.size();
        kept.append(b);
        if (kept.size() > kTailBytes)
            kept.remove(0, kept.size() - kTailBytes);
    }
};

void withBackground(AppServices &services, ToolCall *call,
                    std::function<void(BackgroundFacet *background, const SessionInfo &session)> next)
{
    withMcpSession(services, call, [call, next](Provider *p, const SessionInfo &s) {
        if (!p->background())
            return call->fail(unsupportedError(p->descriptor(), Capability::Background).message);
        next(p->background(), s);
    });
}

QJsonObject commandSchema()
{
    return object({{QStringLiteral("id"), prop(QStringLiteral("string"), tr("the command's id"))},
                   {QStringLiteral("argv"), array(QStringLiteral("string"), tr("what runs"))},
                   {QStringLiteral("running"), prop(QStringLiteral("boolean"), tr("whether it still runs"))},
                   {QStringLiteral("started"), prop(QStringLiteral("string"), tr("when, ISO-8601 UTC"))},
                   {QStringLiteral("exit_code"), prop(QStringLiteral("integer"), tr("once it ended, where known"))}},
                  {QStringLiteral("id"), QStringLiteral("argv"), QStringLiteral("running")}, false);
}

QJsonObject commandIdProp()
{
    return prop(QStringLiteral("string"), tr("the command's id, as start_command or list_commands gives it"));
}

Tool startCommandTool(AppServices &services)
{
    Tool t = newTool(QStringLiteral("start_command"), tr("Start a command that keeps running"),
                     tr("Starts a command that runs on its own (a development server, a watcher) and answers at "
                        "once with its id; command_output reads what it prints, signal_command stops it. Give argv "
                        "(run as is) or command (run by sh -c). It takes no input."));
    QJsonObject argvProp = array(QStringLiteral("string"), tr("The program and its arguments, not interpreted"));
    argvProp[QStringLiteral("minItems")] = 1;
    t.inputSchema = object({{QStringLiteral("session"), mcpSessionProp()},
                            {QStringLiteral("argv"), argvProp},
                            {QStringLiteral("command"), prop(QStringLiteral("string"), tr("A shell command line"))}},
                           {QStringLiteral("session")});
    t.outputSchema = object({{QStringLiteral("session"), prop(QStringLiteral("string"), tr("ACCOUNT/ID"))},
                             {QStringLiteral("command"), commandSchema()}},
                            {QStringLiteral("session"), QStringLiteral("command")}, false);
    t.annotations = {{QStringLiteral("readOnlyHint"), false},
                     {QStringLiteral("destructiveHint"), true},
                     {QStringLiteral("openWorldHint"), true}};
    t.run = [&services](ToolCall *call) {
        auto argv = mcpArgv(call->arguments());
        if (!argv.ok())
            return call->fail(argv.message());
        withBackground(services, call, [call, argv = argv.value()](BackgroundFacet *background, const SessionInfo &s) {
            ExecRequest req;
            req.argv = argv;
            background->startBackground(
                s.id, req, Callback<BackgroundCommand>(call, [call, ref = s.ref()](Result<BackgroundCommand> r) {
                    if (!r.ok())
                        return call->fail(r.message());
                    call->finish(ToolResult::ok(
                        {{QStringLiteral("session"), ref}, {QStringLiteral("command"), backgroundToJson(r.value())}}));
                }));
        });
    };
    return t;
}

Tool listCommandsTool(AppServices &services)
{
    Tool t = newTool(QStringLiteral("list_commands"), tr("List commands left running"),
                     tr("The commands started in a session with start_command, newest first, with their state."));
    t.inputSchema = object({{QStringLiteral("session"), mcpSessionProp()}}, {QStringLiteral("session")});
    t.outputSchema = object({{QStringLiteral("session"), prop(QStringLiteral("string"), tr("ACCOUNT/ID"))},
                             {QStringLiteral("commands"), listOf(commandSchema())}},
                            {QStringLiteral("session"), QStringLiteral("commands")}, false);
    t.annotations = {{QStringLiteral("readOnlyHint"), true}, {QStringLiteral("openWorldHint"), false}};
    t.run = [&services](ToolCall *call) {
        withBackground(services, call, [call](BackgroundFacet *background, const SessionInfo &s) {
            background->listBackground(s.id, Callback<QList<BackgroundCommand>>(
                                                 call, [call, ref = s.ref()](Result<QList<BackgroundCommand>> r) {
                                                     if (!r.ok())
                                                         return call->fail(r.message());
                                                     QJsonArray list;
                                                     for (const BackgroundCommand &c : r.value())
                                                         list.append(backgroundToJson(c));
                                                     call->finish(ToolResult::ok({{QStringLiteral("session"), ref},
                                                                                  {QStringLiteral("commands"), list}}));
                                                 }));
        });
    };
    return t;
}

// Reads the output from the start for up to wait_seconds, or until the command ends.
void readOutput(ToolCall *call, BackgroundFacet *background, const SessionInfo &s, const QString &id, double wait)
{
    LogStream *stream = background->backgroundOutput(s.id, id).release();
    stream->setParent(call);
    auto out = std::make_shared<Tail>();
    auto err = std::make_shared<Tail>();
    QObject::connect(stream, &LogStream::data, call,
                     [out, err](const QByteArray &b, int fd) { (fd == 2 ? err : out)->add(b); });
    const auto answer = [call, out, err, id, ref = s.ref()](bool ended) {
        call->finish(ToolResult::ok(
            {{QStringLiteral("session"), ref},
             {QStringLiteral("command"), id},
             {QStringLiteral("stdout"), QString::fromUtf8(out->kept)},
             {QStringLiteral("stderr"), QString::fromUtf8(err->kept)},
             {QStringLiteral("stdout_bytes"), double(out->total)},
             {QStringLiteral("stderr_bytes"), double(err->total)},
             {QStringLiteral("truncated"), out->total > out->kept.size() || err->total > err->kept.size()},
             {QStringLiteral("ended"), ended}}));
    };
    auto *timer = new QTimer(call);
    timer->setSingleShot(true);
    QObject::connect(timer, &QTimer::timeout, stream, [stream, answer] {
        stream->stop();
        answer(false);
    });
    QObject::connect(stream, &LogStream::finished, call, [call, timer, answer](const VoidResult &r) {
        timer->stop();
        if (!r.ok())
            return call->fail(r.message());
        answer(true);
    });
    timer->start(int(wait * 1000));
    stream->start();
}

Tool commandOutputTool(AppServices &services)
{
    Tool t = newTool(QStringLiteral("command_output"), tr("Read a command's output"),
                     tr("What a command from start_command has printed since it started (the last 256 KiB of "
                        "each stream), read for up to wait_seconds or until it ends; ended says which."));
    QJsonObject waitProp = prop(QStringLiteral("number"), tr("Seconds to wait for more output (default 1)"));
    waitProp[QStringLiteral("minimum")] = 0;
    waitProp[QStringLiteral("maximum")] = kMaxWaitSeconds;
    t.inputSchema = object({{QStringLiteral("session"), mcpSessionProp()},
                            {QStringLiteral("command"), commandIdProp()},
                            {QStringLiteral("wait_seconds"), waitProp}},
                           {QStringLiteral("session"), QStringLiteral("command")});
    t.outputSchema = object({{QStringLiteral("session"), prop(QStringLiteral("string"), tr("ACCOUNT/ID"))},
                             {QStringLiteral("command"), commandIdProp()},
                             {QStringLiteral("stdout"), prop(QStringLiteral("string"), tr("its end, as text"))},
                             {QStringLiteral("stderr"), prop(QStringLiteral("string"), tr("its end, as text"))},
                             {QStringLiteral("stdout_bytes"), prop(QStringLiteral("number"), tr("all there was"))},
                             {QStringLiteral("stderr_bytes"), prop(QStringLiteral("number"), tr("all there was"))},
                             {QStringLiteral("truncated"), prop(QStringLiteral("boolean"), tr("only the end kept"))},
                             {QStringLiteral("ended"), prop(QStringLiteral("boolean"), tr("the command has ended"))}},
                            {QStringLiteral("session"), QStringLiteral("command"), QStringLiteral("ended")}, false);
    t.annotations = {{QStringLiteral("readOnlyHint"), true}, {QStringLiteral("openWorldHint"), false}};
    t.cancelOnDisconnect = true;
    t.run = [&services](ToolCall *call) {
        const QString id = call->arguments().value(QLatin1String("command")).toString().trimmed();
        const double wait =
            qBound(0.0, call->arguments().value(QLatin1String("wait_seconds")).toDouble(1.0), kMaxWaitSeconds);
        if (id.isEmpty())
            return call->fail(tr("Name the command (list_commands shows them)."));
        withBackground(services, call, [call, id, wait](BackgroundFacet *background, const SessionInfo &s) {
            readOutput(call, background, s, id, wait);
        });
    };
    return t;
}

Tool signalCommandTool(AppServices &services)
{
    Tool t = newTool(QStringLiteral("signal_command"), tr("Stop a command left running"),
                     tr("Sends a signal to a command from start_command: TERM (the default) asks it to end, KILL "
                        "ends it at once."));
    QJsonObject signal = prop(QStringLiteral("string"), tr("TERM, KILL, INT or HUP"));
    signal[QStringLiteral("enum")] =
        QJsonArray{QStringLiteral("TERM"), QStringLiteral("KILL"), QStringLiteral("INT"), QStringLiteral("HUP")};
    t.inputSchema = object({{QStringLiteral("session"), mcpSessionProp()},
                            {QStringLiteral("command"), commandIdProp()},
                            {QStringLiteral("signal"), signal}},
                           {QStringLiteral("session"), QStringLiteral("command")});
    t.outputSchema = object({{QStringLiteral("session"), prop(QStringLiteral("string"), tr("ACCOUNT/ID"))},
                             {QStringLiteral("command"), commandIdProp()},
                             {QStringLiteral("signal"), prop(QStringLiteral("string"), tr("the signal sent"))}},
                            {QStringLiteral("session"), QStringLiteral("command"), QStringLiteral("signal")}, false);
    t.annotations = {{QStringLiteral("readOnlyHint"), false},
                     {QStringLiteral("destructiveHint"), true},
                     {QStringLiteral("idempotentHint"), true},
                     {QStringLiteral("openWorldHint"), false}};
    t.run = [&services](ToolCall *call) {
        const QString id = call->arguments().value(QLatin1String("command")).toString().trimmed();
        const QString name = call->arguments().value(QLatin1String("signal")).toString(QStringLiteral("TERM"));
        const std::optional<int> number = parseSignalName(name);
        if (id.isEmpty())
            return call->fail(tr("Name the command (list_commands shows them)."));
        if (!number)
            return call->fail(tr("'%1' is not a signal: give TERM, KILL, INT or HUP.").arg(name));
        withBackground(services, call, [call, id, name, number](BackgroundFacet *background, const SessionInfo &s) {
            background->signalBackground(s.id, id, *number,
                                         Callback<void>(call, [call, id, name, ref = s.ref()](VoidResult r) {
                                             if (!r.ok())
                                                 return call->fail(r.message());
                                             call->finish(ToolResult::ok({{QStringLiteral("session"), ref},
                                                                          {QStringLiteral("command"), id},
                                                                          {QStringLiteral("signal"), name.toUpper()}}));
                                         }));
        });
    };
    return t;
}

} // namespace

void addMcpCommandTools(mcp::McpServer &server, McpAgent &agent)
{
    AppServices &services = agent.services();
    server.addTool(startCommandTool(services));
    server.addTool(listCommandsTool(services));
    server.addTool(commandOutputTool(services));
    server.addTool(signalCommandTool(services));
}

} // namespace sandbar::cli
