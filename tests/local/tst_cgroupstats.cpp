// The cgroup file parsers behind a Local session's statistics (real v1 and v2 shapes,
// empty, truncated and garbage text), the reader over fake v2 and v1 trees, and the
// workspace walk behind its storage figure.

#include "providers/local/CgroupStats.h"
#include "providers/local/WorkspaceUsage.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <unistd.h>

using namespace sandbar::local;
namespace cf = sandbar::local::cgroupfile;

using OptInt = std::optional<qint64>;
Q_DECLARE_METATYPE(OptInt)

namespace {
const QByteArray kCpuStatV2 = "usage_usec 1234567\nuser_usec 1000000\nsystem_usec 234567\nnr_periods 10\n"
                              "nr_throttled 4\nthrottled_usec 5000\nnr_bursts 0\nburst_usec 0\n";
const QByteArray kCpuStatV1 = "nr_periods 10\nnr_throttled 4\nthrottled_time 5000000\n";
const QByteArray kMemoryEvents = "low 0\nhigh 0\nmax 17\noom 3\noom_kill 2\noom_group_kill 0\n";
const QByteArray kOomControl = "oom_kill_disable 0\nunder_oom 0\noom_kill 5\n";
const QByteArray kMemoryStatV1 = "cache 4096000\nrss 1000000\nrss_huge 0\nshmem 0\nmapped_file 0\n"
                                 "inactive_anon 0\nactive_anon 1000000\ninactive_file 3000000\nactive_file 1096000\n"
                                 "hierarchical_memory_limit 67108864\ntotal_cache 4096000\ntotal_rss 1000000\n"
                                 "total_inactive_file 3500000\ntotal_active_file 596000\n";
const QByteArray kMemoryStatV2 = "anon 1000000\nfile 4096000\nkernel 200000\nshmem 0\ninactive_anon 0\n"
                                 "active_anon 1000000\ninactive_file 3000000\nactive_file 1096000\n";
const QByteArray kIoStat = "8:0 rbytes=1459200 wbytes=314773504 rios=192 wios=353 dbytes=0 dios=0\n"
                           "253:0 rbytes=100 wbytes=200 rios=1 wios=2 dbytes=7 dios=1\n";
const QByteArray kBlkio = "8:0 Read 4096\n8:0 Write 8192\n8:0 Sync 12288\n8:0 Async 0\n8:0 Discard 0\n"
                          "8:0 Total 12288\n8:16 Read 100\n8:16 Write 0\n8:16 Sync 100\n8:16 Async 0\n"
                          "8:16 Discard 0\n8:16 Total 100\nTotal 12388\n";

bool writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}
} // namespace

class TstCgroupStats : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void single_data();
    void single();
    void keyed_data();
    void keyed();
    void cpuStat_data();
    void cpuStat();
    void memoryLimit_data();
    void memoryLimit();
    void memoryUsed_data();
    void memoryUsed();
    void io_data();
    void io();
    void readV2Tree();
    void readV1Tree();
    void readNothing();
    void workspaceWalk();
};

void TstCgroupStats::single_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<OptInt>("expected");
    QTest::newRow("memory.current") << QByteArray("52719616\n") << OptInt(52719616);
    QTest::newRow("cpuacct.usage") << QByteArray("123456789012\n") << OptInt(123456789012LL);
    QTest::newRow("pids.current") << QByteArray("3\n") << OptInt(3);
    QTest::newRow("no newline") << QByteArray("7") << OptInt(7);
    QTest::newRow("empty") << QByteArray() << OptInt();
    QTest::newRow("max") << QByteArray("max\n") << OptInt();
    QTest::newRow("garbage") << QByteArray("\x01\x02zz") << OptInt();
    QTest::newRow("negative") << QByteArray("-1\n") << OptInt();
    QTest::newRow("two numbers") << QByteArray("1 2\n") << OptInt();
}

void TstCgroupStats::single()
{
    QFETCH(QByteArray, text);
    QFETCH(OptInt, expected);
    QCOMPARE(cf::single(text), expected);
}

