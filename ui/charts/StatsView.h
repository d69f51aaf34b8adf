#pragma once

// A session's live statistics: CPU, memory, network, disk, filesystem and per-GPU charts
// over the last minute, five minutes or hour, with a status line saying how sampling goes.
// It draws at most once a second and only while visible: appended() marks it dirty, a 1 s
// timer that runs only between showEvent and hideEvent rebuilds the series.
// The same view serves a tab and a detached window: setStats() may be called at any time.

#include "common/Clock.h"
#include "metrics/SessionStats.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>
#include <map>

QT_BEGIN_NAMESPACE
class QButtonGroup;
class QGridLayout;
class QLabel;
class QScrollArea;
QT_END_NAMESPACE

namespace sandbar::ui {

class StatsChart;

class StatsView : public QWidget
{
    Q_OBJECT
public:
    explicit StatsView(QWidget *parent = nullptr);
    ~StatsView() override;

    // The session shown (nullptr: none). Not owned; a destroyed one reads as none.
    void setStats(metrics::SessionStats *stats);
    metrics::SessionStats *stats() const { return m_stats; }

    void setWindow(metrics::Window window);
    metrics::Window window() const { return m_window; }

    // What the "retrying in N s" countdown counts on: the clock that set the session's
    // nextRetry (the collector's). Not owned; it must outlive the view.
    void setClock(const Clock &clock);

    // For tests and the bench.
    int seriesUpdateCount() const { return m_updates; }
    bool timerActive() const { return m_timer.isActive(); }
    QString statusText() const;
    StatsChart *chart(const QString &objectName) const; // "statsCpu", "statsGpuUtil0"...
    QList<StatsChart *> visibleCharts() const { return m_order; }

public Q_SLOTS:
    // Rebuilds every chart now if visible (the timer calls it when samples arrived).
    void refresh();

Q_SIGNALS:
    void windowChanged(sandbar::metrics::Window window);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    struct GpuCharts {
        StatsChart *util = nullptr;
        StatsChart *memory = nullptr;
    };
    void onTick();
    void configure();
    void configureGpus();
    void relayout();
    void updateStatus();
    bool isDark() const;
    QString notProvided() const;
    StatsChart *makeChart(const QString &name, int kind);

    const Clock *m_clock = &systemClock();
    QPointer<metrics::SessionStats> m_stats;
    metrics::Window m_window = metrics::Window::FiveMinutes;
    QTimer m_timer;
    bool m_dirty = true;
    int m_updates = 0;
    int m_columns = 0;
    bool m_dark = false;

    QLabel *m_status = nullptr;
    QButtonGroup *m_windowButtons = nullptr;
    QScrollArea *m_scroll = nullptr;
    QWidget *m_grid = nullptr;
    QGridLayout *m_gridLayout = nullptr;
    StatsChart *m_cpu = nullptr;
    StatsChart *m_memory = nullptr;
    StatsChart *m_network = nullptr;
    StatsChart *m_disk = nullptr;
    StatsChart *m_filesystem = nullptr;
    std::map<int, GpuCharts> m_gpus;
    QList<StatsChart *> m_order; // as laid out
    QList<bool> m_placeholders;  // which of them showed a sentence then
};

} // namespace sandbar::ui
