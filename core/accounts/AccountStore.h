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
class QThreadPool;

namespace sandbar {

struct Account {
    QString name;
    QString provider;
    QVariantMap settings;   // never secrets
    QStringList secretKeys; // which secret fields are set (values live in the keychain)
    QDateTime created;
};

// What a factory needs of an account for work that uses no secret (reaching its host, ending
// its connections): name, provider and settings; no secrets, no data folder.
AccountConfig configWithoutSecrets(const Account &account);

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
    // Edits an account: new settings, and the secrets the user replaced (the others stay in
    // the keychain untouched). The name and provider stay. The account's provider is made
    // again with the new settings at its next use.
    void update(const Account &account, const QMap<QString, QString> &replacedSecrets, Callback<void> done);
    void remove(const QString &name, Callback<void> done);
    // Settings plus secrets read back from the keychain, ready for a ProviderFactory.
    void loadConfig(const QString &name, Callback<AccountConfig> done);

    // First start: accounts for providers that answer here with no configuration.
    // Returns the names added. Runs once per config directory. Blocks while it probes
    // (engine sockets, a trial bubblewrap run): for sandbarctl, before its loop runs.
    QStringList createDefaultAccounts();
    // The same with the probing on a worker thread (the window's first start); done gets the
    // names added. A store destroyed meanwhile waits for the probes to end.
    void createDefaultAccounts(Callback<QStringList> done);

Q_SIGNALS:
    void accountsChanged();
    void accountAdded(const sandbar::Account &account);
    void accountRemoved(const sandbar::Account &account);
    void accountUpdated(const QString &name);

private:
    QString secretKey(const QString &account, const QString &field) const;
    void migrateLegacyKeys();
    // A settings file that parsed but holds values of the wrong type: copied aside once.
    void keepWrongValues(const QString &path);
    // Fails when the file cannot be written; the store then holds what the disk holds.
    VoidResult writeAccount(const Account &account);
    VoidResult commitSettings();
    void writeSecrets(const QString &account, const QMap<QString, QString> &secrets, std::function<void()> then,
                      Callback<void> done);
    QStringList addDefaultAccounts(const QList<QPair<QString, QVariantMap>> &detected);

    QString m_configDir;
    const ProviderFactories &m_factories;
    SecretStore &m_secrets;
    std::unique_ptr<QSettings> m_settings;
    QString m_loadWarning;
    // Last: destroyed (waiting for its probes, which use m_factories) before the rest.
    std::unique_ptr<QThreadPool> m_detectPool;
};

} // namespace sandbar