void TstCgroupStats::keyed_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<OptInt>("expected");
    QTest::newRow("memory.events") << kMemoryEvents << QByteArray("oom_kill") << OptInt(2);
    QTest::newRow("not oom_group_kill") << QByteArray("oom_group_kill 4\noom_kill 1\n") << QByteArray("oom_kill")
                                        << OptInt(1);
    QTest::newRow("oom_control") << kOomControl << QByteArray("oom_kill") << OptInt(5);
    QTest::newRow("old kernel without oom_kill")
        << QByteArray("oom_kill_disable 0\nunder_oom 0\n") << QByteArray("oom_kill") << OptInt();
    QTest::newRow("memory.stat v1") << kMemoryStatV1 << QByteArray("total_inactive_file") << OptInt(3500000);
    QTest::newRow("empty") << QByteArray() << QByteArray("oom_kill") << OptInt();
    QTest::newRow("truncated key") << kMemoryEvents.left(kMemoryEvents.indexOf("oom_kill") + 5)
                                   << QByteArray("oom_kill") << OptInt();
    QTest::newRow("garbage value") << QByteArray("oom_kill many\n") << QByteArray("oom_kill") << OptInt();
    QTest::newRow("garbage") << QByteArray("\xff\xfe\n\n::") << QByteArray("oom_kill") << OptInt();
}

void TstCgroupStats::keyed()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, key);
    QFETCH(OptInt, expected);
    QCOMPARE(cf::keyed(text, key), expected);
}

void TstCgroupStats::cpuStat_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<OptInt>("expected");
    QTest::newRow("v2") << kCpuStatV2 << OptInt(1234567000LL);
    QTest::newRow("v1 cpu.stat has no usage") << kCpuStatV1 << OptInt();
    QTest::newRow("empty") << QByteArray() << OptInt();
    QTest::newRow("truncated") << kCpuStatV2.left(8) << OptInt();
    QTest::newRow("garbage") << QByteArray("usage_usec x\n") << OptInt();
    QTest::newRow("overflow") << QByteArray("usage_usec 9223372036854775807\n") << OptInt();
}

void TstCgroupStats::cpuStat()
{
    QFETCH(QByteArray, text);
    QFETCH(OptInt, expected);
    QCOMPARE(cf::cpuStatNs(text), expected);
}

void TstCgroupStats::memoryLimit_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<OptInt>("bytes");
    QTest::addColumn<bool>("unlimited");
    QTest::newRow("v2 max") << QByteArray("max\n") << OptInt() << true;
    QTest::newRow("v2 bytes") << QByteArray("67108864\n") << OptInt(67108864) << false;
    QTest::newRow("v1 unlimited") << QByteArray("9223372036854771712\n") << OptInt() << true;
    QTest::newRow("v1 unlimited, 64k pages") << QByteArray("9223372036854710272\n") << OptInt() << true;
    QTest::newRow("v1 bytes") << QByteArray("268435456\n") << OptInt(268435456) << false;
    QTest::newRow("empty") << QByteArray() << OptInt() << false;
    QTest::newRow("truncated") << QByteArray("ma") << OptInt() << false;
    QTest::newRow("garbage") << QByteArray("lots\n") << OptInt() << false;
}

void TstCgroupStats::memoryLimit()
{
    QFETCH(QByteArray, text);
    QFETCH(OptInt, bytes);
    QFETCH(bool, unlimited);
    const cf::Limit l = cf::memoryLimit(text);
    QCOMPARE(l.bytes, bytes);
    QCOMPARE(l.unlimited, unlimited);
}

void TstCgroupStats::memoryUsed_data()
{
    QTest::addColumn<qint64>("usage");
    QTest::addColumn<QByteArray>("stat");
    QTest::addColumn<qint64>("expected");
    QTest::newRow("v1: total_inactive_file wins") << qint64(10000000) << kMemoryStatV1 << qint64(6500000);
    QTest::newRow("v2: inactive_file") << qint64(10000000) << kMemoryStatV2 << qint64(7000000);
    QTest::newRow("more inactive than usage") << qint64(1000) << kMemoryStatV2 << qint64(1000);
    QTest::newRow("no memory.stat") << qint64(1000) << QByteArray() << qint64(1000);
    QTest::newRow("garbage memory.stat") << qint64(1000) << QByteArray("inactive_file x\n") << qint64(1000);
}

void TstCgroupStats::memoryUsed()
{
    QFETCH(qint64, usage);
    QFETCH(QByteArray, stat);
    QFETCH(qint64, expected);
    QCOMPARE(cf::memoryUsed(usage, stat), expected);
}

