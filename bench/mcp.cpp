// sandbar-bench mcp [--iterations N] [--runs N]: Sandbar as an MCP server (issue 14, part 4).
// Starts the real `sandbarctl mcp` with a private config folder holding one Local account and
// speaks JSON-RPC to it over stdio, as an agent would:
//   mcp.exec_roundtrip_ms.p50        `exec echo hi` on a running Local session, client write to
//                                    result line read, after ten warm-up calls; N calls
//                                    (default 100); baseline: the target, 20 ms
//   mcp.exec_roundtrip_ms.p99        the same calls' p99
//   mcp.local_exec_ms.p50            the Local provider's own `exec echo hi`, in this process,
//                                    on a running session (what MCP adds to it is the rest)
//   mcp.local_create_to_ready_ms     the Local provider's own create() until its first
//                                    `exec echo hi` has finished, in this process, median
//   mcp.create_to_first_exec_ms      create_session sent until the first exec's result is read,
//                                    median of --runs (default 3); baseline: the figure above,
//                                    measured interleaved in the same run (target ratio <= 1.2)
// sandbarctl is BUILD/app/sandbarctl next to BUILD/bench, or SANDBARCTL; the agent is found as
// the Local provider finds it (SANDBAR_AGENT_PATH where it is not installed). Every session
// the bench creates is removed, also on failure.

#include "Bench.h"
#include "providers/local/LocalProvider.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <cstdio>
#include <memory>
#include <optional>

