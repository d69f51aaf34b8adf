#include "audit/AuditLog.h"

#include "audit/Sanitizer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QSysInfo>
#include <QUrl>
#include <algorithm>
#include <atomic>

#ifdef Q_OS_UNIX
#include <pwd.h>
#include <unistd.h>
#endif

namespace sandbar::audit {

namespace {

constexpr int DefaultFlushDelayMs = 200;
// Short while the UI is running (a writer in the other process holds the lock for a
// few milliseconds); long on the way out, where losing a row would be worse.
constexpr int RunningBusyTimeoutMs = 250;
constexpr int ClosingBusyTimeoutMs = 5000;

struct ActionName {
    Action action;
    const char *name;
};

constexpr ActionName ActionNames[] = {
    {Action::AccountAdded, "account.added"},
    {Action::AccountRemoved, "account.removed"},
    {Action::SessionCreated, "session.created"},
    {Action::SessionStopped, "session.stopped"},
    {Action::SessionKilled, "session.killed"},
    {Action::SessionRemoved, "session.removed"},
    {Action::SessionPaused, "session.paused"},
    {Action::SessionResumed, "session.resumed"},
    {Action::SessionTtlChanged, "session.ttl"},
    {Action::ExecRun, "exec"},
    {Action::PtyOpened, "pty.opened"},
    {Action::FileUploaded, "file.uploaded"},
    {Action::FileDownloaded, "file.downloaded"},
    {Action::BudgetStop, "budget.stop"},
    {Action::SessionAdopted, "session.adopted"},
    {Action::SessionArchived, "session.archived"},
    {Action::AgentCall, "agent.call"},
    {Action::FileRemoved, "file.removed"},
    {Action::FolderCreated, "folder.created"},
    {Action::SnapshotCreated, "snapshot.created"},
    {Action::SnapshotRestored, "snapshot.restored"},
    {Action::SessionForked, "session.forked"},
    {Action::FileMoved, "file.moved"},
    {Action::FileModeChanged, "file.mode"},
    {Action::SessionSettingsChanged, "session.settings"},
    {Action::CommandStarted, "command.started"},
    {Action::CommandSignalled, "command.signalled"},
    {Action::SessionLabelsChanged, "session.labels"},
};

QStringList schema()
{
    return {
        QStringLiteral("CREATE TABLE IF NOT EXISTS audit ("
                       "id INTEGER PRIMARY KEY AUTOINCREMENT, time_ms INTEGER NOT NULL, os_user TEXT, host TEXT, "
                       "account TEXT, provider TEXT, session TEXT, action TEXT NOT NULL, detail TEXT, "
                       "ok INTEGER NOT NULL, error_code TEXT, error_message TEXT)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS audit_time ON audit(time_ms)"),
        // Append-only in the file itself, not only in this API.
        QStringLiteral("CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit "
                       "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"),
        QStringLiteral("CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit "
                       "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"),
    };
}

Error queryError(const QSqlQuery &q)
{
    return makeError(ErrorCode::Unavailable,
                     QCoreApplication::translate("sandbar", "Audit log: %1").arg(q.lastError().text()));
}

// The WHERE clause (with its leading " WHERE ", or empty) and its bound values.
QString whereClause(const AuditQuery &filter, QVariantList &binds)
{
    QStringList where;
    if (filter.since) {
        where << QStringLiteral("time_ms >= ?");
        binds << filter.since->toMSecsSinceEpoch();
    }
    if (filter.until) {
        where << QStringLiteral("time_ms < ?");
        binds << filter.until->toMSecsSinceEpoch();
    }
    const auto eq = [&](const char *col, const QString &v) {
        if (!v.isEmpty()) {
            where << QLatin1String(col) + QStringLiteral(" = ?");
            binds << v;
        }
    };
    eq("account", filter.account);
    eq("session", filter.sessionId);
    eq("action", filter.action);
    if (!filter.actions.isEmpty()) {
        QStringList marks;
        for (const QString &a : filter.actions) {
            marks << QStringLiteral("?");
            binds << a;
        }
        where << QStringLiteral("action IN (%1)").arg(marks.join(QLatin1Char(',')));
    }
    if (filter.ok)
        where << (*filter.ok ? QStringLiteral("ok <> 0") : QStringLiteral("ok = 0"));
    if (!filter.text.isEmpty()) {
        where << QStringLiteral(
            "instr(lower(coalesce(detail,'') || ' ' || coalesce(account,'') || ' ' || "
            "coalesce(session,'') || ' ' || action || ' ' || coalesce(error_message,'')), lower(?)) > 0");
        binds << filter.text;
    }
    return where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
}

Result<QList<AuditEntry>> runQuery(QSqlDatabase &db, const AuditQuery &filter)
{
    QVariantList binds;
    QString sql = QStringLiteral("SELECT id, time_ms, os_user, host, account, provider, session, action, detail, ok, "
                                 "error_code, error_message FROM audit") +
                  whereClause(filter, binds) + QStringLiteral(" ORDER BY time_ms DESC, id DESC");
    if (filter.limit > 0)
        sql += QStringLiteral(" LIMIT %1").arg(filter.limit);
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(sql);
    for (const auto &b : std::as_const(binds))
        q.addBindValue(b);
    if (!q.exec())
        return queryError(q);
    QList<AuditEntry> out;
    while (q.next()) {
        AuditEntry e;
        e.id = q.value(0).toLongLong();
        e.time = QDateTime::fromMSecsSinceEpoch(q.value(1).toLongLong(), Qt::UTC);
        e.osUser = q.value(2).toString();
        e.host = q.value(3).toString();
        e.account = q.value(4).toString();
        e.provider = q.value(5).toString();
        e.sessionId = q.value(6).toString();
        e.action = q.value(7).toString();
        e.detail = QJsonDocument::fromJson(q.value(8).toString().toUtf8()).object();
        e.ok = q.value(9).toInt() != 0;
        e.errorCode = q.value(10).toString();
        e.errorMessage = q.value(11).toString();
        out << std::move(e);
    }
    std::reverse(out.begin(), out.end()); // newest last
    return out;
}

Result<qint64> countRows(QSqlDatabase &db, const AuditQuery &filter)
{
    QVariantList binds;
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT count(*) FROM audit") + whereClause(filter, binds));
    for (const auto &b : std::as_const(binds))
        q.addBindValue(b);
    if (!q.exec() || !q.next())
        return queryError(q);
    return q.value(0).toLongLong();
}

Result<QStringList> distinctAccounts(QSqlDatabase &db)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT DISTINCT account FROM audit WHERE coalesce(account,'') <> '' ORDER BY account")))
        return queryError(q);
    QStringList out;
    while (q.next())
        out << q.value(0).toString();
    return out;
}

} // namespace

