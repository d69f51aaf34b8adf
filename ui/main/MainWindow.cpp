#include "main/MainWindow.h"

#include "accounts/AccountBadges.h"
#include "accounts/HostKeyPrompt.h"
#include "detail/DetailStack.h"
#include "dialogs/SessionSettingsDialog.h"
#include "main/CostStatus.h"
#include "main/Dialogs.h"
#include "sessions/SessionStatsUi.h"
#include "sessions/SessionsModel.h"
#include "sessions/SessionsPane.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPointer>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {
constexpr int kRefreshMs = 5000;
}

MainWindow::MainWindow(AccountStore &accounts, SessionRegistry &registry, const ProviderFactories &factories,
                       QWidget *parent)
    : QMainWindow(parent)
    , m_accounts(accounts)
    , m_registry(registry)
    , m_factories(factories)
{
    setWindowTitle(tr("Sandbar"));
    setWindowIcon(QIcon(QStringLiteral(":/sandbar/icons/sandbar.svg")));
    resize(1280, 800);
    buildActions();
    buildLayout();
    reloadAccounts();
    connect(&m_accounts, &AccountStore::accountsChanged, this, [this]() {
        reloadAccounts();
        refreshAll();
    });
    connect(&m_registry, &SessionRegistry::accountStatusChanged, this, [this](const QString &account) {
        reloadAccounts();
        if (m_registry.status(account).state == AccountStatus::State::Ok)
            reattachTerminals(account);
    });
    connect(&m_registry, &SessionRegistry::sessionsChanged, this, [this]() {
        reloadAccounts(); // the session counts
        updateActions();
        updateDetails();
    });
    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setInterval(kRefreshMs);
    connect(m_refreshTimer, &QTimer::timeout, this, &MainWindow::refreshAll);
    m_refreshTimer->start();
    updateActions();
}

