#include "providers/docker/PodmanSeccomp.h"

#include <QDir>
#include <QFile>
#include <algorithm>
#include <nlohmann/json.hpp>

namespace sandbar::docker {

// containers-common 0.50's seccomp.json (Apache-2.0, what Podman 4.3 uses by default) with
// three changes, and otherwise rule for rule the same (empty fields left out):
// - clone and unshare leave the list of calls allowed outright; each is allowed when its
//   flags lack CLONE_NEWUSER (0x10000000) and refused with EPERM when they have it (as
//   Docker answers). On s390 the flags are clone's second argument. Other namespace flags
//   stay to the kernel, which refuses them to a process without CAP_SYS_ADMIN (Sandbar's
//   sessions drop every capability).
// - clone3 passes its flags in memory, out of reach of seccomp: it answers ENOSYS, so libc
//   falls back to clone (Docker's profile does the same).
// The names of calls a kernel or libseccomp does not know are skipped by the runtime.
static const char kProfile[] = R"json({"defaultAction":"SCMP_ACT_ERRNO", "defaultErrnoRet":38,
"archMap":[{"architecture":"SCMP_ARCH_X86_64", "subArchitectures":["SCMP_ARCH_X86", "SCMP_ARCH_X32"]},
{"architecture":"SCMP_ARCH_AARCH64", "subArchitectures":["SCMP_ARCH_ARM"]},
{"architecture":"SCMP_ARCH_MIPS64", "subArchitectures":["SCMP_ARCH_MIPS", "SCMP_ARCH_MIPS64N32"]},
{"architecture":"SCMP_ARCH_MIPS64N32", "subArchitectures":["SCMP_ARCH_MIPS", "SCMP_ARCH_MIPS64"]},
{"architecture":"SCMP_ARCH_MIPSEL64", "subArchitectures":["SCMP_ARCH_MIPSEL", "SCMP_ARCH_MIPSEL64N32"]},
{"architecture":"SCMP_ARCH_MIPSEL64N32", "subArchitectures":["SCMP_ARCH_MIPSEL", "SCMP_ARCH_MIPSEL64"]},
{"architecture":"SCMP_ARCH_S390X", "subArchitectures":["SCMP_ARCH_S390"]}],
"syscalls":[
{"names":["bdflush", "io_pgetevents", "kexec_file_load", "kexec_load", "migrate_pages", "move_pages",
"nfsservctl", "nice", "oldfstat", "oldlstat", "oldolduname", "oldstat", "olduname", "pciconfig_iobase",
"pciconfig_read", "pciconfig_write", "sgetmask", "ssetmask", "swapcontext", "swapoff", "swapon", "sysfs",
"uselib", "userfaultfd", "ustat", "vm86", "vm86old", "vmsplice"], "action":"SCMP_ACT_ERRNO", "errnoRet":1},
{"names":["_llseek", "_newselect", "accept", "accept4", "access", "adjtimex", "alarm", "bind", "brk",
"capget", "capset", "chdir", "chmod", "chown", "chown32", "clock_adjtime", "clock_adjtime64",
"clock_getres", "clock_getres_time64", "clock_gettime", "clock_gettime64", "clock_nanosleep",
"clock_nanosleep_time64", "close", "close_range", "connect", "copy_file_range", "creat", "dup", "dup2",
"dup3", "epoll_create", "epoll_create1", "epoll_ctl", "epoll_ctl_old", "epoll_pwait", "epoll_pwait2",
"epoll_wait", "epoll_wait_old", "eventfd", "eventfd2", "execve", "execveat", "exit", "exit_group",
"faccessat", "faccessat2", "fadvise64", "fadvise64_64", "fallocate", "fanotify_mark", "fchdir", "fchmod",
"fchmodat", "fchown", "fchown32", "fchownat", "fcntl", "fcntl64", "fdatasync", "fgetxattr", "flistxattr",
"flock", "fork", "fremovexattr", "fsconfig", "fsetxattr", "fsmount", "fsopen", "fspick", "fstat", "fstat64",
"fstatat64", "fstatfs", "fstatfs64", "fsync", "ftruncate", "ftruncate64", "futex", "futex_time64",
"futimesat", "get_mempolicy", "get_robust_list", "get_thread_area", "getcpu", "getcwd", "getdents",
"getdents64", "getegid", "getegid32", "geteuid", "geteuid32", "getgid", "getgid32", "getgroups",
"getgroups32", "getitimer", "getpeername", "getpgid", "getpgrp", "getpid", "getppid", "getpriority",
"getrandom", "getresgid", "getresgid32", "getresuid", "getresuid32", "getrlimit", "getrusage", "getsid",
"getsockname", "getsockopt", "gettid", "gettimeofday", "getuid", "getuid32", "getxattr",
"inotify_add_watch", "inotify_init", "inotify_init1", "inotify_rm_watch", "io_cancel", "io_destroy",
"io_getevents", "io_setup", "io_submit", "ioctl", "ioprio_get", "ioprio_set", "ipc", "keyctl", "kill",
"landlock_add_rule", "landlock_create_ruleset", "landlock_restrict_self", "lchown", "lchown32", "lgetxattr",
"link", "linkat", "listen", "listxattr", "llistxattr", "lremovexattr", "lseek", "lsetxattr", "lstat",
"lstat64", "madvise", "mbind", "membarrier", "memfd_create", "memfd_secret", "mincore", "mkdir", "mkdirat",
"mknod", "mknodat", "mlock", "mlock2", "mlockall", "mmap", "mmap2", "mount", "mount_setattr", "move_mount",
"mprotect", "mq_getsetattr", "mq_notify", "mq_open", "mq_timedreceive", "mq_timedreceive_time64",
"mq_timedsend", "mq_timedsend_time64", "mq_unlink", "mremap", "msgctl", "msgget", "msgrcv", "msgsnd",
"msync", "munlock", "munlockall", "munmap", "name_to_handle_at", "nanosleep", "newfstatat", "open",
"open_tree", "openat", "openat2", "pause", "pidfd_getfd", "pidfd_open", "pidfd_send_signal", "pipe",
"pipe2", "pivot_root", "pkey_alloc", "pkey_free", "pkey_mprotect", "poll", "ppoll", "ppoll_time64", "prctl",
"pread64", "preadv", "preadv2", "prlimit64", "process_mrelease", "process_vm_readv", "process_vm_writev",
"pselect6", "pselect6_time64", "ptrace", "pwrite64", "pwritev", "pwritev2", "read", "readahead", "readdir",
"readlink", "readlinkat", "readv", "reboot", "recv", "recvfrom", "recvmmsg", "recvmmsg_time64", "recvmsg",
"remap_file_pages", "removexattr", "rename", "renameat", "renameat2", "restart_syscall", "rmdir", "rseq",
"rt_sigaction", "rt_sigpending", "rt_sigprocmask", "rt_sigqueueinfo", "rt_sigreturn", "rt_sigsuspend",
"rt_sigtimedwait", "rt_sigtimedwait_time64", "rt_tgsigqueueinfo", "sched_get_priority_max",
"sched_get_priority_min", "sched_getaffinity", "sched_getattr", "sched_getparam", "sched_getscheduler",
"sched_rr_get_interval", "sched_rr_get_interval_time64", "sched_setaffinity", "sched_setattr",
"sched_setparam", "sched_setscheduler", "sched_yield", "seccomp", "select", "semctl", "semget", "semop",
"semtimedop", "semtimedop_time64", "send", "sendfile", "sendfile64", "sendmmsg", "sendmsg", "sendto",
"set_mempolicy", "set_robust_list", "set_thread_area", "set_tid_address", "setfsgid", "setfsgid32",
"setfsuid", "setfsuid32", "setgid", "setgid32", "setgroups", "setgroups32", "setitimer", "setns", "setpgid",
"setpriority", "setregid", "setregid32", "setresgid", "setresgid32", "setresuid", "setresuid32", "setreuid",
"setreuid32", "setrlimit", "setsid", "setsockopt", "setuid", "setuid32", "setxattr", "shmat", "shmctl",
"shmdt", "shmget", "shutdown", "sigaction", "sigaltstack", "signal", "signalfd", "signalfd4", "sigpending",
"sigprocmask", "sigreturn", "sigsuspend", "socketcall", "socketpair", "splice", "stat", "stat64", "statfs",
"statfs64", "statx", "symlink", "symlinkat", "sync", "sync_file_range", "syncfs", "syscall", "sysinfo",
"syslog", "tee", "tgkill", "time", "timer_create", "timer_delete", "timer_getoverrun", "timer_gettime",
"timer_gettime64", "timer_settime", "timer_settime64", "timerfd", "timerfd_create", "timerfd_gettime",
"timerfd_gettime64", "timerfd_settime", "timerfd_settime64", "times", "tkill", "truncate", "truncate64",
"ugetrlimit", "umask", "umount", "umount2", "uname", "unlink", "unlinkat", "utime", "utimensat",
"utimensat_time64", "utimes", "vfork", "wait4", "waitid", "waitpid", "write", "writev"],
"action":"SCMP_ACT_ALLOW"},
{"names":["personality"], "action":"SCMP_ACT_ALLOW", "args":[{"index":0, "value":0, "valueTwo":0,
"op":"SCMP_CMP_EQ"}]},
{"names":["personality"], "action":"SCMP_ACT_ALLOW", "args":[{"index":0, "value":8, "valueTwo":0,
"op":"SCMP_CMP_EQ"}]},
{"names":["personality"], "action":"SCMP_ACT_ALLOW", "args":[{"index":0, "value":131072, "valueTwo":0,
"op":"SCMP_CMP_EQ"}]},
{"names":["personality"], "action":"SCMP_ACT_ALLOW", "args":[{"index":0, "value":131080, "valueTwo":0,
"op":"SCMP_CMP_EQ"}]},
{"names":["personality"], "action":"SCMP_ACT_ALLOW", "args":[{"index":0, "value":4294967295, "valueTwo":0,
"op":"SCMP_CMP_EQ"}]},
{"names":["sync_file_range2"], "action":"SCMP_ACT_ALLOW", "includes":{"arches":["ppc64le"]}},
{"names":["arm_fadvise64_64", "arm_sync_file_range", "breakpoint", "cacheflush", "set_tls",
"sync_file_range2"], "action":"SCMP_ACT_ALLOW", "includes":{"arches":["arm", "arm64"]}},
{"names":["arch_prctl"], "action":"SCMP_ACT_ALLOW", "includes":{"arches":["amd64", "x32"]}},
{"names":["modify_ldt"], "action":"SCMP_ACT_ALLOW", "includes":{"arches":["amd64", "x32", "x86"]}},
{"names":["s390_pci_mmio_read", "s390_pci_mmio_write", "s390_runtime_instr"], "action":"SCMP_ACT_ALLOW",
"includes":{"arches":["s390", "s390x"]}},
{"names":["open_by_handle_at"], "action":"SCMP_ACT_ALLOW", "includes":{"caps":["CAP_DAC_READ_SEARCH"]}},
{"names":["open_by_handle_at"], "action":"SCMP_ACT_ERRNO", "excludes":{"caps":["CAP_DAC_READ_SEARCH"]},
"errnoRet":1},
{"names":["bpf", "fanotify_init", "lookup_dcookie", "perf_event_open", "quotactl", "setdomainname",
"sethostname", "setns"], "action":"SCMP_ACT_ALLOW", "includes":{"caps":["CAP_SYS_ADMIN"]}},
{"names":["bpf", "fanotify_init", "lookup_dcookie", "perf_event_open", "quotactl", "setdomainname",
"sethostname", "setns"], "action":"SCMP_ACT_ERRNO", "excludes":{"caps":["CAP_SYS_ADMIN"]}, "errnoRet":1},
{"names":["chroot"], "action":"SCMP_ACT_ALLOW", "includes":{"caps":["CAP_SYS_CHROOT"]}},
{"names":["chroot"], "action":"SCMP_ACT_ERRNO", "excludes":{"caps":["CAP_SYS_CHROOT"]}, "errnoRet":1},
{"names":["delete_module", "finit_module", "init_module", "query_module"], "action":"SCMP_ACT_ALLOW",
"includes":{"caps":["CAP_SYS_MODULE"]}},
{"names":["delete_module", "finit_module", "init_module", "query_module"], "action":"SCMP_ACT_ERRNO",
"excludes":{"caps":["CAP_SYS_MODULE"]}, "errnoRet":1},
{"names":["acct"], "action":"SCMP_ACT_ALLOW", "includes":{"caps":["CAP_SYS_PACCT"]}},
{"names":["acct"], "action":"SCMP_ACT_ERRNO", "excludes":{"caps":["CAP_SYS_PACCT"]}, "errnoRet":1},
{"names":["kcmp", "process_madvise"], "action":"SCMP_ACT_ALLOW", "includes":{"caps":["CAP_SYS_PTRACE"]}},
{"names":["kcmp", "process_madvise"], "action":"SCMP_ACT_ERRNO", "excludes":{"caps":["CAP_SYS_PTRACE"]},
"errnoRet":1},
{"names":["ioperm", "iopl"], "action":"SCMP_ACT_ALLOW", "includes":{"caps":["CAP_SYS_RAWIO"]}},
{"names":["ioperm", "iopl"], "action":"SCMP_ACT_ERRNO", "excludes":{"caps":["CAP_SYS_RAWIO"]},
"errnoRet":1},
{"names":["clock_settime", "clock_settime64", "settimeofday", "stime"], "action":"SCMP_ACT_ALLOW",
"includes":{"caps":["CAP_SYS_TIME"]}},
{"names":["clock_settime", "clock_settime64", "settimeofday", "stime"], "action":"SCMP_ACT_ERRNO",
"excludes":{"caps":["CAP_SYS_TIME"]}, "errnoRet":1},
{"names":["vhangup"], "action":"SCMP_ACT_ALLOW", "includes":{"caps":["CAP_SYS_TTY_CONFIG"]}},
{"names":["vhangup"], "action":"SCMP_ACT_ERRNO", "excludes":{"caps":["CAP_SYS_TTY_CONFIG"]}, "errnoRet":1},
{"names":["socket"], "action":"SCMP_ACT_ERRNO", "args":[{"index":0, "value":16, "valueTwo":0,
"op":"SCMP_CMP_EQ"}, {"index":2, "value":9, "valueTwo":0, "op":"SCMP_CMP_EQ"}],
"excludes":{"caps":["CAP_AUDIT_WRITE"]}, "errnoRet":22},
{"names":["socket"], "action":"SCMP_ACT_ALLOW", "args":[{"index":2, "value":9, "valueTwo":0,
"op":"SCMP_CMP_NE"}], "excludes":{"caps":["CAP_AUDIT_WRITE"]}},
{"names":["socket"], "action":"SCMP_ACT_ALLOW", "args":[{"index":0, "value":16, "valueTwo":0,
"op":"SCMP_CMP_NE"}], "excludes":{"caps":["CAP_AUDIT_WRITE"]}},
{"names":["socket"], "action":"SCMP_ACT_ALLOW", "args":[{"index":2, "value":9, "valueTwo":0,
"op":"SCMP_CMP_NE"}], "excludes":{"caps":["CAP_AUDIT_WRITE"]}},
{"names":["socket"], "action":"SCMP_ACT_ALLOW", "includes":{"caps":["CAP_AUDIT_WRITE"]}},
{"names":["clone"], "action":"SCMP_ACT_ALLOW", "args":[{"index":0, "value":268435456, "valueTwo":0,
"op":"SCMP_CMP_MASKED_EQ"}], "excludes":{"arches":["s390", "s390x"]}},
{"names":["clone"], "action":"SCMP_ACT_ERRNO", "args":[{"index":0, "value":268435456, "valueTwo":268435456,
"op":"SCMP_CMP_MASKED_EQ"}], "excludes":{"arches":["s390", "s390x"]}, "errnoRet":1},
{"names":["clone"], "action":"SCMP_ACT_ALLOW", "args":[{"index":1, "value":268435456, "valueTwo":0,
"op":"SCMP_CMP_MASKED_EQ"}], "includes":{"arches":["s390", "s390x"]}},
{"names":["clone"], "action":"SCMP_ACT_ERRNO", "args":[{"index":1, "value":268435456, "valueTwo":268435456,
"op":"SCMP_CMP_MASKED_EQ"}], "includes":{"arches":["s390", "s390x"]}, "errnoRet":1},
{"names":["unshare"], "action":"SCMP_ACT_ALLOW", "args":[{"index":0, "value":268435456, "valueTwo":0,
"op":"SCMP_CMP_MASKED_EQ"}]},
{"names":["unshare"], "action":"SCMP_ACT_ERRNO", "args":[{"index":0, "value":268435456,
"valueTwo":268435456, "op":"SCMP_CMP_MASKED_EQ"}], "errnoRet":1},
{"names":["clone3"], "action":"SCMP_ACT_ERRNO", "errnoRet":38}
]})json";

