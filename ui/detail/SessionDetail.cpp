#include "detail/SessionDetail.h"

#include "charts/StatsView.h"
#include "detail/CommandsView.h"
#include "detail/InfoView.h"
#include "detail/LogsView.h"
#include "detail/SessionTerminal.h"
#include "detail/SnapshotsView.h"
#include "files/FilesPane.h"
#include "metrics/StatsCollector.h"

#include <QCloseEvent>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {

const char kCustomName[] = "sandbarCustomName";
constexpr int kMaxClosed = 10;
constexpr int kMaxTabText = 40;

QString elided(const QString &text)
{
    return text.size() > kMaxTabText ? text.left(kMaxTabText - 1) + QChar(0x2026) : text;
}

// The window a terminal is moved into: closing it hands the terminal back to its tab set.
class FloatingTerminal : public QWidget
{
public:
    FloatingTerminal(QWidget *terminal, std::function<void(QWidget *)> dock)
        : m_terminal(terminal)
        , m_dock(std::move(dock))
    {
        setAttribute(Qt::WA_DeleteOnClose);
        auto *layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(terminal);
        terminal->show();
        setFocusProxy(terminal);
    }

protected:
    void closeEvent(QCloseEvent *event) override
    {
        if (m_terminal)
            m_dock(m_terminal); // reparents it out of this window before it is deleted
        QWidget::closeEvent(event);
    }

private:
    QPointer<QWidget> m_terminal;
    std::function<void(QWidget *)> m_dock;
};

} // namespace

