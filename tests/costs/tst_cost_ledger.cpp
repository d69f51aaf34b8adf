#include "costs/BudgetWatcher.h"
#include "costs/CostLedger.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;
using namespace sandbar::costs;

class TestCostLedger : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void evaluate_data();
    void evaluate();
    void survivesReopen();
    void noDoubleCountingAfterRestart();
    void spendByDayAndMonths();
    void invalidArguments();
    void budgetsStored();
    void thresholdsFireOnceEach();
    void thresholdsNotRepeatedAfterRestart();
    void monthRollover();
    void stopOnlyWhenAsked();
    void newBudgetAnnouncedAfresh();
    void corruptLedgerMovedAside();
};

void TestCostLedger::evaluate_data()
{
    QTest::addColumn<double>("amount");
    QTest::addColumn<bool>("stopAt");
    QTest::addColumn<double>("spend");
    QTest::addColumn<QList<int>>("fired");
    QTest::addColumn<QList<int>>("crossed");
    QTest::addColumn<bool>("stop");
    QTest::addColumn<bool>("over");
    using L = QList<int>;
    QTest::newRow("no budget") << 0.0 << true << 50.0 << L{} << L{} << false << false;
    QTest::newRow("negative budget") << -5.0 << true << 50.0 << L{} << L{} << false << false;
    QTest::newRow("nothing spent") << 10.0 << true << 0.0 << L{} << L{} << false << false;
    QTest::newRow("79%") << 10.0 << true << 7.9 << L{} << L{} << false << false;
    QTest::newRow("80% exactly") << 10.0 << false << 8.0 << L{} << L{80} << false << false;
    QTest::newRow("80% by rounding") << 0.3 << false << 0.1 + 0.1 + 0.04 << L{} << L{80} << false << false;
    QTest::newRow("80% already told") << 10.0 << false << 9.0 << L{80} << L{} << false << false;
    QTest::newRow("jump past both") << 10.0 << true << 12.0 << L{} << L{80, 100} << true << true;
    QTest::newRow("100% no stop flag") << 10.0 << false << 10.0 << L{80} << L{100} << false << true;
    QTest::newRow("100% stop flag") << 10.0 << true << 10.0 << L{80} << L{100} << true << true;
    QTest::newRow("both told") << 10.0 << true << 30.0 << L{80, 100} << L{} << false << true;
    QTest::newRow("negative spend") << 10.0 << true << -1.0 << L{} << L{} << false << false;
    QTest::newRow("nan spend") << 10.0 << true << qQNaN() << L{} << L{} << false << false;
}

void TestCostLedger::evaluate()
{
    QFETCH(double, amount);
    QFETCH(bool, stopAt);
    QFETCH(double, spend);
    QFETCH(QList<int>, fired);
    QFETCH(QList<int>, crossed);
    QFETCH(bool, stop);
    QFETCH(bool, over);
    const auto d = evaluateBudget(Budget{QStringLiteral("a"), amount, stopAt}, spend, fired);
    QCOMPARE(d.crossed, crossed);
    QCOMPARE(d.stop, stop);
    QCOMPARE(d.overLimit, over);
}

void TestCostLedger::survivesReopen()
{
    QTemporaryDir dir;
    const QDate day(2026, 11, 3);
    {
        CostLedger ledger(dir.path());
        QVERIFY2(ledger.isOpen(), qPrintable(ledger.openError().message));
        QVERIFY(ledger.addSpend(QStringLiteral("acme"), day, 1.25).ok());
        QVERIFY(ledger.addSpend(QStringLiteral("acme"), day, 0.75).ok());
        QVERIFY(ledger.addSpend(QStringLiteral("other"), day, 9).ok());
    }
    CostLedger ledger(dir.path());
    QCOMPARE(ledger.spend(QStringLiteral("acme"), day).value(), 2.0);
    QCOMPARE(ledger.spend(QStringLiteral("other"), day).value(), 9.0);
    QCOMPARE(ledger.spend(QStringLiteral("nobody"), day).value(), 0.0);
    QCOMPARE(QDir(dir.path()).entryList({QStringLiteral("ledger.sqlite")}).size(), 1);
}

