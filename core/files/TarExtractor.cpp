#include "files/TarExtractor.h"

#include "files/PathSafety.h"
#include "files/PrivateUmask.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <archive.h>
#include <archive_entry.h>
#include <cerrno>
#include <climits>
#include <cstring>
#include <functional>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbar::files {

namespace {
constexpr qint64 kBlock = 512;
constexpr qint64 kMaxMeta = 1024 * 1024;
constexpr int kLibraryErrno = -1;   // ARCHIVE_ERRNO_MISC, which libarchive keeps private
constexpr qsizetype kNameMax = 255; // bytes in one component, as Linux file systems allow

// Names are rewritten to absolute paths under the (canonical) root after safeEntryName has
// refused absolute and ".." names, so the library's no-absolute-paths check cannot apply;
// its symlink walk covers the whole path. Modes are exact (set-id bits are cleared first);
// owners are never restored.
constexpr int kDiskFlags =
    ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM | ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NODOTDOT;

QString archiveMessage(::archive *a)
{
    const char *s = a ? archive_error_string(a) : nullptr;
    return s ? QString::fromLocal8Bit(s) : QString::fromLocal8Bit(std::strerror(errno));
}

QString field(const char *p, int len)
{
    int n = 0;
    while (n < len && p[n] != 0)
        ++n;
    return QString::fromUtf8(p, n);
}

// Octal with optional spaces/NULs, or GNU base-256 when the high bit is set.
bool number(const char *p, int len, qint64 *out)
{
    if (static_cast<unsigned char>(p[0]) & 0x80) {
        quint64 v = static_cast<unsigned char>(p[0]) & 0x7f;
        for (int i = 1; i < len; ++i) {
            if (v >> 55)
                return false;
            v = (v << 8) | static_cast<unsigned char>(p[i]);
        }
        *out = qint64(v);
        return true;
    }
    qint64 v = 0;
    int i = 0;
    while (i < len && (p[i] == ' ' || p[i] == 0))
        ++i;
    bool any = false;
    for (; i < len && p[i] >= '0' && p[i] <= '7'; ++i) {
        if (v >> 60)
            return false;
        v = v * 8 + (p[i] - '0');
        any = true;
    }
    for (; i < len; ++i) {
        if (p[i] != ' ' && p[i] != 0)
            return false;
    }
    *out = any ? v : 0;
    return true;
}

qint64 padOf(qint64 size)
{
    return (kBlock - size % kBlock) % kBlock;
}

// For the disk writer's calls that flip the umask (see PrivateUmask.h); on the caller's
// thread only where the kernel refuses a private one.
void withPrivateUmask(const std::function<void()> &call)
{
    if (!runWithPrivateUmask(call))
        call();
}
} // namespace

QString TarExtractor::tr(const char *text)
{
    return QCoreApplication::translate("sandbar::files::TarExtractor", text);
}

TarExtractor::TarExtractor(QString targetDir)
    : m_root(QDir(targetDir).absolutePath())
{
}

void TarExtractor::setRootName(const QString &name)
{
    m_rootName = name;
}

QString TarExtractor::withRootName(const QString &rel) const
{
    if (m_rootName.isEmpty())
        return rel;
    const auto slash = rel.indexOf(QLatin1Char('/'));
    return slash < 0 ? m_rootName : m_rootName + rel.mid(slash);
}

TarExtractor::~TarExtractor()
{
    closeDisk(true);
}

void TarExtractor::closeDisk(bool discardPartial)
{
    if (!m_disk)
        return;
    // Freeing finishes the open entry and applies the folders' deferred times and modes.
    archive_write_free(m_disk);
    m_disk = nullptr;
    if (discardPartial && m_writing)
        ::unlink(QFile::encodeName(m_root + QLatin1Char('/') + m_rel).constData());
    m_entryOpen = m_writing = false;
}

VoidResult TarExtractor::fail(Error error)
{
    if (!m_error)
        m_error = std::move(error);
    closeDisk(true);
    return *m_error;
}

