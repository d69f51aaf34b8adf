// Two things Podman does differently from Docker, made to match (issue found by tst_escapes):
// an out-of-memory kill of a command started with exec is reported in the statistics (Podman
// sends no `oom` event for it; DockerUsage.h), and a session cannot make a user namespace
// (Podman's default seccomp profile allows it; PodmanSeccomp.h). The pure parsers behind both
// (the cgroup's oom_kill count, the profile's shape) are unit tests: tst_podman_oom_parsers.
#include "EngineKit.h"
#include "metrics/StatsHistory.h"

#include <QDir>
#include <QTemporaryDir>

using namespace sandbar;
using namespace sandbar::test;

class TestPodmanOom : public QObject
{
    Q_OBJECT
    std::unique_ptr<Provider> m_p;
    QString m_id;
    // The profile is written to QDir::tempPath(): a folder of this test's own, so that another
    // program's profile in /tmp, coming or going, can't be taken for one this test left.
    QTemporaryDir m_tmp;

    static QStringList leftProfiles()
    {
        return QDir(QDir::tempPath())
            .entryList({QStringLiteral("sandbar-seccomp-*.json")}, QDir::Files | QDir::Hidden | QDir::System);
    }

    // tail keeps a line (here: all of it) in memory; 300 MB under a 64 MiB limit. On a loaded
    // machine the kill can take a while (the cgroup reclaims and swaps first): 120 s.
    ExecResult runHog()
    {
        return runIn(
            m_p.get(), m_id,
            {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("head -c 300000000 /dev/zero | tail | wc -c")},
            {}, 120000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        qputenv("TMPDIR", QFile::encodeName(m_tmp.path()));
        QCOMPARE(QDir::tempPath(), m_tmp.path());
        const QString host = podmanHost();
        SANDBAR_REQUIRE(!host.isEmpty(),
                        QStringLiteral("SANDBAR_TEST_PODMAN_HOST is not set (scripts/test-services.sh start)"));
        m_p = makeEngineProvider(docker::Flavour::Podman, host);
        QVERIFY(m_p);
        auto h = await<HealthInfo>([&](auto cb) { m_p->health(cb); });
        SANDBAR_REQUIRE(
            h.ok(),
            QStringLiteral("the Podman service at %1 is not reachable: %2").arg(host, h ? QString() : h.message()));
        const QStringList before = leftProfiles();
        CreateSpec spec;
        spec.image = testImage();
        spec.name = QStringLiteral("podman oom");
        spec.memoryBytes = 64 * 1024 * 1024;
        auto s = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, 60000);
        QVERIFY_RESULT(s);
        m_id = s->id;
        // The profile's file lives only until the engine has read it.
        QCOMPARE(leftProfiles(), before);
    }

    void cleanupTestCase()
    {
        if (m_p && !m_id.isEmpty())
            (void)await<void>([&](auto cb) { m_p->remove(m_id, cb); });
    }

    void userNamespaceRefused()
    {
        QVERIFY(!m_id.isEmpty());
        const auto r = runIn(m_p.get(), m_id,
                             {QStringLiteral("sh"), QStringLiteral("-c"),
                              QStringLiteral("grep Seccomp: /proc/self/status; unshare -U true; echo userns=$?; "
                                             "unshare -m true; echo mountns=$?; sleep 0 & wait $!; echo child=$?")});
        QVERIFY_RESULT(*r.code);
        QVERIFY2(r.out.contains("Seccomp:\t2"), r.out.constData()); // a filter is on
        QVERIFY2(r.out.contains("userns=1"), QByteArray(r.out + r.err).constData());
        QVERIFY2(r.err.contains("Operation not permitted"), r.err.constData()); // EPERM, as on Docker
        QVERIFY2(r.out.contains("mountns=1"), r.out.constData());               // no CAP_SYS_ADMIN either
        QVERIFY2(r.out.contains("child=0"), r.out.constData());                 // plain clone still works
    }

    void oomOfExecReported()
    {
        QVERIFY(!m_id.isEmpty());
        metrics::StatsHistory history;
        auto before = await<StatsSample>([&](auto cb) { m_p->statistics()->stats(m_id, cb); });
        QVERIFY_RESULT(before);
        QVERIFY(before->oomKills.has_value());
        QCOMPARE(*before->oomKills, 0);
        history.append(*before);
        const ExecResult hog = runHog();
        QVERIFY2(hog.code.has_value(), "the memory hog did not end within 120 s");
        QVERIFY_RESULT(*hog.code);
        QVERIFY2(!hog.out.contains("300000000"), hog.out.constData()); // it was killed
        std::optional<qint64> kills;
        QElapsedTimer t;
        t.start();
        QVERIFY2(waitUntil(
                     [&] {
                         auto s = await<StatsSample>([&](auto cb) { m_p->statistics()->stats(m_id, cb); });
                         if (!s)
                             return false;
                         history.append(*s);
                         kills = s->oomKills;
                         return kills.value_or(0) > 0;
                     },
                     120000),
                 "no oom kill counted within 120 s");
        qInfo("oomKills %lld after %lld ms", static_cast<long long>(kills.value_or(-1)),
              static_cast<long long>(t.elapsed()));
        // A kill is a marker. The kernel may kill more than one process of the pipeline, a
        // moment apart: then there are as many markers as rises of the count the samples saw.
        QVERIFY(!history.oomMarkers().empty());
        QVERIFY(history.oomMarkers().size() <= size_t(kills.value_or(0)));
        // Samples without a new kill add no marker.
        for (int i = 0; i < 3; ++i) {
            const size_t markers = history.oomMarkers().size();
            auto s = await<StatsSample>([&](auto cb) { m_p->statistics()->stats(m_id, cb); });
            QVERIFY_RESULT(s);
            const bool rose = s->oomKills.value_or(0) > kills.value_or(0);
            history.append(*s);
            kills = s->oomKills;
            QCOMPARE(history.oomMarkers().size(), markers + (rose ? 1 : 0));
        }
    }

    // A stream (what the statistics view holds open) shows it as well.
    void oomOfExecReportedOnStream()
    {
        QVERIFY(!m_id.isEmpty());
        auto stream = m_p->statistics()->streamStats(m_id);
        std::optional<qint64> first, last;
        connect(stream.get(), &StatsStream::sample, this, [&](const StatsSample &s) {
            if (!first)
                first = s.oomKills;
            last = s.oomKills;
        });
        stream->start();
        QVERIFY2(waitUntil([&] { return first.has_value(); }, 60000), "no statistics sample within 60 s");
        const ExecResult hog = runHog();
        QVERIFY2(hog.code.has_value(), "the memory hog did not end within 120 s");
        QVERIFY_RESULT(*hog.code);
        QVERIFY2(waitUntil([&] { return last.value_or(0) > first.value_or(0); }, 120000),
                 qPrintable(QStringLiteral("the stream's oom count stayed at %1").arg(last.value_or(-1))));
        stream->stop();
    }
};

QTEST_GUILESS_MAIN(TestPodmanOom)
#include "tst_podman_oom.moc"
