#pragma once

#include "accounts/AccountStore.h"
#include "common/Callback.h"
#include "common/Clock.h"
#include "providers/Provider.h"
#include "providers/ProviderFactory.h"

#include <QHash>
#include <QObject>
#include <functional>
#include <memory>

namespace sandbar {

struct SessionHandle {
    Provider *provider = nullptr; // owned by the registry
    SessionInfo session;
};

struct AccountStatus {
    enum class State { Unknown, Connecting, Ok, Failed };
    State state = State::Unknown;
    Error lastError;
    QDateTime lastRefresh;
    qint64 latencyMs = -1; // the last listing's round trip
};

// All accounts' sessions in one place. Owns one Provider per account, made on first use
// from the account's settings and keychain secrets. refresh() reconciles with every
// account and separates orphans: sessions carrying Sandbar's labels whose account no
// longer exists here.
class SessionRegistry : public QObject
{
    Q_OBJECT
public:
    // Wraps each provider as it is made (the audit log's decorator, for one).
    using ProviderDecorator = std::function<std::unique_ptr<Provider>(std::unique_ptr<Provider>)>;

    // clock stamps account statuses and is the one views of these sessions count ttl and
    // uptime on (SessionsModel); it must outlive the registry.
    SessionRegistry(AccountStore &accounts, const ProviderFactories &factories, const Clock &clock = systemClock(),
                    QObject *parent = nullptr);
    void setProviderDecorator(ProviderDecorator decorator) { m_decorator = std::move(decorator); }
    ~SessionRegistry() override;

    void provider(const QString &account, Callback<Provider *> done);
    // Provider already made for account, or nullptr.
    Provider *existingProvider(const QString &account) const;

    void refresh();
    void refreshAccount(const QString &account, Callback<QList<SessionInfo>> done = {});

    QList<SessionInfo> sessions() const;
    QList<SessionInfo> orphans() const { return m_orphans; }
    AccountStatus status(const QString &account) const { return m_status.value(account); }
    const Clock &clock() const { return *m_clock; }
    const ProviderFactories &factories() const { return m_factories; }
    const AccountStore &accounts() const { return m_accounts; }

    // REF is ACCOUNT/ID (ID may be a unique prefix or the session's name), or ID or NAME
    // alone when exactly one account has it.
    void resolve(const QString &ref, Callback<SessionHandle> done);

    static QString normalizeRef(const QString &ref);

Q_SIGNALS:
    void sessionsChanged();
    void accountStatusChanged(const QString &account);

private:
    void setSessions(const QString &account, const QList<SessionInfo> &list);
    void onAccountsChanged();
    void resolveIn(const QString &account, const QString &id, Callback<SessionHandle> done);
    Result<Provider *> makeProvider(const QString &account, const ProviderFactory &factory,
                                    const AccountConfig &config);

    AccountStore &m_accounts;
    const ProviderFactories &m_factories;
    const Clock *m_clock;
    ProviderDecorator m_decorator;
    QHash<QString, Provider *> m_providers;
    QHash<QString, QList<Callback<Provider *>>> m_waiting;
    QHash<QString, QList<SessionInfo>> m_sessions;
    QHash<QString, AccountStatus> m_status;
    QList<SessionInfo> m_orphans;
};

} // namespace sandbar
