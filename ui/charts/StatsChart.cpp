#include "charts/StatsChart.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QStackedLayout>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <array>
#include <cmath>

namespace sandbar::ui {

using metrics::HistoryPoint;
using metrics::Window;

namespace {

// The chart view of one card: forwards the mouse to the card's crosshair.
class StatsChartCanvas : public QChartView
{
public:
    StatsChartCanvas(QChart *chart, StatsChart *owner)
        : QChartView(chart, owner)
        , m_owner(owner)
    {
        setMouseTracking(true);
        setRenderHint(QPainter::Antialiasing);
        setFrameShape(QFrame::NoFrame);
        // Every item moves each second (the time axis is relative): repainting the whole
        // viewport is cheaper than working out the changed regions.
        setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    }

protected:
    void mouseMoveEvent(QMouseEvent *event) override
    {
        m_owner->hoverAt(event->position());
        QChartView::mouseMoveEvent(event);
    }
    void leaveEvent(QEvent *event) override
    {
        m_owner->hideHover();
        QChartView::leaveEvent(event);
    }

private:
    StatsChart *m_owner;
};

// A band's translucent fill, without antialiasing: Qt's antialiased fill of a jagged
// polygon cost about 1 ms a band (9 of the 16 ms frame budget at 1 h, bench stats-ui), and
// the line drawn over the band hides the difference.
class BandItem : public QGraphicsPathItem
{
public:
    using QGraphicsPathItem::QGraphicsPathItem;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override
    {
        painter->setRenderHint(QPainter::Antialiasing, false);
        QGraphicsPathItem::paint(painter, option, widget);
    }
};

// Above the grid and axes (ChartPresenter's GridZValue 2, AxisZValue 3), under the series (4).
constexpr qreal kBandZ = 3.5;

constexpr int kChartMinHeight = 200;
constexpr int kPlaceholderMinHeight = 70;
constexpr int kPlaceholderMaxHeight = 110;

qint64 periodMs(Window w)
{
    return metrics::kPeriodMs[std::size_t(metrics::resolutionFor(w))];
}

void setLegendVisible(QChart *chart, QAbstractSeries *series, bool visible)
{
    const auto markers = chart->legend()->markers(series);
    for (QLegendMarker *m : markers)
        m->setVisible(visible);
}

} // namespace

StatsChart::StatsChart(const QString &objectName, units::Kind kind, QWidget *parent)
    : QWidget(parent)
    , m_kind(kind)
    , m_chart(new QChart)
{
    setObjectName(objectName);
    setMinimumSize(260, kChartMinHeight);
    m_titleLabel = new QLabel(this);
    m_titleLabel->setObjectName(QStringLiteral("title"));
    QFont bold = m_titleLabel->font();
    bold.setBold(true);
    m_titleLabel->setFont(bold);
    m_valueLabel = new QLabel(this);
    m_valueLabel->setObjectName(QStringLiteral("value"));
    m_valueLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_subtitleLabel = new QLabel(this);
    m_subtitleLabel->setObjectName(QStringLiteral("subtitle"));
    m_subtitleLabel->setForegroundRole(QPalette::PlaceholderText); // muted, yet readable
    m_subtitleLabel->hide();
    m_placeholder = new QLabel(this);
    m_placeholder->setObjectName(QStringLiteral("placeholder"));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);

    m_chart->setAnimationOptions(QChart::NoAnimation); // rebuilt every second; animation would lag
    m_chart->setBackgroundRoundness(0);
    m_chart->setMargins(QMargins(2, 2, 22, 2)); // room for the last time label
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    // Axes live as long as the chart (deleting and re-adding them left stale labels, Qt 6.4).
    m_timeAxis = new QCategoryAxis;
    m_timeAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_valueAxis = new QValueAxis;
    m_chart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_chart->addAxis(m_valueAxis, Qt::AlignLeft);
    m_canvas = new StatsChartCanvas(m_chart, this);
    connect(m_chart, &QChart::plotAreaChanged, this, [this] { updateBands(); });

    m_crosshair = new QGraphicsLineItem(m_chart);
    m_crosshair->setZValue(10);
    m_readoutBox = new QGraphicsRectItem(m_chart);
    m_readoutBox->setZValue(11);
    m_readoutText = new QGraphicsSimpleTextItem(m_readoutBox);
    hideHover();

