#include "metrics/StatsCollector.h"

#include "providers/Provider.h"
#include "sessions/SessionRegistry.h"

#include <limits>

namespace sandbar::metrics {

struct StatsCollector::Entry {
    QString ref;
    QString account;
    QString id;
    SessionStats *stats = nullptr; // child of the collector
    bool running = false;
    bool streamCapable = false;
    bool queued = false;
    bool inFlight = false;
    quint64 serial = 0; // of the request in flight; a late answer with another is dropped
    qint64 dueMs = 0;   // on the collector's monotonic clock
    int backoffMs = 0;
    std::unique_ptr<StatsStream> stream;
    // What info() adds to the listing (Docker lists no limits and no GPUs), asked once.
    std::optional<SessionInfo> detail;
    bool detailAsked = false;
    quint64 detailSerial = 0; // of the info() request in flight; 0 when none
};

struct StatsCollector::AccountQueue {
    QList<QString> waiting;
    QList<QString> details; // sessions whose one info() request waits for a slot
    int inFlight = 0;       // samples and info() requests
};

StatsCollector::StatsCollector(SessionRegistry &registry, CollectorOptions options, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
    , m_options(options)
    , m_clock(&clock)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::CoarseTimer);
    connect(&m_timer, &QTimer::timeout, this, &StatsCollector::sampleDue);
    connect(&m_registry, &SessionRegistry::sessionsChanged, this, &StatsCollector::reconcile);
}

StatsCollector::~StatsCollector()
{
    for (Entry *e : std::as_const(m_entries)) {
        stopStream(*e);
        delete e;
    }
    qDeleteAll(m_queues);
}

bool StatsCollector::wanted(const Entry &e) const
{
    return m_list.contains(e.ref) || m_detail.value(e.ref) > 0;
}

int StatsCollector::periodFor(const Entry &e) const
{
    return m_detail.value(e.ref) > 0 ? m_options.detailPeriodMs : m_options.listPeriodMs;
}

int StatsCollector::inFlight(const QString &account) const
{
    const AccountQueue *q = m_queues.value(account);
    return q ? q->inFlight : 0;
}

SessionStats *StatsCollector::find(const QString &ref) const
{
    const Entry *e = m_entries.value(ref);
    return e ? e->stats : nullptr;
}

SessionStats *StatsCollector::stats(const QString &ref)
{
    if (Entry *e = m_entries.value(ref))
        return e->stats;
    for (const SessionInfo &s : m_registry.sessions()) {
        if (s.ref() != ref)
            continue;
        auto *e = new Entry;
        e->ref = ref;
        e->account = s.account;
        e->id = s.id;
        e->stats = new SessionStats(ref, this);
        m_entries.insert(ref, e);
        // Only the new entry: the others are as the last reconcile left them.
        update(*e, s);
        reschedule();
        return e->stats;
    }
    return nullptr;
}

void StatsCollector::setListInterest(const QStringList &refs)
{
    m_list = QSet<QString>(refs.begin(), refs.end());
    for (const QString &ref : refs)
        stats(ref);
    for (Entry *e : std::as_const(m_entries))
        updateStream(*e);
    reschedule();
}

void StatsCollector::addDetailInterest(const QString &ref)
{
    ++m_detail[ref];
    if (Entry *e = m_entries.value(ref); e || stats(ref)) {
        e = m_entries.value(ref);
        e->dueMs = std::min(e->dueMs, nowMs()); // an opened tab wants a point now
        updateStream(*e);
    }
    reschedule();
}

void StatsCollector::removeDetailInterest(const QString &ref)
{
    auto it = m_detail.find(ref);
    if (it == m_detail.end())
        return;
    if (--it.value() <= 0)
        m_detail.erase(it);
    if (Entry *e = m_entries.value(ref))
        updateStream(*e);
    reschedule();
}

void StatsCollector::update(Entry &e, const SessionInfo &listed)
{
    Provider *p = m_registry.existingProvider(e.account);
    const Capabilities caps = p ? p->capabilities() : Capabilities{};
    const QString name = p ? p->descriptor().displayName : listed.provider;
    e.stats->setSession(withDetail(listed, e.detail), caps, name);
    const bool running = listed.state == SessionState::Running;
    if (running && p && !e.detailAsked)
        askDetail(e);
    e.streamCapable = caps.testFlag(Capability::StatsStream);
    if (running != e.running) {
        e.running = running;
        e.backoffMs = 0;
        e.dueMs = nowMs();
        // Not sampled any more; the history stays (an OOM kill can be looked at after).
        if (!running)
            e.stats->setState(SessionStats::State::Stopped);
    }
    updateStream(e);
}

