#pragma once

#include "accounts/AccountStore.h"
#include "providers/ProviderFactory.h"
#include "sessions/SessionRegistry.h"

#include <QMainWindow>
#include <QPointer>
#include <QSet>
#include <functional>

class QAction;
class QLabel;
class QListWidget;
class QTabWidget;
class QTableView;
class QTextBrowser;
class QTimer;

namespace sandbar {
class CostMeter;
namespace metrics {
class StatsCollector;
}
namespace audit {
class BudgetWatcher;
class CostLedger;
} // namespace audit
} // namespace sandbar

namespace sandbar::ui {

class CostStatus;
class SessionsModel;
class SessionStatsUi;

// Makes the widget shown in a terminal tab for a session (the terminal feature supplies
// it; the window does not know how terminals are built).
// attachId names a terminal the provider kept alive (empty: a new shell).
using TerminalFactory =
    std::function<QWidget *(Provider *provider, const SessionInfo &session, const QString &attachId, QWidget *parent)>;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(AccountStore &accounts, SessionRegistry &registry, const ProviderFactories &factories,
               QWidget *parent = nullptr);

    void setTerminalFactory(TerminalFactory factory) { m_terminalFactory = std::move(factory); }
    // The live cost meter: a Cost column, the hourly total in the status bar, budget alerts
    // and the per-account budget dialog.
    void setCosts(CostMeter &meter, audit::CostLedger &ledger, audit::BudgetWatcher &watcher);
    // Makes the provider comparison window (the compare feature supplies it).
    void setCompareFactory(std::function<QWidget *(QWidget *parent)> factory);
    CostStatus *costStatus() const { return m_costStatus; }
    // Statistics: sparklines for the visible rows and a Stats tab per session.
    void setStats(metrics::StatsCollector &collector);
    SessionStatsUi *statsUi() const { return m_statsUi; }
    void refreshAll();

private:
    void buildActions();
    void buildLayout();
    void reloadAccounts();
    void updateActions();
    void updateDetails();
    void showError(const QString &what, const Error &error);
    std::optional<SessionInfo> currentSession() const;
    QString currentAccount() const;

    void addAccount();
    void removeAccount();
    void checkAccount();
    void newSession();
    void createSession(const Result<CreateSpec> &spec, const QString &account);
    // Asks title/text with Yes and No without a nested event loop; yes() runs on Yes.
    void confirm(const QString &title, const QString &text, std::function<void()> yes);
    void openTerminal();
    void addTerminalTab(Provider *provider, const SessionInfo &session, const QString &attachId);
    void reattachTerminals(const QString &account);
    void runOnSession(const QString &verb, void (Provider::*action)(const QString &, Callback<void>));

    AccountStore &m_accounts;
    SessionRegistry &m_registry;
    const ProviderFactories &m_factories;
    TerminalFactory m_terminalFactory;

    QListWidget *m_accountList = nullptr;
    QTableView *m_table = nullptr;
    SessionsModel *m_model = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTextBrowser *m_details = nullptr;
    QLabel *m_status = nullptr;
    QTimer *m_refreshTimer = nullptr;
    QSet<QString> m_reattachedAccounts;
    CostStatus *m_costStatus = nullptr;
    std::function<QWidget *(QWidget *)> m_compareFactory;
    QPointer<QWidget> m_compareWindow;

    QAction *m_newSession = nullptr;
    QAction *m_terminal = nullptr;
    QAction *m_stop = nullptr;
    QAction *m_pause = nullptr;
    QAction *m_resume = nullptr;
    QAction *m_remove = nullptr;
    QAction *m_refresh = nullptr;
    QAction *m_addAccount = nullptr;
    QAction *m_removeAccount = nullptr;
    QAction *m_checkAccount = nullptr;
    QAction *m_budget = nullptr;
    QAction *m_compare = nullptr;
    QAction *m_stats = nullptr;
    SessionStatsUi *m_statsUi = nullptr;
};

} // namespace sandbar::ui
