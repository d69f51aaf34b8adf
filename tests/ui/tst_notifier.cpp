#include "RegistryFixture.h"
#include "TestSupport.h"
#include "main/Notifier.h"
#include "sessions/StopAll.h"

#include <QtTest>

using namespace sandbar;
using namespace sandbar::ui;

namespace {

SessionInfo session(const QString &id, SessionState state, const QDateTime &expiresAt = {})
{
    SessionInfo s;
    s.id = id;
    s.account = QStringLiteral("lab");
    s.name = QStringLiteral("agent-") + id;
    s.state = state;
    s.expiresAt = expiresAt;
    return s;
}

struct Harness {
    QDateTime now = QDateTime(QDate(2026, 3, 1), QTime(12, 0), Qt::UTC);
    Notifier notifier;
    QList<Notification> seen;

    Harness()
    {
        notifier.setClock([this]() { return now; });
        notifier.setSink([this](const Notification &n) { seen.append(n); });
    }
    int count(Notification::Kind kind) const
    {
        return int(std::count_if(seen.begin(), seen.end(), [kind](const Notification &n) { return n.kind == kind; }));
    }
};

} // namespace

class TestNotifier : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ttlWarningThenExpiryOnceEach()
    {
        Harness h;
        const QDateTime expires = h.now.addSecs(20 * 60);
        const QList<SessionInfo> list{session(QStringLiteral("a1"), SessionState::Running, expires)};
        h.notifier.updateSessions(list);
        QVERIFY(h.seen.isEmpty());
        QCOMPARE(h.notifier.nextDeadline(), expires.addSecs(-300));

        h.now = expires.addSecs(-301);
        h.notifier.checkExpiry();
        QVERIFY(h.seen.isEmpty());

        h.now = expires.addSecs(-300);
        h.notifier.checkExpiry();
        QCOMPARE(h.count(Notification::Kind::ExpiresSoon), 1);
        QCOMPARE(h.seen.last().ref, QStringLiteral("lab/a1"));
        QVERIFY(h.seen.last().message.contains(QStringLiteral("agent-a1")));
        QVERIFY2(h.seen.last().message.contains(QStringLiteral("in 5 minute")), qPrintable(h.seen.last().message));
        QCOMPARE(h.notifier.nextDeadline(), expires);

        // Refreshes and timer ticks inside the window do not repeat it.
        for (int i = 0; i < 5; ++i) {
            h.now = h.now.addSecs(30);
            h.notifier.updateSessions(list);
            h.notifier.checkExpiry();
        }
        QCOMPARE(h.seen.size(), 1);

        h.now = expires;
        h.notifier.checkExpiry();
        QCOMPARE(h.count(Notification::Kind::Expired), 1);
        QVERIFY(!h.notifier.nextDeadline().isValid());

        // The provider stops it; later lists and ticks stay quiet.
        h.now = expires.addSecs(40);
        h.notifier.updateSessions({session(QStringLiteral("a1"), SessionState::Stopped, expires)});
        h.notifier.checkExpiry();
        h.now = expires.addSecs(3600);
        h.notifier.checkExpiry();
        QCOMPARE(h.seen.size(), 2);
    }

    void lateFirstSightingWarnsOnceAndExpiredSessionsAreQuiet()
    {
        Harness h;
        // Seen first two minutes before expiry: the warning comes at once, once.
        const QDateTime soon = h.now.addSecs(120);
        // Already past its expiry when Sandbar starts: nothing to say about it.
        const QDateTime past = h.now.addSecs(-600);
        h.notifier.updateSessions({session(QStringLiteral("s"), SessionState::Running, soon),
                                   session(QStringLiteral("p"), SessionState::Running, past)});
        QCOMPARE(h.seen.size(), 1);
        QCOMPARE(h.seen.first().kind, Notification::Kind::ExpiresSoon);
        QVERIFY2(h.seen.first().message.contains(QStringLiteral("in 2 minute")), qPrintable(h.seen.first().message));
        h.now = soon.addSecs(1);
        h.notifier.checkExpiry();
        QCOMPARE(h.count(Notification::Kind::Expired), 1);
        QCOMPARE(h.seen.last().ref, QStringLiteral("lab/s"));
    }

    void extendingTheTtlRearms()
    {
        Harness h;
        const QDateTime first = h.now.addSecs(240);
        h.notifier.updateSessions({session(QStringLiteral("x"), SessionState::Running, first)});
        QCOMPARE(h.count(Notification::Kind::ExpiresSoon), 1);
        const QDateTime later = h.now.addSecs(3600);
        h.notifier.updateSessions({session(QStringLiteral("x"), SessionState::Running, later)});
        h.now = first.addSecs(10); // the old deadline passes: nothing
        h.notifier.checkExpiry();
        QCOMPARE(h.seen.size(), 1);
        h.now = later.addSecs(-299);
        h.notifier.checkExpiry();
        QCOMPARE(h.count(Notification::Kind::ExpiresSoon), 2);
        h.now = later;
        h.notifier.checkExpiry();
        QCOMPARE(h.count(Notification::Kind::Expired), 1);
    }

    void vanishingAtExpiryStillNotifies()
    {
        Harness h;
        const QDateTime expires = h.now.addSecs(600);
        h.notifier.updateSessions({session(QStringLiteral("gone"), SessionState::Running, expires)});
        h.now = expires.addSecs(2);
        // The provider removed it before the timer fired.
        h.notifier.updateSessions({});
        QCOMPARE(h.count(Notification::Kind::Expired), 1);
        h.notifier.checkExpiry();
        QCOMPARE(h.count(Notification::Kind::Expired), 1);
    }

    void failureOncePerFailure()
    {
        Harness h;
        SessionInfo s = session(QStringLiteral("f"), SessionState::Running);
        h.notifier.updateSessions({s});
        QVERIFY(h.seen.isEmpty());
        s.state = SessionState::Error;
        s.errorMessage = QStringLiteral("OOM killed");
        h.notifier.updateSessions({s});
        h.notifier.updateSessions({s});
        h.notifier.updateSessions({s});
        QCOMPARE(h.count(Notification::Kind::SessionFailed), 1);
        QVERIFY(h.seen.first().critical);
        QVERIFY(h.seen.first().message.contains(QStringLiteral("OOM killed")));
        s.state = SessionState::Running; // restarted
        h.notifier.updateSessions({s});
        s.state = SessionState::Error; // and failed again: a new failure
        h.notifier.updateSessions({s});
        QCOMPARE(h.count(Notification::Kind::SessionFailed), 2);
    }

    void disabledSaysNothingAndDoesNotReplay()
    {
        Harness h;
        h.notifier.setEnabled(false);
        h.notifier.updateSessions({session(QStringLiteral("e"), SessionState::Error)});
        h.notifier.budgetAlert(QStringLiteral("lab"), 80);
        QVERIFY(h.seen.isEmpty());
        h.notifier.setEnabled(true);
        h.notifier.updateSessions({session(QStringLiteral("e"), SessionState::Error)});
        QVERIFY(h.seen.isEmpty());
    }

    void budgetAlerts()
    {
        Harness h;
        QSignalSpy spy(&h.notifier, &Notifier::notified);
        h.notifier.budgetAlert(QStringLiteral("lab"), 80);
        h.notifier.budgetAlert(QStringLiteral("lab"), 100);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(h.count(Notification::Kind::Budget), 2);
        QVERIFY(!h.seen[0].critical);
        QVERIFY(h.seen[1].critical);
        QVERIFY(h.seen[0].message.contains(QStringLiteral("80")));
    }

    void timerFiresAtTheDeadline()
    {
        // The real clock: the warning is due 1.5 s from now; the notifier's own timer
        // must deliver it without anyone calling checkExpiry.
        Notifier notifier;
        QList<Notification> seen;
        notifier.setSink([&seen](const Notification &n) { seen.append(n); });
        const QDateTime expires = QDateTime::currentDateTimeUtc().addMSecs(300 * 1000 + 1500);
        notifier.updateSessions({session(QStringLiteral("t"), SessionState::Running, expires)});
        QVERIFY(seen.isEmpty());
        QVERIFY(test::waitUntil([&]() { return !seen.isEmpty(); }, 5000));
        QCOMPARE(seen.first().kind, Notification::Kind::ExpiresSoon);
    }

    void trayText()
    {
        QCOMPARE(trayStatusText(3, 0.42), QStringLiteral("3 running · $0.42/h"));
        QCOMPARE(trayStatusText(1, 12.5), QStringLiteral("1 running · $12.50/h"));
        QCOMPARE(trayStatusText(0, 0.0), QStringLiteral("0 running · $0.00/h"));
        QCOMPARE(trayStatusText(2, std::nullopt), QStringLiteral("2 running"));
        QCOMPARE(trayStatusText(1, 0.004), QStringLiteral("1 running · $0.00/h"));
        const QList<SessionInfo> list{
            session(QStringLiteral("1"), SessionState::Running), session(QStringLiteral("2"), SessionState::Creating),
            session(QStringLiteral("3"), SessionState::Stopped), session(QStringLiteral("4"), SessionState::Error)};
        QCOMPARE(runningSessionCount(list), 2);
    }

    void stopAllStopsEveryRunningSessionWithOneSummary()
    {
        test::RegistryFixture f;
        QVERIFY_RESULT(f.addAccount(QStringLiteral("lab")));
        test::MemoryProvider *p = f.provider(QStringLiteral("lab"));
        QVERIFY(p);
        QStringList ids;
        for (int i = 0; i < 3; ++i) {
            CreateSpec spec;
            spec.name = QStringLiteral("s%1").arg(i);
            auto made = test::await<SessionInfo>([&](Callback<SessionInfo> cb) { p->create(spec, cb); });
            QVERIFY_RESULT(made);
            ids << made->id;
        }
        p->failIds.insert(ids.at(2));
        auto listed = test::await<QList<SessionInfo>>(
            [&](Callback<QList<SessionInfo>> cb) { f.registry->refreshAccount(QStringLiteral("lab"), cb); });
        QVERIFY_RESULT(listed);
        QCOMPARE(runningSessionCount(f.registry->sessions()), 3);

        QObject context;
        std::optional<StopAllSummary> summary;
        int calls = 0;
        stopAllRunningSessions(*f.registry, &context, [&](const StopAllSummary &s) {
            summary = s;
            ++calls;
        });
        QVERIFY(test::waitUntil([&]() { return summary.has_value(); }, 5000));
        QCOMPARE(calls, 1);
        QCOMPARE(summary->requested, 3);
        QCOMPARE(summary->stopped, 2);
        QCOMPARE(summary->failures.size(), 1);
        QVERIFY(summary->text().contains(QStringLiteral("2 of 3")));

        // The one that refused is stopped on a second try.
        p->failIds.clear();
        QVERIFY_RESULT(test::await<QList<SessionInfo>>(
            [&](Callback<QList<SessionInfo>> cb) { f.registry->refreshAccount(QStringLiteral("lab"), cb); }));
        summary.reset();
        stopAllRunningSessions(*f.registry, &context, [&](const StopAllSummary &s) { summary = s; });
        QVERIFY(test::waitUntil([&]() { return summary.has_value(); }, 5000));
        QCOMPARE(summary->stopped, 1);
        QVERIFY(summary->failures.isEmpty());

        // Nothing running: an answer all the same, but never from inside the call.
        QVERIFY_RESULT(test::await<QList<SessionInfo>>(
            [&](Callback<QList<SessionInfo>> cb) { f.registry->refreshAccount(QStringLiteral("lab"), cb); }));
        summary.reset();
        stopAllRunningSessions(*f.registry, &context, [&](const StopAllSummary &s) { summary = s; });
        QVERIFY(!summary.has_value());
        QVERIFY(test::waitUntil([&]() { return summary.has_value(); }, 5000));
        QCOMPARE(summary->requested, 0);
        QCOMPARE(summary->text(), QStringLiteral("No session was running."));
    }
};

QTEST_GUILESS_MAIN(TestNotifier)
#include "tst_notifier.moc"
