#pragma once

#include "common/Result.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

namespace sandbar::audit {

// One open SQLite file shared by several processes (the GUI and sandbarctl): WAL mode, a
// busy timeout, and a schema. A file SQLite cannot read is moved aside, never deleted,
// and a fresh one is started; warning() then says where the old one went.
class SqliteFile
{
public:
    SqliteFile() = default;
    ~SqliteFile();
    SqliteFile(const SqliteFile &) = delete;
    SqliteFile &operator=(const SqliteFile &) = delete;

    // schema: statements run once per open (CREATE ... IF NOT EXISTS). now names the
    // moved-aside file; tests pass a fixed one.
    VoidResult open(const QString &path, const QStringList &schema, int busyTimeoutMs,
                    const QDateTime &now = QDateTime::currentDateTimeUtc());
    void close();

    bool isOpen() const { return m_db.isOpen(); }
    QSqlDatabase &db() { return m_db; }
    const QString &path() const { return m_path; }
    const QString &warning() const { return m_warning; }
    const QString &movedAsideTo() const { return m_movedAside; }

    VoidResult setBusyTimeout(int ms);

private:
    VoidResult tryOpen(const QStringList &schema, int busyTimeoutMs);
    VoidResult tryOpenReadOnly(int busyTimeoutMs);
    VoidResult moveAside(const QDateTime &now);

    QSqlDatabase m_db;
    QString m_connection;
    QString m_path;
    QString m_warning;
    QString m_movedAside;
};

// Runs one statement without results; the error carries SQLite's words.
VoidResult execSql(QSqlDatabase &db, const QString &sql);

} // namespace sandbar::audit
