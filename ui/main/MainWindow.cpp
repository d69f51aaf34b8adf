#include "main/MainWindow.h"

#include "main/CostStatus.h"
#include "main/Dialogs.h"
#include "main/SessionStatsUi.h"
#include "main/SessionsModel.h"

#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPointer>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
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
    tb->addSeparator();
    m_stats = tb->addAction(tr("Statistics"), this, [this]() {
        if (const auto s = currentSession(); s && m_statsUi)
            m_statsUi->openStatsTab(*s);
    });
    m_stats->setObjectName(QStringLiteral("statsAction"));
    m_stats->setToolTip(tr("Charts of CPU, memory, network, disk and GPU for the selected session"));
    m_stats->setVisible(false); // until the window is given a collector
    m_stop = tb->addAction(tr("Stop"), this, [this]() { runOnSession(tr("Stop"), &Provider::stop); });
    m_pause = tb->addAction(tr("Pause"), this, [this]() { runOnSession(tr("Pause"), &Provider::pause); });
    m_resume = tb->addAction(tr("Resume"), this, [this]() { runOnSession(tr("Resume"), &Provider::resume); });
    m_remove = tb->addAction(tr("Remove"), this, [this]() {
        const auto s = currentSession();
        if (!s)
            return;
        confirm(tr("Remove session"), tr("Remove %1? Its files inside the sandbox are deleted.").arg(s->ref()),
                [this, ref = s->ref()]() {
                    // The selection may have moved while the question was open.
                    const auto now = currentSession();
                    if (now && now->ref() == ref)
                        runOnSession(tr("Remove"), &Provider::remove);
                });
    });
    tb->addSeparator();
    m_refresh = tb->addAction(tr("Refresh"), this, &MainWindow::refreshAll);
    m_refresh->setShortcut(QKeySequence::Refresh);

    m_addAccount = new QAction(tr("Add account…"), this);
    connect(m_addAccount, &QAction::triggered, this, &MainWindow::addAccount);
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
        if (!m_compareWindow) {
            m_compareWindow = m_compareFactory(this);
            m_compareWindow->setWindowFlag(Qt::Window);
            m_compareWindow->setAttribute(Qt::WA_DeleteOnClose);
            m_compareWindow->setWindowTitle(tr("Compare providers — Sandbar"));
            m_compareWindow->resize(1400, 900);
        }
        m_compareWindow->show();
        m_compareWindow->raise();
        m_compareWindow->activateWindow();
    });
}

void MainWindow::buildLayout()
{
    auto *split = new QSplitter(this);
    auto *left = new QWidget(split);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(6, 6, 0, 6);
    auto *accountsLabel = new QLabel(tr("<b>Accounts</b>"), left);
    m_accountList = new QListWidget(left);
    m_accountList->setObjectName(QStringLiteral("accountList"));
    m_accountList->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_accountList->addActions({m_addAccount, m_checkAccount, m_budget, m_removeAccount});
    auto *accountBar = new QToolBar(left);
    accountBar->addAction(m_addAccount);
    accountBar->addAction(m_checkAccount);
    accountBar->addAction(m_budget);
    leftLayout->addWidget(accountsLabel);
    leftLayout->addWidget(m_accountList, 1);
    leftLayout->addWidget(accountBar);

    auto *right = new QSplitter(Qt::Vertical, split);
    m_model = new SessionsModel(m_registry, this);
    m_table = new QTableView(right);
    m_table->setObjectName(QStringLiteral("sessionTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(SessionsModel::Created, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(SessionsModel::State, QHeaderView::ResizeToContents);
    m_table->setColumnWidth(SessionsModel::Ref, 260);
    connect(m_table, &QTableView::doubleClicked, this, &MainWindow::openTerminal);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this]() {
        updateActions();
        updateDetails();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this]() {
        updateActions();
        updateDetails();
    });

    m_tabs = new QTabWidget(right);
    m_tabs->setObjectName(QStringLiteral("workspaceTabs"));
    m_tabs->setTabsClosable(true);
    m_tabs->setDocumentMode(true);
    m_details = new QTextBrowser(m_tabs);
    m_details->setObjectName(QStringLiteral("sessionDetails"));
    m_tabs->addTab(m_details, tr("Details"));
    m_tabs->tabBar()->setTabButton(0, QTabBar::RightSide, nullptr);
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int i) {
        if (i == 0)
            return;
        QWidget *w = m_tabs->widget(i);
        m_tabs->removeTab(i);
        w->deleteLater();
    });
    right->setStretchFactor(0, 2);
    right->setStretchFactor(1, 3);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({300, 980});
    setCentralWidget(split);

    connect(m_accountList, &QListWidget::currentRowChanged, this, [this]() {
        m_model->setAccountFilter(currentAccount());
        updateActions();
    });
    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);
}

