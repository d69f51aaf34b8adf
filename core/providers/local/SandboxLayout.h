#pragma once

// How a Local session's sandbox is laid out: the bubblewrap command line and the checks
// on what a caller may ask for. Pure functions, so that the security-relevant argument
// list is tested without starting anything.

#include "common/Result.h"
#include "providers/Session.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace sandbar::local {

// Inside the sandbox.
inline constexpr char kWorkspace[] = "/workspace";
inline constexpr char kRunDir[] = "/run/sandbar";
inline constexpr char kAgentDir[] = "/.sandbar";
inline constexpr int kSandboxUid = 1000;
inline constexpr int kSandboxGid = 1000;

struct HostSystemEntry {
    QString path;          // "/bin"
    QString symlinkTarget; // "usr/bin" when the host entry is a symlink, else empty
};

struct SandboxPlan {
    QString agentPath;  // host path of sandbar-agent
    QString sessionDir; // host: DATADIR/sessions/<id>
    QString hostname;
    bool network = false;
    QList<MountSpec> mounts;
    QList<HostSystemEntry> systemDirs; // existing /usr, /bin, /lib*, /sbin entries
    QString etcDir;                    // the prepared /etc (prepareSandboxEtc)
    // Sandbar runs as root: the sandbox's uid then maps to host uid 0, which owns the
    // files of /proc/sys and may write them (bwrap leaves /proc/sys writable in that
    // case), so those are covered read-only.
    bool hostRoot = false;
    // GPU device nodes (selectGpuDevices), names under devRoot, each --dev-bind'ed to the
    // same name under the sandbox's /dev.
    QStringList gpuDevices;
    QString devRoot = QStringLiteral("/dev");
};

// The options part of the bwrap command line (the launcher adds the fd options).
QStringList bwrapOptions(const SandboxPlan &plan);
// The command bwrap runs: the agent serving from the session's run folder.
QStringList agentCommand();

// Host directories and /etc entries present on this machine that a sandbox needs.
QList<HostSystemEntry> hostSystemDirs(const QString &root = QStringLiteral("/"));
QStringList hostEtcEntries(const QString &root = QStringLiteral("/"));

// The sandbox's /etc, shared by an account's sessions: copies of the allow-listed host
// entries that every user may read (never shadow, keys or anything 0600), the sandbox's
// own passwd and group, and empty mount points for the per-session hosts, hostname and
// resolv.conf. One bind mount instead of one per file keeps bwrap's start fast. Rebuilt
// when the host's ld.so.cache changes; built aside and renamed into place.
Result<QString> prepareSandboxEtc(const QString &cacheParent, const QString &shell,
                                  const QString &hostRoot = QStringLiteral("/"));

// A mount request is refused when the host path is missing or relative, or when the
// sandbox path would cover something the sandbox's safety rests on.
VoidResult validateMount(const MountSpec &mount);

// A file name that came from inside the sandbox and is about to be created on the host.
bool isSafeEntryName(const QString &name);

// ---- NVIDIA GPUs ----
// A Local session's GPUs are the host's device nodes bound into its /dev: /dev/nvidiaN for
// each GPU it gets and the driver's shared nodes present (nvidiactl, nvidia-uvm,
// nvidia-uvm-tools, nvidia-modeset, nvidia-caps/). The driver's user-space side (libcuda,
// libnvidia-ml, nvidia-smi) needs nothing more: the sandbox already sees the host's /usr
// and /lib read-only, and its /etc keeps the host's ld.so.cache.

// The N of every /dev/nvidiaN under devRoot, ascending.
QList<int> hostNvidiaGpus(const QString &devRoot = QStringLiteral("/dev"));

// One row of `nvidia-smi --query-gpu=index,uuid,minor_number --format=csv,noheader`.
struct NvidiaSmiGpu {
    int index = -1;
    QString uuid;
    int minor = -1; // N of /dev/nvidiaN
};
QStringList nvidiaSmiQueryArgs();
// Rows that do not read (N/A, truncated, garbage) are left out.
QList<NvidiaSmiGpu> parseNvidiaSmiGpus(const QByteArray &csv);

struct GpuSelection {
    QStringList devices; // names under devRoot for SandboxPlan::gpuDevices
    QStringList gpuIds;  // the GPUs it got: UUIDs where nvidia-smi said, else /dev/nvidiaN numbers
};
// The nodes a GPU request (CreateSpec::gpus/gpuUuids) needs. Local reads indices as
// /dev/nvidiaN numbers (nvidia-smi's index on almost every machine) and maps UUIDs through
// nvidia-smi's table (`smi`), a count takes the lowest numbers. MIG devices are refused.
// Errors: no /dev/nvidia0 (no GPU here), a GPU that is not there, a UUID without nvidia-smi.
Result<GpuSelection> selectGpuDevices(int gpus, const QStringList &ids, const QString &devRoot,
                                      const std::optional<QList<NvidiaSmiGpu>> &smi);
// True when ids hold a UUID, which only nvidia-smi maps to a device node.
bool gpuIdsNeedNvidiaSmi(const QStringList &ids);

} // namespace sandbar::local
