#include "compare/CostChart.h"

#include "compare/CompareModel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QSet>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace sandbar::ui {

namespace {

QColor componentColor(const QString &component)
{
    // Fixed colours so a component keeps its colour whichever components a workload has.
    static const QHash<QString, QColor> colors = {
        {QStringLiteral("cpu"), QColor(0x1f77b4)},     {QStringLiteral("tier"), QColor(0x17becf)},
        {QStringLiteral("memory"), QColor(0xff7f0e)},  {QStringLiteral("gpu"), QColor(0xd62728)},
        {QStringLiteral("idle"), QColor(0x9467bd)},    {QStringLiteral("storage"), QColor(0x8c564b)},
        {QStringLiteral("creates"), QColor(0xe377c2)}, {QStringLiteral("egress"), QColor(0x7f7f7f)},
        {QStringLiteral("plan"), QColor(0xbcbd22)},    {QStringLiteral("free_credit"), QColor(0x2ca02c)},
    };
    return colors.value(component, QColor(0x333333));
}

// A 1, 2 or 5 times a power of ten at least raw (and at least a cent's worth of axis).
double niceStep(double raw)
{
    raw = std::max(raw, 0.01);
    const double p = std::pow(10, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * p >= raw - 1e-12)
            return m * p;
    return 10 * p;
}

} // namespace

CostChart::CostChart(QWidget *parent)
    : QWidget(parent)
    , m_chart(new QChart)
{
    m_chart->setTitle(tr("Estimated cost a month, by component"));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setAnimationOptions(QChart::NoAnimation); // rebuilt on every edit; animation would lag
    m_categoryAxis = new QBarCategoryAxis;
    m_categoryAxis->setGridLineVisible(false);
    m_valueAxis = new QValueAxis;
    m_valueAxis->setLabelFormat(QStringLiteral("%.0f")); // "$%.0f" would print $-50
    m_valueAxis->setTitleText(tr("USD a month"));
    m_chart->addAxis(m_categoryAxis, Qt::AlignLeft);
    m_chart->addAxis(m_valueAxis, Qt::AlignBottom);
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setObjectName(QStringLiteral("costChartView"));
    m_excluded = new QLabel(this);
    m_excluded->setObjectName(QStringLiteral("costChartExcluded"));
    m_excluded->setWordWrap(true);
    m_excluded->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_excluded->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_excluded);
}

void CostChart::setEstimates(const QList<costs::Estimate> &estimates)
{
    // The axes live as long as the chart: deleting axes and re-adding new ones left the old
    // ones' labels drawn in a corner (Qt 6.4), and keeping them is cheaper anyway.
    m_chart->removeAllSeries();
    m_series = nullptr;
    m_priced.clear();
    m_ids.clear();
    m_excludedLines.clear();

    QStringList selfHosted;
    for (const auto &e : estimates) {
        if (e.excluded)
            m_excludedLines << tr("%1: %2").arg(e.providerName, e.reason());
        else if (e.selfHosted) // no provider charges: a bar of nothing would only take room
            selfHosted << e.providerName;
        else
            m_priced.prepend(e); // a horizontal bar chart draws its first category at the bottom
    }
    QStringList notes;
    if (!selfHosted.isEmpty())
        notes << tr("Self-hosted, no provider charges: %1.").arg(selfHosted.join(QStringLiteral(", ")));
    if (!m_excludedLines.isEmpty())
        notes << tr("Cannot run this workload: %1.").arg(m_excludedLines.join(QStringLiteral(" · ")));
    m_excluded->setText(notes.join(QLatin1Char('\n')));
    m_excluded->setVisible(!notes.isEmpty());
    m_categoryAxis->clear();
    m_categoryAxis->setVisible(!m_priced.isEmpty());
    m_valueAxis->setVisible(!m_priced.isEmpty());
    if (m_priced.isEmpty()) {
        m_chart->setTitle(tr("No provider in the current selection charges for this workload"));
        return;
    }
    m_chart->setTitle(tr("Estimated cost a month, by component"));

    QSet<QString> present;
    for (const auto &e : m_priced)
        for (const auto &l : e.breakdown)
            present.insert(l.component);
    QStringList components;
    for (const auto &c : compare::componentOrder())
        if (present.contains(c))
            components << c;
    for (const auto &c : std::as_const(present)) // a component this view does not know yet
        if (!components.contains(c))
            components << c;

    m_series = new QHorizontalStackedBarSeries;
    m_series->setBarWidth(0.7);
    for (const auto &c : components) {
        auto *set = new QBarSet(compare::componentLabel(c));
        set->setColor(componentColor(c));
        set->setBorderColor(componentColor(c).darker(130));
        for (const auto &e : m_priced)
            set->append(e.component(c));
        connect(set, &QBarSet::hovered, this, [this, c](bool on, int index) { showTooltip(c, on, index); });
        m_series->append(set);
    }
    m_chart->addSeries(m_series);

    QStringList categories;
    double lowest = 0;
    double highest = 0;
    for (const auto &e : m_priced) {
        m_ids << e.providerId;
        QString label = tr("%1  %2").arg(e.providerName, compare::money(e.totalUsd));
        while (categories.contains(label)) // the axis needs distinct categories
            label += QLatin1Char(' ');
        categories << label;
        double neg = 0;
        double pos = 0;
        for (const auto &l : e.breakdown)
            (l.usd < 0 ? neg : pos) += l.usd;
        lowest = std::min(lowest, neg);
        highest = std::max(highest, pos);
    }
    m_categoryAxis->append(categories);
    m_series->attachAxis(m_categoryAxis);
    m_series->attachAxis(m_valueAxis);
    // QValueAxis::applyNiceNumbers widens a small negative part (free credit) to a whole
    // step of the positive side; round each end to a shared 1-2-5 step instead.
    const double step = niceStep((std::max(highest, 0.0) - lowest) / 5);
    const double lo = lowest < 0 ? std::floor(lowest / step - 1e-9) * step : 0.0;
    const double hi = std::ceil(highest * 1.02 / step - 1e-9) * step;
    m_valueAxis->setRange(lo, std::max(hi, lo + step));
    m_valueAxis->setTickCount(int(std::lround((std::max(hi, lo + step) - lo) / step)) + 1);
}

void CostChart::showTooltip(const QString &component, bool on, int index)
{
    if (!on || index < 0 || index >= m_priced.size()) {
        QToolTip::hideText();
        return;
    }
    const costs::Estimate &e = m_priced.at(index);
    QStringList lines{
        tr("%1: %2 of %3").arg(e.providerName, compare::componentLabel(component), compare::money(e.totalUsd))};
    for (const auto &l : e.breakdown)
        if (l.component == component)
            lines << tr("%1  (%2)").arg(compare::money(l.usd), l.detail.toString());
    if (!e.plan.isEmpty())
        lines << tr("Plan: %1").arg(e.plan);
    for (const auto &n : e.notes())
        lines << tr("Note: %1").arg(n);
    QToolTip::showText(QCursor::pos(), lines.join(QLatin1Char('\n')), m_view);
}

} // namespace sandbar::ui
