#include "providers/PartialDownloads.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QSaveFile>
#include <QUuid>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <csignal>
#include <cstdio>
#endif

namespace sandbar {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbar::PartialDownloads", text);
}

// When the process started (clock ticks since boot): a pid alone may have been reused.
QString startTimeOf(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray line = f.readAll();
    const auto close = line.lastIndexOf(')');
    if (close < 0)
        return {};
    const QList<QByteArray> fields = line.mid(close + 2).split(' ');
    return fields.size() > 19 ? QString::fromLatin1(fields.at(19)) : QString();
}

bool isAlive(qint64 pid, const QString &startTime)
{
    if (pid == QCoreApplication::applicationPid())
        return true;
#ifdef Q_OS_UNIX
    if (::kill(pid_t(pid), 0) != 0 && errno == ESRCH)
        return false;
#endif
    // Where /proc tells the start time, a different one means the pid was reused.
    const QString now = startTimeOf(pid);
    return now.isEmpty() || startTime.isEmpty() || now == startTime;
}

// Only folders this class makes are ever removed, whatever a journal says.
bool isStagingFolder(const QString &path)
{
    const QFileInfo info(path);
    return info.fileName().startsWith(QLatin1String(PartialDownloads::kPrefix)) && info.isDir() && !info.isSymLink();
}

// Read-modify-write of the journal under a lock file: the app and sandbarctl may both
// download at once.
template <typename F>
void editJournal(const QString &journal, F edit)
{
    if (journal.isEmpty())
        return;
    QDir().mkpath(QFileInfo(journal).absolutePath());
    QLockFile lock(journal + QStringLiteral(".lock"));
    lock.setStaleLockTime(30000);
    if (!lock.tryLock(10000))
        return; // the staging folder still protects the target; only the sweep misses it
    QFile in(journal);
    QJsonArray records;
    if (in.open(QIODevice::ReadOnly))
        records = QJsonDocument::fromJson(in.readAll()).array();
    in.close();
    if (!edit(records))
        return;
    QSaveFile out(journal);
    if (out.open(QIODevice::WriteOnly)) {
        out.write(QJsonDocument(records).toJson(QJsonDocument::Compact));
        out.commit();
    }
}

} // namespace

PartialDownloads::PartialDownloads(QString journalPath)
    : m_journal(std::move(journalPath))
{
}

QString PartialDownloads::journalIn(const QString &dataDir)
{
    return dataDir.isEmpty() ? QString() : QDir(dataDir).filePath(QStringLiteral("partial-downloads.json"));
}

Result<QString> PartialDownloads::begin(const QString &targetDir) const
{
    const QString path =
        QDir(targetDir).filePath(QLatin1String(kPrefix) + QUuid::createUuid().toString(QUuid::Id128).left(12));
    if (!QDir().mkdir(path))
        return makeError(ErrorCode::Unauthorized, tr("Could not write in %1.").arg(targetDir));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    const qint64 pid = QCoreApplication::applicationPid();
    editJournal(m_journal, [&](QJsonArray &records) {
        records.append(QJsonObject{
            {QStringLiteral("path"), path}, {QStringLiteral("pid"), pid}, {QStringLiteral("start"), startTimeOf(pid)}});
        return true;
    });
    return path;
}

void PartialDownloads::end(const QString &stagingDir) const
{
    if (isStagingFolder(stagingDir))
        QDir(stagingDir).removeRecursively();
    editJournal(m_journal, [&](QJsonArray &records) {
        for (qsizetype i = records.size() - 1; i >= 0; --i) {
            if (records.at(i).toObject().value(QStringLiteral("path")).toString() == stagingDir)
                records.removeAt(i);
        }
        return true;
    });
}

int PartialDownloads::sweep() const
{
    int removed = 0;
    editJournal(m_journal, [&](QJsonArray &records) {
        const int before = int(records.size());
        for (qsizetype i = records.size() - 1; i >= 0; --i) {
            const QJsonObject r = records.at(i).toObject();
            const QString path = r.value(QStringLiteral("path")).toString();
            if (isAlive(r.value(QStringLiteral("pid")).toInteger(), r.value(QStringLiteral("start")).toString()))
                continue;
            if (isStagingFolder(path) && QDir(path).removeRecursively())
                ++removed;
            records.removeAt(i);
        }
        return records.size() != before;
    });
    return removed;
}

// Replaces a file at `to` in one step where the system allows it (QFile::rename refuses).
VoidResult PartialDownloads::replace(const QString &from, const QString &to)
{
#ifdef Q_OS_UNIX
    if (::rename(QFile::encodeName(from).constData(), QFile::encodeName(to).constData()) == 0)
        return {};
#else
    if (QFile::rename(from, to) || (QFile::remove(to) && QFile::rename(from, to)))
        return {};
#endif
    return makeError(ErrorCode::Internal, tr("Could not move the downloaded %1 into place as %2.").arg(from, to));
}

VoidResult PartialDownloads::moveIntoPlace(const QString &staged, const QString &final)
{
    const QFileInfo from(staged);
    const QFileInfo to(final);
    if (!to.exists() && !to.isSymLink())
        return replace(staged, final);
    const bool fromDir = from.isDir() && !from.isSymLink();
    const bool toDir = to.isDir() && !to.isSymLink();
    if (fromDir != toDir)
        return makeError(ErrorCode::Conflict, fromDir ? tr("%1 exists and is not a folder.").arg(final)
                                                      : tr("%1 exists and is a folder.").arg(final));
    if (!fromDir) {
        // rename() replaces a file (or a link, never what it points to) in one step.
        return replace(staged, final);
    }
    const QStringList entries =
        QDir(staged).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QString &name : entries) {
        auto moved = moveIntoPlace(QDir(staged).filePath(name), QDir(final).filePath(name));
        if (!moved)
            return moved;
    }
    return {};
}

} // namespace sandbar