SessionDetail::SessionDetail(Provider *provider, const SessionInfo &session, DetailServices services, QWidget *parent)
    : QWidget(parent)
    , m_provider(provider)
    , m_session(session)
    , m_services(std::move(services))
    , m_pages(new QTabWidget(this))
    , m_terminals(new QTabWidget)
    , m_terminalsPage(new QWidget)
    , m_noTerminal(new QLabel)
    , m_newTerminal(new QToolButton)
    , m_reopen(new QToolButton)
    , m_detach(new QToolButton)
    , m_statsPage(new QWidget)
    , m_filesPage(new QWidget)
    , m_info(new InfoView)
{
    setObjectName(QStringLiteral("sessionDetail"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_pages);
    m_pages->setObjectName(QStringLiteral("detailPages"));
    m_pages->setAccessibleName(tr("Session pages"));
    m_pages->setDocumentMode(true);

    // Terminals: a tab per terminal, "+" opens one, a closed one comes back with one click.
    auto *termLayout = new QVBoxLayout(m_terminalsPage);
    termLayout->setContentsMargins(0, 0, 0, 0);
    termLayout->addWidget(m_terminals, 1);
    // With no tab the tab bar (and its + button) is hidden: the empty state has its own button.
    m_emptyState = new QWidget(m_terminalsPage);
    auto *emptyLayout = new QVBoxLayout(m_emptyState);
    emptyLayout->addStretch(1);
    emptyLayout->addWidget(m_noTerminal);
    m_openFirst = new QPushButton(tr("Open a terminal"), m_emptyState);
    m_openFirst->setObjectName(QStringLiteral("openTerminalButton"));
    m_openFirst->setAccessibleName(tr("Open a terminal"));
    emptyLayout->addWidget(m_openFirst, 0, Qt::AlignHCenter);
    emptyLayout->addStretch(1);
    termLayout->addWidget(m_emptyState, 1);
    connect(m_openFirst, &QPushButton::clicked, this, [this]() { openTerminal(); });
    m_noTerminal->setAlignment(Qt::AlignCenter);
    m_noTerminal->setWordWrap(true);
    m_noTerminal->setObjectName(QStringLiteral("noTerminalLabel"));
    m_terminals->setObjectName(QStringLiteral("terminalTabs"));
    m_terminals->setAccessibleName(tr("Terminals"));
    m_terminals->setTabsClosable(true);
    m_terminals->setMovable(true);
    m_terminals->setDocumentMode(true);
    m_terminals->tabBar()->setContextMenuPolicy(Qt::CustomContextMenu);
    auto *corner = new QWidget;
    auto *cornerLayout = new QHBoxLayout(corner);
    cornerLayout->setContentsMargins(0, 0, 0, 0);
    m_newTerminal->setText(QStringLiteral("+"));
    m_newTerminal->setObjectName(QStringLiteral("newTerminalButton"));
    m_newTerminal->setToolTip(tr("New terminal (Ctrl+Shift+N)"));
    m_newTerminal->setAccessibleName(tr("New terminal"));
    m_newTerminal->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    m_reopen->setText(tr("Reopen closed"));
    m_reopen->setObjectName(QStringLiteral("reopenTerminalButton"));
    m_reopen->setToolTip(tr("Open again the terminal closed last (Ctrl+Shift+R)"));
    m_reopen->setAccessibleName(tr("Reopen closed terminal"));
    m_reopen->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    cornerLayout->addWidget(m_reopen);
    cornerLayout->addWidget(m_newTerminal);
    m_terminals->setCornerWidget(corner, Qt::TopRightCorner);
    connect(m_newTerminal, &QToolButton::clicked, this, [this]() { openTerminal(); });
    connect(m_reopen, &QToolButton::clicked, this, &SessionDetail::reopenClosedTerminal);
    connect(m_terminals, &QTabWidget::tabCloseRequested, this, &SessionDetail::closeTerminal);
    connect(m_terminals->tabBar(), &QTabBar::customContextMenuRequested, this, &SessionDetail::terminalMenu);
    connect(m_terminals->tabBar(), &QTabBar::tabBarDoubleClicked, this, &SessionDetail::startRename);

    addPages(provider);

    m_detach->setText(tr("Detach"));
    m_detach->setObjectName(QStringLiteral("detachButton"));
    m_detach->setToolTip(tr("Show this session in a window of its own (close that window to dock it back)"));
    m_detach->setAccessibleName(tr("Detach session"));
    m_pages->setCornerWidget(m_detach, Qt::TopRightCorner);
    connect(m_detach, &QToolButton::clicked, this, &SessionDetail::detachRequested);
    connect(m_pages, &QTabWidget::currentChanged, this, [this](int index) {
        ensurePage(index);
        updateStatsInterest();
    });
    fillInfo(provider);
    updateCorner();
}

// The pages after Terminals; Logs and Commands only where the provider has them. Each page's
// view is made when it is first shown (ensurePage).
void SessionDetail::addPages(Provider *provider)
{
    m_pages->addTab(m_terminalsPage, tr("Terminals"));
    m_pages->addTab(m_statsPage, tr("Stats"));
    m_pages->addTab(m_filesPage, tr("Files"));
    m_pages->addTab(m_info, tr("Info"));
    if (provider && provider->capabilities().testFlag(Capability::Logs)) {
        m_logsPage = new QWidget;
        m_pages->addTab(m_logsPage, tr("Logs"));
    }
    if (provider && provider->background()) {
        m_commandsPage = new QWidget;
        m_pages->addTab(m_commandsPage, tr("Commands"));
    }
    for (QWidget *page : {m_statsPage, m_filesPage, m_logsPage, m_commandsPage}) {
        if (page)
            (new QVBoxLayout(page))->setContentsMargins(0, 0, 0, 0);
    }
}

void SessionDetail::fillInfo(Provider *provider)
{
    m_info->setSession(m_session, provider ? provider->capabilities() : Capabilities{});
    if (provider && provider->snapshots())
        m_info->addSection(new SnapshotsView(provider, m_session.id));
}

SessionDetail::~SessionDetail()
{
    // Terminals in windows of their own belong to this session: they go with it.
    for (const auto &w : std::as_const(m_floating)) {
        if (w)
            delete w->parentWidget();
    }
    if (m_statsInterest && m_services.stats)
        m_services.stats->removeDetailInterest(ref());
}

void SessionDetail::setServices(const DetailServices &services)
{
    const bool hadInterest = m_statsInterest;
    if (hadInterest && m_services.stats)
        m_services.stats->removeDetailInterest(ref());
    m_statsInterest = false;
    m_services = services;
    updateStatsInterest();
    updateCorner();
}

void SessionDetail::setSession(const SessionInfo &session)
{
    m_session = session;
    m_removed = false;
    m_info->setSession(session, m_provider ? m_provider->capabilities() : Capabilities{});
    for (int i = 0; i < m_terminals->count(); ++i) {
        if (auto *t = qobject_cast<SessionTerminal *>(m_terminals->widget(i)))
            t->setSessionState(session);
    }
    for (const auto &w : std::as_const(m_floating)) {
        if (auto *t = qobject_cast<SessionTerminal *>(w.data()))
            t->setSessionState(session);
    }
    if (m_files)
        m_files->setSession(session);
    if (m_logs)
        m_logs->setSessionState(session.state);
    updateCorner();
}

void SessionDetail::setRemoved()
{
    m_removed = true;
    for (int i = 0; i < m_terminals->count(); ++i) {
        if (auto *t = qobject_cast<SessionTerminal *>(m_terminals->widget(i)))
            t->setSessionRemoved();
    }
    updateStatsInterest();
    updateCorner();
}

QString SessionDetail::pageKey(Page page)
{
    switch (page) {
    case Page::Terminals: return QStringLiteral("terminals");
    case Page::Stats: return QStringLiteral("stats");
    case Page::Files: return QStringLiteral("files");
    case Page::Info: return QStringLiteral("info");
    case Page::Logs: return QStringLiteral("logs");
    }
    return {};
}

std::optional<SessionDetail::Page> SessionDetail::pageFromKey(const QString &key)
{
    for (Page p : {Page::Terminals, Page::Stats, Page::Files, Page::Info, Page::Logs}) {
        if (pageKey(p) == key)
            return p;
    }
    return std::nullopt;
}

bool SessionDetail::hasPage(Page page) const
{
    return page != Page::Logs || m_logsPage;
}

void SessionDetail::showPage(Page page)
{
    QWidget *w = nullptr;
    switch (page) {
    case Page::Terminals: w = m_terminalsPage; break;
    case Page::Stats: w = m_statsPage; break;
    case Page::Files: w = m_filesPage; break;
    case Page::Info: w = m_info; break;
    case Page::Logs: w = m_logsPage; break;
    }
    if (w)
        m_pages->setCurrentWidget(w);
    ensurePage(m_pages->currentIndex());
}

SessionDetail::Page SessionDetail::currentPage() const
{
    QWidget *w = m_pages->currentWidget();
    if (w == m_statsPage)
        return Page::Stats;
    if (w == m_filesPage)
        return Page::Files;
    if (w == m_info)
        return Page::Info;
    if (w && w == m_logsPage)
        return Page::Logs;
    return Page::Terminals;
}

void SessionDetail::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    ensurePage(m_pages->currentIndex());
    updateStatsInterest();
}

