#include "files/TarFolder.h"

#include "files/FilesTr.h"

#include <QDateTime>
#include <archive.h>
#include <archive_entry.h>
#include <memory>

namespace sandbar::files {

Result<QByteArray> folderEntryTar(const QString &name, uint uid, uint gid, uint mode)
{
    if (name.isEmpty() || name.contains(QLatin1Char('/')) || name == QLatin1String(".") || name == QLatin1String(".."))
        return makeError(ErrorCode::InvalidArgument, tr("'%1' is not a folder name.").arg(name));
    // A folder entry is one 512-byte header; the end marker two more blocks, padded to 10 KiB.
    QByteArray out(64 * 1024, '\0');
    size_t used = 0;
    std::unique_ptr<archive, decltype(&archive_write_free)> a(archive_write_new(), &archive_write_free);
    std::unique_ptr<archive_entry, decltype(&archive_entry_free)> e(archive_entry_new(), &archive_entry_free);
    archive_write_set_format_pax_restricted(a.get());
    if (archive_write_open_memory(a.get(), out.data(), size_t(out.size()), &used) != ARCHIVE_OK)
        return makeError(ErrorCode::Internal, QString::fromUtf8(archive_error_string(a.get())));
    const QByteArray path = name.toUtf8() + '/';
    archive_entry_set_pathname(e.get(), path.constData());
    archive_entry_set_filetype(e.get(), AE_IFDIR);
    archive_entry_set_perm(e.get(), mode & 07777);
    archive_entry_set_uid(e.get(), uid);
    archive_entry_set_gid(e.get(), gid);
    archive_entry_set_mtime(e.get(), QDateTime::currentSecsSinceEpoch(), 0);
    if (archive_write_header(a.get(), e.get()) != ARCHIVE_OK || archive_write_close(a.get()) != ARCHIVE_OK)
        return makeError(ErrorCode::Internal, QString::fromUtf8(archive_error_string(a.get())));
    out.truncate(qsizetype(used));
    return out;
}

std::optional<int> tarEntryCount(const QByteArray &tar)
{
    std::unique_ptr<archive, decltype(&archive_read_free)> a(archive_read_new(), &archive_read_free);
    archive_read_support_format_tar(a.get());
    if (tar.isEmpty() || archive_read_open_memory(a.get(), tar.constData(), size_t(tar.size())) != ARCHIVE_OK)
        return std::nullopt;
    int count = 0;
    archive_entry *entry = nullptr;
    for (;;) {
        const int rc = archive_read_next_header(a.get(), &entry);
        if (rc == ARCHIVE_EOF)
            return count;
        if (rc < ARCHIVE_WARN || archive_read_data_skip(a.get()) < ARCHIVE_WARN)
            return std::nullopt;
        ++count;
    }
}

} // namespace sandbar::files
