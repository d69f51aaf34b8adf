#include "compare/ColdStartScatter.h"

#include "compare/CompareModel.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace sandbar::ui {

namespace {
// Above this ratio of slowest to fastest cold start a linear axis crowds the fast ones.
constexpr double kLogRatio = 20;

// The nearest 1, 2 or 5 times a power of ten below (floor) or above (ceil) v, so a log axis
// does not waste most of a decade on either side.
double niceLogFloor(double v)
{
    const double p = std::pow(10, std::floor(std::log10(v)));
    for (double m : {5.0, 2.0, 1.0})
        if (m * p <= v)
            return m * p;
    return p;
}

double niceLogCeil(double v)
{
    const double p = std::pow(10, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= v)
            return m * p;
    return 10 * p;
}
} // namespace

ColdStartScatter::ColdStartScatter(QWidget *parent)
    : QWidget(parent)
    , m_chart(new QChart)
{
    m_chart->setTitle(tr("Cold start against estimated cost a month"));
    m_chart->legend()->hide();
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_logAxis = new QLogValueAxis;
    m_logAxis->setBase(10);
    m_logAxis->setLabelFormat(QStringLiteral("%g"));
    m_logAxis->setMinorTickCount(8);
    m_logAxis->setTitleText(tr("Cold start, ms (log scale)"));
    m_linearAxis = new QValueAxis;
    m_linearAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_linearAxis->setTitleText(tr("Cold start, ms"));
    m_yAxis = new QValueAxis;
    m_yAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_yAxis->setTitleText(tr("USD a month"));
    m_chart->addAxis(m_logAxis, Qt::AlignBottom);
    m_chart->addAxis(m_linearAxis, Qt::AlignBottom);
    m_chart->addAxis(m_yAxis, Qt::AlignLeft);
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setObjectName(QStringLiteral("scatterView"));
    m_notPlottedLabel = new QLabel(this);
    m_notPlottedLabel->setObjectName(QStringLiteral("scatterNotPlotted"));
    m_notPlottedLabel->setWordWrap(true);
    m_notPlottedLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_notPlottedLabel);
    connect(m_chart, &QChart::plotAreaChanged, this, &ColdStartScatter::placeLabels);
}

void ColdStartScatter::setData(const QList<costs::Estimate> &estimates, const catalog::Catalog &catalog)
{
    // Axes are kept and shown or hidden, never deleted: see CostChart::setEstimates.
    m_chart->removeAllSeries();
    m_series = nullptr;
    qDeleteAll(m_labels);
    m_labels.clear();
    m_ids.clear();
    m_names.clear();
    m_points.clear();
    m_notPlotted.clear();

    for (const auto &est : estimates) {
        const catalog::ProviderEntry *e = catalog.find(est.providerId);
        if (est.excluded)
            m_notPlotted << tr("%1 (excluded: %2)").arg(est.providerName, est.reason());
        else if (!e || !e->coldStartMs.known())
            m_notPlotted << tr("%1 (cold start unknown)").arg(est.providerName);
        else {
            m_ids << est.providerId;
            m_names << (est.selfHosted ? tr("%1 (self-hosted)").arg(est.providerName) : est.providerName);
            m_points << QPointF(*e->coldStartMs.value, est.totalUsd);
        }
    }
    m_notPlottedLabel->setText(
        m_notPlotted.isEmpty() ? QString() : tr("Not plotted: %1").arg(m_notPlotted.join(QStringLiteral(" · "))));
    m_notPlottedLabel->setVisible(!m_notPlotted.isEmpty());
    if (m_points.isEmpty()) {
        m_logX = false;
        m_logAxis->setVisible(false);
        m_linearAxis->setVisible(false);
        m_yAxis->setVisible(false);
        return;
    }

    m_series = new QScatterSeries;
    m_series->setMarkerSize(11);
    m_series->setColor(QColor(0x1f77b4));
    m_series->setBorderColor(QColor(0x0b3d62));
    m_series->append(m_points);
    connect(m_series, &QScatterSeries::hovered, this, &ColdStartScatter::showTooltip);
    m_chart->addSeries(m_series);

    double minX = m_points.first().x();
    double maxX = minX;
    double maxY = 0;
    for (const auto &p : std::as_const(m_points)) {
        minX = std::min(minX, p.x());
        maxX = std::max(maxX, p.x());
        maxY = std::max(maxY, p.y());
    }
    m_logX = minX > 0 && maxX / minX >= kLogRatio;
    m_logAxis->setVisible(m_logX);
    m_linearAxis->setVisible(!m_logX);
    m_yAxis->setVisible(true);
    QAbstractAxis *xAxis = m_logX ? static_cast<QAbstractAxis *>(m_logAxis) : m_linearAxis;
    m_series->attachAxis(xAxis);
    m_series->attachAxis(m_yAxis);
    if (m_logX) {
        // A little room past the extreme points keeps their markers and labels off the frame.
        m_logAxis->setRange(niceLogFloor(minX / 1.25), niceLogCeil(maxX * 1.25));
    } else {
        const double pad = std::max(1.0, (maxX - minX) * 0.1);
        m_linearAxis->setRange(std::max(0.0, minX - pad), maxX + pad);
        m_linearAxis->applyNiceNumbers();
    }
    m_yAxis->setRange(0, maxY > 0 ? maxY * 1.12 : 1);
    m_yAxis->applyNiceNumbers();

    for (const auto &name : std::as_const(m_names)) {
        auto *label = new QGraphicsSimpleTextItem(name, m_chart);
        label->setZValue(10);
        m_labels << label;
    }
    placeLabels();
}