    auto *header = new QHBoxLayout;
    header->setContentsMargins(6, 0, 6, 0);
    header->addWidget(m_titleLabel, 1);
    header->addWidget(m_valueLabel);
    m_stack = new QStackedLayout;
    m_stack->addWidget(m_canvas);
    m_stack->addWidget(m_placeholder);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 6, 4, 4);
    layout->setSpacing(2);
    layout->addLayout(header);
    auto *sub = new QHBoxLayout;
    sub->setContentsMargins(6, 0, 6, 0);
    sub->addWidget(m_subtitleLabel);
    layout->addLayout(sub);
    layout->addLayout(m_stack, 1);
}

StatsChart::~StatsChart()
{
    m_chart->removeAllSeries();
}

void StatsChart::setTitle(const QString &title)
{
    m_title = title;
    m_titleLabel->setText(title);
}

void StatsChart::setSubtitle(const QString &subtitle)
{
    m_subtitleLabel->setText(subtitle);
    m_subtitleLabel->setVisible(!subtitle.isEmpty());
}

void StatsChart::setLines(const QList<ChartLine> &lines)
{
    bool same = lines.size() == m_lineSpecs.size();
    for (qsizetype i = 0; same && i < lines.size(); ++i)
        same = lines.at(i).key == m_lineSpecs.at(i).key && lines.at(i).name == m_lineSpecs.at(i).name;
    m_lineSpecs = lines;
    if (!same || m_lines.empty())
        rebuildSeries();
}

void StatsChart::setLimit(std::optional<double> raw, const QString &name, bool includeAlways)
{
    m_limit = raw;
    m_limitName = name;
    m_limitAlways = includeAlways;
    if (m_limitSeries && m_limitSeries->name() != name)
        m_limitSeries->setName(name);
}

void StatsChart::setMarkers(const std::vector<qint64> &timesMs, const QString &name)
{
    m_markerTimes = timesMs;
    m_markerName = name;
    if (m_markers && m_markers->name() != name)
        m_markers->setName(name);
}

void StatsChart::setPlaceholder(const QString &text)
{
    if (text == m_placeholderText)
        return;
    m_placeholderText = text;
    m_placeholder->setText(text);
    m_stack->setCurrentWidget(text.isEmpty() ? static_cast<QWidget *>(m_canvas) : m_placeholder);
    // A sentence needs less room than a chart: the view gives the height to the charts.
    setMinimumHeight(text.isEmpty() ? kChartMinHeight : kPlaceholderMinHeight);
    setMaximumHeight(text.isEmpty() ? QWIDGETSIZE_MAX : kPlaceholderMaxHeight);
    if (!text.isEmpty())
        m_valueLabel->clear();
}

QLineSeries *StatsChart::lineSeries(int i) const
{
    return i >= 0 && std::size_t(i) < m_lines.size() ? m_lines[std::size_t(i)]->avg : nullptr;
}

void StatsChart::rebuildSeries()
{
    m_chart->removeAllSeries(); // deletes the lines, limit and markers
    for (auto &line : m_lines)
        delete line->band;
    m_lines.clear();
    m_limitSeries = nullptr;
    m_markers = nullptr;
    auto attach = [this](QAbstractSeries *s) {
        m_chart->addSeries(s);
        s->attachAxis(m_timeAxis);
        s->attachAxis(m_valueAxis);
    };
    for (const ChartLine &spec : std::as_const(m_lineSpecs)) {
        auto line = std::make_unique<Line>();
        line->spec = spec;
        line->band = new BandItem(m_chart);
        line->band->setZValue(kBandZ);
        m_lines.push_back(std::move(line));
    }
    for (auto &line : m_lines) {
        line->avg = new QLineSeries;
        line->avg->setName(line->spec.name);
        attach(line->avg);
    }
    m_limitSeries = new QLineSeries;
    m_limitSeries->setName(m_limitName);
    attach(m_limitSeries);
    m_markers = new QScatterSeries;
    m_markers->setName(m_markerName);
    m_markers->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    m_markers->setMarkerSize(11);
    attach(m_markers);
    applyColors();
}

void StatsChart::applyTheme(bool dark)
{
    m_dark = dark;
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundRoundness(0);
    QFont small = font();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() * 0.9));
    m_chart->legend()->setFont(small);
    m_timeAxis->setLabelsFont(small);
    m_valueAxis->setLabelsFont(small);
    hideHover();
    applyColors(); // the theme reset every series' pen and brush
}