namespace sandbar::bench {

namespace {
using namespace sandbar::local;

const char kGroup[] = "mcp";
constexpr int kWarmupExecs = 10;
constexpr int kCreateTimeoutMs = 120000;
constexpr int kCallTimeoutMs = 30000;
const char kAccount[] = "bench";

Error failure(const QString &why)
{
    return makeError(ErrorCode::Internal, why);
}

void note(const QString &line)
{
    std::fprintf(stderr, "mcp: %s\n", qPrintable(line));
}

QString compact(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

Result<int> intArg(const QStringList &args, const QString &name, int fallback, int minimum)
{
    const qsizetype i = args.indexOf(name);
    if (i < 0)
        return fallback;
    bool ok = false;
    const int v = args.value(i + 1).toInt(&ok);
    if (!ok || v < minimum)
        return failure(QStringLiteral("%1 needs a number of at least %2").arg(name).arg(minimum));
    return v;
}

QString sandbarctlPath()
{
    const QString env = qEnvironmentVariable("SANDBARCTL");
    if (!env.isEmpty())
        return env;
    // sandbar-bench lives in BUILD/bench, sandbarctl in BUILD/app.
    return QFileInfo(QCoreApplication::applicationDirPath() + QStringLiteral("/../app/sandbarctl")).absoluteFilePath();
}

double msSince(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

// `sandbarctl mcp` as a child, one JSON-RPC message a line each way. Calls block on the pipe
// (nothing else runs in the bench meanwhile), so a round trip is the write, the server's
// work and the read, with no event loop of ours in between.
class McpClient
{
public:
    McpClient(const QString &program, const QString &configDir)
        : m_program(program)
        , m_configDir(configDir)
    {
    }
    ~McpClient() { close(); }

    VoidResult start()
    {
        m_process.setProgram(m_program);
        m_process.setArguments({QStringLiteral("--config-dir"), m_configDir, QStringLiteral("mcp")});
        m_process.start();
        if (!m_process.waitForStarted(10000))
            return failure(QStringLiteral("cannot start %1: %2").arg(m_program, m_process.errorString()));
        const auto init = request(
            QStringLiteral("initialize"),
            {{QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
             {QStringLiteral("capabilities"), QJsonObject{}},
             {QStringLiteral("clientInfo"), QJsonObject{{QStringLiteral("name"), QStringLiteral("sandbar-bench")},
                                                        {QStringLiteral("version"), QStringLiteral(SANDBAR_VERSION)}}}},
            kCallTimeoutMs);
        if (!init)
            return init.error();
        if (init->value(QLatin1String("protocolVersion")).toString() != QLatin1String("2025-11-25"))
            return failure(QStringLiteral("initialize: unexpected answer %1").arg(compact(*init)));
        return write(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                 {QStringLiteral("method"), QStringLiteral("notifications/initialized")}});
    }

    bool running() const { return m_process.state() == QProcess::Running; }

    // Ends the input; the server finishes what it has and exits.
    void close()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(10000)) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    QString stderrTail() { return QString::fromUtf8(m_process.readAllStandardError().right(4000)); }

    // A tools/call's structuredContent; a tool error or a protocol error is a failure.
    Result<QJsonObject> callTool(const QString &name, const QJsonObject &arguments, int timeoutMs)
    {
        const auto r = request(QStringLiteral("tools/call"),
                               {{QStringLiteral("name"), name}, {QStringLiteral("arguments"), arguments}}, timeoutMs);
        if (!r)
            return r.error();
        if (r->value(QLatin1String("isError")).toBool()) {
            const QJsonObject first = r->value(QLatin1String("content")).toArray().at(0).toObject();
            return failure(QStringLiteral("%1 failed: %2").arg(name, first.value(QLatin1String("text")).toString()));
        }
        return r->value(QLatin1String("structuredContent")).toObject();
    }

private:
    VoidResult write(const QJsonObject &message)
    {
        const QByteArray line = QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n';
        if (m_process.write(line) != line.size())
            return failure(QStringLiteral("cannot write to sandbarctl mcp: %1").arg(m_process.errorString()));
        m_process.waitForBytesWritten(kCallTimeoutMs);
        return {};
    }

    Result<QJsonObject> request(const QString &method, const QJsonObject &params, int timeoutMs)
    {
        const int id = ++m_lastId;
        if (auto w = write(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                       {QStringLiteral("id"), id},
                                       {QStringLiteral("method"), method},
                                       {QStringLiteral("params"), params}});
            !w)
            return w.error();
        QElapsedTimer t;
        t.start();
        for (;;) {
            while (m_process.canReadLine()) {
                const QByteArray line = m_process.readLine();
                QJsonParseError error;
                const QJsonObject m = QJsonDocument::fromJson(line, &error).object();
                if (error.error != QJsonParseError::NoError)
                    return failure(QStringLiteral("sandbarctl mcp wrote a line that is not JSON: %1")
                                       .arg(QString::fromUtf8(line.left(200))));
                if (m.value(QLatin1String("id")).toInt(-1) != id)
                    continue; // a notification (progress, log) or a late answer
                if (m.contains(QLatin1String("error")))
                    return failure(QStringLiteral("%1: JSON-RPC error %2")
                                       .arg(method, compact(m.value(QLatin1String("error")).toObject())));
                return m.value(QLatin1String("result")).toObject();
            }
            const qint64 left = timeoutMs - t.elapsed();
            if (m_process.state() != QProcess::Running)
                return failure(QStringLiteral("sandbarctl mcp exited (code %1) during %2; its stderr:\n%3")
                                   .arg(m_process.exitCode())
                                   .arg(method, stderrTail()));
            if (left <= 0)
                return failure(QStringLiteral("no answer to %1 within %2 ms").arg(method).arg(timeoutMs));
            m_process.waitForReadyRead(int(left));
        }
    }

    QString m_program;
    QString m_configDir;
    QProcess m_process;
    int m_lastId = 0;
};

QJsonObject execArgs(const QString &ref)
{
    return {{QStringLiteral("session"), ref},
            {QStringLiteral("argv"), QJsonArray{QStringLiteral("echo"), QStringLiteral("hi")}}};
}

// An exec answer that is not `hi` and exit code 0 is a failure.
VoidResult checkEcho(const Result<QJsonObject> &r)
{
    if (!r)
        return r.error();
    if (r->value(QLatin1String("exit_code")).toInt(-1) != 0 ||
        r->value(QLatin1String("stdout")).toString() != QLatin1String("hi\n"))
        return failure(QStringLiteral("exec echo hi answered %1").arg(compact(*r)));
    return {};
}

// The sessions made through MCP and through the provider, removed whatever happens.
class Sessions
{
public:
    Sessions(McpClient &client, LocalProvider &provider, const QString &sandbarctl, const QString &configDir)
        : m_client(client)
        , m_provider(provider)
        , m_sandbarctl(sandbarctl)
        , m_configDir(configDir)
    {
    }
    ~Sessions() { removeAll(); }

    void addMcp(const QString &ref) { m_mcp << ref; }
    void addLocal(const QString &id) { m_local << id; }

    VoidResult removeMcp(const QString &ref)
    {
        m_mcp.removeAll(ref);
        if (m_client.running()) {
            const auto r = m_client.callTool(QStringLiteral("remove_session"), {{QStringLiteral("session"), ref}},
                                             kCreateTimeoutMs);
            if (r)
                return {};
            note(r.message());
        }
        // Without the server (it died) or when it could not: the same removal by sandbarctl.
        QProcess p;
        p.start(m_sandbarctl,
                {QStringLiteral("--config-dir"), m_configDir, QStringLiteral("sessions"), QStringLiteral("rm"), ref});
        if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
            return failure(
                QStringLiteral("cannot remove session %1: %2").arg(ref, QString::fromUtf8(p.readAllStandardError())));
        return {};
    }