void MainWindow::buildActions()
{
    auto *tb = addToolBar(tr("Sessions"));
    tb->setObjectName(QStringLiteral("sessionsToolbar"));
    tb->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_newSession = tb->addAction(tr("New session…"), this, &MainWindow::newSession);
    m_newSession->setShortcut(QKeySequence::New);
    m_terminal = tb->addAction(tr("Terminal"), this, &MainWindow::openTerminal);
    m_terminal->setObjectName(QStringLiteral("terminalAction"));
    m_terminal->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    m_terminal->setToolTip(tr("Open a new terminal in the selected session"));
    tb->addSeparator();
    m_stats = tb->addAction(tr("Statistics"), this, [this]() { showDetailPage(SessionDetail::Page::Stats); });
    m_stats->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    m_stats->setObjectName(QStringLiteral("statsAction"));
    m_stats->setToolTip(tr("Charts of CPU, memory, network, disk and GPU for the selected session"));
    m_stats->setVisible(false); // until the window is given a collector
    m_files = tb->addAction(tr("Files"), this, [this]() { showDetailPage(SessionDetail::Page::Files); });
    m_files->setObjectName(QStringLiteral("filesAction"));
    m_files->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_files->setToolTip(tr("Browse, upload and download the selected session's files"));
    m_info = new QAction(tr("Session info"), this);
    m_info->setObjectName(QStringLiteral("infoAction"));
    m_info->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    connect(m_info, &QAction::triggered, this, [this]() { showDetailPage(SessionDetail::Page::Info); });
    m_logs = new QAction(tr("Logs"), this);
    m_logs->setObjectName(QStringLiteral("logsAction"));
    m_logs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    connect(m_logs, &QAction::triggered, this, [this]() { showDetailPage(SessionDetail::Page::Logs); });
    addActions({m_info, m_logs});
    const auto bulk = [this](BulkActions::Verb verb) { return [this, verb]() { m_pane->runBulk(verb); }; };
    m_stop = tb->addAction(tr("Stop"), this, bulk(BulkActions::Verb::Stop));
    m_stop->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    m_pause = tb->addAction(tr("Pause"), this, bulk(BulkActions::Verb::Pause));
    m_pause->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    m_archive = new QAction(tr("Archive"), this);
    m_archive->setObjectName(QStringLiteral("archiveAction"));
    m_archive->setToolTip(tr("Move the selected sessions to the provider's cheaper storage; Resume restores them"));
    connect(m_archive, &QAction::triggered, this, bulk(BulkActions::Verb::Archive));
    m_resume = tb->addAction(tr("Resume"), this, bulk(BulkActions::Verb::Resume));
    m_resume->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U));
    m_remove = tb->addAction(tr("Remove"), this, bulk(BulkActions::Verb::Remove));
    m_remove->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Delete));
    m_remove->setToolTip(tr("Remove the selected sessions (their files inside the sandbox are deleted)"));
    tb->addSeparator();
    m_refresh = tb->addAction(tr("Refresh"), this, &MainWindow::refreshNow);
    m_refresh->setShortcut(QKeySequence::Refresh);

    m_addAccount = new QAction(tr("Add account…"), this);
    connect(m_addAccount, &QAction::triggered, this, &MainWindow::addAccount);
    m_editAccount = new QAction(tr("Edit account…"), this);
    m_editAccount->setObjectName(QStringLiteral("editAccountAction"));
    connect(m_editAccount, &QAction::triggered, this, &MainWindow::editAccount);
    m_removeAccount = new QAction(tr("Remove account"), this);
    connect(m_removeAccount, &QAction::triggered, this, &MainWindow::removeAccount);
    m_checkAccount = new QAction(tr("Check connection"), this);
    connect(m_checkAccount, &QAction::triggered, this, &MainWindow::checkAccount);
    m_budget = new QAction(tr("Budget…"), this);
    m_budget->setObjectName(QStringLiteral("budgetAction"));
    m_budget->setVisible(false); // until a cost meter is set
    connect(m_budget, &QAction::triggered, this, [this]() {
        if (m_costStatus && !currentAccount().isEmpty())
            m_costStatus->editBudget(currentAccount());
    });
    tb->addSeparator();
    m_compare = tb->addAction(tr("Compare providers…"));
    m_compare->setObjectName(QStringLiteral("compareAction"));
    m_compare->setVisible(false); // until a compare view is supplied
    connect(m_compare, &QAction::triggered, this, [this]() {
        openSingleWindow(m_compareWindow, m_compareFactory, tr("Compare providers — Sandbar"), QSize(1400, 900));
    });
    m_agents = tb->addAction(tr("Agents…"));
    m_agents->setObjectName(QStringLiteral("agentsAction"));
    m_agents->setToolTip(tr("What AI agents do through Sandbar's MCP server, and the calls waiting for your approval"));
    m_agents->setVisible(false); // until an agents view is supplied
    connect(m_agents, &QAction::triggered, this, &MainWindow::showAgents);
    buildMenus();
}

