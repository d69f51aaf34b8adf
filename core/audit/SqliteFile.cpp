#include "audit/SqliteFile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <atomic>

namespace sandbar::audit {

namespace {

// Above this size a full quick_check would hold up the first window noticeably; the
// header and schema checks still catch garbage and foreign files.
constexpr qint64 QuickCheckLimitBytes = 64LL * 1024 * 1024;

QString nextConnectionName()
{
    static std::atomic<int> counter{0};
    return QStringLiteral("sandbar-sqlite-%1").arg(++counter);
}

// SQLITE_CORRUPT and SQLITE_NOTADB (primary codes; extended ones add high bits). Only
// these mean the file itself is bad: a busy lock, a full disk or an I/O error must
// never push a healthy log aside.
bool isCorrupt(const QSqlError &e)
{
    bool ok = false;
    const int code = e.nativeErrorCode().toInt(&ok) & 0xff;
    return ok && (code == 11 || code == 26);
}

// Internal: the file is bad (moved aside); Unavailable: try again later.
Error sqlError(const QString &what, const QSqlError &e)
{
    return makeError(isCorrupt(e) ? ErrorCode::Internal : ErrorCode::Unavailable,
                     QStringLiteral("%1: %2").arg(what, e.text().trimmed()));
}

// A file that is not empty must start with SQLite's magic; anything else (a truncated
// download, a text file, random bytes) is not ours to open.
// A file we cannot even read counts as bad: it is moved aside like garbage.
bool headerLooksValid(const QString &path)
{
    QFile f(path);
    if (!f.exists())
        return true;
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = f.read(16);
    if (f.size() == 0)
        return true;
    return head == QByteArray("SQLite format 3\0", 16);
}

} // namespace

VoidResult execSql(QSqlDatabase &db, const QString &sql)
{
    QSqlQuery q(db);
    if (!q.exec(sql))
        return sqlError(sql.section(QLatin1Char(' '), 0, 2), q.lastError());
    return {};
}

SqliteFile::~SqliteFile()
{
    close();
}

void SqliteFile::close()
{
    if (m_connection.isEmpty())
        return;
    if (m_db.isOpen())
        m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connection);
    m_connection.clear();
}

VoidResult SqliteFile::setBusyTimeout(int ms)
{
    return execSql(m_db, QStringLiteral("PRAGMA busy_timeout=%1").arg(ms));
}

VoidResult SqliteFile::open(const QString &path, const QStringList &schema, int busyTimeoutMs, const QDateTime &now)
{
    close();
    m_path = path;
    m_warning.clear();
    m_movedAside.clear();
    QDir().mkpath(QFileInfo(path).absolutePath());

    if (headerLooksValid(path)) {
        auto r = tryOpen(schema, busyTimeoutMs);
        if (r.ok())
            return r;
        close();
        // A read-only folder (a read-only mount: root ignores file modes) leaves SQLite
        // no room for its -shm file, so even reading fails: read what is there instead,
        // and let every write fail with SQLite's "readonly database".
        if (r.code() != ErrorCode::Internal && QFileInfo::exists(path) &&
            !QFileInfo(QFileInfo(path).absolutePath()).isWritable()) {
            if (tryOpenReadOnly(busyTimeoutMs).ok()) {
                m_warning =
                    QCoreApplication::translate("sandbar", "%1 is in a read-only folder: it can be read, but nothing "
                                                           "new can be saved in it.")
                        .arg(QDir::toNativeSeparators(path));
                return {};
            }
            close();
            return r;
        }
        // Only a file SQLite calls corrupt is moved; with no file there is nothing to
        // blame (an unwritable folder).
        if (r.code() != ErrorCode::Internal || !QFileInfo::exists(path))
            return r;
    }
    if (auto moved = moveAside(now); !moved.ok())
        return moved;
    auto r = tryOpen(schema, busyTimeoutMs);
    if (!r.ok())
        close();
    return r;
}

