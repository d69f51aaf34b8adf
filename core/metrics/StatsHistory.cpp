#include "metrics/StatsHistory.h"

#include <algorithm>
#include <limits>

namespace sandbar::metrics {

qint64 windowMs(Window w)
{
    switch (w) {
    case Window::OneMinute: return 60'000;
    case Window::FiveMinutes: return 300'000;
    case Window::OneHour: return 3'600'000;
    }
    return 60'000;
}

Resolution resolutionFor(Window w)
{
    switch (w) {
    case Window::OneMinute: return Resolution::OneSecond;
    case Window::FiveMinutes: return Resolution::FiveSeconds;
    case Window::OneHour: return Resolution::ThirtySeconds;
    }
    return Resolution::OneSecond;
}

int gpuSeriesId(const GpuReading &gpu)
{
    return gpu.migIndex ? 1000 + gpu.index * 100 + *gpu.migIndex : gpu.index;
}

namespace {
// Integer division that rounds towards minus infinity (times before 1970 stay ordered).
qint64 floorDiv(qint64 a, qint64 b)
{
    const qint64 q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}
} // namespace

// One resolution of one series: structure of arrays, so a slot costs 13 bytes (three
// floats and a count) and nothing is spent on per-slot times: slot k holds bucket
// head - ((headIndex - k) mod N).
struct StatsHistory::Ring {
    int slots = 0;
    qint64 periodMs = 1000;
    qint64 headBucket = std::numeric_limits<qint64>::min(); // no bucket yet
    int head = 0;
    std::unique_ptr<float[]> min, avg, max;
    std::unique_ptr<std::uint8_t[]> count; // 0 = empty; saturates (avg keeps exact weights up to 255)

    void init(int n, qint64 period)
    {
        slots = n;
        periodMs = period;
        min.reset(new float[size_t(n)]);
        avg.reset(new float[size_t(n)]);
        max.reset(new float[size_t(n)]);
        count.reset(new std::uint8_t[size_t(n)]());
    }

    void put(qint64 timeMs, float v)
    {
        const qint64 bucket = floorDiv(timeMs, periodMs);
        if (headBucket == std::numeric_limits<qint64>::min()) {
            headBucket = bucket;
            head = 0;
            count[0] = 0;
        } else if (bucket > headBucket) {
            // Advance, clearing the buckets skipped over (a gap, not a zero).
            const qint64 steps = std::min<qint64>(bucket - headBucket, slots);
            for (qint64 i = 0; i < steps; ++i) {
                head = (head + 1) % slots;
                count[size_t(head)] = 0;
            }
            headBucket = bucket;
        } else if (headBucket - bucket >= slots) {
            return; // older than what this ring holds
        }
        const int slot = int(((head - (headBucket - bucket)) % slots + slots) % slots);
        std::uint8_t &n = count[size_t(slot)];
        if (n == 0) {
            min[size_t(slot)] = max[size_t(slot)] = avg[size_t(slot)] = v;
            n = 1;
            return;
        }
        min[size_t(slot)] = std::min(min[size_t(slot)], v);
        max[size_t(slot)] = std::max(max[size_t(slot)], v);
        const float weight = float(n);
        avg[size_t(slot)] = (avg[size_t(slot)] * weight + v) / (weight + 1.0f);
        if (n < 255)
            ++n;
    }

    template <typename Fn>
    void forEach(qint64 fromMs, Fn &&fn) const
    {
        if (headBucket == std::numeric_limits<qint64>::min())
            return;
        for (int age = slots - 1; age >= 0; --age) {
            const qint64 bucket = headBucket - age;
            const qint64 t = bucket * periodMs;
            if (t < fromMs)
                continue;
            const size_t slot = size_t(((head - age) % slots + slots) % slots);
            if (count[slot] == 0)
                continue;
            fn(HistoryPoint{t, min[slot], avg[slot], max[slot]});
        }
    }