QString actionName(Action action)
{
    for (const auto &a : ActionNames) {
        if (a.action == action)
            return QLatin1String(a.name);
    }
    return {};
}

std::optional<Action> actionFromName(const QString &name)
{
    for (const auto &a : ActionNames) {
        if (name == QLatin1String(a.name))
            return a.action;
    }
    return std::nullopt;
}

QList<Action> allActions()
{
    QList<Action> out;
    for (const auto &a : ActionNames)
        out << a.action;
    return out;
}

void AuditEntry::setOutcome(const VoidResult &r)
{
    if (r.ok()) {
        ok = true;
        errorCode.clear();
        errorMessage.clear();
    } else {
        setError(r.error());
    }
}

void AuditEntry::setError(const Error &e)
{
    ok = false;
    errorCode = errorCodeName(e.code);
    errorMessage = e.message;
}

AuditEntry makeEntry(Action action, const QString &account, const QString &provider, const QString &sessionId,
                     const QJsonObject &detail)
{
    AuditEntry e;
    e.action = actionName(action);
    e.account = account;
    e.provider = provider;
    e.sessionId = sessionId;
    e.detail = detail;
    return e;
}

QString currentOsUser()
{
    QString user = qEnvironmentVariable("USER");
    if (user.isEmpty())
        user = qEnvironmentVariable("USERNAME");
#ifdef Q_OS_UNIX
    if (user.isEmpty()) {
        if (const passwd *pw = ::getpwuid(::getuid()))
            user = QString::fromLocal8Bit(pw->pw_name);
    }
#endif
    return user;
}