void SessionDetail::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    updateStatsInterest();
}

void SessionDetail::ensurePage(int index)
{
    QWidget *page = m_pages->widget(index);
    if (page == m_statsPage && !m_statsView && m_services.stats) {
        m_statsView = new StatsView(m_statsPage);
        m_statsView->setObjectName(QStringLiteral("statsView"));
        m_statsView->setClock(m_services.stats->clock());
        m_statsView->setStats(m_services.stats->stats(ref()));
        m_statsPage->layout()->addWidget(m_statsView);
    } else if (page == m_filesPage) {
        filesPane();
    } else if (page && page == m_logsPage) {
        logsView();
    } else if (page && page == m_commandsPage) {
        commandsView();
    }
}

FilesPane *SessionDetail::filesPane()
{
    if (!m_files) {
        m_files = new FilesPane(m_provider, m_session, m_filesPage);
        m_filesPage->layout()->addWidget(m_files);
    }
    return m_files;
}

CommandsView *SessionDetail::commandsView()
{
    if (!m_commands && m_commandsPage) {
        m_commands = new CommandsView(m_provider, m_session.id, m_commandsPage);
        m_commandsPage->layout()->addWidget(m_commands);
    }
    return m_commands;
}

LogsView *SessionDetail::logsView()
{
    if (!m_logs && m_logsPage) {
        m_logs = new LogsView(m_provider, m_session, m_logsPage);
        m_logsPage->layout()->addWidget(m_logs);
    }
    return m_logs;
}