void MainWindow::setStats(metrics::StatsCollector &collector)
{
    m_statsUi = new SessionStatsUi(collector, m_table, m_tabs, this);
    m_stats->setVisible(true);
    updateActions();
}

void MainWindow::setCosts(CostMeter &meter, audit::CostLedger &ledger, audit::BudgetWatcher &watcher)
{
    m_costStatus = new CostStatus(meter, ledger, watcher, this);
    statusBar()->addPermanentWidget(m_costStatus->label());
    m_model->setCostMeter(&meter);
    m_table->horizontalHeader()->setSectionResizeMode(SessionsModel::Cost, QHeaderView::ResizeToContents);
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
    QSignalBlocker block(m_accountList);
    m_accountList->clear();
    auto *all = new QListWidgetItem(tr("All accounts"), m_accountList);
    all->setData(Qt::UserRole, QString());
    QStringList problems;
    for (const auto &a : m_accounts.accounts()) {
        const AccountStatus st = m_registry.status(a.name);
        QString mark;
        switch (st.state) {
        case AccountStatus::State::Ok: mark = QStringLiteral("● "); break;
        case AccountStatus::State::Failed:
            mark = QStringLiteral("✕ ");
            problems << QStringLiteral("%1: %2").arg(a.name, st.lastError.message);
            break;
        default: mark = QStringLiteral("○ "); break;
        }
        const ProviderFactory *f = m_factories.find(a.provider);
        auto *item = new QListWidgetItem(mark + a.name, m_accountList);
        item->setData(Qt::UserRole, a.name);
        item->setToolTip(st.state == AccountStatus::State::Failed ? st.lastError.message
                                                                  : (f ? f->descriptor().displayName : a.provider));
    }
    int row = 0;
    for (int i = 0; i < m_accountList->count(); ++i) {
        if (m_accountList->item(i)->data(Qt::UserRole).toString() == keep)
            row = i;
    }
    m_accountList->setCurrentRow(row);
    if (m_accounts.accounts().isEmpty())
        m_status->setText(tr("No accounts yet: add one to create sandboxes."));
    else
        m_status->setText(problems.isEmpty() ? tr("%n account(s)", nullptr, int(m_accounts.accounts().size()))
                                             : problems.join(QLatin1String("   ")));
}

std::optional<SessionInfo> MainWindow::currentSession() const
{
    const auto rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return std::nullopt;
    return m_model->sessionAt(rows.first().row());
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
    m_terminal->setEnabled(running && console && m_terminalFactory);
    m_stop->setEnabled(running);
    // A stopped session's history can still be looked at (an OOM kill, say).
    m_stats->setEnabled(s.has_value() && m_statsUi);
    m_pause->setEnabled(running && caps.testFlag(Capability::PauseResume));
    m_resume->setEnabled(s && s->state == SessionState::Paused && caps.testFlag(Capability::PauseResume));
    m_remove->setEnabled(s.has_value());
    const bool account = !currentAccount().isEmpty();
    m_removeAccount->setEnabled(account);
    m_checkAccount->setEnabled(account);
    m_budget->setEnabled(account);
}

