// GpuSource: NVML readings for local sessions (the fake libnvidia-ml.so.1 and a fake proc
// tree) and nvidia-smi through the exec facet (a scripted provider).
#include "MemoryProvider.h"
#include "TestSupport.h"
#include "metrics/GpuSource.h"
#include "providers/Provider.h"

#include <QDir>
#include <QFile>
#include <QPointer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <limits>

using namespace sandbar;
using namespace sandbar::metrics;
using namespace sandbar::test;

namespace {
constexpr qint64 MiB = 1024 * 1024;
constexpr qint64 GiB = 1024 * MiB;
const QString kContainer = QStringLiteral("4f1c2b3a5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081");
const QString kH200 = QStringLiteral("GPU-11111111-2222-3333-4444-555555555555");

// What one exec answers: output, then an exit code or an error; emitted inside start() when
// `synchronous`, to prove the source never calls back from within its own call.
struct Script {
    QByteArray out, err;
    std::optional<Result<int>> result = Result<int>(0);
    bool synchronous = false;
    bool never = false; // hangs until cancelled
};

class ScriptedExec final : public ExecJob
{
public:
    ScriptedExec(Script s, int *cancels)
        : m_s(std::move(s))
        , m_cancels(cancels)
    {
    }
    void start() override
    {
        if (m_s.never)
            return;
        if (m_s.synchronous)
            return play();
        QTimer::singleShot(1, this, [this] { play(); });
    }
    void cancel() override
    {
        ++*m_cancels;
        Q_EMIT finished(Result<int>(makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"))));
    }

private:
    void play()
    {
        if (!m_s.out.isEmpty())
            Q_EMIT stdoutData(m_s.out);
        if (!m_s.err.isEmpty())
            Q_EMIT stderrData(m_s.err);
        Q_EMIT finished(*m_s.result);
    }
    Script m_s;
    int *m_cancels;
};

ProviderDescriptor scriptedDescriptor()
{
    ProviderDescriptor d;
    d.id = QStringLiteral("scripted");
    d.capabilities = Capability::Exec;
    return d;
}

// Only exec does anything; it records the argv and plays the script.
class ScriptedProvider final : public MemoryProvider
{
public:
    ScriptedProvider()
        : MemoryProvider(scriptedDescriptor(), QStringLiteral("acct"))
    {
        execHook = [this](const QString &id, const ExecRequest &request) -> std::unique_ptr<ExecJob> {
            ++execs;
            lastSession = id;
            lastArgv = request.argv;
            return std::make_unique<ScriptedExec>(script, &cancels);
        };
    }

    Script script;
    int execs = 0;
    int cancels = 0;
    QString lastSession;
    QStringList lastArgv;
};

struct Answer {
    std::optional<Result<QList<GpuReading>>> result;
};

void sample(GpuSource &src, Provider *p, const QString &id, QObject *ctx, Answer &a)
{
    src.sampleViaExec(p, id, ctx, [&a](Result<QList<GpuReading>> r) { a.result.emplace(std::move(r)); });
}

void writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
}
} // namespace

class TestGpuSource : public QObject
{
    Q_OBJECT
    QTemporaryDir m_proc;

    GpuSourceOptions localOptions(const QString &library = QString::fromLocal8Bit(qgetenv("SANDBAR_TEST_FAKE_NVML")))
    {
        GpuSourceOptions o;
        o.nvmlLibrary = library;
        o.procRoot = m_proc.path();
        o.nvmlMaxAgeMs = 0;
        return o;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(!qgetenv("SANDBAR_TEST_FAKE_NVML").isEmpty());
        QVERIFY(m_proc.isValid());
        // The fake's processes: 4242 in our container, 4343 a host process, 1000.. nobody's.
        writeFile(m_proc.filePath(QStringLiteral("4242/cgroup")),
                  "0::/system.slice/docker-" + kContainer.toLatin1() + ".scope\n");
        writeFile(m_proc.filePath(QStringLiteral("4343/cgroup")), "0::/user.slice/user-1000.slice/session-2.scope\n");
        writeFile(m_proc.filePath(QStringLiteral("5151/cgroup")), "0::/app.slice/sandbar-s1/agent\n");
    }

