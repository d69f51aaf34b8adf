// GPU readings reach a session's history the way the window gets them: the collector's GPU
// sampler (app/wiring's sampleSessionGpus) asks NVML for a session that runs on this machine
// (here the fake libnvidia-ml.so.1 and a fake /proc), matching the session's own processes
// by cgroup, and nvidia-smi through exec for one that runs elsewhere.

#include "RegistryFixture.h"
#include "metrics/GpuSource.h"
#include "metrics/StatsCollector.h"
#include "wiring/AppServices.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;
using namespace sandbar::metrics;
using namespace sandbar::test;

namespace {
void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(data);
}
} // namespace

class TestGpuSampling : public QObject
{
    Q_OBJECT
    QTemporaryDir m_proc;

    // A collector sampling one listed session every 100 ms, its GPUs read the window's way.
    static std::unique_ptr<StatsCollector> collectorWithGpus(SessionRegistry &registry, GpuSource &gpu,
                                                             const QString &ref)
    {
        CollectorOptions co;
        co.listPeriodMs = 100;
        auto c = std::make_unique<StatsCollector>(registry, co);
        c->setGpuSampler([&gpu](Provider *provider, const SessionInfo &session, QObject *context,
                                std::function<void(QList<GpuReading>)> done) {
            sampleSessionGpus(gpu, provider, session, context, std::move(done));
        });
        c->setListInterest({ref});
        return c;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(!qgetenv("SANDBAR_TEST_FAKE_NVML").isEmpty());
        qputenv("SANDBAR_FAKE_NVML_SCENARIO", "one"); // one H200; processes 4242 (1 GiB), 4343
    }

    void localSessionGetsNvmlReadingsWithItsOwnMemory()
    {
        RegistryFixture fx;
        QVERIFY_RESULT(fx.addAccount(QStringLiteral("a")));
        MemoryProvider *p = fx.provider(QStringLiteral("a"));
        p->offer(Capabilities(Capability::StatsCpu | Capability::StatsGpu));
        p->statsHook = [](const QString &, Callback<StatsSample> done) {
            StatsSample s;
            s.time = QDateTime::currentDateTimeUtc();
            s.cpuPercent = 12;
            done(s);
        };
        CreateSpec spec;
        spec.gpus = -1;
        auto made = await<SessionInfo>([&](Callback<SessionInfo> cb) { p->create(spec, cb); });
        QVERIFY_RESULT(made);
        // Process 4242 is the session's (its cgroup is sandbar-<id>), 4343 somebody else's.
        writeFile(m_proc.filePath(QStringLiteral("4242/cgroup")),
                  "0::/user.slice/sandbar-" + made->id.toLatin1() + "/agent\n");
        writeFile(m_proc.filePath(QStringLiteral("4343/cgroup")), "0::/user.slice/session-2.scope\n");
        p->hostMatch = [](const QString &id) { return HostProcessMatch{{}, QStringLiteral("sandbar-") + id}; };
        fx.registry->refresh();
        QTRY_VERIFY(!fx.registry->sessions().isEmpty());

        GpuSourceOptions o;
        o.nvmlLibrary = qEnvironmentVariable("SANDBAR_TEST_FAKE_NVML");
        o.procRoot = m_proc.path();
        GpuSource gpu(o);
        auto c = collectorWithGpus(*fx.registry, gpu, made->ref());
        SessionStats *st = c->find(made->ref());
        QVERIFY(st);
        QTRY_VERIFY_WITH_TIMEOUT(st->history().has({Metric::GpuSessionMemory, 0}), 10000);
        QCOMPARE(st->history().last({Metric::GpuUtilization, 0})->avg, 37.0f);
        QCOMPARE(st->history().last({Metric::GpuSessionMemory, 0})->avg, float(qint64(1) << 30));
        QCOMPARE(st->history().last({Metric::GpuMemory, 0})->avg, float(qint64(20) << 30));
        const GpuReading &g = st->history().latest()->gpus.first();
        QCOMPARE(g.uuid, QStringLiteral("GPU-11111111-2222-3333-4444-555555555555"));
        QCOMPARE(g.name, QStringLiteral("NVIDIA H200"));
        QVERIFY(g.powerWatts && qAbs(*g.powerWatts - 123.456) < 0.01);
        QVERIFY(g.temperatureC && *g.temperatureC == 41);
        QCOMPARE(st->history().last({Metric::Cpu})->avg, 12.0f); // the provider's own figures stay
        (void)await<void>([&](Callback<void> cb) { p->remove(made->id, cb); });
    }

    // A session elsewhere (no host match) is asked through exec; a provider without exec
    // leaves the sample as it was, GPU-less, and sampling goes on.
    void remoteSessionWithoutExecKeepsItsSample()
    {
        RegistryFixture fx;
        QVERIFY_RESULT(fx.addAccount(QStringLiteral("r")));
        MemoryProvider *p = fx.provider(QStringLiteral("r"));
        int calls = 0;
        p->offer(Capabilities(Capability::StatsCpu));
        p->statsHook = [&calls](const QString &, Callback<StatsSample> done) {
            ++calls;
            StatsSample s;
            s.time = QDateTime::currentDateTimeUtc();
            s.cpuPercent = 5;
            done(s);
        };
        CreateSpec spec;
        spec.gpus = 1;
        auto made = await<SessionInfo>([&](Callback<SessionInfo> cb) { p->create(spec, cb); });
        QVERIFY_RESULT(made);
        fx.registry->refresh();
        QTRY_VERIFY(!fx.registry->sessions().isEmpty());
        GpuSourceOptions o;
        o.nvmlLibrary = qEnvironmentVariable("SANDBAR_TEST_FAKE_NVML");
        GpuSource gpu(o);
        auto c = collectorWithGpus(*fx.registry, gpu, made->ref());
        SessionStats *st = c->find(made->ref());
        QTRY_VERIFY_WITH_TIMEOUT(st->history().sampleCount() >= 3, 10000);
        QVERIFY(!st->history().has({Metric::GpuUtilization, 0})); // NVML is not asked for it
        QVERIFY(st->history().latest()->gpus.isEmpty());
        QCOMPARE(st->state(), SessionStats::State::Polling);
    }
};

QTEST_GUILESS_MAIN(TestGpuSampling)
#include "tst_gpusampling.moc"
