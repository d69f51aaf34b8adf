#include "providers/docker/DockerUsage.h"

#include "providers/docker/DockerExec.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

namespace sandbar::docker {

// ---- UsageRecord ----------------------------------------------------------------------------

void UsageRecord::applyInspect(const ContainerUsage &usage)
{
    // A restarted container is a new run: the kills before it are the old run's.
    if (inspected && usage.startedAt != startedAt && usage.startedAt.isValid()) {
        dropBefore(usage.startedAt.toSecsSinceEpoch());
        cgroupOomKills.reset(); // a new cgroup
    }
    if (!usage.id.isEmpty())
        fullId = usage.id;
    startedAt = usage.startedAt;
    oomKilled = usage.oomKilled;
    if (usage.sizeRw)
        sizeRw = usage.sizeRw;
    inspected = true;
}

void UsageRecord::applyEvent(const EngineEvent &event)
{
    if (event.action == QLatin1String("start")) {
        dropBefore(event.time);
    } else if (event.action == QLatin1String("oom")) {
        if (!startedAt.isValid() || event.time >= startedAt.toSecsSinceEpoch())
            oomSeconds.insert(event.time);
    }
}

void UsageRecord::dropBefore(qint64 seconds)
{
    for (auto it = oomSeconds.begin(); it != oomSeconds.end();) {
        if (*it < seconds)
            it = oomSeconds.erase(it);
        else
            ++it;
    }
}

std::optional<qint64> UsageRecord::oomKills() const
{
    if (!inspected)
        return std::nullopt;
    return std::max<qint64>({oomKilled ? 1 : 0, oomSeconds.size(), cgroupOomKills.value_or(0)});
}

void UsageRecord::fill(StatsSample *sample) const
{
    sample->oomKills = oomKills();
    if (sizeRw)
        sample->filesystemUsedBytes = sizeRw;
}

QByteArray oomBacklogPath(const QString &containerId, qint64 since, qint64 untilMs)
{
    const nlohmann::json filters{
        {"type", {"container"}}, {"container", {containerId.toStdString()}}, {"event", {"oom"}}};
    // `until` with milliseconds: whole seconds (rounded down) left out a kill of the current
    // second. Docker and Podman both read "SECONDS.FRACTION".
    const QByteArray until =
        QByteArray::number(untilMs / 1000) + '.' + QByteArray::number(untilMs % 1000).rightJustified(3, '0');
    return "/events?since=" + QByteArray::number(since) + "&until=" + until +
           "&filters=" + DockerApi::enc(QString::fromStdString(filters.dump()));
}

QStringList cgroupOomFiles()
{
    return {QStringLiteral("/sys/fs/cgroup/memory.events"), QStringLiteral("/sys/fs/cgroup/memory/memory.oom_control")};
}

std::optional<qint64> oomKillsFromCgroup(const QByteArray &text)
{
    std::optional<qint64> kills;
    for (const QByteArray &line : text.split('\n')) {
        const QList<QByteArray> words = line.simplified().split(' ');
        bool ok = false;
        const qint64 n = words.size() == 2 && words[0] == "oom_kill" ? words[1].toLongLong(&ok) : -1;
        if (ok && n >= 0)
            kills = std::max(kills.value_or(0), n);
    }
    return kills;
}

// ---- DockerUsageTracker ---------------------------------------------------------------------

DockerUsageTracker::DockerUsageTracker(DockerApi *api, std::function<bool()> liveEvents, QObject *parent)
    : QObject(parent)
    , m_api(api)
    , m_liveEvents(std::move(liveEvents))
{
}

void DockerUsageTracker::ensure(const QString &containerId, const std::function<void()> &ready)
{
    Entry &e = m_entries[containerId];
    const bool stale = !e.refreshed.isValid() || e.refreshed.elapsed() >= qint64(m_interval.count());
    // A first look holds up its sample, so the caller's own bound on samples in flight bounds
    // it; a later one runs behind the samples, and without a cap of its own hundreds of
    // containers going stale together would mean hundreds of inspections at once. Past the
    // cap the look waits for a later sample.
    if (!e.inFlight && stale && (!e.record.inspected || m_background < MaxBackgroundRefreshes))
        refresh(containerId);
    if (!ready)
        return;
    Entry &now = m_entries[containerId];
    if (now.record.inspected || !now.inFlight)
        ready();
    else
        now.waiting << ready;
}

void DockerUsageTracker::refresh(const QString &containerId)
{
    Entry &e = m_entries[containerId];
    if (!m_api)
        return;
    e.inFlight = true;
    e.background = e.record.inspected;
    m_background += e.background ? 1 : 0;
    e.refreshed.start();
    const QByteArray path = "/containers/" + DockerApi::enc(containerId) + "/json?size=true";
    m_api->call("GET", path, {}, Callback<net::HttpResponse>(this, [this, containerId](Result<net::HttpResponse> r) {
                    const auto it = m_entries.find(containerId);
                    if (it == m_entries.end())
                        return; // forgotten meanwhile
                    std::optional<ContainerUsage> usage;
                    if (r && r->isSuccess()) {
                        if (auto u = usageFromInspect(r->body))
                            usage = *u;
                    }
                    if (!usage) {
                        if (!it->record.inspected)
                            it->refreshed.invalidate(); // nothing known yet: the next sample asks again
                        return finish(containerId);
                    }
                    const bool first = !it->record.inspected;
                    it->record.applyInspect(*usage);
                    if (!m_api)
                        return finish(containerId);
                    if (m_api->engine().podman)
                        return usage->running ? readCgroup(containerId) : finish(containerId);
                    // The live watch counts from here on; the backlog tells what happened before it
                    // (or instead of it, while it is not connected).
                    if ((!first && m_liveEvents && m_liveEvents()) || !usage->startedAt.isValid())
                        return finish(containerId);
                    readEventBacklog(containerId, *usage);
                }));
}

void DockerUsageTracker::readEventBacklog(const QString &containerId, const ContainerUsage &usage)
{
    const auto it = m_entries.constFind(containerId);
    const QString id = it->record.fullId.isEmpty() ? containerId : it->record.fullId;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_api->call("GET", oomBacklogPath(id, usage.startedAt.toSecsSinceEpoch(), now), {},
                Callback<net::HttpResponse>(this, [this, containerId, id](Result<net::HttpResponse> r) {
                    const auto it2 = m_entries.find(containerId);
                    if (it2 == m_entries.end())
                        return;
                    if (r && r->isSuccess()) {
                        QByteArray body = r->body;
                        body += '\n'; // the last event may come without one
                        for (const EngineEvent &ev : takeEvents(&body)) {
                            if (ev.id == id && ev.action == QLatin1String("oom"))
                                it2->record.applyEvent(ev);
                        }
                    }
                    finish(containerId);
                }));
}

void DockerUsageTracker::readCgroup(const QString &containerId)
{
    const auto it = m_entries.constFind(containerId);
    ExecRequest request;
    request.argv = QStringList{QStringLiteral("cat")} + cgroupOomFiles();
    // One of the two files is missing on every host, so cat's status says nothing; its output
    // does. A container that answers more than a few lines is not believed.
    runExec(m_api, it->record.fullId.isEmpty() ? containerId : it->record.fullId, request,
            Callback<ExecOutput>(this,
                                 [this, containerId](const Result<ExecOutput> &r) {
                                     const auto entry = m_entries.find(containerId);
                                     if (entry == m_entries.end())
                                         return;
                                     if (const auto kills = r ? oomKillsFromCgroup(r->stdoutData) : std::nullopt)
                                         entry->record.cgroupOomKills = kills;
                                     finish(containerId);
                                 }),
            RunExecLimits{4096, std::chrono::seconds(10)});
}

void DockerUsageTracker::finish(const QString &containerId)
{
    const auto it = m_entries.find(containerId);
    if (it == m_entries.end())
        return;
    it->inFlight = false;
    if (std::exchange(it->background, false))
        --m_background;
    const QList<std::function<void()>> waiting = std::exchange(it->waiting, {});
    for (const auto &ready : waiting)
        ready();
}

void DockerUsageTracker::fill(const QString &containerId, StatsSample *sample) const
{
    const auto it = m_entries.constFind(containerId);
    if (it != m_entries.cend())
        it->record.fill(sample);
}

void DockerUsageTracker::noteEvent(const EngineEvent &event)
{
    if (event.type != QLatin1String("container") || event.id.isEmpty())
        return;
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        if (it.key() == event.id || it->record.fullId == event.id)
            it->record.applyEvent(event);
    }
}

