#include "files/TransferQueue.h"

#include "files/RemotePaths.h"

#include <QCoreApplication>
#include <QDirIterator>
#include <QFileInfo>
#include <algorithm>
#include <cmath>

namespace sandbar::ui {

namespace {

// A folder into which the copy rules put the item under its own name.
QString asFolder(const QString &dir)
{
    return dir.endsWith(QLatin1Char('/')) ? dir : dir + QLatin1Char('/');
}

QString cleanLocal(QString path)
{
    while (path.size() > 1 && path.endsWith(QLatin1Char('/')))
        path.chop(1);
    return path;
}

qint64 localSize(const QFileInfo &info)
{
    if (!info.isDir())
        return info.size();
    qint64 sum = 0;
    QDirIterator it(info.filePath(), QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        sum += it.fileInfo().size();
    }
    return sum;
}

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbar::ui", text);
}

} // namespace

struct TransferQueue::Entry {
    Item item;
    bool incomingIsDir = false;
    PathStat existing;
    std::unique_ptr<TransferJob> job;
};

QString transferStateName(TransferQueue::State state)
{
    switch (state) {
    case TransferQueue::State::Queued: return tr("Queued");
    case TransferQueue::State::Running: return tr("Running");
    case TransferQueue::State::Done: return tr("Done");
    case TransferQueue::State::Failed: return tr("Failed");
    case TransferQueue::State::Skipped: return tr("Skipped");
    case TransferQueue::State::Cancelled: return tr("Cancelled");
    }
    return {};
}

TransferQueue::TransferQueue(Provider *provider, const QString &sessionId, QObject *parent)
    : QObject(parent)
    , m_provider(provider)
    , m_sessionId(sessionId)
{
    m_elapsed.start();
    m_clock = [this]() { return m_elapsed.elapsed(); };
}

TransferQueue::~TransferQueue()
{
    // A job still running is told to stop: its transport must not outlive the queue silently.
    for (auto &e : m_entries) {
        if (e->job) {
            e->job->disconnect(this);
            e->job->cancel();
        }
    }
}

void TransferQueue::setMaxConcurrent(int n)
{
    m_maxConcurrent = std::max(1, n);
    schedule();
}

void TransferQueue::setClock(Clock clock)
{
    m_clock = std::move(clock);
    m_samples.clear();
}

QString TransferQueue::candidateName(const QString &name, bool isDir, int n)
{
    // The extension stays last ("report (1).txt"); a leading dot is part of the name.
    const qsizetype dot = isDir ? -1 : name.lastIndexOf(QLatin1Char('.'));
    const QString suffix = QStringLiteral(" (%1)").arg(n);
    if (dot <= 0)
        return name + suffix;
    return name.left(dot) + suffix + name.mid(dot);
}

TransferQueue::Entry *TransferQueue::find(int id) const
{
    for (const auto &e : m_entries) {
        if (e->item.id == id)
            return e.get();
    }
    return nullptr;
}

int TransferQueue::add(Direction direction, const QString &source, const QString &destination)
{
    auto e = std::make_unique<Entry>();
    e->item.id = m_nextId++;
    e->item.direction = direction;
    e->item.source = source;
    e->item.destination = destination;
    const QString cleaned = direction == Direction::Upload ? cleanLocal(source) : source;
    e->item.name = cleaned.section(QLatin1Char('/'), -1, -1, QString::SectionSkipEmpty);
    if (e->item.name.isEmpty())
        e->item.name = cleaned;
    if (direction == Direction::Upload) {
        e->item.source = cleaned;
        const QFileInfo info(cleaned);
        e->incomingIsDir = info.isDir();
        e->item.totalBytes = info.exists() ? localSize(info) : -1;
    }
    const int id = e->item.id;
    m_entries.push_back(std::move(e));
    Q_EMIT itemAdded(id);
    Q_EMIT progressChanged();
    // Later, so that a caller adding a batch sees every itemAdded before the first start.
    QMetaObject::invokeMethod(this, &TransferQueue::schedule, Qt::QueuedConnection);
    return id;
}

int TransferQueue::enqueueUpload(const QString &localPath, const QString &remoteDir)
{
    return add(Direction::Upload, localPath, remoteDir);
}