void StatsCollector::reconcile()
{
    QHash<QString, SessionInfo> listed;
    for (const SessionInfo &s : m_registry.sessions())
        listed.insert(s.ref(), s);
    QStringList gone;
    for (Entry *e : std::as_const(m_entries)) {
        const auto it = listed.constFind(e->ref);
        if (it == listed.constEnd()) {
            gone << e->ref;
            continue;
        }
        update(*e, *it);
    }
    for (const QString &ref : gone) {
        Entry *e = m_entries.take(ref);
        stopStream(*e);
        if (AccountQueue *q = m_queues.value(e->account)) {
            q->waiting.removeAll(ref);
            q->details.removeAll(ref);
            // A request in flight finishes into nothing: its answer finds no entry.
            q->inFlight -= (e->inFlight ? 1 : 0) + (e->detailSerial ? 1 : 0);
        }
        delete e->stats;
        delete e;
        Q_EMIT statsRemoved(ref);
    }
    reschedule();
    for (auto it = m_queues.cbegin(); it != m_queues.cend(); ++it)
        pump(it.key());
}

SessionInfo StatsCollector::withDetail(SessionInfo listed, const std::optional<SessionInfo> &detail)
{
    if (!detail)
        return listed;
    if (!listed.cpus)
        listed.cpus = detail->cpus;
    if (!listed.memoryBytes)
        listed.memoryBytes = detail->memoryBytes;
    if (listed.gpus == 0 && listed.gpuUuids.isEmpty()) {
        listed.gpus = detail->gpus;
        listed.gpuUuids = detail->gpuUuids;
    }
    return listed;
}

void StatsCollector::askDetail(Entry &e)
{
    // The CPU limit line and the GPU readings need what only info() tells on some
    // providers; one request per session, not per sample. It waits in the account's queue
    // like a sample: a list of hundreds of sessions must not send hundreds of requests at once.
    e.detailAsked = true;
    AccountQueue *&q = m_queues[e.account];
    if (!q)
        q = new AccountQueue;
    q->details << e.ref;
    // Pumped from the event loop: update() runs inside reconcile()'s walk over the entries.
    QMetaObject::invokeMethod(
        this, [this, account = e.account] { pump(account); }, Qt::QueuedConnection);
}

void StatsCollector::requestDetail(Entry &e, Provider *provider)
{
    AccountQueue *q = m_queues.value(e.account);
    ++q->inFlight;
    const quint64 serial = ++m_serial;
    e.detailSerial = serial;
    const QString ref = e.ref;
    auto answered = [this, ref, serial](const Result<SessionInfo> &r) {
        Entry *entry = m_entries.value(ref);
        if (!entry || entry->detailSerial != serial)
            return; // removed meanwhile (its slot given back then), or timed out
        entry->detailSerial = 0;
        if (AccountQueue *aq = m_queues.value(entry->account))
            --aq->inFlight;
        if (r) { // else the listing's facts stand
            entry->detail = r.value();
            entry->stats->setSession(withDetail(entry->stats->session(), entry->detail), entry->stats->capabilities(),
                                     entry->stats->providerName());
        }
        const QString account = entry->account;
        pump(account);
        reschedule();
    };
    QTimer::singleShot(m_options.requestTimeoutMs, this,
                       [answered] { answered(makeError(ErrorCode::Timeout, QStringLiteral("info() timed out"))); });
    provider->info(e.id, Callback<SessionInfo>(this, answered));
}

void StatsCollector::updateStream(Entry &e)
{
    const bool want = e.running && e.streamCapable && m_detail.value(e.ref) > 0 && e.backoffMs == 0;
    if (!want) {
        if (e.stream) {
            stopStream(e);
            if (e.running && e.stats->state() == SessionStats::State::Streaming)
                e.stats->setState(wanted(e) ? SessionStats::State::Polling : SessionStats::State::Idle);
        }
        return;
    }
    if (e.stream)
        return;
    Provider *p = m_registry.existingProvider(e.account);
    if (!p || !p->statistics())
        return;
    e.stream = p->statistics()->streamStats(e.id);
    if (!e.stream)
        return;
    const QString ref = e.ref;
    connect(e.stream.get(), &StatsStream::sample, this, [this, ref](const StatsSample &s) {
        Entry *entry = m_entries.value(ref);
        if (!entry)
            return;
        entry->backoffMs = 0;
        entry->stats->setState(SessionStats::State::Streaming);
        deliver(*entry, s);
    });
    connect(e.stream.get(), &StatsStream::errorOccurred, this, [this, ref](const Error &err) {
        Entry *entry = m_entries.value(ref);
        if (!entry)
            return;
        // Close it from the event loop, not from inside its own signal.
        QMetaObject::invokeMethod(
            this,
            [this, ref, err] {
                if (Entry *x = m_entries.value(ref))
                    fail(*x, err);
            },
            Qt::QueuedConnection);
    });
    e.stats->setState(SessionStats::State::Streaming);
    e.stream->start();
}

void StatsCollector::stopStream(Entry &e)
{
    if (!e.stream)
        return;
    auto stream = std::move(e.stream);
    stream->disconnect(this);
    stream->stop();
    stream.release()->deleteLater();
}

void StatsCollector::reschedule()
{
    qint64 next = std::numeric_limits<qint64>::max();
    const qint64 now = nowMs();
    for (Entry *e : std::as_const(m_entries)) {
        if (!e->running || e->queued || e->inFlight || e->stream || !wanted(*e))
            continue;
        next = std::min(next, e->dueMs);
    }
    if (next == std::numeric_limits<qint64>::max()) {
        m_timer.stop();
        return;
    }
    const int delay = int(std::clamp<qint64>(next - now, 0, 24 * 3600 * 1000LL));
    if (!m_timer.isActive() || m_timer.remainingTime() > delay)
        m_timer.start(delay);
}

