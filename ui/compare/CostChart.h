#pragma once

#include "costs/CostModel.h"

#include <QWidget>

class QBarCategoryAxis;
class QChart;
class QChartView;
class QHorizontalStackedBarSeries;
class QLabel;
class QValueAxis;

namespace sandbar::ui {

// The estimated month of each shown provider as a horizontal bar stacked by cost component
// (one bar set per component), cheapest on top. Excluded providers are listed under it.
class CostChart final : public QWidget
{
    Q_OBJECT
public:
    explicit CostChart(QWidget *parent = nullptr);

    // The providers to show, in costs::estimate order (priced first, cheapest first).
    void setEstimates(const QList<costs::Estimate> &estimates);

    QChart *chart() const { return m_chart; }
    QChartView *chartView() const { return m_view; }
    // Null before the first setEstimates or when nothing is priced.
    QHorizontalStackedBarSeries *series() const { return m_series; }
    // Provider ids in category order (first = bottom bar, the most expensive). Self-hosted
    // providers (no charges) and excluded ones are listed under the chart instead.
    QStringList providerIds() const { return m_ids; }
    QStringList excludedLines() const { return m_excludedLines; }

private:
    void showTooltip(const QString &component, bool on, int index);

    QChart *m_chart;
    QChartView *m_view;
    QBarCategoryAxis *m_categoryAxis;
    QValueAxis *m_valueAxis;
    QLabel *m_excluded;
    QHorizontalStackedBarSeries *m_series = nullptr;
    QList<costs::Estimate> m_priced; // in category order
    QStringList m_ids;
    QStringList m_excludedLines;
};

} // namespace sandbar::ui
