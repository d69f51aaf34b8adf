// Sandbar's own time limits (cloud::DeadlineKeeper): an active session past its deadline is
// ended once; an inactive one never; one still active after ending is asked again only after
// the pause; a new deadline or a removal takes effect at once.
#include "ManualClock.h"
#include "TestSupport.h"
#include "cloud/DeadlineKeeper.h"

#include <QSet>
#include <QtTest>

using namespace sandbar;
using sandbar::test::waitUntil;

class TestDeadlineKeeper : public QObject
{
    Q_OBJECT
    struct Fixture {
        test::ManualClock clock;
        QSet<QString> active{QStringLiteral("a"), QStringLiteral("b")};
        QStringList ended;
        bool failEnds = false;
        QObject context;
        cloud::DeadlineKeeper keeper{
            clock, [this](const QString &id) { return active.contains(id); },
            [this](const QString &id, Callback<void> done) {
                ended << id;
                done.post(failEnds ? VoidResult(makeError(ErrorCode::Unavailable, QStringLiteral("down")))
                                   : VoidResult{});
            },
            &context};
        // The clock moves; the keeper looks again, as it does after its timer or a listing.
        void passSecs(qint64 s)
        {
            clock.advance(s * 1000);
            keeper.reschedule();
        }
    };

private Q_SLOTS:
    void endsAnActiveSessionOnceAtItsDeadline()
    {
        Fixture f;
        const QDateTime now = f.clock.currentDateTimeUtc();
        f.keeper.set(QStringLiteral("a"), now.addSecs(10));
        f.keeper.set(QStringLiteral("c"), now.addSecs(5)); // not active: never ended
        QTest::qWait(50);
        QVERIFY(f.ended.isEmpty()); // not yet
        f.passSecs(11);
        QVERIFY(waitUntil([&] { return !f.ended.isEmpty(); }, 5000));
        QCOMPARE(f.ended, QStringList{QStringLiteral("a")});
        f.active.remove(QStringLiteral("a")); // it stopped
        f.passSecs(120);
        QTest::qWait(50);
        QCOMPARE(f.ended.size(), 1);
    }

    void stillActiveIsAskedAgainAfterThePause()
    {
        Fixture f;
        f.failEnds = true;
        f.keeper.set(QStringLiteral("b"), f.clock.currentDateTimeUtc().addSecs(1));
        f.passSecs(2);
        QVERIFY(waitUntil([&] { return f.ended.size() == 1; }, 5000));
        f.passSecs(cloud::DeadlineKeeper::kAgainAfterSeconds / 2);
        QTest::qWait(50);
        QCOMPARE(f.ended.size(), 1); // not in a loop
        f.passSecs(cloud::DeadlineKeeper::kAgainAfterSeconds);
        QVERIFY(waitUntil([&] { return f.ended.size() == 2; }, 5000));
    }

    void newDeadlinesAndRemovalsTakeEffect()
    {
        Fixture f;
        const QDateTime now = f.clock.currentDateTimeUtc();
        f.keeper.set(QStringLiteral("a"), now.addSecs(5));
        f.keeper.set(QStringLiteral("a"), now.addSecs(3600)); // moved later
        f.keeper.set(QStringLiteral("b"), now.addSecs(5));
        f.keeper.remove(QStringLiteral("b"));
        QCOMPARE(f.keeper.deadline(QStringLiteral("a")), now.addSecs(3600));
        f.passSecs(60);
        QTest::qWait(50);
        QVERIFY(f.ended.isEmpty());
        f.keeper.set(QStringLiteral("a"), QDateTime()); // no limit
        QVERIFY(!f.keeper.deadline(QStringLiteral("a")).isValid());
        f.passSecs(7200);
        QTest::qWait(50);
        QVERIFY(f.ended.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDeadlineKeeper)
#include "tst_deadlinekeeper.moc"
