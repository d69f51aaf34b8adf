#include "CatalogFixture.h"
#include "ManualClock.h"
#include "RegistryFixture.h"
#include "audit/AuditLog.h"
#include "catalog/Catalog.h"
#include "costs/BudgetWatcher.h"
#include "costs/CostLedger.h"
#include "costs/CostMeter.h"
#include "sessions/SessionRegistry.h"

#include <QSignalSpy>
#include <QTemporaryDir>

using namespace sandbar;

namespace {

std::shared_ptr<const catalog::Catalog> catalogPricingMemoryAsE2b()
{
    return test::catalogPricing(QStringLiteral("memory"), QStringLiteral("e2b"));
}

constexpr double kE2bRate2x4 = test::kE2bUsdPerHour2x4;

} // namespace

class TestCostMeter final : public QObject
{
    Q_OBJECT
private:
    // The meter reads a ManualClock: a test moves it an hour on instead of waiting one, and
    // mid-month at midday no tick crosses a day or a month by accident.
    struct Fixture : test::RegistryFixture {
        test::ManualClock clock;
        costs::CostLedger ledger{dir.path()};
        costs::BudgetWatcher watcher{ledger};
        audit::AuditLog log{dir.path()};
        std::unique_ptr<CostMeter> meter;
        const QDateTime t0 = clock.currentDateTimeUtc();

        explicit Fixture(std::shared_ptr<const catalog::Catalog> catalog = catalogPricingMemoryAsE2b())
        {
            meter = std::make_unique<CostMeter>(*registry, std::move(catalog), &ledger, &watcher, &log, clock);
            log.setFlushDelay(0);
            (void)addAccount(QStringLiteral("cloud"));
            (void)provider(QStringLiteral("cloud"));
        }
        void inject(const QString &id, SessionState state, qint64 ageSeconds, std::optional<double> cpus = 2,
                    std::optional<qint64> memory = qint64(4) << 30, const QString &account = QStringLiteral("cloud"))
        {
            SessionInfo s;
            s.id = id;
            s.provider = QStringLiteral("memory");
            s.state = state;
            s.created = t0.addSecs(-ageSeconds);
            s.cpus = cpus;
            s.memoryBytes = memory;
            this->memory->made.value(account)->inject(s);
        }
        void refresh(const QString &account = QStringLiteral("cloud"))
        {
            (void)test::await<QList<SessionInfo>>(
                [&](Callback<QList<SessionInfo>> cb) { registry->refreshAccount(account, cb); });
        }
    };

private Q_SLOTS:
    void pricesARunningSessionFromItsCreation()
    {
        Fixture f;
        f.inject(QStringLiteral("s1"), SessionState::Running, 3600);
        f.refresh();
        f.meter->tick();
        const SessionCost c = f.meter->cost(QStringLiteral("cloud/s1"));
        QVERIFY2(c.known, qPrintable(c.reason));
        QCOMPARE(c.catalogId, QStringLiteral("e2b"));
        QVERIFY(qAbs(c.usdPerHour - kE2bRate2x4) < 1e-9);
        QVERIFY(qAbs(c.costSoFarUsd - kE2bRate2x4) < 1e-9);
        QVERIFY(qAbs(f.meter->usdPerHour() - kE2bRate2x4) < 1e-9);
        // Booked in the ledger, once, however often the meter ticks.
        f.meter->tick();
        QVERIFY(qAbs(f.ledger.spend(QStringLiteral("cloud"), f.clock.currentDate()).value() - kE2bRate2x4) < 1e-6);
    }

    void onlyRunningTimeIsBilled()
    {
        Fixture f;
        f.inject(QStringLiteral("s1"), SessionState::Running, 0);
        f.refresh();
        f.meter->tick();
        f.clock.advanceSecs(1800);
        f.meter->tick();
        QVERIFY(qAbs(f.meter->cost(QStringLiteral("cloud/s1")).billedSeconds - 1800) < 1e-6);
        // Paused for an hour: the meter stands still and the hourly rate reads 0.
        auto *p = f.memory->made.value(QStringLiteral("cloud"));
        (void)test::await<void>([&](Callback<void> cb) { p->pause(QStringLiteral("s1"), cb); });
        f.refresh();
        f.clock.advanceSecs(3600);
        f.meter->tick();
        const SessionCost paused = f.meter->cost(QStringLiteral("cloud/s1"));
        QVERIFY(qAbs(paused.billedSeconds - 1800) < 1e-6);
        QCOMPARE(paused.usdPerHour, 0.0);
        QVERIFY(qAbs(paused.costSoFarUsd - kE2bRate2x4 / 2) < 1e-9);
    }

