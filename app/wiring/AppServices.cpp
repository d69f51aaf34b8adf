#include "wiring/AppServices.h"

#include "audit/AuditedProvider.h"
#include "audit/Sanitizer.h"

#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <QThreadPool>

namespace sandbar {

QString resolveConfigDir(const QString &fromCommandLine)
{
    if (!fromCommandLine.isEmpty())
        return QDir(fromCommandLine).absolutePath();
    const QString env = qEnvironmentVariable("SANDBAR_CONFIG_DIR");
    if (!env.isEmpty())
        return QDir(env).absolutePath();
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    return QDir(base).filePath(QStringLiteral("sandbar"));
}

std::unique_ptr<AppServices> buildServices(const QString &configDir, std::unique_ptr<SecretStore> secrets,
                                           const Clock &clock)
{
    auto s = std::make_unique<AppServices>();
    s->configDir = configDir;
    s->clock = &clock;
    registerProviders(s->factories);
    s->secrets = secrets ? std::move(secrets) : std::make_unique<KeychainSecretStore>(QStringLiteral("Sandbar"));
    s->audit = std::make_unique<audit::AuditLog>(configDir);
    s->accounts = std::make_unique<AccountStore>(configDir, s->factories, *s->secrets);
    s->registry = std::make_unique<SessionRegistry>(*s->accounts, s->factories, *s->clock);

    // Every action on a provider, from the window or sandbarctl, leaves an audit row.
    audit::AuditLog *log = s->audit.get();
    s->registry->setProviderDecorator([log](std::unique_ptr<Provider> inner) -> std::unique_ptr<Provider> {
        return std::make_unique<audit::AuditedProvider>(std::move(inner), *log);
    });
    const ProviderFactories *factories = &s->factories;
    QObject::connect(s->accounts.get(), &AccountStore::accountAdded, log, [log, factories](const Account &a) {
        const ProviderFactory *f = factories->find(a.provider);
        [[maybe_unused]] auto r = log->append(audit::makeEntry(
            audit::Action::AccountAdded, a.name, a.provider, {},
            audit::sanitizeDetail(a.settings, f ? f->descriptor().accountFields : QList<FieldDescriptor>{})));
    });
    QObject::connect(s->accounts.get(), &AccountStore::accountRemoved, log, [log, factories](const Account &a) {
        [[maybe_unused]] auto r = log->append(audit::makeEntry(audit::Action::AccountRemoved, a.name, a.provider));
        // A removed account's SSH master connection ends now, not after its ControlPersist. The
        // pool is waited for when the program ends.
        if (auto end = disconnectionOf(*factories, a))
            QThreadPool::globalInstance()->start(end);
    });
    return s;
}

std::function<void()> disconnectionOf(const ProviderFactories &factories, const Account &account)
{
    const ProviderFactory *f = factories.find(account.provider);
    if (!f)
        return {};
    return f->disconnection(configWithoutSecrets(account));
}

void endConnections(const AppServices &services)
{
    QThreadPool pool;
    for (const Account &a : services.accounts->accounts())
        if (auto end = disconnectionOf(services.factories, a))
            pool.start(end);
    pool.waitForDone(10000);
}

void buildCostServices(AppServices &s)
{
    s.catalog = std::make_shared<const catalog::Catalog>(catalog::Catalog::load(s.configDir, &s.catalogOverrideError));
    s.ledger = std::make_unique<costs::CostLedger>(s.configDir);
    s.budgets = std::make_unique<costs::BudgetWatcher>(*s.ledger);
    s.costs =
        std::make_unique<CostMeter>(*s.registry, s.catalog, s.ledger.get(), s.budgets.get(), s.audit.get(), *s.clock);
}

void sampleSessionGpus(metrics::GpuSource &gpu, Provider *provider, const SessionInfo &session, QObject *context,
                       std::function<void(QList<GpuReading>)> done)
{
    if (!provider)
        return done({});
    const HostProcessMatch match = provider->hostProcessMatch(session.id);
    if (!match.isEmpty()) {
        auto r = gpu.localReadings(session.gpuUuids, metrics::SessionCgroupMatch{match.containerId, match.cgroupName});
        return done(r ? r.value() : QList<GpuReading>{});
    }
    gpu.sampleViaExec(provider, session.id, context,
                      [done](Result<QList<GpuReading>> r) { done(r ? r.value() : QList<GpuReading>{}); });
}

void buildStatsServices(AppServices &s)
{
    QSettings settings(QDir(s.configDir).filePath(QStringLiteral("sandbar.ini")), QSettings::IniFormat);
    metrics::CollectorOptions options;
    // Out-of-range values (a hand-edited file) fall back to the defaults.
    const int list = settings.value(QStringLiteral("stats/listPeriodMs"), options.listPeriodMs).toInt();
    const int detail = settings.value(QStringLiteral("stats/detailPeriodMs"), options.detailPeriodMs).toInt();
    if (list >= 250 && list <= 60000)
        options.listPeriodMs = list;
    if (detail >= 250 && detail <= 60000)
        options.detailPeriodMs = detail;
    s.gpu = std::make_unique<metrics::GpuSource>();
    s.stats = std::make_unique<metrics::StatsCollector>(*s.registry, options, *s.clock);
    metrics::GpuSource *gpu = s.gpu.get();
    s.stats->setGpuSampler([gpu](Provider *provider, const SessionInfo &session, QObject *context,
                                 std::function<void(QList<GpuReading>)> done) {
        sampleSessionGpus(*gpu, provider, session, context, std::move(done));
    });
}

} // namespace sandbar