QJsonObject entryToJson(const AuditEntry &e)
{
    QJsonObject o;
    o[QStringLiteral("id")] = double(e.id);
    o[QStringLiteral("time")] = e.time.toUTC().toString(Qt::ISODateWithMs);
    o[QStringLiteral("os_user")] = e.osUser;
    o[QStringLiteral("host")] = e.host;
    o[QStringLiteral("account")] = e.account;
    o[QStringLiteral("provider")] = e.provider;
    o[QStringLiteral("session")] = e.sessionId;
    o[QStringLiteral("action")] = e.action;
    o[QStringLiteral("detail")] = e.detail;
    o[QStringLiteral("outcome")] = e.ok ? QStringLiteral("ok") : QStringLiteral("error");
    if (!e.ok) {
        o[QStringLiteral("error_code")] = e.errorCode;
        o[QStringLiteral("error_message")] = e.errorMessage;
    }
    return o;
}

QString entrySummary(const AuditEntry &e)
{
    const QJsonObject &d = e.detail;
    QString text;
    if (d.contains(QStringLiteral("command"))) {
        text = d.value(QStringLiteral("command")).toString();
    } else if (d.contains(QStringLiteral("path"))) {
        text = d.value(QStringLiteral("path")).toString();
        if (d.contains(QStringLiteral("size")))
            text += QStringLiteral(" (%1 bytes)").arg(qint64(d.value(QStringLiteral("size")).toDouble()));
    } else if (!d.isEmpty()) {
        text = QString::fromUtf8(QJsonDocument(d).toJson(QJsonDocument::Compact));
    }
    if (!e.ok && !e.errorMessage.isEmpty())
        text = text.isEmpty() ? e.errorMessage : text + QStringLiteral(" -- ") + e.errorMessage;
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text;
}

AuditLog::AuditLog(const QString &configDir, QObject *parent)
    : QObject(parent)
    , m_path(QDir(configDir).filePath(fileName()))
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(DefaultFlushDelayMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (auto r = flush(); !r.ok()) {
            m_timer.start(); // keep the rows; try again a moment later
            if (!m_failing)  // once per streak, not every retry
                Q_EMIT writeFailed(r.message());
            m_failing = true;
        } else {
            m_failing = false;
        }
    });
    if (auto *app = QCoreApplication::instance())
        connect(app, &QCoreApplication::aboutToQuit, this, [this] { (void)flush(); });
    if (auto r = m_file.open(m_path, schema(), RunningBusyTimeoutMs); !r.ok())
        m_openError = r.error();
}

AuditLog::~AuditLog()
{
    if (m_pending.isEmpty())
        return;
    if (m_file.isOpen())
        (void)m_file.setBusyTimeout(ClosingBusyTimeoutMs);
    if (auto r = flush(); !r.ok())
        qWarning("audit log: %d rows could not be written: %s", int(m_pending.size()), qPrintable(r.message()));
}

VoidResult AuditLog::ensureOpen()
{
    if (m_file.isOpen())
        return {};
    // The first open can lose a race with the other process creating the same file, or
    // meet a full disk; each later call tries again rather than giving up for the run.
    if (auto r = m_file.open(m_path, schema(), RunningBusyTimeoutMs); !r.ok()) {
        m_openError = r.error();
        return r;
    }
    return {};
}

void AuditLog::setFlushDelay(int ms)
{
    m_timer.setInterval(std::max(0, ms));
}

VoidResult AuditLog::append(AuditEntry entry)
{
    if (!actionFromName(entry.action))
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("unknown audit action '%1'").arg(entry.action));
    if (!entry.time.isValid())
        entry.time = QDateTime::currentDateTimeUtc();
    entry.time = entry.time.toUTC();
    if (entry.osUser.isEmpty())
        entry.osUser = currentOsUser();
    if (entry.host.isEmpty())
        entry.host = QSysInfo::machineHostName();
    // Details should come from Sanitizer.h already; sanitizing again is idempotent and
    // keeps a careless caller's secret out of the file. An engine's error may echo the
    // command it was given.
    entry.detail = sanitizeDetail(entry.detail.toVariantMap());
    entry.errorMessage = redactCommandLine(entry.errorMessage);
    m_pending << std::move(entry);
    if (m_timer.interval() == 0)
        return flush();
    if (!m_timer.isActive())
        m_timer.start();
    return {};
}

