// The statistics views: series fed only while shown, placeholders for figures a provider
// cannot give, GPU charts only for sessions with GPUs, the sessions-list sparklines, and
// (with SANDBAR_SCREENSHOT_DIR) screenshots of an hour of synthetic history.
#include "ManualClock.h"
#include "charts/SparklineDelegate.h"
#include "charts/StatsChart.h"
#include "charts/StatsView.h"
#include "charts/SyntheticHistory.h"
#include "charts/Units.h"

#include <QAbstractButton>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QGraphicsRectItem>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QPainter>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

using namespace sandbar;
using namespace sandbar::ui;
using metrics::SessionStats;
using metrics::Window;

namespace {

constexpr qint64 kMiB = 1024 * 1024;

const Capabilities kAllStats = Capability::StatsCpu | Capability::StatsMemory | Capability::StatsNetwork |
                               Capability::StatsDisk | Capability::StatsGpu;

qint64 baseMs()
{
    // A fixed time, so that screenshots and figures do not depend on the clock.
    return QDateTime(QDate(2025, 3, 14), QTime(15, 0), Qt::UTC).toMSecsSinceEpoch();
}

void setup(SessionStats &stats, Capabilities caps, bool network, int gpus = 0, const QString &provider = {})
{
    SessionInfo info;
    info.id = QStringLiteral("s1");
    info.account = QStringLiteral("acct");
    info.network = network;
    info.cpus = 2;
    info.gpus = gpus;
    stats.setSession(info, caps, provider.isEmpty() ? QStringLiteral("Docker") : provider);
    stats.setState(SessionStats::State::Streaming);
}

StatsSample sample(qint64 t, double cpu, qint64 mem, qint64 rx = 0, int gpus = 0)
{
    StatsSample s;
    s.time = QDateTime::fromMSecsSinceEpoch(t, Qt::UTC);
    s.cpuPercent = cpu;
    s.memoryUsedBytes = mem;
    s.memoryLimitBytes = 1024 * kMiB;
    s.networkRxBytes = rx;
    s.networkTxBytes = rx / 2;
    s.blockReadBytes = rx / 4;
    s.blockWriteBytes = rx / 3;
    for (int g = 0; g < gpus; ++g) {
        GpuReading r;
        r.index = g;
        r.name = QStringLiteral("Test GPU");
        r.utilizationPercent = 40;
        r.memoryUsedBytes = 4096 * kMiB;
        r.memoryTotalBytes = 16384 * kMiB;
        r.sessionMemoryBytes = 1024 * kMiB;
        s.gpus.append(r);
    }
    return s;
}

// Feeds n one-second samples after the history's newest (through append(): signals).
void feed(SessionStats &stats, int n, int gpus = 0)
{
    qint64 t = stats.history().newestMs() > 0 ? stats.history().newestMs() : baseMs();
    for (int i = 0; i < n; ++i) {
        t += 1000;
        const int k = stats.history().sampleCount();
        stats.append(sample(t, 10 + (k * 7) % 80, (200 + k) * kMiB, qint64(k) * 100000, gpus));
    }
}

int nonBackgroundPixels(const QImage &img, QRgb background)
{
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            n += img.pixel(x, y) != background;
    return n;
}

} // namespace

class TestStatsView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); } // "37.2 %"
    void units();
    void seriesOnlyWhileShown();
    void notProvidedAndNetworkOff();
    void gpuChartsOnlyWithGpus();
    void oomMarkersAndHover();
    void statusLine();
    void windowSwitchAndStatsChange();
    void sparklines();
    void screenshots();
};

void TestStatsView::units()
{
    using units::Kind;
    QCOMPARE(units::format(Kind::Bytes, 512.0 * kMiB), QStringLiteral("512 MiB"));
    QCOMPARE(units::format(Kind::Bytes, 1.5 * 1024 * kMiB), QStringLiteral("1.50 GiB"));
    QCOMPARE(units::format(Kind::BytesPerSecond, 2048), QStringLiteral("2.00 KiB/s"));
    QCOMPARE(units::format(Kind::BytesPerSecond, 10), QStringLiteral("10 B/s"));
    QCOMPARE(units::format(Kind::Percent, 37.2), QStringLiteral("37.2 %"));
    QCOMPARE(units::format(Kind::Percent, 137), QStringLiteral("137 %"));
    QCOMPARE(units::scaleFor(Kind::Bytes, 999).suffix, QStringLiteral("B"));
    QCOMPARE(units::scaleFor(Kind::Bytes, 1000).suffix, QStringLiteral("KiB"));
    QCOMPARE(units::scaleFor(Kind::BytesPerSecond, 3.0 * kMiB).suffix, QStringLiteral("MiB/s"));
    const auto r = units::niceRange(87);
    QCOMPARE(r.max, 100.0);
    QCOMPARE(r.step, 20.0);
    QCOMPARE(r.tickCount, 6);
    const auto small = units::niceRange(0.7);
    QVERIFY(small.max >= 0.7 && small.decimals >= 1);
    QCOMPARE(units::niceRange(0).max, 1.0); // nothing yet: an axis all the same
}

