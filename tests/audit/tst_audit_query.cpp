// AuditQuery's bounds (until, a list of actions, ok or failed only), readAuditFile() on a
// connection of its own from another thread, and the signal live views wait for.
#include "audit/AuditLog.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <optional>
#include <thread>

Q_DECLARE_METATYPE(sandbar::audit::AuditQuery)

using namespace sandbar;
using namespace sandbar::audit;

class TestAuditQuery : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void queryBounds_data();
    void queryBounds();
    void readAuditFileOffThread();
    void entriesWrittenAfterFlush();
};

namespace {

// Ten rows an hour apart from 08:00 UTC: alpha 0-4, beta 5-9; exec on even rows,
// session.stopped on odd ones; rows 3 and 6 failed.
QDateTime boundsBase()
{
    return QDateTime(QDate(2026, 11, 1), QTime(8, 0), Qt::UTC);
}

void fillBounds(AuditLog &log)
{
    for (int i = 0; i < 10; ++i) {
        auto e = makeEntry(i % 2 ? Action::SessionStopped : Action::ExecRun,
                           i < 5 ? QStringLiteral("alpha") : QStringLiteral("beta"), QStringLiteral("docker"),
                           QStringLiteral("s%1").arg(i));
        e.time = boundsBase().addSecs(3600 * i);
        if (i == 3 || i == 6)
            e.setError(makeError(ErrorCode::Unavailable, QStringLiteral("engine gone")));
        QVERIFY(log.append(e).ok());
    }
}

QStringList sessionsOf(const QList<AuditEntry> &rows)
{
    QStringList out;
    for (const auto &e : rows)
        out << e.sessionId;
    return out;
}

} // namespace

void TestAuditQuery::queryBounds_data()
{
    QTest::addColumn<AuditQuery>("query");
    QTest::addColumn<QStringList>("sessions");
    const auto at = [](int hour) { return boundsBase().addSecs(3600 * hour); };
    const auto ss = [](std::initializer_list<int> ids) {
        QStringList out;
        for (int i : ids)
            out << QStringLiteral("s%1").arg(i);
        return out;
    };
    AuditQuery q;
    q.until = at(3);
    QTest::newRow("until is exclusive") << q << ss({0, 1, 2});
    q.since = at(2);
    q.until = at(5);
    QTest::newRow("since and until") << q << ss({2, 3, 4});
    q = {};
    q.since = at(4);
    q.until = at(4);
    QTest::newRow("empty range") << q << QStringList();
    q = {};
    q.actions = QStringList{actionName(Action::SessionStopped)};
    QTest::newRow("one action in the list") << q << ss({1, 3, 5, 7, 9});
    q.actions << actionName(Action::ExecRun);
    QTest::newRow("two actions") << q << ss({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    q.actions = QStringList{actionName(Action::PtyOpened)};
    QTest::newRow("an action with no rows") << q << QStringList();
    q.actions = QStringList{actionName(Action::ExecRun), actionName(Action::SessionStopped)};
    q.action = actionName(Action::ExecRun);
    QTest::newRow("action and actions both hold") << q << ss({0, 2, 4, 6, 8});
    q = {};
    q.ok = false;
    QTest::newRow("failed only") << q << ss({3, 6});
    q.ok = true;
    QTest::newRow("ok only") << q << ss({0, 1, 2, 4, 5, 7, 8, 9});
    q.account = QStringLiteral("beta");
    q.until = at(8);
    QTest::newRow("ok, account and until") << q << ss({5, 7});
    q = {};
    q.ok = false;
    q.text = QStringLiteral("ENGINE");
    QTest::newRow("failed with text in the error") << q << ss({3, 6});
    q = {};
    q.actions = QStringList{QStringLiteral("x') OR 1=1 --")};
    QTest::newRow("actions are bound, not spliced") << q << QStringList();
}

void TestAuditQuery::queryBounds()
{
    QFETCH(AuditQuery, query);
    QFETCH(QStringList, sessions);
    QTemporaryDir dir;
    AuditLog log(dir.path());
    log.setFlushDelay(0);
    fillBounds(log);
    auto rows = log.query(query);
    QVERIFY(rows.ok());
    QCOMPARE(sessionsOf(rows.value()), sessions);
    // The reader's connection gives the same rows, and counts them without the limit.
    auto page = readAuditFile(log.path(), query);
    QVERIFY(page.ok());
    QCOMPARE(sessionsOf(page->entries), sessions);
    QCOMPARE(page->total, qint64(sessions.size()));
    QCOMPARE(page->accounts, (QStringList{QStringLiteral("alpha"), QStringLiteral("beta")}));
}

void TestAuditQuery::readAuditFileOffThread()
{
    QTemporaryDir dir;
    AuditLog log(dir.path());
    log.setFlushDelay(0);
    const QString missing = dir.filePath(QStringLiteral("none/audit.sqlite"));
    auto empty = readAuditFile(missing, {});
    QVERIFY(empty.ok());
    QCOMPARE(empty->total, qint64(0));
    QVERIFY(!QFileInfo::exists(missing));
    fillBounds(log);
    AuditQuery q;
    q.limit = 3;
    std::optional<Result<AuditPage>> out;
    std::thread worker([&] { out.emplace(readAuditFile(log.path(), q)); });
    worker.join();
    QVERIFY(out && out->ok());
    QCOMPARE(sessionsOf((*out)->entries),
             (QStringList{QStringLiteral("s7"), QStringLiteral("s8"), QStringLiteral("s9")}));
    QCOMPARE((*out)->total, qint64(10));
    // The log's own connection still works after another thread's came and went.
    QVERIFY(log.append(makeEntry(Action::ExecRun, QStringLiteral("gamma"), QStringLiteral("docker"))).ok());
    QCOMPARE(log.query({})->size(), 11);
}

void TestAuditQuery::entriesWrittenAfterFlush()
{
    QTemporaryDir dir;
    AuditLog log(dir.path());
    log.setFlushDelay(50);
    QList<int> counts;
    qint64 onDisk = -1;
    connect(&log, &AuditLog::entriesWritten, this, [&](int n) {
        counts << n;
        onDisk = readAuditFile(log.path(), {})->total; // committed before the signal
    });
    for (int i = 0; i < 3; ++i)
        QVERIFY(log.append(makeEntry(Action::ExecRun, QStringLiteral("alpha"), QStringLiteral("docker"))).ok());
    QVERIFY(counts.isEmpty());
    QTRY_COMPARE(counts, QList<int>{3});
    QCOMPARE(onDisk, qint64(3));
    QVERIFY(log.flush().ok()); // nothing queued: no signal
    QCOMPARE(counts, QList<int>{3});
}

QTEST_GUILESS_MAIN(TestAuditQuery)
#include "tst_audit_query.moc"
