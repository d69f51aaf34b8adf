// The collector over real providers: a Docker container and a Local sandbox running a CPU
// burner and a memory allocator show CPU near their limit and memory rising in the history;
// a memory hog past the limit leaves an out-of-memory marker; a restart draws no negative
// rate. Engines come from test.sh (SANDBAR_TEST_DOCKER_HOST, SANDBAR_TEST_IMAGE); in CI a
// missing engine fails.

#include "FakeProvider.h"
#include "TestSupport.h"
#include "metrics/StatsCollector.h"
#include "providers/local/LocalProvider.h"
#include "sessions/SessionRegistry.h"
#include "wiring/AppServices.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;
using namespace sandbar::metrics;
using namespace sandbar::test;

class TestCollectorEngines : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir{QStringLiteral("/tmp/sbm-XXXXXX")};
    ProviderFactories m_factories;
    MemorySecretStore m_secrets;
    std::unique_ptr<AccountStore> m_accounts;
    std::unique_ptr<SessionRegistry> m_registry;
    QStringList m_made; // refs to remove at the end

    Provider *provider(const QString &account)
    {
        auto p = await<Provider *>([&](Callback<Provider *> cb) { m_registry->provider(account, cb); });
        return p ? p.value() : nullptr;
    }

    Result<SessionInfo> create(const QString &account, const CreateSpec &spec)
    {
        Provider *p = provider(account);
        if (!p)
            return makeError(ErrorCode::Unavailable, QStringLiteral("no provider for %1").arg(account));
        auto s = await<SessionInfo>([&](Callback<SessionInfo> cb) { p->create(spec, cb); }, 120000);
        if (s) {
            m_made << s->ref();
            (void)await<QList<SessionInfo>>([&](auto cb) { m_registry->refreshAccount(account, cb); });
        }
        return s;
    }

    Result<int> exec(const QString &account, const QString &id, const QString &script)
    {
        ExecRequest req;
        req.argv = {QStringLiteral("sh"), QStringLiteral("-c"), script};
        auto job = provider(account)->commands()->exec(id, req);
        std::optional<Result<int>> out;
        connect(job.get(), &ExecJob::finished, this, [&out](const Result<int> &r) { out = r; });
        job->start();
        QElapsedTimer t;
        t.start();
        while (!out && t.elapsed() < 60000)
            QTest::qWait(20);
        return out ? *out : Result<int>(makeError(ErrorCode::Timeout, QStringLiteral("exec timed out")));
    }

    // A collector sampling one listed session every periodMs.
    std::unique_ptr<StatsCollector> watch(const QString &ref, int periodMs)
    {
        CollectorOptions o;
        o.listPeriodMs = periodMs;
        auto c = std::make_unique<StatsCollector>(*m_registry, o);
        c->setListInterest({ref});
        return c;
    }

    // The largest value of a series over the last minute, from the 1 s ring.
    static float recentMax(const StatsHistory &h, SeriesKey key)
    {
        float m = -1;
        for (const auto &p : h.points(key, Window::OneMinute))
            m = std::max(m, p.max);
        return m;
    }

    // CPU near the limit and memory rising, then an OOM kill marked on the history.
    void burnAndHog(const QString &account, const QString &image)
    {
        CreateSpec spec;
        spec.image = image;
        spec.cpus = 0.5;
        spec.memoryBytes = 96LL << 20;
        spec.ttlSeconds = 600;
        auto s = create(account, spec);
        QVERIFY_RESULT(s);
        auto c = watch(s->ref(), 500);
        SessionStats *st = c->find(s->ref());
        QVERIFY(st);
        QTRY_VERIFY_WITH_TIMEOUT(st->history().has({Metric::Memory}), 30000);
        const float before = recentMax(st->history(), {Metric::Memory});

        // Busy loop in the background: the exec returns, the loop runs on.
        QVERIFY_RESULT(exec(account, s->id, QStringLiteral("(while :; do :; done) >/dev/null 2>&1 &")));
        // 40 MiB held in a tmpfs file: counted as the session's memory.
        QVERIFY_RESULT(
            exec(account, s->id,
                 QStringLiteral("d=/dev/shm; [ -w $d ] || d=/tmp; head -c 41943040 /dev/zero > $d/sb-alloc")));
        QTRY_VERIFY_WITH_TIMEOUT(recentMax(st->history(), {Metric::Cpu}) > 35, 30000);
        const float cpu = recentMax(st->history(), {Metric::Cpu});
        QVERIFY2(cpu < 70, qPrintable(QStringLiteral("CPU %1 % over a 0.5 core limit").arg(cpu)));
        QTRY_VERIFY_WITH_TIMEOUT(recentMax(st->history(), {Metric::Memory}) > before + float(30 << 20), 30000);

        // A hog past the limit: the kernel kills it, the session lives on.
        QVERIFY(st->history().oomMarkers().empty());
        (void)exec(account, s->id, QStringLiteral("x=aaaaaaaaaaaaaaaa; while :; do x=$x$x; done"));
        QTRY_VERIFY_WITH_TIMEOUT(!st->history().oomMarkers().empty(), 60000);
        QVERIFY(st->history().latest()->oomKills.value_or(0) >= 1);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        registerProviders(m_factories);
        m_accounts = std::make_unique<AccountStore>(m_dir.path(), m_factories, m_secrets);
        m_registry = std::make_unique<SessionRegistry>(*m_accounts, m_factories);
    }

    void cleanupTestCase()
    {
        for (const QString &ref : std::as_const(m_made)) {
            const QString account = ref.section(QLatin1Char('/'), 0, 0);
            const QString id = ref.section(QLatin1Char('/'), 1);
            if (Provider *p = provider(account))
                (void)await<void>([&](Callback<void> cb) { p->remove(id, cb); }, 60000);
        }
    }

    void docker()
    {
        SANDBAR_REQUIRE(!dockerHost().isEmpty() && !testImage().isEmpty(),
                        QStringLiteral("no Docker engine (SANDBAR_TEST_DOCKER_HOST, SANDBAR_TEST_IMAGE)"));
        Account a;
        a.name = QStringLiteral("d");
        a.provider = QStringLiteral("docker");
        a.settings.insert(QStringLiteral("endpoint"), dockerHost());
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { m_accounts->add(a, {}, cb); }));
        burnAndHog(a.name, testImage());
    }

    // A restart resets the engine's counters: the history starts a new segment and no
    // rate drawn from it is negative.
    void dockerRestartDrawsNoNegativeRate()
    {
        SANDBAR_REQUIRE(!dockerHost().isEmpty() && !testImage().isEmpty(),
                        QStringLiteral("no Docker engine (SANDBAR_TEST_DOCKER_HOST, SANDBAR_TEST_IMAGE)"));
        CreateSpec spec;
        spec.image = testImage();
        auto s = create(QStringLiteral("d"), spec);
        QVERIFY_RESULT(s);
        auto c = watch(s->ref(), 300);
        SessionStats *st = c->find(s->ref());
        // Disk writes that reach the block layer make the write counter non-zero.
        (void)exec(QStringLiteral("d"), s->id,
                   QStringLiteral("dd if=/dev/zero of=/tmp/sb-w bs=1M count=8 conv=fsync 2>/dev/null; sync"));
        QTRY_VERIFY_WITH_TIMEOUT(st->history().sampleCount() >= 3, 30000);
        const qint64 writtenBefore = st->history().latest()->blockWriteBytes.value_or(0);
        // Restarted behind Sandbar's back, as `docker restart` does.
        QProcess docker;
        docker.start(QStringLiteral("docker"), {QStringLiteral("-H"), dockerHost(), QStringLiteral("restart"),
                                                QStringLiteral("-t"), QStringLiteral("1"), s->id});
        QVERIFY2(docker.waitForFinished(60000) && docker.exitCode() == 0, docker.readAllStandardError().constData());
        const int n = st->history().sampleCount();
        QTRY_VERIFY_WITH_TIMEOUT(st->history().sampleCount() >= n + 3, 30000);
        for (Metric m : {Metric::DiskRead, Metric::DiskWrite, Metric::NetworkRx, Metric::NetworkTx}) {
            for (const auto &pt : st->history().points({m}, Window::OneMinute))
                QVERIFY2(pt.min >= 0, qPrintable(QStringLiteral("negative rate %1").arg(pt.min)));
        }
        // Where the engine counted writes before the restart, the reset began a segment.
        if (writtenBefore > 0 && st->history().latest()->blockWriteBytes.value_or(0) < writtenBefore)
            QVERIFY(!st->history().segmentStarts().empty());
    }

    void local()
    {
        const local::LocalEnvironment env = local::LocalEnvironment::detect();
        SANDBAR_REQUIRE(env.unavailableReason().isEmpty(), env.unavailableReason());
        Account a;
        a.name = QStringLiteral("l");
        a.provider = QStringLiteral("local");
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { m_accounts->add(a, {}, cb); }));
        burnAndHog(a.name, {});
    }

    // Traffic on the sandbox's own loopback shows as receive and send rates in the history.
    void localNetworkRates()
    {
        const local::LocalEnvironment env = local::LocalEnvironment::detect();
        SANDBAR_REQUIRE(env.unavailableReason().isEmpty(), env.unavailableReason());
        SANDBAR_REQUIRE(QFile::exists(QStringLiteral("/usr/bin/bash")), QStringLiteral("bash is needed for /dev/udp"));
        auto s = create(QStringLiteral("l"), CreateSpec{});
        QVERIFY_RESULT(s);
        auto c = watch(s->ref(), 300);
        SessionStats *st = c->find(s->ref());
        QTRY_VERIFY_WITH_TIMEOUT(st->history().sampleCount() >= 2, 30000);
        // 2,000 datagrams of 1,000 bytes to a closed port: each crosses lo, sent and received.
        QVERIFY_RESULT(exec(QStringLiteral("l"), s->id,
                            QStringLiteral("exec bash -c 'for i in $(seq 2000); do printf \"%1000s\" x "
                                           ">/dev/udp/127.0.0.1/9; done'")));
        QTRY_VERIFY_WITH_TIMEOUT(recentMax(st->history(), {Metric::NetworkRx}) > 10'000 &&
                                     recentMax(st->history(), {Metric::NetworkTx}) > 10'000,
                                 30000);
    }
};

QTEST_GUILESS_MAIN(TestCollectorEngines)
#include "tst_statscollector_engines.moc"
