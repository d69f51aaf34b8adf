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
#include <unistd.h>

namespace sandbar::bench {

namespace {
using namespace sandbar::local;

bool execTrue(LocalProvider &p, const QString &id)
{
    auto job = p.exec(id, ExecRequest{{QStringLiteral("true")}, {}, {}, {}, {}});
    QEventLoop loop;
    bool ok = false;
    QObject::connect(job.get(), &ExecJob::finished, &loop, [&](const Result<int> &r) {
        ok = r.ok() && *r == 0;
        loop.quit();
    });
    job->start();
    loop.exec();
    return ok;
}

int runLocal(const QStringList &args)
{
    const int runs = std::max(3, int(args.indexOf(QStringLiteral("--runs")) >= 0
                                         ? args.value(args.indexOf(QStringLiteral("--runs")) + 1).toInt()
                                         : 25));
    const LocalEnvironment env = LocalEnvironment::detect();
    if (!env.unavailableReason().isEmpty()) {
        std::fprintf(stderr, "local: %s\n", qPrintable(env.unavailableReason()));
        return 1;
    }
    QTemporaryDir dir(QStringLiteral("/tmp/sbbench-XXXXXX"));
    AccountConfig account;
    account.name = QStringLiteral("bench");
    account.provider = QStringLiteral("local");
    account.dataDir = dir.path();
    LocalProvider provider(account, env);

    // Warm-up: page cache, the account's prepared /etc, and a session to measure exec in.
    auto first = wait<SessionInfo>([&](Callback<SessionInfo> cb) { provider.create(CreateSpec{}, cb); });
    if (!first || !execTrue(provider, first->id)) {
        std::fprintf(stderr, "local: create failed: %s\n", first ? "exec true failed" : qPrintable(first.message()));
        return 1;
    }
    const QString keep = first->id;

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
        if (!p.waitForFinished(10000) || p.exitCode() != 0) {
            std::fprintf(stderr, "local: bare bwrap failed: %s\n", p.readAllStandardError().constData());
            return 1;
        }
        bare << double(t.nsecsElapsed()) / 1e6;

        t.restart();
        auto s = wait<SessionInfo>([&](Callback<SessionInfo> cb) { provider.create(CreateSpec{}, cb); });
        if (!s || !execTrue(provider, s->id)) {
            std::fprintf(stderr, "local: create failed: %s\n", s ? "exec true failed" : qPrintable(s.message()));
            return 1;
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
        if (!execTrue(provider, keep)) {
            std::fprintf(stderr, "local: exec failed\n");
            return 1;
        }
        execs << double(t.nsecsElapsed()) / 1e6;
    }
    printFigure(QStringLiteral("local.exec_ms"), percentile(execs, 50), QStringLiteral("ms"));
    (void)wait<void>([&](Callback<void> cb) { provider.remove(keep, cb); });
    return 0;
}
} // namespace

static Registration reg("local", &runLocal, false, "Local sandbox: create-to-ready vs bare bwrap, exec round trip");

} // namespace sandbar::bench