namespace {
bool isNamespaceCall(const nlohmann::json &name)
{
    return name == "clone" || name == "clone3" || name == "unshare";
}

// The rules above for clone, clone3 and unshare, the ones a profile gets in place of an
// outright allow.
const nlohmann::json &userNamespaceRules()
{
    static const nlohmann::json rules = [] {
        nlohmann::json out = nlohmann::json::array();
        const nlohmann::json builtIn = nlohmann::json::parse(kProfile);
        for (const auto &rule : builtIn["syscalls"]) {
            const auto &names = rule["names"];
            if (std::all_of(names.begin(), names.end(), isNamespaceCall))
                out.push_back(rule);
        }
        return out;
    }();
    return rules;
}

// Where Podman looks for its default profile (containers.conf's seccomp_profile default).
const char *const kEngineDefaults[] = {"/etc/containers/seccomp.json", "/usr/share/containers/seccomp.json"};
} // namespace

QByteArray refuseUserNamespaces(const QByteArray &profile)
{
    auto p = nlohmann::json::parse(profile.constData(), profile.constData() + profile.size(), nullptr, false);
    if (!p.is_object() || !p.contains("syscalls") || !p["syscalls"].is_array())
        return {};
    nlohmann::json kept = nlohmann::json::array();
    for (auto rule : p["syscalls"]) {
        if (!rule.is_object() || !rule.contains("names") || !rule["names"].is_array())
            return {};
        // An outright allow (no argument test, no capability condition) loses the three
        // calls; rules that need a capability the sessions drop stay as the engine wrote them.
        const bool outright = rule.value("action", std::string()) == "SCMP_ACT_ALLOW" &&
                              (!rule.contains("args") || rule["args"].empty()) &&
                              (!rule.contains("includes") || rule["includes"].empty());
        if (outright) {
            auto &names = rule["names"];
            names.erase(std::remove_if(names.begin(), names.end(), isNamespaceCall), names.end());
            if (names.empty())
                continue;
        }
        kept.push_back(std::move(rule));
    }
    for (const auto &rule : userNamespaceRules())
        kept.push_back(rule);
    p["syscalls"] = std::move(kept);
    return QByteArray::fromStdString(p.dump());
}

