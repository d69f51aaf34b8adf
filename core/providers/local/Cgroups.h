#pragma once

// CPU, memory and pids limits for Local sessions through cgroups, where this system lets
// Sandbar manage a subtree: a writable cgroup v2 folder whose parent delegates the cpu and
// memory controllers, or (running as root on a v1 or hybrid system) writable v1 cpu and
// memory hierarchies. Nothing else enforces limits, so without either a create with
// limits is refused rather than silently unlimited. Where cgroups are usable every session
// gets its own, limits or not: its counters are the session's statistics (CgroupStats.h).

#include "common/Result.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace sandbar::local {

struct CgroupLimits {
    std::optional<double> cpus;
    std::optional<qint64> memoryBytes;
    std::optional<qint64> pids;
    bool any() const { return cpus || memoryBytes || pids; }
};

struct CgroupSupport {
    enum class Kind { None, V2, V1 };
    Kind kind = Kind::None;
    QString v2Parent; // V2: the folder session cgroups are made in
    QString v1Cpu;    // V1: folders session cgroups are made in, per controller
    QString v1Memory;
    QString v1Pids;
    // V1, for statistics only (empty where missing, not writable, or the same hierarchy
    // as v1Cpu, as with a "cpu,cpuacct" mount): CPU time and block I/O counters.
    QString v1Cpuacct;
    QString v1Blkio;
    QString reason; // None: why, for the refusal message
};

// Looks at /proc/self/cgroup and the mounted hierarchies. `override` (an account setting
// or SANDBAR_LOCAL_CGROUP_ROOT) names a v2 folder to use instead; "none" disables limits.
CgroupSupport detectCgroups(const QString &override = {});

// Made for one session; `procs` are the cgroup.procs files its first process joins.
struct SessionCgroups {
    QStringList dirs;
    QStringList procs;
};

Result<SessionCgroups> createSessionCgroups(const CgroupSupport &support, const QString &sessionId,
                                            const CgroupLimits &limits);
// Removes the folders (they must be empty of processes by then); best effort.
void removeSessionCgroups(const QStringList &dirs);
// True once no process is left in any of them (exiting ones linger for a moment).
bool sessionCgroupsEmpty(const QStringList &dirs);

// The message a create with limits gets when nothing can enforce them.
Error limitsUnsupportedError(const CgroupSupport &support);

} // namespace sandbar::local
