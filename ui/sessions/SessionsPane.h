#pragma once

#include "providers/Session.h"
#include "sessions/BulkActions.h"

#include <QSet>
#include <QStringList>
#include <QTimer>
#include <QWidget>
#include <optional>

class QLineEdit;
class QSettings;
class QTableView;

namespace sandbar {
class SessionRegistry;
}

namespace sandbar::ui {

class ColumnFitter;
class SessionsFilter;
class SessionsModel;

// The sessions table of the main window: a search field over a sortable, multi-select
// table of every account's sessions, with columns the user can hide (header context menu),
// bulk verbs on the selection, and its layout and selection kept across runs.
class SessionsPane : public QWidget
{
    Q_OBJECT
public:
    explicit SessionsPane(SessionRegistry &registry, QWidget *parent = nullptr);

    // In view order.
    QList<SessionInfo> selectedSessions() const;
    // The current row when it is selected, else the first selected one.
    std::optional<SessionInfo> currentSession() const;
    QTableView *view() const { return m_view; }
    QLineEdit *searchField() const { return m_search; }
    SessionsModel *model() const { return m_model; }
    SessionsFilter *filter() const { return m_filter; }
    BulkActions *bulkActions() const { return m_bulk; }

    // Empty: every account (the account list's "All accounts").
    void setAccountFilter(const QString &account);
    // Selects the session alone and scrolls to it; if it is not listed yet, once it is.
    void selectRef(const QString &ref);
    // The bulk verb on the selection: one question, then one error list for what failed.
    void runBulk(BulkActions::Verb verb);

    // User's choice; GPU is also hidden while no listed session has GPUs.
    bool isColumnShown(int column) const;
    void setColumnShown(int column, bool shown);

    // Whether the person sized a column by hand; until then the columns fit the width.
    bool columnsChosen() const;
    // The pane's height that shows the search field, the header and this many rows.
    int heightForRows(int rows) const;

    // Header (order, widths, sort), hidden columns, whether the columns were chosen and the
    // selected refs, under "sessionsPane/". The selection comes back once its rows are listed.
    void saveState(QSettings &settings) const;
    void restoreState(const QSettings &settings);

Q_SIGNALS:
    void selectionChanged();
    void activated(const sandbar::SessionInfo &session); // double click, Enter

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void applyColumnVisibility();
    void showHeaderMenu(const QPoint &pos);
    void restorePendingSelection();
    void selectRefs(const QStringList &refs, bool clear, bool keepUnlisted = false);
    void repaintTickingColumns();
    void showFailures(int ok, const BulkActions::Failures &failures);

    SessionRegistry &m_registry;
    SessionsModel *m_model = nullptr;
    ColumnFitter *m_fitter = nullptr;
    SessionsFilter *m_filter = nullptr;
    QLineEdit *m_search = nullptr;
    QTableView *m_view = nullptr;
    BulkActions *m_bulk = nullptr;
    BulkActions::Verb m_bulkVerb = BulkActions::Verb::Stop;
    QSet<int> m_userHidden;
    QStringList m_pendingRefs; // selection to restore once listed
    QTimer m_tick;             // Uptime and TTL left, visible cells only
    QTimer m_restoreTimer;
};

} // namespace sandbar::ui