    // A sprite asleep (Running, asleep) pays no compute: billed as stopped until it wakes.
    void anAsleepSessionIsNotBilledForCompute()
    {
        Fixture f;
        SessionInfo s;
        s.id = QStringLiteral("s1");
        s.provider = QStringLiteral("memory");
        s.state = SessionState::Running;
        s.asleep = true;
        s.created = f.t0.addSecs(-3600);
        s.cpus = 2;
        s.memoryBytes = qint64(4) << 30;
        f.memory->made.value(QStringLiteral("cloud"))->inject(s);
        f.refresh();
        f.meter->tick();
        f.clock.advanceSecs(3600);
        f.meter->tick();
        const SessionCost c = f.meter->cost(QStringLiteral("cloud/s1"));
        QCOMPARE(c.billedSeconds, 0.0);
        QCOMPARE(c.usdPerHour, 0.0);
        QVERIFY(!c.running);
    }

    void selfHostedAndUnknownSaySo()
    {
        Fixture f;
        // Unknown resources on a billed provider: no figure, and a reason.
        f.inject(QStringLiteral("s2"), SessionState::Running, 60, std::nullopt, std::nullopt);
        f.refresh();
        f.meter->tick();
        const SessionCost unknown = f.meter->cost(QStringLiteral("cloud/s2"));
        QVERIFY(!unknown.known);
        QVERIFY(unknown.reason.contains(QStringLiteral("not known")));
        // The shipped catalog prices docker, podman and local as self-hosted: 0, said so.
        CostMeter plain(*f.registry, std::make_shared<const catalog::Catalog>(catalog::Catalog::shipped().value()),
                        nullptr, nullptr, nullptr, f.clock);
        QCOMPARE(plain.entryFor(QStringLiteral("docker"))->id, QStringLiteral("docker"));
        QVERIFY(plain.entryFor(QStringLiteral("docker"))->selfHosted);
        QVERIFY(plain.entryFor(QStringLiteral("memory")) == nullptr);
        plain.tick();
        const SessionCost none = plain.cost(QStringLiteral("cloud/s2"));
        QVERIFY(!none.known);
        QVERIFY(none.reason.contains(QStringLiteral("memory")));
    }

    // A self-hosted account's hourly price is its machine's: counted once however many sessions
    // share it, split across the running ones by requested CPUs (no limit weighs one CPU),
    // nothing while none runs, and booked in the ledger like a bill.
    void hostPriceIsSplitByCpus()
    {
        Fixture f(test::catalogPricing(QStringLiteral("memory"), QStringLiteral("docker")));
        Account host;
        host.name = QStringLiteral("gpu-box");
        host.provider = QStringLiteral("memory");
        host.settings.insert(QLatin1String(kHostHourlyPriceField), 0.9);
        QVERIFY_RESULT(test::await<void>([&](Callback<void> cb) { f.accounts->add(host, {}, cb); }));
        QVERIFY(f.provider(host.name));
        f.inject(QStringLiteral("big"), SessionState::Running, 0, 2, {}, host.name);
        f.inject(QStringLiteral("free"), SessionState::Running, 0, std::nullopt, {}, host.name);
        f.inject(QStringLiteral("idle"), SessionState::Stopped, 0, 4, {}, host.name);
        f.refresh(host.name);
        f.meter->tick();
        const SessionCost big = f.meter->cost(QStringLiteral("gpu-box/big"));
        const SessionCost free = f.meter->cost(QStringLiteral("gpu-box/free"));
        QVERIFY2(big.known && big.selfHosted, qPrintable(big.reason));
        QVERIFY(qAbs(big.usdPerHour - 0.6) < 1e-9);
        QVERIFY(qAbs(free.usdPerHour - 0.3) < 1e-9);
        QCOMPARE(f.meter->cost(QStringLiteral("gpu-box/idle")).usdPerHour, 0.0);
        QVERIFY(qAbs(f.meter->usdPerHourByAccount().value(host.name) - 0.9) < 1e-9);
        QVERIFY(qAbs(f.meter->usdPerHour() - 0.9) < 1e-9);
        f.clock.advanceSecs(3600);
        f.meter->tick();
        QVERIFY(qAbs(f.meter->cost(QStringLiteral("gpu-box/big")).costSoFarUsd - 0.6) < 1e-6);
        QVERIFY(qAbs(f.ledger.spend(host.name, f.clock.currentDate()).value() - 0.9) < 1e-6);
        // An account without a price: its sessions cost nothing, and say why.
        f.inject(QStringLiteral("s9"), SessionState::Running, 0);
        f.refresh();
        f.meter->tick();
        const SessionCost unpriced = f.meter->cost(QStringLiteral("cloud/s9"));
        QCOMPARE(unpriced.usdPerHour, 0.0);
        QVERIFY2(unpriced.reason.contains(QStringLiteral("host price")), qPrintable(unpriced.reason));
    }