int TransferQueue::enqueueDownload(const QString &remotePath, const QString &localDest)
{
    return add(Direction::Download, remotePath, localDest);
}

int TransferQueue::runningCount() const
{
    return int(std::count_if(m_entries.begin(), m_entries.end(),
                             [](const auto &e) { return e->item.state == State::Running; }));
}

void TransferQueue::schedule()
{
    // By index: a listener may add items while one starts (the vector may grow).
    for (size_t i = 0; i < m_entries.size(); ++i) {
        if (runningCount() >= m_maxConcurrent)
            return;
        if (m_entries[i]->item.state == State::Queued)
            begin(m_entries[i].get());
    }
}

void TransferQueue::begin(Entry *e)
{
    e->item.state = State::Running;
    noteBytes(0); // the speed's window starts here when the queue was idle
    Q_EMIT itemChanged(e->item.id);
    if (!m_provider)
        return finish(e, State::Failed, tr("The session's account is gone"));
    if (!files())
        return finish(e, State::Failed, tr("This session cannot copy files"));
    if (e->item.direction == Direction::Download) {
        e->item.target = e->item.destination;
        return runJob(e, files()->download(m_sessionId, e->item.source, e->item.destination));
    }
    if (!QFileInfo::exists(e->item.source))
        return finish(e, State::Failed, tr("%1 does not exist").arg(e->item.source));
    checkUpload(e);
}

void TransferQueue::checkUpload(Entry *e)
{
    const int id = e->item.id;
    const QString target = joinRemote(e->item.destination, e->item.name);
    e->item.target = target;
    files()->statPath(m_sessionId, target, Callback<PathStat>(this, [this, id](Result<PathStat> r) {
                          Entry *x = find(id);
                          if (!x || x->item.state != State::Running)
                              return;
                          if (!r)
                              return finish(x, State::Failed, r.message());
                          if (!r->exists)
                              return runJob(x, upload(x, asFolder(x->item.destination)));
                          x->existing = *r;
                          if (m_policy)
                              return applyChoice(x, *m_policy);
                          x->item.awaitingAnswer = true;
                          m_conflicts.push_back(id);
                          Q_EMIT itemChanged(id);
                          askNextConflict();
                      }));
}

void TransferQueue::askNextConflict()
{
    // One question at a time: an answer "for all" settles the ones waiting behind it.
    while (!m_asking && !m_conflicts.empty()) {
        Entry *e = find(m_conflicts.front());
        if (!e || !e->item.awaitingAnswer) {
            m_conflicts.pop_front();
            continue;
        }
        m_asking = true;
        Q_EMIT conflict(e->item.id, e->item.name, e->existing.isDir, e->incomingIsDir);
    }
}

void TransferQueue::answerConflict(int id, ConflictChoice choice, bool applyToAll)
{
    Entry *e = find(id);
    if (!e || !e->item.awaitingAnswer)
        return;
    m_conflicts.erase(std::remove(m_conflicts.begin(), m_conflicts.end(), id), m_conflicts.end());
    m_asking = false;
    e->item.awaitingAnswer = false;
    if (applyToAll)
        m_policy = choice;
    applyChoice(e, choice);
    if (applyToAll) {
        const std::deque<int> waiting = m_conflicts;
        m_conflicts.clear();
        for (int other : waiting) {
            if (Entry *o = find(other); o && o->item.awaitingAnswer) {
                o->item.awaitingAnswer = false;
                applyChoice(o, choice);
            }
        }
    }
    askNextConflict();
}

void TransferQueue::applyChoice(Entry *e, ConflictChoice choice)
{
    const int id = e->item.id;
    switch (choice) {
    case ConflictChoice::Skip: return finish(e, State::Skipped);
    case ConflictChoice::Rename: return tryRename(id, 1);
    case ConflictChoice::Overwrite: break;
    }
    FilesFacet *f = files();
    if (!f)
        return finish(e, State::Failed, tr("The session's account is gone"));
    // Same kind: the copy rules replace a file and merge a folder into the folder. A file
    // where a folder is (or the reverse) cannot be copied over, so it is removed first.
    if (e->existing.isDir == e->incomingIsDir) {
        Q_EMIT itemChanged(id);
        return runJob(e, upload(e, asFolder(e->item.destination)));
    }
    f->removePath(m_sessionId, e->item.target, Callback<void>(this, [this, id](VoidResult r) {
                      Entry *x = find(id);
                      if (!x || x->item.state != State::Running)
                          return;
                      if (!r)
                          return finish(x, State::Failed, r.message());
                      runJob(x, upload(x, asFolder(x->item.destination)));
                  }));
}