VoidResult TarExtractor::feed(const QByteArray &bytes)
{
    if (m_error)
        return *m_error;
    const char *p = bytes.constData();
    qint64 left = bytes.size();
    while (left > 0) {
        qint64 n = 0;
        switch (m_state) {
        case State::Header: {
            n = qMin<qint64>(kBlock - m_pending.size(), left);
            m_pending.append(p, n);
            if (m_pending.size() == kBlock) {
                const QByteArray block = std::exchange(m_pending, {});
                if (auto r = onHeader(block.constData()); !r)
                    return r;
            }
            break;
        }
        case State::Data:
            n = qMin(m_left, left);
            if (auto r = writeData(p, n); !r)
                return r;
            m_left -= n;
            if (m_left == 0) {
                if (auto r = closeFile(); !r)
                    return r;
                m_state = m_padding > 0 ? State::Padding : State::Header;
            }
            break;
        case State::Meta:
            n = qMin(m_left, left);
            m_meta.append(p, n);
            m_left -= n;
            if (m_left == 0) {
                if (auto r = onMeta(); !r)
                    return r;
                m_state = m_padding > 0 ? State::Padding : State::Header;
            }
            break;
        case State::Padding:
            n = qMin(m_padding, left);
            m_padding -= n;
            if (m_padding == 0)
                m_state = State::Header;
            break;
        case State::End:
            n = left; // trailing zero blocks and record padding
            break;
        }
        p += n;
        left -= n;
        m_consumed += n;
    }
    return {};
}

VoidResult TarExtractor::finish()
{
    if (m_error)
        return *m_error;
    if (m_state != State::End)
        return fail(makeError(ErrorCode::Unavailable, tr("The archive ended early (after %1 bytes).").arg(m_consumed)));
    if (m_disk) {
        const int rc = archive_write_close(m_disk);
        if (rc != ARCHIVE_OK)
            return fail(
                makeError(ErrorCode::Internal, tr("Finishing the extraction failed: %1").arg(archiveMessage(m_disk))));
        closeDisk(false);
    }
    return {};
}

VoidResult TarExtractor::onHeader(const char *block)
{
    bool zero = true;
    for (int i = 0; i < kBlock && zero; ++i)
        zero = block[i] == 0;
    if (zero) {
        m_state = State::End;
        return {};
    }
    qint64 sum = 0, stored = 0;
    for (int i = 0; i < kBlock; ++i)
        sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(block[i]);
    if (!number(block + 148, 8, &stored) || stored != sum)
        return fail(makeError(ErrorCode::InvalidArgument, tr("The data is not a tar archive or it is damaged.")));
    qint64 size = 0;
    if (!number(block + 124, 12, &size) || size < 0)
        return fail(makeError(ErrorCode::InvalidArgument, tr("An archive header has a bad size.")));
    const char type = block[156];
    if (type == 'x' || type == 'g' || type == 'L' || type == 'K') {
        if (size > kMaxMeta)
            return fail(makeError(ErrorCode::InvalidArgument, tr("An archive header is too large.")));
        m_metaType = type;
        m_meta.clear();
        m_left = size;
        m_padding = padOf(size);
        if (size == 0)
            return onMeta();
        m_state = State::Meta;
        return {};
    }
    qint64 mode = 0, mtime = 0;
    number(block + 100, 8, &mode);
    number(block + 136, 12, &mtime);
    QString name = field(block, 100);
    if (std::memcmp(block + 257, "ustar", 5) == 0) {
        const QString prefix = field(block + 345, 155);
        if (!prefix.isEmpty())
            name = prefix + QLatin1Char('/') + name;
    }
    QString link = field(block + 157, 100);
    if (!m_gnuPath.isEmpty())
        name = m_gnuPath;
    else if (!m_paxPath.isEmpty())
        name = m_paxPath;
    if (!m_gnuLink.isEmpty())
        link = m_gnuLink;
    else if (!m_paxLink.isEmpty())
        link = m_paxLink;
    if (m_paxSize >= 0)
        size = m_paxSize;
    m_gnuPath.clear();
    m_gnuLink.clear();
    m_paxPath.clear();
    m_paxLink.clear();
    m_paxSize = -1;

    m_name = name;
    m_link = link;
    m_type = type;
    m_mode = quint32(mode) & 0777; // never set-id or sticky bits from an archive
    m_mtime = mtime;
    if (type == '1' || type == '2')
        size = 0;
    if (auto r = beginEntry(); !r)
        return r;
    m_left = size;
    m_padding = padOf(size);
    m_state = size > 0 ? State::Data : State::Header;
    if (size == 0)
        return closeFile();
    return {};
}

