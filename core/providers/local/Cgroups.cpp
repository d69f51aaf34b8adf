#include "Cgroups.h"

#include "providers/local/LocalTr.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <cmath>

namespace sandbar::local {

namespace {
QString readText(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).trimmed();
}

bool writeText(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size() && f.flush();
}

bool writable(const QString &dir)
{
    return QFileInfo(dir).isWritable();
}

bool v2Delegates(const QString &dir)
{
    const QStringList ctrl = readText(dir + QStringLiteral("/cgroup.subtree_control")).split(QLatin1Char(' '));
    return writable(dir) && ctrl.contains(QStringLiteral("cpu")) && ctrl.contains(QStringLiteral("memory"));
}

// Our own cgroup path per controller ("" for v2's unified line) from /proc/self/cgroup.
QString ownPath(const QString &controller)
{
    const QStringList lines = readText(QStringLiteral("/proc/self/cgroup")).split(QLatin1Char('\n'));
    for (const auto &line : lines) {
        const QStringList parts = line.split(QLatin1Char(':'));
        if (parts.size() < 3)
            continue;
        if (parts[1].split(QLatin1Char(',')).contains(controller))
            return parts.mid(2).join(QLatin1Char(':'));
    }
    return {};
}
} // namespace

CgroupSupport detectCgroups(const QString &overrideRoot)
{
    CgroupSupport s;
    const QString env = qEnvironmentVariable("SANDBAR_LOCAL_CGROUP_ROOT");
    const QString forced = overrideRoot.isEmpty() ? env : overrideRoot;
    if (forced == QStringLiteral("none")) {
        s.reason = tr("cgroup limits are turned off for this account");
        return s;
    }
    if (!forced.isEmpty()) {
        if (v2Delegates(forced)) {
            s.kind = CgroupSupport::Kind::V2;
            s.v2Parent = forced;
        } else {
            s.reason =
                tr("%1 is not a writable cgroup v2 folder delegating the cpu and memory controllers").arg(forced);
        }
        return s;
    }
    const QString base = QStringLiteral("/sys/fs/cgroup");
    if (QFileInfo::exists(base + QStringLiteral("/cgroup.controllers"))) {
        // Pure v2: the parent of our own (leaf) cgroup is what a systemd user session
        // delegates to us.
        QString own;
        for (const auto &line : readText(QStringLiteral("/proc/self/cgroup")).split(QLatin1Char('\n'))) {
            if (line.startsWith(QStringLiteral("0::")))
                own = line.mid(3);
        }
        const QString mine = QDir::cleanPath(base + own);
        for (const QString &candidate : {mine, QFileInfo(mine).path()}) {
            if (candidate.startsWith(base) && candidate != base && v2Delegates(candidate)) {
                s.kind = CgroupSupport::Kind::V2;
                s.v2Parent = candidate;
                return s;
            }
        }
        s.reason = tr("cgroup v2 is not delegated to this user (start Sandbar from a systemd user session "
                      "with Delegate=yes)");
        return s;
    }
    // v1 or hybrid: nested under our own cgroup, so the limits we live under still apply.
    const QString cpu = QDir::cleanPath(base + QStringLiteral("/cpu") + ownPath(QStringLiteral("cpu")));
    const QString mem = QDir::cleanPath(base + QStringLiteral("/memory") + ownPath(QStringLiteral("memory")));
    const QString pids = QDir::cleanPath(base + QStringLiteral("/pids") + ownPath(QStringLiteral("pids")));
    if (QFileInfo::exists(cpu + QStringLiteral("/cpu.cfs_quota_us")) && writable(cpu) &&
        QFileInfo::exists(mem + QStringLiteral("/memory.limit_in_bytes")) && writable(mem)) {
        s.kind = CgroupSupport::Kind::V1;
        s.v1Cpu = cpu;
        s.v1Memory = mem;
        // The hierarchy's root has no pids.max of its own; the session's folder will.
        if (QFileInfo::exists(pids + QStringLiteral("/cgroup.procs")) && writable(pids))
            s.v1Pids = pids;
        // Statistics only: where cpuacct is mounted with cpu, the cpu folder already counts.
        const QString acct = QDir::cleanPath(base + QStringLiteral("/cpuacct") + ownPath(QStringLiteral("cpuacct")));
        if (QFileInfo::exists(acct + QStringLiteral("/cpuacct.usage")) && writable(acct) &&
            QFileInfo(acct).canonicalFilePath() != QFileInfo(cpu).canonicalFilePath())
            s.v1Cpuacct = acct;
        const QString blkio = QDir::cleanPath(base + QStringLiteral("/blkio") + ownPath(QStringLiteral("blkio")));
        if (QFileInfo::exists(blkio + QStringLiteral("/cgroup.procs")) && writable(blkio))
            s.v1Blkio = blkio;
        return s;
    }
    s.reason = tr("the cgroup v1 cpu and memory hierarchies are not writable by this user");
    return s;
}

