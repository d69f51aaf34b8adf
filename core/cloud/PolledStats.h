#pragma once

#include "providers/Jobs.h"
#include "providers/Provider.h"

#include <QPointer>
#include <QTimer>
#include <functional>
#include <optional>

namespace sandbar::cloud {

// /proc/net/dev: received and sent bytes over every interface but lo.
struct NetCounters {
    qint64 rxBytes = 0;
    qint64 txBytes = 0;
};
std::optional<NetCounters> parseProcNetDev(const QByteArray &text);

// A VM's own /proc/stat, /proc/meminfo, /proc/diskstats and `df -Pk /`, read by a command (in
// one output, in any order):
// the CPU time spent busy and in all since boot (in ticks, over every CPU), the CPUs counted,
// and the memory in use (MemTotal less MemAvailable) of MemTotal. What is absent stays unset.
struct ProcReading {
    std::optional<qint64> busyTicks;
    std::optional<qint64> totalTicks;
    int cpus = 0;
    std::optional<qint64> memoryUsedBytes;
    std::optional<qint64> memoryTotalBytes;
    // /proc/diskstats: bytes read and written by the whole disks (partitions, loop, RAM and
    // device-mapper devices left out, so nothing counts twice).
    std::optional<qint64> blockReadBytes;
    std::optional<qint64> blockWriteBytes;
    // `df -Pk /`: the root file system's use and size.
    std::optional<qint64> filesystemUsedBytes;
    std::optional<qint64> filesystemTotalBytes;
};
ProcReading parseProcReading(const QByteArray &text);
// The CPU use between two readings in Sandbar's percent of one core; nullopt when it cannot
// be told (a reading lacks the counters, or they went backwards: a reboot).
std::optional<double> cpuPercentBetween(const ProcReading &before, const ProcReading &now);

// A cloud session's live statistics: the provider's stats() every few seconds while started
// and, because cloud APIs report no network traffic, /proc/net/dev read through exec. Only
// this stream does that (the Stats tab open), never stats(): an exec counts as activity on
// some services (Daytona's idle auto-stop) and would keep an idle sandbox, and its bill,
// running. A sandbox without /proc is asked once.
class PolledStatsStream : public StatsStream
{
    Q_OBJECT
public:
    PolledStatsStream(Provider *provider, QString sessionId, QObject *parent = nullptr);
    void start() override;
    void stop() override;

    static constexpr int kIntervalMs = 5000;

private:
    void poll();

    QPointer<Provider> m_provider;
    QString m_sessionId;
    QTimer *m_timer = nullptr;
    bool m_running = false;
    bool m_inFlight = false;
    void fillFromProc(StatsSample &s, const ProcReading &now);

    bool m_netWorks = true;
    std::optional<ProcReading> m_lastProc;
};

// The statistics facet of a cloud provider whose service can only be asked: the provider
// gives its one-shot call (a metrics endpoint) and the figures it reports; the stream is
// PolledStatsStream, which adds the network read through exec.
class PolledStats final : public StatsFacet
{
public:
    using Fetch = std::function<void(const QString &sessionId, Callback<StatsSample> done)>;
    // owner: the provider the facet belongs to (the stream asks it for its statistics and
    // exec); flags: what fetch reports (StatsCpu, StatsMemory, StatsDisk, StatsGpu);
    // procFlags: what only the stream's read of the VM's /proc gives (StatsMemory, StatsDisk).
    PolledStats(Provider *owner, Capabilities flags, Fetch fetch, Capabilities procFlags = {});

    // fetch's figures, procFlags and the network from the stream, and the stream.
    Capabilities statsFlags() const override;
    Capabilities onceFlags() const override { return m_flags; }
    void stats(const QString &sessionId, Callback<StatsSample> done) override;
    std::unique_ptr<StatsStream> streamStats(const QString &sessionId) override;

private:
    QPointer<Provider> m_owner;
    Capabilities m_flags;
    Fetch m_fetch;
    Capabilities m_procFlags;
};

} // namespace sandbar::cloud
