#include "SandboxLayout.h"

#include "providers/local/LocalTr.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

namespace sandbar::local {

namespace {
QString inside(const char *path)
{
    return QString::fromLatin1(path);
}

// The link's text as written ("usr/bin"), not resolved against the host's tree.
QString rawLinkTarget(const QString &path)
{
#ifdef Q_OS_UNIX
    char buf[4096];
    const ssize_t n = ::readlink(QFile::encodeName(path).constData(), buf, sizeof buf - 1);
    return n > 0 ? QFile::decodeName(QByteArray(buf, n)) : QString();
#else
    return QFileInfo(path).symLinkTarget();
#endif
}

bool makeLink(const QString &target, const QString &link)
{
#ifdef Q_OS_UNIX
    return ::symlink(QFile::encodeName(target).constData(), QFile::encodeName(link).constData()) == 0;
#else
    return QFile::link(target, link);
#endif
}
} // namespace

QStringList bwrapOptions(const SandboxPlan &plan)
{
    const QString etc = plan.sessionDir + QStringLiteral("/etc");
    QStringList a = {
        QStringLiteral("--unshare-user"),
        QStringLiteral("--unshare-pid"),
        QStringLiteral("--unshare-ipc"),
        QStringLiteral("--unshare-uts"),
        QStringLiteral("--unshare-net"),
        QStringLiteral("--unshare-cgroup-try"),
        QStringLiteral("--uid"),
        QString::number(kSandboxUid),
        QStringLiteral("--gid"),
        QString::number(kSandboxGid),
        QStringLiteral("--cap-drop"),
        QStringLiteral("ALL"),
        QStringLiteral("--disable-userns"),
        QStringLiteral("--hostname"),
        plan.hostname,
    };
    for (const auto &d : plan.systemDirs) {
        if (d.symlinkTarget.isEmpty())
            a << QStringLiteral("--ro-bind") << d.path << d.path;
        else
            a << QStringLiteral("--symlink") << d.symlinkTarget << d.path;
    }
    a << QStringLiteral("--proc") << QStringLiteral("/proc") << QStringLiteral("--dev") << QStringLiteral("/dev");
    // Into bwrap's fresh /dev, after it: --dev-bind keeps them usable as devices (--bind
    // would mount them nodev).
    for (const QString &d : plan.gpuDevices)
        a << QStringLiteral("--dev-bind") << QDir(plan.devRoot).filePath(d) << QStringLiteral("/dev/") + d;
    a << QStringLiteral("--tmpfs") << QStringLiteral("/tmp") << QStringLiteral("--dir") << QStringLiteral("/var")
      << QStringLiteral("--tmpfs") << QStringLiteral("/var/tmp");
    if (plan.hostRoot) {
        a << QStringLiteral("--ro-bind") << QStringLiteral("/proc/sys") << QStringLiteral("/proc/sys")
          << QStringLiteral("--ro-bind-try") << QStringLiteral("/proc/sysrq-trigger")
          << QStringLiteral("/proc/sysrq-trigger");
    }
    // Only what programs need from /etc (prepared): the host's shadow and secrets stay out.
    a << QStringLiteral("--ro-bind") << plan.etcDir << QStringLiteral("/etc");
    for (const char *generated : {"hosts", "hostname", "resolv.conf"})
        a << QStringLiteral("--ro-bind") << etc + QLatin1Char('/') + QLatin1String(generated)
          << QStringLiteral("/etc/") + QLatin1String(generated);
    a << QStringLiteral("--bind") << plan.sessionDir + QStringLiteral("/workspace") << inside(kWorkspace)
      << QStringLiteral("--bind") << plan.sessionDir + QStringLiteral("/run") << inside(kRunDir)
      << QStringLiteral("--dir") << inside(kAgentDir) << QStringLiteral("--ro-bind") << plan.agentPath
      << inside(kAgentDir) + QStringLiteral("/agent");
    for (const auto &m : plan.mounts)
        a << (m.readOnly ? QStringLiteral("--ro-bind") : QStringLiteral("--bind")) << m.hostPath << m.sessionPath;
    a << QStringLiteral("--chdir") << inside(kWorkspace) << QStringLiteral("--clearenv") << QStringLiteral("--setenv")
      << QStringLiteral("PATH")
      << QStringLiteral("/usr/bin:/bin")
      // Last: the root itself (a tmpfs bwrap made) becomes read-only once everything is mounted.
      << QStringLiteral("--remount-ro") << QStringLiteral("/");
    return a;
}

QStringList agentCommand()
{
    return {inside(kAgentDir) + QStringLiteral("/agent"), QStringLiteral("serve"),
            inside(kRunDir) + QStringLiteral("/config.json")};
}

QList<HostSystemEntry> hostSystemDirs(const QString &root)
{
    QList<HostSystemEntry> out;
    // Not /opt: it can hold licensed software or tokens; a session that needs it names it as
    // a mount.
    for (const char *name : {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
        const QString path = QLatin1String(name);
        const QFileInfo fi(QDir(root).filePath(path.mid(1)));
        if (fi.isSymLink())
            out.append({path, rawLinkTarget(fi.filePath())});
        else if (fi.isDir())
            out.append({path, {}});
    }
    return out;
}

QStringList hostEtcEntries(const QString &root)
{
    QStringList out;
    for (const char *name : {"ld.so.cache",
                             "ld.so.conf",
                             "ld.so.conf.d",
                             "alternatives",
                             "nsswitch.conf",
                             "ssl",
                             "ca-certificates",
                             "ca-certificates.conf",
                             "localtime",
                             "timezone",
                             "profile",
                             "profile.d",
                             "bash.bashrc",
                             "inputrc",
                             "terminfo",
                             "mime.types",
                             "os-release",
                             "debian_version",
                             "protocols",
                             "services",
                             "environment",
                             "skel",
                             "vim",
                             "gitconfig"}) {
        const QString n = QLatin1String(name);
        if (QFileInfo::exists(QDir(root).filePath(QStringLiteral("etc/") + n)))
            out << n;
    }
    return out;
}

namespace {
bool everyoneMayRead(const QFileInfo &fi)
{
    const auto p = fi.permissions();
    return p.testFlag(QFile::ReadOther) && (!fi.isDir() || p.testFlag(QFile::ExeOther));
}

// Copies a file, a symlink (as a link) or a folder tree, leaving out what only its owner
// or group may read.
bool copyEntry(const QString &from, const QString &to)
{
    const QFileInfo fi(from);
    if (fi.isSymLink()) {
        const QString target = rawLinkTarget(from);
        return !target.isEmpty() && makeLink(target, to);
    }
    if (!everyoneMayRead(fi))
        return true; // skipped on purpose
    if (fi.isDir()) {
        if (!QDir().mkpath(to))
            return false;
        const QDir dir(from);
        for (const auto &name : dir.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System)) {
            if (!copyEntry(dir.filePath(name), to + QLatin1Char('/') + name))
                return false;
        }
        return true;
    }
    return QFile::copy(from, to);
}

bool writeSmall(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}
} // namespace

Result<QString> prepareSandboxEtc(const QString &cacheParent, const QString &shell, const QString &hostRoot)
{
    const QString hostEtc = QDir(hostRoot).filePath(QStringLiteral("etc"));
    const QFileInfo ldCache(hostEtc + QStringLiteral("/ld.so.cache"));
    const QByteArray stamp = "v1 " + shell.toUtf8() + ' ' +
                             QByteArray::number(ldCache.exists() ? ldCache.lastModified().toMSecsSinceEpoch() : 0);
    const QString target = cacheParent + QStringLiteral("/sandbox-etc");
    QFile stampFile(target + QStringLiteral("/.sandbar-stamp"));
    if (stampFile.open(QIODevice::ReadOnly) && stampFile.readAll() == stamp)
        return target;
    stampFile.close();

    const QString building = cacheParent + QStringLiteral("/sandbox-etc.") +
                             QString::number(QCoreApplication::applicationPid()) + QStringLiteral(".tmp");
    QDir(building).removeRecursively();
    if (!QDir().mkpath(building))
        return makeError(ErrorCode::Internal, tr("Could not create %1.").arg(building));
    for (const auto &entry : hostEtcEntries(hostRoot)) {
        if (!copyEntry(hostEtc + QLatin1Char('/') + entry, building + QLatin1Char('/') + entry)) {
            QDir(building).removeRecursively();
            return makeError(ErrorCode::Internal, tr("Could not copy /etc/%1 for the sandbox.").arg(entry));
        }
    }
    const bool ok =
        writeSmall(building + QStringLiteral("/passwd"),
                   "root:x:0:0:root:/root:/usr/sbin/nologin\nsandbox:x:1000:1000:Sandbar sandbox:/workspace:" +
                       shell.toUtf8() + "\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n") &&
        writeSmall(building + QStringLiteral("/group"), "root:x:0:\nsandbox:x:1000:\nnogroup:x:65534:\n") &&
        writeSmall(building + QStringLiteral("/hosts"), {}) && writeSmall(building + QStringLiteral("/hostname"), {}) &&
        writeSmall(building + QStringLiteral("/resolv.conf"), {}) &&
        writeSmall(building + QStringLiteral("/.sandbar-stamp"), stamp);
    if (!ok) {
        QDir(building).removeRecursively();
        return makeError(ErrorCode::Internal, tr("Could not write the sandbox's /etc in %1.").arg(building));
    }
    // Running sessions keep the old tree mounted; moving it aside does not disturb them.
    const QString old = target + QStringLiteral(".old.") + QString::number(QCoreApplication::applicationPid());
    QDir().rename(target, old);
    if (!QDir().rename(building, target)) {
        QDir(building).removeRecursively();
        if (!QFileInfo(target).isDir())
            return makeError(ErrorCode::Internal, tr("Could not put the sandbox's /etc in place in %1.").arg(target));
    }
    QDir(old).removeRecursively();
    return target;
}

VoidResult validateMount(const MountSpec &m)
{
    const QString host = QDir::cleanPath(m.hostPath);
    const QString target = QDir::cleanPath(m.sessionPath);
    if (m.hostPath.isEmpty() || !QDir::isAbsolutePath(m.hostPath) || !QFileInfo::exists(host))
        return makeError(ErrorCode::InvalidArgument, tr("The folder to mount, %1, does not exist.").arg(m.hostPath));
    if (m.sessionPath.isEmpty() || !QDir::isAbsolutePath(m.sessionPath) || target == QStringLiteral("/"))
        return makeError(ErrorCode::InvalidArgument,
                         tr("A mount needs an absolute path inside the sandbox, not \"%1\".").arg(m.sessionPath));
    for (const char *reserved : {"/proc", "/dev", "/sys", "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64",
                                 "/libx32", "/run", "/.sandbar", "/tmp"}) {
        const QString r = QLatin1String(reserved);
        if (target == r || target.startsWith(r + QLatin1Char('/')))
            return makeError(ErrorCode::InvalidArgument,
                             tr("%1 cannot be mounted over: the sandbox needs it as it is.").arg(m.sessionPath));
    }
    if (target == QLatin1String(kWorkspace))
        return makeError(ErrorCode::InvalidArgument,
                         tr("/workspace is the session's own folder; mount inside it or elsewhere."));
    return {};
}

bool isSafeEntryName(const QString &name)
{
    return !name.isEmpty() && name != QStringLiteral(".") && name != QStringLiteral("..") &&
           !name.contains(QLatin1Char('/')) && !name.contains(QChar(0));
}

QList<int> hostNvidiaGpus(const QString &devRoot)
{
    static const QRegularExpression re(QStringLiteral("^nvidia([0-9]{1,3})$"));
    QList<int> out;
    for (const QString &name : QDir(devRoot).entryList({QStringLiteral("nvidia*")}, QDir::AllEntries | QDir::System)) {
        if (const auto m = re.match(name); m.hasMatch())
            out << m.captured(1).toInt();
    }
    std::sort(out.begin(), out.end());
    return out;
}

QStringList nvidiaSmiQueryArgs()
{
    return {QStringLiteral("--query-gpu=index,uuid,minor_number"), QStringLiteral("--format=csv,noheader")};
}

QList<NvidiaSmiGpu> parseNvidiaSmiGpus(const QByteArray &csv)
{
    QList<NvidiaSmiGpu> out;
    for (const QByteArray &line : csv.split('\n')) {
        const QList<QByteArray> f = line.trimmed().split(',');
        if (f.size() != 3)
            continue;
        NvidiaSmiGpu g;
        bool okIndex = false, okMinor = false;
        g.index = f.at(0).trimmed().toInt(&okIndex);
        g.uuid = QString::fromLatin1(f.at(1).trimmed());
        g.minor = f.at(2).trimmed().toInt(&okMinor);
        if (okIndex && okMinor && g.index >= 0 && g.minor >= 0 && g.uuid.startsWith(QLatin1String("GPU-")))
            out << g;
    }
    return out;
}

bool gpuIdsNeedNvidiaSmi(const QStringList &ids)
{
    return std::any_of(ids.begin(), ids.end(), [](const QString &id) { return id.startsWith(QLatin1String("GPU-")); });
}

Result<GpuSelection> selectGpuDevices(int gpus, const QStringList &ids, const QString &devRoot,
                                      const std::optional<QList<NvidiaSmiGpu>> &smi)
{
    if (gpus == 0 && ids.isEmpty())
        return GpuSelection{};
    const QList<int> present = hostNvidiaGpus(devRoot);
    if (present.isEmpty())
        return makeError(ErrorCode::Unsupported,
                         tr("No NVIDIA GPU on this computer (no %1); create the session without GPUs.")
                             .arg(QDir(devRoot).filePath(QStringLiteral("nvidia0"))));
    QList<int> chosen;
    QStringList names; // what each chosen GPU is called in gpuIds
    const auto uuidOf = [&smi](int minor) {
        if (smi) {
            for (const auto &g : *smi) {
                if (g.minor == minor)
                    return g.uuid;
            }
        }
        return QString::number(minor);
    };
    if (!ids.isEmpty()) {
        for (const QString &id : ids) {
            int minor = -1;
            if (id.startsWith(QLatin1String("MIG-")) || id.contains(QLatin1Char(':')))
                return makeError(ErrorCode::Unsupported,
                                 tr("Local sandboxes cannot be given a MIG device (%1); give whole GPUs.").arg(id));
            if (id.startsWith(QLatin1String("GPU-"))) {
                if (!smi)
                    return makeError(ErrorCode::Unsupported,
                                     tr("Finding GPU %1 needs nvidia-smi, which is not installed; give the GPU's "
                                        "number N of /dev/nvidiaN instead.")
                                         .arg(id));
                for (const auto &g : *smi) {
                    if (g.uuid.compare(id, Qt::CaseInsensitive) == 0)
                        minor = g.minor;
                }
                if (minor < 0)
                    return makeError(ErrorCode::NotFound,
                                     tr("No GPU %1 on this computer (nvidia-smi -L lists them).").arg(id));
            } else {
                bool ok = false;
                minor = id.toInt(&ok);
                if (!ok)
                    return makeError(ErrorCode::InvalidArgument, tr("'%1' is not a GPU UUID or number.").arg(id));
            }
            if (!present.contains(minor))
                return makeError(ErrorCode::NotFound,
                                 tr("GPU %1 is not on this computer (no %2).")
                                     .arg(id, QDir(devRoot).filePath(QStringLiteral("nvidia%1").arg(minor))));
            if (!chosen.contains(minor)) {
                chosen << minor;
                names << (id.startsWith(QLatin1String("GPU-")) ? id : uuidOf(minor));
            }
        }
    } else if (gpus < 0) {
        chosen = present;
    } else if (gpus > 0) {
        if (gpus > present.size())
            return makeError(ErrorCode::InvalidArgument,
                             tr("%1 GPUs asked for; this computer has %2.").arg(gpus).arg(present.size()));
        chosen = present.mid(0, gpus);
    }
    GpuSelection out;
    if (chosen.isEmpty())
        return out;
    for (int minor : chosen) {
        out.devices << QStringLiteral("nvidia%1").arg(minor);
        if (out.gpuIds.size() < names.size())
            out.gpuIds << names.at(out.gpuIds.size());
        else
            out.gpuIds << uuidOf(minor);
    }
    // The driver's shared nodes, where the host has them. nvidia-uvm (CUDA's memory manager)
    // appears once nvidia-modprobe has run on the host; the sandbox cannot create it.
    for (const char *shared : {"nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset", "nvidia-caps"}) {
        const QString name = QLatin1String(shared);
        if (QFileInfo::exists(QDir(devRoot).filePath(name)))
            out.devices << name;
    }
    return out;
}

} // namespace sandbar::local
