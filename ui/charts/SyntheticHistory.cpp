#include "charts/SyntheticHistory.h"

#include <cmath>
#include <numbers>

namespace sandbar::ui {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

// A cheap deterministic noise in [0, 1).
double noise(qint64 n)
{
    quint64 x = quint64(n) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return double(x % 10000) / 10000.0;
}

} // namespace

StatsSample syntheticSample(const SyntheticOptions &o, qint64 startMs, qint64 t)
{
    const double s = double(t - startMs) / 1000.0; // seconds since the start
    const double span = double(o.spanMs) / 1000.0;
    const qint64 n = t / 1000;
    StatsSample x;
    x.time = QDateTime::fromMSecsSinceEpoch(t, Qt::UTC);
    x.cpuPercent = std::max(0.0, 70 + 55 * std::sin(s * 2 * std::numbers::pi / 420) + 25 * (noise(n) - 0.5) +
                                     (int(s) % 600 < 15 ? 60 : 0));
    // Memory climbs to the 2 GiB limit by 70 % of the span, is killed, then climbs again.
    const double oomAt = 0.7 * span;
    const double climb = s < oomAt ? s / oomAt : (s - oomAt) / (span - oomAt) * 0.5;
    x.memoryUsedBytes = qint64((300 * kMiB + climb * (2 * kGiB - 310 * kMiB)) * (1 + 0.02 * noise(n + 7)));
    x.memoryLimitBytes = qint64(2 * kGiB);
    x.oomKills = o.oomKill && s >= oomAt ? 1 : 0;
    if (o.network) {
        // 20 KiB/s with a 6 MiB/s download for 30 s every 5 minutes and a smaller upload.
        const double cycles = std::floor(s / 300);
        const double inBurst = std::min(30.0, std::fmod(s, 300));
        x.networkRxBytes = qint64(s * 20 * 1024 + (cycles * 30 + inBurst) * 6 * kMiB);
        x.networkTxBytes = qint64(s * 8 * 1024 + (cycles * 30 + inBurst) * 0.8 * kMiB);
    }
    x.blockReadBytes = qint64(s * 64 * 1024 + std::floor(s / 120) * 40 * kMiB);
    x.blockWriteBytes = qint64(s * 1.5 * kMiB + 0.5 * kMiB * std::sin(s / 30) * 30);
    x.filesystemUsedBytes = qint64(1.2 * kGiB + s / span * 2.5 * kGiB);
    x.filesystemTotalBytes = qint64(10 * kGiB);
    x.pids = 12 + n % 5;
    for (int g = 0; g < o.gpus; ++g) {
        GpuReading r;
        r.index = g;
        r.name = QStringLiteral("NVIDIA H200");
        r.uuid = QStringLiteral("GPU-synthetic-%1").arg(g);
        r.utilizationPercent = std::clamp(55 + 40 * std::sin(s / 200 + g) + 10 * (noise(n + 3) - 0.5), 0.0, 100.0);
        r.memoryTotalBytes = qint64(141 * kGiB);
        r.sessionMemoryBytes = qint64((18 + 6 * std::sin(s / 900)) * kGiB);
        r.memoryUsedBytes = *r.sessionMemoryBytes + qint64(30 * kGiB);
        r.powerWatts = 300 + 200 * noise(n + 11);
        x.gpus.append(r);
    }
    return x;
}

void fillSyntheticHistory(metrics::SessionStats &stats, const SyntheticOptions &o)
{
    SessionInfo info = stats.session();
    if (info.id.isEmpty())
        info.id = QStringLiteral("synthetic");
    info.cpus = 2;
    info.memoryBytes = qint64(2 * kGiB);
    info.gpus = o.gpus;
    info.network = o.network;
    const Capabilities caps = Capability::StatsCpu | Capability::StatsMemory | Capability::StatsNetwork |
                              Capability::StatsDisk | Capability::StatsGpu;
    stats.setSession(info, caps, QStringLiteral("Docker"));
    const qint64 start = o.endMs - o.spanMs;
    for (qint64 t = start; t <= o.endMs; t += o.periodMs)
        stats.mutableHistory().append(syntheticSample(o, start, t));
}

} // namespace sandbar::ui