void DockerUsageTracker::noteExecEnded(const QString &containerId)
{
    if (!m_api || !m_api->engine().podman)
        return; // Docker tells its kills by events
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        if (it.key() == containerId || it->record.fullId == containerId)
            it->refreshed.invalidate();
    }
}

void DockerUsageTracker::forget(const QString &containerId)
{
    QList<std::function<void()>> waiting;
    for (auto it = m_entries.begin(); it != m_entries.end();) {
        if (it.key() == containerId || it->record.fullId == containerId) {
            waiting += it->waiting;
            if (it->inFlight && it->background)
                --m_background; // its answer finds no entry
            it = m_entries.erase(it);
        } else {
            ++it;
        }
    }
    for (const auto &ready : waiting)
        ready(); // a sample waiting for the first look goes out without it
}

// ---- FilledStatsStream ----------------------------------------------------------------------

FilledStatsStream::FilledStatsStream(std::unique_ptr<StatsStream> inner, DockerUsageTracker *tracker,
                                     QString containerId, QObject *parent)
    : StatsStream(parent)
    , m_inner(std::move(inner))
    , m_tracker(tracker)
    , m_containerId(std::move(containerId))
{
    connect(m_inner.get(), &StatsStream::sample, this, [this](const StatsSample &s) {
        StatsSample filled = s;
        if (m_tracker) {
            m_tracker->ensure(m_containerId);
            m_tracker->fill(m_containerId, &filled);
        }
        Q_EMIT sample(filled);
    });
    connect(m_inner.get(), &StatsStream::errorOccurred, this, &StatsStream::errorOccurred);
}

} // namespace sandbar::docker