void TstCgroupStats::io_data()
{
    QTest::addColumn<bool>("v2");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("read");
    QTest::addColumn<qint64>("write");
    QTest::newRow("io.stat") << true << kIoStat << true << qint64(1459300) << qint64(314773704);
    QTest::newRow("io.stat empty: no I/O yet") << true << QByteArray() << true << qint64(0) << qint64(0);
    QTest::newRow("io.stat missing fields") << true << QByteArray("8:0 rios=3\n") << true << qint64(0) << qint64(0);
    QTest::newRow("io.stat truncated value")
        << true << QByteArray("8:0 rbytes=12 wbytes=") << false << qint64(0) << qint64(0);
    QTest::newRow("io.stat garbage") << true << QByteArray("hello world\n") << false << qint64(0) << qint64(0);
    QTest::newRow("blkio") << false << kBlkio << true << qint64(4196) << qint64(8192);
    QTest::newRow("blkio only Total") << false << QByteArray("Total 0\n") << true << qint64(0) << qint64(0);
    QTest::newRow("blkio empty") << false << QByteArray() << true << qint64(0) << qint64(0);
    QTest::newRow("blkio truncated") << false << kBlkio.left(kBlkio.indexOf("Write") + 2) << false << qint64(0)
                                     << qint64(0);
    QTest::newRow("blkio garbage") << false << QByteArray("8:0 Read lots\n") << false << qint64(0) << qint64(0);
    QTest::newRow("blkio no device") << false << QByteArray("Read 5\n") << false << qint64(0) << qint64(0);
}

void TstCgroupStats::io()
{
    QFETCH(bool, v2);
    QFETCH(QByteArray, text);
    QFETCH(bool, ok);
    QFETCH(qint64, read);
    QFETCH(qint64, write);
    const auto io = v2 ? cf::ioStat(text) : cf::blkioServiceBytes(text);
    QCOMPARE(io.has_value(), ok);
    if (io) {
        QCOMPARE(io->readBytes, read);
        QCOMPARE(io->writeBytes, write);
    }
}

void TstCgroupStats::readV2Tree()
{
    QTemporaryDir d;
    const QString s = d.path() + QStringLiteral("/sandbar-sb-1");
    QVERIFY(QDir().mkpath(s));
    QVERIFY(writeFile(s + QStringLiteral("/cpu.stat"), kCpuStatV2));
    QVERIFY(writeFile(s + QStringLiteral("/memory.current"), "10000000\n"));
    QVERIFY(writeFile(s + QStringLiteral("/memory.stat"), kMemoryStatV2));
    QVERIFY(writeFile(s + QStringLiteral("/memory.max"), "67108864\n"));
    QVERIFY(writeFile(s + QStringLiteral("/memory.events"), kMemoryEvents));
    QVERIFY(writeFile(s + QStringLiteral("/io.stat"), kIoStat));
    QVERIFY(writeFile(s + QStringLiteral("/pids.current"), "4\n"));
    const CgroupReading r = readCgroupStats({s});
    QCOMPARE(r.cpuNs, OptInt(1234567000LL));
    QCOMPARE(r.memoryUsedBytes, OptInt(7000000));
    QCOMPARE(r.memoryLimitBytes, OptInt(67108864));
    QVERIFY(!r.memoryUnlimited);
    QCOMPARE(r.oomKills, OptInt(2));
    QCOMPARE(r.ioReadBytes, OptInt(1459300));
    QCOMPARE(r.ioWriteBytes, OptInt(314773704));
    QVERIFY(r.ioUnified);
    QCOMPARE(r.pids, OptInt(4));

    // Without a limit, without the io and pids controllers.
    QVERIFY(writeFile(s + QStringLiteral("/memory.max"), "max\n"));
    QVERIFY(QFile::remove(s + QStringLiteral("/io.stat")));
    QVERIFY(QFile::remove(s + QStringLiteral("/pids.current")));
    const CgroupReading u = readCgroupStats({s});
    QVERIFY(!u.memoryLimitBytes);
    QVERIFY(u.memoryUnlimited);
    QVERIFY(!u.ioReadBytes && !u.ioWriteBytes && !u.pids);
    QCOMPARE(u.oomKills, OptInt(2));
}