    void conversion()
    {
        gpu::DeviceInfo d;
        d.index = 3;
        d.uuid = "GPU-x";
        d.name = "NVIDIA ünï";
        d.mig = true;
        d.memoryUsedBytes = ~0ULL; // clamped, not negative
        d.memoryTotalBytes = 80 * std::uint64_t(GiB);
        d.powerWatts = 71.5;
        d.processes = {{7, std::nullopt}, {8, 1024}};
        const GpuReading r = toGpuReading(d);
        QCOMPARE(r.index, 3);
        QCOMPARE(r.uuid, QStringLiteral("GPU-x"));
        QCOMPARE(r.name, QString::fromUtf8("NVIDIA ünï"));
        QVERIFY(r.mig);
        QCOMPARE(*r.memoryUsedBytes, std::numeric_limits<qint64>::max());
        QCOMPARE(*r.memoryTotalBytes, 80 * GiB);
        QCOMPARE(*r.powerWatts, 71.5);
        QVERIFY(!r.utilizationPercent && !r.temperatureC && !r.powerLimitWatts && !r.sessionMemoryBytes);
        QCOMPARE(r.processes.size(), 2);
        QCOMPARE(r.processes[0].pid, 7);
        QVERIFY(!r.processes[0].usedMemoryBytes);
        QCOMPARE(*r.processes[1].usedMemoryBytes, 1024);
    }

    void selection()
    {
        gpu::DeviceInfo g0;
        g0.index = 0;
        g0.uuid = "GPU-aaa";
        gpu::DeviceInfo m;
        m.index = 0;
        m.migIndex = 1;
        m.uuid = "MIG-bbb";
        m.parentUuid = "GPU-aaa";
        QVERIFY(gpuSelected(g0, {}));
        QVERIFY(gpuSelected(g0, {QStringLiteral("gpu-AAA")}));
        QVERIFY(gpuSelected(g0, {QStringLiteral("0")}));
        QVERIFY(!gpuSelected(g0, {QStringLiteral("1")}));
        QVERIFY(!gpuSelected(g0, {QStringLiteral("MIG-bbb")}));
        QVERIFY(gpuSelected(m, {QStringLiteral("MIG-bbb")}));
        QVERIFY(gpuSelected(m, {QStringLiteral("GPU-aaa")})); // the whole GPU brings its slices
        QVERIFY(!gpuSelected(m, {QStringLiteral("0")}));      // an index is the GPU alone
        QVERIFY(!gpuSelected(m, {QString()}));
    }

    void localReadingsMatchTheSession()
    {
        qputenv("SANDBAR_FAKE_NVML_SCENARIO", "one");
        GpuSource src(localOptions());
        auto r = src.localReadings({kH200}, SessionCgroupMatch{kContainer, {}});
        QVERIFY_RESULT(r);
        QCOMPARE(r->size(), 1);
        const GpuReading &g = r->first();
        QCOMPARE(g.uuid, kH200);
        QCOMPARE(g.name, QStringLiteral("NVIDIA H200"));
        QCOMPARE(*g.utilizationPercent, 37.0);
        QCOMPARE(*g.memoryUsedBytes, 20 * GiB);
        QCOMPARE(*g.powerLimitWatts, 700.0);
        QCOMPARE(g.processes.size(), 2);                            // the device's, whoever runs them
        QCOMPARE(g.sessionMemoryBytes, std::optional<qint64>(GiB)); // 4242 only

        // Another session's GPU list: nothing of ours.
        auto other = src.localReadings({QStringLiteral("GPU-other")}, SessionCgroupMatch{kContainer, {}});
        QVERIFY_RESULT(other);
        QVERIFY(other->isEmpty());
        // By index, and a Local session by its cgroup leaf (no process of its on the GPU).
        auto byIndex = src.localReadings({QStringLiteral("0")}, SessionCgroupMatch{{}, QStringLiteral("sandbar-s1")});
        QVERIFY_RESULT(byIndex);
        QCOMPARE(byIndex->size(), 1);
        QCOMPARE(byIndex->first().sessionMemoryBytes, std::optional<qint64>(0));
        // No match given: the session's share is unknown.
        auto noMatch = src.localReadings({}, {});
        QVERIFY_RESULT(noMatch);
        QVERIFY(!noMatch->first().sessionMemoryBytes);
    }

