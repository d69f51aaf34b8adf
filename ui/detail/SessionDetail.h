#pragma once

#include "providers/Provider.h"

#include <QPointer>
#include <QWidget>
#include <functional>

class QLabel;
class QPushButton;
class QTabWidget;
class QToolButton;

namespace sandbar::metrics {
class StatsCollector;
}

namespace sandbar::ui {

class FilesPane;
class InfoView;
class CommandsView;
class LogsView;
class StatsView;

// Makes the widget shown in a terminal tab for a session (the terminal feature supplies
// it; the window does not know how terminals are built).
// attachId names a terminal the provider kept alive (empty: a new shell).
using TerminalFactory =
    std::function<QWidget *(Provider *provider, const SessionInfo &session, const QString &attachId, QWidget *parent)>;

// What a session's detail is built from; the composition root fills it.
struct DetailServices {
    TerminalFactory terminals;
    metrics::StatsCollector *stats = nullptr;
};

// One session's tab set: Terminals (several, renamable, reopenable, each movable into its own
// window and back), Stats, Files, Info and Logs where the provider keeps them. Pages are built
// the first time they are shown, so a listed session costs nothing until looked at; Stats
// samples fast only while its page is on screen.
class SessionDetail : public QWidget
{
    Q_OBJECT
public:
    enum class Page { Terminals, Stats, Files, Info, Logs };

    SessionDetail(Provider *provider, const SessionInfo &session, DetailServices services, QWidget *parent = nullptr);
    ~SessionDetail() override;

    QString ref() const { return m_session.ref(); }
    const SessionInfo &session() const { return m_session; }
    Provider *provider() const { return m_provider; }
    // The window's features, when they are given after the detail was made.
    void setServices(const DetailServices &services);
    // A new listing of the session: state, ttl, endpoints.
    void setSession(const SessionInfo &session);
    // The session is gone: terminals keep their content under a banner saying so.
    void setRemoved();
    bool isRemoved() const { return m_removed; }

    void showPage(Page page);
    Page currentPage() const;
    bool hasPage(Page page) const;
    static QString pageKey(Page page);
    static std::optional<Page> pageFromKey(const QString &key);

    // Opens a terminal tab (attachId: one the provider kept alive) and shows it.
    QWidget *openTerminal(const QString &attachId = {});
    int terminalCount() const;
    QTabWidget *terminalTabs() const { return m_terminals; }
    QTabWidget *pages() const { return m_pages; }
    // Closed terminals remembered for "Reopen closed terminal" (newest last).
    int closedTerminalCount() const { return int(m_closed.size()); }
    void reopenClosedTerminal();
    void renameTerminal(int index, const QString &name);
    // Moves a terminal into a window of its own; closing that window docks it back.
    QWidget *moveTerminalToWindow(int index);
    QList<QWidget *> floatingTerminals() const;

    // The pages, built on first use (nullptr where the page is not offered).
    FilesPane *filesPane();
    LogsView *logsView();
    CommandsView *commandsView(); // null without BackgroundFacet
    InfoView *infoView() const { return m_info; }
    StatsView *statsView() const { return m_statsView; }

Q_SIGNALS:
    // The detach button: the owner moves this detail into a window of its own or back.
    void detachRequested();
    void terminalsChanged();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    // The Info tab, with the provider's own sections (its snapshots).
    void addPages(Provider *provider);
    void fillInfo(Provider *provider);
    void ensurePage(int index);
    void updateStatsInterest();
    void addTerminalWidget(QWidget *w, const QString &customName);
    void closeTerminal(int index);
    void dockTerminal(QWidget *w);
    void terminalMenu(const QPoint &pos);
    void startRename(int index);
    void updateCorner();

    QPointer<Provider> m_provider;
    SessionInfo m_session;
    DetailServices m_services;
    bool m_removed = false;
    bool m_statsInterest = false;

    QTabWidget *m_pages;
    QTabWidget *m_terminals;
    QWidget *m_terminalsPage;
    QLabel *m_noTerminal;
    QWidget *m_emptyState = nullptr;
    QPushButton *m_openFirst = nullptr;
    QToolButton *m_newTerminal;
    QToolButton *m_reopen;
    QToolButton *m_detach;
    QWidget *m_statsPage;
    QWidget *m_filesPage;
    QWidget *m_logsPage = nullptr;
    QWidget *m_commandsPage = nullptr;
    InfoView *m_info;
    StatsView *m_statsView = nullptr;
    FilesPane *m_files = nullptr;
    LogsView *m_logs = nullptr;
    CommandsView *m_commands = nullptr;
    QList<QString> m_closed; // custom names ("" for none) of closed terminals
    QList<QPointer<QWidget>> m_floating;
};

} // namespace sandbar::ui