VoidResult TarExtractor::onMeta()
{
    if (m_metaType == 'L' || m_metaType == 'K') {
        QByteArray v = m_meta;
        while (v.endsWith('\0'))
            v.chop(1);
        (m_metaType == 'L' ? m_gnuPath : m_gnuLink) = QString::fromUtf8(v);
        return {};
    }
    // pax records: "<len> <key>=<value>\n", len counting the whole record.
    qsizetype pos = 0;
    while (pos < m_meta.size()) {
        const auto space = m_meta.indexOf(' ', pos);
        bool ok = false;
        const qint64 len = space > pos ? m_meta.mid(pos, space - pos).toLongLong(&ok) : 0;
        if (!ok || len <= 0 || pos + len > m_meta.size() || m_meta.at(pos + len - 1) != '\n')
            return fail(makeError(ErrorCode::InvalidArgument, tr("An archive has a damaged pax header.")));
        const QByteArray rec = m_meta.mid(space + 1, pos + len - space - 2);
        const auto eq = rec.indexOf('=');
        if (eq > 0 && m_metaType == 'x') {
            const QByteArray key = rec.left(eq), value = rec.mid(eq + 1);
            if (key == "path")
                m_paxPath = QString::fromUtf8(value);
            else if (key == "linkpath")
                m_paxLink = QString::fromUtf8(value);
            else if (key == "size") {
                const qint64 v = value.toLongLong(&ok);
                m_paxSize = ok && v >= 0 ? v : -1;
            }
        }
        pos += len;
    }
    return {};
}

VoidResult TarExtractor::openDisk()
{
    if (m_disk)
        return {};
    if (!QDir().mkpath(m_root))
        return fail(makeError(ErrorCode::Internal, tr("Cannot create '%1'.").arg(m_root)));
    // The library's symlink walk refuses links anywhere in the path, the root's own
    // ancestors included (a home folder behind a link is common): start from the real path.
    const QString canonical = QFileInfo(m_root).canonicalFilePath();
    if (canonical.isEmpty())
        return fail(makeError(ErrorCode::Internal, tr("Cannot resolve '%1'.").arg(m_root)));
    m_root = canonical;
    bool started = false;
    withPrivateUmask([&] {
        m_disk = archive_write_disk_new();
        started = m_disk && archive_write_disk_set_options(m_disk, kDiskFlags) == ARCHIVE_OK;
    });
    if (!started)
        return fail(makeError(ErrorCode::Internal, tr("Cannot start the extraction: %1").arg(archiveMessage(m_disk))));
    return {};
}

VoidResult TarExtractor::checkParents(const QString &rel)
{
    const QStringList parts = rel.split(QLatin1Char('/'));
    QString sub;
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        sub = i == 0 ? parts.at(i) : sub + QLatin1Char('/') + parts.at(i);
        if (m_dirs.contains(sub))
            continue;
        struct stat st {
        };
        if (::lstat(QFile::encodeName(m_root + QLatin1Char('/') + sub).constData(), &st) != 0)
            return {}; // missing: the library makes it and everything below
        if (S_ISLNK(st.st_mode))
            return {}; // the library's secure-symlink check refuses it
        if (!S_ISDIR(st.st_mode))
            return fail(
                makeError(ErrorCode::Conflict, tr("'%1' is not a folder.").arg(m_root + QLatin1Char('/') + sub)));
        m_dirs.insert(sub);
    }
    return {};
}

Error TarExtractor::diskError(const QString &rel) const
{
    // The library's safety checks report no system error (or its own code); system errors
    // are the disk's.
    const int eno = archive_errno(m_disk);
    if (eno == 0 || eno == kLibraryErrno)
        return makeError(ErrorCode::InvalidArgument,
                         tr("The archive entry '%1' was refused: %2").arg(rel, archiveMessage(m_disk)));
    return makeError(ErrorCode::Internal,
                     tr("Cannot write '%1': %2").arg(m_root + QLatin1Char('/') + rel, archiveMessage(m_disk)));
}