    void budgetWarnsAt80AndStopsAt100()
    {
        Fixture f;
        // A budget a little above one hour of 2 vCPU + 4 GiB at E2B: 80 % after an hour,
        // 100 % a quarter of an hour later.
        const double budget = kE2bRate2x4 * 1.2;
        QVERIFY_RESULT(f.watcher.setBudget(costs::Budget{QStringLiteral("cloud"), budget, true}));
        f.inject(QStringLiteral("s1"), SessionState::Running, 3600);
        f.refresh();
        QSignalSpy thresholds(f.meter.get(), &CostMeter::budgetThreshold);
        QSignalSpy stopped(f.meter.get(), &CostMeter::budgetStopped);
        f.meter->tick();
        QCOMPARE(thresholds.size(), 1);
        QCOMPARE(thresholds.at(0).at(1).toInt(), 80);
        QVERIFY(qAbs(thresholds.at(0).at(3).toDouble() - budget) < 1e-9);
        QCOMPARE(stopped.size(), 0);

        f.clock.advanceSecs(900);
        f.meter->tick();
        QCOMPARE(thresholds.size(), 2);
        QCOMPARE(thresholds.at(1).at(1).toInt(), 100);
        QCOMPARE(stopped.size(), 1);
        QCOMPARE(stopped.at(0).at(1).toStringList(), QStringList{QStringLiteral("cloud/s1")});
        auto *p = f.memory->made.value(QStringLiteral("cloud"));
        QTRY_VERIFY(test::await<SessionInfo>([&](Callback<SessionInfo> cb) {
                        p->info(QStringLiteral("s1"), cb);
                    })->state != SessionState::Running);
        auto rows = f.log.query(audit::AuditQuery{std::nullopt, {}, {}, QStringLiteral("budget.stop"), {}, 0});
        QVERIFY_RESULT(rows);
        QCOMPARE(rows->size(), 1);
        QCOMPARE(rows->first().sessionId, QStringLiteral("s1"));
        // Not repeated on later ticks.
        f.clock.advanceSecs(100);
        f.meter->tick();
        QCOMPARE(thresholds.size(), 2);
        QCOMPARE(stopped.size(), 1);
    }

    void budgetWithoutStopOnlyWarns()
    {
        Fixture f;
        QVERIFY_RESULT(f.watcher.setBudget(costs::Budget{QStringLiteral("cloud"), kE2bRate2x4 / 2, false}));
        f.inject(QStringLiteral("s1"), SessionState::Running, 3600);
        f.refresh();
        QSignalSpy thresholds(f.meter.get(), &CostMeter::budgetThreshold);
        QSignalSpy stopped(f.meter.get(), &CostMeter::budgetStopped);
        f.meter->tick();
        QCOMPARE(thresholds.size(), 2); // 80 and 100 at once, lowest first
        QCOMPARE(thresholds.at(0).at(1).toInt(), 80);
        QCOMPARE(thresholds.at(1).at(1).toInt(), 100);
        QCOMPARE(stopped.size(), 0);
    }

    void removedSessionsLeaveTheMeter()
    {
        Fixture f;
        f.inject(QStringLiteral("s1"), SessionState::Running, 60);
        f.refresh();
        f.meter->tick();
        QCOMPARE(f.meter->costs().size(), 1);
        auto *p = f.memory->made.value(QStringLiteral("cloud"));
        (void)test::await<void>([&](Callback<void> cb) { p->remove(QStringLiteral("s1"), cb); });
        f.refresh();
        f.clock.advanceSecs(60);
        f.meter->tick();
        QCOMPARE(f.meter->costs().size(), 0);
        QCOMPARE(f.meter->usdPerHour(), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestCostMeter)
#include "tst_costmeter.moc"
