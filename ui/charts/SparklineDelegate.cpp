#include "charts/SparklineDelegate.h"

#include "charts/Units.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QDateTime>
#include <QEvent>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>

namespace sandbar::ui {

using metrics::HistoryPoint;
using metrics::Metric;
using metrics::Resolution;

namespace {

constexpr qint64 kMinuteMs = 60 * 1000;
constexpr qint64 kFiveMinutesMs = 5 * 60 * 1000;

metrics::SeriesKey keyFor(SparklineDelegate::Figure f)
{
    return {f == SparklineDelegate::Figure::Cpu ? Metric::Cpu : Metric::Memory, -1};
}

} // namespace

SparklineDelegate::SparklineDelegate(Figure figure, StatsLookup lookup, QObject *parent)
    : QStyledItemDelegate(parent)
    , m_figure(figure)
    , m_lookup(std::move(lookup))
{
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_view && m_view->isVisible())
            m_view->viewport()->update();
    });
}

void SparklineDelegate::watch(QAbstractItemView *view)
{
    if (m_view)
        m_view->removeEventFilter(this);
    m_view = view;
    m_timer.stop();
    if (!view)
        return;
    view->installEventFilter(this);
    if (view->isVisible())
        m_timer.start();
}

bool SparklineDelegate::eventFilter(QObject *watched, QEvent *event)
{
    // The timer runs only while the watched view is shown.
    if (watched == m_view) {
        if (event->type() == QEvent::Show)
            m_timer.start();
        else if (event->type() == QEvent::Hide)
            m_timer.stop();
    }
    return QStyledItemDelegate::eventFilter(watched, event);
}

QString SparklineDelegate::valueText(const metrics::SessionStats &stats) const
{
    const auto last = stats.history().last(keyFor(m_figure), Resolution::OneSecond);
    if (!last)
        return {};
    return units::format(m_figure == Figure::Cpu ? units::Kind::Percent : units::Kind::Bytes, last->avg);
}

void SparklineDelegate::paintSparkline(QPainter *painter, const QRectF &rect, const metrics::SessionStats &stats,
                                       const QColor &color) const
{
    const metrics::StatsHistory &h = stats.history();
    const metrics::SeriesKey key = keyFor(m_figure);
    const qint64 newest = h.newestMs();
    if (newest <= 0 || rect.width() < 4 || rect.height() < 4 || !h.has(key))
        return;
    // The last minute at 1 s; five minutes at 5 s when the list polls too slowly for that.
    QList<HistoryPoint> points;
    auto collect = [&points](const HistoryPoint &p) { points.append(p); };
    qint64 span = kMinuteMs;
    h.forEach(key, Resolution::OneSecond, newest - span, collect);
    if (points.size() < 3) {
        QList<HistoryPoint> minute;
        minute.swap(points);
        h.forEach(key, Resolution::FiveSeconds, newest - kFiveMinutesMs, collect);
        if (points.size() > minute.size())
            span = kFiveMinutesMs;
        else
            points.swap(minute);
    }
    if (points.isEmpty())
        return;

    double peak = 0;
    for (const HistoryPoint &p : std::as_const(points))
        peak = std::max(peak, double(p.avg));
    double top = peak * 1.15;
    if (m_figure == Figure::Cpu) {
        // Against the session's CPU limit when it has one, else against one core.
        const auto cpus = stats.session().cpus;
        top = std::max(top, cpus && *cpus > 0 ? *cpus * 100.0 : 100.0);
    } else {
        const auto &latest = h.latest();
        const double limit = latest && latest->memoryLimitBytes ? double(*latest->memoryLimitBytes) : 0;
        if (limit > 0 && limit <= 8 * peak)
            top = std::max(top, limit);
        top = std::max(top, 1024.0 * 1024.0);
    }

    auto pos = [&](const HistoryPoint &p) {
        const double x = rect.right() - double(newest - p.timeMs) / double(span) * rect.width();
        const double y = rect.bottom() - std::clamp(double(p.avg) / top, 0.0, 1.0) * rect.height();
        return QPointF(std::max(rect.left(), x), y);
    };
    QPainterPath line;
    const QPointF first = pos(points.first());
    line.moveTo(points.size() == 1 ? first - QPointF(4, 0) : first); // one value: a short dash
    if (points.size() == 1)
        line.lineTo(first);
    for (qsizetype i = 1; i < points.size(); ++i)
        line.lineTo(pos(points.at(i)));
    QPainterPath fill = line;
    fill.lineTo(line.currentPosition().x(), rect.bottom());
    fill.lineTo(line.elementAt(0).x, rect.bottom());
    fill.closeSubpath();

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setClipRect(rect.adjusted(-1, -1, 1, 1));
    QColor area = color;
    area.setAlpha(60);
    painter->fillPath(fill, area);
    QPen pen(color, 1.3);
    pen.setCosmetic(true);
    painter->setPen(pen);
    painter->drawPath(line);
    painter->restore();
}

void SparklineDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    metrics::SessionStats *stats = m_lookup ? m_lookup(index) : nullptr;
    if (!stats || stats->history().sampleCount() == 0) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    opt.icon = QIcon();
    const QWidget *widget = opt.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background, selection, focus

    const bool selected = opt.state.testFlag(QStyle::State_Selected);
    const QPalette::ColorGroup group =
        opt.state.testFlag(QStyle::State_Enabled) ? QPalette::Normal : QPalette::Disabled;
    const QColor textColor = opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    const bool dark = opt.palette.color(QPalette::Base).lightness() < 128;
    QColor lineColor = m_figure == Figure::Cpu ? QColor(0x1f77b4) : QColor(0xff7f0e);
    if (dark)
        lineColor = lineColor.lighter(135);
    if (selected)
        lineColor = textColor;

    const QRect r = opt.rect.adjusted(4, 3, -4, -3);
    const QString text = valueText(*stats);
    const int textWidth = opt.fontMetrics.horizontalAdvance(QStringLiteral("888.8 MiB"));
    QRect textRect = r;
    QRectF lineRect = r;
    if (r.width() > textWidth + 24) {
        textRect.setLeft(r.right() - textWidth);
        lineRect.setRight(textRect.left() - 6);
    } else {
        lineRect = QRectF(); // too narrow for both: the value wins
    }
    if (!lineRect.isEmpty())
        paintSparkline(painter, lineRect, *stats, lineColor);
    // An out-of-memory kill in the history shows in the list too: a red mark and red text.
    const bool oom = m_figure == Figure::Memory && !stats->history().oomMarkers().empty();
    painter->save();
    if (oom) {
        const QColor red = selected ? textColor : QColor(0xd6, 0x27, 0x28);
        const qreal y = r.top() + 1;
        const qreal x = r.left() + 1;
        QPainterPath mark;
        mark.moveTo(x, y + 7);
        mark.lineTo(x + 4, y);
        mark.lineTo(x + 8, y + 7);
        mark.closeSubpath();
        painter->setRenderHint(QPainter::Antialiasing, true);
        painter->fillPath(mark, red);
        painter->setPen(red);
    } else {
        painter->setPen(textColor);
    }
    painter->setFont(opt.font);
    painter->drawText(textRect, Qt::AlignRight | Qt::AlignVCenter, text);
    painter->restore();
}

QString SparklineDelegate::toolTip(const metrics::SessionStats &stats) const
{
    // A row whose sampling fails says why, and when it tries again.
    if (stats.state() == metrics::SessionStats::State::BackingOff && stats.lastError()) {
        const qint64 wait = m_clock->currentDateTimeUtc().secsTo(stats.nextRetry());
        return tr("Sampling failed: %1 (retrying in %n s)", nullptr, int(std::max<qint64>(0, wait)))
            .arg(stats.lastError()->message);
    }
    const auto &oom = stats.history().oomMarkers();
    if (m_figure != Figure::Memory || oom.empty())
        return {};
    return tr("Out-of-memory kill at %1 (%n in this history)", nullptr, int(oom.size()))
        .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(oom.back()).toLocalTime().time(), QLocale::ShortFormat));
}

bool SparklineDelegate::helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
                                  const QModelIndex &index)
{
    if (event && event->type() == QEvent::ToolTip) {
        if (metrics::SessionStats *stats = m_lookup ? m_lookup(index) : nullptr) {
            const QString tip = toolTip(*stats);
            if (!tip.isEmpty()) {
                QToolTip::showText(event->globalPos(), tip, view);
                return true;
            }
        }
    }
    return QStyledItemDelegate::helpEvent(event, view, option, index);
}

QSize SparklineDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    const int text = option.fontMetrics.horizontalAdvance(QStringLiteral("888.8 MiB"));
    s.setWidth(std::max(s.width(), text + 80));
    s.setHeight(std::max(s.height(), option.fontMetrics.height() + 8));
    return s;
}

} // namespace sandbar::ui