QByteArray podmanSeccompProfile(const QByteArray &engineDefault)
{
    // The engine's own default, when it has one, keeps what newer Podman releases add to it.
    if (const QByteArray patched = refuseUserNamespaces(engineDefault); !patched.isEmpty())
        return patched;
    return QByteArray(kProfile);
}

QByteArray engineDefaultSeccompProfile()
{
    for (const char *path : kEngineDefaults) {
        QFile f(QString::fromLatin1(path));
        if (f.open(QIODevice::ReadOnly))
            return f.read(4 << 20);
    }
    return {};
}

std::unique_ptr<QTemporaryFile> writePodmanSeccompProfile(const QString &dir)
{
    const QString folder = dir.isEmpty() ? QDir::tempPath() : dir;
    if (!QDir().mkpath(folder))
        return nullptr;
    // A new name each time, created exclusively and readable by its owner only: nobody else
    // on this machine can put a weaker profile in its place. A rootless engine runs as this
    // user, a rootful one as root; both can read it.
    auto file = std::make_unique<QTemporaryFile>(folder + QStringLiteral("/sandbar-seccomp-XXXXXX.json"));
    const QByteArray profile = podmanSeccompProfile(engineDefaultSeccompProfile());
    if (!file->open() || file->write(profile) != profile.size() || !file->flush())
        return nullptr;
    file->close();
    return file;
}

bool isSeccompFileError(const QByteArray &engineAnswer)
{
    // Podman 4.3: "container create: opening seccomp profile failed: open PATH: no such file
    // or directory".
    return engineAnswer.contains("seccomp profile");
}

} // namespace sandbar::docker
