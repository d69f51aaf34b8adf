// Load held: 100 Local create/remove cycles and 200 Docker exec calls leak nothing. File
// descriptors, threads, the sessions' cgroup folders, temporary files, session folders and
// containers are counted after ten warm-up cycles and again at the end; none may grow.

#include "LoadScenarios.h"
#include "TestSupport.h"

#include <QTest>
#include <cstdio>

using namespace sandbar;

class TstLoadLeaks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cyclesLeakNothing();
};

void TstLoadLeaks::cyclesLeakNothing()
{
    const QString host = test::dockerHost();
    SANDBAR_REQUIRE(!host.isEmpty() && !test::testImage().isEmpty(),
                    QStringLiteral("SANDBAR_TEST_DOCKER_HOST and SANDBAR_TEST_IMAGE are not set"));
    load::LeakOptions o;
    o.localCycles = 100;
    o.dockerExecs = 200;
    o.dockerEndpoint = host;
    o.image = test::testImage();
    const auto r = load::runLeakCycles(o, [](const QString &line) { qInfo("%s", qPrintable(line)); });
    qInfo("median Local create+remove %.0f ms, Docker exec %.0f ms; a live session had %d cgroup and %d session "
          "folders",
          r.localCycleMs, r.execMs, r.liveCgroupDirs, r.liveSessionDirs);
    std::printf("{\"name\":\"load.leaks\",\"value\":%d,\"unit\":\"count\"}\n", r.leaks);
    SANDBAR_REQUIRE(r.localSkipped.isEmpty(), QStringLiteral("Local sessions unavailable: ") + r.localSkipped);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    // The counts see what they count: the exec target, a live session's folder and cgroups.
    QVERIFY(r.afterWarmup.containers >= 1);
    QVERIFY(r.liveSessionDirs >= 1);
    if (r.cgroupsUsable)
        QVERIFY(r.liveCgroupDirs >= 1);
    else
        qInfo("cgroups are not usable here: Local makes no cgroup folders to leak");
    QVERIFY2(r.leaks == 0,
             qPrintable(QStringLiteral("grew from [%1] to [%2]").arg(r.afterWarmup.toString(), r.atEnd.toString())));
}

QTEST_GUILESS_MAIN(TstLoadLeaks)
#include "tst_load_leaks.moc"