void StatsChart::applyColors()
{
    const QColor text = m_dark ? QColor(0xe8e8e8) : QColor(0x202020);
    const QColor box = m_dark ? QColor(40, 40, 40, 230) : QColor(255, 255, 255, 235);
    m_crosshair->setPen(QPen(m_dark ? QColor(0xb0b0b0) : QColor(0x606060), 0, Qt::DashLine));
    m_readoutBox->setPen(QPen(m_dark ? QColor(0x808080) : QColor(0xa0a0a0), 0));
    m_readoutBox->setBrush(box);
    m_readoutText->setBrush(text);
    for (auto &line : m_lines) {
        QColor c = line->spec.color;
        if (m_dark)
            c = c.lighter(135);
        QPen pen(c, 1.6);
        pen.setCosmetic(true);
        line->avg->setPen(pen);
        QColor fill = c;
        fill.setAlpha(m_dark ? 70 : 55);
        line->band->setPen(Qt::NoPen);
        line->band->setBrush(fill);
    }
    if (m_limitSeries) {
        QPen pen(m_dark ? QColor(0xff7070) : QColor(0xc62828), 1.2, Qt::DashLine);
        pen.setCosmetic(true);
        m_limitSeries->setPen(pen);
    }
    if (m_markers) {
        m_markers->setColor(m_dark ? QColor(0xff5252) : QColor(0xd50000));
        m_markers->setBorderColor(m_dark ? QColor(0xffffff) : QColor(0x400000));
    }
}

void StatsChart::setWindowAxis(Window window, qint64 newestMs)
{
    // Relative time on the axis in round steps that fit the chart's width, and the newest
    // point's clock time at 0.
    const bool seconds = window == Window::OneMinute;
    const QString newestLabel = QLocale().toString(QDateTime::fromMSecsSinceEpoch(newestMs).time(),
                                                   seconds ? QStringLiteral("HH:mm:ss") : QStringLiteral("HH:mm"));
    const int span = int(metrics::windowMs(window) / 1000);
    const int labels = std::max(2, (m_canvas->width() - 70) / 70);
    const std::array<int, 4> steps = window == Window::OneMinute     ? std::array<int, 4>{10, 15, 20, 30}
                                     : window == Window::FiveMinutes ? std::array<int, 4>{60, 60, 120, 150}
                                                                     : std::array<int, 4>{600, 900, 1200, 1800};
    int step = steps.back();
    for (int s : steps) {
        if (span / s + 1 <= labels) {
            step = s;
            break;
        }
    }
    if (m_axisWindow == window && m_axisStep == step) {
        const QStringList labelsNow = m_timeAxis->categoriesLabels();
        if (!labelsNow.isEmpty() && labelsNow.last() != newestLabel)
            m_timeAxis->replaceLabel(labelsNow.last(), newestLabel);
        return;
    }
    m_axisWindow = window;
    m_axisStep = step;
    for (const QString &l : m_timeAxis->categoriesLabels())
        m_timeAxis->remove(l);
    m_timeAxis->setStartValue(-span);
    m_timeAxis->setRange(-span, 0);
    QList<int> ticks;
    for (int x = -step; x >= -span; x -= step)
        ticks.prepend(x);
    for (int x : std::as_const(ticks)) {
        const QString label = seconds || x % 60 != 0 ? tr("%1 s").arg(x) : tr("%1 min").arg(x / 60);
        m_timeAxis->append(label, x);
    }
    m_timeAxis->append(newestLabel, 0);
}

void StatsChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (m_axisWindow && m_newestMs > 0)
        setWindowAxis(*m_axisWindow, m_newestMs); // labels that fit the new width
}