void MainWindow::buildLayout()
{
    auto *split = new QSplitter(this);
    m_split = split;
    split->setObjectName(QStringLiteral("mainSplitter"));
    auto *left = new QWidget(split);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(6, 6, 0, 6);
    auto *accountsLabel = new QLabel(tr("<b>Accounts</b>"), left);
    m_accountList = new QListWidget(left);
    m_accountList->setObjectName(QStringLiteral("accountList"));
    m_accountList->setAccessibleName(tr("Accounts"));
    m_accountList->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_accountList->addActions({m_addAccount, m_editAccount, m_checkAccount, m_budget, m_removeAccount});
    m_accountList->setIconSize(QSize(24, 24));
    connect(m_accountList, &QListWidget::itemDoubleClicked, this, &MainWindow::editAccount);
    auto *accountBar = new QToolBar(left);
    accountBar->findChild<QWidget *>(QStringLiteral("qt_toolbar_ext_button"))
        ->setAccessibleName(tr("More account actions"));
    accountBar->addAction(m_addAccount);
    accountBar->addAction(m_checkAccount);
    accountBar->addAction(m_budget);
    leftLayout->addWidget(accountsLabel);
    leftLayout->addWidget(m_accountList, 1);
    leftLayout->addWidget(accountBar);

    auto *right = new QSplitter(Qt::Vertical, split);
    m_right = right;
    right->setObjectName(QStringLiteral("sessionSplitter"));
    m_sessionsArea = new QStackedWidget(right);
    m_pane = new SessionsPane(m_registry, m_sessionsArea);
    m_sessionsArea->addWidget(m_pane);
    auto *firstStart = new FirstStartPanel(m_factories, &m_accounts, m_sessionsArea);
    m_sessionsArea->addWidget(firstStart);
    connect(firstStart, &FirstStartPanel::chosen, this, [this](const Account &a) {
        m_accounts.add(a, {}, Callback<void>(this, [this](VoidResult r) {
                           if (!r.ok())
                               showError(tr("Add account"), r.error());
                       }));
    });
    connect(firstStart, &FirstStartPanel::addAnotherRequested, this, &MainWindow::addAccount);
    m_table = m_pane->view();
    connect(m_pane, &SessionsPane::activated, this, [this](const SessionInfo &) { openTerminal(); });
    connect(m_pane, &SessionsPane::selectionChanged, this, [this]() {
        updateActions();
        updateDetails();
    });
    connect(m_pane->bulkActions(), &BulkActions::started, this, [this](BulkActions::Verb verb, int count) {
        m_status->setText(tr("%1: %2 session(s)…").arg(BulkActions::verbText(verb)).arg(count));
    });
    connect(m_pane->bulkActions(), &BulkActions::finished, this,
            [this](int ok, const QList<QPair<QString, Error>> &failures) {
                // The pane shows the one error list; the status line says how it went.
                m_status->setText(failures.isEmpty() ? tr("Done: %1 session(s).").arg(ok)
                                                     : tr("%1 done, %2 not done.").arg(ok).arg(failures.size()));
            });
    m_placeholder = new QLabel(right);
    m_placeholder->setObjectName(QStringLiteral("detailPlaceholder"));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setText(
        tr("Select a session to see its terminals, statistics, files, details and logs, or create one with "
           "<b>New session</b> (Ctrl+N)."));
    m_detailStack = new DetailStack(m_registry, m_placeholder, right);
    // Height the window gains goes to a session's detail; the list's share is fitSessionSplit's
    // until the person drags the handle.
    right->setStretchFactor(0, 0);
    right->setStretchFactor(1, 1);
    connect(right, &QSplitter::splitterMoved, this, [this] { m_sessionSplitChosen = true; });
    right->installEventFilter(this);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({220, 1060});
    setCentralWidget(split);

    connect(m_accountList, &QListWidget::currentRowChanged, this, [this]() {
        m_pane->setAccountFilter(currentAccount());
        updateActions();
    });
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    statusBar()->addWidget(m_status, 1);
}

void MainWindow::setStats(metrics::StatsCollector &collector)
{
    m_statsUi = new SessionStatsUi(collector, m_pane->view(), nullptr, this);
    DetailServices services = m_detailStack->services();
    services.stats = &collector;
    m_detailStack->setServices(services);
    m_stats->setVisible(true);
    updateActions();
}

void MainWindow::setCosts(CostMeter &meter, costs::CostLedger &ledger, costs::BudgetWatcher &watcher)
{
    m_costStatus = new CostStatus(meter, ledger, watcher, this);
    statusBar()->addPermanentWidget(m_costStatus->label());
    m_pane->model()->setCostMeter(&meter);
    m_budget->setVisible(true);
}

void MainWindow::setCompareFactory(std::function<QWidget *(QWidget *)> factory)
{
    m_compareFactory = std::move(factory);
    m_compare->setVisible(bool(m_compareFactory));
}

