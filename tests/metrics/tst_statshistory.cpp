#include "metrics/StatsHistory.h"

#include <QTest>

using namespace sandbar;
using namespace sandbar::metrics;

namespace {
// A fixed epoch well inside a 30 s bucket boundary, so bucket arithmetic is easy to read.
constexpr qint64 kT0 = 1'800'000'000'000LL; // divisible by 30 000

StatsSample at(qint64 ms)
{
    StatsSample s;
    s.time = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
    return s;
}

StatsSample cpu(qint64 ms, double v)
{
    StatsSample s = at(ms);
    s.cpuPercent = v;
    return s;
}

StatsSample net(qint64 ms, qint64 rx, qint64 tx)
{
    StatsSample s = at(ms);
    s.networkRxBytes = rx;
    s.networkTxBytes = tx;
    s.blockReadBytes = 0;
    s.blockWriteBytes = 0;
    return s;
}
} // namespace

class TestStatsHistory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void emptyHistoryHasNothing()
    {
        StatsHistory h;
        QVERIFY(h.keys().isEmpty());
        QVERIFY(h.points({Metric::Cpu}, Window::OneMinute).isEmpty());
        QVERIFY(!h.last({Metric::Cpu}));
        QVERIFY(!h.peak({Metric::Cpu}, Window::OneHour));
        QVERIFY(!h.latest());
        QCOMPARE(h.sampleCount(), 0);
    }

    // One-second points: a minute of samples gives 60 exact points in the 1 m window.
    void oneSecondWindowIsExact()
    {
        StatsHistory h;
        for (int i = 0; i < 180; ++i)
            h.append(cpu(kT0 + i * 1000, i));
        const auto pts = h.points({Metric::Cpu}, Window::OneMinute);
        QCOMPARE(pts.size(), 61); // the newest bucket and the 60 before it
        QCOMPARE(pts.last().avg, 179.0f);
        QCOMPARE(pts.first().avg, 119.0f);
        for (int i = 1; i < pts.size(); ++i)
            QCOMPARE(pts[i].timeMs - pts[i - 1].timeMs, 1000);
        // Only two minutes are held at 1 s.
        int held = 0;
        h.forEach({Metric::Cpu}, Resolution::OneSecond, 0, [&](const HistoryPoint &) { ++held; });
        QCOMPARE(held, 120);
    }

    // Merging keeps min, average and max: a one-second spike survives in the 30 s bucket.
    void downsamplingKeepsMinAvgMax()
    {
        StatsHistory h;
        for (int i = 0; i < 30; ++i)
            h.append(cpu(kT0 + i * 1000, i == 17 ? 400.0 : 10.0));
        const auto p30 = h.last({Metric::Cpu}, Resolution::ThirtySeconds);
        QVERIFY(p30);
        QCOMPARE(p30->timeMs, kT0);
        QCOMPARE(p30->min, 10.0f);
        QCOMPARE(p30->max, 400.0f);
        QVERIFY(qAbs(p30->avg - (29 * 10.0f + 400.0f) / 30.0f) < 0.01f);
        // At 5 s the spike sits in the bucket 15..19 only.
        QList<HistoryPoint> five;
        h.forEach({Metric::Cpu}, Resolution::FiveSeconds, 0, [&](const HistoryPoint &p) { five << p; });
        QCOMPARE(five.size(), 6);
        for (const auto &p : five)
            QCOMPARE(p.max, p.timeMs == kT0 + 15000 ? 400.0f : 10.0f);
        QCOMPARE(h.peak({Metric::Cpu}, Window::OneHour).value(), 400.0f);
    }

    // The hour window is served by 30 s points, the five-minute one by 5 s points.
    void windowsUseTheirResolution()
    {
        StatsHistory h;
        for (int i = 0; i < 2 * 3600; i += 2)
            h.append(cpu(kT0 + i * 1000LL, 50));
        QCOMPARE(h.points({Metric::Cpu}, Window::OneHour).size(), 120);
        QCOMPARE(h.points({Metric::Cpu}, Window::FiveMinutes).size(), 60);
        // Samples every 2 s leave every other 1 s bucket empty: those are skipped.
        QCOMPARE(h.points({Metric::Cpu}, Window::OneMinute).size(), 31);
        int held = 0;
        h.forEach({Metric::Cpu}, Resolution::ThirtySeconds, 0, [&](const HistoryPoint &) { ++held; });
        QCOMPARE(held, 240); // two hours
    }

    // A pause in sampling leaves a gap, not zeros, and stale slots are cleared.
    void gapsAreEmptyNotZero()
    {
        StatsHistory h;
        for (int i = 0; i < 10; ++i)
            h.append(cpu(kT0 + i * 1000, 80));
        h.append(cpu(kT0 + 40'000, 20));
        const auto pts = h.points({Metric::Cpu}, Window::OneMinute);
        QCOMPARE(pts.size(), 11);
        QCOMPARE(pts.last().timeMs, kT0 + 40'000);
        for (const auto &p : pts)
            QVERIFY(p.min > 0);
        // A jump past the whole ring forgets everything at that resolution.
        h.append(cpu(kT0 + 1'000'000, 5));
        int held = 0;
        h.forEach({Metric::Cpu}, Resolution::OneSecond, 0, [&](const HistoryPoint &) { ++held; });
        QCOMPARE(held, 1);
    }

    void ratesFromCounters()
    {
        StatsHistory h;
        h.append(net(kT0, 1000, 0));
        QVERIFY(!h.has({Metric::NetworkRx})); // one reading gives no rate
        h.append(net(kT0 + 2000, 5000, 2048));
        const auto rx = h.last({Metric::NetworkRx});
        QVERIFY(rx);
        QCOMPARE(rx->avg, 2000.0f); // 4000 bytes over 2 s
        QCOMPARE(h.last({Metric::NetworkTx})->avg, 1024.0f);
        QCOMPARE(h.last({Metric::DiskRead})->avg, 0.0f);
    }

    // A counter that goes backwards (a restart) starts a new segment: no negative rate and
    // no spike, and the rates go on from the new base.
    void counterResetStartsASegment()
    {
        StatsHistory h;
        h.append(net(kT0, 10'000'000, 10'000'000));
        h.append(net(kT0 + 1000, 10'001'000, 10'000'500));
        h.append(net(kT0 + 2000, 100, 50)); // restarted
        QCOMPARE(h.segmentStarts().size(), size_t(1));
        QCOMPARE(h.segmentStarts().front(), kT0 + 2000);
        h.append(net(kT0 + 3000, 1100, 550));
        const auto pts = h.points({Metric::NetworkRx}, Window::OneMinute);
        QCOMPARE(pts.size(), 2);
        for (const auto &p : pts) {
            QVERIFY(p.min >= 0);
            QVERIFY(p.max <= 1000.0f);
        }
        QCOMPARE(pts.last().avg, 1000.0f);
    }

    void sameTimeTwiceGivesNoRate()
    {
        StatsHistory h;
        h.append(net(kT0, 10, 10));
        h.append(net(kT0, 20, 20));
        QVERIFY(!h.has({Metric::NetworkRx}));
    }

    void oomMarkersOnRise()
    {
        StatsHistory h;
        auto oom = [](qint64 ms, qint64 kills) {
            StatsSample s = at(ms);
            s.memoryUsedBytes = 1 << 20;
            s.oomKills = kills;
            return s;
        };
        h.append(oom(kT0, 0));
        h.append(oom(kT0 + 1000, 0));
        QVERIFY(h.oomMarkers().empty());
        h.append(oom(kT0 + 2000, 1));
        h.append(oom(kT0 + 3000, 1));
        h.append(oom(kT0 + 4000, 3));
        QCOMPARE(h.oomMarkers().size(), size_t(2));
        QCOMPARE(h.oomMarkers()[0], kT0 + 2000);
        QCOMPARE(h.oomMarkers()[1], kT0 + 4000);
        // Kills seen at the first sample happened before: marked at first sight.
        StatsHistory late;
        late.append(oom(kT0, 2));
        QCOMPARE(late.oomMarkers().size(), size_t(1));
    }

    void gpuSeriesPerIndex()
    {
        StatsHistory h;
        StatsSample s = at(kT0);
        for (int i = 0; i < 2; ++i) {
            GpuReading g;
            g.index = i;
            g.utilizationPercent = 10.0 * (i + 1);
            g.memoryUsedBytes = qint64(i + 1) << 30;
            s.gpus << g;
        }
        GpuReading mig; // a MIG device of GPU 1, without utilisation
        mig.index = 1;
        mig.migIndex = 2;
        mig.mig = true;
        mig.memoryUsedBytes = 5;
        s.gpus << mig;
        h.append(s);
        QVERIFY(h.has({Metric::GpuUtilization, 0}));
        QVERIFY(h.has({Metric::GpuUtilization, 1}));
        QCOMPARE(gpuSeriesId(mig), 1102);
        QVERIFY(!h.has({Metric::GpuUtilization, 1102}));
        QVERIFY(h.has({Metric::GpuMemory, 1102}));
        QCOMPARE(h.last({Metric::GpuMemory, 1})->avg, float(qint64(2) << 30)); // not merged with the MIG device
        QCOMPARE(h.last({Metric::GpuUtilization, 1})->avg, 20.0f);
        // Stable order: by metric, then index.
        const auto keys = h.keys();
        QCOMPARE(keys.first(), (SeriesKey{Metric::GpuUtilization, 0}));
    }

    void garbageValuesAreIgnored()
    {
        StatsHistory h;
        StatsSample s = at(kT0);
        s.cpuPercent = std::numeric_limits<double>::quiet_NaN();
        s.memoryUsedBytes = 100;
        h.append(s);
        s = at(kT0 + 1000);
        s.cpuPercent = std::numeric_limits<double>::infinity();
        h.append(s);
        QVERIFY(!h.has({Metric::Cpu}));
        StatsSample untimed; // no time: taken as the newest, not as 1970
        untimed.cpuPercent = 5;
        h.append(untimed);
        QCOMPARE(h.last({Metric::Cpu})->timeMs, kT0 + 1000);
    }

    // Older samples land in their bucket when still held, and are dropped when not.
    void lateSamples()
    {
        StatsHistory h;
        h.append(cpu(kT0 + 10'000, 10));
        h.append(cpu(kT0 + 5'000, 90));
        QCOMPARE(h.points({Metric::Cpu}, Window::OneMinute).size(), 2);
        h.append(cpu(kT0 - 10'000'000, 99)); // far older than any ring
        QCOMPARE(h.peak({Metric::Cpu}, Window::OneHour).value(), 90.0f);
    }

    // The memory budget of the issue: eight full series in at most 64 KiB.
    void memoryIsBounded()
    {
        StatsHistory h;
        for (qint64 i = 0; i < 2 * 3600; ++i) {
            StatsSample s = at(kT0 + i * 1000);
            s.cpuPercent = 50;
            s.memoryUsedBytes = 1 << 30;
            s.networkRxBytes = s.networkTxBytes = s.blockReadBytes = s.blockWriteBytes = i * 1000;
            GpuReading g;
            g.index = 0;
            g.utilizationPercent = 30;
            g.memoryUsedBytes = 1 << 30;
            s.gpus << g;
            h.append(s);
        }
        QCOMPARE(h.keys().size(), 8);
        QVERIFY2(h.allocatedBytes() <= 64 * 1024, qPrintable(QString::number(h.allocatedBytes())));
        h.clear();
        QVERIFY(h.keys().isEmpty());
        QVERIFY(h.allocatedBytes() < 1024);
    }
};

QTEST_GUILESS_MAIN(TestStatsHistory)
#include "tst_statshistory.moc"
