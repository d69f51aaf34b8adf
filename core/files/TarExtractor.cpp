#include "files/TarExtractor.h"

#include "files/PathSafety.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbar::files {

namespace {
constexpr qint64 kBlock = 512;
constexpr qint64 kMaxMeta = 1024 * 1024;

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbar::files", text);
}

QString sysError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
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
} // namespace

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
    if (m_fd >= 0)
        ::close(m_fd);
}

VoidResult TarExtractor::fail(Error error)
{
    if (!m_error)
        m_error = std::move(error);
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
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

VoidResult TarExtractor::makeParents(const QString &rel)
{
    const QStringList parts = rel.split(QLatin1Char('/'));
    QString path = m_root;
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        path += QLatin1Char('/') + parts.at(i);
        const QByteArray local = QFile::encodeName(path);
        struct stat st {
        };
        if (::lstat(local.constData(), &st) != 0) {
            if (errno != ENOENT || ::mkdir(local.constData(), 0755) != 0)
                return fail(makeError(ErrorCode::Internal, tr("Cannot create '%1': %2").arg(path, sysError())));
            continue;
        }
        if (S_ISLNK(st.st_mode))
            return fail(makeError(ErrorCode::InvalidArgument,
                                  tr("The archive entry '%1' would be written through a link.").arg(rel)));
        if (!S_ISDIR(st.st_mode))
            return fail(makeError(ErrorCode::Conflict, tr("'%1' is not a folder.").arg(path)));
    }
    return {};
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
    if (!QDir().mkpath(m_root))
        return fail(makeError(ErrorCode::Internal, tr("Cannot create '%1'.").arg(m_root)));
    if (auto r = makeParents(*rel); !r)
        return r;
    const QString path = m_root + QLatin1Char('/') + *rel;
    const QByteArray local = QFile::encodeName(path);
    struct stat st {
    };
    const bool exists = ::lstat(local.constData(), &st) == 0;
    if (dir) {
        if (exists && S_ISDIR(st.st_mode)) {
            m_entries << *rel;
            return {};
        }
        if (exists)
            return fail(makeError(ErrorCode::Conflict, tr("'%1' exists and is not a folder.").arg(path)));
        if (::mkdir(local.constData(), m_mode | 0700) != 0)
            return fail(makeError(ErrorCode::Internal, tr("Cannot create '%1': %2").arg(path, sysError())));
        m_entries << *rel;
        return {};
    }
    if (exists && S_ISDIR(st.st_mode))
        return fail(makeError(ErrorCode::Conflict, tr("'%1' exists and is a folder.").arg(path)));
    if (exists && !S_ISREG(st.st_mode) && ::unlink(local.constData()) != 0)
        return fail(makeError(ErrorCode::Internal, tr("Cannot replace '%1': %2").arg(path, sysError())));
    if (symlink) {
        if (auto to = resolveLinkWithinRoot(*rel, m_link); !to)
            return fail(to.error());
        if (exists && S_ISREG(st.st_mode))
            ::unlink(local.constData());
        if (::symlink(QFile::encodeName(m_link).constData(), local.constData()) != 0)
            return fail(makeError(ErrorCode::Internal, tr("Cannot create the link '%1': %2").arg(path, sysError())));
        m_entries << *rel;
        return {};
    }
    if (hardlink) {
        auto target = safeEntryName(m_link);
        if (!target)
            return fail(target.error());
        *target = withRootName(*target);
        const QByteArray from = QFile::encodeName(m_root + QLatin1Char('/') + *target);
        struct stat ts {
        };
        if (::lstat(from.constData(), &ts) != 0 || !S_ISREG(ts.st_mode))
            return fail(
                makeError(ErrorCode::InvalidArgument,
                          tr("The archive entry '%1' links to '%2', which it did not contain.").arg(*rel, *target)));
        if (exists)
            ::unlink(local.constData());
        if (::link(from.constData(), local.constData()) != 0)
            return fail(makeError(ErrorCode::Internal, tr("Cannot create the link '%1': %2").arg(path, sysError())));
        m_entries << *rel;
        return {};
    }
    m_fd = ::open(local.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, m_mode | 0600);
    if (m_fd < 0)
        return fail(makeError(ErrorCode::Internal, tr("Cannot write '%1': %2").arg(path, sysError())));
    ::fchmod(m_fd, m_mode);
    m_entries << *rel;
    return {};
}

VoidResult TarExtractor::writeData(const char *data, qint64 size)
{
    if (m_fd < 0)
        return {};
    while (size > 0) {
        const auto n = ::write(m_fd, data, size_t(size));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return fail(makeError(ErrorCode::Internal, tr("Writing '%1' failed: %2").arg(m_name, sysError())));
        }
        data += n;
        size -= n;
        m_fileBytes += n;
    }
    return {};
}

VoidResult TarExtractor::closeFile()
{
    if (m_fd < 0)
        return {};
    const struct timespec times[2] = {{m_mtime, 0}, {m_mtime, 0}};
    ::futimens(m_fd, times);
    const int rc = ::close(m_fd);
    m_fd = -1;
    if (rc != 0)
        return fail(makeError(ErrorCode::Internal, tr("Writing '%1' failed: %2").arg(m_name, sysError())));
    return {};
}

} // namespace sandbar::files
