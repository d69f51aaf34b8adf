#pragma once

#include "providers/Provider.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace sandbar::ui {

// The Files tab's uploads and downloads for one session, run one or two at a time. Widget
// free (the panel and the conflict dialog listen to it) so that it is testable without a
// screen. A failed item keeps its error and the others carry on.
class TransferQueue : public QObject
{
    Q_OBJECT
public:
    enum class Direction { Upload, Download };
    enum class State { Queued, Running, Done, Failed, Skipped, Cancelled };
    enum class ConflictChoice { Overwrite, Skip, Rename };

    struct Item {
        int id = 0;
        Direction direction = Direction::Upload;
        QString source;      // local path (upload) or remote path (download)
        QString destination; // remote folder (upload) or local path (download)
        QString name;        // what the list shows
        QString target;      // where it landed, once known (a rename changes the name)
        State state = State::Queued;
        bool awaitingAnswer = false; // a name conflict waits for conflictAnswered()
        qint64 doneBytes = 0;
        qint64 totalBytes = -1; // -1: unknown
        QString error;
        bool isFinished() const { return state != State::Queued && state != State::Running; }
    };

    // A monotonic millisecond clock; tests replace it to check the speed math.
    using Clock = std::function<qint64()>;

    TransferQueue(Provider *provider, const QString &sessionId, QObject *parent = nullptr);
    ~TransferQueue() override;

    void setSessionId(const QString &sessionId) { m_sessionId = sessionId; }
    QString sessionId() const { return m_sessionId; }
    void setMaxConcurrent(int n);
    int maxConcurrent() const { return m_maxConcurrent; }
    void setClock(Clock clock);
    // How far back the speed looks (ms).
    static constexpr qint64 kSpeedWindowMs = 3000;

    // An upload puts localPath into the existing remote folder remoteDir under its own name
    // (asking about a name already there); a download follows the copy rules for localDest.
    int enqueueUpload(const QString &localPath, const QString &remoteDir);
    int enqueueDownload(const QString &remotePath, const QString &localDest);

    void cancel(int id);
    void cancelAll();
    void clearFinished();
    // The answer to conflict(id, ...). applyToAll answers every later conflict the same way
    // until the queue runs dry.
    void answerConflict(int id, ConflictChoice choice, bool applyToAll);

    QList<Item> items() const;
    std::optional<Item> item(int id) const;
    bool isIdle() const; // nothing queued or running
    qint64 doneBytes() const;
    qint64 totalBytes() const; // -1 while some item's size is unknown
    double bytesPerSecond() const;
    qint64 secondsLeft() const; // -1 unknown

    // "name (1).ext" for n = 1: the name Rename tries as its nth candidate.
    static QString candidateName(const QString &name, bool isDir, int n);

Q_SIGNALS:
    void itemAdded(int id);
    void itemChanged(int id);
    void itemRemoved(int id);
    void progressChanged();
    // An upload's name exists in its folder; answer with answerConflict().
    void conflict(int id, const QString &name, bool existingIsDir, bool incomingIsDir);
    void itemFinished(int id);
    void idle();

private:
    struct Entry;
    Entry *find(int id) const;
    int add(Direction direction, const QString &source, const QString &destination);
    void schedule();
    void begin(Entry *e);
    void checkUpload(Entry *e);
    void askNextConflict();
    void applyChoice(Entry *e, ConflictChoice choice);
    void tryRename(int id, int n);
    void runJob(Entry *e, std::unique_ptr<TransferJob> job);
    // The provider's files facet; null once the account is gone or where it has none.
    FilesFacet *files() const;
    std::unique_ptr<TransferJob> upload(const Entry *e, const QString &dest) const;
    void finish(Entry *e, State state, const QString &error = {});
    void noteBytes(qint64 delta);
    int runningCount() const;

    QPointer<Provider> m_provider;
    QString m_sessionId;
    int m_maxConcurrent = 2;
    int m_nextId = 1;
    std::vector<std::unique_ptr<Entry>> m_entries;
    std::deque<int> m_conflicts; // items waiting for an answer, the first one asked
    bool m_asking = false;
    std::optional<ConflictChoice> m_policy; // "for all remaining"
    Clock m_clock;
    QElapsedTimer m_elapsed;
    qint64 m_moved = 0;                              // bytes moved since the queue was made
    std::deque<std::pair<qint64, qint64>> m_samples; // (ms, m_moved)
};

QString transferStateName(TransferQueue::State state);

} // namespace sandbar::ui
