// Folder copies for the contract servers' snapshots and checkpoints.
#include "kit/FolderCopy.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <sys/stat.h>
#include <unistd.h>

namespace contract {

// Removes what a folder holds, not the folder (bubblewrap binds it by path).
void clearFolder(const QString &path)
{
    const QFileInfoList entries =
        QDir(path).entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QFileInfo &entry : entries) {
        if (entry.isDir() && !entry.isSymLink())
            QDir(entry.absoluteFilePath()).removeRecursively();
        else
            QFile::remove(entry.absoluteFilePath());
    }
    QDir().mkpath(path);
}

// Copies a tree with its modes; links are copied as links, other special files skipped.
// Returns the bytes of the regular files.
qint64 copyTree(const QString &from, const QString &to)
{
    qint64 bytes = 0;
    QDir().mkpath(to);
    const QFileInfoList entries =
        QDir(from).entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QFileInfo &entry : entries) {
        const QByteArray source = QFile::encodeName(entry.absoluteFilePath());
        const QString target = to + QLatin1Char('/') + entry.fileName();
        struct stat st {
        };
        if (::lstat(source.constData(), &st) != 0)
            continue;
        if (S_ISLNK(st.st_mode)) {
            QByteArray link(4096, '\0');
            const ssize_t n = ::readlink(source.constData(), link.data(), size_t(link.size()));
            if (n > 0 && ::symlink(link.left(n).constData(), QFile::encodeName(target).constData()) != 0)
                qWarning("sandbar-contract: cannot copy the link %s", source.constData());
        } else if (S_ISDIR(st.st_mode)) {
            bytes += copyTree(entry.absoluteFilePath(), target);
            ::chmod(QFile::encodeName(target).constData(), st.st_mode & 07777);
        } else if (S_ISREG(st.st_mode)) {
            QFile::remove(target);
            if (QFile::copy(entry.absoluteFilePath(), target)) {
                ::chmod(QFile::encodeName(target).constData(), st.st_mode & 07777);
                bytes += st.st_size;
            }
        }
    }
    return bytes;
}

} // namespace contract