VoidResult AuditLog::flush()
{
    m_timer.stop();
    if (m_pending.isEmpty())
        return {};
    if (auto o = ensureOpen(); !o.ok())
        return o.error();
    QSqlDatabase &db = m_file.db();
    if (!db.transaction())
        return makeError(ErrorCode::Unavailable, db.lastError().text());
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO audit (time_ms, os_user, host, account, provider, session, action, detail, "
                             "ok, error_code, error_message) VALUES (?,?,?,?,?,?,?,?,?,?,?)"));
    for (const AuditEntry &e : std::as_const(m_pending)) {
        q.addBindValue(e.time.toMSecsSinceEpoch());
        q.addBindValue(e.osUser);
        q.addBindValue(e.host);
        q.addBindValue(e.account);
        q.addBindValue(e.provider);
        q.addBindValue(e.sessionId);
        q.addBindValue(e.action);
        q.addBindValue(QString::fromUtf8(QJsonDocument(e.detail).toJson(QJsonDocument::Compact)));
        q.addBindValue(e.ok ? 1 : 0);
        q.addBindValue(e.errorCode);
        q.addBindValue(e.errorMessage);
        if (!q.exec()) {
            const Error err = queryError(q);
            q.finish();
            db.rollback();
            return err;
        }
    }
    q.finish();
    if (!db.commit()) {
        const Error err = makeError(ErrorCode::Unavailable, db.lastError().text());
        db.rollback();
        return err;
    }
    const int written = int(m_pending.size());
    m_pending.clear();
    Q_EMIT entriesWritten(written);
    return {};
}

Result<QList<AuditEntry>> AuditLog::query(const AuditQuery &filter)
{
    if (auto o = ensureOpen(); !o.ok())
        return o.error();
    if (auto r = flush(); !r.ok())
        return r.error();
    return runQuery(m_file.db(), filter);
}

Result<AuditPage> readAuditFile(const QString &path, const AuditQuery &filter)
{
    if (!QFileInfo::exists(path))
        return AuditPage{};
    static std::atomic<int> counter{0};
    const QString name = QStringLiteral("sandbar-audit-reader-%1").arg(++counter);
    Result<AuditPage> out = AuditPage{};
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        // A writer (this process's flush or sandbarctl) holds the lock for milliseconds;
        // the reader is off the UI thread, so waiting a while costs nothing visible.
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(ClosingBusyTimeoutMs));
        if (!QFileInfo(QFileInfo(path).absolutePath()).isWritable()) {
            // A read-only folder leaves SQLite no room for its -shm file: read the file as
            // it is (nobody can write it there meanwhile).
            db.setDatabaseName(QStringLiteral("file:") + QUrl::fromLocalFile(path).path(QUrl::FullyEncoded) +
                               QStringLiteral("?immutable=1"));
            db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI"));
        }
        if (!db.open()) {
            out = makeError(ErrorCode::Unavailable,
                            QCoreApplication::translate("sandbar", "Audit log: %1").arg(db.lastError().text()));
        } else {
            // One read transaction, so the count, the rows and the accounts agree even
            // while another connection appends.
            (void)db.transaction();
            auto rows = runQuery(db, filter);
            // Fewer rows than the limit are all there are: no second scan to count them.
            const bool complete = rows.ok() && (filter.limit <= 0 || rows->size() < filter.limit);
            auto total = complete ? Result<qint64>(qint64(rows->size())) : countRows(db, filter);
            auto accounts = distinctAccounts(db);
            db.rollback();
            if (!rows.ok())
                out = rows.error();
            else if (!total.ok())
                out = total.error();
            else if (!accounts.ok())
                out = accounts.error();
            else
                out = AuditPage{std::move(rows.value()), total.value(), std::move(accounts.value())};
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return out;
}

} // namespace sandbar::audit
