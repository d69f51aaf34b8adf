#pragma once

// What the window does with statistics: CPU and memory sparklines in the sessions table,
// the visible rows as the collector's interest (nothing else is sampled), and Stats tabs
// holding a StatsView each (an open tab samples faster, streamed where the provider can).
// The table's model may be the SessionsModel or a proxy over it (the pane's filter): view
// rows are mapped to the model's rows to find their refs.

#include "metrics/StatsCollector.h"
#include "providers/Session.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

class QTabWidget;
class QTableView;

namespace sandbar::ui {

class SessionStatsUi : public QObject
{
    Q_OBJECT
public:
    SessionStatsUi(metrics::StatsCollector &collector, QTableView *table, QTabWidget *tabs, QObject *parent = nullptr);

    // Opens (or brings forward) the session's Stats tab.
    void openStatsTab(const SessionInfo &session);
    // The refs whose rows are visible now (the collector's list interest).
    QStringList visibleRefs() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateInterest();

    metrics::StatsCollector &m_collector;
    QPointer<QTableView> m_table;
    QPointer<QTabWidget> m_tabs;
    QTimer m_interestTimer; // coalesces scrolls, resizes and model changes
};

} // namespace sandbar::ui
