// sandbar-bench stats [--seconds N] [IMAGE]: the statistics core.
//   stats.history_bytes_per_session  heap bytes of one session's history with all three
//                                    resolutions full and eight series (CPU, memory, network
//                                    rx/tx, disk read/write, one GPU's utilisation and memory);
//                                    target <= 64 KiB
//   stats.collector_cpu_percent      this process's CPU time (user + system) over N s (default
//                                    60) of wall time, 100 = one core, with 20 running Docker
//                                    sessions listed at the 2 s period and nothing else running;
//                                    target <= 1. Needs SANDBAR_TEST_DOCKER_HOST (or DOCKER_HOST)
//                                    and SANDBAR_TEST_IMAGE (or IMAGE).
// The chart figure (stats.chart_update_ms) is the `stats-ui` group: it needs a display.

#include "Bench.h"
#include "metrics/StatsCollector.h"
#include "sessions/SessionRegistry.h"
#include "wiring/AppServices.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>
#include <sys/resource.h>

namespace sandbar::bench {

namespace {

const char kGroup[] = "stats";

double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

void spin(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

void historyFigure()
{
    metrics::StatsHistory h;
    const qint64 t0 = QDateTime::currentMSecsSinceEpoch();
    for (qint64 i = 0; i < 2 * 3600; ++i) {
        StatsSample s;
        s.time = QDateTime::fromMSecsSinceEpoch(t0 + i * 1000, Qt::UTC);
        s.cpuPercent = 50;
        s.memoryUsedBytes = qint64(1) << 30;
        s.networkRxBytes = s.networkTxBytes = s.blockReadBytes = s.blockWriteBytes = i * 4096;
        GpuReading g;
        g.index = 0;
        g.utilizationPercent = 30;
        g.memoryUsedBytes = qint64(1) << 30;
        s.gpus << g;
        h.append(s);
    }
    printFigure(QStringLiteral("stats.history_bytes_per_session"), double(h.allocatedBytes()), QStringLiteral("bytes"));
}

int collectorFigure(int seconds, const QString &image)
{
    QString host = qEnvironmentVariable("SANDBAR_TEST_DOCKER_HOST");
    if (host.isEmpty())
        host = qEnvironmentVariable("DOCKER_HOST");
    if (host.isEmpty() || image.isEmpty())
        return fail(kGroup, QStringLiteral("stats.collector_cpu_percent"),
                    QStringLiteral("set SANDBAR_TEST_DOCKER_HOST (or DOCKER_HOST) and SANDBAR_TEST_IMAGE (or pass "
                                   "IMAGE)"),
                    2);
    QTemporaryDir dir;
    if (!dir.isValid())
        return fail(kGroup, QStringLiteral("make a temporary folder"), dir.errorString());
    auto services = buildServices(dir.path());
    Account a;
    a.name = QStringLiteral("bench");
    a.provider = QStringLiteral("docker");
    a.settings.insert(QStringLiteral("endpoint"), host);
    if (auto r = wait<void>([&](Callback<void> cb) { services->accounts->add(a, {}, cb); }); !r)
        return fail(kGroup, QStringLiteral("add a Docker account at %1").arg(host), r.message());
    auto provider = wait<Provider *>([&](Callback<Provider *> cb) { services->registry->provider(a.name, cb); });
    if (!provider)
        return fail(kGroup, QStringLiteral("connect the Docker account at %1").arg(host), provider.message());
    QStringList ids;
    int rc = 0;
    for (int i = 0; i < 20 && rc == 0; ++i) {
        CreateSpec spec;
        spec.image = image;
        spec.labels.insert(QStringLiteral("dev.sandbar.bench"), QStringLiteral("1"));
        auto s = wait<SessionInfo>([&](Callback<SessionInfo> cb) { (*provider)->create(spec, cb); });
        if (!s) {
            rc = fail(kGroup, QStringLiteral("create session %1 of 20 (%2)").arg(i + 1).arg(image), s.message());
        } else {
            ids << s->id;
        }
    }
    if (rc == 0) {
        (void)wait<QList<SessionInfo>>(
            [&](Callback<QList<SessionInfo>> cb) { services->registry->refreshAccount(a.name, cb); });
        QStringList refs;
        for (const QString &id : std::as_const(ids))
            refs << a.name + QLatin1Char('/') + id;
        metrics::StatsCollector collector(*services->registry);
        collector.setListInterest(refs);
        spin(4000); // first samples in; CPU % needs two of each
        const double cpu0 = cpuSeconds();
        QElapsedTimer wall;
        wall.start();
        spin(seconds * 1000);
        const double used = cpuSeconds() - cpu0;
        const double percent = used / (double(wall.nsecsElapsed()) / 1e9) * 100.0;
        // Docker 20.10 answers a one-shot stats request on its next 1 s collection tick, so
        // with four requests in flight an engine gives about four samples a second: twenty
        // rows are then sampled every 5 s or so. Every row must still be sampled throughout.
        int sampled = 0;
        qint64 samples = 0;
        for (const QString &ref : std::as_const(refs)) {
            auto *st = collector.find(ref);
            if (st && st->history().sampleCount() >= seconds / 8)
                ++sampled;
            samples += st ? st->history().sampleCount() : 0;
        }
        if (sampled != refs.size()) {
            for (const QString &ref : std::as_const(refs)) {
                auto *st = collector.find(ref);
                std::fprintf(stderr, "%s: %d samples, state %d, %s\n", qPrintable(ref.left(20)),
                             st ? st->history().sampleCount() : -1, st ? int(st->state()) : -1,
                             st && st->lastError() ? qPrintable(st->lastError()->message) : "");
            }
            rc = fail(kGroup, QStringLiteral("stats.collector_cpu_percent"),
                      QStringLiteral("only %1 of %2 sessions were sampled throughout (at least %3 samples each; "
                                     "the rows above say what each got)")
                          .arg(sampled)
                          .arg(refs.size())
                          .arg(seconds / 8));
        } else {
            printFigure(QStringLiteral("stats.collector_cpu_percent"), percent, QStringLiteral("percent"));
            printFigure(QStringLiteral("stats.collector_samples_per_second"),
                        double(samples) / (double(wall.nsecsElapsed()) / 1e9 + 4.0), QStringLiteral("samples/s"));
        }
    }
    for (const QString &id : std::as_const(ids))
        (void)wait<void>([&](Callback<void> cb) { (*provider)->remove(id, cb); });
    return rc;
}

int runStatsBench(const QStringList &args)
{
    int seconds = 60;
    QString image = qEnvironmentVariable("SANDBAR_TEST_IMAGE");
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QStringLiteral("--seconds") && i + 1 < args.size())
            seconds = qMax(5, args[++i].toInt());
        else
            image = args[i];
    }
    historyFigure();
    return collectorFigure(seconds, image);
}

} // namespace

static Registration reg("stats", runStatsBench, false,
                        "history bytes per session; collector CPU with 20 Docker sessions [--seconds N] [IMAGE]");

} // namespace sandbar::bench