void StatsCollector::sampleDue()
{
    const qint64 now = nowMs();
    QSet<QString> touched;
    for (Entry *e : std::as_const(m_entries)) {
        if (!e->running || e->queued || e->inFlight || !wanted(*e) || e->dueMs > now)
            continue;
        if (e->stream)
            continue;
        if (e->backoffMs > 0 && e->streamCapable && m_detail.value(e->ref) > 0) {
            // The back-off of a failed stream is over: try the stream again.
            e->backoffMs = 0;
            updateStream(*e);
            if (e->stream)
                continue;
        }
        enqueue(*e);
        touched.insert(e->account);
    }
    for (const QString &account : std::as_const(touched))
        pump(account);
    reschedule();
}

void StatsCollector::enqueue(Entry &e)
{
    AccountQueue *&q = m_queues[e.account];
    if (!q)
        q = new AccountQueue;
    e.queued = true;
    q->waiting << e.ref;
}

void StatsCollector::pump(const QString &account)
{
    AccountQueue *q = m_queues.value(account);
    if (!q)
        return;
    while (q->inFlight < m_options.maxInFlightPerAccount && !q->details.isEmpty()) {
        Entry *e = m_entries.value(q->details.takeFirst());
        if (!e || e->detailSerial)
            continue;
        Provider *p = m_registry.existingProvider(account);
        if (!p) {
            e->detailAsked = false; // asked again when the account is back
            continue;
        }
        requestDetail(*e, p);
    }
    while (q->inFlight < m_options.maxInFlightPerAccount && !q->waiting.isEmpty()) {
        Entry *e = m_entries.value(q->waiting.takeFirst());
        if (!e)
            continue;
        e->queued = false;
        if (!e->running || !wanted(*e) || e->stream)
            continue;
        Provider *p = m_registry.existingProvider(account);
        if (!p) {
            fail(*e, makeError(ErrorCode::Unavailable, tr("The account is not connected.")));
            continue;
        }
        sampleNow(*e, p);
    }
}

void StatsCollector::sampleNow(Entry &e, Provider *provider)
{
    AccountQueue *q = m_queues.value(e.account);
    ++q->inFlight;
    e.inFlight = true;
    const quint64 serial = ++m_serial;
    e.serial = serial;
    const QString ref = e.ref;
    auto answered = [this, ref, serial](const Result<StatsSample> &r) {
        Entry *entry = m_entries.value(ref);
        if (!entry || !entry->inFlight || entry->serial != serial)
            return; // removed meanwhile, or timed out and already counted
        entry->inFlight = false;
        if (AccountQueue *aq = m_queues.value(entry->account))
            --aq->inFlight;
        if (r) {
            entry->backoffMs = 0;
            if (!entry->stream)
                entry->stats->setState(SessionStats::State::Polling);
            entry->dueMs = nowMs() + periodFor(*entry);
            deliver(*entry, r.value());
        } else {
            fail(*entry, r.error());
        }
        const QString account = entry->account;
        pump(account);
        reschedule();
    };
    // A provider call that never answers must not hold one of its account's slots for ever:
    // past the timeout the request counts as failed and a late answer is dropped.
    QTimer::singleShot(m_options.requestTimeoutMs, this, [answered, seconds = m_options.requestTimeoutMs / 1000] {
        answered(
            makeError(ErrorCode::Timeout, tr("The provider did not answer within %n second(s).", nullptr, seconds)));
    });
    const Callback<StatsSample> done(this, answered);
    if (StatsFacet *stats = provider->statistics())
        return stats->stats(e.id, done);
    done.post(unsupportedError(provider->descriptor(), Capability::StatsCpu));
}

void StatsCollector::deliver(Entry &e, const StatsSample &sample)
{
    if (!m_gpu || (e.stats->session().gpus == 0 && e.stats->session().gpuUuids.isEmpty())) {
        e.stats->append(sample);
        return;
    }
    Provider *p = m_registry.existingProvider(e.account);
    const QString ref = e.ref;
    m_gpu(p, e.stats->session(), this, [this, ref, sample](QList<GpuReading> gpus) {
        Entry *entry = m_entries.value(ref);
        if (!entry)
            return;
        StatsSample s = sample;
        if (!gpus.isEmpty())
            s.gpus = std::move(gpus);
        entry->stats->append(s);
    });
}

void StatsCollector::fail(Entry &e, const Error &error)
{
    stopStream(e);
    e.backoffMs = e.backoffMs == 0 ? m_options.firstBackoffMs : std::min(e.backoffMs * 2, m_options.maxBackoffMs);
    e.dueMs = nowMs() + e.backoffMs;
    e.stats->setState(SessionStats::State::BackingOff, error, m_clock->currentDateTimeUtc().addMSecs(e.backoffMs));
    reschedule();
}

} // namespace sandbar::metrics
