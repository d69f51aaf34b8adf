// cloud::parseProcReading's disk part, table-driven: /proc/diskstats counts whole disks only
// (partitions, loop, RAM and device-mapper devices would count bytes twice) and `df -Pk /`
// gives the root file system; empty, truncated and garbage input leave the figures unset.
#include "cloud/PolledStats.h"

#include <QTest>

using namespace sandbar;

namespace {
constexpr char kDisks[] = "   7       0 loop0 10 0 800 1 0 0 0 0 0 0 0\n"
                          " 252       0 vda 100 5 2000 50 40 3 1000 20 0 60 70\n"
                          " 252       1 vda1 90 5 1900 45 40 3 1000 20 0 55 65\n"
                          " 259       0 nvme0n1 10 0 100 1 1 0 8 1 0 2 2\n"
                          " 259       1 nvme0n1p1 10 0 100 1 1 0 8 1 0 2 2\n"
                          " 253       0 dm-0 99 0 9999 9 9 0 9999 9 0 9 9\n";
constexpr char kDf[] = "Filesystem     1024-blocks    Used Available Capacity Mounted on\n"
                       "/dev/vda1          1000000  250000    750000      25% /\n";
} // namespace

class TestProcReading : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void disks_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("read");    // -1: unset
        QTest::addColumn<qint64>("written"); // -1: unset
        QTest::addColumn<qint64>("used");    // -1: unset
        QTest::addColumn<qint64>("total");
        QTest::newRow("disks and df") << QByteArray(kDisks) + kDf << qint64((2000 + 100) * 512)
                                      << qint64((1000 + 8) * 512) << qint64(250000) * 1024 << qint64(1000000) * 1024;
        QTest::newRow("df only") << QByteArray(kDf) << qint64(-1) << qint64(-1) << qint64(250000) * 1024
                                 << qint64(1000000) * 1024;
        QTest::newRow("empty") << QByteArray() << qint64(-1) << qint64(-1) << qint64(-1) << qint64(-1);
        QTest::newRow("truncated") << QByteArray(kDisks).left(40) << qint64(-1) << qint64(-1) << qint64(-1)
                                   << qint64(-1);
        QTest::newRow("garbage") << QByteArray("\xff\xfe x y z / \n 1 2 vdb a b c d e f g\n") << qint64(-1)
                                 << qint64(-1) << qint64(-1) << qint64(-1);
        QTest::newRow("used over size") << QByteArray("/dev/vda 10 20 0 100% /\n") << qint64(-1) << qint64(-1)
                                        << qint64(-1) << qint64(-1);
        QTest::newRow("negative sectors") << QByteArray(" 252 0 vda 1 0 -5 0 0 0 7 0 0 0 0\n") << qint64(-1)
                                          << qint64(-1) << qint64(-1) << qint64(-1);
    }
    void disks()
    {
        QFETCH(QByteArray, text);
        QFETCH(qint64, read);
        QFETCH(qint64, written);
        QFETCH(qint64, used);
        QFETCH(qint64, total);
        const cloud::ProcReading r = cloud::parseProcReading(text);
        QCOMPARE(r.blockReadBytes.value_or(-1), read);
        QCOMPARE(r.blockWriteBytes.value_or(-1), written);
        QCOMPARE(r.filesystemUsedBytes.value_or(-1), used);
        QCOMPARE(r.filesystemTotalBytes.value_or(-1), total);
    }
};

QTEST_GUILESS_MAIN(TestProcReading)
#include "tst_procreading.moc"
