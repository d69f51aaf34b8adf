// Statistics view figures: the time to take one new sample into every chart of a shown
// 1200x800 StatsView (one GPU, an hour of history) and finish the repaint.
#include "Bench.h"
#include "charts/StatsView.h"
#include "charts/SyntheticHistory.h"

#include <QApplication>
#include <QChartView>
#include <QDateTime>
#include <QElapsedTimer>
#include <QSet>
#include <cstdio>

using namespace sandbar;

namespace {

// Notes which widgets received a paint event.
class PaintWatch : public QObject
{
public:
    explicit PaintWatch(QSet<QObject *> &painted)
        : m_painted(painted)
    {
    }
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint)
            m_painted.insert(watched);
        return false;
    }

private:
    QSet<QObject *> &m_painted;
};

int run(const QStringList &args)
{
    int iterations = 300;
    metrics::Window window = metrics::Window::OneHour;
    for (int i = 0; i + 1 < args.size(); ++i) {
        if (args.at(i) == QLatin1String("--iterations"))
            iterations = std::max(10, args.at(i + 1).toInt());
        else if (args.at(i) == QLatin1String("--window"))
            window = args.at(i + 1) == QLatin1String("1m")   ? metrics::Window::OneMinute
                     : args.at(i + 1) == QLatin1String("5m") ? metrics::Window::FiveMinutes
                                                             : metrics::Window::OneHour;
    }
    const qint64 end = QDateTime::currentMSecsSinceEpoch();
    ui::SyntheticOptions options;
    options.endMs = end;
    options.gpus = 1;
    metrics::SessionStats stats(QStringLiteral("bench/s1"));
    ui::fillSyntheticHistory(stats, options);
    stats.setState(metrics::SessionStats::State::Streaming);

    ui::StatsView view;
    view.setWindow(window);
    view.resize(1200, 800);
    view.setStats(&stats);
    view.show();
    QElapsedTimer wait;
    wait.start();
    while (view.seriesUpdateCount() == 0 && wait.elapsed() < 10000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    if (view.visibleCharts().size() != 7)
        return bench::fail("stats-ui", QStringLiteral("show the statistics view"),
                           QStringLiteral("expected 7 charts, got %1 (series updates: %2)")
                               .arg(view.visibleCharts().size())
                               .arg(view.seriesUpdateCount()));

    // One sample, every series rebuilt (the view's 1 s refresh, forced), then events until
    // every chart has repainted (layouts, scene updates and paints all happen there).
    const QList<QChartView *> canvases = view.findChildren<QChartView *>();
    QSet<QObject *> painted;
    PaintWatch watch(painted);
    for (QChartView *c : canvases)
        c->viewport()->installEventFilter(&watch);
    const qint64 start = end - options.spanMs;
    qint64 t = end;
    QList<double> ms, refreshMs, eventsMs, paintMs;
    for (int i = -10; i < iterations; ++i) { // 10 warm-up rounds
        t += 1000;
        QElapsedTimer timer;
        timer.start();
        stats.append(ui::syntheticSample(options, start, t));
        view.refresh();
        const qint64 refreshed = timer.nsecsElapsed();
        painted.clear();
        QCoreApplication::processEvents(); // layouts, scene updates, and the repaint they ask for
        const qint64 processed = timer.nsecsElapsed();
        while (painted.size() < canvases.size() && timer.elapsed() < 2000)
            QCoreApplication::processEvents();
        const qint64 done = timer.nsecsElapsed();
        if (painted.size() < canvases.size())
            return bench::fail(
                "stats-ui", QStringLiteral("update %1").arg(i + 10),
                QStringLiteral("only %1 of %2 charts repainted within 2 s").arg(painted.size()).arg(canvases.size()));
        if (i >= 0) {
            ms.append(double(done) / 1e6);
            refreshMs.append(double(refreshed) / 1e6);
            eventsMs.append(double(processed - refreshed) / 1e6);
            paintMs.append(double(done - processed) / 1e6);
        }
    }
    bench::printFigure(QStringLiteral("stats.chart_update_ms"), bench::percentile(ms, 99), QStringLiteral("ms"), 16.0);
    std::fprintf(
        stderr,
        "stats-ui: p50 %.2f ms, p99 %.2f ms over %d updates (p50: series %.2f, first events pass %.2f, rest %.2f)\n",
        bench::percentile(ms, 50), bench::percentile(ms, 99), int(ms.size()), bench::percentile(refreshMs, 50),
        bench::percentile(eventsMs, 50), bench::percentile(paintMs, 50));
    return 0;
}

const bench::Registration reg("stats-ui", &run, true,
                              "[--window 1m|5m|1h] [--iterations N]: statistics view update+repaint time");

} // namespace
