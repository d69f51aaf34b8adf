#pragma once

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <optional>

namespace sandbar {

// A process using a GPU, as NVML reports it: host PIDs, memory in bytes.
struct GpuProcessReading {
    qint64 pid = 0;
    std::optional<qint64> usedMemoryBytes;
};

struct GpuReading {
    int index = -1;
    QString name;
    QString uuid;
    bool mig = false;            // a MIG device (or a GPU in MIG mode): no utilisation figures
    std::optional<int> migIndex; // a MIG device's slot on its GPU `index`
    QString parentUuid;          // a MIG device's GPU
    // Device-wide: NVML's utilisation is the whole GPU's, whoever uses it.
    std::optional<double> utilizationPercent;
    std::optional<double> memoryUtilizationPercent;
    std::optional<qint64> memoryUsedBytes;
    std::optional<qint64> memoryTotalBytes;
    std::optional<double> powerWatts;
    std::optional<double> powerLimitWatts;
    std::optional<double> temperatureC;
    QList<GpuProcessReading> processes;
    // The session's own processes' memory on this GPU, where they could be matched to it.
    std::optional<qint64> sessionMemoryBytes;
};

// One reading of a session's resource use. Counters (network, block, OOM kills) are
// cumulative; rates come from the difference of two samples. Absent means the provider
// cannot tell.
struct StatsSample {
    QDateTime time;
    std::optional<double> cpuPercent; // 100 = one full core
    std::optional<qint64> memoryUsedBytes;
    std::optional<qint64> memoryLimitBytes;
    std::optional<qint64> networkRxBytes;
    std::optional<qint64> networkTxBytes;
    std::optional<qint64> blockReadBytes;
    std::optional<qint64> blockWriteBytes;
    std::optional<qint64> pids;
    // Out-of-memory kills so far: the cgroup's oom_kill count, or 1 once Docker's
    // State.OOMKilled is set.
    std::optional<qint64> oomKills;
    // The session's writable storage (Docker's SizeRw, the Local workspace, a cloud disk).
    std::optional<qint64> filesystemUsedBytes;
    std::optional<qint64> filesystemTotalBytes;
    QList<GpuReading> gpus;
};

} // namespace sandbar

Q_DECLARE_METATYPE(sandbar::StatsSample)
