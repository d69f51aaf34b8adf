#pragma once

// A Local session's resource use as its cgroups count it. The parsers are pure functions
// over the text of one cgroup file (table-tested in tests/local/tst_cgroupstats.cpp);
// readCgroupStats is the thin reader over the session's cgroup folders.

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>

namespace sandbar::local {

// Everything a session's cgroups told. Absent: no such file, or it could not be read.
struct CgroupReading {
    std::optional<qint64> cpuNs;           // cumulative CPU time of every process in it
    std::optional<qint64> memoryUsedBytes; // usage less inactive page cache, as docker stats does
    std::optional<qint64> memoryLimitBytes;
    bool memoryUnlimited = false; // the limit file said "no limit"
    std::optional<qint64> oomKills;
    std::optional<qint64> ioReadBytes;
    std::optional<qint64> ioWriteBytes;
    // From v2's io.stat, which charges writeback to the cgroup that dirtied the pages. v1's
    // blkio counters miss buffered writes (charged to the root group) and recent kernels
    // count there only where a throttle rule is set, so they are a last resort.
    bool ioUnified = false;
    std::optional<qint64> pids;
};

namespace cgroupfile {
// A file holding one number (memory.current, pids.current, cpuacct.usage, ...).
std::optional<qint64> single(const QByteArray &text);
// The value of `key` in a flat-keyed file, one "key value" per line (cpu.stat,
// memory.events, memory.stat, memory.oom_control).
std::optional<qint64> keyed(const QByteArray &text, const QByteArray &key);
// cgroup v2 cpu.stat: usage_usec, in nanoseconds.
std::optional<qint64> cpuStatNs(const QByteArray &text);

struct Limit {
    std::optional<qint64> bytes;
    bool unlimited = false;
};
// memory.max ("max" or bytes) and v1 memory.limit_in_bytes (a huge number: no limit).
Limit memoryLimit(const QByteArray &text);

// usage (memory.current / memory.usage_in_bytes) less inactive_file from memory.stat:
// total_inactive_file (v1, hierarchical) when present and smaller, else inactive_file,
// else usage itself. This is docker stats' "usage without cache" (moby#40727).
qint64 memoryUsed(qint64 usage, const QByteArray &memoryStat);

struct Io {
    qint64 readBytes = 0;
    qint64 writeBytes = 0;
};
// cgroup v2 io.stat: "MAJ:MIN rbytes=N wbytes=N rios=N ..." per device, summed.
std::optional<Io> ioStat(const QByteArray &text);
// cgroup v1 blkio.throttle.io_service_bytes(_recursive): "MAJ:MIN Read N" / "Write N" per
// device (Sync, Async, Discard and Total lines are not added), summed.
std::optional<Io> blkioServiceBytes(const QByteArray &text);
} // namespace cgroupfile

// Reads whichever of the v2 and v1 files exist in the session's cgroup folders (the v1
// controllers each have their own folder; a v2 session has one).
CgroupReading readCgroupStats(const QStringList &dirs);

} // namespace sandbar::local