    qint64 bytes() const { return qint64(slots) * (3 * qint64(sizeof(float)) + 1); }
};

struct StatsHistory::Series {
    SeriesKey key;
    std::array<Ring, kResolutions> rings;
    explicit Series(SeriesKey k)
        : key(k)
    {
        for (int r = 0; r < kResolutions; ++r)
            rings[size_t(r)].init(kSlots[size_t(r)], kPeriodMs[size_t(r)]);
    }
};

StatsHistory::StatsHistory() = default;
StatsHistory::~StatsHistory() = default;

void StatsHistory::clear()
{
    m_series.clear();
    m_counters = {};
    m_latest.reset();
    m_lastOom.reset();
    m_oom.clear();
    m_segments.clear();
    m_newestMs = 0;
    m_samples = 0;
}

StatsHistory::Series &StatsHistory::series(SeriesKey key)
{
    for (auto &s : m_series) {
        if (s->key == key)
            return *s;
    }
    m_series.push_back(std::make_unique<Series>(key));
    // Stable order for the views: by metric, then GPU index.
    std::stable_sort(m_series.begin(), m_series.end(), [](const auto &a, const auto &b) {
        return a->key.metric != b->key.metric ? a->key.metric < b->key.metric : a->key.gpu < b->key.gpu;
    });
    for (auto &s : m_series) {
        if (s->key == key)
            return *s;
    }
    return *m_series.back();
}

const StatsHistory::Series *StatsHistory::find(SeriesKey key) const
{
    for (const auto &s : m_series) {
        if (s->key == key)
            return s.get();
    }
    return nullptr;
}

void StatsHistory::put(SeriesKey key, qint64 timeMs, double value)
{
    if (!std::isfinite(value))
        return;
    Series &s = series(key);
    for (auto &ring : s.rings)
        ring.put(timeMs, float(value));
}

std::optional<double> StatsHistory::rate(Counter &c, std::optional<qint64> value, qint64 timeMs, bool &reset)
{
    if (!value || *value < 0)
        return std::nullopt;
    const Counter before = c;
    c = Counter{*value, timeMs};
    if (before.value < 0)
        return std::nullopt; // the first reading of a segment has nothing to compare with
    if (*value < before.value) {
        reset = true; // restarted: a new segment, never a negative rate
        return std::nullopt;
    }
    if (timeMs <= before.timeMs)
        return std::nullopt;
    return double(*value - before.value) * 1000.0 / double(timeMs - before.timeMs);
}

void StatsHistory::append(const StatsSample &s)
{
    const qint64 t = s.time.isValid() ? s.time.toMSecsSinceEpoch() : m_newestMs;
    bool reset = false;
    const auto rx = rate(m_counters[0], s.networkRxBytes, t, reset);
    const auto tx = rate(m_counters[1], s.networkTxBytes, t, reset);
    const auto rd = rate(m_counters[2], s.blockReadBytes, t, reset);
    const auto wr = rate(m_counters[3], s.blockWriteBytes, t, reset);
    if (reset) {
        // Every counter restarts together (a container or agent restart): the rates of this
        // sample are dropped and the next ones are taken from here.
        m_segments.push_back(t);
        if (m_segments.size() > 64)
            m_segments.erase(m_segments.begin());
        for (Counter &c : m_counters)
            c.timeMs = t;
    }
    if (s.cpuPercent)
        put({Metric::Cpu}, t, *s.cpuPercent);
    if (s.memoryUsedBytes)
        put({Metric::Memory}, t, double(*s.memoryUsedBytes));
    if (!reset) {
        if (rx)
            put({Metric::NetworkRx}, t, *rx);
        if (tx)
            put({Metric::NetworkTx}, t, *tx);
        if (rd)
            put({Metric::DiskRead}, t, *rd);
        if (wr)
            put({Metric::DiskWrite}, t, *wr);
    }
    if (s.filesystemUsedBytes)
        put({Metric::FilesystemUsed}, t, double(*s.filesystemUsedBytes));
    if (s.pids)
        put({Metric::Pids}, t, double(*s.pids));
    for (const GpuReading &g : s.gpus) {
        if (g.index < 0)
            continue;
        const int id = gpuSeriesId(g);
        if (g.utilizationPercent)
            put({Metric::GpuUtilization, id}, t, *g.utilizationPercent);
        if (g.memoryUsedBytes)
            put({Metric::GpuMemory, id}, t, double(*g.memoryUsedBytes));
        if (g.sessionMemoryBytes)
            put({Metric::GpuSessionMemory, id}, t, double(*g.sessionMemoryBytes));
    }
    if (s.oomKills) {
        // A rise is a kill since the last sample; a first sight of kills marks them too
        // (they happened before sampling began, or while nobody looked).
        if ((!m_lastOom && *s.oomKills > 0) || (m_lastOom && *s.oomKills > *m_lastOom)) {
            m_oom.push_back(t);
            if (m_oom.size() > 64)
                m_oom.erase(m_oom.begin());
        }
        m_lastOom = s.oomKills;
    }
    m_latest = s;
    m_newestMs = std::max(m_newestMs, t);
    ++m_samples;
}

QList<SeriesKey> StatsHistory::keys() const
{
    QList<SeriesKey> out;
    out.reserve(qsizetype(m_series.size()));
    for (const auto &s : m_series)
        out << s->key;
    return out;
}

bool StatsHistory::has(SeriesKey key) const
{
    return find(key) != nullptr;
}

void StatsHistory::forEach(SeriesKey key, Resolution res, qint64 fromMs,
                           const std::function<void(const HistoryPoint &)> &fn) const
{
    if (const Series *s = find(key))
        s->rings[size_t(res)].forEach(fromMs, fn);
}

QList<HistoryPoint> StatsHistory::points(SeriesKey key, Window window) const
{
    QList<HistoryPoint> out;
    const Series *s = find(key);
    if (!s)
        return out;
    const Ring &ring = s->rings[size_t(resolutionFor(window))];
    out.reserve(ring.slots);
    ring.forEach(m_newestMs - windowMs(window), [&out](const HistoryPoint &p) { out << p; });
    return out;
}

std::optional<HistoryPoint> StatsHistory::last(SeriesKey key, Resolution res) const
{
    std::optional<HistoryPoint> out;
    if (const Series *s = find(key))
        s->rings[size_t(res)].forEach(std::numeric_limits<qint64>::min(), [&out](const HistoryPoint &p) { out = p; });
    return out;
}

std::optional<float> StatsHistory::peak(SeriesKey key, Window window) const
{
    std::optional<float> out;
    if (const Series *s = find(key)) {
        s->rings[size_t(resolutionFor(window))].forEach(m_newestMs - windowMs(window), [&out](const HistoryPoint &p) {
            out = out ? std::max(*out, p.max) : p.max;
        });
    }
    return out;
}

qint64 StatsHistory::allocatedBytes() const
{
    qint64 bytes = qint64(m_series.capacity() * sizeof(std::unique_ptr<Series>));
    for (const auto &s : m_series) {
        bytes += qint64(sizeof(Series));
        for (const auto &ring : s->rings)
            bytes += ring.bytes();
    }
    bytes += qint64((m_oom.capacity() + m_segments.capacity()) * sizeof(qint64));
    if (m_latest)
        bytes += qint64(m_latest->gpus.capacity()) * qint64(sizeof(GpuReading));
    return bytes;
}

} // namespace sandbar::metrics
