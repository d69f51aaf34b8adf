// Cgroups (Cgroups.h) on a cgroup v2 tree laid out in a temporary folder: what the v2 code
// writes, and where, without needing a v2 host or root.

#include "TestSupport.h"
#include "providers/local/Cgroups.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;
using namespace sandbar::local;

namespace {
QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray();
}
} // namespace

class TstCgroupsV2 : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void v2FakeTree()
    {
        // A folder laid out like a delegated /sys/fs/cgroup subtree: the v2 code writes each
        // limit into its own file in the session's folder, in v2's formats.
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const QDir r(root.path());
        const auto put = [&](const QString &name, const QByteArray &text) {
            QFile f(r.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        put(QStringLiteral("cgroup.controllers"), "cpuset cpu io memory pids\n");
        put(QStringLiteral("cgroup.subtree_control"), "cpu memory pids\n");
        put(QStringLiteral("cgroup.procs"), "");
        for (const char *f : {"memory.max", "cpu.max", "pids.max"})
            put(QLatin1String(f), "max\n");
        const CgroupSupport cg = detectCgroups(root.path());
        QCOMPARE(cg.kind, CgroupSupport::Kind::V2);
        QCOMPARE(cg.v2Parent, root.path());

        const CgroupLimits limits{0.25, qint64(96) << 20, qint64(40)};
        auto made = createSessionCgroups(cg, QStringLiteral("fake1"), limits);
        QVERIFY_RESULT(made);
        const QString dir = r.filePath(QStringLiteral("sandbar-fake1"));
        QCOMPARE(made->dirs, QStringList{dir});
        QCOMPARE(made->procs, QStringList{dir + QStringLiteral("/cgroup.procs")});
        QCOMPARE(readFile(dir + QStringLiteral("/cpu.max")), QByteArray("25000 100000"));
        QCOMPARE(readFile(dir + QStringLiteral("/memory.max")), QByteArray::number(qint64(96) << 20));
        QCOMPARE(readFile(dir + QStringLiteral("/memory.swap.max")), QByteArray("0"));
        QCOMPARE(readFile(dir + QStringLiteral("/pids.max")), QByteArray("40"));
        // The parent's own files stay as they were: limits go on the session, not on its parent.
        for (const char *f : {"memory.max", "cpu.max", "pids.max"})
            QCOMPARE(readFile(r.filePath(QLatin1String(f))), QByteArray("max"));
        // No limits asked: the folder still exists (its counters are the statistics), no limit file.
        auto plain = createSessionCgroups(cg, QStringLiteral("fake2"), CgroupLimits{});
        QVERIFY_RESULT(plain);
        const QString plainDir = r.filePath(QStringLiteral("sandbar-fake2"));
        QVERIFY(QFileInfo(plainDir).isDir());
        for (const char *f : {"/cpu.max", "/memory.max", "/pids.max"})
            QVERIFY(!QFileInfo::exists(plainDir + QLatin1String(f)));
        // A subtree that does not delegate memory is not used, and says why.
        put(QStringLiteral("cgroup.subtree_control"), "cpu pids\n");
        const CgroupSupport refused = detectCgroups(root.path());
        QCOMPARE(refused.kind, CgroupSupport::Kind::None);
        QVERIFY2(refused.reason.contains(root.path()), qPrintable(refused.reason));
        QCOMPARE(createSessionCgroups(refused, QStringLiteral("fake3"), limits).code(), ErrorCode::Unsupported);
        QVERIFY(!QFileInfo::exists(r.filePath(QStringLiteral("sandbar-fake3"))));
    }
};

QTEST_GUILESS_MAIN(TstCgroupsV2)
#include "tst_cgroupsv2.moc"
