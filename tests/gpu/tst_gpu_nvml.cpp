// The NVML reader against a fake libnvidia-ml.so.1 (tests/gpu/fake_nvml.cpp), loaded through
// the same dlopen path the product uses, one scenario per test.
#include "metrics/gpu/NvmlReader.h"

#include <QTest>
#include <dlfcn.h>

using namespace sandbar::gpu;

namespace {
constexpr std::uint64_t MiB = 1024ULL * 1024ULL;
constexpr std::uint64_t GiB = 1024ULL * MiB;

QByteArray fakePath()
{
    return qgetenv("SANDBAR_TEST_FAKE_NVML");
}

NvmlOptions fakeOptions(std::chrono::milliseconds retry = std::chrono::seconds(60))
{
    NvmlOptions o;
    o.libraryPath = fakePath().toStdString();
    o.retryInterval = retry;
    return o;
}
} // namespace

class TestGpuNvml : public QObject
{
    Q_OBJECT
    void *m_fake = nullptr;
    int (*m_calls)(const char *) = nullptr;
    void (*m_reset)() = nullptr;

    int calls(const char *fn) const { return m_calls(fn); }
    void scenario(const char *name) { qputenv("SANDBAR_FAKE_NVML_SCENARIO", name); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!fakePath().isEmpty(), "SANDBAR_TEST_FAKE_NVML is not set (tests/gpu/CMakeLists.txt sets it)");
        QVERIFY2(fakePath().endsWith("/libnvidia-ml.so.1"), fakePath().constData());
        // The same file the reader opens: dlopen hands both the same copy, so its counters
        // are the reader's.
        m_fake = dlopen(fakePath().constData(), RTLD_NOW | RTLD_LOCAL);
        QVERIFY2(m_fake, dlerror());
        m_calls = reinterpret_cast<int (*)(const char *)>(dlsym(m_fake, "sandbarFakeNvmlCalls"));
        m_reset = reinterpret_cast<void (*)()>(dlsym(m_fake, "sandbarFakeNvmlReset"));
        QVERIFY(m_calls && m_reset);
    }
    void init() { m_reset(); }
    void cleanupTestCase()
    {
        if (m_fake)
            dlclose(m_fake);
    }

    void oneGpu()
    {
        scenario("one");
        {
            NvmlReader r(fakeOptions());
            QCOMPARE(calls("nvmlInit_v2"), 0); // nothing happens before the first sample
            const NvmlSnapshot s = r.sample();
            QCOMPARE(s.status, NvmlStatus::Ok);
            QVERIFY(s.statusChanged);
            QVERIFY(s.detail.empty());
            QCOMPARE(s.devices.size(), std::size_t(1));
            const DeviceInfo &d = s.devices[0];
            QCOMPARE(d.index, 0);
            QVERIFY(!d.migIndex);
            QVERIFY(!d.mig);
            QCOMPARE(d.uuid, std::string("GPU-11111111-2222-3333-4444-555555555555"));
            QCOMPARE(d.name, std::string("NVIDIA H200"));
            QCOMPARE(d.utilizationGpuPercent, std::optional<double>(37));
            QCOMPARE(d.utilizationMemoryPercent, std::optional<double>(12));
            // v2 (reserved memory apart) with the right struct version.
            QCOMPARE(d.memoryUsedBytes, std::optional<std::uint64_t>(20 * GiB));
            QCOMPARE(d.memoryTotalBytes, std::optional<std::uint64_t>(143771 * MiB));
            QCOMPARE(d.temperatureC, std::optional<double>(41));
            QCOMPARE(d.powerWatts, std::optional<double>(123.456));
            QCOMPARE(d.powerLimitWatts, std::optional<double>(700)); // enforced, not management
            QVERIFY(d.processesKnown);
            QCOMPARE(d.processes.size(), std::size_t(2));
            QCOMPARE(d.processes[0].pid, 4242u);
            QCOMPARE(d.processes[0].usedMemoryBytes, std::optional<std::uint64_t>(GiB));
            QCOMPARE(d.processes[1].pid, 4343u);
            QCOMPARE(d.processes[1].usedMemoryBytes, std::optional<std::uint64_t>(512 * MiB));
            QCOMPARE(calls("nvmlDeviceGetMemoryInfo"), 0);
            // Count first (INSUFFICIENT_SIZE), then the array.
            QCOMPARE(calls("nvmlDeviceGetComputeRunningProcesses_v3"), 2);

            const NvmlSnapshot again = r.sample();
            QVERIFY(!again.statusChanged);
            QCOMPARE(again.devices.size(), std::size_t(1));
            QCOMPARE(calls("nvmlInit_v2"), 1);
            QCOMPARE(r.loadAttempts(), 1);
            QCOMPARE(r.libraryPath(), fakePath().toStdString());
        }
        QCOMPARE(calls("nvmlShutdown"), 1);
    }

    void eightGpus()
    {
        scenario("eight");
        NvmlReader r(fakeOptions());
        const NvmlSnapshot s = r.sample();
        QCOMPARE(s.status, NvmlStatus::Ok);
        QCOMPARE(s.devices.size(), std::size_t(8));
        for (int i = 0; i < 8; ++i) {
            const DeviceInfo &d = s.devices[std::size_t(i)];
            QCOMPARE(d.index, i);
            QCOMPARE(d.uuid, "GPU-0000000" + std::to_string(i) + "-aaaa-bbbb-cccc-dddddddddddd");
            QCOMPARE(d.utilizationGpuPercent, std::optional<double>(i * 10));
            QCOMPARE(d.memoryUsedBytes, std::optional<std::uint64_t>(std::uint64_t(i) * GiB));
            QVERIFY(d.processesKnown);
            QVERIFY(d.processes.empty());
        }
        // An empty process list answers the count query with SUCCESS: one call per GPU.
        QCOMPARE(calls("nvmlDeviceGetComputeRunningProcesses_v3"), 8);
    }

    void migDevices()
    {
        scenario("mig");
        NvmlReader r(fakeOptions());
        const NvmlSnapshot s = r.sample();
        QCOMPARE(s.status, NvmlStatus::Ok);
        QCOMPARE(s.devices.size(), std::size_t(4)); // GPU 0, its two MIG devices, GPU 1
        const DeviceInfo &gpu0 = s.devices[0];
        QCOMPARE(gpu0.index, 0);
        QVERIFY(gpu0.mig);
        QVERIFY(!gpu0.migIndex);
        QVERIFY(!gpu0.utilizationGpuPercent);
        QVERIFY(!gpu0.utilizationMemoryPercent);
        QVERIFY(gpu0.memoryTotalBytes);
        QVERIFY(gpu0.temperatureC);
        QVERIFY(!gpu0.processesKnown); // NO_PERMISSION
        const DeviceInfo &m0 = s.devices[1];
        QCOMPARE(m0.index, 0);
        QCOMPARE(m0.migIndex, std::optional<int>(0));
        QVERIFY(m0.mig);
        QCOMPARE(m0.uuid, std::string("MIG-aaaaaaaa-0000-0000-0000-000000000000"));
        QCOMPARE(m0.parentUuid, gpu0.uuid);
        QCOMPARE(m0.name, std::string("NVIDIA A100-SXM4-40GB MIG 1g.5gb"));
        QVERIFY(!m0.utilizationGpuPercent);
        QVERIFY(!m0.temperatureC);
        QVERIFY(!m0.powerWatts);
        QVERIFY(!m0.powerLimitWatts);
        QCOMPARE(m0.memoryTotalBytes, std::optional<std::uint64_t>(4864 * MiB));
        QCOMPARE(m0.memoryUsedBytes, std::optional<std::uint64_t>(100 * MiB));
        QVERIFY(m0.processesKnown);
        QCOMPARE(m0.processes.size(), std::size_t(1));
        QCOMPARE(m0.processes[0].pid, 5151u);
        const DeviceInfo &m2 = s.devices[2];
        QCOMPARE(m2.migIndex, std::optional<int>(2)); // slot 1 is empty (NOT_FOUND): skipped
        QCOMPARE(m2.uuid, std::string("MIG-bbbbbbbb-0000-0000-0000-000000000000"));
        const DeviceInfo &gpu1 = s.devices[3];
        QCOMPARE(gpu1.index, 1);
        QVERIFY(!gpu1.mig); // MIG-capable, disabled
        QCOMPARE(gpu1.utilizationGpuPercent, std::optional<double>(37));
    }

    void notSupported()
    {
        scenario("notsupported");
        NvmlReader r(fakeOptions());
        const NvmlSnapshot s = r.sample();
        QCOMPARE(s.status, NvmlStatus::Ok);
        QCOMPARE(s.devices.size(), std::size_t(1));
        const DeviceInfo &d = s.devices[0];
        QCOMPARE(d.name, std::string("NVIDIA H200"));
        QVERIFY(!d.uuid.empty());
        QVERIFY(!d.utilizationGpuPercent && !d.utilizationMemoryPercent);
        QVERIFY(!d.memoryUsedBytes && !d.memoryTotalBytes);
        QVERIFY(!d.temperatureC && !d.powerWatts && !d.powerLimitWatts);
        QVERIFY(!d.processesKnown);
        QVERIFY(d.processes.empty());
        QVERIFY(!d.mig);
    }

    void noPermission()
    {
        scenario("nopermission");
        NvmlReader r(fakeOptions());
        const NvmlSnapshot s = r.sample();
        QCOMPARE(s.devices.size(), std::size_t(1));
        const DeviceInfo &d = s.devices[0];
        QVERIFY(!d.processesKnown);
        QVERIFY(d.processes.empty());
        QCOMPARE(d.powerLimitWatts, std::optional<double>(650)); // the management limit instead
        QCOMPARE(d.utilizationGpuPercent, std::optional<double>(37));
    }

    void gpuLost()
    {
        scenario("lost");
        NvmlReader r(fakeOptions());
        const NvmlSnapshot s = r.sample();
        QCOMPARE(s.status, NvmlStatus::Ok);
        QCOMPARE(s.devices.size(), std::size_t(2)); // GPU 2's handle is lost: not listed
        QCOMPARE(s.devices[0].uuid, std::string("GPU-11111111-2222-3333-4444-555555555555"));
        const DeviceInfo &d = s.devices[1];
        QCOMPARE(d.index, 1);
        QVERIFY(d.uuid.empty() && d.name.empty());
        QVERIFY(!d.utilizationGpuPercent && !d.memoryUsedBytes && !d.temperatureC && !d.powerWatts);
        QVERIFY(!d.processesKnown);
    }

    void processesGrowWhileListed()
    {
        scenario("growing");
        NvmlReader r(fakeOptions());
        const NvmlSnapshot s = r.sample();
        QCOMPARE(s.devices.size(), std::size_t(1));
        QVERIFY(s.devices[0].processesKnown);
        QCOMPARE(s.devices[0].processes.size(), std::size_t(11));
        QCOMPARE(s.devices[0].processes[10].pid, 1010u);
        QCOMPARE(s.devices[0].processes[10].usedMemoryBytes, std::optional<std::uint64_t>(11 * MiB));
        QCOMPARE(calls("nvmlDeviceGetComputeRunningProcesses_v3"), 3); // count, too small, fill
    }

    void memoryV1Fallback()
    {
        scenario("memv1");
        NvmlReader r(fakeOptions());
        const NvmlSnapshot s = r.sample();
        QCOMPARE(s.devices.size(), std::size_t(1));
        QCOMPARE(s.devices[0].memoryUsedBytes, std::optional<std::uint64_t>(20 * GiB + 512 * MiB));
        QCOMPARE(calls("nvmlDeviceGetMemoryInfo"), 1);
    }

    void processMemoryNotAvailable()
    {
        scenario("usedna");
        NvmlReader r(fakeOptions());
        const NvmlSnapshot s = r.sample();
        QCOMPARE(s.devices[0].processes.size(), std::size_t(2));
        QVERIFY(!s.devices[0].processes[0].usedMemoryBytes);
        QCOMPARE(s.devices[0].processes[1].usedMemoryBytes, std::optional<std::uint64_t>(512 * MiB));
    }

    void noProcesses()
    {
        scenario("noprocs");
        NvmlReader r(fakeOptions());
        const NvmlSnapshot s = r.sample();
        QVERIFY(s.devices[0].processesKnown);
        QVERIFY(s.devices[0].processes.empty());
        QCOMPARE(calls("nvmlDeviceGetComputeRunningProcesses_v3"), 1);
    }

    // DRIVER_NOT_LOADED: reported once, then answered from memory until the retry is due.
    void driverNotLoaded()
    {
        scenario("initfail");
        {
            NvmlReader r(fakeOptions(std::chrono::seconds(60)));
            const NvmlSnapshot first = r.sample();
            QCOMPARE(first.status, NvmlStatus::NoDriver);
            QVERIFY(first.statusChanged);
            QVERIFY2(first.detail.find("Driver Not Loaded") != std::string::npos, first.detail.c_str());
            QVERIFY(first.devices.empty());
            for (int i = 0; i < 100; ++i) {
                const NvmlSnapshot s = r.sample();
                QCOMPARE(s.status, NvmlStatus::NoDriver);
                QVERIFY(!s.statusChanged);
            }
            QCOMPARE(calls("nvmlInit_v2"), 1);
            QCOMPARE(r.initAttempts(), 1);
            QCOMPARE(r.loadAttempts(), 1);
        }
        QCOMPARE(calls("nvmlShutdown"), 0); // never initialised
        m_reset();
        {
            // With the retry due at once, each sample tries nvmlInit again, on the library
            // already loaded; once the driver is there, readings come and the change is news.
            NvmlReader r(fakeOptions(std::chrono::milliseconds(0)));
            QCOMPARE(r.sample().status, NvmlStatus::NoDriver);
            QCOMPARE(r.sample().status, NvmlStatus::NoDriver);
            QCOMPARE(calls("nvmlInit_v2"), 2);
            scenario("one");
            const NvmlSnapshot s = r.sample();
            QCOMPARE(s.status, NvmlStatus::Ok);
            QVERIFY(s.statusChanged);
            QCOMPARE(s.devices.size(), std::size_t(1));
            QCOMPARE(r.loadAttempts(), 1);
        }
    }

    void driverStopsAnswering()
    {
        scenario("countfail");
        NvmlReader r(fakeOptions(std::chrono::seconds(60)));
        const NvmlSnapshot s = r.sample();
        QCOMPARE(s.status, NvmlStatus::Failed);
        QVERIFY(s.statusChanged);
        QCOMPARE(calls("nvmlShutdown"), 1); // let go, to start over later
        for (int i = 0; i < 10; ++i)
            QCOMPARE(r.sample().status, NvmlStatus::Failed);
        QCOMPARE(calls("nvmlDeviceGetCount_v2"), 1);
        QCOMPARE(calls("nvmlInit_v2"), 1);
    }

    void missingLibrary()
    {
        NvmlOptions o;
        o.libraryPath = "/nonexistent/sandbar/libnvidia-ml.so.1";
        o.retryInterval = std::chrono::milliseconds(0); // even so: a missing library is not retried
        NvmlReader r(o);
        const NvmlSnapshot s = r.sample();
        QCOMPARE(s.status, NvmlStatus::NoLibrary);
        QVERIFY(s.statusChanged);
        QVERIFY2(s.detail.find("/nonexistent/sandbar/libnvidia-ml.so.1") != std::string::npos, s.detail.c_str());
        QCOMPARE(std::string(nvmlStatusText(s.status)), std::string("no NVIDIA driver"));
        for (int i = 0; i < 1000; ++i) {
            const NvmlSnapshot again = r.sample();
            QCOMPARE(again.status, NvmlStatus::NoLibrary);
            QVERIFY(!again.statusChanged);
        }
        QCOMPARE(r.loadAttempts(), 1);
        QCOMPARE(r.initAttempts(), 0);
    }

    void libraryWithoutNvml()
    {
        NvmlOptions o;
        o.libraryPath = "libm.so.6"; // loads, but has no nvmlInit_v2
        NvmlReader r(o);
        const NvmlSnapshot s = r.sample();
        QCOMPARE(s.status, NvmlStatus::Incompatible);
        QVERIFY(s.devices.empty());
        QCOMPARE(r.sample().status, NvmlStatus::Incompatible);
        QCOMPARE(r.loadAttempts(), 1);
    }

    void environmentOverride()
    {
        scenario("one");
        const QByteArray saved = qgetenv("SANDBAR_NVML_LIBRARY");
        qputenv("SANDBAR_NVML_LIBRARY", fakePath());
        NvmlReader r;
        saved.isNull() ? qunsetenv("SANDBAR_NVML_LIBRARY") : qputenv("SANDBAR_NVML_LIBRARY", saved);
        QCOMPARE(r.libraryPath(), fakePath().toStdString());
        QCOMPARE(r.sample().devices.size(), std::size_t(1));
        // Without either, the system's library by its SONAME.
        qunsetenv("SANDBAR_NVML_LIBRARY");
        QCOMPARE(NvmlReader().libraryPath(), std::string("libnvidia-ml.so.1"));
        if (!saved.isNull())
            qputenv("SANDBAR_NVML_LIBRARY", saved);
    }
};

QTEST_GUILESS_MAIN(TestGpuNvml)
#include "tst_gpu_nvml.moc"
