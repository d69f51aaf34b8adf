#include "CgroupStats.h"

#include <QFile>
#include <QList>
#include <limits>

namespace sandbar::local {

namespace cgroupfile {

namespace {
std::optional<qint64> number(const QByteArray &token)
{
    bool ok = false;
    const qint64 v = token.toLongLong(&ok);
    if (!ok || v < 0)
        return std::nullopt;
    return v;
}

// The kernel's "no limit" is PAGE_COUNTER_MAX pages (9223372036854771712 with 4 KiB pages);
// no machine has anywhere near 2^60 bytes, so anything from there up means unlimited.
constexpr qint64 kUnlimited = qint64(1) << 60;

bool isDevice(const QByteArray &token)
{
    const qsizetype colon = token.indexOf(':');
    return colon > 0 && number(token.left(colon)) && number(token.mid(colon + 1));
}
} // namespace

std::optional<qint64> single(const QByteArray &text)
{
    return number(text.trimmed());
}

std::optional<qint64> keyed(const QByteArray &text, const QByteArray &key)
{
    for (const QByteArray &line : text.split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() == 2 && f.at(0) == key)
            return number(f.at(1));
    }
    return std::nullopt;
}

std::optional<qint64> cpuStatNs(const QByteArray &text)
{
    const auto usec = keyed(text, "usage_usec");
    if (!usec || *usec > std::numeric_limits<qint64>::max() / 1000)
        return std::nullopt;
    return *usec * 1000;
}

Limit memoryLimit(const QByteArray &text)
{
    Limit l;
    const QByteArray t = text.trimmed();
    if (t == "max") {
        l.unlimited = true;
        return l;
    }
    const auto v = number(t);
    if (v && *v >= kUnlimited)
        l.unlimited = true;
    else
        l.bytes = v;
    return l;
}

qint64 memoryUsed(qint64 usage, const QByteArray &memoryStat)
{
    if (const auto total = keyed(memoryStat, "total_inactive_file"); total && *total < usage)
        return usage - *total;
    if (const auto inactive = keyed(memoryStat, "inactive_file"); inactive && *inactive < usage)
        return usage - *inactive;
    return usage;
}

std::optional<Io> ioStat(const QByteArray &text)
{
    Io io;
    for (const QByteArray &line : text.split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() == 1 && f.at(0).isEmpty())
            continue;
        if (!isDevice(f.at(0)))
            return std::nullopt;
        for (qsizetype i = 1; i < f.size(); ++i) {
            const qsizetype eq = f.at(i).indexOf('=');
            if (eq <= 0)
                return std::nullopt;
            const QByteArray key = f.at(i).left(eq);
            const auto v = number(f.at(i).mid(eq + 1));
            if (!v)
                return std::nullopt;
            if (key == "rbytes")
                io.readBytes += *v;
            else if (key == "wbytes")
                io.writeBytes += *v;
        }
    }
    return io;
}

std::optional<Io> blkioServiceBytes(const QByteArray &text)
{
    Io io;
    for (const QByteArray &line : text.split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() == 1 && f.at(0).isEmpty())
            continue;
        if (f.size() == 2 && f.at(0) == "Total" && number(f.at(1)))
            continue; // the sum over devices, which the per-device lines already give
        if (f.size() != 3 || !isDevice(f.at(0)))
            return std::nullopt;
        const auto v = number(f.at(2));
        if (!v)
            return std::nullopt;
        if (f.at(1) == "Read")
            io.readBytes += *v;
        else if (f.at(1) == "Write")
            io.writeBytes += *v;
    }
    return io;
}

} // namespace cgroupfile

namespace {
std::optional<QByteArray> readIfPresent(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    return f.readAll();
}
} // namespace

CgroupReading readCgroupStats(const QStringList &dirs)
{
    using namespace cgroupfile;
    CgroupReading r;
    for (const QString &dir : dirs) {
        const auto file = [&dir](const char *name) {
            return readIfPresent(dir + QLatin1Char('/') + QLatin1String(name));
        };
        if (!r.cpuNs) {
            if (const auto t = file("cpuacct.usage"))
                r.cpuNs = single(*t);
            else if (const auto s = file("cpu.stat"))
                r.cpuNs = cpuStatNs(*s); // v1's cpu.stat has no usage_usec: stays absent
        }
        if (!r.memoryUsedBytes) {
            auto usage = file("memory.current");
            if (!usage)
                usage = file("memory.usage_in_bytes");
            if (usage) {
                if (const auto u = single(*usage))
                    r.memoryUsedBytes = memoryUsed(*u, file("memory.stat").value_or(QByteArray()));
            }
        }
        if (!r.memoryLimitBytes && !r.memoryUnlimited) {
            auto limit = file("memory.max");
            if (!limit)
                limit = file("memory.limit_in_bytes");
            if (limit) {
                const Limit l = memoryLimit(*limit);
                r.memoryLimitBytes = l.bytes;
                r.memoryUnlimited = l.unlimited;
            }
        }
        if (!r.oomKills) {
            if (const auto events = file("memory.events"))
                r.oomKills = keyed(*events, "oom_kill");
            else if (const auto control = file("memory.oom_control"))
                r.oomKills = keyed(*control, "oom_kill"); // since Linux 4.13
        }
        if (!r.ioReadBytes) {
            std::optional<Io> io;
            if (const auto t = file("io.stat")) {
                io = ioStat(*t);
                r.ioUnified = io.has_value();
            } else if (const auto rec = file("blkio.throttle.io_service_bytes_recursive"))
                io = blkioServiceBytes(*rec);
            else if (const auto flat = file("blkio.throttle.io_service_bytes"))
                io = blkioServiceBytes(*flat);
            if (io) {
                r.ioReadBytes = io->readBytes;
                r.ioWriteBytes = io->writeBytes;
            }
        }
        if (!r.pids) {
            if (const auto t = file("pids.current"))
                r.pids = single(*t);
        }
    }
    return r;
}

} // namespace sandbar::local
