// The escape attempts that need a system call, as one static program: it runs unchanged in
// the Local sandbox, in a busybox container and on the host (the positive controls). Each
// command prints what it managed and exits 0 when the attempt succeeded, 1 when it did not.

#include <arpa/inet.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <string>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

int report(bool succeeded, const char *what)
{
    std::printf("%s %s\n", succeeded ? "SUCCEEDED" : "FAILED", what);
    if (!succeeded)
        std::printf("errno %d %s\n", errno, std::strerror(errno));
    return succeeded ? 0 : 1;
}

// POSIX connect, parenthesised so the project's check for Qt connects without a context
// object does not take it for one.
bool socketConnect(int fd, const void *addr, socklen_t len)
{
    return fd >= 0 && (::connect)(fd, static_cast<const sockaddr *>(addr), len) == 0;
}

int connectTcp(const char *ip, int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    ::inet_pton(AF_INET, ip, &a.sin_addr);
    // A short limit: a dropped packet must not hang the probe.
    timeval tv{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    const bool ok = socketConnect(fd, &a, sizeof a);
    return report(ok, "connect-tcp");
}

// PATH, or @NAME for an abstract socket.
int connectUnix(const char *path)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    const size_t n = std::strlen(path);
    if (n >= sizeof a.sun_path)
        return report(false, "connect-unix (path too long)");
    std::memcpy(a.sun_path, path, n);
    socklen_t len = sizeof(sa_family_t) + n + 1;
    if (path[0] == '@') {
        a.sun_path[0] = '\0';
        len = sizeof(sa_family_t) + n;
    }
    const bool ok = socketConnect(fd, &a, len);
    return report(ok, "connect-unix");
}

// Pushes "sbx-injected\n" into every terminal reachable: the given path, every open
// descriptor and /dev/tty. Whether it arrived is judged by the test on the host's side.
int tiocsti(const char *path)
{
    std::vector<int> fds;
    for (int fd = 0; fd < 1024; ++fd) {
        if (::isatty(fd))
            fds.push_back(fd);
    }
    for (const char *p : {path, "/dev/tty"}) {
        if (!p)
            continue;
        const int fd = ::open(p, O_RDWR | O_NOCTTY);
        if (fd >= 0)
            fds.push_back(fd);
    }
    int injected = 0;
    const char text[] = "sbx-injected\n";
    for (int fd : fds) {
        bool all = true;
        for (const char *c = text; *c && all; ++c)
            all = ::ioctl(fd, TIOCSTI, c) == 0;
        if (all)
            ++injected;
        std::printf("fd %d %s\n", fd, all ? "injected" : std::strerror(errno));
    }
    return report(injected > 0, "tiocsti");
}

int makeNode(const std::string &dir)
{
    const std::string node = dir + "/sbx-node";
    const bool ok = ::mknod(node.c_str(), S_IFCHR | 0600, makedev(1, 3)) == 0;
    const int r = report(ok, "mknod");
    ::unlink(node.c_str());
    return r;
}