void TestStatsView::seriesOnlyWhileShown()
{
    SessionStats stats(QStringLiteral("acct/s1"));
    setup(stats, kAllStats, true);
    feed(stats, 5);
    StatsView view;
    view.setWindow(Window::OneMinute);
    view.resize(1200, 800);
    view.setStats(&stats);
    QCOMPARE(view.seriesUpdateCount(), 0); // never shown: nothing built
    QVERIFY(!view.timerActive());

    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.timerActive());
    StatsChart *cpu = view.chart(QStringLiteral("statsCpu"));
    QVERIFY(cpu);
    QTRY_COMPARE_WITH_TIMEOUT(cpu->lineSeries(0)->count(), 5, 10000);
    QVERIFY(!cpu->placeholderShown());

    // New samples arrive through the 1 s timer, with replace(): the whole series at once.
    const int before = view.seriesUpdateCount();
    feed(stats, 3);
    QTRY_COMPARE_WITH_TIMEOUT(cpu->lineSeries(0)->count(), 8, 10000);
    QVERIFY(view.seriesUpdateCount() > before);
    QCOMPARE(view.chart(QStringLiteral("statsNetwork"))->lineSeries(0)->count(), 7); // rates: n-1

    // Hidden: the timer stops, samples only mark the view dirty, an explicit refresh is a no-op.
    view.hide();
    QVERIFY(!view.timerActive());
    const int hiddenAt = view.seriesUpdateCount();
    feed(stats, 4);
    QCoreApplication::processEvents();
    view.refresh();
    QCOMPARE(view.seriesUpdateCount(), hiddenAt);
    QCOMPARE(cpu->lineSeries(0)->count(), 8);

    // Shown again: brought up to date at once, and the timer runs again.
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.timerActive());
    QTRY_COMPARE_WITH_TIMEOUT(cpu->lineSeries(0)->count(), 12, 10000);
    QVERIFY(view.seriesUpdateCount() > hiddenAt);
}

