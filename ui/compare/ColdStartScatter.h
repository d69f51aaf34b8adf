#pragma once

#include "costs/CostModel.h"

#include <QWidget>

class QChart;
class QChartView;
class QGraphicsSimpleTextItem;
class QLabel;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

namespace sandbar::ui {

// Cold start (x) against the estimated month (y), one labelled point per provider that has
// both; the others are listed as not plotted, with why.
class ColdStartScatter final : public QWidget
{
    Q_OBJECT
public:
    explicit ColdStartScatter(QWidget *parent = nullptr);

    // Estimates of the shown providers with their catalog entries (cold start comes from there).
    void setData(const QList<costs::Estimate> &estimates, const catalog::Catalog &catalog);

    QChart *chart() const { return m_chart; }
    QChartView *chartView() const { return m_view; }
    QScatterSeries *series() const { return m_series; }
    int pointCount() const { return int(m_names.size()); }
    QStringList plottedIds() const { return m_ids; }
    QStringList notPlotted() const { return m_notPlotted; }
    bool logarithmicX() const { return m_logX; }

private:
    void placeLabels();
    void showTooltip(const QPointF &point, bool on);

    QChart *m_chart;
    QChartView *m_view;
    QLogValueAxis *m_logAxis;
    QValueAxis *m_linearAxis;
    QValueAxis *m_yAxis;
    QLabel *m_notPlottedLabel;
    QScatterSeries *m_series = nullptr;
    QList<QGraphicsSimpleTextItem *> m_labels;
    QStringList m_ids;
    QStringList m_names;
    QList<QPointF> m_points;
    QStringList m_notPlotted;
    bool m_logX = false;
};

} // namespace sandbar::ui
