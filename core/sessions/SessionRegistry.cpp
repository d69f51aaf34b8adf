#include "sessions/SessionRegistry.h"

#include "common/OffThread.h"
#include "providers/PartialDownloads.h"

#include <QElapsedTimer>
#include <algorithm>

namespace sandbar {

SessionRegistry::SessionRegistry(AccountStore &accounts, const ProviderFactories &factories, const Clock &clock,
                                 QObject *parent)
    : QObject(parent)
    , m_accounts(accounts)
    , m_factories(factories)
    , m_clock(&clock)
{
    connect(&m_accounts, &AccountStore::accountsChanged, this, &SessionRegistry::onAccountsChanged);
    // New settings: the provider is made again at its next use (the listing stays until then).
    connect(&m_accounts, &AccountStore::accountUpdated, this, [this](const QString &name) {
        if (Provider *old = m_providers.take(name))
            old->deleteLater();
        m_status.remove(name);
        refreshAccount(name);
    });
}

SessionRegistry::~SessionRegistry()
{
    qDeleteAll(m_providers);
}

Provider *SessionRegistry::existingProvider(const QString &account) const
{
    return m_providers.value(account);
}

void SessionRegistry::provider(const QString &account, Callback<Provider *> done)
{
    if (Provider *p = m_providers.value(account))
        return done(p);
    const bool first = !m_waiting.contains(account);
    m_waiting[account].append(done);
    if (!first)
        return;
    m_status[account].state = AccountStatus::State::Connecting;
    // Calls back everyone waiting for this account; taken only now, so that calls made while
    // the provider is being made join the same attempt.
    const auto finish = [this, account](const std::function<Result<Provider *>()> &make) {
        const Result<Provider *> p = make();
        const auto waiting = m_waiting.take(account);
        if (!p.ok()) {
            m_status[account] = AccountStatus{AccountStatus::State::Failed, p.error(), m_clock->currentDateTimeUtc()};
            Q_EMIT accountStatusChanged(account);
        }
        for (const auto &cb : waiting)
            cb(p);
    };
    m_accounts.loadConfig(
        account, Callback<AccountConfig>(this, [this, account, finish](Result<AccountConfig> config) {
            if (!config.ok())
                return finish([&]() -> Result<Provider *> { return config.error(); });
            const ProviderFactory *factory = m_factories.find(config->provider);
            if (!factory)
                return finish([&]() -> Result<Provider *> {
                    return makeError(ErrorCode::Unsupported,
                                     tr("Account '%1' uses provider '%2', which this build of Sandbar does not have")
                                         .arg(account, config->provider));
                });
            const auto prepare = factory->preparation(*config);
            if (!prepare)
                return finish([&] { return makeProvider(account, *factory, *config); });
            // The factory's blocking work (socket probes) runs on a worker thread.
            runOffThread<AccountConfig>(
                this, [prepare, input = *config] { return prepare(input); },
                [this, account, factory, finish](AccountConfig prepared) {
                    finish([&] { return makeProvider(account, *factory, prepared); });
                });
        }));
}

Result<Provider *> SessionRegistry::makeProvider(const QString &account, const ProviderFactory &factory,
                                                 const AccountConfig &config)
{
    if (!m_accounts.find(account)) // removed while its provider was being prepared
        return makeError(ErrorCode::NotFound, tr("No account named '%1'").arg(account));
    auto made = factory.create(config);
    if (!made.ok())
        return made.error();
    std::unique_ptr<Provider> provider = std::move(made.value());
    provider->setStateDir(config.dataDir);
    if (m_decorator)
        provider = m_decorator(std::move(provider));
    provider->setStateDir(config.dataDir);
    // Downloads a killed app left half-done are removed now, before anything new starts.
    PartialDownloads(PartialDownloads::journalIn(config.dataDir)).sweep();
    Provider *p = provider.release();
    p->setParent(nullptr);
    m_providers.insert(account, p);
    connect(p, &Provider::sessionChanged, this, [this, account](const SessionInfo &s) {
        auto &list = m_sessions[account];
        auto it = std::find_if(list.begin(), list.end(), [&](const SessionInfo &x) { return x.id == s.id; });
        if (it != list.end())
            *it = s;
        else if (s.labels.value(QLatin1String(labels::Account)) == account)
            list.append(s);
        Q_EMIT sessionsChanged();
    });
    connect(p, &Provider::sessionRemoved, this, [this, account](const QString &id) {
        auto &list = m_sessions[account];
        list.erase(std::remove_if(list.begin(), list.end(), [&](const SessionInfo &x) { return x.id == id; }),
                   list.end());
        Q_EMIT sessionsChanged();
    });
    return p;
}

void SessionRegistry::refresh()
{
    for (const auto &a : m_accounts.accounts())
        refreshAccount(a.name);
}

void SessionRegistry::refreshAccount(const QString &account, Callback<QList<SessionInfo>> done)
{
    provider(account, Callback<Provider *>(this, [this, account, done](Result<Provider *> p) {
                 if (!p.ok()) {
                     done(p.error());
                     return;
                 }
                 QElapsedTimer latency; // a measurement for the status, not a deadline
                 latency.start();
                 (*p)->listSessions(
                     ListOptions{},
                     Callback<QList<SessionInfo>>(this, [this, account, done, latency](Result<QList<SessionInfo>> r) {
                         auto &st = m_status[account];
                         st.latencyMs = latency.elapsed();
                         st.lastRefresh = m_clock->currentDateTimeUtc();
                         if (!r.ok()) {
                             st.state = AccountStatus::State::Failed;
                             st.lastError = r.error();
                             Q_EMIT accountStatusChanged(account);
                             done(r.error());
                             return;
                         }
                         st.state = AccountStatus::State::Ok;
                         Q_EMIT accountStatusChanged(account);
                         setSessions(account, r.value());
                         done(sessions());
                     }));
             }));
}

void SessionRegistry::setSessions(const QString &account, const QList<SessionInfo> &list)
{
    // Sessions another account of this store owns (two accounts on one engine) are left to
    // that account's listing; those whose account is unknown here are orphans.
    QList<SessionInfo> mine;
    m_orphans.erase(
        std::remove_if(m_orphans.begin(), m_orphans.end(), [&](const SessionInfo &s) { return s.account == account; }),
        m_orphans.end());
    for (SessionInfo s : list) {
        const QString owner = s.labels.value(QLatin1String(labels::Account));
        s.account = account;
        if (!s.owned || owner.isEmpty() || owner == account) {
            mine << s;
        } else if (!m_accounts.find(owner)) {
            m_orphans << s;
        }
    }
    m_sessions.insert(account, mine);
    Q_EMIT sessionsChanged();
}

QList<SessionInfo> SessionRegistry::sessions() const
{
    QList<SessionInfo> out;
    for (const auto &a : m_accounts.accounts())
        out += m_sessions.value(a.name);
    return out;
}

void SessionRegistry::onAccountsChanged()
{
    QStringList known;
    for (const auto &a : m_accounts.accounts())
        known << a.name;
    for (const auto &name : m_providers.keys()) {
        if (!known.contains(name)) {
            delete m_providers.take(name);
            m_sessions.remove(name);
            m_status.remove(name);
        }
    }
    Q_EMIT sessionsChanged();
}

QString SessionRegistry::normalizeRef(const QString &ref)
{
    return ref.trimmed();
}

void SessionRegistry::resolveIn(const QString &account, const QString &id, Callback<SessionHandle> done)
{
    provider(account, Callback<Provider *>(this, [this, id, account, done](Result<Provider *> p) {
                 if (!p.ok())
                     return done(p.error());
                 Provider *prov = *p;
                 prov->info(id, Callback<SessionInfo>(this, [prov, done, account, id](Result<SessionInfo> info) {
                                if (!info.ok()) {
                                    if (info.code() == ErrorCode::NotFound)
                                        return done(makeError(ErrorCode::NotFound,
                                                              tr("No session '%1' in account '%2'").arg(id, account)));
                                    return done(info.error());
                                }
                                SessionInfo s = info.value();
                                s.account = account;
                                done(SessionHandle{prov, s});
                            }));
             }));
}

void SessionRegistry::resolve(const QString &refIn, Callback<SessionHandle> done)
{
    const QString ref = normalizeRef(refIn);
    if (ref.isEmpty())
        return done(makeError(ErrorCode::InvalidArgument, tr("A session reference is empty; use ACCOUNT/ID")));
    const qsizetype slash = ref.indexOf(QLatin1Char('/'));
    if (slash > 0) {
        const QString account = ref.left(slash);
        const QString id = ref.mid(slash + 1);
        if (!m_accounts.find(account))
            return done(makeError(ErrorCode::NotFound, tr("No account named '%1' (in '%2')").arg(account, ref)));
        if (id.isEmpty())
            return done(makeError(ErrorCode::InvalidArgument, tr("'%1' names no session; use ACCOUNT/ID").arg(ref)));
        return resolveIn(account, id, done);
    }
    // No account given: look the id or name up in every account's listing.
    const auto accounts = m_accounts.accounts();
    if (accounts.isEmpty())
        return done(makeError(ErrorCode::NotFound, tr("No session '%1': there are no accounts").arg(ref)));
    struct Search {
        int pending = 0;
        QList<SessionHandle> found;
        QStringList errors;
    };
    auto search = std::make_shared<Search>();
    search->pending = int(accounts.size());
    for (const auto &a : accounts) {
        const QString name = a.name;
        refreshAccount(
            name, Callback<QList<SessionInfo>>(this, [this, search, ref, name, done](Result<QList<SessionInfo>> r) {
                if (r.ok()) {
                    for (const auto &s : m_sessions.value(name)) {
                        if (s.id.startsWith(ref) || s.name == ref)
                            search->found << SessionHandle{m_providers.value(name), s};
                    }
                } else {
                    search->errors << QStringLiteral("%1: %2").arg(name, r.message());
                }
                if (--search->pending > 0)
                    return;
                if (search->found.size() == 1)
                    return done(search->found.first());
                if (search->found.size() > 1) {
                    QStringList refs;
                    for (const auto &h : search->found)
                        refs << h.session.ref();
                    return done(
                        makeError(ErrorCode::Conflict,
                                  tr("'%1' matches several sessions: %2").arg(ref, refs.join(QLatin1String(", ")))));
                }
                QString msg = tr("No session matches '%1'").arg(ref);
                if (!search->errors.isEmpty())
                    msg += tr(" (unreachable: %1)").arg(search->errors.join(QLatin1String("; ")));
                done(makeError(ErrorCode::NotFound, msg));
            }));
    }
}

} // namespace sandbar