VoidResult TarExtractor::beginEntry()
{
    const bool regular = m_type == '0' || m_type == 0 || m_type == '7';
    const bool dir = m_type == '5';
    const bool symlink = m_type == '2', hardlink = m_type == '1';
    if (!regular && !dir && !symlink && !hardlink)
        return {}; // devices, FIFOs, unknown: their data (if any) is skipped
    auto rel = safeEntryName(m_name);
    if (!rel)
        return fail(rel.error());
    *rel = withRootName(*rel);
    for (const QString &part : rel->split(QLatin1Char('/'))) {
        if (part.toUtf8().size() > kNameMax)
            return fail(makeError(ErrorCode::InvalidArgument,
                                  tr("The archive entry '%1…' has a name too long for a file.").arg(rel->left(80))));
    }
    if (auto r = openDisk(); !r)
        return r;
    const QString path = m_root + QLatin1Char('/') + *rel;
    const QByteArray local = QFile::encodeName(path);
    // Longer paths would make the library chdir() (process-wide) to shorten them.
    if (local.size() >= PATH_MAX)
        return fail(makeError(ErrorCode::InvalidArgument,
                              tr("The archive entry '%1…' has a path too long to extract.").arg(rel->left(80))));
    if (auto r = checkParents(*rel); !r)
        return r;

    // docker cp's rules where something is already there: a folder merges into a folder
    // (keeping its mode), anything else is replaced, but never a folder by a non-folder.
    struct stat st {
    };
    const bool exists = ::lstat(local.constData(), &st) == 0;
    if (dir && exists && S_ISDIR(st.st_mode)) {
        m_dirs.insert(*rel);
        m_entries << *rel;
        return {};
    }
    if (dir && exists)
        return fail(makeError(ErrorCode::Conflict, tr("'%1' exists and is not a folder.").arg(path)));
    if (exists && S_ISDIR(st.st_mode))
        return fail(makeError(ErrorCode::Conflict, tr("'%1' exists and is a folder.").arg(path)));

    struct archive_entry *e = archive_entry_new();
    archive_entry_copy_pathname(e, local.constData());
    archive_entry_set_mtime(e, m_mtime, 0);
    archive_entry_set_atime(e, m_mtime, 0);
    if (dir) {
        archive_entry_set_filetype(e, AE_IFDIR);
        archive_entry_set_perm(e, m_mode | 0700); // folders made here stay writable to us
    } else if (symlink) {
        if (auto to = resolveLinkWithinRoot(*rel, m_link); !to) {
            archive_entry_free(e);
            return fail(to.error());
        }
        archive_entry_set_filetype(e, AE_IFLNK);
        archive_entry_set_perm(e, 0777);
        archive_entry_copy_symlink(e, QFile::encodeName(m_link).constData());
    } else if (hardlink) {
        auto target = safeEntryName(m_link);
        if (target)
            *target = withRootName(*target);
        if (!target || !m_files.contains(*target)) {
            archive_entry_free(e);
            return fail(
                !target
                    ? target.error()
                    : makeError(
                          ErrorCode::InvalidArgument,
                          tr("The archive entry '%1' links to '%2', which it did not contain.").arg(*rel, *target)));
        }
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_copy_hardlink(e, QFile::encodeName(m_root + QLatin1Char('/') + *target).constData());
    } else {
        // No size: the parser counts the data, and a short entry is not padded out.
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, m_mode);
    }
    int rc = ARCHIVE_FATAL;
    withPrivateUmask([&] { rc = archive_write_header(m_disk, e); });
    archive_entry_free(e);
    if (rc < ARCHIVE_WARN)
        return fail(diskError(*rel));
    m_entryOpen = true;
    m_writing = regular;
    m_rel = *rel;
    if (regular)
        m_files.insert(*rel);
    else
        m_files.remove(*rel);
    // The library made (or found) every parent folder, after refusing any link among them.
    for (auto slash = rel->indexOf(QLatin1Char('/')); slash > 0; slash = rel->indexOf(QLatin1Char('/'), slash + 1))
        m_dirs.insert(rel->left(slash));
    if (dir)
        m_dirs.insert(*rel);
    m_entries << *rel;
    return {};
}

VoidResult TarExtractor::writeData(const char *data, qint64 size)
{
    if (!m_writing)
        return {};
    while (size > 0) {
        const la_ssize_t n = archive_write_data(m_disk, data, size_t(size));
        if (n <= 0)
            return fail(
                makeError(ErrorCode::Internal, tr("Writing '%1' failed: %2").arg(m_name, archiveMessage(m_disk))));
        data += n;
        size -= n;
        m_fileBytes += n;
    }
    return {};
}

VoidResult TarExtractor::closeFile()
{
    if (!m_entryOpen)
        return {};
    const int rc = archive_write_finish_entry(m_disk);
    m_entryOpen = m_writing = false;
    if (rc < ARCHIVE_WARN)
        return fail(makeError(ErrorCode::Internal, tr("Writing '%1' failed: %2").arg(m_name, archiveMessage(m_disk))));
    return {};
}

} // namespace sandbar::files