// The collector samples a session fast (and streams) only while someone looks at its chart.
void SessionDetail::updateStatsInterest()
{
    const bool want = m_services.stats && !m_removed && isVisible() && m_pages->currentWidget() == m_statsPage;
    if (want == m_statsInterest)
        return;
    m_statsInterest = want;
    if (want)
        m_services.stats->addDetailInterest(ref());
    else
        m_services.stats->removeDetailInterest(ref());
}

QWidget *SessionDetail::openTerminal(const QString &attachId)
{
    if (!m_services.terminals || !m_provider || m_removed)
        return nullptr;
    QWidget *w = m_services.terminals(m_provider, m_session, attachId, m_terminals);
    if (!w)
        return nullptr;
    w->setProperty("attachId", attachId);
    addTerminalWidget(w, {});
    showPage(Page::Terminals);
    w->setFocus();
    return w;
}

void SessionDetail::addTerminalWidget(QWidget *w, const QString &customName)
{
    w->setProperty(kCustomName, customName);
    const QString fallback = m_session.name.isEmpty() ? m_session.id.left(12) : m_session.name;
    const QString title =
        !customName.isEmpty() ? customName : (w->windowTitle().isEmpty() ? fallback : w->windowTitle());
    const int i = m_terminals->addTab(w, elided(title));
    m_terminals->setTabToolTip(i, title);
    // The tab follows the program's title (OSC 0/2) until the user names it.
    connect(w, &QWidget::windowTitleChanged, this, [this, w, fallback](const QString &t) {
        const int at = m_terminals->indexOf(w);
        if (at < 0 || !w->property(kCustomName).toString().isEmpty())
            return;
        const QString text = t.isEmpty() ? fallback : t;
        m_terminals->setTabText(at, elided(text));
        m_terminals->setTabToolTip(at, text);
    });
    m_terminals->setCurrentIndex(i);
    updateCorner();
    Q_EMIT terminalsChanged();
}

int SessionDetail::terminalCount() const
{
    return m_terminals->count() + int(std::count_if(m_floating.begin(), m_floating.end(),
                                                    [](const QPointer<QWidget> &w) { return !w.isNull(); }));
}

void SessionDetail::closeTerminal(int index)
{
    QWidget *w = m_terminals->widget(index);
    if (!w)
        return;
    m_closed.append(w->property(kCustomName).toString());
    while (m_closed.size() > kMaxClosed)
        m_closed.removeFirst();
    m_terminals->removeTab(index);
    w->deleteLater();
    updateCorner();
    Q_EMIT terminalsChanged();
}

void SessionDetail::reopenClosedTerminal()
{
    if (m_closed.isEmpty())
        return;
    const QString name = m_closed.takeLast();
    if (QWidget *w = openTerminal()) {
        if (!name.isEmpty())
            renameTerminal(m_terminals->indexOf(w), name);
    }
    updateCorner();
}

void SessionDetail::renameTerminal(int index, const QString &name)
{
    QWidget *w = m_terminals->widget(index);
    if (!w)
        return;
    const QString trimmed = name.trimmed();
    w->setProperty(kCustomName, trimmed);
    const QString text = trimmed.isEmpty() ? w->windowTitle() : trimmed;
    m_terminals->setTabText(index, elided(text));
    m_terminals->setTabToolTip(index, text);
}

