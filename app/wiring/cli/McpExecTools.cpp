#include "providers/Provider.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/CliTr.h"
#include "wiring/cli/McpAgent.h"
#include "wiring/cli/McpTools.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStringDecoder>
#include <QTemporaryDir>
#include <QTimer>
#include <memory>

namespace sandbar::cli {

using mcp::Tool;
using mcp::ToolCall;
using mcp::ToolResult;
using namespace mcpschema;

namespace {

// An agent reads the output as text in its context: more than this of each stream is kept
// out, and the answer says how much there was.
constexpr qsizetype kOutputCap = 1024 * 1024;
// write_file and read_file move whole files through one JSON message.
constexpr qint64 kFileCap = 8 * 1024 * 1024;
constexpr double kDefaultTimeoutSeconds = 120;
constexpr double kMaxTimeoutSeconds = 24 * 3600;
constexpr int kProgressMs = 5000;

QString remoteParentOf(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    return slash <= 0 ? QStringLiteral("/") : path.left(slash);
}

bool isValidUtf8(const QByteArray &bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = decoder.decode(bytes);
    return !decoder.hasError();
}

QString absoluteSessionPath(const QString &path)
{
    return path.startsWith(QLatin1Char('/')) ? path : QString();
}

// One stream of an exec: the first kOutputCap bytes kept, all of them counted.
struct Captured {
    QByteArray kept;
    qint64 total = 0;
    void add(const QByteArray &b)
    {
        total += b.size();
        if (kept.size() < kOutputCap)
            kept.append(b.left(kOutputCap - kept.size()));
    }
    bool truncated() const { return total > kept.size(); }
    // A cut may split a UTF-8 sequence; the decoder replaces the broken end.
    QString text() const { return QString::fromUtf8(kept); }
};

QJsonObject execInputSchema()
{
    QJsonObject timeout = prop(QStringLiteral("number"), tr("Seconds before the command is killed (default 120)"));
    timeout[QStringLiteral("minimum")] = 0.1;
    timeout[QStringLiteral("maximum")] = kMaxTimeoutSeconds;
    QJsonObject argv = array(QStringLiteral("string"), tr("The program and its arguments, not interpreted"));
    argv[QStringLiteral("minItems")] = 1;
    return object({{QStringLiteral("session"), mcpSessionProp()},
                   {QStringLiteral("argv"), argv},
                   {QStringLiteral("command"), prop(QStringLiteral("string"), tr("A shell command line"))},
                   {QStringLiteral("stdin"), prop(QStringLiteral("string"), tr("Text given on stdin"))},
                   {QStringLiteral("timeout_seconds"), timeout}},
                  {QStringLiteral("session")});
}

QJsonObject execOutputSchema()
{
    return object({{QStringLiteral("exit_code"), prop(QStringLiteral("integer"), tr("The command's exit code"))},
                   {QStringLiteral("stdout"), prop(QStringLiteral("string"), tr("Standard output (the first 1 MiB)"))},
                   {QStringLiteral("stderr"), prop(QStringLiteral("string"), tr("Standard error (the first 1 MiB)"))},
                   {QStringLiteral("stdout_bytes"), prop(QStringLiteral("integer"), tr("Bytes written to stdout"))},
                   {QStringLiteral("stderr_bytes"), prop(QStringLiteral("integer"), tr("Bytes written to stderr"))},
                   {QStringLiteral("truncated"), prop(QStringLiteral("boolean"), tr("Whether output was cut"))}},
                  {QStringLiteral("exit_code"), QStringLiteral("stdout"), QStringLiteral("stderr"),
                   QStringLiteral("stdout_bytes"), QStringLiteral("stderr_bytes"), QStringLiteral("truncated")});
}

// The text item is for agents that read no structuredContent: the streams as they are, with
// the exit code and a note on anything cut.
QString execText(int exitCode, const Captured &out, const Captured &err)
{
    QString text = tr("exit code %1").arg(exitCode);
    for (const auto &[name, c] :
         {std::pair{QStringLiteral("stdout"), &out}, std::pair{QStringLiteral("stderr"), &err}}) {
        if (c->total == 0)
            continue;
        text += QStringLiteral("\n--- %1 ---\n").arg(name) + c->text();
        if (c->truncated())
            text +=
                QLatin1Char('\n') +
                tr("[%1 truncated: the first %2 of %3 bytes are shown]").arg(name).arg(c->kept.size()).arg(c->total);
    }
    return text;
}

void finishExec(ToolCall *call, const Result<int> &r, const Captured &out, const Captured &err, bool timedOut,
                double timeoutSeconds)
{
    if (!r.ok() && timedOut)
        return call->fail(tr("The command did not finish within %1 s and was killed: %2\nOutput so far:\n"
                             "stdout (%3 bytes): %4\nstderr (%5 bytes): %6")
                              // One pass: the command's output may hold %N itself.
                              .arg(QString::number(timeoutSeconds), r.message(), QString::number(out.total), out.text(),
                                   QString::number(err.total), err.text()));
    if (!r.ok())
        return call->fail(r.message());
    QJsonObject o{{QStringLiteral("exit_code"), r.value()},
                  {QStringLiteral("stdout"), out.text()},
                  {QStringLiteral("stderr"), err.text()},
                  {QStringLiteral("stdout_bytes"), double(out.total)},
                  {QStringLiteral("stderr_bytes"), double(err.total)},
                  {QStringLiteral("truncated"), out.truncated() || err.truncated()}};
    ToolResult result = ToolResult::ok(o);
    result.text = execText(r.value(), out, err);
    call->finish(result);
}

// A client that asked for progress hears how long the command has run, which also keeps its
// own request timeout from firing on a long command.
QTimer *execProgressTicker(ToolCall *call, double timeoutSeconds)
{
    auto *ticker = new QTimer(call);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    QObject::connect(ticker, &QTimer::timeout, call, [call, clock, timeoutSeconds] {
        const double ran = double(clock->elapsed()) / 1000.0;
        call->reportProgress(ran, timeoutSeconds, tr("running for %1 s").arg(qRound(ran)));
    });
    return ticker;
}

void runExec(ToolCall *call, Provider *p, const SessionInfo &s, const ExecRequest &req, double timeoutSeconds)
{
    if (!p->capabilities().testFlag(Capability::Exec))
        return call->fail(unsupportedError(p->descriptor(), Capability::Exec).message);
    ExecJob *job = p->commands()->exec(s.id, req).release();
    job->setParent(call); // goes with the call: a cancelled call's job is cancelled
    auto out = std::make_shared<Captured>();
    auto err = std::make_shared<Captured>();
    QObject::connect(job, &ExecJob::stdoutData, call, [out](const QByteArray &b) { out->add(b); });
    QObject::connect(job, &ExecJob::stderrData, call, [err](const QByteArray &b) { err->add(b); });
    QObject::connect(call, &ToolCall::cancelled, job, [job] { job->cancel(); });
    auto *timer = new QTimer(call);
    timer->setSingleShot(true);
    auto timedOut = std::make_shared<bool>(false);
    // The answer waits for the cancel's end: providers kill the command then (Docker and
    // Podman with a second exec, TERM then KILL) and say whether it worked.
    QObject::connect(timer, &QTimer::timeout, job, [job, timedOut] {
        *timedOut = true;
        job->cancel();
    });
    QObject::connect(job, &ExecJob::finished, call, [call, out, err, timedOut, timeoutSeconds](const Result<int> &r) {
        finishExec(call, r, *out, *err, *timedOut, timeoutSeconds);
    });
    QTimer *ticker = execProgressTicker(call, timeoutSeconds);
    ticker->start(kProgressMs);
    timer->start(int(timeoutSeconds * 1000));
    job->start();
}

} // namespace

Result<QStringList> mcpArgv(const QJsonObject &args)
{
    const bool hasArgv = args.contains(QLatin1String("argv"));
    const bool hasCommand = args.contains(QLatin1String("command"));
    if (hasArgv == hasCommand)
        return makeError(ErrorCode::InvalidArgument,
                         tr("Give either argv (a list: program and arguments) or command (a shell line)."));
    if (!hasArgv)
        return QStringList{QStringLiteral("sh"), QStringLiteral("-c"), args.value(QLatin1String("command")).toString()};
    QStringList argv;
    for (const auto &a : args.value(QLatin1String("argv")).toArray())
        argv << a.toString();
    return argv;
}

namespace {

Tool execTool(AppServices &services)
{
    Tool t = newTool(QStringLiteral("exec"), tr("Run a command"),
                     tr("Runs a command in a session without a terminal and answers with its stdout, stderr and "
                        "exit code. Give argv (run as is) or command (run by sh -c). Each stream keeps its first "
                        "1 MiB; the byte counts say how much there was. On timeout the command is killed."));
    t.inputSchema = execInputSchema();
    t.outputSchema = execOutputSchema();
    t.annotations = {{QStringLiteral("readOnlyHint"), false},
                     {QStringLiteral("destructiveHint"), true},
                     {QStringLiteral("openWorldHint"), true}};
    t.cancelOnDisconnect = true;
    t.run = [&services](ToolCall *call) {
        const QJsonObject args = call->arguments();
        ExecRequest req;
        auto argv = mcpArgv(args);
        if (!argv.ok())
            return call->fail(argv.message());
        req.argv = argv.value();
        req.stdinData = args.value(QLatin1String("stdin")).toString().toUtf8();
        const double timeoutSeconds = args.value(QLatin1String("timeout_seconds")).toDouble(kDefaultTimeoutSeconds);
        withMcpSession(services, call, [call, req, timeoutSeconds](Provider *p, const SessionInfo &s) {
            runExec(call, p, s, req, timeoutSeconds);
        });
    };
    return t;
}

QJsonObject encodingProp()
{
    QJsonObject e = prop(QStringLiteral("string"), tr("text (UTF-8, the default) or base64"));
    e[QStringLiteral("enum")] = QJsonArray{QStringLiteral("text"), QStringLiteral("base64")};
    return e;
}

Tool writeFile(AppServices &services)
{
    Tool t = newTool(QStringLiteral("write_file"), tr("Write a file"),
                     tr("Writes a file in a session (at most 8 MiB), replacing one that is there. The folder it "
                        "goes into must exist. Content is UTF-8 text, or base64 for binary files."));
    t.inputSchema =
        object({{QStringLiteral("session"), mcpSessionProp()},
                {QStringLiteral("path"), prop(QStringLiteral("string"), tr("Absolute path in the session"))},
                {QStringLiteral("content"), prop(QStringLiteral("string"), tr("The file's content"))},
                {QStringLiteral("encoding"), encodingProp()}},
               {QStringLiteral("session"), QStringLiteral("path"), QStringLiteral("content")});
    t.outputSchema = object({{QStringLiteral("path"), prop(QStringLiteral("string"), tr("Where it was written"))},
                             {QStringLiteral("bytes"), prop(QStringLiteral("integer"), tr("Bytes written"))}},
                            {QStringLiteral("path"), QStringLiteral("bytes")});
    t.annotations = {{QStringLiteral("readOnlyHint"), false},
                     {QStringLiteral("destructiveHint"), true},
                     {QStringLiteral("idempotentHint"), true},
                     {QStringLiteral("openWorldHint"), false}};
    t.run = [&services](ToolCall *call) {
        const QJsonObject args = call->arguments();
        const QString path = absoluteSessionPath(args.value(QLatin1String("path")).toString());
        const QString name = path.section(QLatin1Char('/'), -1);
        if (path.isEmpty() || name.isEmpty() || name == QLatin1String(".") || name == QLatin1String(".."))
            return call->fail(tr("path must be an absolute path to a file in the session, e.g. /workspace/a.txt."));
        const QString content = args.value(QLatin1String("content")).toString();
        const bool base64 = args.value(QLatin1String("encoding")).toString() == QLatin1String("base64");
        // Checked before decoding, so an oversized argument costs no second copy.
        if ((base64 ? content.size() / 4 * 3 : content.size()) > kFileCap)
            return call->fail(tr("The content is over the limit of %1 bytes; split the file or copy it with "
                                 "sandbarctl cp.")
                                  .arg(kFileCap));
        QByteArray bytes;
        if (base64) {
            auto decoded = QByteArray::fromBase64Encoding(content.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded)
                return call->fail(tr("content is not valid base64."));
            bytes = *decoded;
        } else {
            bytes = content.toUtf8();
        }
        if (bytes.size() > kFileCap)
            return call->fail(tr("The content is over the limit of %1 bytes.").arg(kFileCap));
        auto staging = std::make_shared<QTemporaryDir>();
        QFile file(staging->filePath(name));
        if (!staging->isValid() || !file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() ||
            !file.flush())
            return call->fail(tr("Cannot stage the file on this computer: %1").arg(file.errorString()));
        file.close();
        withMcpSession(services, call, [call, path, staging, size = bytes.size()](Provider *p, const SessionInfo &s) {
            if (!p->capabilities().testFlag(Capability::Files))
                return call->fail(unsupportedError(p->descriptor(), Capability::Files).message);
            // A folder at path would receive the file inside it (as docker cp does); an agent
            // asking to write a file there means something else.
            p->files()->statPath(
                s.id, path, Callback<PathStat>(call, [call, p, id = s.id, path, staging, size](Result<PathStat> st) {
                    if (st.ok() && st->exists && st->isDir)
                        return call->fail(tr("'%1' is a folder; name a file in it.").arg(path));
                    const QString local = staging->filePath(path.section(QLatin1Char('/'), -1));
                    TransferJob *job = p->files()->upload(id, local, path).release();
                    job->setParent(call);
                    QObject::connect(job, &TransferJob::finished, call,
                                     [call, path, staging, size](const VoidResult &r) {
                                         if (!r.ok())
                                             return call->fail(r.message());
                                         call->finish(ToolResult::ok({{QStringLiteral("path"), path},
                                                                      {QStringLiteral("bytes"), double(size)}}));
                                     });
                    job->start();
                }));
        });
    };
    return t;
}

Tool readFile(AppServices &services)
{
    Tool t = newTool(QStringLiteral("read_file"), tr("Read a file"),
                     tr("Reads a file from a session (at most 8 MiB). As text it must be UTF-8; ask for base64 "
                        "for anything else."));
    t.inputSchema =
        object({{QStringLiteral("session"), mcpSessionProp()},
                {QStringLiteral("path"), prop(QStringLiteral("string"), tr("Absolute path in the session"))},
                {QStringLiteral("encoding"), encodingProp()}},
               {QStringLiteral("session"), QStringLiteral("path")});
    t.outputSchema = object(
        {{QStringLiteral("path"), prop(QStringLiteral("string"), tr("The file"))},
         {QStringLiteral("encoding"), prop(QStringLiteral("string"), tr("text or base64"))},
         {QStringLiteral("content"), prop(QStringLiteral("string"), tr("The content"))},
         {QStringLiteral("bytes"), prop(QStringLiteral("integer"), tr("The file's size"))}},
        {QStringLiteral("path"), QStringLiteral("encoding"), QStringLiteral("content"), QStringLiteral("bytes")});
    t.annotations = {{QStringLiteral("readOnlyHint"), true}, {QStringLiteral("openWorldHint"), false}};
    t.run = [&services](ToolCall *call) {
        const QJsonObject args = call->arguments();
        const QString path = absoluteSessionPath(args.value(QLatin1String("path")).toString());
        if (path.isEmpty() || path.endsWith(QLatin1Char('/')))
            return call->fail(tr("path must be an absolute path to a file in the session."));
        const bool base64 = args.value(QLatin1String("encoding")).toString() == QLatin1String("base64");
        withMcpSession(services, call, [call, path, base64](Provider *p, const SessionInfo &s) {
            if (!p->capabilities().testFlag(Capability::Files))
                return call->fail(unsupportedError(p->descriptor(), Capability::Files).message);
            const QString id = s.id;
            const auto download = [call, p, id, path, base64] {
                auto staging = std::make_shared<QTemporaryDir>();
                if (!staging->isValid())
                    return call->fail(tr("Cannot make a folder on this computer to receive the file."));
                const QString local = staging->filePath(QStringLiteral("file"));
                TransferJob *job = p->files()->download(id, path, local).release();
                job->setParent(call);
                QObject::connect(
                    job, &TransferJob::finished, call, [call, path, base64, staging, local](const VoidResult &r) {
                        if (!r.ok())
                            return call->fail(r.message());
                        QFile f(local);
                        if (QFileInfo(local).isDir())
                            return call->fail(tr("'%1' is a folder; list_files shows what is in it.").arg(path));
                        if (f.size() > kFileCap)
                            return call->fail(
                                tr("'%1' has %2 bytes, over the limit of %3.").arg(path).arg(f.size()).arg(kFileCap));
                        if (!f.open(QIODevice::ReadOnly))
                            return call->fail(f.errorString());
                        const QByteArray bytes = f.readAll();
                        if (!base64 && !isValidUtf8(bytes))
                            return call->fail(tr("'%1' is not UTF-8 text; read it with encoding "
                                                 "base64.")
                                                  .arg(path));
                        call->finish(ToolResult::ok(
                            {{QStringLiteral("path"), path},
                             {QStringLiteral("encoding"), base64 ? QStringLiteral("base64") : QStringLiteral("text")},
                             {QStringLiteral("content"),
                              base64 ? QString::fromLatin1(bytes.toBase64()) : QString::fromUtf8(bytes)},
                             {QStringLiteral("bytes"), double(bytes.size())}}));
                    });
                job->start();
            };
            // Where the folder can be listed, a file over the limit is refused before it is copied.
            if (!p->capabilities().testFlag(Capability::FileList))
                return download();
            const QString name = path.section(QLatin1Char('/'), -1);
            p->files()->listFiles(
                id, remoteParentOf(path),
                Callback<QList<FileEntry>>(call, [call, path, name, download](Result<QList<FileEntry>> r) {
                    for (const auto &e : r.ok() ? r.value() : QList<FileEntry>{}) {
                        if (e.name != name)
                            continue;
                        if (e.isDir)
                            return call->fail(tr("'%1' is a folder; list_files shows what is in it.").arg(path));
                        if (!e.isLink && e.size > kFileCap)
                            return call->fail(
                                tr("'%1' has %2 bytes, over the limit of %3.").arg(path).arg(e.size).arg(kFileCap));
                    }
                    download();
                }));
        });
    };
    return t;
}

Tool listFiles(AppServices &services)
{
    Tool t = newTool(QStringLiteral("list_files"), tr("List files"),
                     tr("Lists a folder in a session: names, sizes, kinds, permissions and modification times."));
    t.inputSchema =
        object({{QStringLiteral("session"), mcpSessionProp()},
                {QStringLiteral("path"), prop(QStringLiteral("string"), tr("Absolute folder (default /workspace)"))}},
               {QStringLiteral("session")});
    t.outputSchema = object({{QStringLiteral("path"), prop(QStringLiteral("string"), tr("The folder"))},
                             {QStringLiteral("entries"), listOf()}},
                            {QStringLiteral("path"), QStringLiteral("entries")});
    t.annotations = {{QStringLiteral("readOnlyHint"), true}, {QStringLiteral("openWorldHint"), false}};
    t.run = [&services](ToolCall *call) {
        QString path = call->arguments().value(QLatin1String("path")).toString();
        if (path.isEmpty())
            path = QStringLiteral("/workspace");
        if (!path.startsWith(QLatin1Char('/')))
            return call->fail(tr("path must be absolute, e.g. /workspace."));
        withMcpSession(services, call, [call, path](Provider *p, const SessionInfo &s) {
            if (!p->capabilities().testFlag(Capability::FileList))
                return call->fail(unsupportedError(p->descriptor(), Capability::FileList).message);
            p->files()->listFiles(
                s.id, path, Callback<QList<FileEntry>>(call, [call, path](Result<QList<FileEntry>> r) {
                    if (!r.ok())
                        return call->fail(r.message());
                    QJsonArray entries;
                    for (const auto &e : r.value())
                        entries.append(fileEntryToJson(e));
                    call->finish(
                        ToolResult::ok({{QStringLiteral("path"), path}, {QStringLiteral("entries"), entries}}));
                }));
        });
    };
    return t;
}

// upload: a file or folder of this computer into a session. Host paths reach outside every
// sandbox, so the agent policy decides, and by default the person approves each one.
Tool uploadTool(McpAgent &agent)
{
    Tool t = newTool(QStringLiteral("upload"), tr("Upload from this computer"),
                     tr("Copies a file or folder of this computer into a session, as sandbarctl cp does (an "
                        "existing folder receives it under its own name). Only where the person's agent policy "
                        "allows host paths; by default they approve each upload in the Sandbar window."));
    t.inputSchema =
        object({{QStringLiteral("session"), mcpSessionProp()},
                {QStringLiteral("host_path"), prop(QStringLiteral("string"), tr("Absolute path on this computer"))},
                {QStringLiteral("path"), prop(QStringLiteral("string"), tr("Absolute destination in the session"))}},
               {QStringLiteral("session"), QStringLiteral("host_path"), QStringLiteral("path")});
    t.outputSchema = object({{QStringLiteral("host_path"), prop(QStringLiteral("string"), tr("What was copied"))},
                             {QStringLiteral("path"), prop(QStringLiteral("string"), tr("Where it went"))},
                             {QStringLiteral("bytes"), prop(QStringLiteral("integer"), tr("Bytes copied"))}},
                            {QStringLiteral("host_path"), QStringLiteral("path"), QStringLiteral("bytes")});
    t.annotations = {{QStringLiteral("readOnlyHint"), false},
                     {QStringLiteral("destructiveHint"), true},
                     {QStringLiteral("openWorldHint"), false}};
    t.cancelOnDisconnect = true;
    t.run = [&agent](ToolCall *call) {
        const QJsonObject args = call->arguments();
        const QString asked = args.value(QLatin1String("host_path")).toString();
        const QString dest = absoluteSessionPath(args.value(QLatin1String("path")).toString());
        if (!QDir::isAbsolutePath(asked))
            return call->fail(makeError(ErrorCode::InvalidArgument, tr("host_path must be an absolute path.")));
        if (dest.isEmpty())
            return call->fail(
                makeError(ErrorCode::InvalidArgument, tr("path must be an absolute path in the session.")));
        // The person approves the real file, not a link's name.
        const QString real = QFileInfo(asked).canonicalFilePath();
        if (real.isEmpty())
            return call->fail(makeError(ErrorCode::NotFound, tr("'%1' does not exist on this computer.").arg(asked)));
        withMcpSession(agent.services(), call, [&agent, call, real, dest](Provider *p, const SessionInfo &s) {
            if (!p->capabilities().testFlag(Capability::Files))
                return call->fail(unsupportedError(p->descriptor(), Capability::Files).message);
            const auto policy = agent.policy();
            if (!policy.ok())
                return call->fail(policy.error());
            agent.decide(
                call, mcp::evaluateHostPath(*policy, QStringLiteral("upload"), real), [call, p, id = s.id, real, dest] {
                    TransferJob *job = p->files()->upload(id, real, dest).release();
                    job->setParent(call);
                    auto bytes = std::make_shared<qint64>(0);
                    QObject::connect(job, &TransferJob::progress, call, [call, bytes](qint64 done, qint64 total) {
                        *bytes = done;
                        call->reportProgress(double(done), double(std::max<qint64>(total, 0)), QString());
                    });
                    QObject::connect(call, &ToolCall::cancelled, job, [job] { job->cancel(); });
                    QObject::connect(job, &TransferJob::finished, call, [call, real, dest, bytes](const VoidResult &r) {
                        if (!r.ok())
                            return call->fail(r.error());
                        call->finish(ToolResult::ok({{QStringLiteral("host_path"), real},
                                                     {QStringLiteral("path"), dest},
                                                     {QStringLiteral("bytes"), double(*bytes)}}));
                    });
                    job->start();
                });
        });
    };
    return t;
}

} // namespace

void addMcpExecTools(mcp::McpServer &server, McpAgent &agent)
{
    AppServices &services = agent.services();
    server.addTool(execTool(services));
    server.addTool(uploadTool(agent));
    server.addTool(writeFile(services));
    server.addTool(readFile(services));
    server.addTool(listFiles(services));
}

} // namespace sandbar::cli
