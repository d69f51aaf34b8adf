#pragma once

#include "catalog/Catalog.h"
#include "common/Clock.h"
#include "common/Result.h"

#include <QDateTime>
#include <QHash>
#include <QMap>
#include <QObject>
#include <QTimer>
#include <memory>

namespace sandbar {

class SessionRegistry;
struct SessionInfo;

namespace audit {
class AuditLog;
}
namespace costs {
class BudgetWatcher;
class CostLedger;
} // namespace costs

// What one live session costs, by its provider's billing rule and its resources.
struct SessionCost {
    QString ref;
    QString account;
    QString catalogId;  // the catalog entry that prices it; empty when none does
    bool known = false; // false: reason says why there is no figure
    bool selfHosted = false;
    bool running = false; // billed now
    QString reason;
    double billedSeconds = 0;
    double costSoFarUsd = 0;
    double usdPerHour = 0; // while running
};

// The live cost meter. On every tick it prices each session the registry lists, books the
// increase in the ledger (per account per day, across restarts), and lets the budget
// watcher turn this month's spend into 80 % / 100 % alerts. When a budget asks to stop at
// 100 %, the meter stops that account's running sessions and records a budget stop in the
// audit log.
//
// Billed time is the time a session is seen running. A session first seen running is
// assumed to have run since it was created (a provider that was paused before Sandbar
// started is over-counted rather than under-counted: the meter guards a budget).
class CostMeter : public QObject
{
    Q_OBJECT
public:
    // Billed time, the ledger's day and the budget's month are read from clock, which must
    // outlive the meter.
    CostMeter(SessionRegistry &registry, std::shared_ptr<const catalog::Catalog> catalog, costs::CostLedger *ledger,
              costs::BudgetWatcher *watcher, audit::AuditLog *audit, const Clock &clock = systemClock(),
              QObject *parent = nullptr);

    // Ticks every intervalMs (and once now). Tests move a ManualClock and call tick() instead.
    void start(int intervalMs = 5000);
    void stop();
    // Prices every session at the clock's now.
    void tick();

    SessionCost cost(const QString &ref) const { return m_costs.value(ref); }
    QList<SessionCost> costs() const { return m_costs.values(); }
    // Sum of usdPerHour over running sessions with a known price.
    double usdPerHour() const;
    // The same per account (a self-hosted host's price once, however many sessions share it).
    QMap<QString, double> usdPerHourByAccount() const;
    // This month's spend of account as the ledger has it (0 without a ledger).
    double monthSpendUsd(const QString &account) const;
    // The last error writing the ledger or the audit log, for the status bar; empty when fine.
    QString lastError() const { return m_lastError; }

    // Which catalog entry prices sessions of provider id: the one its descriptor names
    // (ProviderDescriptor::catalogId), else the one whose managed_by names it.
    const catalog::ProviderEntry *entryFor(const QString &providerId) const;

Q_SIGNALS:
    void updated();
    // A budget alert (80 or 100 %), for a tray notification.
    void budgetThreshold(const QString &account, int percent, double monthSpendUsd, double budgetUsd);
    // Sessions the meter stopped because account reached its budget.
    void budgetStopped(const QString &account, const QStringList &refs);

private:
    struct Track {
        double billedSeconds = 0;
        QDateTime lastSeen;
        bool wasRunning = false;
        double hostUsd = 0; // a self-hosted session's share of its host's price so far
    };
    // A self-hosted account's hourly price and the requested CPUs of its running sessions,
    // across which it is split.
    struct HostShare {
        double usdPerHour = 0;
        double runningCpus = 0;
    };
    static double cpuWeight(const SessionInfo &s);
    QHash<QString, HostShare> hostShares(const QList<SessionInfo> &sessions) const;
    SessionCost price(const SessionInfo &s, Track &track, const QDateTime &now, const HostShare &host) const;
    void stopAccount(const QString &account);

    SessionRegistry &m_registry;
    const Clock *m_clock;
    std::shared_ptr<const catalog::Catalog> m_catalog;
    costs::CostLedger *m_ledger;
    costs::BudgetWatcher *m_watcher;
    audit::AuditLog *m_audit;
    QHash<QString, Track> m_tracks;
    QHash<QString, SessionCost> m_costs;
    QTimer m_timer;
    QString m_lastError;
};

} // namespace sandbar
