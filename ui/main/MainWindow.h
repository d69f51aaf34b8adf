#pragma once

#include "accounts/AccountStore.h"
#include "detail/SessionDetail.h"
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
class QSplitter;
class QStackedWidget;
class QTimer;
class QToolButton;

namespace sandbar {
class CostMeter;
namespace metrics {
class StatsCollector;
}
namespace costs {
class BudgetWatcher;
class CostLedger;
} // namespace costs
} // namespace sandbar

namespace sandbar::ui {

class CostStatus;
class NewSessionDialog;
class DetailStack;
class SessionsModel;
class SessionsPane;
class SessionStatsUi;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(AccountStore &accounts, SessionRegistry &registry, const ProviderFactories &factories,
               QWidget *parent = nullptr);

    void setTerminalFactory(TerminalFactory factory);
    // The live cost meter: a Cost column, the hourly total in the status bar, budget alerts
    // and the per-account budget dialog.
    void setCosts(CostMeter &meter, costs::CostLedger &ledger, costs::BudgetWatcher &watcher);
    // Makes the provider comparison window (the compare feature supplies it).
    void setCompareFactory(std::function<QWidget *(QWidget *parent)> factory);
    // Makes the audit log's view, shown in a window of its own (the audit feature supplies it).
    void setAuditFactory(std::function<QWidget *(QWidget *parent)> factory);
    // Makes the Agents view (MCP clients' calls and the approvals they wait for), shown in a
    // window of its own (the agents feature supplies it).
    void setAgentsFactory(std::function<QWidget *(QWidget *parent)> factory);
    // Calls waiting for approval: a count on the Agents action and a button in the status bar.
    void setAgentsPending(int count);
    // Opens the Agents window, or brings it to the front.
    void showAgents();
    // The Agents window is open, not minimized and active: the person sees what arrives there.
    bool isAgentsViewActive() const;
    QWidget *agentsWindow() const { return m_agentsWindow; }
    // Opens the preferences dialog over the window (the preferences feature supplies it).
    void setPreferencesOpener(std::function<void(QWidget *parent)> opener);
    // Gives each New session dialog what it needs beyond the descriptors (the catalog for its
    // estimate, the default ttl); the window adds the provider lookup itself.
    void setNewSessionSetup(std::function<void(NewSessionDialog *dialog)> setup);
    // Quit from the menu (also when closing only hides the window to the tray).
    void setQuitHandler(std::function<void()> quit);
    CostStatus *costStatus() const { return m_costStatus; }
    // Statistics: sparklines for the visible rows and a Stats tab per session.
    void setStats(metrics::StatsCollector &collector);
    SessionStatsUi *statsUi() const { return m_statsUi; }
    void refreshAll();
    // Where the window keeps its geometry, splitters, table layout, selection and the open
    // detail page between runs ([window] of an ini file); restores from it now.
    void setStateFile(const QString &iniPath);
    void saveWindowState() const;
    DetailStack *details() const { return m_detailStack; }
    SessionsPane *sessionsPane() const { return m_pane; }

protected:
    void closeEvent(QCloseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void buildActions();
    void buildMenus();
    void openSingleWindow(QPointer<QWidget> &slot, const std::function<QWidget *(QWidget *)> &factory,
                          const QString &title, QSize size);
    void newSessionLike();
    // Asks for a name (a non-modal dialog that says where the copy's files come from), then
    // forks the current session (ForkFacet).
    void forkSession();
    void askForkName(Provider *provider, const SessionInfo &session, const QString &origin);
    // The current session's changeable options in a non-modal dialog (SettingsFacet).
    void changeSessionSettings();
    // The person's labels as KEY=VALUE lines in a non-modal dialog (LabelsFacet), Sandbar's own
    // neither shown nor changed. MainWindowMenus.cpp.
    void changeSessionLabels();
    void refreshNow();
    void buildLayout();
    void reloadAccounts();
    void updateActions();
    void updateDetails();
    void fitSessionSplit();
    void showError(const QString &what, const Error &error);
    std::optional<SessionInfo> currentSession() const;
    QString currentAccount() const;

    void addAccount();
    void editAccount();
    void removeAccount();
    void checkAccount();
    // The account's SSH host offers an unknown key: show it and trust it if the person says so.
    void offerHostKeyTrust(const QString &name, const Error &why);
    void newSession();
    NewSessionDialog *openNewSessionDialog();
    // Asks title/text with Yes and No without a nested event loop; yes() runs on Yes.
    void confirm(const QString &title, const QString &text, std::function<void()> yes);
    void openTerminal();
    void showDetailPage(SessionDetail::Page page);
    void reattachTerminals(const QString &account);

    AccountStore &m_accounts;
    SessionRegistry &m_registry;
    const ProviderFactories &m_factories;
    TerminalFactory m_terminalFactory;

    QListWidget *m_accountList = nullptr;
    QStackedWidget *m_sessionsArea = nullptr; // the pane, or the first-start offer
    SessionsPane *m_pane = nullptr;
    QTableView *m_table = nullptr; // the pane's view
    DetailStack *m_detailStack = nullptr;
    QLabel *m_placeholder = nullptr;
    QLabel *m_status = nullptr;
    QTimer *m_refreshTimer = nullptr;
    QSet<QString> m_reattachedAccounts;
    CostStatus *m_costStatus = nullptr;
    std::function<QWidget *(QWidget *)> m_compareFactory;
    QPointer<QWidget> m_compareWindow;
    std::function<QWidget *(QWidget *)> m_auditFactory;
    QPointer<QWidget> m_auditWindow;
    std::function<QWidget *(QWidget *)> m_agentsFactory;
    QPointer<QWidget> m_agentsWindow;
    QToolButton *m_agentsPending = nullptr;
    std::function<void(QWidget *)> m_preferencesOpener;
    std::function<void(NewSessionDialog *)> m_newSessionSetup;
    std::function<void()> m_quit;

    QAction *m_newSession = nullptr;
    QAction *m_terminal = nullptr;
    QAction *m_stop = nullptr;
    QAction *m_pause = nullptr;
    QAction *m_archive = nullptr;
    QAction *m_resume = nullptr;
    QAction *m_remove = nullptr;
    QAction *m_refresh = nullptr;
    QAction *m_addAccount = nullptr;
    QAction *m_removeAccount = nullptr;
    QAction *m_editAccount = nullptr;
    QAction *m_checkAccount = nullptr;
    QAction *m_budget = nullptr;
    QAction *m_compare = nullptr;
    QAction *m_stats = nullptr;
    QAction *m_files = nullptr;
    QAction *m_info = nullptr;
    QAction *m_logs = nullptr;
    QAction *m_audit = nullptr;
    QAction *m_agents = nullptr;
    QAction *m_preferences = nullptr;
    QAction *m_likeThis = nullptr;
    QAction *m_fork = nullptr;
    QAction *m_sessionSettings = nullptr;
    QAction *m_sessionLabels = nullptr;
    SessionStatsUi *m_statsUi = nullptr;
    QSplitter *m_split = nullptr;
    QSplitter *m_right = nullptr;
    bool m_sessionSplitChosen = false; // the person dragged the list/detail handle
    QString m_stateFile;
    QString m_restorePage; // the detail page to show once the restored selection is listed
};

} // namespace sandbar::ui
