#pragma once

#include "accounts/AccountStore.h"
#include "accounts/SecretStore.h"
#include "audit/AuditLog.h"
#include "catalog/Catalog.h"
#include "common/Clock.h"
#include "costs/BudgetWatcher.h"
#include "costs/CostLedger.h"
#include "costs/CostMeter.h"
#include "mcp/AgentHub.h"
#include "metrics/GpuSource.h"
#include "metrics/StatsCollector.h"
#include "providers/ProviderFactory.h"
#include "sessions/SessionRegistry.h"

#include <QString>
#include <memory>

namespace sandbar {

// The composition root: every long-lived service, built once and passed to whoever
// needs it. Nothing else in Sandbar constructs these.
struct AppServices {
    QString configDir;
    // The one clock of everything whose behaviour depends on time (ttl countdowns, billed
    // time and budgets' months, statistics back-off); the system's, unless a test builds
    // the services with its own.
    const Clock *clock = &systemClock();
    ProviderFactories factories;
    std::unique_ptr<SecretStore> secrets;
    std::unique_ptr<audit::AuditLog> audit; // declared before what writes to it
    std::unique_ptr<AccountStore> accounts;
    std::unique_ptr<SessionRegistry> registry;

    // Built by buildCostServices (the window's live meter; sandbarctl needs none of it).
    std::shared_ptr<const catalog::Catalog> catalog;
    std::optional<Error> catalogOverrideError; // a broken catalog.json: the shipped one is used
    std::unique_ptr<costs::CostLedger> ledger;
    std::unique_ptr<costs::BudgetWatcher> budgets;
    std::unique_ptr<CostMeter> costs;

    // Built by buildStatsServices (the window's charts and sparklines).
    std::unique_ptr<metrics::GpuSource> gpu;
    std::unique_ptr<metrics::StatsCollector> stats;

    // Built by buildGuiServices (not listening yet; the window's wiring starts it): the
    // window's end of sandbarctl mcp's approval channel, and the AgentSink of the window's own
    // MCP endpoint, so both queue in the one Agents view.
    std::unique_ptr<mcp::AgentHub> agentHub;
};

// Where Sandbar keeps its files: DIR from --config-dir, else SANDBAR_CONFIG_DIR, else the
// platform's per-user config location.
QString resolveConfigDir(const QString &fromCommandLine);

// Registers every provider this build has. Shared by the GUI, sandbarctl and the bench.
void registerProviders(ProviderFactories &factories);

// secrets: null for the OS keychain; tests may pass their own, and their own clock.
std::unique_ptr<AppServices> buildServices(const QString &configDir, std::unique_ptr<SecretStore> secrets = {},
                                           const Clock &clock = systemClock());

// What ends an account's connections (an SSH master) when it is removed; empty for none.
std::function<void()> disconnectionOf(const ProviderFactories &factories, const Account &account);
// The window quits: every account's SSH master connection ends (ssh -O exit), each bounded.
// Blocks for up to 10 s.
void endConnections(const AppServices &services);

// The catalog, the cost ledger, budgets and the live cost meter (not started).
void buildCostServices(AppServices &services);

// The GPU source and the statistics collector (periods from the settings' [stats] group:
// listPeriodMs, detailPeriodMs). Sessions with GPUs get NVML readings when their provider
// runs them on this machine, else nvidia-smi through exec.
void buildStatsServices(AppServices &services);

// One session's GPU readings, the way the collector and `sandbarctl stats` take them: an
// empty list when there are none or they cannot be read (the source says why, once).
void sampleSessionGpus(metrics::GpuSource &gpu, Provider *provider, const SessionInfo &session, QObject *context,
                       std::function<void(QList<GpuReading>)> done);

} // namespace sandbar