Error limitsUnsupportedError(const CgroupSupport &support)
{
    return makeError(ErrorCode::Unsupported,
                     tr("CPU, memory and process limits cannot be enforced here: %1. Create the session "
                        "without limits, or use a provider that enforces them.")
                         .arg(support.reason));
}

Result<SessionCgroups> createSessionCgroups(const CgroupSupport &support, const QString &sessionId,
                                            const CgroupLimits &limits)
{
    if (support.kind == CgroupSupport::Kind::None)
        return limitsUnsupportedError(support);
    SessionCgroups out;
    const QString leaf = QStringLiteral("sandbar-") + sessionId;
    auto make = [&](const QString &parent) -> QString {
        const QString dir = parent + QLatin1Char('/') + leaf;
        if (!QDir().mkpath(dir))
            return {};
        out.dirs << dir;
        out.procs << dir + QStringLiteral("/cgroup.procs");
        return dir;
    };
    auto fail = [&](const QString &what) -> Result<SessionCgroups> {
        removeSessionCgroups(out.dirs);
        return makeError(ErrorCode::LimitReached, tr("Could not set the session's limits (%1).").arg(what));
    };
    const qint64 period = 100000;
    if (support.kind == CgroupSupport::Kind::V2) {
        const QString dir = make(support.v2Parent);
        if (dir.isEmpty())
            return fail(support.v2Parent);
        if (limits.cpus &&
            !writeText(dir + QStringLiteral("/cpu.max"),
                       QByteArray::number(qint64(std::ceil(*limits.cpus * period))) + ' ' + QByteArray::number(period)))
            return fail(QStringLiteral("cpu.max"));
        if (limits.memoryBytes) {
            if (!writeText(dir + QStringLiteral("/memory.max"), QByteArray::number(*limits.memoryBytes)))
                return fail(QStringLiteral("memory.max"));
            writeText(dir + QStringLiteral("/memory.swap.max"), "0");
        }
        if (limits.pids && !writeText(dir + QStringLiteral("/pids.max"), QByteArray::number(*limits.pids)))
            return fail(QStringLiteral("pids.max"));
        return out;
    }
    const QString cpu = make(support.v1Cpu);
    const QString mem = make(support.v1Memory);
    if (cpu.isEmpty() || mem.isEmpty())
        return fail(support.v1Cpu);
    if (limits.cpus && !(writeText(cpu + QStringLiteral("/cpu.cfs_period_us"), QByteArray::number(period)) &&
                         writeText(cpu + QStringLiteral("/cpu.cfs_quota_us"),
                                   QByteArray::number(qint64(std::ceil(*limits.cpus * period))))))
        return fail(QStringLiteral("cpu.cfs_quota_us"));
    if (limits.memoryBytes) {
        if (!writeText(mem + QStringLiteral("/memory.limit_in_bytes"), QByteArray::number(*limits.memoryBytes)))
            return fail(QStringLiteral("memory.limit_in_bytes"));
        // Without this the limit only pushes pages to swap where swap exists.
        writeText(mem + QStringLiteral("/memory.memsw.limit_in_bytes"), QByteArray::number(*limits.memoryBytes));
    }
    if (limits.pids) {
        if (support.v1Pids.isEmpty())
            return fail(QStringLiteral("pids"));
        const QString pids = make(support.v1Pids);
        if (pids.isEmpty() || !writeText(pids + QStringLiteral("/pids.max"), QByteArray::number(*limits.pids)))
            return fail(QStringLiteral("pids.max"));
    } else if (!support.v1Pids.isEmpty()) {
        make(support.v1Pids); // counts the session's processes; statistics only, so best effort
    }
    for (const QString &statsOnly : {support.v1Cpuacct, support.v1Blkio}) {
        if (!statsOnly.isEmpty())
            make(statsOnly);
    }
    return out;
}

bool sessionCgroupsEmpty(const QStringList &dirs)
{
    for (const auto &d : dirs) {
        if (QFileInfo::exists(d) && !readText(d + QStringLiteral("/cgroup.procs")).isEmpty())
            return false;
    }
    return true;
}

void removeSessionCgroups(const QStringList &dirs)
{
    for (const auto &d : dirs)
        QDir().rmdir(d);
}

} // namespace sandbar::local