void TransferQueue::tryRename(int id, int n)
{
    constexpr int kMaxCandidates = 1000;
    Entry *e = find(id);
    if (!e || e->item.state != State::Running)
        return;
    if (!files())
        return finish(e, State::Failed, tr("The session's account is gone"));
    if (n > kMaxCandidates)
        return finish(e, State::Failed, tr("No free name for %1").arg(e->item.name));
    const QString candidate = joinRemote(e->item.destination, candidateName(e->item.name, e->incomingIsDir, n));
    files()->statPath(m_sessionId, candidate, Callback<PathStat>(this, [this, id, n, candidate](Result<PathStat> r) {
                          Entry *x = find(id);
                          if (!x || x->item.state != State::Running)
                              return;
                          if (!r)
                              return finish(x, State::Failed, r.message());
                          if (r->exists)
                              return tryRename(id, n + 1);
                          x->item.target = candidate;
                          Q_EMIT itemChanged(id);
                          // The parent exists and the name does not: the copy takes that name.
                          runJob(x, upload(x, candidate));
                      }));
}

FilesFacet *TransferQueue::files() const
{
    return m_provider ? m_provider->files() : nullptr;
}

std::unique_ptr<TransferJob> TransferQueue::upload(const Entry *e, const QString &dest) const
{
    FilesFacet *f = files();
    return f ? f->upload(m_sessionId, e->item.source, dest) : nullptr;
}

void TransferQueue::runJob(Entry *e, std::unique_ptr<TransferJob> job)
{
    if (!job)
        return finish(e, State::Failed, tr("This session cannot copy files"));
    const int id = e->item.id;
    e->job = std::move(job);
    connect(e->job.get(), &TransferJob::progress, this, [this, id](qint64 done, qint64 total) {
        Entry *x = find(id);
        if (!x || x->item.state != State::Running)
            return;
        if (done > x->item.doneBytes)
            noteBytes(done - x->item.doneBytes);
        x->item.doneBytes = done;
        if (total >= 0)
            x->item.totalBytes = total;
        Q_EMIT itemChanged(id);
        Q_EMIT progressChanged();
    });
    connect(e->job.get(), &TransferJob::finished, this, [this, id](const VoidResult &r) {
        Entry *x = find(id);
        if (!x || x->item.state != State::Running)
            return;
        if (!r)
            return finish(x, r.code() == ErrorCode::Cancelled ? State::Cancelled : State::Failed, r.message());
        if (x->item.totalBytes < 0)
            x->item.totalBytes = x->item.doneBytes;
        if (x->item.doneBytes < x->item.totalBytes) {
            noteBytes(x->item.totalBytes - x->item.doneBytes);
            x->item.doneBytes = x->item.totalBytes;
        }
        finish(x, State::Done);
    });
    e->job->start();
}

void TransferQueue::finish(Entry *e, State state, const QString &error)
{
    const int id = e->item.id;
    e->item.state = state;
    e->item.error = error;
    if (e->item.awaitingAnswer) {
        e->item.awaitingAnswer = false;
        if (!m_conflicts.empty() && m_conflicts.front() == id)
            m_asking = false;
        m_conflicts.erase(std::remove(m_conflicts.begin(), m_conflicts.end(), id), m_conflicts.end());
    }
    if (e->job) {
        // Finished or told to stop: either way nothing it says later matters, and it may be
        // inside its own signal now, so it goes when control returns to the loop.
        e->job->disconnect(this);
        if (state == State::Cancelled)
            e->job->cancel();
        e->job.release()->deleteLater();
    }
    Q_EMIT itemChanged(id);
    Q_EMIT itemFinished(id);
    Q_EMIT progressChanged();
    askNextConflict();
    schedule();
    if (isIdle()) {
        m_policy.reset();
        Q_EMIT idle();
    }
}