void TestStatsView::notProvidedAndNetworkOff()
{
    // A provider without network statistics, for a session that has a network.
    SessionStats noNet(QStringLiteral("acct/s1"));
    setup(noNet, kAllStats & ~Capabilities(Capability::StatsNetwork), true, 0, QStringLiteral("Acme Cloud"));
    feed(noNet, 4);
    StatsView view;
    view.setWindow(Window::OneMinute); // 1 s points: one per sample
    view.resize(1200, 800);
    view.setStats(&noNet);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    StatsChart *net = view.chart(QStringLiteral("statsNetwork"));
    QTRY_VERIFY_WITH_TIMEOUT(net->placeholderShown(), 10000);
    QCOMPARE(net->placeholderText(), QStringLiteral("Not provided by Acme Cloud"));
    auto *label = net->findChild<QLabel *>(QStringLiteral("placeholder"));
    QVERIFY(label && label->isVisible());
    QVERIFY(!net->findChild<QChartView *>()->isVisible()); // the sentence replaces the chart
    QCOMPARE(net->lineSeries(0)->count(), 0);              // no empty chart fed behind the sentence
    QVERIFY(!view.chart(QStringLiteral("statsCpu"))->placeholderShown());

    // The same view, switched to a session whose network is off: a different sentence.
    SessionStats offline(QStringLiteral("acct/s2"));
    setup(offline, kAllStats, false);
    feed(offline, 4);
    view.setStats(&offline);
    QTRY_VERIFY_WITH_TIMEOUT(net->placeholderText().startsWith(QStringLiteral("Network off")), 10000);
    QVERIFY(!net->placeholderText().contains(QStringLiteral("Not provided")));

    // And a session with network: the chart comes back.
    SessionStats online(QStringLiteral("acct/s3"));
    setup(online, kAllStats, true);
    feed(online, 4);
    view.setStats(&online);
    QTRY_VERIFY_WITH_TIMEOUT(!net->placeholderShown(), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(net->lineSeries(0)->count(), 3, 10000);
}

void TestStatsView::gpuChartsOnlyWithGpus()
{
    SessionStats plain(QStringLiteral("acct/s1"));
    setup(plain, kAllStats, true, 0);
    feed(plain, 3);
    StatsView view;
    view.setWindow(Window::OneMinute);
    view.resize(1200, 800);
    view.setStats(&plain);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY_WITH_TIMEOUT(view.seriesUpdateCount() > 0, 10000);
    QVERIFY(!view.chart(QStringLiteral("statsGpuUtil0")));
    QVERIFY(!view.chart(QStringLiteral("statsGpuMemory0")));
    QCOMPARE(view.visibleCharts().size(), 5);

    SessionStats gpu(QStringLiteral("acct/s2"));
    setup(gpu, kAllStats, true, 2);
    feed(gpu, 3, 2);
    view.setStats(&gpu);
    QTRY_VERIFY_WITH_TIMEOUT(view.chart(QStringLiteral("statsGpuUtil1")), 10000);
    StatsChart *util = view.chart(QStringLiteral("statsGpuUtil0"));
    QVERIFY(util);
    QVERIFY(util->findChild<QLabel *>(QStringLiteral("title"))->text().contains(QStringLiteral("(whole device)")));
    QTRY_COMPARE_WITH_TIMEOUT(util->lineSeries(0)->count(), 3, 10000);
    StatsChart *mem = view.chart(QStringLiteral("statsGpuMemory0"));
    QVERIFY(mem->findChild<QLabel *>(QStringLiteral("title"))->text().contains(QStringLiteral("this session")));
    QCOMPARE(mem->lineSeries(0)->at(0).y(), 1.0); // the session's 1 GiB, in GiB (the device has 16)
    QCOMPARE(mem->valueText(), QStringLiteral("1.00 GiB of 16.0 GiB"));
    QCOMPARE(view.visibleCharts().size(), 9);

    // A provider that cannot read GPUs, for a session that has one: a sentence, not a chart.
    SessionStats blind(QStringLiteral("acct/s3"));
    setup(blind, kAllStats & ~Capabilities(Capability::StatsGpu), true, 1);
    feed(blind, 3);
    view.setStats(&blind);
    QTRY_VERIFY_WITH_TIMEOUT(!view.chart(QStringLiteral("statsGpuUtil1")), 10000);
    QVERIFY(view.chart(QStringLiteral("statsGpuUtil0"))->placeholderShown());
    QCOMPARE(view.chart(QStringLiteral("statsGpuUtil0"))->placeholderText(), QStringLiteral("Not provided by Docker"));

    // Back to no GPUs: the GPU charts go.
    view.setStats(&plain);
    QTRY_VERIFY_WITH_TIMEOUT(!view.chart(QStringLiteral("statsGpuUtil0")), 10000);
}

void TestStatsView::oomMarkersAndHover()
{
    SessionStats stats(QStringLiteral("acct/s1"));
    setup(stats, kAllStats, true);
    qint64 t = baseMs();
    for (int i = 0; i < 30; ++i) {
        StatsSample s = sample(t += 1000, 50, (100 + 30 * (i % 20)) * kMiB, i * 1000);
        s.oomKills = i >= 20 ? 1 : 0;
        stats.append(s);
    }
    QCOMPARE(stats.history().oomMarkers().size(), std::size_t(1));
    StatsView view;
    view.setWindow(Window::OneMinute);
    view.resize(1200, 800);
    view.setStats(&stats);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    StatsChart *mem = view.chart(QStringLiteral("statsMemory"));
    QTRY_COMPARE_WITH_TIMEOUT(mem->markerSeries()->count(), 1, 10000);
    QCOMPARE(mem->markerSeries()->name(), QStringLiteral("Out-of-memory kill"));
    // The limit (1 GiB) is drawn: the third line series has two points at 1024 MiB.
    QVERIFY(mem->valueText().contains(QStringLiteral("of 1.00 GiB")));

    // The hover readout names the exact value and the time.
    const QString readout = mem->readoutAt(baseMs() + 5000);
    QVERIFY2(readout.contains(QStringLiteral("Used: 220 MiB")), qPrintable(readout));
    QVERIFY2(readout.contains(
                 QLocale().toString(QDateTime::fromMSecsSinceEpoch(baseMs() + 5000), QStringLiteral("HH:mm:ss"))),
             qPrintable(readout));
    const QRectF plot = mem->chart()->plotArea();
    QVERIFY(!plot.isEmpty());
    auto *canvas = mem->findChild<QChartView *>();
    QVERIFY(canvas);
    mem->hoverAt(canvas->mapFromScene(mem->chart()->mapToScene(plot.center())));
    const auto items = mem->chart()->childItems();
    const bool shown = std::any_of(items.begin(), items.end(), [](QGraphicsItem *i) {
        return i->isVisible() && i->type() == QGraphicsRectItem::Type;
    });
    QVERIFY(shown);
    mem->hideHover();
}

void TestStatsView::statusLine()
{
    SessionStats stats(QStringLiteral("acct/s1"));
    setup(stats, kAllStats, true);
    feed(stats, 2);
    // Time moves only when the test says: every figure of the countdown is exact.
    test::ManualClock clock;
    StatsView view;
    view.setClock(clock);
    view.setStats(&stats);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY_WITH_TIMEOUT(view.statusText().contains(QStringLiteral("Live")), 10000);
    stats.setState(SessionStats::State::BackingOff, makeError(ErrorCode::Internal, QStringLiteral("engine gone")),
                   clock.currentDateTimeUtc().addSecs(8));
    QTRY_VERIFY_WITH_TIMEOUT(view.statusText().contains(QStringLiteral("Sampling failed: engine gone")), 10000);
    // The seconds left, or -1 when the line has no countdown.
    const auto secondsLeft = [&view] {
        static const QRegularExpression re(QStringLiteral("retrying in (\\d+) s"));
        const QRegularExpressionMatch m = re.match(view.statusText());
        return m.hasMatch() ? m.captured(1).toInt() : -1;
    };
    QCOMPARE(secondsLeft(), 8);
    // The countdown moves with the view's timer, without new samples: three seconds on the
    // clock read as 5 s at the timer's next tick (waited for as a condition, at most a
    // second on an idle machine).
    clock.advanceSecs(3);
    QTRY_COMPARE_WITH_TIMEOUT(secondsLeft(), 5, 10000);
    // Part of a second left still reads as a whole one; past the retry time it reads 0
    // (refresh() redraws now instead of at the next tick).
    clock.advance(4500);
    view.refresh();
    QCOMPARE(secondsLeft(), 1);
    clock.advanceSecs(10);
    view.refresh();
    QCOMPARE(secondsLeft(), 0);
    view.setStats(nullptr);
    QCOMPARE(view.statusText(), QStringLiteral("No session selected"));
}

void TestStatsView::windowSwitchAndStatsChange()
{
    SessionStats stats(QStringLiteral("acct/s1"));
    fillSyntheticHistory(stats, {baseMs(), 3600 * 1000, 1000, 0, true, true});
    StatsView view;
    view.resize(1200, 800);
    view.setStats(&stats);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    StatsChart *cpu = view.chart(QStringLiteral("statsCpu"));
    auto *button1h = view.findChild<QAbstractButton *>(QStringLiteral("window1h"));
    auto *button1m = view.findChild<QAbstractButton *>(QStringLiteral("window1m"));
    QVERIFY(button1h && button1m);
    button1m->click();
    QCOMPARE(view.window(), Window::OneMinute);
    QTRY_VERIFY_WITH_TIMEOUT(cpu->lineSeries(0)->count() >= 60 && cpu->lineSeries(0)->count() <= 61, 10000);
    button1h->click();
    QTRY_VERIFY_WITH_TIMEOUT(cpu->lineSeries(0)->count() >= 119 && cpu->lineSeries(0)->count() <= 121, 10000);
    // The limit line for 2 CPUs is at 200 %.
    QVERIFY(cpu->valueText().endsWith(QStringLiteral("of 200 %")));

    // A destroyed stats object reads as none.
    auto *gone = new SessionStats(QStringLiteral("acct/s9"));
    setup(*gone, kAllStats, true);
    feed(*gone, 3);
    view.setStats(gone);
    delete gone;
    QTRY_COMPARE_WITH_TIMEOUT(view.statusText(), QStringLiteral("No session selected"), 10000);
}

void TestStatsView::sparklines()
{
    QStandardItemModel model(3, 1);
    for (int r = 0; r < 3; ++r)
        model.setItem(r, 0, new QStandardItem(QStringLiteral("row %1").arg(r)));
    SessionStats empty(QStringLiteral("acct/e"));
    SessionStats partial(QStringLiteral("acct/p"));
    SessionStats full(QStringLiteral("acct/f"));
    setup(empty, kAllStats, true);
    setup(partial, kAllStats, true);
    feed(partial, 2);
    fillSyntheticHistory(full, {baseMs(), 3600 * 1000, 1000, 0, true, true});
    QList<SessionStats *> rows{&empty, &partial, &full};
    test::ManualClock clock; // what the tooltips' countdown reads
    for (auto figure : {SparklineDelegate::Figure::Cpu, SparklineDelegate::Figure::Memory}) {
        SparklineDelegate delegate(figure, [&rows](const QModelIndex &i) { return rows.value(i.row()); });
        QStyleOptionViewItem option;
        option.rect = QRect(0, 0, 220, 28);
        option.state = QStyle::State_Enabled;
        option.palette = QApplication::palette();
        option.fontMetrics = QFontMetrics(QApplication::font());
        option.font = QApplication::font();
        const QRgb white = qRgb(255, 255, 255);
        auto render = [&](int row) {
            QImage img(220, 28, QImage::Format_RGB32);
            img.fill(white);
            QPainter p(&img);
            delegate.paint(&p, option, model.index(row, 0));
            return img;
        };
        const QImage e = render(0), pa = render(1), f = render(2);
        QVERIFY(nonBackgroundPixels(e, white) > 0); // the model's text
        QVERIFY(nonBackgroundPixels(pa, white) > 0);
        QVERIFY(nonBackgroundPixels(f, white) > nonBackgroundPixels(pa, white) / 2);
        QVERIFY(e != pa);
        QVERIFY(pa != f);
        QVERIFY(!delegate.valueText(full).isEmpty());
        QVERIFY(delegate.valueText(empty).isEmpty());
        // An OOM kill is flagged in the list's memory column (a red mark and a tooltip).
        QVERIFY(!full.history().oomMarkers().empty());
        if (figure == SparklineDelegate::Figure::Memory) {
            QVERIFY(delegate.toolTip(full).contains(QStringLiteral("Out-of-memory")));
            QVERIFY(delegate.toolTip(partial).isEmpty());
        } else {
            QVERIFY(delegate.toolTip(full).isEmpty());
        }
        // A failing row says why in its tooltip, and when it tries again by the delegate's clock.
        delegate.setClock(clock);
        partial.setState(SessionStats::State::BackingOff,
                         makeError(ErrorCode::Unavailable, QStringLiteral("engine gone")),
                         clock.currentDateTimeUtc().addSecs(8));
        QVERIFY2(delegate.toolTip(partial).contains(QStringLiteral("engine gone")),
                 qPrintable(delegate.toolTip(partial)));
        QVERIFY2(delegate.toolTip(partial).contains(QStringLiteral("retrying in 8 s")),
                 qPrintable(delegate.toolTip(partial)));
        clock.advanceSecs(5);
        QVERIFY2(delegate.toolTip(partial).contains(QStringLiteral("retrying in 3 s")),
                 qPrintable(delegate.toolTip(partial)));
        partial.setState(SessionStats::State::Polling);

        // The line itself, without text: pixels change with the data.
        QImage a(160, 24, QImage::Format_RGB32), b(160, 24, QImage::Format_RGB32);
        a.fill(white);
        b.fill(white);
        {
            QPainter p(&a);
            delegate.paintSparkline(&p, QRectF(0, 0, 160, 24), partial, Qt::blue);
        }
        QVERIFY(nonBackgroundPixels(a, white) > 10);
        const QImage before = a;
        feed(partial, 10);
        a.fill(white);
        {
            QPainter p(&a);
            delegate.paintSparkline(&p, QRectF(0, 0, 160, 24), partial, Qt::blue);
            QPainter q(&b);
            delegate.paintSparkline(&q, QRectF(0, 0, 160, 24), empty, Qt::blue);
        }
        QVERIFY(a != before);
        QCOMPARE(nonBackgroundPixels(b, white), 0);
    }

    // In a real view, with the 1 s repaint that runs only while the view is shown.
    QTableView table;
    table.setModel(&model);
    auto *delegate = new SparklineDelegate(
        SparklineDelegate::Figure::Cpu, [&rows](const QModelIndex &i) { return rows.value(i.row()); }, &table);
    table.setItemDelegateForColumn(0, delegate);
    delegate->watch(&table);
    table.resize(400, 200);
    table.show();
    QVERIFY(QTest::qWaitForWindowExposed(&table));
    const QImage shot = table.grab().toImage();
    QVERIFY(!shot.isNull());
}

void TestStatsView::screenshots()
{
    const QString dir = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR");
    if (dir.isEmpty())
        QSKIP("SANDBAR_SCREENSHOT_DIR not set");
    QVERIFY(QDir().mkpath(dir));
    SessionStats stats(QStringLiteral("acct/s1"));
    fillSyntheticHistory(stats, {baseMs(), 3600 * 1000, 1000, 1, true, true});
    stats.setState(SessionStats::State::Streaming);
    const QPalette light = QApplication::palette();
    for (bool dark : {false, true}) {
        if (dark) {
            QPalette p;
            p.setColor(QPalette::Window, QColor(0x2b2b2b));
            p.setColor(QPalette::WindowText, QColor(0xe0e0e0));
            p.setColor(QPalette::Base, QColor(0x1e1e1e));
            p.setColor(QPalette::Text, QColor(0xe0e0e0));
            p.setColor(QPalette::Button, QColor(0x3a3a3a));
            p.setColor(QPalette::ButtonText, QColor(0xe0e0e0));
            p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x9a9a9a));
            p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x9a9a9a));
            p.setColor(QPalette::PlaceholderText, QColor(0xa8a8a8));
            QApplication::setPalette(p);
        }
        for (Window w : {Window::OneHour, Window::FiveMinutes, Window::OneMinute}) {
            StatsView view;
            view.setWindow(w);
            view.resize(1200, 800);
            view.setStats(&stats);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            QTRY_VERIFY_WITH_TIMEOUT(view.chart(QStringLiteral("statsGpuMemory0")) &&
                                         view.chart(QStringLiteral("statsGpuMemory0"))->lineSeries(0)->count() > 0,
                                     10000);
            const QString name = QStringLiteral("stats-%1-%2.png")
                                     .arg(w == Window::OneHour       ? QStringLiteral("1h")
                                          : w == Window::FiveMinutes ? QStringLiteral("5m")
                                                                     : QStringLiteral("1m"),
                                          dark ? QStringLiteral("dark") : QStringLiteral("light"));
            if (w == Window::OneHour) {
                // The hover readout, as a pointer over the memory chart would show it.
                StatsChart *mem = view.chart(QStringLiteral("statsMemory"));
                const QRectF plot = mem->chart()->plotArea();
                const QPointF at(plot.left() + plot.width() * 0.6, plot.center().y());
                mem->hoverAt(mem->findChild<QChartView *>()->mapFromScene(mem->chart()->mapToScene(at)));
            }
            QVERIFY(view.grab().save(QDir(dir).filePath(name)));
        }
    }
    QApplication::setPalette(light);

    // The sentences in place of charts, two columns wide: a provider without disk or GPU
    // figures, for a session whose network is off.
    SessionStats limited(QStringLiteral("acct/s2"));
    fillSyntheticHistory(limited, {baseMs(), 600 * 1000, 1000, 1, false, false});
    limited.setSession(limited.session(), Capability::StatsCpu | Capability::StatsMemory, QStringLiteral("Acme Cloud"));
    // A clock that stands still, so the picture always says "retrying in 8 s".
    test::ManualClock clock;
    limited.setState(SessionStats::State::BackingOff, makeError(ErrorCode::Internal, QStringLiteral("HTTP 503")),
                     clock.currentDateTimeUtc().addSecs(8));
    StatsView view;
    view.setClock(clock);
    view.resize(900, 700);
    view.setStats(&limited);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY_WITH_TIMEOUT(view.chart(QStringLiteral("statsCpu"))->lineSeries(0)->count() > 0, 10000);
    QVERIFY(view.chart(QStringLiteral("statsDisk"))->placeholderShown());
    QVERIFY(view.grab().save(QDir(dir).filePath(QStringLiteral("stats-placeholders-light.png"))));
}

QTEST_MAIN(TestStatsView)
#include "tst_statsview.moc"
