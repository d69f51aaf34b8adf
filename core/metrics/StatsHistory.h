#pragma once

// A session's statistics over time, in fixed-size rings at three resolutions so that the
// 1 minute, 5 minute and 1 hour windows are exact and memory is bounded whatever the
// sampling rate: 1 s points for 2 minutes, 5 s points for 10 minutes, 30 s points for 2
// hours. Every raw sample is merged into its bucket at each resolution independently, so
// a bucket's min, average and max are those of the raw values it holds (a spike survives).
// Rates come from cumulative counters; a counter that goes backwards (a restart) starts a
// new segment instead of drawing a negative or a huge spike.

#include "metrics/StatsSample.h"

#include <QList>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace sandbar::metrics {

enum class Metric : std::uint8_t {
    Cpu,              // percent, 100 = one core
    Memory,           // bytes used
    NetworkRx,        // bytes per second
    NetworkTx,        // bytes per second
    DiskRead,         // bytes per second
    DiskWrite,        // bytes per second
    FilesystemUsed,   // bytes
    Pids,             // count
    GpuUtilization,   // percent, device-wide (per gpu index)
    GpuMemory,        // bytes used on the device, all processes (per gpu index)
    GpuSessionMemory, // bytes used by the session's own processes (per gpu index)
};

struct SeriesKey {
    Metric metric = Metric::Cpu;
    int gpu = -1; // gpuSeriesId() of the reading for Gpu* metrics, else -1
    bool operator==(const SeriesKey &o) const { return metric == o.metric && gpu == o.gpu; }
    bool operator!=(const SeriesKey &o) const { return !(*this == o); }
};

// The id of a GPU's series: its index, or for a MIG device (which shares its GPU's index)
// 1000 + index * 100 + its MIG slot, so the two never merge into one line.
int gpuSeriesId(const GpuReading &gpu);
inline bool isMigSeriesId(int id)
{
    return id >= 1000;
}

enum class Resolution : std::uint8_t { OneSecond, FiveSeconds, ThirtySeconds };
inline constexpr int kResolutions = 3;
inline constexpr std::array<qint64, kResolutions> kPeriodMs{1000, 5000, 30000};
inline constexpr std::array<int, kResolutions> kSlots{120, 120, 240};

// The windows the charts offer, and the resolution that serves each exactly.
enum class Window : std::uint8_t { OneMinute, FiveMinutes, OneHour };
qint64 windowMs(Window w);
Resolution resolutionFor(Window w);

struct HistoryPoint {
    qint64 timeMs = 0; // the bucket's start, ms since the epoch (UTC)
    float min = 0;
    float avg = 0;
    float max = 0;
};

class StatsHistory
{
public:
    StatsHistory();
    ~StatsHistory();
    StatsHistory(const StatsHistory &) = delete;
    StatsHistory &operator=(const StatsHistory &) = delete;

    // Merges one sample (its time decides the buckets). Samples older than the newest
    // bucket of the finest resolution are merged where they fall if still held.
    void append(const StatsSample &sample);
    void clear();

    // The series that have received at least one value, in a stable order.
    QList<SeriesKey> keys() const;
    bool has(SeriesKey key) const;

    // Points of one series at one resolution with bucket start >= fromMs, oldest first.
    // Buckets without a value are skipped. fn returns nothing.
    void forEach(SeriesKey key, Resolution res, qint64 fromMs,
                 const std::function<void(const HistoryPoint &)> &fn) const;
    QList<HistoryPoint> points(SeriesKey key, Window window) const; // ending at the newest point
    std::optional<HistoryPoint> last(SeriesKey key, Resolution res = Resolution::OneSecond) const;
    // Largest max over a window (for axis ranges).
    std::optional<float> peak(SeriesKey key, Window window) const;

    // The newest raw sample as received (limits, GPU names, OOM count...).
    const std::optional<StatsSample> &latest() const { return m_latest; }
    qint64 newestMs() const { return m_newestMs; }
    int sampleCount() const { return m_samples; }

    // Times (ms) at which the OOM-kill count rose, newest last (at most 64 kept).
    const std::vector<qint64> &oomMarkers() const { return m_oom; }
    // Times (ms) at which a cumulative counter went backwards: a new segment began.
    const std::vector<qint64> &segmentStarts() const { return m_segments; }

    // Bytes this history holds on the heap, for the memory budget figure.
    qint64 allocatedBytes() const;

private:
    struct Ring;
    struct Series;
    struct Counter {
        qint64 value = -1;
        qint64 timeMs = 0;
    };

    Series &series(SeriesKey key);
    const Series *find(SeriesKey key) const;
    void put(SeriesKey key, qint64 timeMs, double value);
    std::optional<double> rate(Counter &c, std::optional<qint64> value, qint64 timeMs, bool &reset);

    std::vector<std::unique_ptr<Series>> m_series;
    std::array<Counter, 4> m_counters; // rx, tx, read, write
    std::optional<StatsSample> m_latest;
    std::optional<qint64> m_lastOom;
    std::vector<qint64> m_oom;
    std::vector<qint64> m_segments;
    qint64 m_newestMs = 0;
    int m_samples = 0;
};

} // namespace sandbar::metrics