void StatsChart::refresh(const metrics::StatsHistory &history, Window window)
{
    if (placeholderShown())
        return;
    m_newestMs = history.newestMs();
    const double newest = double(m_newestMs);
    const bool bands = window != Window::OneMinute;
    m_bands = bands;
    double peak = 0;
    for (auto &line : m_lines) {
        line->points = history.points(line->spec.key, window);
        const auto last1s = history.last(line->spec.key, metrics::Resolution::OneSecond);
        line->newest = last1s ? std::optional<double>(last1s->avg) : std::nullopt;
        for (const HistoryPoint &p : std::as_const(line->points))
            peak = std::max(peak, double(bands ? p.max : p.avg));
    }
    // A little room above the data so that the line does not run along the frame; a limit
    // may sit on the frame.
    double top = peak * 1.05;
    const bool limitShown = m_limit && *m_limit > 0 && (m_limitAlways || *m_limit <= 8 * peak);
    if (limitShown)
        top = std::max(top, *m_limit);
    if (m_kind == units::Kind::Percent)
        top = std::max(top, 10.0);
    if (m_fixedMax)
        top = *m_fixedMax;
    m_scale = units::scaleFor(m_kind, top);
    // As many ticks as the height has room for: QtCharts elides labels that crowd ("...").
    const double plotHeight = m_chart->plotArea().height();
    const int steps = plotHeight > 0 ? std::clamp(int(plotHeight / 30), 2, 5) : 4;
    const units::AxisRange range = units::niceRange(top / m_scale.divisor, steps);
    m_valueAxis->setRange(0, range.max);
    m_valueAxis->setTickCount(range.tickCount);
    QString suffix = m_scale.suffix;
    suffix.replace(QLatin1Char('%'), QStringLiteral("%%")); // a printf format
    m_valueAxis->setLabelFormat(QStringLiteral("%.%1f %2").arg(range.decimals).arg(suffix));
    setWindowAxis(window, m_newestMs);

    const double div = m_scale.divisor;
    auto x = [newest](qint64 t) { return (double(t) - newest) / 1000.0; };
    for (auto &line : m_lines) {
        QList<QPointF> avg;
        avg.reserve(line->points.size());
        for (const HistoryPoint &p : std::as_const(line->points))
            avg.append(QPointF(x(p.timeMs), p.avg / div));
        line->avg->replace(avg);
        // A window's first bucket is a lone point, which a line does not draw: show it as a dot.
        const bool lone = avg.size() == 1;
        if (line->avg->pointsVisible() != lone)
            line->avg->setPointsVisible(lone);
    }
    updateBands();
    const double span = double(metrics::windowMs(window)) / 1000.0;
    m_limitSeries->replace(limitShown ? QList<QPointF>{{-span, *m_limit / div}, {0, *m_limit / div}}
                                      : QList<QPointF>{});
    setLegendVisible(m_chart, m_limitSeries, limitShown && !m_limitName.isEmpty());
    QList<QPointF> marks;
    if (!m_lines.empty()) {
        const auto &pts = m_lines.front()->points;
        for (qint64 t : m_markerTimes) {
            if (t < m_newestMs - metrics::windowMs(window) - periodMs(window))
                continue;
            // At the highest value just before the kill: the bucket holding it and the one before.
            auto it = std::upper_bound(pts.begin(), pts.end(), t,
                                       [](qint64 v, const HistoryPoint &p) { return v < p.timeMs; });
            double y = 0;
            for (int back = 0; back < 2 && it != pts.begin(); ++back)
                y = std::max(y, double((--it)->max));
            marks.append(QPointF(x(t), y / div));
        }
    }
    m_markers->replace(marks);
    setLegendVisible(m_chart, m_markers, !marks.isEmpty());
    m_valueLabel->setText(valueText());
    if (m_readoutBox->isVisible())
        hideHover();
}

QString StatsChart::valueText() const
{
    QStringList parts;
    for (const auto &line : m_lines) {
        if (!line->newest)
            continue;
        const QString v = units::format(m_kind, *line->newest);
        parts.append(m_lines.size() > 1 ? tr("%1 %2").arg(line->spec.name, v) : v);
    }
    if (parts.isEmpty())
        return tr("No samples yet");
    QString text = parts.join(QStringLiteral(" · "));
    if (m_lines.size() == 1 && m_limit && *m_limit > 0)
        text = tr("%1 of %2").arg(text, units::format(m_kind, *m_limit));
    return text;
}

// The bands follow the plot area: rebuilt after each refresh and when the chart is laid out.
void StatsChart::updateBands()
{
    const double newest = double(m_newestMs);
    const double div = m_scale.divisor;
    const QRectF plot = m_chart->plotArea();
    for (auto &line : m_lines) {
        if (!m_bands || line->points.size() < 2 || placeholderShown()) {
            line->band->setPath({});
            continue;
        }
        const auto &pts = line->points;
        QPolygonF poly;
        poly.reserve(2 * pts.size() + 1);
        auto at = [&](qint64 t, float v) {
            const QPointF p =
                m_chart->mapToPosition(QPointF((double(t) - newest) / 1000.0, double(v) / div), line->avg);
            return QPointF(std::clamp(p.x(), plot.left(), plot.right()), std::clamp(p.y(), plot.top(), plot.bottom()));
        };
        for (const HistoryPoint &p : pts)
            poly.append(at(p.timeMs, p.max));
        for (auto it = pts.crbegin(); it != pts.crend(); ++it)
            poly.append(at(it->timeMs, it->min));
        QPainterPath path;
        path.addPolygon(poly);
        path.closeSubpath();
        line->band->setPath(path);
    }
}

} // namespace sandbar::ui