    void localReadingsUnknownShares()
    {
        qputenv("SANDBAR_FAKE_NVML_SCENARIO", "usedna"); // 4242's memory not available
        GpuSource src(localOptions());
        auto r = src.localReadings({}, SessionCgroupMatch{kContainer, {}});
        QVERIFY_RESULT(r);
        QVERIFY(!r->first().sessionMemoryBytes);
        qputenv("SANDBAR_FAKE_NVML_SCENARIO", "nopermission"); // no process list
        GpuSource src2(localOptions());
        auto r2 = src2.localReadings({}, SessionCgroupMatch{kContainer, {}});
        QVERIFY_RESULT(r2);
        QVERIFY(!r2->first().sessionMemoryBytes);
        QVERIFY(r2->first().processes.isEmpty());
    }

    void localMigSession()
    {
        qputenv("SANDBAR_FAKE_NVML_SCENARIO", "mig");
        GpuSource src(localOptions());
        auto r = src.localReadings({QStringLiteral("MIG-aaaaaaaa-0000-0000-0000-000000000000")},
                                   SessionCgroupMatch{{}, QStringLiteral("sandbar-s1")});
        QVERIFY_RESULT(r);
        QCOMPARE(r->size(), 1);
        QVERIFY(r->first().mig);
        QVERIFY(!r->first().utilizationPercent);
        QCOMPARE(r->first().sessionMemoryBytes, std::optional<qint64>(90 * MiB)); // 5151 is sandbar-s1's
        auto whole = src.localReadings({QStringLiteral("GPU-a100a100-0000-0000-0000-000000000000")}, {});
        QVERIFY_RESULT(whole);
        QCOMPARE(whole->size(), 3); // the GPU and its two MIG devices
    }

    void noDriverIsOneCheapError()
    {
        GpuSource src(localOptions(QStringLiteral("/nonexistent/libnvidia-ml.so.1")));
        QElapsedTimer t;
        t.start();
        for (int i = 0; i < 1000; ++i) {
            auto r = src.localReadings({}, {});
            QVERIFY(!r);
            QCOMPARE(r.code(), ErrorCode::Unavailable);
            QCOMPARE(r.message(), QStringLiteral("no NVIDIA driver"));
        }
        QVERIFY2(t.elapsed() < 2000, "a missing driver must cost nothing per sample");

        qputenv("SANDBAR_FAKE_NVML_SCENARIO", "initfail");
        GpuSource src2(localOptions());
        auto r = src2.localReadings({}, {});
        QVERIFY(!r);
        QCOMPARE(r.message(), QStringLiteral("no NVIDIA driver"));
    }

    void sharedSnapshot()
    {
        qputenv("SANDBAR_FAKE_NVML_SCENARIO", "one");
        GpuSourceOptions o = localOptions();
        o.nvmlMaxAgeMs = 60000;
        GpuSource src(o);
        auto a = src.localReadings({}, {});
        qputenv("SANDBAR_FAKE_NVML_SCENARIO", "eight"); // only a new nvmlInit would see it
        auto b = src.localReadings({}, {});
        QVERIFY_RESULT(a);
        QVERIFY_RESULT(b);
        QCOMPARE(a->size(), 1);
        QCOMPARE(b->size(), 1);
    }

    void execParsesNvidiaSmi()
    {
        ScriptedProvider p;
        p.script.out = "0, GPU-1, NVIDIA L4, 55, 20, 1024, 23034, 48, 35.50, 72.00, [N/A]\n"
                       "1, GPU-2, NVIDIA L4, [N/A], [N/A], 0, 23034, 40, 16.00, 72.00, [N/A]\n";
        GpuSource src;
        QObject ctx;
        Answer a;
        sample(src, &p, QStringLiteral("sess"), &ctx, a);
        QVERIFY(QTest::qWaitFor([&] { return a.result.has_value(); }, 5000));
        QCOMPARE(p.lastSession, QStringLiteral("sess"));
        QCOMPARE(p.lastArgv.value(0), QStringLiteral("nvidia-smi"));
        QVERIFY(p.lastArgv.value(1).startsWith(QLatin1String("--query-gpu=index,uuid,name,")));
        QCOMPARE(p.lastArgv.value(2), QStringLiteral("--format=csv,noheader,nounits"));
        QVERIFY_RESULT(*a.result);
        const QList<GpuReading> &g = a.result->value();
        QCOMPARE(g.size(), 2);
        QCOMPARE(g[0].index, 0);
        QCOMPARE(*g[0].utilizationPercent, 55.0);
        QCOMPARE(*g[0].memoryUsedBytes, 1024 * MiB);
        QCOMPARE(*g[0].powerWatts, 35.5);
        QCOMPARE(*g[0].powerLimitWatts, 72.0);
        QVERIFY(!g[1].utilizationPercent);
        QVERIFY(!g[0].sessionMemoryBytes);
    }