void TransferQueue::cancel(int id)
{
    Entry *e = find(id);
    if (!e || e->item.isFinished())
        return;
    finish(e, State::Cancelled, tr("Cancelled"));
}

void TransferQueue::cancelAll()
{
    // Queued ones first, so that cancelling a running one does not start the next.
    for (const auto &e : m_entries) {
        if (e->item.state == State::Queued) {
            e->item.state = State::Cancelled;
            e->item.error = tr("Cancelled");
            Q_EMIT itemChanged(e->item.id);
            Q_EMIT itemFinished(e->item.id);
        }
    }
    QList<int> running;
    for (const auto &e : m_entries) {
        if (e->item.state == State::Running)
            running << e->item.id;
    }
    for (int id : running)
        cancel(id);
    Q_EMIT progressChanged();
    if (running.isEmpty() && isIdle()) {
        m_policy.reset();
        Q_EMIT idle();
    }
}

void TransferQueue::clearFinished()
{
    QList<int> gone;
    for (auto it = m_entries.begin(); it != m_entries.end();) {
        if ((*it)->item.isFinished()) {
            gone << (*it)->item.id;
            it = m_entries.erase(it);
        } else {
            ++it;
        }
    }
    for (int id : gone)
        Q_EMIT itemRemoved(id);
    Q_EMIT progressChanged();
}

QList<TransferQueue::Item> TransferQueue::items() const
{
    QList<Item> out;
    for (const auto &e : m_entries)
        out << e->item;
    return out;
}

std::optional<TransferQueue::Item> TransferQueue::item(int id) const
{
    if (Entry *e = find(id))
        return e->item;
    return std::nullopt;
}

bool TransferQueue::isIdle() const
{
    return std::none_of(m_entries.begin(), m_entries.end(), [](const auto &e) { return !e->item.isFinished(); });
}

namespace {
// Skipped, cancelled and failed items leave the overall figures: what remains is what moves.
bool counts(const TransferQueue::Item &item)
{
    return item.state == TransferQueue::State::Queued || item.state == TransferQueue::State::Running ||
           item.state == TransferQueue::State::Done;
}
} // namespace

qint64 TransferQueue::doneBytes() const
{
    qint64 sum = 0;
    for (const auto &e : m_entries) {
        if (counts(e->item))
            sum += e->item.doneBytes;
    }
    return sum;
}

qint64 TransferQueue::totalBytes() const
{
    qint64 sum = 0;
    for (const auto &e : m_entries) {
        if (!counts(e->item))
            continue;
        if (e->item.totalBytes < 0)
            return -1;
        sum += e->item.totalBytes;
    }
    return sum;
}

void TransferQueue::noteBytes(qint64 delta)
{
    m_moved += delta;
    const qint64 now = m_clock();
    m_samples.emplace_back(now, m_moved);
    // Keep one sample at or before the window's start: the base the average is taken from.
    while (m_samples.size() > 2 && m_samples[1].first <= now - kSpeedWindowMs)
        m_samples.pop_front();
}

double TransferQueue::bytesPerSecond() const
{
    if (m_samples.empty() || isIdle())
        return 0.0;
    const qint64 now = m_clock();
    const qint64 start = std::max(now - kSpeedWindowMs, m_samples.front().first);
    // What had moved by `start` (the samples are a step function of time).
    qint64 base = m_samples.front().second;
    for (const auto &[t, moved] : m_samples) {
        if (t > start)
            break;
        base = moved;
    }
    const qint64 span = now - start;
    constexpr qint64 kMinSpanMs = 200; // less says little but noise
    if (span < kMinSpanMs)
        return 0.0;
    return double(m_moved - base) * 1000.0 / double(span);
}

qint64 TransferQueue::secondsLeft() const
{
    const double speed = bytesPerSecond();
    const qint64 total = totalBytes();
    if (speed <= 0.0 || total < 0)
        return -1;
    return qint64(std::ceil(double(std::max<qint64>(0, total - doneBytes())) / speed));
}

} // namespace sandbar::ui
