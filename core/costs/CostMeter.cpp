#include "costs/CostMeter.h"

#include "audit/AuditLog.h"
#include "audit/Sanitizer.h"
#include "costs/BudgetWatcher.h"
#include "costs/CostLedger.h"
#include "costs/CostModel.h"
#include "providers/ProviderFactory.h"
#include "sessions/SessionRegistry.h"

#include <QSet>

namespace sandbar {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

} // namespace

CostMeter::CostMeter(SessionRegistry &registry, std::shared_ptr<const catalog::Catalog> catalog,
                     costs::CostLedger *ledger, costs::BudgetWatcher *watcher, audit::AuditLog *audit,
                     const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
    , m_clock(&clock)
    , m_catalog(std::move(catalog))
    , m_ledger(ledger)
    , m_watcher(watcher)
    , m_audit(audit)
{
    connect(&m_timer, &QTimer::timeout, this, [this] { tick(); });
    if (m_watcher) {
        connect(m_watcher, &costs::BudgetWatcher::threshold, this, [this](const QString &account, int percent) {
            double budget = 0;
            if (m_ledger) {
                if (auto b = m_ledger->budget(account); b.ok() && b->has_value())
                    budget = (*b)->monthlyUsd;
            }
            Q_EMIT budgetThreshold(account, percent, monthSpendUsd(account), budget);
        });
        connect(m_watcher, &costs::BudgetWatcher::stopRequested, this, &CostMeter::stopAccount);
    }
}

void CostMeter::start(int intervalMs)
{
    m_timer.start(intervalMs);
    tick();
}

void CostMeter::stop()
{
    m_timer.stop();
}

const catalog::ProviderEntry *CostMeter::entryFor(const QString &providerId) const
{
    if (!m_catalog)
        return nullptr;
    const ProviderFactory *f = m_registry.factories().find(providerId);
    return m_catalog->forProvider(f ? f->descriptor().catalogId() : providerId, providerId);
}

double CostMeter::cpuWeight(const SessionInfo &s)
{
    // A session without a CPU limit may use the whole machine: it weighs one CPU, as the
    // smallest share a running session gets.
    return s.cpus && *s.cpus > 0 ? *s.cpus : 1.0;
}

QHash<QString, CostMeter::HostShare> CostMeter::hostShares(const QList<SessionInfo> &sessions) const
{
    QHash<QString, HostShare> shares;
    for (const Account &a : m_registry.accounts().accounts()) {
        const double price = a.settings.value(QLatin1String(kHostHourlyPriceField)).toDouble();
        if (price > 0)
            shares[a.name].usdPerHour = price;
    }
    for (const SessionInfo &s : sessions) {
        auto it = shares.find(s.account);
        if (it != shares.end() && s.state == SessionState::Running && !s.asleep)
            it->runningCpus += cpuWeight(s);
    }
    return shares;
}

SessionCost CostMeter::price(const SessionInfo &s, Track &track, const QDateTime &now, const HostShare &host) const
{
    const double billedBefore = track.billedSeconds;
    SessionCost c;
    c.ref = s.ref();
    c.account = s.account;
    c.running = s.state == SessionState::Running && !s.asleep; // asleep: storage only
    if (!track.lastSeen.isValid()) {
        if (c.running && s.created.isValid())
            track.billedSeconds = std::max<qint64>(0, s.created.secsTo(now));
    } else if (track.wasRunning && c.running) {
        track.billedSeconds += std::max<qint64>(0, track.lastSeen.msecsTo(now)) / 1000.0;
    }
    track.lastSeen = now;
    track.wasRunning = c.running;
    c.billedSeconds = track.billedSeconds;

    const catalog::ProviderEntry *entry = entryFor(s.provider);
    if (!entry) {
        c.reason = tr("No catalog entry prices the provider '%1'.").arg(s.provider);
        return c;
    }
    c.catalogId = entry->id;
    c.selfHosted = entry->selfHosted;
    if (entry->selfHosted) {
        c.known = true;
        if (host.usdPerHour <= 0 || host.runningCpus <= 0) {
            c.reason = tr("Self-hosted: no provider bill (give the account a host price to count the machine's).");
            c.costSoFarUsd = track.hostUsd;
            return c;
        }
        // The host's price once, shared by what runs on it now: this session's requested CPUs
        // over all of them.
        const double rate = c.running ? host.usdPerHour * cpuWeight(s) / host.runningCpus : 0;
        track.hostUsd += rate * (track.billedSeconds - billedBefore) / 3600.0;
        c.costSoFarUsd = track.hostUsd;
        c.usdPerHour = rate;
        c.reason = tr("Self-hosted: the host's %1 USD/h, split by requested CPUs (%2 of %3).")
                       .arg(host.usdPerHour, 0, 'f', 2)
                       .arg(cpuWeight(s))
                       .arg(host.runningCpus);
        return c;
    }
    if (!s.cpus || !s.memoryBytes) {
        c.reason = tr("The session's CPU and memory are not known, so its price is not either.");
        return c;
    }
    costs::LiveResources res;
    res.vcpus = *s.cpus;
    res.memoryGib = double(*s.memoryBytes) / kGiB;
    res.gpuCount = s.gpus;
    // The meter has no CPU-busy figure; a full CPU is the upper bound an active-CPU rule bills.
    res.cpuBusy = 1.0;
    const costs::LiveCost live = costs::liveCost(*entry, res, c.billedSeconds);
    c.known = live.known;
    c.reason = live.reason;
    c.costSoFarUsd = live.costSoFarUsd;
    c.usdPerHour = c.running ? live.usdPerHour : 0;
    return c;
}

void CostMeter::tick()
{
    const QDateTime now = m_clock->currentDateTimeUtc();
    QHash<QString, SessionCost> costs;
    QSet<QString> seen;
    // Orphans run on an account's engine too (made by an account this Sandbar lost): they
    // cost the same.
    const QList<SessionInfo> sessions = m_registry.sessions() + m_registry.orphans();
    const QHash<QString, HostShare> hosts = hostShares(sessions);
    for (const SessionInfo &s : sessions) {
        const QString ref = s.ref();
        seen.insert(ref);
        costs.insert(ref, price(s, m_tracks[ref], now, hosts.value(s.account)));
    }
    for (auto it = m_tracks.begin(); it != m_tracks.end();) {
        if (seen.contains(it.key()))
            ++it;
        else
            it = m_tracks.erase(it);
    }
    m_costs = costs;
    m_lastError.clear();
    const QDate today = m_clock->currentDate();
    if (m_ledger) {
        for (const auto &c : std::as_const(m_costs)) {
            if (!c.known || c.costSoFarUsd <= 0)
                continue;
            const QString id = c.ref.section(QLatin1Char('/'), 1);
            if (auto r = m_ledger->recordRunning(c.account, id, c.costSoFarUsd, today); !r.ok())
                m_lastError = r.message();
        }
    }
    Q_EMIT updated();
    if (m_watcher) {
        if (auto r = m_watcher->checkAll(today); !r.ok())
            m_lastError = r.message();
    }
}

double CostMeter::usdPerHour() const
{
    double sum = 0;
    for (const auto &c : m_costs) {
        if (c.known && c.running)
            sum += c.usdPerHour;
    }
    return sum;
}

QMap<QString, double> CostMeter::usdPerHourByAccount() const
{
    QMap<QString, double> byAccount;
    for (const auto &c : m_costs) {
        if (c.known && c.running && c.usdPerHour > 0)
            byAccount[c.account] += c.usdPerHour;
    }
    return byAccount;
}

double CostMeter::monthSpendUsd(const QString &account) const
{
    if (!m_ledger)
        return 0;
    auto r = m_ledger->spend(account, m_clock->currentDate());
    return r.ok() ? r.value() : 0;
}

void CostMeter::stopAccount(const QString &account)
{
    double budget = 0;
    if (m_ledger) {
        if (auto b = m_ledger->budget(account); b.ok() && b->has_value())
            budget = (*b)->monthlyUsd;
    }
    const double spend = monthSpendUsd(account);
    QList<SessionInfo> running;
    for (const SessionInfo &s : m_registry.sessions()) {
        if (s.account == account && s.state == SessionState::Running)
            running << s;
    }
    QStringList refs;
    for (const SessionInfo &s : running) {
        refs << s.ref();
        if (m_audit) {
            auto entry = audit::makeEntry(audit::Action::BudgetStop, account, s.provider, s.id,
                                          audit::budgetDetail(spend, budget));
            if (auto r = m_audit->append(std::move(entry)); !r.ok())
                m_lastError = r.message();
        }
    }
    Q_EMIT budgetStopped(account, refs);
    if (running.isEmpty())
        return;
    m_registry.provider(account, Callback<Provider *>(this, [this, running, account](Result<Provider *> p) {
                            if (!p.ok()) {
                                m_lastError = p.message();
                                return;
                            }
                            // One refresh of the account once every stop has answered.
                            auto pending = std::make_shared<int>(int(running.size()));
                            for (const SessionInfo &s : running) {
                                (*p)->stop(s.id, Callback<void>(this, [this, pending, account](VoidResult r) {
                                               if (!r.ok())
                                                   m_lastError = r.message();
                                               if (--*pending == 0)
                                                   m_registry.refreshAccount(account);
                                           }));
                            }
                        }));
}

} // namespace sandbar