    void execNeverCallsBackSynchronously()
    {
        ScriptedProvider p;
        p.script.synchronous = true;
        p.script.out = "0, GPU-1, X, 1, 1, 1, 1\n";
        GpuSource src;
        QObject ctx;
        Answer a;
        sample(src, &p, QStringLiteral("s"), &ctx, a);
        QVERIFY(!a.result.has_value());
        QVERIFY(QTest::qWaitFor([&] { return a.result.has_value(); }, 5000));
        QVERIFY_RESULT(*a.result);
        QCOMPARE(a.result->value().size(), 1);
    }

    void missingNvidiaSmiOnce_data()
    {
        QTest::addColumn<QByteArray>("err");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("execError");
        QTest::newRow("exit 127") << QByteArray("sh: nvidia-smi: not found\n") << 127 << QString();
        QTest::newRow("runc") << QByteArray(
                                     "OCI runtime exec failed: exec failed: unable to start container process: exec: "
                                     "\"nvidia-smi\": executable file not found in $PATH: unknown\r\n")
                              << 126 << QString();
        QTest::newRow("provider error") << QByteArray() << 0
                                        << QStringLiteral("exec: \"nvidia-smi\": executable file not found in $PATH");
    }

    void missingNvidiaSmiOnce()
    {
        QFETCH(QByteArray, err);
        QFETCH(int, exitCode);
        QFETCH(QString, execError);
        ScriptedProvider p;
        p.script.err = err;
        p.script.result =
            execError.isEmpty() ? Result<int>(exitCode) : Result<int>(makeError(ErrorCode::Unavailable, execError));
        GpuSource src;
        QObject ctx;
        Answer a;
        sample(src, &p, QStringLiteral("s"), &ctx, a);
        QVERIFY(QTest::qWaitFor([&] { return a.result.has_value(); }, 5000));
        QVERIFY(!*a.result);
        QCOMPARE(a.result->code(), ErrorCode::NotFound);
        QVERIFY2(a.result->message().startsWith(QLatin1String("nvidia-smi is not installed in this session")),
                 qPrintable(a.result->message()));
        // The second time: the same error, without running anything, and still not synchronous.
        Answer b;
        sample(src, &p, QStringLiteral("s"), &ctx, b);
        QVERIFY(!b.result.has_value());
        QVERIFY(QTest::qWaitFor([&] { return b.result.has_value(); }, 5000));
        QCOMPARE(b.result->message(), a.result->message());
        QCOMPARE(p.execs, 1);
        // Another session still runs it; a forgotten one runs it again.
        Answer c;
        sample(src, &p, QStringLiteral("other"), &ctx, c);
        QVERIFY(QTest::qWaitFor([&] { return c.result.has_value(); }, 5000));
        QCOMPARE(p.execs, 2);
        src.forgetSession(&p, QStringLiteral("s"));
        Answer d;
        sample(src, &p, QStringLiteral("s"), &ctx, d);
        QVERIFY(QTest::qWaitFor([&] { return d.result.has_value(); }, 5000));
        QCOMPARE(p.execs, 3);
    }

    void execFailures_data()
    {
        QTest::addColumn<QByteArray>("out");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("gpus");
        QTest::newRow("driver gone") << QByteArray("NVIDIA-SMI has failed because it couldn't communicate with the "
                                                   "NVIDIA driver.\n")
                                     << 9 << int(ErrorCode::Unavailable)
                                     << QStringLiteral("nvidia-smi: NVIDIA-SMI has failed because it couldn't "
                                                       "communicate with the NVIDIA driver.")
                                     << -1;
        QTest::newRow("no GPU given") << QByteArray("No devices were found\n") << 6 << 0 << QString() << 0;
        QTest::newRow("other exit") << QByteArray("Field \"mig.mode.current\" is not a valid field to query.\n") << 2
                                    << int(ErrorCode::Unavailable)
                                    << QStringLiteral("nvidia-smi failed with exit code 2: Field \"mig.mode.current\" "
                                                      "is not a valid field to query.")
                                    << -1;
        QTest::newRow("garbage, exit 0") << QByteArray("\x01\x02garbage\n") << 0 << int(ErrorCode::Unavailable)
                                         << QStringLiteral("nvidia-smi printed no GPU rows Sandbar understands") << -1;
        QTest::newRow("nothing, exit 0") << QByteArray() << 0 << 0 << QString() << 0;
    }

