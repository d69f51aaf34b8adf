// The nvidia-smi --query-gpu parser (pure), on the shapes real drivers print, and the
// /proc/PID/cgroup matcher on a fake proc tree.
#include "metrics/gpu/NvidiaSmi.h"
#include "metrics/gpu/ProcCgroup.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar::gpu;

namespace {
constexpr std::uint64_t MiB = 1024ULL * 1024ULL;

// One expected row: -1 / negative doubles mean "absent".
struct Row {
    int index;
    const char *uuid;
    const char *name;
    double util, utilMem;
    double memUsedMiB, memTotalMiB;
    double temp, power, limit;
    bool mig;
};

QString describe(const DeviceInfo &d)
{
    auto o = [](const auto &v) { return v ? QString::number(double(*v), 'f', 2) : QStringLiteral("-"); };
    return QStringLiteral("%1 %2 '%3' util=%4/%5 mem=%6/%7 temp=%8 power=%9/%10 mig=%11")
        .arg(d.index)
        .arg(QString::fromStdString(d.uuid), QString::fromStdString(d.name), o(d.utilizationGpuPercent),
             o(d.utilizationMemoryPercent), o(d.memoryUsedBytes), o(d.memoryTotalBytes), o(d.temperatureC),
             o(d.powerWatts))
        .arg(o(d.powerLimitWatts))
        .arg(d.mig);
}

QString describe(const Row &r)
{
    auto o = [](double v) { return v < 0 ? QStringLiteral("-") : QString::number(v, 'f', 2); };
    auto b = [](double mib) { return mib < 0 ? QStringLiteral("-") : QString::number(mib * double(MiB), 'f', 2); };
    return QStringLiteral("%1 %2 '%3' util=%4/%5 mem=%6/%7 temp=%8 power=%9/%10 mig=%11")
        .arg(r.index)
        .arg(QLatin1String(r.uuid), QLatin1String(r.name), o(r.util), o(r.utilMem), b(r.memUsedMiB), b(r.memTotalMiB),
             o(r.temp), o(r.power))
        .arg(o(r.limit))
        .arg(r.mig);
}

void writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
}

const char kId[] = "4f1c2b3a5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081";
} // namespace

Q_DECLARE_METATYPE(QList<Row>)