VoidResult SqliteFile::tryOpen(const QStringList &schema, int busyTimeoutMs)
{
    close();
    m_connection = nextConnectionName();
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    m_db.setDatabaseName(m_path);
    m_db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(busyTimeoutMs));
    if (!m_db.open())
        return sqlError(QCoreApplication::translate("sandbar", "Cannot open %1").arg(m_path), m_db.lastError());
    if (auto r = setBusyTimeout(busyTimeoutMs); !r.ok())
        return r;
    {
        // The first read of the file: fails with "file is not a database" on garbage.
        QSqlQuery q(m_db);
        if (!q.exec(QStringLiteral("PRAGMA journal_mode=WAL")))
            return sqlError(QStringLiteral("journal_mode"), q.lastError());
    }
    // NORMAL is safe in WAL mode (a power cut may lose the last commits, never corrupt)
    // and keeps an append free of fsync on the UI thread.
    if (auto r = execSql(m_db, QStringLiteral("PRAGMA synchronous=NORMAL")); !r.ok())
        return r;
    if (QFileInfo(m_path).size() <= QuickCheckLimitBytes) {
        QSqlQuery q(m_db);
        if (!q.exec(QStringLiteral("PRAGMA quick_check(1)")))
            return sqlError(QStringLiteral("quick_check"), q.lastError());
        if (!q.next() || q.value(0).toString() != QLatin1String("ok"))
            return makeError(ErrorCode::Internal, QStringLiteral("quick_check: %1").arg(q.value(0).toString()));
    }
    for (const QString &stmt : schema) {
        if (auto r = execSql(m_db, stmt); !r.ok())
            return r;
    }
    return {};
}

VoidResult SqliteFile::tryOpenReadOnly(int busyTimeoutMs)
{
    // immutable: no -shm is made and no lock taken; nobody can write a read-only folder
    // meanwhile, and the file is checked no further than the header already was.
    close();
    m_connection = nextConnectionName();
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    const QUrl uri = QUrl::fromLocalFile(m_path);
    m_db.setDatabaseName(QStringLiteral("file:") + uri.path(QUrl::FullyEncoded) + QStringLiteral("?immutable=1"));
    m_db.setConnectOptions(
        QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI;QSQLITE_BUSY_TIMEOUT=%1").arg(busyTimeoutMs));
    if (!m_db.open())
        return sqlError(QStringLiteral("open read-only"), m_db.lastError());
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("SELECT count(*) FROM sqlite_master")))
        return sqlError(QStringLiteral("read-only"), q.lastError());
    return {};
}

VoidResult SqliteFile::moveAside(const QDateTime &now)
{
    const QString stamp = now.toUTC().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'"));
    QString target = m_path + QStringLiteral(".corrupt-") + stamp;
    for (int n = 2; QFileInfo::exists(target); ++n)
        target = m_path + QStringLiteral(".corrupt-%1-%2").arg(stamp).arg(n);
    if (QFileInfo::exists(m_path) && !QFile::rename(m_path, target)) {
        return makeError(ErrorCode::Unavailable,
                         QCoreApplication::translate("sandbar", "%1 cannot be read and cannot be moved aside")
                             .arg(QDir::toNativeSeparators(m_path)));
    }
    // A write-ahead log belongs to the file it was written for: replaying it into the
    // fresh database would be wrong, so it goes along.
    for (const char *suffix : {"-wal", "-shm"}) {
        const QString side = m_path + QLatin1String(suffix);
        if (QFileInfo::exists(side) && !QFile::rename(side, target + QLatin1String(suffix)))
            QFile::remove(side);
    }
    m_movedAside = target;
    m_warning =
        QCoreApplication::translate("sandbar", "%1 could not be read; it was moved to %2 and a new one was started.")
            .arg(QDir::toNativeSeparators(m_path), QDir::toNativeSeparators(target));
    return {};
}

} // namespace sandbar::audit