QString MainWindow::currentAccount() const
{
    const auto *item = m_accountList->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

void MainWindow::reloadAccounts()
{
    const QString keep = currentAccount();
    QHash<QString, QPair<int, int>> counts; // account -> sessions, running
    for (const auto &x : m_registry.sessions()) {
        auto &c = counts[x.account];
        ++c.first;
        if (x.state == SessionState::Running)
            ++c.second;
    }
    QSignalBlocker block(m_accountList);
    m_accountList->clear();
    auto *all = new QListWidgetItem(tr("All accounts"), m_accountList);
    all->setData(Qt::UserRole, QString());
    QStringList problems;
    for (const auto &a : m_accounts.accounts()) {
        const AccountStatus st = m_registry.status(a.name);
        if (st.state == AccountStatus::State::Failed)
            problems << QStringLiteral("%1: %2").arg(a.name, st.lastError.message);
        const ProviderFactory *f = m_factories.find(a.provider);
        const auto [sessions, running] = counts.value(a.name);
        // A remote engine's machine beside its name, unless the name says it already.
        const QString host = f ? f->accountHost(a.settings) : QString();
        const QString label = host.isEmpty() || host == a.name ? a.name : tr("%1 · %2").arg(a.name, host);
        auto *item =
            new QListWidgetItem(accountIcon(a.provider, f ? f->descriptor().look : ProviderLook{}, st.state),
                                sessions ? QStringLiteral("%1  (%2)").arg(label).arg(sessions) : label, m_accountList);
        item->setData(Qt::UserRole, a.name);
        const QString kind = f ? f->descriptor().displayName : a.provider;
        item->setToolTip(accountToolTip(host.isEmpty() ? kind : tr("%1 on %2").arg(kind, host), st, sessions, running));
    }
    int row = 0;
    for (int i = 0; i < m_accountList->count(); ++i) {
        if (m_accountList->item(i)->data(Qt::UserRole).toString() == keep)
            row = i;
    }
    m_accountList->setCurrentRow(row);
    // No account at all: offer the Local sandbox and the engines found, not an empty table.
    const bool none = m_accounts.accounts().isEmpty();
    m_sessionsArea->setCurrentIndex(none ? 1 : 0);
    if (none)
        m_status->setText(tr("No accounts yet: choose one to start."));
    else
        m_status->setText(problems.isEmpty() ? tr("%n account(s)", nullptr, int(m_accounts.accounts().size()))
                                             : problems.join(QLatin1String("   ")));
}

std::optional<SessionInfo> MainWindow::currentSession() const
{
    return m_pane->currentSession();
}

void MainWindow::updateActions()
{
    const auto s = currentSession();
    Provider *p = s ? m_registry.existingProvider(s->account) : nullptr;
    const Capabilities caps = p ? p->capabilities() : Capabilities{};
    const bool running = s && s->state == SessionState::Running;
    m_newSession->setEnabled(!m_accounts.accounts().isEmpty());
    // Without a PTY a provider that runs commands still gets a console.
    const bool console = caps.testFlag(Capability::Pty) || caps.testFlag(Capability::Exec);
    m_terminal->setEnabled(running && console && bool(m_detailStack->services().terminals));
    m_files->setEnabled(s.has_value());
    m_info->setEnabled(s.has_value());
    m_logs->setEnabled(s.has_value() && caps.testFlag(Capability::Logs));
    m_likeThis->setEnabled(s.has_value());
    m_fork->setEnabled(s.has_value() && caps.testFlag(Capability::Fork));
    m_fork->setVisible(caps.testFlag(Capability::Fork));
    const bool settings = p && caps.testFlag(Capability::Settings) && !changeableOptions(p->descriptor()).isEmpty();
    m_sessionSettings->setEnabled(s.has_value() && settings);
    m_sessionSettings->setVisible(settings);
    m_sessionLabels->setEnabled(s.has_value() && caps.testFlag(Capability::Labels));
    m_sessionLabels->setVisible(caps.testFlag(Capability::Labels));
    // A verb is on when it applies to at least one selected session (the rest are skipped).
    const auto selected = m_pane->selectedSessions();
    const auto any = [this, &selected](BulkActions::Verb verb) {
        return std::any_of(selected.begin(), selected.end(), [this, verb](const SessionInfo &x) {
            return m_pane->bulkActions()->whyNot(verb, x).isEmpty();
        });
    };
    m_stop->setEnabled(any(BulkActions::Verb::Stop));
    // A stopped session's history can still be looked at (an OOM kill, say).
    m_stats->setEnabled(s.has_value() && m_statsUi);
    m_pause->setEnabled(any(BulkActions::Verb::Pause));
    m_resume->setEnabled(any(BulkActions::Verb::Resume));
    m_archive->setEnabled(any(BulkActions::Verb::Archive));
    m_archive->setVisible(std::any_of(selected.begin(), selected.end(), [this](const SessionInfo &x) {
        const Provider *provider = m_registry.existingProvider(x.account);
        return provider && provider->capabilities().testFlag(Capability::Archive);
    }));
    m_remove->setEnabled(any(BulkActions::Verb::Remove));
    const bool account = !currentAccount().isEmpty();
    m_removeAccount->setEnabled(account);
    m_editAccount->setEnabled(account);
    m_checkAccount->setEnabled(account);
    m_budget->setEnabled(account);
}

void MainWindow::fitSessionSplit()
{
    const int room = m_right->height() - m_right->handleWidth();
    if (m_sessionSplitChosen || room <= 0)
        return;
    // A selected session's detail gets the room and the list keeps a few rows; with nothing
    // selected the detail is only a hint, and the list has most of the height.
    int list = room * 3 / 5;
    if (currentSession()) {
        const int rows = qBound(3, m_table->model()->rowCount(), 5);
        list = qMin(m_pane->heightForRows(rows), room * 2 / 5);
    }
    m_right->setSizes({list, room - list});
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    // The splitter's own size, not the window's: a window system may resize the window before
    // its layout has given the splitter its height.
    if (watched == m_right && event->type() == QEvent::Resize)
        fitSessionSplit();
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::updateDetails()
{
    fitSessionSplit();
    SessionDetail *d = m_detailStack->showSession(currentSession());
    if (d && !m_restorePage.isEmpty()) {
        if (const auto page = SessionDetail::pageFromKey(m_restorePage); page && d->hasPage(*page))
            d->showPage(*page);
        m_restorePage.clear();
    }
}

void MainWindow::setStateFile(const QString &iniPath)
{
    m_stateFile = iniPath;
    QSettings settings(iniPath, QSettings::IniFormat);
    settings.beginGroup(QStringLiteral("window"));
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("state")).toByteArray());
    m_split->restoreState(settings.value(QStringLiteral("mainSplitter")).toByteArray());
    // Saved before the split fitted itself, a saved split was the person's.
    const QByteArray sessionSplit = settings.value(QStringLiteral("sessionSplitter")).toByteArray();
    m_sessionSplitChosen = settings.value(QStringLiteral("sessionSplitChosen"), !sessionSplit.isEmpty()).toBool();
    if (m_sessionSplitChosen)
        m_right->restoreState(sessionSplit);
    fitSessionSplit();
    m_restorePage = settings.value(QStringLiteral("detailPage")).toString();
    m_pane->restoreState(settings);
}

