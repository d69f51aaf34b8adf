#pragma once

// Paints a CPU or memory sparkline for a row of the sessions list straight from the
// session's ring buffers (the last minute at 1 s resolution, or five at 5 s when the
// minute holds too few points), with the newest value as text beside it. No chart object
// per row: one QPainterPath per paint.

#include "common/Clock.h"
#include "metrics/SessionStats.h"

#include <QPointer>
#include <QStyledItemDelegate>
#include <QTimer>
#include <functional>

QT_BEGIN_NAMESPACE
class QAbstractItemView;
QT_END_NAMESPACE

namespace sandbar::ui {

class SparklineDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    enum class Figure { Cpu, Memory };
    // The row's statistics, or nullptr (then the model's own text is painted).
    using StatsLookup = std::function<metrics::SessionStats *(const QModelIndex &)>;

    SparklineDelegate(Figure figure, StatsLookup lookup, QObject *parent = nullptr);

    Figure figure() const { return m_figure; }
    // What the tooltip's "retrying in N s" counts on: the clock that set the session's
    // nextRetry (the collector's). Not owned; it must outlive the delegate.
    void setClock(const Clock &clock) { m_clock = &clock; }
    // Repaints view's viewport once a second while the view is visible, so the lines move
    // without the model emitting dataChanged for every sample. Optional.
    void watch(QAbstractItemView *view);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // The value text drawn beside the line ("37 %", "512 MiB"); empty without samples.
    QString valueText(const metrics::SessionStats &stats) const;
    // Why sampling fails (both figures), else for the memory figure when and how often the
    // session was OOM-killed; else empty.
    QString toolTip(const metrics::SessionStats &stats) const;
    bool helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
                   const QModelIndex &index) override;
    // Paints one sparkline into rect (public so that other views and tests can use it).
    void paintSparkline(QPainter *painter, const QRectF &rect, const metrics::SessionStats &stats,
                        const QColor &color) const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    Figure m_figure;
    StatsLookup m_lookup;
    const Clock *m_clock = &systemClock();
    QPointer<QAbstractItemView> m_view;
    QTimer m_timer;
};

} // namespace sandbar::ui
