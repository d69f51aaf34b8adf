#pragma once

// One chart card of the statistics view: a title, the newest values, and either a chart
// (lines with optional min-max bands, a limit line, event markers, a hover crosshair) or a
// placeholder sentence in its place ("Not provided by Docker", "Network off").

#include "charts/Units.h"
#include "metrics/StatsHistory.h"

#include <QColor>
#include <QList>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QCategoryAxis;
class QChart;
class QChartView;
class QGraphicsLineItem;
class QGraphicsPathItem;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QStackedLayout;
class QValueAxis;
QT_END_NAMESPACE

namespace sandbar::ui {

struct ChartLine {
    metrics::SeriesKey key;
    QString name; // legend and readout: "Receive"
    QColor color;
};

class StatsChart : public QWidget
{
    Q_OBJECT
public:
    StatsChart(const QString &objectName, units::Kind kind, QWidget *parent = nullptr);
    ~StatsChart() override;

    void setTitle(const QString &title);
    void setSubtitle(const QString &subtitle); // one line under the title; empty hides it
    // The series drawn, first one on top. Rebuilds the chart's series when they change.
    void setLines(const QList<ChartLine> &lines);
    // A horizontal line (a limit, a total) in raw units; nullopt hides it. With includeAlways
    // false it is drawn only when it is within 8 times the data's peak, so a host's 64 GiB
    // does not flatten a 200 MiB curve (the header still names it).
    void setLimit(std::optional<double> raw, const QString &name, bool includeAlways = true);
    // Markers (out-of-memory kills) at these times, drawn on the first line's value.
    void setMarkers(const std::vector<qint64> &timesMs, const QString &name);
    // A fixed top for the value axis (percent of a whole device); nullopt: from the data.
    void setFixedMax(std::optional<double> raw) { m_fixedMax = raw; }

    // Replaces the chart by a sentence, or brings the chart back (empty text).
    void setPlaceholder(const QString &text);
    bool placeholderShown() const { return !m_placeholderText.isEmpty(); }
    QString placeholderText() const { return m_placeholderText; }

    // Rebuilds every series from the history with replace(): one call per series.
    void refresh(const metrics::StatsHistory &history, metrics::Window window);
    void applyTheme(bool dark);

    // For tests and the hover readout.
    QChart *chart() const { return m_chart; }
    QLineSeries *lineSeries(int i) const;
    QScatterSeries *markerSeries() const { return m_markers; }
    QString valueText() const;
    QString readoutAt(qint64 timeMs) const;
    void hoverAt(QPointF viewPos); // shows the crosshair and readout nearest to viewPos
    void hideHover();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    struct Line {
        ChartLine spec;
        QLineSeries *avg = nullptr;
        // The min-max band of downsampled points: a path item of ours rather than a
        // QAreaSeries, whose fill is always antialiased (see BandItem) and which needs two
        // more series.
        QGraphicsPathItem *band = nullptr;
        QList<metrics::HistoryPoint> points;
        std::optional<double> newest; // the newest 1 s value, for the header
    };
    void rebuildSeries();
    void updateBands();
    void setWindowAxis(metrics::Window window, qint64 newestMs);
    void applyColors();

    units::Kind m_kind;
    QString m_title;
    QString m_placeholderText;
    QLabel *m_titleLabel = nullptr;
    QLabel *m_valueLabel = nullptr;
    QLabel *m_subtitleLabel = nullptr;
    QLabel *m_placeholder = nullptr;
    QStackedLayout *m_stack = nullptr;
    QChart *m_chart = nullptr;
    QChartView *m_canvas = nullptr;
    QCategoryAxis *m_timeAxis = nullptr;
    QValueAxis *m_valueAxis = nullptr;
    QList<ChartLine> m_lineSpecs;
    std::vector<std::unique_ptr<Line>> m_lines;
    QLineSeries *m_limitSeries = nullptr;
    QScatterSeries *m_markers = nullptr;
    std::optional<double> m_limit;
    QString m_limitName;
    bool m_limitAlways = true;
    std::vector<qint64> m_markerTimes;
    QString m_markerName;
    std::optional<double> m_fixedMax;
    units::Scale m_scale;
    std::optional<metrics::Window> m_axisWindow;
    int m_axisStep = 0;
    qint64 m_newestMs = 0;
    bool m_dark = false;
    bool m_bands = false;
    QGraphicsLineItem *m_crosshair = nullptr;
    QGraphicsRectItem *m_readoutBox = nullptr;
    QGraphicsSimpleTextItem *m_readoutText = nullptr;
};

} // namespace sandbar::ui
