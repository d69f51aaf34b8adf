#include "files/TarSource.h"

#include <QCoreApplication>
#include <QDirIterator>
#include <QFileInfo>
#include <archive.h>
#include <archive_entry.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbar::files {

namespace {
la_ssize_t sink(::archive *, void *client, const void *buffer, size_t length)
{
    static_cast<TarSource *>(client)->absorb(static_cast<const char *>(buffer), qint64(length));
    return la_ssize_t(length);
}

QString archiveError(::archive *a)
{
    const char *s = archive_error_string(a);
    return s ? QString::fromLocal8Bit(s) : QStringLiteral("libarchive error");
}
} // namespace

TarSource::TarSource(QString localPath, TarSourceOptions options, QObject *parent)
    : QIODevice(parent)
    , m_localPath(std::move(localPath))
    , m_options(std::move(options))
{
}

TarSource::~TarSource()
{
    if (m_fd >= 0)
        ::close(m_fd);
    if (m_archive)
        archive_write_free(m_archive);
}

void TarSource::absorb(const char *bytes, qint64 size)
{
    if (m_bufferPos > 0 && m_bufferPos == m_buffer.size()) {
        m_buffer.resize(0); // keeps the allocation: no page faults per refill
        m_bufferPos = 0;
    }
    if (m_buffer.capacity() < m_options.chunkBytes + 4096)
        m_buffer.reserve(m_options.chunkBytes + 4096);
    m_buffer.append(bytes, size);
    m_produced += size;
}

VoidResult TarSource::prepare()
{
    QFileInfo root(m_localPath);
    if (!root.exists() && !root.isSymLink())
        return makeError(ErrorCode::NotFound, tr("'%1' does not exist.").arg(m_localPath));
    const QString rootName = m_options.rootName.isEmpty() ? root.fileName() : m_options.rootName;
    if (rootName.isEmpty() || rootName.contains(QLatin1Char('/')))
        return makeError(ErrorCode::InvalidArgument, tr("'%1' cannot be uploaded by that name.").arg(m_localPath));
    m_entries.append({root.absoluteFilePath(), rootName});
    if (root.isFile())
        m_totalBytes += root.size();
    if (root.isDir() && !root.isSymLink()) {
        QDirIterator it(root.absoluteFilePath(), QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                        QDirIterator::Subdirectories);
        const QString prefix = root.absoluteFilePath() + QLatin1Char('/');
        while (it.hasNext()) {
            const QString path = it.next();
            const QFileInfo fi = it.fileInfo();
            m_entries.append({path, rootName + QLatin1Char('/') + path.mid(prefix.size())});
            if (fi.isFile() && !fi.isSymLink())
                m_totalBytes += fi.size();
        }
    }
    m_archive = archive_write_new();
    // pax_restricted writes plain ustar headers unless a name, size or owner needs pax.
    archive_write_set_format_pax_restricted(m_archive);
    archive_write_add_filter_none(m_archive);
    // No blocking: libarchive hands file data straight through instead of copying it into
    // 10 KiB records (tar's 512-byte alignment is kept by the format itself).
    archive_write_set_bytes_per_block(m_archive, 0);
    if (archive_write_open(m_archive, this, nullptr, &sink, nullptr) != ARCHIVE_OK)
        return makeError(ErrorCode::Internal, archiveError(m_archive));
    if (!open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Internal, tr("Cannot open the archive stream."));
    return {};
}

void TarSource::fail(Error error)
{
    if (!m_failure) {
        m_failure = error;
        setErrorString(error.message);
    }
    m_finished = true;
}