int mountTmpfs(const std::string &dir, bool privateNamespace)
{
    const std::string target = dir + "/sbx-mnt";
    ::mkdir(target.c_str(), 0700);
    if (privateNamespace) {
        // The host control: its own mount namespace, gone when this process ends.
        if (::unshare(CLONE_NEWNS) != 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
            return report(false, "unshare mount namespace");
    }
    const bool ok = ::mount("sbx", target.c_str(), "tmpfs", 0, "size=1m") == 0;
    const int r = report(ok, "mount");
    if (ok)
        ::umount(target.c_str());
    ::rmdir(target.c_str());
    return r;
}

// Sets the clock to the time it just read: the attempt needs CAP_SYS_TIME, and were it
// allowed the clock would move by microseconds at most.
int setClock()
{
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    return report(::clock_settime(CLOCK_REALTIME, &now) == 0, "clock_settime");
}

// Empty images: the kernel checks the capability first, and an empty module is never loaded.
// EPERM (no capability) or ENOSYS (a seccomp filter) is a refusal; any other error means the
// call got past the capability check.
int loadModule()
{
    const int fd = static_cast<int>(::syscall(SYS_memfd_create, "sbx-module", 0));
    long r = ::syscall(SYS_finit_module, fd, "", 0);
    const int e1 = errno;
    std::printf("finit_module %ld errno %d %s\n", r, e1, std::strerror(e1));
    static char image[1];
    r = ::syscall(SYS_init_module, image, 0UL, "");
    const int e2 = errno;
    std::printf("init_module %ld errno %d %s\n", r, e2, std::strerror(e2));
    errno = e2;
    const auto refused = [](int e) { return e == EPERM || e == ENOSYS || e == EACCES; };
    return report(!refused(e1) || !refused(e2), "module capability");
}

std::string readFile(const std::string &path)
{
    std::string out;
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        return out;
    char buf[4096];
    size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        out.append(buf, n);
    std::fclose(f);
    for (char &c : out) {
        if (c == '\0')
            c = ' ';
    }
    return out;
}

// Looks for processes whose command line holds MARKER; signals (0) and attaches to each.
// HOSTPID is also tried directly, but only counts when it is the marked process.
int processes(const char *marker, long hostPid)
{
    std::vector<long> pids;
    if (DIR *d = ::opendir("/proc")) {
        while (dirent *e = ::readdir(d)) {
            const long pid = std::strtol(e->d_name, nullptr, 10);
            if (pid > 0 && pid != ::getpid() &&
                readFile("/proc/" + std::string(e->d_name) + "/cmdline").find(marker) != std::string::npos)
                pids.push_back(pid);
        }
        ::closedir(d);
    }
    if (::kill(static_cast<pid_t>(hostPid), 0) == 0 &&
        readFile("/proc/" + std::to_string(hostPid) + "/cmdline").find(marker) != std::string::npos)
        pids.push_back(hostPid);
    else
        std::printf("kill-direct errno %d %s\n", errno, std::strerror(errno));
    bool visible = !pids.empty(), signalled = false, attached = false;
    for (long pid : pids) {
        signalled = signalled || ::kill(static_cast<pid_t>(pid), 0) == 0;
        if (::ptrace(PTRACE_ATTACH, static_cast<pid_t>(pid), nullptr, nullptr) == 0) {
            attached = true;
            int status = 0;
            ::waitpid(static_cast<pid_t>(pid), &status, 0);
            ::ptrace(PTRACE_DETACH, static_cast<pid_t>(pid), nullptr, nullptr);
        } else {
            std::printf("ptrace errno %d %s\n", errno, std::strerror(errno));
        }
    }
    std::printf("VISIBLE %d\nSIGNALLED %d\nATTACHED %d\n", visible, signalled, attached);
    return visible ? 0 : 1;
}

// Forks sleepers until fork fails or MAX is reached, then ends them all.
int forkBomb(int max)
{
    std::vector<pid_t> kids;
    while (static_cast<int>(kids.size()) < max) {
        const pid_t pid = ::fork();
        if (pid < 0)
            break;
        if (pid == 0) {
            ::pause();
            ::_exit(0);
        }
        kids.push_back(pid);
    }
    std::printf("FORKED %zu\n", kids.size());
    std::fflush(stdout);
    for (pid_t pid : kids)
        ::kill(pid, SIGKILL);
    for (pid_t pid : kids)
        ::waitpid(pid, nullptr, 0);
    return static_cast<int>(kids.size()) >= max ? 0 : 1;
}

int memoryHog(int mib)
{
    for (int i = 1; i <= mib; ++i) {
        void *p = std::malloc(1 << 20);
        if (!p)
            return report(false, "malloc");
        std::memset(p, i, 1 << 20);
        if (i % 16 == 0) {
            std::printf("MIB %d\n", i);
            std::fflush(stdout);
        }
    }
    std::printf("DONE %d\n", mib);
    return 0;
}

int writeFile(const char *path)
{
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const bool ok = fd >= 0 && ::write(fd, "x", 1) == 1;
    return report(ok, "write");
}

} // namespace

int main(int argc, char **argv)
{
    const std::string cmd = argc > 1 ? argv[1] : "";
    const char *a2 = argc > 2 ? argv[2] : nullptr;
    const char *a3 = argc > 3 ? argv[3] : nullptr;
    if (cmd == "connect-tcp" && a3)
        return connectTcp(a2, std::atoi(a3));
    if (cmd == "connect-unix" && a2)
        return connectUnix(a2);
    if (cmd == "tiocsti")
        return tiocsti(a2);
    if (cmd == "mknod" && a2)
        return makeNode(a2);
    if (cmd == "mount" && a2)
        return mountTmpfs(a2, false);
    if (cmd == "mount-private" && a2)
        return mountTmpfs(a2, true);
    if (cmd == "userns")
        return report(::unshare(CLONE_NEWUSER) == 0, "unshare user namespace");
    if (cmd == "settime")
        return setClock();
    if (cmd == "module")
        return loadModule();
    if (cmd == "processes" && argc > 4) {
        // The marker comes in two halves, so the probe's own command line does not hold it.
        const std::string marker = std::string(a2) + a3;
        return processes(marker.c_str(), std::atol(argv[4]));
    }
    if (cmd == "hold" && a2) {
        // The host process the sandbox must neither see nor touch; MARKER (argv[2]) names it.
        ::alarm(600);
        for (;;)
            ::pause();
    }
    if (cmd == "euid") {
        std::printf("EUID %d\n", static_cast<int>(::geteuid()));
        return ::geteuid() == 0 ? 0 : 1;
    }
    if (cmd == "forkbomb" && a2)
        return forkBomb(std::atoi(a2));
    if (cmd == "memhog" && a2)
        return memoryHog(std::atoi(a2));
    if (cmd == "write" && a2)
        return writeFile(a2);
    std::fprintf(stderr, "usage: escape_probe COMMAND ARGS\n");
    return 2;
}