void ColdStartScatter::placeLabels()
{
    if (!m_series)
        return;
    // Labels go right of their point; a label that would overlap one already placed moves
    // down a line so providers at the same cold start stay readable.
    QList<int> order(m_labels.size());
    for (int i = 0; i < order.size(); ++i)
        order[i] = i;
    QList<QPointF> at(m_labels.size());
    for (int i = 0; i < m_labels.size(); ++i)
        at[i] = m_chart->mapToPosition(m_points.at(i), m_series);
    std::sort(order.begin(), order.end(), [&at](int a, int b) { return at[a].y() < at[b].y(); });
    const QRectF area = m_chart->plotArea();
    QList<QRectF> placed;
    for (int i : order) {
        QGraphicsSimpleTextItem *label = m_labels.at(i);
        const QRectF size = label->boundingRect();
        QRectF r(at[i].x() + 8, at[i].y() - size.height() / 2, size.width(), size.height());
        if (r.right() > area.right()) // near the right edge: put it on the left of the point
            r.moveRight(at[i].x() - 8);
        for (int guard = 0; guard < 20; ++guard) {
            const bool clash = std::any_of(placed.cbegin(), placed.cend(),
                                           [&r](const QRectF &p) { return p.intersects(r.adjusted(0, 1, 0, -1)); });
            if (!clash)
                break;
            r.translate(0, size.height());
        }
        placed << r;
        label->setPos(r.topLeft());
    }
}

void ColdStartScatter::showTooltip(const QPointF &point, bool on)
{
    if (!on) {
        QToolTip::hideText();
        return;
    }
    QStringList lines;
    for (int i = 0; i < m_points.size(); ++i) {
        const QPointF &p = m_points.at(i);
        if (std::abs(p.x() - point.x()) <= 1e-6 * std::max(1.0, p.x()) &&
            std::abs(p.y() - point.y()) <= 1e-6 * std::max(1.0, p.y()))
            lines << tr("%1: %2 ms, %3 a month")
                         .arg(m_names.at(i), QString::number(p.x(), 'g', 6), compare::money(p.y()));
    }
    if (!lines.isEmpty())
        QToolTip::showText(QCursor::pos(), lines.join(QLatin1Char('\n')), m_view);
}

} // namespace sandbar::ui