// An editor over the tab itself: no dialog, Enter keeps the name, Escape drops it.
void SessionDetail::startRename(int index)
{
    if (index < 0)
        return;
    QTabBar *bar = m_terminals->tabBar();
    auto *edit = new QLineEdit(bar);
    edit->setObjectName(QStringLiteral("terminalRenameEdit"));
    edit->setAccessibleName(tr("Terminal name"));
    edit->setText(m_terminals->tabText(index));
    edit->selectAll();
    edit->setGeometry(bar->tabRect(index).adjusted(2, 2, -2, -2));
    edit->show();
    edit->setFocus();
    QPointer<QWidget> target = m_terminals->widget(index);
    connect(edit, &QLineEdit::editingFinished, this, [this, edit, target]() {
        if (target && edit->isVisible())
            renameTerminal(m_terminals->indexOf(target), edit->text());
        edit->hide();
        edit->deleteLater();
    });
}

void SessionDetail::terminalMenu(const QPoint &pos)
{
    const int index = m_terminals->tabBar()->tabAt(pos);
    if (index < 0)
        return;
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(tr("Rename…"), this, [this, index]() { startRename(index); });
    menu->addAction(tr("Move to a new window"), this, [this, index]() { moveTerminalToWindow(index); });
    menu->addSeparator();
    menu->addAction(tr("Close"), this, [this, index]() { closeTerminal(index); });
    menu->popup(m_terminals->tabBar()->mapToGlobal(pos));
}

QWidget *SessionDetail::moveTerminalToWindow(int index)
{
    QWidget *w = m_terminals->widget(index);
    if (!w)
        return nullptr;
    const QString title = m_terminals->tabToolTip(index);
    m_terminals->removeTab(index);
    auto *window = new FloatingTerminal(w, [this](QWidget *t) { dockTerminal(t); });
    window->setWindowTitle(tr("%1 — %2 — Sandbar").arg(title, m_session.ref()));
    window->resize(qMax(640, width()), qMax(400, height()));
    window->show();
    w->setFocus();
    m_floating.append(w);
    updateCorner();
    Q_EMIT terminalsChanged();
    return window;
}

QList<QWidget *> SessionDetail::floatingTerminals() const
{
    QList<QWidget *> out;
    for (const auto &w : m_floating) {
        if (w)
            out << w;
    }
    return out;
}

void SessionDetail::dockTerminal(QWidget *w)
{
    m_floating.removeAll(w);
    addTerminalWidget(w, w->property(kCustomName).toString());
    showPage(Page::Terminals);
}

void SessionDetail::updateCorner()
{
    const bool running = m_session.state == SessionState::Running && !m_removed;
    const Capabilities caps = m_provider ? m_provider->capabilities() : Capabilities{};
    const bool console = caps.testFlag(Capability::Pty) || caps.testFlag(Capability::Exec);
    m_newTerminal->setEnabled(running && console && bool(m_services.terminals));
    m_reopen->setEnabled(running && !m_closed.isEmpty() && bool(m_services.terminals));
    m_reopen->setVisible(!m_closed.isEmpty());
    const bool empty = m_terminals->count() == 0;
    m_terminals->setVisible(!empty);
    m_emptyState->setVisible(empty);
    m_openFirst->setEnabled(m_newTerminal->isEnabled());
    m_openFirst->setVisible(console);
    if (!console)
        m_noTerminal->setText(tr("%1 runs no commands in its sandboxes: there is no terminal to open.")
                                  .arg(m_provider ? m_provider->descriptor().displayName : m_session.provider));
    else if (!running)
        m_noTerminal->setText(tr("The session is not running: a terminal opens once it runs."));
    else
        m_noTerminal->setText(tr("No terminal open yet (Ctrl+Shift+N, or double-click the session)."));
}

} // namespace sandbar::ui