class TestGpuSmi : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void argv()
    {
        const std::vector<std::string> a = nvidiaSmiArgv();
        QCOMPARE(a.size(), std::size_t(3));
        QCOMPARE(a[0], std::string("nvidia-smi"));
        QCOMPARE(a[1], std::string("--query-gpu=index,uuid,name,utilization.gpu,utilization.memory,memory.used,"
                                   "memory.total,temperature.gpu,power.draw,power.limit,mig.mode.current"));
        QCOMPARE(a[2], std::string("--format=csv,noheader,nounits"));
    }

    void parse_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QList<Row>>("rows");
        QTest::addColumn<int>("skipped");
        QTest::addColumn<QString>("failure");

        QTest::newRow("one GPU") << QByteArray(
                                        "0, GPU-0bd4f3e2-8c8a-4b7e-9f1c-6a9f1d2e3c4b, NVIDIA H200, 37, 12, 20480, "
                                        "143771, 41, 123.45, 700.00, [N/A]\n")
                                 << QList<Row>{{0, "GPU-0bd4f3e2-8c8a-4b7e-9f1c-6a9f1d2e3c4b", "NVIDIA H200", 37, 12,
                                                20480, 143771, 41, 123.45, 700, false}}
                                 << 0 << QString();
        QByteArray eight;
        QList<Row> eightRows;
        static const char *const uuids[] = {
            "GPU-00000000-aaaa-bbbb-cccc-000000000000", "GPU-00000001-aaaa-bbbb-cccc-000000000001",
            "GPU-00000002-aaaa-bbbb-cccc-000000000002", "GPU-00000003-aaaa-bbbb-cccc-000000000003",
            "GPU-00000004-aaaa-bbbb-cccc-000000000004", "GPU-00000005-aaaa-bbbb-cccc-000000000005",
            "GPU-00000006-aaaa-bbbb-cccc-000000000006", "GPU-00000007-aaaa-bbbb-cccc-000000000007"};
        for (int i = 0; i < 8; ++i) {
            eight += QByteArray::number(i) + ", " + uuids[i] + ", NVIDIA H100 80GB HBM3, " +
                     QByteArray::number(i * 12) + ", " + QByteArray::number(i) + ", " + QByteArray::number(i * 1000) +
                     ", 81559, " + QByteArray::number(30 + i) + ", 69.87, 700.00, Disabled\n";
            eightRows << Row{i,
                             uuids[i],
                             "NVIDIA H100 80GB HBM3",
                             double(i * 12),
                             double(i),
                             double(i * 1000),
                             81559,
                             double(30 + i),
                             69.87,
                             700,
                             false};
        }
        QTest::newRow("eight GPUs") << eight << eightRows << 0 << QString();

        // MIG mode: utilisation reads [N/A]; nvidia-smi -L style lines around it are not rows.
        QTest::newRow("MIG") << QByteArray("0, GPU-a100a100-0000-0000-0000-000000000000, NVIDIA A100-SXM4-40GB, [N/A], "
                                           "[N/A], 125, 40960, 33, 52.10, 400.00, Enabled\n"
                                           "  MIG 1g.5gb      Device  0: (UUID: "
                                           "MIG-aaaaaaaa-0000-0000-0000-000000000000)\n"
                                           "1, GPU-a100a100-0000-0000-0000-000000000001, NVIDIA A100-SXM4-40GB, 3, 0, "
                                           "0, 40960, 30, 50.00, 400.00, Disabled\n")
                             << QList<Row>{{0, "GPU-a100a100-0000-0000-0000-000000000000", "NVIDIA A100-SXM4-40GB", -1,
                                            -1, 125, 40960, 33, 52.1, 400, true},
                                           {1, "GPU-a100a100-0000-0000-0000-000000000001", "NVIDIA A100-SXM4-40GB", 3,
                                            0, 0, 40960, 30, 50, 400, false}}
                             << 1 << QString();
        // A MIG-enabled GPU that still reports utilisation: dropped (it is the whole GPU's).
        QTest::newRow("MIG enabled, utilisation given")
            << QByteArray("0, GPU-a, A100, 50, 10, 1, 2, 3, 4, 5, Enabled\n")
            << QList<Row>{{0, "GPU-a", "A100", -1, -1, 1, 2, 3, 4, 5, true}} << 0 << QString();

        QTest::newRow("[N/A] fields")
            << QByteArray("0, GPU-1, Tesla T4, [N/A], [N/A], 100, 15360, [N/A], [N/A], [N/A], [N/A]\n")
            << QList<Row>{{0, "GPU-1", "Tesla T4", -1, -1, 100, 15360, -1, -1, -1, false}} << 0 << QString();
        QTest::newRow("bare N/A and [Not Supported]")
            << QByteArray("0, GPU-1, GeForce GTX 1080, N/A, [Not Supported], [Not Supported], 8192, 60, [Not "
                          "Supported], [Insufficient Permissions], N/A\n")
            << QList<Row>{{0, "GPU-1", "GeForce GTX 1080", -1, -1, -1, 8192, 60, -1, -1, false}} << 0 << QString();
        QTest::newRow("missing columns (older query)")
            << QByteArray("0, GPU-1, NVIDIA L4, 5, 1, 300, 23034, 45, 16.20\n")
            << QList<Row>{{0, "GPU-1", "NVIDIA L4", 5, 1, 300, 23034, 45, 16.2, -1, false}} << 0 << QString();
        QTest::newRow("index and uuid only")
            << QByteArray("3, GPU-3\n") << QList<Row>{{3, "GPU-3", "", -1, -1, -1, -1, -1, -1, -1, false}} << 0
            << QString();
        QTest::newRow("extra lines: warnings, blank, CRLF")
            << QByteArray("\r\nWARNING: infoROM is corrupted at gpu 0000:3B:00.0\r\n\r\n"
                          "0, GPU-1, Tesla V100-SXM2-16GB, 0, 0, 0, 16160, 35, 40.50, 300.00, [N/A]\r\n\r\n")
            << QList<Row>{{0, "GPU-1", "Tesla V100-SXM2-16GB", 0, 0, 0, 16160, 35, 40.5, 300, false}} << 1 << QString();
        QTest::newRow("header and units tolerated")
            << QByteArray("index, uuid, name, utilization.gpu [%], memory.used [MiB]\n"
                          "0, GPU-1, NVIDIA A10, 12 %, 0 %, 1024 MiB, 23028 MiB, 50 C, 60.10 W, 150.00 W, [N/A]\n")
            << QList<Row>{{0, "GPU-1", "NVIDIA A10", 12, 0, 1024, 23028, 50, 60.1, 150, false}} << 1 << QString();
        QTest::newRow("empty") << QByteArray() << QList<Row>{} << 0 << QString();
        QTest::newRow("blank lines only") << QByteArray("\n\n  \n") << QList<Row>{} << 0 << QString();
        QTest::newRow("no devices") << QByteArray("No devices were found\n") << QList<Row>{} << 1 << QString();
        QTest::newRow("truncated mid-row")
            << QByteArray("0, GPU-1, NVIDIA H200, 37, 12, 20480, 143771, 41, 123.45, 700.00, Disabled\n1, GPU-2, "
                          "NVIDIA H2")
            << QList<Row>{{0, "GPU-1", "NVIDIA H200", 37, 12, 20480, 143771, 41, 123.45, 700, false},
                          {1, "GPU-2", "NVIDIA H2", -1, -1, -1, -1, -1, -1, -1, false}}
            << 0 << QString();
        QTest::newRow("truncated mid-uuid") << QByteArray("0, GP") << QList<Row>{} << 1 << QString();
        QTest::newRow("garbage")
            << QByteArray("\x01\x02\xff garbage, more\n-1, GPU-1, x\n0x10, GPU-1\n1e3, GPU-1\n0, not-a-uuid, H\n"
                          "0, GPU-1 with spaces, H\n,,,,,,,\n0,GPU-1,A,abc,-5,1e400,nan,inf,12kW,7,Maybe\n")
            << QList<Row>{{0, "GPU-1", "A", -1, -1, -1, -1, -1, -1, 7, false}} << 7 << QString();
        QTest::newRow("out-of-range percent")
            << QByteArray("0, GPU-1, A, 250, 101, 1, 2\n")
            << QList<Row>{{0, "GPU-1", "A", -1, -1, 1, 2, -1, -1, -1, false}} << 0 << QString();
        QTest::newRow("driver failure")
            << QByteArray("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
                          "that the latest NVIDIA driver is installed and running.\n\n")
            << QList<Row>{} << 0
            << QStringLiteral("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
                              "sure that the latest NVIDIA driver is installed and running.");
        QTest::newRow("NVML init failure")
            << QByteArray("Failed to initialize NVML: Driver/library version mismatch\n") << QList<Row>{} << 0
            << QStringLiteral("Failed to initialize NVML: Driver/library version mismatch");
    }

    void parse()
    {
        QFETCH(QByteArray, text);
        QFETCH(QList<Row>, rows);
        QFETCH(int, skipped);
        QFETCH(QString, failure);
        const SmiParse p = parseNvidiaSmiQuery(std::string_view(text.constData(), std::size_t(text.size())));
        QStringList got, want;
        for (const DeviceInfo &d : p.devices)
            got << describe(d);
        for (const Row &r : rows)
            want << describe(r);
        QCOMPARE(got, want);
        QCOMPARE(p.skippedLines, skipped);
        QCOMPARE(QString::fromStdString(p.failure), failure);
        for (const DeviceInfo &d : p.devices) {
            QVERIFY(!d.migIndex);
            QVERIFY(!d.processesKnown);
        }
    }

    void memoryIsMebibytes()
    {
        const SmiParse p = parseNvidiaSmiQuery("0, GPU-1, A, 1, 1, 1, 143771\n");
        QCOMPARE(p.devices.size(), std::size_t(1));
        QCOMPARE(*p.devices[0].memoryUsedBytes, std::uint64_t(1048576));
        QCOMPARE(*p.devices[0].memoryTotalBytes, std::uint64_t(143771) * MiB);
    }

    void cgroupLines_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("containerId");
        QTest::addColumn<QString>("cgroupPath");
        QTest::addColumn<bool>("matches");
        const QByteArray id(kId);
        const QString qid = QString::fromLatin1(kId);
        const QString shortId = qid.left(12);
        QTest::newRow("v2 systemd docker scope")
            << QByteArray("0::/system.slice/docker-" + id + ".scope\n") << qid << QString() << true;
        QTest::newRow("v2 short id") << QByteArray("0::/system.slice/docker-" + id + ".scope\n") << shortId << QString()
                                     << true;
        QTest::newRow("v2 podman libpod")
            << QByteArray("0::/machine.slice/libpod-" + id + ".scope/container\n") << qid << QString() << true;
        QTest::newRow("v2 cgroupfs driver") << QByteArray("0::/docker/" + id + "\n") << qid << QString() << true;
        QTest::newRow("v1 many controllers") << QByteArray("12:pids:/docker/" + id + "\n11:memory:/docker/" + id +
                                                           "\n1:name=systemd:/docker/" + id + "\n0::/\n")
                                             << qid << QString() << true;
        QTest::newRow("v1 systemd driver")
            << QByteArray("13:devices:/system.slice/docker-" + id + ".scope\n0::/system.slice/containerd.service\n")
            << qid << QString() << true;
        QTest::newRow("kubernetes cri-containerd")
            << QByteArray("0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1.slice/"
                          "cri-containerd-" +
                          id + ".scope\n")
            << qid << QString() << true;
        QTest::newRow("another container") << QByteArray("0::/system.slice/docker-" + id + ".scope\n")
                                           << QStringLiteral("ffffffffffff") << QString() << false;
        QTest::newRow("id inside a longer word")
            << QByteArray("0::/system.slice/xdocker" + id + ".scope\n") << qid << QString() << false;
        QTest::newRow("short needle must end at a separator")
            << QByteArray("0::/docker/abcdef\n") << QStringLiteral("abc") << QString() << false;
        QTest::newRow("short needle at a separator")
            << QByteArray("0::/docker/abc.scope\n") << QStringLiteral("abc") << QString() << true;
        QTest::newRow("host process") << QByteArray("0::/user.slice/user-1000.slice/session-2.scope\n") << qid
                                      << QString() << false;
        QTest::newRow("sandbar local leaf")
            << QByteArray("0::/user.slice/user-1000.slice/user@1000.service/app.slice/sandbar-s1a2b3\n") << QString()
            << QStringLiteral("sandbar-s1a2b3") << true;
        QTest::newRow("sandbar local sub-cgroup")
            << QByteArray("0::/user.slice/user-1000.slice/user@1000.service/app.slice/sandbar-s1a2b3/agent\n")
            << QString() << QStringLiteral("sandbar-s1a2b3") << true;
        QTest::newRow("sandbar local: a longer id is another session")
            << QByteArray("0::/app.slice/sandbar-s1a2b34\n") << QString() << QStringLiteral("sandbar-s1a2b3") << false;
        QTest::newRow("sandbar local v1 path")
            << QByteArray("5:memory:/user/1000.user/sandbar-s1\n4:cpu,cpuacct:/user/1000.user/sandbar-s1\n")
            << QString() << QStringLiteral("/user/1000.user/sandbar-s1") << true;
        QTest::newRow("cgroup path with several components")
            << QByteArray("0::/system.slice/sandbar.service/sandbar-x\n") << QString()
            << QStringLiteral("sandbar.service/sandbar-x") << true;
        QTest::newRow("path with a colon")
            << QByteArray("0::/weird:name/sandbar-x\n") << QString() << QStringLiteral("sandbar-x") << true;
        QTest::newRow("empty match") << QByteArray("0::/docker/" + id + "\n") << QString() << QString() << false;
        QTest::newRow("empty file") << QByteArray() << qid << QString() << false;
        QTest::newRow("garbage") << QByteArray("\xff\xfe no colons here\n::\n:") << qid << QStringLiteral("x") << false;
    }

    void cgroupLines()
    {
        QFETCH(QByteArray, file);
        QFETCH(QString, containerId);
        QFETCH(QString, cgroupPath);
        QFETCH(bool, matches);
        CgroupMatch m{containerId.toStdString(), cgroupPath.toStdString()};
        QCOMPARE(cgroupFileMatches(std::string_view(file.constData(), std::size_t(file.size())), m), matches);
    }

    void fakeProcTree()
    {
        QTemporaryDir proc;
        QVERIFY(proc.isValid());
        const QByteArray id(kId);
        writeFile(proc.filePath(QStringLiteral("100/cgroup")), "0::/system.slice/docker-" + id + ".scope\n");
        writeFile(proc.filePath(QStringLiteral("101/cgroup")), "12:memory:/docker/" + id + "\n0::/\n");
        writeFile(proc.filePath(QStringLiteral("200/cgroup")), "0::/user.slice/user-1000.slice/session-2.scope\n");
        writeFile(proc.filePath(QStringLiteral("300/cgroup")),
                  "0::/user.slice/user-1000.slice/user@1000.service/app.slice/sandbar-abc/agent\n");
        QDir().mkpath(proc.filePath(QStringLiteral("400"))); // gone between listing and reading
        const std::string root = proc.path().toStdString();

        CgroupMatch docker{kId, {}};
        QCOMPARE(pidsInSession({100, 101, 200, 300, 400, 999}, docker, root), (std::vector<unsigned>{100, 101}));
        CgroupMatch local{{}, "sandbar-abc"};
        QCOMPARE(pidsInSession({100, 101, 200, 300, 400, 999}, local, root), (std::vector<unsigned>{300}));
        QVERIFY(!pidInSession(0, docker, root));
        QVERIFY(!pidInSession(100, CgroupMatch{}, root));
        // Our own process, through the real /proc: matches its own cgroup path.
        QFile self(QStringLiteral("/proc/self/cgroup"));
        if (self.open(QIODevice::ReadOnly)) {
            const QByteArray line = self.readAll().split('\n').value(0);
            const QByteArray path = line.mid(line.indexOf(':', line.indexOf(':') + 1) + 1);
            if (path.size() > 1) {
                CgroupMatch own{{}, path.toStdString()};
                QVERIFY(pidInSession(unsigned(QCoreApplication::applicationPid()), own));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestGpuSmi)
#include "tst_gpu_smi.moc"
