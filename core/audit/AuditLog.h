#pragma once

#include "audit/SqliteFile.h"
#include "common/Result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <optional>

namespace sandbar::audit {

// Every action Sandbar takes on a provider. The names are what the database and
// `sandbarctl audit --json` carry; they never change once released.
enum class Action {
    AccountAdded,
    AccountRemoved,
    SessionCreated,
    SessionStopped,
    SessionKilled,
    SessionRemoved,
    SessionPaused,
    SessionResumed,
    SessionTtlChanged,
    ExecRun,
    PtyOpened,
    FileUploaded,
    FileDownloaded,
    BudgetStop,
    SessionAdopted,
    SessionArchived,
    AgentCall,              // one MCP tool call by an agent (detail: agentCallDetail)
    FileRemoved,            // the Files tab's delete (detail: fileDetail)
    FolderCreated,          // the Files tab's new folder (detail: fileDetail)
    SnapshotCreated,        // detail: {snapshot, comment}
    SnapshotRestored,       // detail: {snapshot}
    SessionForked,          // detail: {fork: the new session's id}
    FileMoved,              // the Files tab's rename (detail: moveDetail)
    FileModeChanged,        // the Files tab's permissions (detail: modeDetail)
    SessionSettingsChanged, // detail: the changed options (sanitizeDetail)
    CommandStarted,         // a command left running (detail: execDetail and its id)
    CommandSignalled,       // detail: {command, signal}
    SessionLabelsChanged,   // detail: {labels: the person's keys afterwards} (values may be private)
};

QString actionName(Action action);
std::optional<Action> actionFromName(const QString &name);
QList<Action> allActions();

struct AuditEntry {
    qint64 id = 0;  // set by the log
    QDateTime time; // UTC, ms; now when left invalid
    QString osUser; // the current OS user when left empty
    QString host;   // this machine when left empty
    QString account;
    QString provider;
    QString sessionId;
    QString action;     // actionName(); free text is refused
    QJsonObject detail; // from Sanitizer.h's helpers; append() sanitizes it again
    bool ok = true;
    QString errorCode; // errorCodeName() when !ok
    QString errorMessage;

    void setOutcome(const VoidResult &r);
    void setError(const Error &e);
};

// Builds an entry for action; detail must come from Sanitizer.h's helpers.
AuditEntry makeEntry(Action action, const QString &account, const QString &provider, const QString &sessionId = {},
                     const QJsonObject &detail = {});

struct AuditQuery {
    std::optional<QDateTime> since; // inclusive
    QString account;
    QString sessionId;
    QString action;
    QString text;  // substring of the detail, account, session, action or error
    int limit = 0; // newest N (still returned oldest first); 0 = all
    // Later additions go last: callers build this positionally.
    std::optional<QDateTime> until; // exclusive, so consecutive ranges never share a row
    QStringList actions;            // any of these; empty = every action (ANDed with action)
    std::optional<bool> ok;         // only successes (true) or only failures (false)
};

// What a reader on another thread gets back from readAuditFile().
struct AuditPage {
    QList<AuditEntry> entries; // as AuditLog::query() returns them
    qint64 total = 0;          // rows matching the filter, limit ignored
    QStringList accounts;      // distinct accounts in the whole log, sorted, empty ones left out
};

// Runs q against the log file at path on a connection of its own, opened and closed on
// the calling thread: AuditLog's connection belongs to the thread that made it, and a
// view must not query on the UI thread. Reads rows already written, not those still
// queued in some AuditLog. A file that does not exist yet reads as empty (and is not
// created).
Result<AuditPage> readAuditFile(const QString &path, const AuditQuery &q);

// The append-only audit log, <configDir>/audit.sqlite, shared by the GUI and sandbarctl
// (WAL mode and a busy timeout let both write at once). Appends are queued and written
// in one transaction by a short timer, so the UI thread only pays for one small write
// now and then; flush() and the destructor write what is queued. There is no API to
// edit or delete a row.
class AuditLog : public QObject
{
    Q_OBJECT
public:
    static QString fileName() { return QStringLiteral("audit.sqlite"); }

    // Opens (or creates) <configDir>/audit.sqlite. A file SQLite cannot read is moved
    // aside and a fresh one started: openWarning() then says so, for the caller to show.
    explicit AuditLog(const QString &configDir, QObject *parent = nullptr);
    ~AuditLog() override;

    bool isOpen() const { return m_file.isOpen(); }
    const QString &path() const { return m_path; }
    const QString &openWarning() const { return m_file.warning(); }
    const Error &openError() const { return m_openError; }

    // 0 writes every append at once (tests, sandbarctl); the default batches for 200 ms.
    void setFlushDelay(int ms);

    // Queues entry, filling in time, OS user and host. Validates the action name. With
    // a flush delay of 0 it also writes; a write error then leaves the row queued for
    // the next append, flush() or the destructor, never dropped. Use from the thread
    // that made the log (QtSql connections are per thread).
    VoidResult append(AuditEntry entry);
    // Writes what is queued now. On failure (the other process holds the lock for
    // longer than the busy timeout) the rows stay queued for the next try.
    VoidResult flush();
    int pendingCount() const { return int(m_pending.size()); }

    Result<QList<AuditEntry>> query(const AuditQuery &q);

Q_SIGNALS:
    // A queued flush failed; rows are kept and retried. Once per run of failures.
    void writeFailed(const QString &message);
    // count rows reached the file (after the transaction committed), for live views.
    // Only this object's writes: another process's rows show on the next query.
    void entriesWritten(int count);

private:
    VoidResult ensureOpen();

    QString m_path;
    SqliteFile m_file;
    Error m_openError;
    QList<AuditEntry> m_pending;
    QTimer m_timer;
    bool m_failing = false;
};

QString currentOsUser();
QJsonObject entryToJson(const AuditEntry &e);
// One line for a table cell: the command, or the path and size, or the detail as
// compact JSON; a failure's message follows.
QString entrySummary(const AuditEntry &e);

} // namespace sandbar::audit