void TestCostLedger::noDoubleCountingAfterRestart()
{
    QTemporaryDir dir;
    const QString acc = QStringLiteral("cloud");
    const QDate d1(2026, 11, 29);
    const QDate d2(2026, 11, 30);
    {
        CostLedger ledger(dir.path());
        for (double usd : {0.10, 0.20, 0.30, 0.30, 0.25}) // a repeated and a stale tick
            QVERIFY(ledger.recordRunning(acc, QStringLiteral("s1"), usd, d1).ok());
        QVERIFY(ledger.recordRunning(acc, QStringLiteral("s2"), 1.0, d1).ok());
    }
    {
        // After a restart the meter reports the session's whole cost again.
        CostLedger ledger(dir.path());
        QVERIFY(qFuzzyCompare(ledger.spend(acc, d1).value(), 1.30));
        QVERIFY(ledger.recordRunning(acc, QStringLiteral("s1"), 0.30, d1).ok());
        QVERIFY(qFuzzyCompare(ledger.spend(acc, d1).value(), 1.30));
        // It keeps running past midnight: only the increase lands on the new day.
        QVERIFY(ledger.recordRunning(acc, QStringLiteral("s1"), 0.50, d2).ok());
        // A second process (sandbarctl) reporting the same figure adds nothing.
        CostLedger second(dir.path());
        QVERIFY(second.recordRunning(acc, QStringLiteral("s1"), 0.50, d2).ok());
        const auto byDay = ledger.spendByDay(acc, d1, d2).value();
        QCOMPARE(byDay.size(), 2);
        QVERIFY(qFuzzyCompare(byDay.value(d1), 1.30));
        QVERIFY(qFuzzyCompare(byDay.value(d2), 0.20));
        QVERIFY(qFuzzyCompare(ledger.spend(acc, d1).value(), 1.50));
    }
}

void TestCostLedger::spendByDayAndMonths()
{
    QTemporaryDir dir;
    CostLedger ledger(dir.path());
    const QString acc = QStringLiteral("a");
    QVERIFY(ledger.addSpend(acc, QDate(2026, 10, 31), 5).ok());
    QVERIFY(ledger.addSpend(acc, QDate(2026, 11, 1), 1).ok());
    QVERIFY(ledger.addSpend(acc, QDate(2026, 11, 30), 2).ok());
    QVERIFY(ledger.addSpend(acc, QDate(2026, 12, 1), 4).ok());
    QCOMPARE(ledger.spend(acc, QDate(2026, 11, 15)).value(), 3.0);
    QCOMPARE(ledger.spend(acc, QDate(2026, 10, 1)).value(), 5.0);
    QCOMPARE(ledger.spend(acc, QDate(2026, 12, 31)).value(), 4.0);
    const auto days = ledger.spendByDay(acc, QDate(2026, 10, 31), QDate(2026, 11, 30)).value();
    QCOMPARE(days.keys(), QList<QDate>({QDate(2026, 10, 31), QDate(2026, 11, 1), QDate(2026, 11, 30)}));
    QVERIFY(ledger.spendByDay(acc, QDate(2026, 12, 2), QDate(2026, 12, 1)).value().isEmpty());
    // February of a leap year ends on the 29th.
    QVERIFY(ledger.addSpend(acc, QDate(2028, 2, 29), 7).ok());
    QCOMPARE(ledger.spend(acc, QDate(2028, 2, 1)).value(), 7.0);
}

void TestCostLedger::invalidArguments()
{
    QTemporaryDir dir;
    CostLedger ledger(dir.path());
    QCOMPARE(ledger.addSpend(QString(), QDate(2026, 1, 1), 1).code(), ErrorCode::InvalidArgument);
    QCOMPARE(ledger.addSpend(QStringLiteral("a"), QDate(), 1).code(), ErrorCode::InvalidArgument);
    QCOMPARE(ledger.addSpend(QStringLiteral("a"), QDate(2026, 1, 1), -1).code(), ErrorCode::InvalidArgument);
    QCOMPARE(ledger.addSpend(QStringLiteral("a"), QDate(2026, 1, 1), qQNaN()).code(), ErrorCode::InvalidArgument);
    QCOMPARE(ledger.recordRunning(QStringLiteral("a"), QString(), 1, QDate(2026, 1, 1)).code(),
             ErrorCode::InvalidArgument);
    QCOMPARE(ledger.spend(QStringLiteral("a"), QDate()).code(), ErrorCode::InvalidArgument);
}