    void execFailures()
    {
        QFETCH(QByteArray, out);
        QFETCH(int, exitCode);
        QFETCH(int, code);
        QFETCH(QString, message);
        QFETCH(int, gpus);
        ScriptedProvider p;
        p.script.out = out;
        p.script.result = Result<int>(exitCode);
        GpuSource src;
        QObject ctx;
        Answer a;
        sample(src, &p, QStringLiteral("s"), &ctx, a);
        QVERIFY(QTest::qWaitFor([&] { return a.result.has_value(); }, 5000));
        if (gpus >= 0) {
            QVERIFY_RESULT(*a.result);
            QCOMPARE(a.result->value().size(), gpus);
        } else {
            QVERIFY(!*a.result);
            QCOMPARE(int(a.result->code()), code);
            QCOMPARE(a.result->message(), message);
        }
        // Not remembered as missing: the next sample runs nvidia-smi again.
        Answer b;
        sample(src, &p, QStringLiteral("s"), &ctx, b);
        QVERIFY(QTest::qWaitFor([&] { return b.result.has_value(); }, 5000));
        QCOMPARE(p.execs, 2);
    }

    void execTimeout()
    {
        ScriptedProvider p;
        p.script.never = true;
        GpuSourceOptions o;
        o.execTimeoutMs = 200;
        GpuSource src(o);
        QObject ctx;
        Answer a;
        sample(src, &p, QStringLiteral("s"), &ctx, a);
        QVERIFY(QTest::qWaitFor([&] { return a.result.has_value(); }, 5000));
        QVERIFY(!*a.result);
        QCOMPARE(a.result->code(), ErrorCode::Timeout);
        QCOMPARE(p.cancels, 1);
    }

    void contextGoneDropsTheAnswer()
    {
        ScriptedProvider p;
        p.script.out = "0, GPU-1, X\n";
        GpuSource src;
        Answer a;
        auto ctx = std::make_unique<QObject>();
        QPointer<QObject> job;
        sample(src, &p, QStringLiteral("s"), ctx.get(), a);
        QCOMPARE(ctx->children().size(), 1); // the job lives with its context
        job = ctx->children().first();
        ctx.reset();
        QVERIFY(job.isNull());
        // The marker: the same script sampled afterwards with a live context answers after
        // the same delay, so by then the dropped job would have answered too.
        QObject live;
        Answer marker;
        sample(src, &p, QStringLiteral("s"), &live, marker);
        QVERIFY(QTest::qWaitFor([&] { return marker.result.has_value(); }, 10000));
        QVERIFY(!a.result.has_value());

        // And a source that goes away before the answer: the caller still hears, once.
        auto src2 = std::make_unique<GpuSource>();
        QObject ctx2;
        Answer b;
        sample(*src2, &p, QStringLiteral("s"), &ctx2, b);
        src2.reset();
        QVERIFY(QTest::qWaitFor([&] { return b.result.has_value(); }, 5000));
        QCOMPARE(b.result->code(), ErrorCode::Cancelled);
    }

    void outputCapped()
    {
        ScriptedProvider p;
        p.script.out = QByteArray(2 * 1024 * 1024, 'x');
        GpuSource src;
        QObject ctx;
        Answer a;
        sample(src, &p, QStringLiteral("s"), &ctx, a);
        QVERIFY(QTest::qWaitFor([&] { return a.result.has_value(); }, 5000));
        QVERIFY(!*a.result);
        QCOMPARE(a.result->message(), QStringLiteral("nvidia-smi printed too much"));
    }

    void noProvider()
    {
        GpuSource src;
        QObject ctx;
        Answer a;
        sample(src, nullptr, QStringLiteral("s"), &ctx, a);
        QVERIFY(!a.result.has_value());
        QVERIFY(QTest::qWaitFor([&] { return a.result.has_value(); }, 5000));
        QCOMPARE(a.result->code(), ErrorCode::InvalidArgument);
    }
};

QTEST_GUILESS_MAIN(TestGpuSource)
#include "tst_gpu_source.moc"