    VoidResult removeLocal(const QString &id)
    {
        m_local.removeAll(id);
        auto r = wait<void>([&](Callback<void> cb) { m_provider.remove(id, cb); });
        if (!r)
            return failure(QStringLiteral("cannot remove Local session %1: %2").arg(id, r.message()));
        return {};
    }

    // Removes what is left; says what could not be removed.
    bool removeAll()
    {
        bool all = true;
        for (const QString &ref : QStringList(m_mcp)) {
            if (auto r = removeMcp(ref); !r) {
                note(r.message());
                all = false;
            }
        }
        for (const QString &id : QStringList(m_local)) {
            if (auto r = removeLocal(id); !r) {
                note(r.message());
                all = false;
            }
        }
        return all;
    }

private:
    McpClient &m_client;
    LocalProvider &m_provider;
    QString m_sandbarctl;
    QString m_configDir;
    QStringList m_mcp;
    QStringList m_local;
};

// create_session, then the first exec; the time from the create's write to the exec's answer.
Result<double> mcpCreateToFirstExec(McpClient &client, Sessions &sessions, QString *refOut)
{
    QElapsedTimer t;
    t.start();
    const auto created = client.callTool(QStringLiteral("create_session"),
                                         {{QStringLiteral("account"), QLatin1String(kAccount)}}, kCreateTimeoutMs);
    if (!created)
        return created.error();
    const QString ref = created->value(QLatin1String("session")).toObject().value(QLatin1String("ref")).toString();
    if (ref.isEmpty())
        return failure(QStringLiteral("create_session answered no ref: %1").arg(compact(*created)));
    sessions.addMcp(ref);
    const auto r = client.callTool(QStringLiteral("exec"), execArgs(ref), kCallTimeoutMs);
    const double ms = msSince(t);
    if (auto c = checkEcho(r); !c)
        return c.error();
    *refOut = ref;
    return ms;
}

// The provider's own `exec echo hi`, through its job, in this process.
VoidResult localEcho(LocalProvider &provider, const QString &id)
{
    auto job = provider.exec(id, ExecRequest{{QStringLiteral("echo"), QStringLiteral("hi")}, {}, {}, {}, {}});
    QByteArray out;
    std::optional<Result<int>> done;
    QEventLoop loop;
    QObject::connect(job.get(), &ExecJob::stdoutData, &loop, [&](const QByteArray &b) { out += b; });
    QObject::connect(job.get(), &ExecJob::finished, &loop, [&](const Result<int> &r) {
        done.emplace(r);
        loop.quit();
    });
    QTimer::singleShot(kCallTimeoutMs, &loop, &QEventLoop::quit);
    job->start();
    if (!done)
        loop.exec();
    if (!done)
        return failure(QStringLiteral("the Local provider's exec did not finish within %1 ms").arg(kCallTimeoutMs));
    if (!done->ok() || done->value() != 0 || out != "hi\n")
        return failure(QStringLiteral("the Local provider's exec echo hi failed: %1")
                           .arg(done->ok() ? QString::fromUtf8(out) : done->message()));
    return {};
}

// The provider's create() until its first `exec echo hi` has finished.
Result<double> localCreateToReady(LocalProvider &provider, Sessions &sessions, QString *idOut)
{
    QElapsedTimer t;
    t.start();
    auto s = wait<SessionInfo>([&](Callback<SessionInfo> cb) { provider.create(CreateSpec{}, cb); });
    if (!s)
        return failure(QStringLiteral("the Local provider's create failed: %1").arg(s.message()));
    sessions.addLocal(s->id);
    if (auto e = localEcho(provider, s->id); !e)
        return e.error();
    const double ms = msSince(t);
    *idOut = s->id;
    return ms;
}

struct Options {
    int iterations = 100;
    int runs = 3;
};

VoidResult measure(const Options &options, McpClient &client, Sessions &sessions, LocalProvider &provider)
{
    if (auto r = client.start(); !r)
        return r;

    // Warm-up on both sides (page cache, the account's prepared /etc, sandbarctl's provider);
    // the MCP session stays for the round trips, the provider's for its own exec.
    QString keep, keepLocal;
    if (auto r = mcpCreateToFirstExec(client, sessions, &keep); !r)
        return r.error();
    if (auto r = localCreateToReady(provider, sessions, &keepLocal); !r)
        return r.error();

    // Interleaved, so that both medians see the same load on a shared machine.
    QList<double> viaMcp, direct;
    for (int i = 0; i < options.runs; ++i) {
        QString ref, id;
        auto m = mcpCreateToFirstExec(client, sessions, &ref);
        if (!m)
            return m.error();
        viaMcp << *m;
        if (auto r = sessions.removeMcp(ref); !r)
            return r;
        auto d = localCreateToReady(provider, sessions, &id);
        if (!d)
            return d.error();
        direct << *d;
        if (auto r = sessions.removeLocal(id); !r)
            return r;
    }

    for (int i = 0; i < kWarmupExecs; ++i) {
        if (auto r = checkEcho(client.callTool(QStringLiteral("exec"), execArgs(keep), kCallTimeoutMs)); !r)
            return r;
        if (auto r = localEcho(provider, keepLocal); !r)
            return r;
    }
    // Interleaved too: the provider's own exec is what the MCP round trip adds to.
    QList<double> roundTrips, localExecs;
    for (int i = 0; i < options.iterations; ++i) {
        QElapsedTimer t;
        t.start();
        const auto r = client.callTool(QStringLiteral("exec"), execArgs(keep), kCallTimeoutMs);
        roundTrips << msSince(t);
        if (auto c = checkEcho(r); !c)
            return c;
        t.restart();
        if (auto l = localEcho(provider, keepLocal); !l)
            return l;
        localExecs << msSince(t);
    }

    const double local = percentile(direct, 50);
    printFigure(QStringLiteral("mcp.exec_roundtrip_ms.p50"), percentile(roundTrips, 50), QStringLiteral("ms"), 20.0);
    printFigure(QStringLiteral("mcp.exec_roundtrip_ms.p99"), percentile(roundTrips, 99), QStringLiteral("ms"));
    printFigure(QStringLiteral("mcp.local_exec_ms.p50"), percentile(localExecs, 50), QStringLiteral("ms"));
    printFigure(QStringLiteral("mcp.local_create_to_ready_ms"), local, QStringLiteral("ms"));
    printFigure(QStringLiteral("mcp.create_to_first_exec_ms"), percentile(viaMcp, 50), QStringLiteral("ms"), local);
    return {};
}

int runMcp(const QStringList &args)
{
    Options options;
    for (const auto &[name, field] : {std::pair{QStringLiteral("--iterations"), &Options::iterations},
                                      std::pair{QStringLiteral("--runs"), &Options::runs}}) {
        const auto v = intArg(args, name, options.*field, 1);
        if (!v)
            return fail(kGroup, QStringLiteral("arguments"), v.message(), 2);
        options.*field = *v;
    }
    const LocalEnvironment env = LocalEnvironment::detect();
    if (!env.unavailableReason().isEmpty())
        return fail(kGroup, QStringLiteral("Local sandboxes"), env.unavailableReason());
    const QString sandbarctl = sandbarctlPath();
    if (!QFileInfo(sandbarctl).isExecutable())
        return fail(kGroup, QStringLiteral("sandbarctl"),
                    QStringLiteral("no sandbarctl at %1 (build it, or set SANDBARCTL)").arg(sandbarctl));
    QTemporaryDir dir(QStringLiteral("/tmp/sbbench-mcp-XXXXXX"));
    if (!dir.isValid())
        return fail(kGroup, QStringLiteral("make a temporary folder"), dir.errorString());
    const QString configDir = dir.filePath(QStringLiteral("config"));
    QProcess add;
    add.setProcessChannelMode(QProcess::MergedChannels);
    add.start(sandbarctl, {QStringLiteral("--config-dir"), configDir, QStringLiteral("accounts"), QStringLiteral("add"),
                           QLatin1String(kAccount), QStringLiteral("--provider"), QStringLiteral("local")});
    if (!add.waitForFinished(30000) || add.exitStatus() != QProcess::NormalExit || add.exitCode() != 0)
        return fail(kGroup, QStringLiteral("sandbarctl accounts add"),
                    add.error() == QProcess::FailedToStart ? add.errorString() : QString::fromUtf8(add.readAll()));
    // The provider's own figures: a Local account beside the MCP one, its data in the same folder.
    AccountConfig account;
    account.name = QStringLiteral("baseline");
    account.provider = QStringLiteral("local");
    account.dataDir = QDir(configDir).filePath(QStringLiteral("data/baseline"));
    LocalProvider provider(account, env);

    McpClient client(sandbarctl, configDir);
    Sessions sessions(client, provider, sandbarctl, configDir);
    const auto r = measure(options, client, sessions, provider);
    if (!r) {
        sayWhy(kGroup, QString(), r.message());
        if (client.running())
            note(QStringLiteral("sandbarctl mcp's stderr:\n") + client.stderrTail());
    }
    // Every session made, MCP's through the server while it still runs.
    const bool removed = sessions.removeAll();
    client.close();
    if (!removed)
        sayWhy(kGroup, QStringLiteral("clean up"), QStringLiteral("some sessions could not be removed (above)"));
    return r && removed ? 0 : 1;
}
} // namespace

static Registration reg("mcp", &runMcp, false,
                        "sandbarctl mcp over stdio: exec round trip, create-to-first-exec vs Local's own");

} // namespace sandbar::bench
