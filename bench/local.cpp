// sandbar-bench local: how fast a Local sandbox is ready and answers.
//   local.create_to_ready_ms  create() until `exec true` has finished, median; baseline: a bare
//                             `bwrap <same options> true`, median (target ratio <= 3)
//   local.exec_ms             p50 of 100 `exec true` in a running session (target <= 15 ms)

#include "Bench.h"
#include "providers/local/LocalProvider.h"
#include "providers/local/SandboxLayout.h"

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>
#include <optional>
#include <unistd.h>

namespace sandbar::bench {

namespace {
using namespace sandbar::local;

const char kGroup[] = "local";

// Empty when `exec true` finished with 0, else why not.
QString execTrue(LocalProvider &p, const QString &id)
{
    auto job = p.exec(id, ExecRequest{{QStringLiteral("true")}, {}, {}, {}, {}});
    QEventLoop loop;
    std::optional<Result<int>> out;
    QObject::connect(job.get(), &ExecJob::finished, &loop, [&](const Result<int> &r) {
        out.emplace(r);
        loop.quit();
    });
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    job->start();
    if (!out)
        loop.exec();
    if (!out)
        return QStringLiteral("no answer within 60 s");
    if (!out->ok())
        return out->message();
    return out->value() == 0 ? QString() : QStringLiteral("exit code %1").arg(out->value());
}

int runLocal(const QStringList &args)
{
    const int runs = std::max(3, int(args.indexOf(QStringLiteral("--runs")) >= 0
                                         ? args.value(args.indexOf(QStringLiteral("--runs")) + 1).toInt()
                                         : 25));
    const LocalEnvironment env = LocalEnvironment::detect();
    if (!env.unavailableReason().isEmpty())
        return fail(kGroup, QStringLiteral("Local sandboxes"), env.unavailableReason());
    QTemporaryDir dir(QStringLiteral("/tmp/sbbench-XXXXXX"));
    if (!dir.isValid())
        return fail(kGroup, QStringLiteral("make a temporary folder"), dir.errorString());
    AccountConfig account;
    account.name = QStringLiteral("bench");
    account.provider = QStringLiteral("local");
    account.dataDir = dir.path();
    LocalProvider provider(account, env);

    // Warm-up: page cache, the account's prepared /etc, and a session to measure exec in.
    auto first = wait<SessionInfo>([&](Callback<SessionInfo> cb) { provider.create(CreateSpec{}, cb); });
    if (!first)
        return fail(kGroup, QStringLiteral("create the warm-up session"), first.message());
    if (const QString why = execTrue(provider, first->id); !why.isEmpty()) {
        (void)wait<void>([&](Callback<void> cb) { provider.remove(first->id, cb); });
        return fail(kGroup, QStringLiteral("exec true in the warm-up session"), why);
    }
    const QString keep = first->id;
    const auto removeKeep = [&] { (void)wait<void>([&](Callback<void> cb) { provider.remove(keep, cb); }); };

    // Baseline: the same sandbox options around `true`, without agent, launcher or socket.
    SandboxPlan plan;
    plan.agentPath = env.agentPath;
    plan.sessionDir = provider.sessionDir(keep);
    plan.hostname = QStringLiteral("bench");
    plan.systemDirs = hostSystemDirs();
    plan.etcDir = QDir(dir.path()).filePath(QStringLiteral("sandbox-etc"));
    plan.hostRoot = ::geteuid() == 0;
    const QStringList bareArgs = bwrapOptions(plan) << QStringLiteral("true");

    // Interleaved, so that both medians see the same load on a shared machine.
    QList<double> ready, bare;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        QProcess p;
        p.start(env.bwrapPath, bareArgs);
        if (!p.waitForFinished(10000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            removeKeep();
            return fail(kGroup, QStringLiteral("baseline: bare %1 true").arg(env.bwrapPath),
                        p.error() == QProcess::FailedToStart
                            ? p.errorString()
                            : QStringLiteral("exit %1: %2")
                                  .arg(p.exitCode())
                                  .arg(QString::fromLocal8Bit(p.readAllStandardError())));
        }
        bare << double(t.nsecsElapsed()) / 1e6;

        t.restart();
        auto s = wait<SessionInfo>([&](Callback<SessionInfo> cb) { provider.create(CreateSpec{}, cb); });
        if (!s) {
            removeKeep();
            return fail(kGroup, QStringLiteral("create session %1 of %2").arg(i + 1).arg(runs), s.message());
        }
        if (const QString why = execTrue(provider, s->id); !why.isEmpty()) {
            (void)wait<void>([&](Callback<void> cb) { provider.remove(s->id, cb); });
            removeKeep();
            return fail(kGroup, QStringLiteral("exec true in session %1 of %2").arg(i + 1).arg(runs), why);
        }
        ready << double(t.nsecsElapsed()) / 1e6;
        (void)wait<void>([&](Callback<void> cb) { provider.remove(s->id, cb); });
    }
    printFigure(QStringLiteral("local.create_to_ready_ms"), percentile(ready, 50), QStringLiteral("ms"),
                percentile(bare, 50));

    QList<double> execs;
    for (int i = 0; i < 100; ++i) {
        QElapsedTimer t;
        t.start();
        if (const QString why = execTrue(provider, keep); !why.isEmpty()) {
            removeKeep();
            return fail(kGroup, QStringLiteral("exec true %1 of 100 in a running session").arg(i + 1), why);
        }
        execs << double(t.nsecsElapsed()) / 1e6;
    }
    printFigure(QStringLiteral("local.exec_ms"), percentile(execs, 50), QStringLiteral("ms"));
    removeKeep();
    return 0;
}
} // namespace

static Registration reg("local", &runLocal, false, "Local sandbox: create-to-ready vs bare bwrap, exec round trip");

} // namespace sandbar::bench