void MainWindow::updateDetails()
{
    const auto s = currentSession();
    if (!s) {
        m_details->setHtml(tr("<p>Select a session to see its details, or create one with <b>New session</b>.</p>"));
        return;
    }
    QString html = QStringLiteral("<h3>%1</h3><table>").arg(s->ref().toHtmlEscaped());
    const auto row = [&html](const QString &k, const QString &v) {
        html += QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>").arg(k, v.toHtmlEscaped());
    };
    row(tr("State"),
        sessionStateName(s->state) + (s->statusText.isEmpty() ? QString() : QStringLiteral(" — ") + s->statusText));
    if (!s->errorMessage.isEmpty())
        row(tr("Error"), s->errorMessage);
    row(tr("Provider"), s->provider);
    row(tr("Image"), s->image);
    row(tr("Created"), QLocale().toString(s->created.toLocalTime()));
    row(tr("Expires"), s->expiresAt.isValid() ? QLocale().toString(s->expiresAt.toLocalTime()) : tr("never"));
    row(tr("CPUs"), s->cpus ? QString::number(*s->cpus) : tr("unlimited"));
    row(tr("Memory"), s->memoryBytes ? QLocale().formattedDataSize(*s->memoryBytes) : tr("unlimited"));
    row(tr("Network"), s->network ? tr("on") : tr("off (no network)"));
    for (const auto &m : s->mounts)
        row(tr("Mount"),
            m.hostPath + QStringLiteral(" → ") + m.sessionPath + (m.readOnly ? tr(" (read-only)") : QString()));
    html += QStringLiteral("</table>");
    m_details->setHtml(html);
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

void MainWindow::newSession()
{
    auto *dlg = new NewSessionDialog(m_accounts, m_factories, currentAccount(), this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &QDialog::accepted, this, [this, dlg]() { createSession(dlg->spec(), dlg->accountName()); });
    dlg->open();
}

void MainWindow::createSession(const Result<CreateSpec> &spec, const QString &account)
{
    if (!spec.ok())
        return showError(tr("New session"), spec.error());
    m_status->setText(tr("Creating a session in %1…").arg(account));
    m_registry.provider(account, Callback<Provider *>(this, [this, account, s = spec.value()](Result<Provider *> p) {
                            if (!p.ok())
                                return showError(tr("New session"), p.error());
                            p.value()->create(s, Callback<SessionInfo>(this, [this, account](Result<SessionInfo> r) {
                                                  if (!r.ok())
                                                      return showError(tr("New session"), r.error());
                                                  m_status->setText(tr("Created %1").arg(r->ref()));
                                                  m_registry.refreshAccount(account);
                                              }));
                        }));
}

void MainWindow::openTerminal()
{
    const auto s = currentSession();
    if (!s || !m_terminalFactory)
        return;
    Provider *p = m_registry.existingProvider(s->account);
    if (!p || !(p->capabilities().testFlag(Capability::Pty) || p->capabilities().testFlag(Capability::Exec)))
        return;
    addTerminalTab(p, *s, {});
}

void MainWindow::addTerminalTab(Provider *provider, const SessionInfo &session, const QString &attachId)
{
    QWidget *w = m_terminalFactory(provider, session, attachId, m_tabs);
    if (!w)
        return;
    w->setProperty("sessionRef", session.ref());
    w->setProperty("attachId", attachId);
    const QString fallback = session.name.isEmpty() ? session.id.left(12) : session.name;
    const int i = m_tabs->addTab(w, w->windowTitle().isEmpty() ? fallback : w->windowTitle());
    // The tab follows the widget's title (a terminal's program title, OSC 0/2).
    connect(w, &QWidget::windowTitleChanged, this, [this, w, fallback](const QString &title) {
        const int at = m_tabs->indexOf(w);
        if (at < 0)
            return;
        const QString text = title.isEmpty() ? fallback : title;
        m_tabs->setTabText(at, text.size() > 40 ? text.left(39) + QChar(0x2026) : text);
        m_tabs->setTabToolTip(at, text);
    });
    m_tabs->setCurrentIndex(i);
    w->setFocus();
}

// Terminals a provider kept alive while Sandbar was closed come back as tabs, once per
// account per run, with their scrollback (the provider replays it).
void MainWindow::reattachTerminals(const QString &account)
{
    if (!m_terminalFactory || m_reattachedAccounts.contains(account))
        return;
    Provider *p = m_registry.existingProvider(account);
    if (!p || !p->capabilities().testFlag(Capability::Reattach))
        return;
    m_reattachedAccounts.insert(account);
    for (const auto &s : m_registry.sessions()) {
        if (s.account != account || s.state != SessionState::Running)
            continue;
        QPointer<Provider> guard(p);
        p->listPtys(s.id, Callback<QList<PtyEntry>>(this, [this, guard, s](Result<QList<PtyEntry>> r) {
                        if (!r.ok() || !guard)
                            return;
                        for (const auto &pty : r.value()) {
                            if (!pty.exited)
                                addTerminalTab(guard, s, pty.id);
                        }
                    }));
    }
}

void MainWindow::runOnSession(const QString &verb, void (Provider::*action)(const QString &, Callback<void>))
{
    const auto s = currentSession();
    if (!s)
        return;
    Provider *p = m_registry.existingProvider(s->account);
    if (!p)
        return;
    const QString account = s->account;
    m_status->setText(tr("%1 %2…").arg(verb, s->ref()));
    (p->*action)(s->id, Callback<void>(this, [this, verb, account](VoidResult r) {
                     if (!r.ok())
                         return showError(verb, r.error());
                     m_status->setText(tr("%1: done").arg(verb));
                     m_registry.refreshAccount(account);
                 }));
}

} // namespace sandbar::ui