void TestCostLedger::budgetsStored()
{
    QTemporaryDir dir;
    {
        CostLedger ledger(dir.path());
        QVERIFY(!ledger.budget(QStringLiteral("a")).value().has_value());
        QVERIFY(ledger.setBudget(Budget{QStringLiteral("a"), 50, true}).ok());
        QVERIFY(ledger.setBudget(Budget{QStringLiteral("b"), 10, false}).ok());
        QVERIFY(ledger.setBudget(Budget{QStringLiteral("b"), 20, false}).ok());
    }
    CostLedger ledger(dir.path());
    const auto all = ledger.budgets().value();
    QCOMPARE(all.size(), 2);
    QCOMPARE(all.at(0).account, QStringLiteral("a"));
    QCOMPARE(all.at(0).monthlyUsd, 50.0);
    QVERIFY(all.at(0).stopAtLimit);
    QCOMPARE(ledger.budget(QStringLiteral("b")).value()->monthlyUsd, 20.0);
    QVERIFY(ledger.removeBudget(QStringLiteral("a")).ok());
    QCOMPARE(ledger.budgets().value().size(), 1);
}

void TestCostLedger::thresholdsFireOnceEach()
{
    QTemporaryDir dir;
    CostLedger ledger(dir.path());
    BudgetWatcher watcher(ledger);
    QSignalSpy thresholds(&watcher, &BudgetWatcher::threshold);
    QSignalSpy stops(&watcher, &BudgetWatcher::stopRequested);
    const QString acc = QStringLiteral("a");
    const QDate today(2026, 11, 10);
    QVERIFY(watcher.setBudget(Budget{acc, 10, true}).ok());
    // Spend rises tick by tick; each level is announced once.
    for (double spend : {1.0, 5.0, 7.99, 8.0, 8.5, 9.99, 10.0, 11.0, 15.0, 9.0, 12.0}) {
        QVERIFY(watcher.update(acc, spend, today).ok());
    }
    QCOMPARE(thresholds.size(), 2);
    QCOMPARE(thresholds.at(0).at(0).toString(), acc);
    QCOMPARE(thresholds.at(0).at(1).toInt(), 80);
    QCOMPARE(thresholds.at(1).at(1).toInt(), 100);
    QCOMPARE(stops.size(), 1);
    QCOMPARE(stops.at(0).at(0).toString(), acc);
    // An account without a budget is never announced.
    QVERIFY(watcher.update(QStringLiteral("free"), 1e6, today).ok());
    QCOMPARE(thresholds.size(), 2);
}

void TestCostLedger::thresholdsNotRepeatedAfterRestart()
{
    QTemporaryDir dir;
    const QString acc = QStringLiteral("a");
    const QDate today(2026, 11, 10);
    {
        CostLedger ledger(dir.path());
        QVERIFY(ledger.setBudget(Budget{acc, 10, true}).ok());
        QVERIFY(ledger.addSpend(acc, today, 8.5).ok());
        BudgetWatcher watcher(ledger);
        QSignalSpy thresholds(&watcher, &BudgetWatcher::threshold);
        QVERIFY(watcher.check(acc, today).ok());
        QCOMPARE(thresholds.size(), 1);
    }
    CostLedger ledger(dir.path());
    BudgetWatcher watcher(ledger);
    QSignalSpy thresholds(&watcher, &BudgetWatcher::threshold);
    QSignalSpy stops(&watcher, &BudgetWatcher::stopRequested);
    QVERIFY(watcher.checkAll(today).ok());
    QCOMPARE(thresholds.size(), 0); // 80 % was told before the restart
    QVERIFY(ledger.addSpend(acc, today, 2).ok());
    QVERIFY(watcher.checkAll(today).ok());
    QCOMPARE(thresholds.size(), 1);
    QCOMPARE(thresholds.at(0).at(1).toInt(), 100);
    QCOMPARE(stops.size(), 1);

    // A run that starts over the limit stops the sessions that survived the restart,
    // without repeating the alerts.
    BudgetWatcher fresh(ledger);
    QSignalSpy freshThresholds(&fresh, &BudgetWatcher::threshold);
    QSignalSpy freshStops(&fresh, &BudgetWatcher::stopRequested);
    QVERIFY(fresh.checkAll(today).ok());
    QVERIFY(fresh.checkAll(today).ok());
    QCOMPARE(freshThresholds.size(), 0);
    QCOMPARE(freshStops.size(), 1);
}

