#pragma once

// Per-container figures a Docker/Podman stats reply does not carry: out-of-memory kills and
// the size of the writable layer.
//
// OOM kills. The kernel's count (memory.events, memory.oom_control) is not in the stats
// reply. Docker sends an `oom` event each time the kernel kills a process of the container,
// but sets State.OOMKilled only when the container itself ends that way (Docker 20.10 on a
// process killed inside a running container: an event, OOMKilled stays false). So kills
// are counted from `oom` events, live from the provider's events watch and, when that is
// not connected, from the engine's event backlog (GET /events with since/until, which
// Docker keeps in memory for its last events), and State.OOMKilled counts as one at least.
// Events are kept by their second, so a replayed event (a reconnect asks `since` the last
// second seen) is not counted twice; two kills in the same second count as one.
// Podman 4 sends no `oom` event for a process killed inside a running container, and its
// stats reply carries no memory counters but usage and limit. Its figure is the cgroup's own
// count, read inside the container (`cat` of memory.events, cgroup v2, or
// memory.oom_control, v1: both say "oom_kill N"; Podman gives a container its own cgroup
// namespace on v2 and mounts its own cgroup on v1) at each look, and a look is due again
// once a command Sandbar started there ends (the usual way a session's memory runs out). A
// process killed inside a terminal that stays open shows at the next look (the interval).
// An image without `cat` has State.OOMKilled alone.
//
// Writable layer: SizeRw from GET /containers/{id}/json?size=true, which makes the engine
// walk the layer: at most once per interval (30 s) per container, cached in between. The
// engine does not tell the space left, so filesystemTotalBytes stays absent.

#include "providers/Jobs.h"
#include "providers/docker/DockerApi.h"
#include "providers/docker/DockerParsers.h"

#include <QElapsedTimer>
#include <QHash>
#include <QPointer>
#include <QSet>
#include <chrono>
#include <functional>
#include <memory>

namespace sandbar::docker {

// What is known of one container; pure, so that the counting rules are table-tested.
struct UsageRecord {
    QString fullId;
    QDateTime startedAt;
    bool inspected = false;
    bool oomKilled = false;
    QSet<qint64> oomSeconds; // unix seconds of the oom events seen since the container started
    std::optional<qint64> sizeRw;
    std::optional<qint64> cgroupOomKills; // Podman: the container's cgroup oom_kill count

    void applyInspect(const ContainerUsage &usage);
    // oom: counted; start: a restarted container starts counting again (as its cgroup does).
    void applyEvent(const EngineEvent &event);
    // Absent until an inspect succeeded.
    std::optional<qint64> oomKills() const;
    void fill(StatsSample *sample) const;

private:
    void dropBefore(qint64 seconds);
};

// GET /events for one container's oom events from `since` (seconds) to `untilMs` (milliseconds).
QByteArray oomBacklogPath(const QString &containerId, qint64 since, qint64 untilMs);

// The files that hold a container's oom_kill count, as seen inside it (cgroup v2, v1).
QStringList cgroupOomFiles();
// The largest "oom_kill N" in their text; nullopt when there is none.
std::optional<qint64> oomKillsFromCgroup(const QByteArray &text);

class DockerUsageTracker : public QObject
{
    Q_OBJECT
public:
    // `liveEvents` says whether the provider's events watch is connected right now.
    DockerUsageTracker(DockerApi *api, std::function<bool()> liveEvents, QObject *parent = nullptr);

    void setInterval(std::chrono::milliseconds interval) { m_interval = interval; }
    // Refreshes the container's record when its last look is older than the interval;
    // calls `ready` at once when it was looked at before, else once the first look is done
    // (successful or not).
    void ensure(const QString &containerId, const std::function<void()> &ready = {});
    void fill(const QString &containerId, StatsSample *sample) const;
    void noteEvent(const EngineEvent &event);
    // A command Sandbar started in the container ended: on Podman the next sample looks again.
    void noteExecEnded(const QString &containerId);
    void forget(const QString &containerId);

private:
    struct Entry {
        UsageRecord record;
        QElapsedTimer refreshed;
        bool inFlight = false;
        bool background = false; // a refresh of a container looked at before
        QList<std::function<void()>> waiting;
    };
    void refresh(const QString &containerId);
    void readEventBacklog(const QString &containerId, const ContainerUsage &usage);
    void readCgroup(const QString &containerId);
    void finish(const QString &containerId);

    QPointer<DockerApi> m_api;
    std::function<bool()> m_liveEvents;
    std::chrono::milliseconds m_interval{std::chrono::seconds(30)};
    QHash<QString, Entry> m_entries;
    static constexpr int MaxBackgroundRefreshes = 2;
    int m_background = 0; // background refreshes in flight
};

// A stats stream whose samples get the tracker's figures on their way out.
class FilledStatsStream : public StatsStream
{
    Q_OBJECT
public:
    FilledStatsStream(std::unique_ptr<StatsStream> inner, DockerUsageTracker *tracker, QString containerId,
                      QObject *parent = nullptr);
    void start() override { m_inner->start(); }
    void stop() override { m_inner->stop(); }

private:
    std::unique_ptr<StatsStream> m_inner;
    QPointer<DockerUsageTracker> m_tracker;
    QString m_containerId;
};

} // namespace sandbar::docker