void MainWindow::saveWindowState() const
{
    if (m_stateFile.isEmpty())
        return;
    QSettings settings(m_stateFile, QSettings::IniFormat);
    settings.beginGroup(QStringLiteral("window"));
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("state"), saveState());
    settings.setValue(QStringLiteral("mainSplitter"), m_split->saveState());
    settings.setValue(QStringLiteral("sessionSplitter"), m_right->saveState());
    settings.setValue(QStringLiteral("sessionSplitChosen"), m_sessionSplitChosen);
    if (const SessionDetail *d = m_detailStack->currentDetail())
        settings.setValue(QStringLiteral("detailPage"), SessionDetail::pageKey(d->currentPage()));
    m_pane->saveState(settings);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveWindowState();
    QMainWindow::closeEvent(event);
}

void MainWindow::setTerminalFactory(TerminalFactory factory)
{
    DetailServices services = m_detailStack->services();
    services.terminals = std::move(factory);
    m_detailStack->setServices(services);
    updateActions();
}

void MainWindow::showDetailPage(SessionDetail::Page page)
{
    const auto s = currentSession();
    if (!s)
        return;
    SessionDetail *d = m_detailStack->showSession(s);
    if (d && d->hasPage(page))
        d->showPage(page);
}

void MainWindow::refreshAll()
{
    m_registry.refresh();
}

