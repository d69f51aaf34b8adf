// The hover readout of a chart card: a crosshair at the nearest point and a box naming
// the exact values and the time.
#include "charts/StatsChart.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QLocale>
#include <algorithm>

namespace sandbar::ui {

using metrics::HistoryPoint;

namespace {

// The point whose time is nearest to timeMs, or -1.
qsizetype nearest(const QList<HistoryPoint> &points, qint64 timeMs)
{
    if (points.isEmpty())
        return -1;
    auto it = std::lower_bound(points.begin(), points.end(), timeMs,
                               [](const HistoryPoint &p, qint64 t) { return p.timeMs < t; });
    qsizetype i = it - points.begin();
    if (i == points.size())
        return i - 1;
    if (i > 0 && timeMs - points.at(i - 1).timeMs < points.at(i).timeMs - timeMs)
        return i - 1;
    return i;
}

} // namespace

QString StatsChart::readoutAt(qint64 timeMs) const
{
    if (m_lines.empty() || m_lines.front()->points.isEmpty())
        return {};
    const auto &first = m_lines.front()->points;
    const qint64 t = first.at(nearest(first, timeMs)).timeMs;
    QStringList rows{QLocale().toString(QDateTime::fromMSecsSinceEpoch(t), QStringLiteral("HH:mm:ss"))};
    for (const auto &line : m_lines) {
        const qsizetype i = nearest(line->points, t);
        if (i < 0)
            continue;
        const HistoryPoint &p = line->points.at(i);
        QString row = tr("%1: %2").arg(line->spec.name, units::format(m_kind, p.avg));
        rows.append(row);
        if (p.max > p.min) // a downsampled point: what it summarises
            rows.append(QStringLiteral("  ") +
                        tr("min %1 · max %2").arg(units::format(m_kind, p.min), units::format(m_kind, p.max)));
    }
    for (qint64 oom : m_markerTimes)
        if (std::abs(oom - t) <= 1000)
            rows.append(m_markerName);
    return rows.join(QLatin1Char('\n'));
}

void StatsChart::hoverAt(QPointF viewPos)
{
    const QPointF chartPos = m_chart->mapFromScene(m_canvas->mapToScene(viewPos.toPoint()));
    const QRectF plot = m_chart->plotArea();
    if (m_lines.empty() || !plot.contains(chartPos) || placeholderShown()) {
        hideHover();
        return;
    }
    QAbstractSeries *series = m_lines.front()->avg;
    const double x = m_chart->mapToValue(chartPos, series).x();
    const qint64 wanted = m_newestMs + qint64(x * 1000.0);
    const QString text = readoutAt(wanted);
    if (text.isEmpty()) {
        hideHover();
        return;
    }
    const auto &first = m_lines.front()->points;
    const qint64 t = first.at(nearest(first, wanted)).timeMs;
    const double px = m_chart->mapToPosition(QPointF((double(t) - double(m_newestMs)) / 1000.0, 0), series).x();
    m_crosshair->setLine(px, plot.top(), px, plot.bottom());
    m_crosshair->show();
    m_readoutText->setText(text);
    const QRectF box = m_readoutText->boundingRect().adjusted(-5, -3, 5, 3);
    QPointF at(px + 10, std::max(plot.top(), chartPos.y() - box.height() - 6));
    if (at.x() + box.width() > plot.right())
        at.setX(px - 10 - box.width());
    // Never outside the chart, even when the box is wider than the room on either side.
    const QRectF area = m_chart->rect();
    at.setX(std::clamp(at.x(), area.left(), std::max(area.left(), area.right() - box.width())));
    at.setY(std::clamp(at.y(), area.top(), std::max(area.top(), area.bottom() - box.height())));
    m_readoutBox->setRect(QRectF(QPointF(0, 0), box.size()));
    m_readoutText->setPos(5, 3);
    m_readoutBox->setPos(at);
    m_readoutBox->show();
}

void StatsChart::hideHover()
{
    m_crosshair->hide();
    m_readoutBox->hide();
}

} // namespace sandbar::ui
