#include "files/TarSource.h"

#include <QCoreApplication>
#include <QDir>
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

// Only the content: no extended attributes, ACLs or file flags, and holes read as zeros
// (a sparse map would need GNU sparse headers that few readers, ours included, take).
constexpr int kWalkFlags =
    ARCHIVE_READDISK_NO_XATTR | ARCHIVE_READDISK_NO_ACL | ARCHIVE_READDISK_NO_FFLAGS | ARCHIVE_READDISK_NO_SPARSE;

// what: the local path (or archive name) that could not be read.
Error walkError(::archive *walk, const QString &what)
{
    const int eno = archive_errno(walk);
    const ErrorCode code = eno == ENOENT || eno == ENOTDIR ? ErrorCode::NotFound
                           : eno == EACCES || eno == EPERM ? ErrorCode::Unauthorized
                                                           : ErrorCode::Internal;
    return makeError(code, TarSource::tr("Cannot read '%1': %2").arg(what, archiveError(walk)));
}

constexpr qint64 kReadBytes = 256 * 1024;

// Opens path (relative to dirFd) without following a link in any component; the file itself
// non-blocking, so that a FIFO put in its place cannot stall the copy. -1 and errno on failure.
int openNoFollow(int dirFd, const QByteArray &path)
{
    const QList<QByteArray> parts = path.split('/');
    int fd = dirFd;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const bool last = i + 1 == parts.size();
        const int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK | O_NOCTTY : O_DIRECTORY);
        int next = -1;
        do
            next = ::openat(fd, parts.at(i).constData(), flags);
        while (next < 0 && errno == EINTR);
        const int saved = errno;
        if (fd != dirFd)
            ::close(fd);
        errno = saved;
        if (next < 0)
            return -1;
        fd = next;
    }
    return fd;
}

