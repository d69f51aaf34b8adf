#pragma once

#include "accounts/SecretStore.h"
#include "common/Callback.h"
#include "providers/ProviderFactory.h"

#include <QDateTime>
#include <QObject>
#include <QStringList>
#include <QVariantMap>
#include <optional>

class QSettings;

namespace sandbar {

struct Account {
    QString name;
    QString provider;
    QVariantMap settings;   // never secrets
    QStringList secretKeys; // which secret fields are set (values live in the keychain)
    QDateTime created;
};

// Accounts: everything but secrets in an INI file under the config directory; secrets
// only through the SecretStore (the OS keychain). A corrupt settings file is kept aside
// (renamed, never deleted) and reported through loadWarning().
class AccountStore : public QObject
{
    Q_OBJECT
public:
    AccountStore(const QString &configDir, const ProviderFactories &factories, SecretStore &secrets,
                 QObject *parent = nullptr);
    ~AccountStore() override;

    QList<Account> accounts() const;
    std::optional<Account> find(const QString &name) const;
    QString loadWarning() const { return m_loadWarning; }
    QString dataDirFor(const QString &name) const;

    static VoidResult validateName(const QString &name);
    // Checks the provider, each setting against its descriptor, and that secret fields
    // arrive only in secrets.
    VoidResult validate(const Account &account, const QMap<QString, QString> &secrets) const;

    // Stores secrets first, then the settings: an account never exists without the
    // secrets it needs. Does not contact the provider.
    void add(const Account &account, const QMap<QString, QString> &secrets, Callback<void> done);
    void remove(const QString &name, Callback<void> done);
    // Settings plus secrets read back from the keychain, ready for a ProviderFactory.
    void loadConfig(const QString &name, Callback<AccountConfig> done);

    // First start: accounts for providers that answer here with no configuration.
    // Returns the names added. Runs once per config directory.
    QStringList createDefaultAccounts();

Q_SIGNALS:
    void accountsChanged();
    void accountAdded(const sandbar::Account &account);
    void accountRemoved(const QString &name, const QString &provider);

private:
    QString secretKey(const QString &account, const QString &field) const;
    void writeAccount(const Account &account);

    QString m_configDir;
    const ProviderFactories &m_factories;
    SecretStore &m_secrets;
    std::unique_ptr<QSettings> m_settings;
    QString m_loadWarning;
};

} // namespace sandbar
