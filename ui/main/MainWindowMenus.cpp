// The main window's menus, the windows it opens once (compare, audit, agents) and the actions that
// only live in menus (preferences, shortcuts help, "New session like this", quit).

#include "detail/DetailStack.h"
#include "dialogs/NewSessionDialog.h"
#include "files/FilesPane.h"
#include "main/MainWindow.h"
#include "prefs/ShortcutsDialog.h"
#include "sessions/SessionsPane.h"

#include <QAction>
#include <QApplication>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QStatusBar>
#include <QToolButton>

namespace sandbar::ui {

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_newSession);
    file->addAction(m_addAccount);
    m_addAccount->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    file->addSeparator();
    m_preferences = file->addAction(tr("Preferences…"), this, [this]() {
        if (m_preferencesOpener)
            m_preferencesOpener(this);
    });
    m_preferences->setObjectName(QStringLiteral("preferencesAction"));
    m_preferences->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    m_preferences->setMenuRole(QAction::PreferencesRole);
    m_preferences->setVisible(false); // until the preferences feature is wired
    file->addSeparator();
    QAction *quit = file->addAction(tr("Quit"), this, [this]() {
        if (m_quit)
            m_quit();
        else
            close();
    });
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *session = menuBar()->addMenu(tr("&Session"));
    session->addActions({m_terminal, m_stats, m_files, m_info, m_logs});
    session->addSeparator();
    m_likeThis = session->addAction(tr("New session like this…"), this, &MainWindow::newSessionLike);
    m_likeThis->setObjectName(QStringLiteral("likeThisAction"));
    m_likeThis->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    m_fork = session->addAction(tr("Fork…"), this, &MainWindow::forkSession);
    m_fork->setObjectName(QStringLiteral("forkAction"));
    m_fork->setToolTip(tr("A new session with a copy of this one's files and settings, where the provider can"));
    m_sessionSettings = session->addAction(tr("Session settings…"), this, &MainWindow::changeSessionSettings);
    m_sessionSettings->setObjectName(QStringLiteral("sessionSettingsAction"));
    m_sessionSettings->setToolTip(tr("Change what the provider lets change on a session as it runs"));
    m_sessionLabels = session->addAction(tr("Labels…"), this, &MainWindow::changeSessionLabels);
    m_sessionLabels->setObjectName(QStringLiteral("sessionLabelsAction"));
    m_sessionLabels->setToolTip(tr("Your labels on the session, where the provider can change them"));
    session->addSeparator();
    session->addActions({m_stop, m_pause, m_resume, m_archive, m_remove});
    session->addSeparator();
    session->addAction(m_refresh);

    QMenu *accounts = menuBar()->addMenu(tr("&Accounts"));
    accounts->addActions({m_addAccount, m_editAccount, m_checkAccount, m_budget, m_removeAccount});

    QMenu *view = menuBar()->addMenu(tr("&View"));
    m_audit = view->addAction(tr("Audit log…"), this, [this]() {
        openSingleWindow(m_auditWindow, m_auditFactory, tr("Audit log — Sandbar"), QSize(1200, 700));
    });
    m_audit->setObjectName(QStringLiteral("auditAction"));
    m_audit->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    m_audit->setVisible(false); // until an audit view is supplied
    view->addAction(m_agents);
    m_agents->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    view->addAction(m_compare);
    m_compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    QAction *search = view->addAction(tr("Filter sessions"), this, [this]() {
        m_pane->searchField()->setFocus(Qt::ShortcutFocusReason);
        m_pane->searchField()->selectAll();
    });
    search->setObjectName(QStringLiteral("filterAction"));
    search->setShortcut(QKeySequence::Find);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *keys = help->addAction(tr("Keyboard shortcuts"), this, [this]() {
        auto *dlg = new ShortcutsDialog(this, this);
        dlg->setAttribute(Qt::WA_DeleteOnClose);
        dlg->open();
    });
    keys->setObjectName(QStringLiteral("shortcutsAction"));
    keys->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("About Sandbar"), this, [this]() {
        auto *box = new QMessageBox(QMessageBox::Information, tr("About Sandbar"),
                                    tr("<b>Sandbar</b> %1<br>Local and cloud sandboxes for AI agents, side by side.")
                                        .arg(QApplication::applicationVersion().toHtmlEscaped()),
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
}

void MainWindow::openSingleWindow(QPointer<QWidget> &slot, const std::function<QWidget *(QWidget *)> &factory,
                                  const QString &title, QSize size)
{
    if (!factory)
        return;
    if (!slot) {
        slot = factory(this);
        slot->setWindowFlag(Qt::Window);
        slot->setAttribute(Qt::WA_DeleteOnClose);
        slot->setWindowTitle(title);
        slot->resize(size);
    }
    slot->show();
    slot->raise();
    slot->activateWindow();
}

void MainWindow::setAuditFactory(std::function<QWidget *(QWidget *)> factory)
{
    m_auditFactory = std::move(factory);
    m_audit->setVisible(bool(m_auditFactory));
}

void MainWindow::setAgentsFactory(std::function<QWidget *(QWidget *)> factory)
{
    m_agentsFactory = std::move(factory);
    m_agents->setVisible(bool(m_agentsFactory));
}

void MainWindow::showAgents()
{
    openSingleWindow(m_agentsWindow, m_agentsFactory, tr("Agents — Sandbar"), QSize(1100, 720));
}

bool MainWindow::isAgentsViewActive() const
{
    return m_agentsWindow && m_agentsWindow->isVisible() && !m_agentsWindow->isMinimized() &&
           m_agentsWindow->isActiveWindow();
}

void MainWindow::setAgentsPending(int count)
{
    m_agents->setText(count > 0 ? tr("Agents (%1)…").arg(count) : tr("Agents…"));
    if (!m_agentsPending) {
        if (count <= 0)
            return;
        m_agentsPending = new QToolButton(this);
        m_agentsPending->setObjectName(QStringLiteral("agentsPendingButton"));
        m_agentsPending->setAutoRaise(true);
        QFont bold = m_agentsPending->font();
        bold.setBold(true);
        m_agentsPending->setFont(bold);
        m_agentsPending->setToolTip(tr("Open Agents to approve or deny"));
        connect(m_agentsPending, &QToolButton::clicked, this, &MainWindow::showAgents);
        statusBar()->addPermanentWidget(m_agentsPending);
    }
    m_agentsPending->setText(tr("%n agent call(s) waiting for approval", nullptr, count));
    m_agentsPending->setVisible(count > 0);
}

void MainWindow::setPreferencesOpener(std::function<void(QWidget *)> opener)
{
    m_preferencesOpener = std::move(opener);
    m_preferences->setVisible(bool(m_preferencesOpener));
}

void MainWindow::setNewSessionSetup(std::function<void(NewSessionDialog *)> setup)
{
    m_newSessionSetup = std::move(setup);
}

void MainWindow::setQuitHandler(std::function<void()> quit)
{
    m_quit = std::move(quit);
}

// F5: every account listed again, and the folder on screen in a Files page.
void MainWindow::refreshNow()
{
    refreshAll();
    if (SessionDetail *d = m_detailStack->currentDetail(); d && d->currentPage() == SessionDetail::Page::Files)
        d->filesPane()->refresh();
}

void MainWindow::changeSessionLabels()
{
    const auto s = currentSession();
    Provider *p = s ? m_registry.existingProvider(s->account) : nullptr;
    if (!s || !p || !p->labelling())
        return;
    QStringList lines;
    const QMap<QString, QString> mine = labels::personsOnly(s->labels);
    for (auto it = mine.cbegin(); it != mine.cend(); ++it)
        lines << (it.value().isEmpty() ? it.key() : it.key() + QLatin1Char('=') + it.value());
    auto *ask = new QInputDialog(this);
    ask->setObjectName(QStringLiteral("sessionLabelsDialog"));
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->setWindowTitle(tr("Labels"));
    ask->setLabelText(tr("Your labels on %1, one KEY=VALUE a line (Sandbar's own stay as they are):")
                          .arg(s->name.isEmpty() ? s->id : s->name));
    ask->setOption(QInputDialog::UsePlainTextEditForTextInput);
    ask->setTextValue(lines.join(QLatin1Char('\n')));
    QPointer<Provider> guard(p);
    connect(ask, &QInputDialog::textValueSelected, this,
            [this, guard, id = s->id, account = s->account](const QString &text) {
                QMap<QString, QString> wanted;
                for (const QString &line : text.split(QLatin1Char('\n'))) {
                    if (line.trimmed().isEmpty())
                        continue;
                    const auto label = parseLabel(line);
                    if (!label)
                        return m_status->setText(tr("Labels not changed: %1").arg(label.message()));
                    wanted.insert(label->first, label->second);
                }
                if (!guard || !guard->labelling())
                    return m_status->setText(tr("The account is no longer connected."));
                guard->labelling()->setLabels(
                    id, wanted, Callback<SessionInfo>(this, [this, account](Result<SessionInfo> r) {
                        if (!r)
                            return m_status->setText(tr("Labels not changed: %1").arg(r.message()));
                        const QString changed = r->name.isEmpty() ? r->id : r->name;
                        m_registry.refreshAccount(account, Callback<QList<SessionInfo>>(this, [this, changed](auto) {
                                                      m_status->setText(tr("Labels changed: %1").arg(changed));
                                                  }));
                    }));
            });
    ask->open();
}

} // namespace sandbar::ui
