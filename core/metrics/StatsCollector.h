#pragma once

#include "common/Clock.h"
#include "metrics/SessionStats.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <functional>
#include <memory>

namespace sandbar {
class SessionRegistry;
class Provider;
class StatsStream;
} // namespace sandbar

namespace sandbar::metrics {

struct CollectorOptions {
    int listPeriodMs = 2000;   // rows visible in the sessions list
    int detailPeriodMs = 1000; // sessions whose Stats tab is open
    int maxInFlightPerAccount = 4;
    int firstBackoffMs = 2000; // then doubled up to maxBackoffMs
    int maxBackoffMs = 60000;
    int requestTimeoutMs = 30000; // a request unanswered this long counts as failed
};

// Samples the running sessions the UI is interested in, and nothing else. Built once in
// the composition root over the session registry. Each account has its own queue with at
// most maxInFlightPerAccount requests in flight (samples and the one info() request a
// session needs), so a slow engine delays only its own sessions and hundreds of sessions
// never mean hundreds of requests at once. Where a provider streams (StatsStream) an open
// Stats tab uses the stream and the list uses one-shot samples. A stopped session keeps its
// history; a removed one's is freed.
class StatsCollector : public QObject
{
    Q_OBJECT
public:
    // Due times and back-offs are measured on clock's monotonic reading, and a session's
    // nextRetry is on its wall clock; clock must outlive the collector.
    explicit StatsCollector(SessionRegistry &registry, CollectorOptions options = {},
                            const Clock &clock = systemClock(), QObject *parent = nullptr);
    ~StatsCollector() override;

    // Adds GPU readings to the samples of sessions with GPUs (NVML when the engine is on
    // this machine, else nvidia-smi through exec). Answers on `context`'s thread; an empty
    // list leaves the sample as the provider gave it.
    using GpuSampler = std::function<void(Provider *provider, const SessionInfo &session, QObject *context,
                                          std::function<void(QList<GpuReading>)> done)>;
    void setGpuSampler(GpuSampler sampler) { m_gpu = std::move(sampler); }

    // The session refs (ACCOUNT/ID) whose rows are visible; replaces the previous set.
    void setListInterest(const QStringList &refs);
    // An open Stats tab (counted: two views of one session need two removes).
    void addDetailInterest(const QString &ref);
    void removeDetailInterest(const QString &ref);

    // The session's statistics object, made on first ask while the registry lists the
    // session (nullptr otherwise). Owned by the collector.
    SessionStats *stats(const QString &ref);
    SessionStats *find(const QString &ref) const;

    const CollectorOptions &options() const { return m_options; }
    const Clock &clock() const { return *m_clock; }
    int inFlight(const QString &account) const;

    // Requests whatever is due on the clock now. The collector's timer does this when the
    // next due time comes; a test that moved its ManualClock calls it rather than wait.
    void sampleDue();

Q_SIGNALS:
    void statsRemoved(const QString &ref);

private:
    struct Entry;
    struct AccountQueue;

    void reconcile();
    void update(Entry &e, const SessionInfo &listed); // one entry from the registry's listing
    void reschedule();
    qint64 nowMs() const { return m_clock->monotonicMs(); }
    void enqueue(Entry &e);
    void pump(const QString &account);
    void sampleNow(Entry &e, Provider *provider);
    void deliver(Entry &e, const StatsSample &sample);
    void fail(Entry &e, const Error &error);
    void updateStream(Entry &e);
    void stopStream(Entry &e);
    int periodFor(const Entry &e) const;
    void askDetail(Entry &e);
    void requestDetail(Entry &e, Provider *provider);
    static SessionInfo withDetail(SessionInfo listed, const std::optional<SessionInfo> &detail);
    bool wanted(const Entry &e) const;

    SessionRegistry &m_registry;
    CollectorOptions m_options;
    const Clock *m_clock;
    GpuSampler m_gpu;
    quint64 m_serial = 0;
    QSet<QString> m_list;
    QHash<QString, int> m_detail;
    QHash<QString, Entry *> m_entries;
    QHash<QString, AccountQueue *> m_queues;
    QTimer m_timer;
};

} // namespace sandbar::metrics
