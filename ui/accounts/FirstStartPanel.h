#pragma once

#include "accounts/AccountDiscovery.h"
#include "accounts/AccountStore.h"

#include <QWidget>

class QLabel;
class QVBoxLayout;

namespace sandbar::ui {

// What the main window shows while there is no account: one click makes one. Offers the
// Local sandbox (when this build has it) and each Docker or Podman engine found here, and
// "Add another account…" for everything else (the full account dialog).
class FirstStartPanel : public QWidget
{
    Q_OBJECT
public:
    FirstStartPanel(const ProviderFactories &factories, const AccountStore *accounts = nullptr,
                    QWidget *parent = nullptr);

    // Replaces the engine discovery (tests); call before the event loop turns.
    void setDiscovery(AccountDiscovery discovery);

Q_SIGNALS:
    // An account to add as it is (AccountStore::add with no secrets).
    void chosen(const sandbar::Account &account);
    void addAnotherRequested();

private:
    void runDiscovery();
    void showEngines(const QList<AccountChoice> &engines);
    QString freeName(const QString &base) const;
    void addChoice(const QString &text, const Account &account);

    const ProviderFactories &m_factories;
    const AccountStore *m_accounts;
    AccountDiscovery m_discovery;
    QVBoxLayout *m_choices;
    QLabel *m_status;
    bool m_started = false;
};

} // namespace sandbar::ui