void MainWindow::showError(const QString &what, const Error &error)
{
    m_status->setText(QStringLiteral("%1: %2").arg(what, error.message));
    // Window-modal and opened, not exec'd: the event loop (refreshes, terminals) goes on.
    auto *box = new QMessageBox(QMessageBox::Warning, what, error.message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::confirm(const QString &title, const QString &text, std::function<void()> yes)
{
    auto *box = new QMessageBox(QMessageBox::Question, title, text, QMessageBox::Yes | QMessageBox::No, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setDefaultButton(QMessageBox::No);
    connect(box, &QMessageBox::finished, this, [yes = std::move(yes)](int result) {
        if (result == QMessageBox::Yes)
            yes();
    });
    box->open();
}

void MainWindow::addAccount()
{
    auto *dlg = new AddAccountDialog(m_factories, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &QDialog::accepted, this, [this, dlg]() {
        auto account = dlg->account();
        if (!account.ok())
            return showError(tr("Add account"), account.error());
        m_accounts.add(account.value(), dlg->secrets(), Callback<void>(this, [this](VoidResult r) {
                           if (!r.ok())
                               showError(tr("Add account"), r.error());
                       }));
    });
    dlg->open();
}

void MainWindow::editAccount()
{
    const auto account = m_accounts.find(currentAccount());
    if (!account)
        return;
    auto *dlg = new AccountDialog(m_factories, *account, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    // Test connection uses the secrets kept in the keychain unless the user replaces them.
    dlg->setConfigLoader(
        [this](const QString &name, Callback<AccountConfig> done) { m_accounts.loadConfig(name, std::move(done)); });
    connect(dlg, &QDialog::accepted, this, [this, dlg]() {
        auto edited = dlg->account();
        if (!edited.ok())
            return showError(tr("Edit account"), edited.error());
        m_accounts.update(edited.value(), dlg->secrets(), Callback<void>(this, [this](VoidResult r) {
                              if (!r.ok())
                                  showError(tr("Edit account"), r.error());
                          }));
    });
    dlg->open();
}

void MainWindow::removeAccount()
{
    const QString name = currentAccount();
    if (name.isEmpty())
        return;
    confirm(
        tr("Remove account"),
        tr("Remove the account %1? Its sessions keep running; its secrets are deleted from the keychain.").arg(name),
        [this, name]() {
            m_accounts.remove(name, Callback<void>(this, [this](VoidResult r) {
                                  if (!r.ok())
                                      showError(tr("Remove account"), r.error());
                              }));
        });
}

void MainWindow::checkAccount()
{
    const QString name = currentAccount();
    m_registry.provider(name, Callback<Provider *>(this, [this, name](Result<Provider *> p) {
                            if (!p.ok() && p.code() == ErrorCode::UnknownHost)
                                return offerHostKeyTrust(name, p.error());
                            if (!p.ok())
                                return showError(tr("Check %1").arg(name), p.error());
                            p.value()->health(Callback<HealthInfo>(this, [this, name](Result<HealthInfo> h) {
                                if (!h.ok())
                                    return showError(tr("Check %1").arg(name), h.error());
                                m_status->setText(
                                    tr("%1: %2 %3, API %4").arg(name, h->serverName, h->version, h->apiVersion));
                            }));
                        }));
}

void MainWindow::offerHostKeyTrust(const QString &name, const Error &why)
{
    const auto account = m_accounts.find(name);
    const ProviderFactory *f = account ? m_factories.find(account->provider) : nullptr;
    const auto task = f ? f->hostKeyTask(configWithoutSecrets(*account)) : ProviderFactory::HostKeyTask{};
    if (!task)
        return showError(tr("Check %1").arg(name), why);
    auto *prompt = new HostKeyPrompt(this, name, task);
    connect(prompt, &HostKeyPrompt::trusted, this, [this](const QString &which, const HostKeyOffer &key) {
        m_status->setText(tr("%1: trusted the key %2 of %3").arg(which, key.fingerprint, key.host));
        checkAccount();
    });
    connect(prompt, &HostKeyPrompt::failed, this,
            [this](const QString &which, const Error &e) { showError(tr("Check %1").arg(which), e); });
    prompt->start();
}

void MainWindow::newSession()
{
    openNewSessionDialog();
}

NewSessionDialog *MainWindow::openNewSessionDialog()
{
    auto *dlg = new NewSessionDialog(m_accounts, m_factories, currentAccount(), this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    // The dialog creates the session itself, showing pull and create progress and any error
    // inline; the window only hears of the result.
    dlg->setProviderLookup(
        [this](const QString &account, Callback<Provider *> done) { m_registry.provider(account, std::move(done)); });
    if (m_newSessionSetup)
        m_newSessionSetup(dlg);
    connect(dlg, &NewSessionDialog::created, this, [this, dlg](const SessionInfo &s) {
        // A provider may give less time than asked (E2B: the plan's cap); say so where it shows.
        const qint64 asked = dlg->askedTtl();
        if (asked > 0 && s.ttlSeconds > 0 && s.ttlSeconds + 60 < asked)
            m_status->setText(tr("Created %1; %2 shortened its time limit to %3 minutes, the most the account allows")
                                  .arg(s.ref(), s.provider)
                                  .arg(s.ttlSeconds / 60));
        else
            m_status->setText(tr("Created %1").arg(s.ref()));
        m_pane->selectRef(s.ref());
        m_registry.refreshAccount(s.account);
    });
    dlg->open();
    return dlg;
}

void MainWindow::newSessionLike()
{
    const auto s = currentSession();
    if (!s)
        return;
    openNewSessionDialog()->prefill(*s);
}

void MainWindow::forkSession()
{
    const auto s = currentSession();
    Provider *p = s ? m_registry.existingProvider(s->account) : nullptr;
    if (!s || !p || !p->forking())
        return;
    // Where the copy's files come from is said before the person names it (a copy from a
    // snapshot lacks what changed since); asking the provider takes one request.
    const SessionInfo session = *s;
    QPointer<Provider> guard(p);
    p->forking()->forkOrigin(session.id, Callback<QString>(this, [this, guard, session](Result<QString> origin) {
                                 if (guard && guard->forking())
                                     askForkName(guard, session, origin.valueOr(QString()));
                             }));
}

void MainWindow::askForkName(Provider *p, const SessionInfo &s, const QString &origin)
{
    auto *ask = new QInputDialog(this);
    ask->setObjectName(QStringLiteral("forkDialog"));
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->setWindowTitle(tr("Fork %1").arg(s.name.isEmpty() ? s.id : s.name));
    const QString label = tr("Name of the copy (empty: the provider picks one):");
    ask->setLabelText(origin.isEmpty() ? label : origin + QStringLiteral("\n\n") + label);
    // The origin is a sentence or two: wrapped, not one line as wide as the screen.
    if (auto *text = ask->findChild<QLabel *>()) {
        text->setWordWrap(true);
        ask->setMinimumWidth(qMin(520, screen() ? screen()->availableGeometry().width() - 40 : 520));
    }
    const QString id = s.id;
    const QString account = s.account;
    QPointer<Provider> guard(p);
    connect(ask, &QInputDialog::textValueSelected, this, [this, guard, id, account](const QString &name) {
        if (!guard || !guard->forking())
            return;
        m_status->setText(tr("Forking %1…").arg(id));
        guard->forking()->fork(
            id, ForkSpec{name.trimmed(), {}}, Callback<SessionInfo>(this, [this, account](Result<SessionInfo> r) {
                if (!r)
                    return m_status->setText(tr("The fork failed: %1").arg(r.message()));
                const QString made = r->name.isEmpty() ? r->id : r->name;
                // Said once the list has it (a refresh rewrites the status line first).
                m_registry.refreshAccount(account, Callback<QList<SessionInfo>>(this, [this, made](auto) {
                                              m_status->setText(tr("Forked: %1").arg(made));
                                          }));
            }));
    });
    ask->open();
}

void MainWindow::changeSessionSettings()
{
    const auto s = currentSession();
    Provider *p = s ? m_registry.existingProvider(s->account) : nullptr;
    if (!s || !p || !p->sessionSettings())
        return;
    auto *dialog = new SessionSettingsDialog(p->descriptor(), *s, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<Provider> guard(p);
    connect(dialog, &SessionSettingsDialog::changeRequested, this,
            [this, guard, dialog, id = s->id, account = s->account](const QVariantMap &values) {
                if (!guard || !guard->sessionSettings())
                    return dialog->showError(tr("The account is no longer connected."));
                guard->sessionSettings()->changeSettings(
                    id, values, Callback<SessionInfo>(dialog, [this, dialog, account](Result<SessionInfo> r) {
                        if (!r)
                            return dialog->showError(r.message());
                        dialog->accept();
                        // Said once the list has the change (a refresh rewrites the status line first).
                        const QString changed = r->name.isEmpty() ? r->id : r->name;
                        m_registry.refreshAccount(account, Callback<QList<SessionInfo>>(this, [this, changed](auto) {
                                                      m_status->setText(tr("Settings changed: %1").arg(changed));
                                                  }));
                    }));
            });
    dialog->open();
}

void MainWindow::openTerminal()
{
    const auto s = currentSession();
    if (!s || s->state != SessionState::Running)
        return;
    if (SessionDetail *d = m_detailStack->showSession(s))
        d->openTerminal();
}

// Terminals a provider kept alive while Sandbar was closed come back as tabs, once per
// account per run, with their scrollback (the provider replays it).
void MainWindow::reattachTerminals(const QString &account)
{
    if (!m_detailStack->services().terminals || m_reattachedAccounts.contains(account))
        return;
    Provider *p = m_registry.existingProvider(account);
    if (!p || !p->terminals() || !p->capabilities().testFlag(Capability::Reattach))
        return;
    m_reattachedAccounts.insert(account);
    for (const auto &s : m_registry.sessions()) {
        if (s.account != account || s.state != SessionState::Running)
            continue;
        QPointer<Provider> guard(p);
        p->terminals()->listPtys(s.id, Callback<QList<PtyEntry>>(this, [this, guard, s](Result<QList<PtyEntry>> r) {
                                     if (!r.ok() || !guard)
                                         return;
                                     SessionDetail *d = nullptr;
                                     for (const auto &pty : r.value()) {
                                         if (pty.exited)
                                             continue;
                                         if (!d)
                                             d = m_detailStack->ensure(s);
                                         d->openTerminal(pty.id);
                                     }
                                 }));
    }
}

} // namespace sandbar::ui