void TstCgroupStats::readV1Tree()
{
    QTemporaryDir d;
    QStringList dirs;
    for (const char *c : {"cpu", "memory", "pids", "cpuacct", "blkio"}) {
        dirs << d.path() + QLatin1Char('/') + QLatin1String(c) + QStringLiteral("/sandbar-sb-1");
        QVERIFY(QDir().mkpath(dirs.last()));
    }
    QVERIFY(writeFile(dirs[0] + QStringLiteral("/cpu.stat"), kCpuStatV1));          // no usage here...
    QVERIFY(writeFile(dirs[3] + QStringLiteral("/cpuacct.usage"), "2500000000\n")); // ...but here
    QVERIFY(writeFile(dirs[1] + QStringLiteral("/memory.usage_in_bytes"), "10000000\n"));
    QVERIFY(writeFile(dirs[1] + QStringLiteral("/memory.stat"), kMemoryStatV1));
    QVERIFY(writeFile(dirs[1] + QStringLiteral("/memory.limit_in_bytes"), "9223372036854771712\n"));
    QVERIFY(writeFile(dirs[1] + QStringLiteral("/memory.oom_control"), kOomControl));
    QVERIFY(writeFile(dirs[2] + QStringLiteral("/pids.current"), "6\n"));
    QVERIFY(writeFile(dirs[4] + QStringLiteral("/blkio.throttle.io_service_bytes_recursive"), kBlkio));
    QVERIFY(writeFile(dirs[4] + QStringLiteral("/blkio.throttle.io_service_bytes"), "Total 0\n"));
    const CgroupReading r = readCgroupStats(dirs);
    QCOMPARE(r.cpuNs, OptInt(2500000000LL));
    QCOMPARE(r.memoryUsedBytes, OptInt(6500000));
    QVERIFY(!r.memoryLimitBytes);
    QVERIFY(r.memoryUnlimited);
    QCOMPARE(r.oomKills, OptInt(5));
    QCOMPARE(r.ioReadBytes, OptInt(4196)); // the recursive file wins
    QCOMPARE(r.ioWriteBytes, OptInt(8192));
    QVERIFY(!r.ioUnified);
    QCOMPARE(r.pids, OptInt(6));

    // A co-mounted cpu,cpuacct folder holds both files.
    QVERIFY(writeFile(dirs[0] + QStringLiteral("/cpuacct.usage"), "42\n"));
    QCOMPARE(readCgroupStats({dirs[0]}).cpuNs, OptInt(42));
}

void TstCgroupStats::readNothing()
{
    QTemporaryDir d;
    const CgroupReading none = readCgroupStats({});
    QVERIFY(!none.cpuNs && !none.memoryUsedBytes && !none.oomKills && !none.pids && !none.ioReadBytes);
    const CgroupReading gone = readCgroupStats({d.path() + QStringLiteral("/removed")});
    QVERIFY(!gone.cpuNs && !gone.memoryUsedBytes && !gone.memoryLimitBytes && !gone.memoryUnlimited);
    // Garbage in every file: nothing made up.
    QVERIFY(writeFile(d.path() + QStringLiteral("/cpu.stat"), "\x01garbage"));
    QVERIFY(writeFile(d.path() + QStringLiteral("/memory.current"), "zz"));
    QVERIFY(writeFile(d.path() + QStringLiteral("/memory.events"), "oom_kill"));
    QVERIFY(writeFile(d.path() + QStringLiteral("/io.stat"), "rbytes=1"));
    const CgroupReading bad = readCgroupStats({d.path()});
    QVERIFY(!bad.cpuNs && !bad.memoryUsedBytes && !bad.oomKills && !bad.ioReadBytes && !bad.ioWriteBytes);
}

void TstCgroupStats::workspaceWalk()
{
    QTemporaryDir d;
    QTemporaryDir outside;
    QVERIFY(QDir().mkpath(d.path() + QStringLiteral("/a/b/c")));
    const auto before = WorkspaceUsage::walk(d.path());
    QVERIFY(before.has_value());
    const QByteArray mb(1 << 20, 'x');
    QVERIFY(writeFile(d.path() + QStringLiteral("/a/b/c/one.bin"), mb));
    // A hard link is counted once; a link to a big file outside is not followed.
    QVERIFY(QFile::link(d.path() + QStringLiteral("/a/b/c/one.bin"), d.path() + QStringLiteral("/sym")));
    QVERIFY(::link(QFile::encodeName(d.path() + QStringLiteral("/a/b/c/one.bin")).constData(),
                   QFile::encodeName(d.path() + QStringLiteral("/hard.bin")).constData()) == 0);
    QVERIFY(writeFile(outside.path() + QStringLiteral("/big.bin"), mb + mb + mb));
    QVERIFY(QFile::link(outside.path(), d.path() + QStringLiteral("/out")));
    const auto after = WorkspaceUsage::walk(d.path());
    QVERIFY(after.has_value());
    const qint64 grown = *after - *before;
    QVERIFY2(grown >= (1 << 20) && grown < (2 << 20), qPrintable(QString::number(grown)));
    QVERIFY(!WorkspaceUsage::walk(d.path() + QStringLiteral("/missing")));

    // The sampled figure: absent until the first walk is done, then used and room to grow.
    WorkspaceUsage usage;
    QTRY_VERIFY_WITH_TIMEOUT(usage.sample(d.path()).usedBytes.has_value(), 10000);
    const WorkspaceUsage::Figures f = usage.sample(d.path());
    QCOMPARE(*f.usedBytes, *after);
    QVERIFY(f.totalBytes.has_value() && *f.totalBytes >= *f.usedBytes);
}

QTEST_GUILESS_MAIN(TstCgroupStats)
#include "tst_cgroupstats.moc"