void TestCostLedger::monthRollover()
{
    QTemporaryDir dir;
    CostLedger ledger(dir.path());
    BudgetWatcher watcher(ledger);
    QSignalSpy thresholds(&watcher, &BudgetWatcher::threshold);
    QSignalSpy stops(&watcher, &BudgetWatcher::stopRequested);
    const QString acc = QStringLiteral("a");
    QVERIFY(watcher.setBudget(Budget{acc, 10, true}).ok());
    const QDate nov30(2026, 11, 30);
    const QDate dec1(2026, 12, 1);
    QVERIFY(ledger.addSpend(acc, nov30, 11).ok());
    QVERIFY(watcher.check(acc, nov30).ok());
    QCOMPARE(thresholds.size(), 2);
    QCOMPARE(stops.size(), 1);
    // December starts from zero: nothing until its own spend crosses.
    QVERIFY(watcher.check(acc, dec1).ok());
    QCOMPARE(thresholds.size(), 2);
    QCOMPARE(ledger.spend(acc, dec1).value(), 0.0);
    QVERIFY(ledger.addSpend(acc, dec1, 8).ok());
    QVERIFY(watcher.check(acc, dec1).ok());
    QCOMPARE(thresholds.size(), 3);
    QCOMPARE(thresholds.last().at(1).toInt(), 80);
    QVERIFY(ledger.addSpend(acc, QDate(2026, 12, 2), 3).ok());
    QVERIFY(watcher.check(acc, QDate(2026, 12, 2)).ok());
    QCOMPARE(thresholds.size(), 4);
    QCOMPARE(stops.size(), 2);
    QCOMPARE(ledger.firedLevels(acc, nov30).value(), QList<int>({80, 100}));
    QCOMPARE(ledger.firedLevels(acc, QDate(2027, 1, 1)).value(), QList<int>());
}

void TestCostLedger::stopOnlyWhenAsked()
{
    QTemporaryDir dir;
    CostLedger ledger(dir.path());
    BudgetWatcher watcher(ledger);
    QSignalSpy thresholds(&watcher, &BudgetWatcher::threshold);
    QSignalSpy stops(&watcher, &BudgetWatcher::stopRequested);
    QVERIFY(watcher.setBudget(Budget{QStringLiteral("a"), 10, false}).ok());
    QVERIFY(watcher.update(QStringLiteral("a"), 25, QDate(2026, 11, 1)).ok());
    QCOMPARE(thresholds.size(), 2);
    QCOMPARE(stops.size(), 0);
}

void TestCostLedger::newBudgetAnnouncedAfresh()
{
    QTemporaryDir dir;
    CostLedger ledger(dir.path());
    BudgetWatcher watcher(ledger);
    QSignalSpy thresholds(&watcher, &BudgetWatcher::threshold);
    const QString acc = QStringLiteral("a");
    const QDate today(2026, 11, 10);
    QVERIFY(watcher.setBudget(Budget{acc, 10, false}).ok());
    QVERIFY(watcher.update(acc, 9, today).ok());
    QCOMPARE(thresholds.size(), 1);
    QVERIFY(watcher.setBudget(Budget{acc, 100, false}).ok()); // raised: 9 % now
    QVERIFY(watcher.update(acc, 9, today).ok());
    QCOMPARE(thresholds.size(), 1);
    QVERIFY(watcher.update(acc, 85, today).ok());
    QCOMPARE(thresholds.size(), 2);
}

void TestCostLedger::corruptLedgerMovedAside()
{
    QTemporaryDir dir;
    {
        QFile f(QDir(dir.path()).filePath(CostLedger::fileName()));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("garbage garbage garbage");
    }
    CostLedger ledger(dir.path());
    QVERIFY(ledger.isOpen());
    QVERIFY(!ledger.openWarning().isEmpty());
    QCOMPARE(QDir(dir.path()).entryList({QStringLiteral("ledger.sqlite.corrupt-*")}).size(), 1);
    QVERIFY(ledger.addSpend(QStringLiteral("a"), QDate(2026, 1, 1), 1).ok());
}

QTEST_GUILESS_MAIN(TestCostLedger)
#include "tst_cost_ledger.moc"