bool isContent(archive_entry *e)
{
    const auto type = archive_entry_filetype(e);
    return type == AE_IFREG || type == AE_IFDIR || type == AE_IFLNK;
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
    closeEntryFile();
    if (m_parentFd >= 0)
        ::close(m_parentFd);
    if (m_walk)
        archive_read_free(m_walk);
    if (m_entry)
        archive_entry_free(m_entry);
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

struct archive *TarSource::openWalk()
{
    struct archive *walk = archive_read_disk_new();
    // Physical: a symbolic link is stored as a link, never followed out of the tree (the
    // top one included).
    archive_read_disk_set_symlink_physical(walk);
    archive_read_disk_set_behavior(walk, kWalkFlags);
    if (archive_read_disk_open(walk, QFile::encodeName(m_walkRoot).constData()) != ARCHIVE_OK) {
        fail(walkError(walk, m_localPath));
        archive_read_free(walk);
        return nullptr;
    }
    return walk;
}

QString TarSource::archiveName(struct archive_entry *entry) const
{
    const char *path = archive_entry_pathname(entry);
    return m_rootName + QFile::decodeName(path ? path : "").mid(m_walkRoot.size());
}

VoidResult TarSource::prepare()
{
    QFileInfo root(m_localPath);
    if (!root.exists() && !root.isSymLink())
        return makeError(ErrorCode::NotFound, tr("'%1' does not exist.").arg(m_localPath));
    m_rootName = m_options.rootName.isEmpty() ? root.fileName() : m_options.rootName;
    if (m_rootName.isEmpty() || m_rootName.contains(QLatin1Char('/')))
        return makeError(ErrorCode::InvalidArgument, tr("'%1' cannot be uploaded by that name.").arg(m_localPath));
    m_walkRoot = QDir::cleanPath(root.absoluteFilePath());
    m_parentFd =
        ::open(QFile::encodeName(QFileInfo(m_walkRoot).absolutePath()).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (m_parentFd < 0)
        return makeError(ErrorCode::Internal,
                         tr("Cannot read '%1': %2").arg(m_localPath, QString::fromLocal8Bit(std::strerror(errno))));

    // Names and sizes first: progress needs the total, and an entry that is gone by the
    // time it is read fails the copy instead of shrinking it silently.
    struct archive *walk = openWalk();
    if (!walk)
        return *m_failure;
    struct archive_entry *e = archive_entry_new();
    for (;;) {
        const int rc = archive_read_next_header2(walk, e);
        if (rc == ARCHIVE_EOF)
            break;
        if (rc == ARCHIVE_FATAL) {
            const Error error = walkError(walk, m_localPath);
            archive_entry_free(e);
            archive_read_free(walk);
            return error;
        }
        if (rc == ARCHIVE_FAILED || !isContent(e))
            continue; // an unreadable folder's contents and non-files are left out
        m_expected.insert(archiveName(e));
        if (archive_entry_filetype(e) == AE_IFREG)
            m_totalBytes += archive_entry_size(e);
        archive_read_disk_descend(walk);
    }
    archive_entry_free(e);
    archive_read_free(walk);

    m_walk = openWalk();
    if (!m_walk)
        return *m_failure;
    m_entry = archive_entry_new();
    m_archive = archive_write_new();
    // pax_restricted writes plain ustar headers unless a name, size or owner needs pax.
    archive_write_set_format_pax_restricted(m_archive);
    if (m_options.gzip) {
        archive_write_add_filter_gzip(m_archive);
        // Speed over size: the stream is made while it is sent.
        archive_write_set_filter_option(m_archive, "gzip", "compression-level", "1");
    } else {
        archive_write_add_filter_none(m_archive);
    }
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

bool TarSource::beginEntry()
{
    if (!isContent(m_entry))
        return true; // sockets, FIFOs and devices are not content
    const QString name = archiveName(m_entry);
    if (!m_expected.remove(name))
        return true; // appeared after prepare(): not part of this copy, nor is anything in it
    archive_read_disk_descend(m_walk);
    const auto type = archive_entry_filetype(m_entry);
    archive_entry_set_pathname_utf8(m_entry, name.toUtf8().constData());
    if (type == AE_IFLNK) {
        const char *target = archive_entry_symlink(m_entry);
        archive_entry_set_symlink_utf8(m_entry, QFile::decodeName(target ? target : "").toUtf8().constData());
    }
    if (type != AE_IFREG)
        archive_entry_set_size(m_entry, 0);
    // Only what the extracting side uses: no access, change or birth times.
    archive_entry_unset_atime(m_entry);
    archive_entry_unset_ctime(m_entry);
    archive_entry_unset_birthtime(m_entry);
    if (m_options.uid)
        archive_entry_set_uid(m_entry, *m_options.uid);
    if (m_options.gid)
        archive_entry_set_gid(m_entry, *m_options.gid);
    if (!m_options.userName.isEmpty())
        archive_entry_set_uname_utf8(m_entry, m_options.userName.toUtf8().constData());
    if (!m_options.groupName.isEmpty())
        archive_entry_set_gname_utf8(m_entry, m_options.groupName.toUtf8().constData());
    if (archive_write_header(m_archive, m_entry) < ARCHIVE_WARN) {
        fail(makeError(ErrorCode::Internal, archiveError(m_archive)));
        return false;
    }
    m_inData = type == AE_IFREG;
    m_blockLeft = 0;
    m_fileLeft = m_inData ? archive_entry_size(m_entry) : 0;
    if (!m_inData)
        archive_write_finish_entry(m_archive);
    return true;
}

bool TarSource::openEntryFile()
{
    // The disk reader would reopen the file by name, following whatever stands there now.
    const QByteArray source = archive_entry_sourcepath(m_entry) ? archive_entry_sourcepath(m_entry) : "";
    const QByteArray root = QFile::encodeName(m_walkRoot);
    const QString shown = QFile::decodeName(source);
    if (!source.startsWith(root) || (source.size() > root.size() && source.at(root.size()) != '/')) {
        fail(makeError(ErrorCode::Internal, tr("Cannot read '%1': it is outside '%2'.").arg(shown, m_localPath)));
        return false;
    }
    const QByteArray path = QFile::encodeName(QFileInfo(m_walkRoot).fileName()) + source.mid(root.size());
    m_fileFd = openNoFollow(m_parentFd, path);
    if (m_fileFd < 0) {
        const int eno = errno;
        const ErrorCode code = eno == ENOENT || eno == ENOTDIR ? ErrorCode::NotFound
                               : eno == EACCES || eno == EPERM ? ErrorCode::Unauthorized
                               : eno == ELOOP                  ? ErrorCode::Conflict
                                                               : ErrorCode::Internal;
        fail(makeError(code, tr("Cannot read '%1': %2").arg(shown, QString::fromLocal8Bit(std::strerror(eno)))));
        return false;
    }
    struct stat st {
    };
    if (::fstat(m_fileFd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_dev != dev_t(archive_entry_dev(m_entry)) ||
        st.st_ino != ino_t(archive_entry_ino64(m_entry))) {
        closeEntryFile();
        fail(makeError(ErrorCode::Conflict, tr("'%1' was replaced while it was being copied.").arg(shown)));
        return false;
    }
    return true;
}

void TarSource::closeEntryFile()
{
    if (m_fileFd >= 0)
        ::close(m_fileFd);
    m_fileFd = -1;
}

bool TarSource::nextBlock()
{
    if (m_fileFd < 0 && !openEntryFile())
        return false;
    qint64 n = 0;
    if (m_fileLeft > 0) {
        m_readBuffer.resize(qsizetype(qMin(m_fileLeft, kReadBytes)));
        do
            n = ::read(m_fileFd, m_readBuffer.data(), size_t(m_readBuffer.size()));
        while (n < 0 && errno == EINTR);
    }
    if (n < 0) {
        const int eno = errno;
        closeEntryFile();
        fail(makeError(ErrorCode::Internal, tr("Cannot read '%1': %2")
                                                .arg(QFile::decodeName(archive_entry_sourcepath(m_entry)),
                                                     QString::fromLocal8Bit(std::strerror(eno)))));
        return false;
    }
    if (n == 0) {
        // The size in the header is sent, no more; a file that shrank is padded to it by
        // libarchive.
        closeEntryFile();
        archive_write_finish_entry(m_archive);
        m_inData = false;
        return true;
    }
    m_fileLeft -= n;
    m_block = m_readBuffer.constData();
    m_blockLeft = n;
    return true;
}

bool TarSource::refill()
{
    if (m_finished)
        return false;
    const qsizetype before = m_buffer.size() - m_bufferPos;
    // Produce a chunk (the disk reader's blocks are smaller: fewer, larger reads for the
    // consumer), or to the end of the archive.
    const qint64 chunk = qMax<qint64>(m_options.chunkBytes, 512);
    while (m_buffer.size() - m_bufferPos < chunk && !m_finished) {
        if (m_inData) {
            if (m_blockLeft == 0) {
                if (!nextBlock())
                    return false;
                continue;
            }
            const qint64 room = chunk - (m_buffer.size() - m_bufferPos);
            const qint64 n = qMin(m_blockLeft, room);
            archive_write_data(m_archive, m_block, size_t(n));
            m_block += n;
            m_blockLeft -= n;
            m_doneBytes += n;
            continue;
        }
        const int rc = archive_read_next_header2(m_walk, m_entry);
        if (rc == ARCHIVE_EOF) {
            if (!m_expected.isEmpty()) {
                QStringList gone = m_expected.values();
                gone.sort();
                fail(makeError(ErrorCode::NotFound,
                               tr("'%1' is gone: it was removed while it was being copied.").arg(gone.constFirst())));
                return false;
            }
            if (archive_write_close(m_archive) != ARCHIVE_OK) {
                fail(makeError(ErrorCode::Internal, archiveError(m_archive)));
                return false;
            }
            m_finished = true;
            continue;
        }
        if (rc == ARCHIVE_FATAL) {
            fail(walkError(m_walk, m_localPath));
            return false;
        }
        if (rc == ARCHIVE_FAILED)
            continue;
        if (!beginEntry())
            return false;
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
