#pragma once
// The load scenarios of the reliability issue, shared by the `load` tests (reduced sizes) and
// `sandbar-bench reliability` (full sizes). Each runs on the caller's event loop and returns
// what it measured; the caller decides what to assert or print.

#include "common/Callback.h"
#include "common/Result.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace sandbar::load {

// Nearest-rank percentile of unsorted samples (NaN when empty).
double percentile(QList<double> samples, double p);

// Spins the caller's event loop until pred holds or timeoutMs passes; pred's last value.
bool spinUntil(const std::function<bool()> &pred, int timeoutMs);

// Makes an asynchronous call and spins until its callback answers; a Timeout error after
// timeoutMs.
template <typename T>
Result<T> waitFor(const std::function<void(Callback<T>)> &call, int timeoutMs = 120000)
{
    QObject ctx;
    std::optional<Result<T>> out;
    call(Callback<T>(&ctx, [&out](Result<T> r) { out.emplace(std::move(r)); }));
    if (!spinUntil([&] { return out.has_value(); }, timeoutMs))
        return makeError(ErrorCode::Timeout, QStringLiteral("no answer within %1 ms").arg(timeoutMs));
    return std::move(*out);
}

// How late a periodic timer fires: the event loop's responsiveness while load runs.
class EventLoopProbe : public QObject
{
    Q_OBJECT
public:
    explicit EventLoopProbe(int periodMs = 10, QObject *parent = nullptr);
    void start();
    void stop();
    // Called on every tick (a cheap observer, e.g. sampling a counter).
    void setOnTick(std::function<void()> fn) { m_onTick = std::move(fn); }
    const QList<double> &latenessMs() const { return m_lateness; }

private:
    void tick();
    int m_period;
    QTimer m_timer;
    qint64 m_last = -1;
    QList<double> m_lateness;
    std::function<void()> m_onTick;
};

// A unix socket between a client and an engine that counts exchanges in flight. The HTTP
// client opens one connection per request, so a connection is one request, in flight until
// either side ends it. Relays on threads of its own, so its work does not load the probed loop.
class CountingUnixProxy
{
public:
    explicit CountingUnixProxy(QString upstreamPath);
    ~CountingUnixProxy();
    bool start(const QString &listenPath, QString *error);
    void stop();
    int current() const { return m_current.load(); }
    int maxConcurrent() const { return m_max.load(); }
    qint64 total() const { return m_total.load(); }
    void resetMax() { m_max.store(m_current.load()); }

private:
    void acceptLoop();
    void relay(int client);

    QString m_upstream;
    QString m_listenPath;
    int m_listen = -1;
    int m_wake[2] = {-1, -1};
    std::thread m_acceptor;
    std::mutex m_lock;
    int m_relays = 0; // live relay threads (detached), under m_lock
    std::atomic<int> m_current{0};
    std::atomic<int> m_max{0};
    std::atomic<qint64> m_total{0};
    std::atomic<bool> m_stopping{false};
};

// --- 1. many sessions on a Docker engine ---------------------------------------------------
struct DockerLoadOptions {
    QString endpoint; // unix:///... (the engine; the scenario puts its proxy in front)
    QString image;
    int sessions = 50;
    int minSamples = 2;     // per session, before the run ends
    int minRefreshes = 5;   // registry refreshes of the whole list while sampling
    int timeoutMs = 150000; // for the sampling phase
};

struct DockerLoadResult {
    QString error; // empty when the run completed
    int sessions = 0;
    int listed = 0;
    int sampledSessions = 0; // sessions with at least minSamples samples
    int refreshes = 0;
    int connectionsMax = -1;       // engine connections open at once (requests in flight)
    int collectorInFlightMax = -1; // StatsCollector::inFlight() seen by the probe
    int collectorLimit = 0;        // CollectorOptions::maxInFlightPerAccount
    QList<double> latenessMs;
    double seconds = 0; // the sampling phase
    double setupSeconds = 0;
};
DockerLoadResult runDockerLoad(const DockerLoadOptions &options, const std::function<void(const QString &)> &log);

// --- 2. many terminals, some flooding ------------------------------------------------------
struct TerminalLoadOptions {
    int terminals = 10;
    int flooding = 3;
    int cols = 120;
    int rows = 40;
    int scrollbackLines = 10000;
    int keystrokes = 40;
    int timeoutMs = 120000;
};

struct TerminalLoadResult {
    QString error;
    double rssGrowthMiB = 0;    // after every flooder filled its scrollback twice over
    double rssBoundMiB = 0;     // what the scrollback settings allow (see the .cpp)
    double storedMiB = 0;       // the scrollbacks' own count of their bytes
    double droppedMinLines = 0; // lines the least-flooded terminal dropped past its limit
    qint64 floodedBytes = 0;    // parsed by the flooding terminals
    QList<double> keystrokeMs;  // key sent to the idle terminal until its echo is on the screen
    int keystrokesTried = 0;
};
TerminalLoadResult runTerminalLoad(const TerminalLoadOptions &options, const std::function<void(const QString &)> &log);

// --- 3. create/remove and exec cycles: nothing leaks ----------------------------------------
struct ResourceCounts {
    int fds = 0;
    int threads = 0;
    int cgroupDirs = 0;  // sandbar-<id> cgroup folders of this run's Local sessions
    int tempFiles = 0;   // entries in the private TMPDIR
    int sessionDirs = 0; // Local session folders in the account's data folder
    int containers = 0;  // the engine's containers of this run's account (-1: no engine)
    QString toString() const;
};
// Sum of the counts that grew from before to after.
int growth(const ResourceCounts &before, const ResourceCounts &after);

struct LeakOptions {
    int localCycles = 100; // after the warm-up
    int dockerExecs = 200; // after the warm-up
    int warmup = 10;
    QString dockerEndpoint; // empty: no Docker part
    QString image;
    bool local = true;
    int settleMs = 10000; // how long the end count may take to come back down (deferred deletes)
};

struct LeakResult {
    QString error;
    QString localSkipped; // why the Local part did not run (empty when it ran)
    ResourceCounts afterWarmup;
    ResourceCounts atEnd;
    int leaks = 0;
    bool cgroupsUsable = false; // Local makes cgroup folders here
    int liveCgroupDirs = -1;    // counted while the first Local session lived
    int liveSessionDirs = -1;
    double localCycleMs = 0; // median create+remove
    double execMs = 0;       // median exec round trip
};
LeakResult runLeakCycles(const LeakOptions &options, const std::function<void(const QString &)> &log);

} // namespace sandbar::load
