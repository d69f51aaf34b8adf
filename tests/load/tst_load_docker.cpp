// Load held: 50 sessions on the private Docker engine listed, refreshed and sampled with
// statistics through the real registry and collector. Requests in flight stay within the
// design's bound and the event loop stays responsive (its p99 lateness is printed as a
// figure; only a generous sanity bound is asserted, timing assertions being flaky).

#include "LoadScenarios.h"
#include "TestSupport.h"

#include <QTest>
#include <cstdio>

using namespace sandbar;

class TstLoadDocker : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void manySessionsSampled();
};

void TstLoadDocker::manySessionsSampled()
{
    const QString host = test::dockerHost();
    SANDBAR_REQUIRE(!host.isEmpty() && !test::testImage().isEmpty(),
                    QStringLiteral("SANDBAR_TEST_DOCKER_HOST and SANDBAR_TEST_IMAGE are not set"));
    load::DockerLoadOptions o;
    o.endpoint = host;
    o.image = test::testImage();
    o.sessions = 50;
    o.minSamples = 2;
    o.minRefreshes = 3;
    o.timeoutMs = 90000;
    const auto r = load::runDockerLoad(o, [](const QString &line) { qInfo("%s", qPrintable(line)); });
    const double p99 = load::percentile(r.latenessMs, 99);
    qInfo("sessions %d listed %d sampled %d refreshes %d in %.1f s; engine connections at once: max %d; collector "
          "in flight: max %d (limit %d); event loop lateness p99 %.1f ms, max %.1f ms over %lld ticks",
          r.sessions, r.listed, r.sampledSessions, r.refreshes, r.seconds, r.connectionsMax, r.collectorInFlightMax,
          r.collectorLimit, p99, load::percentile(r.latenessMs, 100), static_cast<long long>(r.latenessMs.size()));
    std::printf("{\"name\":\"load.event_loop_p99_ms\",\"value\":%.2f,\"unit\":\"ms\",\"sessions\":%d}\n", p99,
                r.sessions);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.listed, 50);
    QCOMPARE(r.sampledSessions, 50);
    // The collector keeps at most maxInFlightPerAccount requests in flight: samples and each
    // session's one info(). A Docker sample is one stats call plus, on a container's first
    // sample, the usage inspection (then its OOM backlog) it waits for; later inspections run
    // behind the samples, two at most. The registry's listing and the provider's events
    // watch come on top.
    QVERIFY(r.collectorInFlightMax >= 1);
    QVERIFY2(r.collectorInFlightMax <= r.collectorLimit,
             qPrintable(QStringLiteral("%1 > %2").arg(r.collectorInFlightMax).arg(r.collectorLimit)));
    const int bound = 2 * r.collectorLimit + 2 + 2;
    QVERIFY2(r.connectionsMax <= bound,
             qPrintable(QStringLiteral("%1 engine connections at once, bound %2").arg(r.connectionsMax).arg(bound)));
    QVERIFY(!r.latenessMs.isEmpty());
    // Sanity only: a loop stalled for a second is broken, whatever the machine's load.
    QVERIFY2(p99 < 1000, qPrintable(QString::number(p99)));
}

QTEST_GUILESS_MAIN(TstLoadDocker)
#include "tst_load_docker.moc"