bool TarSource::beginEntry(const Entry &entry)
{
    const QByteArray local = QFile::encodeName(entry.localPath);
    struct stat st {
    };
    if (::lstat(local.constData(), &st) != 0) {
        fail(makeError(ErrorCode::NotFound,
                       tr("Cannot read '%1': %2").arg(entry.localPath, QString::fromLocal8Bit(std::strerror(errno)))));
        return false;
    }
    const bool isReg = S_ISREG(st.st_mode), isDir = S_ISDIR(st.st_mode), isLnk = S_ISLNK(st.st_mode);
    if (!isReg && !isDir && !isLnk)
        return true; // sockets, FIFOs and devices are not content
    int fd = -1;
    if (isReg) {
        fd = ::open(local.constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0) {
            fail(makeError(
                ErrorCode::Unauthorized,
                tr("Cannot read '%1': %2").arg(entry.localPath, QString::fromLocal8Bit(std::strerror(errno)))));
            return false;
        }
    }
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname_utf8(e, entry.archiveName.toUtf8().constData());
    archive_entry_set_perm(e, st.st_mode & 07777);
    archive_entry_set_mtime(e, st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    archive_entry_set_uid(e, m_options.uid.value_or(st.st_uid));
    archive_entry_set_gid(e, m_options.gid.value_or(st.st_gid));
    if (!m_options.userName.isEmpty())
        archive_entry_set_uname_utf8(e, m_options.userName.toUtf8().constData());
    if (!m_options.groupName.isEmpty())
        archive_entry_set_gname_utf8(e, m_options.groupName.toUtf8().constData());
    if (isDir) {
        archive_entry_set_filetype(e, AE_IFDIR);
    } else if (isLnk) {
        archive_entry_set_filetype(e, AE_IFLNK);
        QByteArray target(4096, Qt::Uninitialized);
        const auto n = ::readlink(local.constData(), target.data(), size_t(target.size()));
        target.resize(n > 0 ? n : 0);
        archive_entry_set_symlink_utf8(e, QFile::decodeName(target).toUtf8().constData());
    } else {
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_size(e, st.st_size);
    }
    const int rc = archive_write_header(m_archive, e);
    archive_entry_free(e);
    if (rc < ARCHIVE_WARN) {
        if (fd >= 0)
            ::close(fd);
        fail(makeError(ErrorCode::Internal, archiveError(m_archive)));
        return false;
    }
    m_fd = fd;
    m_fileLeft = isReg ? st.st_size : 0;
    return true;
}

bool TarSource::refill()
{
    if (m_finished)
        return false;
    const qsizetype before = m_buffer.size() - m_bufferPos;
    // Produce until libarchive hands out at least one block or the archive ends.
    while (m_buffer.size() - m_bufferPos == before && !m_finished) {
        if (m_fd >= 0) {
            if (m_chunk.size() < m_options.chunkBytes)
                m_chunk.resize(m_options.chunkBytes);
            const auto want = size_t(qMin<qint64>(m_options.chunkBytes, m_fileLeft));
            const auto n = m_fileLeft > 0 ? ::read(m_fd, m_chunk.data(), want) : 0;
            if (n < 0) {
                fail(makeError(ErrorCode::Internal,
                               tr("Reading a file failed: %1").arg(QString::fromLocal8Bit(std::strerror(errno)))));
                return false;
            }
            if (n > 0) {
                archive_write_data(m_archive, m_chunk.constData(), size_t(n));
                m_fileLeft -= n;
                m_doneBytes += n;
            }
            if (n == 0 || m_fileLeft <= 0) {
                // A file that shrank is padded by libarchive to the size in its header.
                ::close(m_fd);
                m_fd = -1;
                archive_write_finish_entry(m_archive);
            }
            continue;
        }
        if (m_next < m_entries.size()) {
            if (!beginEntry(m_entries.at(m_next++)))
                return false;
            continue;
        }
        if (archive_write_close(m_archive) != ARCHIVE_OK) {
            fail(makeError(ErrorCode::Internal, archiveError(m_archive)));
            return false;
        }
        m_finished = true;
    }
    return m_buffer.size() - m_bufferPos > before;
}

qint64 TarSource::readData(char *data, qint64 maxSize)
{
    if (m_bufferPos == m_buffer.size() && !refill() && m_bufferPos == m_buffer.size())
        return m_failure ? -1 : (m_finished ? -1 : 0);
    const qint64 n = qMin<qint64>(maxSize, m_buffer.size() - m_bufferPos);
    std::memcpy(data, m_buffer.constData() + m_bufferPos, size_t(n));
    m_bufferPos += n;
    if (m_bufferPos == m_buffer.size()) {
        m_buffer.resize(0);
        m_bufferPos = 0;
    }
    return n;
}

qint64 TarSource::writeData(const char *, qint64)
{
    return -1;
}

qint64 TarSource::bytesAvailable() const
{
    // Data can always be produced until the end, so callers never wait for readyRead.
    const qint64 buffered = m_buffer.size() - m_bufferPos + QIODevice::bytesAvailable();
    return m_finished ? buffered : qMax<qint64>(buffered, m_options.chunkBytes);
}

bool TarSource::atEnd() const
{
    return m_finished && m_buffer.size() == m_bufferPos && QIODevice::bytesAvailable() == 0;
}

} // namespace sandbar::files
