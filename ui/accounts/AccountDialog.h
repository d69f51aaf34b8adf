#pragma once

#include "accounts/AccountDiscovery.h"
#include "accounts/AccountStore.h"
#include "providers/ProviderFactory.h"

#include <QDialog>
#include <QElapsedTimer>
#include <memory>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace sandbar::ui {

class DescriptorForm;

// Add or edit an account: a name, a provider, and that provider's own fields (its descriptor's
// account fields, as sandbarctl reads them). Secrets are masked and, in edit mode, never shown:
// a stored one reads "•••• stored in keychain" with Replace…; unchanged ones are kept.
// "Test connection" asks health() of a temporary provider made from the form (secrets in
// memory only) without blocking. In add mode the engines found on this computer are offered
// as one-click choices above the form.
class AccountDialog : public QDialog
{
    Q_OBJECT
public:
    // Add mode.
    AccountDialog(const ProviderFactories &factories, QWidget *parent = nullptr);
    // Edit mode: the account's provider is fixed; its name too, since AccountStore cannot
    // rename (secrets are keyed by the name in the keychain).
    AccountDialog(const ProviderFactories &factories, const Account &existing, QWidget *parent = nullptr);
    ~AccountDialog() override;

    bool isEditing() const { return m_editing; }
    // The account as filled in; secrets are never among its settings. In edit mode its
    // secretKeys are the kept ones plus the replaced ones.
    Result<Account> account() const;
    // Secrets typed in: all of them when adding, only the replaced ones when editing.
    QMap<QString, QString> secrets() const;
    // Edit mode: secret fields left as stored (keep their keychain entries).
    QStringList keptSecrets() const;

    // Replaces the engine discovery (tests); call before the dialog's event loop turns.
    void setDiscovery(AccountDiscovery discovery);
    // Picks a provider and fills the endpoint, as clicking a discovered engine does.
    void chooseEngine(const AccountChoice &choice);

    // Edit mode: where Test connection reads the kept secrets from (AccountStore::loadConfig);
    // without it the test runs without them.
    using ConfigLoader = std::function<void(const QString &name, Callback<AccountConfig> done)>;
    void setConfigLoader(ConfigLoader loader) { m_loader = std::move(loader); }

    // Runs the connection test now (the button's action).
    void testConnection();

Q_SIGNALS:
    // The test finished: ok, and the text shown ("Connected — Docker Engine 24.0.7, 12 ms").
    void connectionTested(bool ok, const QString &text);
    void enginesDiscovered(int count);

private:
    void build();
    void providerChanged();
    void runDiscovery();
    void showEngines(const QList<AccountChoice> &engines);
    void finishTest(int generation, bool ok, const QString &text);
    void probe(int generation, const ProviderFactory *factory, const AccountConfig &config);

    const ProviderFactories &m_factories;
    bool m_editing = false;
    Account m_existing;
    QFormLayout *m_top = nullptr;
    QLineEdit *m_name = nullptr;
    QComboBox *m_provider = nullptr;
    QLabel *m_description = nullptr;
    DescriptorForm *m_form = nullptr;
    QLabel *m_error = nullptr; // what is wrong with the input, shown above the buttons
    QWidget *m_engines = nullptr;
    QVBoxLayout *m_enginesLayout = nullptr;
    QPushButton *m_test = nullptr;
    QProgressBar *m_spinner = nullptr;
    QLabel *m_testResult = nullptr;
    AccountDiscovery m_discovery;
    ConfigLoader m_loader;
    bool m_discoveryStarted = false;
    int m_testGeneration = 0;
    std::unique_ptr<Provider> m_testProvider;
    QElapsedTimer m_testClock;
};

// The old name of the add mode, for existing callers.
using AddAccountDialog = AccountDialog;

} // namespace sandbar::ui
