#pragma once

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <optional>

namespace sandbar {

struct GpuReading {
    int index = -1;
    QString name;
    QString uuid;
    std::optional<double> utilizationPercent;
    std::optional<double> memoryUtilizationPercent;
    std::optional<qint64> memoryUsedBytes;
    std::optional<qint64> memoryTotalBytes;
    std::optional<double> powerWatts;
    std::optional<double> temperatureC;
};

// One reading of a session's resource use. Counters (network, block) are cumulative;
// rates come from the difference of two samples. Absent means the provider cannot tell.
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
    QList<GpuReading> gpus;
};

} // namespace sandbar

Q_DECLARE_METATYPE(sandbar::StatsSample)
