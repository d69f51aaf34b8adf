// secret_watch: section 5 of the security promise ("no secret anywhere") over a whole test
// run. Convention: every secret a test hands Sandbar contains the marker sbtest-secret-,
// then a name ("sbtest-secret-cloudkey-<random>"). This program, started by test.sh before
// ctest and stopped after it, looks for the marker in
//   - every regular file closed after writing on the marked filesystems (fanotify
//     FAN_CLOSE_WRITE), read at once through the event's descriptor, so that files a test
//     deletes later are searched too (the first 64 MiB of each; the content as it is at each
//     close), when the writer is Sandbar code: sandbar, sandbarctl, sandbar-agent, or a
//     program of the build tree named sandbar* or tst_* (the tests run Sandbar's libraries
//     in their own process). The writer is the program of the writing pid's last exec
//     (FAN_OPEN_EXEC, in order with the writes, so right after it exited too). Other writers
//     (the keyring daemon, the contract server, compilers) are counted, not searched;
//   - the command line of every process: all of /proc every 100 ms, and each process as it
//     execs (the kernel's process connector, on a real-time thread, so that a program that
//     lives a millisecond is read before it ends).
// The marker is searched in plain text, UTF-16LE, hex and base64 (three alignments, and the
// URL alphabet). Watching never blocks a writer (notification events only). At SIGTERM or
// SIGINT it drains the queue, writes the report and exits 0 when nothing was found, 1 on
// findings, 2 when it lost events. Findings name a secret by the word after the marker
// (base64: "(encoded)"), never show it.
//   secret_watch --report FILE [--ready FILE] --build DIR [--mark PATH]... [--marker M]
//                [--code NAME]... [--list] [--max-bytes N]
#include "SecretSearch.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <map>
#include <mutex>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <set>
#include <string>
#include <sys/fanotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace {

using namespace secretwatch;

constexpr const char kMarker[] = "sbtest-secret-";
constexpr long long kDefaultMaxBytes = 64LL << 20; // read per file; larger files: their start only

// Where a Sandbar-code write holding a secret is expected and allowed: a test writes its own
// fixture on purpose. Keep this list short; every entry says why.
struct FileAllow {
    const char *writer;       // basename of the writing program
    const char *pathContains; // a fragment of the written file's path
    const char *why;
};
constexpr FileAllow kFileAllow[] = {
    {nullptr, nullptr, nullptr}, // none needed so far
};

// Programs whose command line may hold a secret on purpose, and which argument.
struct ArgAllow {
    const char *program; // basename of /proc/PID/exe
    const char *option;  // the argument after this one is not searched
    const char *why;
};
constexpr ArgAllow kArgAllow[] = {
    {"sandbar-contract-server", "--api-key",
     "the stand-in for the provider is told which key to expect; it is not Sandbar"},
};

struct Options {
    std::string report, ready, build, marker = kMarker;
    std::vector<std::string> marks, code;
    bool list = false;
    long long maxBytes = kDefaultMaxBytes;
};

struct Stats {
    long long filesScanned = 0, bytesScanned = 0, unchanged = 0, truncated = 0, otherWriters = 0;
    long long unattributed = 0, allowed = 0, images = 0, sandbarImages = 0, execEvents = 0, rounds = 0;
    long long overflows = 0, connectorDrops = 0, allowedArgs = 0;
};

std::string basenameOf(const std::string &path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string readLink(const std::string &path)
{
    char buf[4096];
    const ssize_t n = readlink(path.c_str(), buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, size_t(n)) : std::string();
}

std::string readSmall(const std::string &path, size_t cap)
{
    std::string out;
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return out;
    char buf[8192];
    ssize_t n;
    while (out.size() < cap && (n = read(fd, buf, sizeof buf)) > 0)
        out.append(buf, size_t(n));
    close(fd);
    return out;
}

// A process's start time (clock ticks after boot, /proc/PID/stat field 22): with the pid,
// it names one process even when pids are reused (pid_max can be as low as 32768). -1: gone.
long long startTimeOf(int pid)
{
    const std::string stat = readSmall("/proc/" + std::to_string(pid) + "/stat", 4096);
    const auto paren = stat.rfind(')');
    if (paren == std::string::npos)
        return -1;
    size_t at = paren + 2; // field 3 (state) starts here
    for (int field = 3; field < 22; ++field) {
        at = stat.find(' ', at);
        if (at == std::string::npos)
            return -1;
        ++at;
    }
    return atoll(stat.c_str() + at);
}

class Watcher
{
public:
    explicit Watcher(Options o)
        : m_opt(std::move(o))
        , m_patterns(patternsFor(m_opt.marker))
    {
    }

    bool start(std::string &error);
    int run(int signalFd);
    int writeReport() const;

private:
    bool isSandbarCode(const std::string &exe) const;
    std::string writerOf(int pid);
    void readEvents();
    void scanFile(int fd, int pid);
    void readConnector();
    void sampleAll();
    void sampleProcess(int pid);

    Options m_opt;
    std::vector<Pattern> m_patterns;
    std::string m_buildReal;
    int m_fan = -1, m_nl = -1;
    // The exec listener runs on its own real-time thread, so that it reads a new program's
    // arguments before that program can finish: m_lock guards what both threads touch.
    std::thread m_connector;
    std::atomic<bool> m_stop{false};
    bool m_realtime = false;
    std::mutex m_lock;
    std::map<int, std::pair<std::string, long long>> m_execOf; // pid -> program of its last exec, start time
    std::map<std::pair<dev_t, ino_t>, std::pair<off_t, long long>> m_seen; // size, mtime of last scan
    std::map<int, size_t> m_cmdlineHash;
    std::set<std::string> m_findings;
    std::vector<std::string> m_listed, m_markDesc;
    Stats m_stats;
};

bool Watcher::isSandbarCode(const std::string &exe) const
{
    // "comm:NAME": only the name (15 characters at most) of a writer that is a zombie now.
    if (exe.rfind("comm:", 0) == 0) {
        const std::string comm = exe.substr(5);
        return comm == "sandbar" || comm == "sandbarctl" || comm == "sandbar-agent" || comm.rfind("tst_", 0) == 0 ||
               std::find(m_opt.code.begin(), m_opt.code.end(), comm) != m_opt.code.end();
    }
    const std::string base = basenameOf(exe);
    if (base == "sandbar" || base == "sandbarctl" || base == "sandbar-agent")
        return true;
    if (std::find(m_opt.code.begin(), m_opt.code.end(), base) != m_opt.code.end())
        return true;
    const bool inBuild = !m_buildReal.empty() && exe.rfind(m_buildReal + "/", 0) == 0;
    // The contract server is the stand-in for a cloud provider, not Sandbar.
    return inBuild && base != "sandbar-contract-server" &&
           (base.rfind("tst_", 0) == 0 || base.rfind("sandbar", 0) == 0);
}

bool Watcher::start(std::string &error)
{
    char real[PATH_MAX];
    if (!m_opt.build.empty() && realpath(m_opt.build.c_str(), real))
        m_buildReal = real;
    m_fan = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK | FAN_UNLIMITED_QUEUE,
                          O_RDONLY | O_LARGEFILE | O_CLOEXEC | O_NOATIME);
    if (m_fan < 0) {
        error = std::string("fanotify_init: ") + strerror(errno) + " (needs root and CONFIG_FANOTIFY)";
        return false;
    }
    std::set<dev_t> done;
    for (const std::string &path : m_opt.marks) {
        struct stat st {
        };
        if (stat(path.c_str(), &st) != 0 || !done.insert(st.st_dev).second)
            continue;
        const uint64_t mask = FAN_CLOSE_WRITE | FAN_OPEN_EXEC;
        const char *how = "filesystem";
        // Some filesystems (a btrfs subvolume, some overlays) refuse a filesystem mark.
        if (fanotify_mark(m_fan, FAN_MARK_ADD | FAN_MARK_FILESYSTEM, mask, AT_FDCWD, path.c_str()) != 0) {
            how = "mount";
            if (fanotify_mark(m_fan, FAN_MARK_ADD | FAN_MARK_MOUNT, mask, AT_FDCWD, path.c_str()) != 0) {
                error = "fanotify_mark " + path + ": " + strerror(errno);
                return false;
            }
        }
        m_markDesc.push_back(std::string(how) + " of " + path);
    }
    if (m_markDesc.empty()) {
        error = "nothing to watch (no --mark that exists)";
        return false;
    }
    // The process connector: a message as each process execs. Optional (not in every
    // network namespace); the /proc sampling remains.
    m_nl = socket(PF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_CONNECTOR);
    sockaddr_nl sa{};
    sa.nl_family = AF_NETLINK;
    sa.nl_groups = CN_IDX_PROC;
    if (m_nl >= 0 && bind(m_nl, reinterpret_cast<sockaddr *>(&sa), sizeof sa) == 0) {
        // nlmsghdr, then cn_msg, then the operation (cn_msg ends in a flexible array).
        alignas(nlmsghdr) char req[NLMSG_SPACE(sizeof(cn_msg) + sizeof(proc_cn_mcast_op))] = {};
        auto *hdr = reinterpret_cast<nlmsghdr *>(req);
        hdr->nlmsg_len = NLMSG_LENGTH(sizeof(cn_msg) + sizeof(proc_cn_mcast_op));
        hdr->nlmsg_type = NLMSG_DONE;
        hdr->nlmsg_pid = uint32_t(getpid());
        auto *msg = static_cast<cn_msg *>(NLMSG_DATA(hdr));
        msg->id.idx = CN_IDX_PROC;
        msg->id.val = CN_VAL_PROC;
        msg->len = sizeof(proc_cn_mcast_op);
        const proc_cn_mcast_op op = PROC_CN_MCAST_LISTEN;
        memcpy(msg->data, &op, sizeof op);
        if (send(m_nl, req, hdr->nlmsg_len, 0) < 0) {
            close(m_nl);
            m_nl = -1;
        }
    } else if (m_nl >= 0) {
        close(m_nl);
        m_nl = -1;
    }
    return true;
}

// The program a pid runs: the last exec seen for it (in order with the writes, so right even
// when the writer exited since), else /proc, else its name while a zombie.
std::string Watcher::writerOf(int pid)
{
    const auto it = m_execOf.find(pid);
    const long long started = startTimeOf(pid);
    // Gone: the last exec recorded for the pid. Alive: that exec if it is this process's.
    if (it != m_execOf.end() && (started < 0 || started == it->second.second))
        return it->second.first;
    std::string exe = readLink("/proc/" + std::to_string(pid) + "/exe");
    if (!exe.empty())
        return exe;
    std::string comm = readSmall("/proc/" + std::to_string(pid) + "/comm", 64);
    if (!comm.empty() && comm.back() == '\n')
        comm.pop_back();
    return comm.empty() ? std::string() : "comm:" + comm;
}

void Watcher::readEvents()
{
    alignas(fanotify_event_metadata) char buf[65536];
    for (;;) {
        const ssize_t n = read(m_fan, buf, sizeof buf);
        if (n <= 0)
            return; // EAGAIN: drained
        auto *ev = reinterpret_cast<fanotify_event_metadata *>(buf);
        for (ssize_t left = n; FAN_EVENT_OK(ev, left); ev = FAN_EVENT_NEXT(ev, left)) {
            if (ev->mask & FAN_Q_OVERFLOW)
                ++m_stats.overflows;
            if (ev->fd < 0)
                continue;
            if (ev->pid != getpid()) {
                if (ev->mask & FAN_OPEN_EXEC) {
                    const std::string path = readLink("/proc/self/fd/" + std::to_string(ev->fd));
                    const std::string base = basenameOf(path);
                    // The ELF interpreter is opened for exec after the program: keep the program.
                    if (base.rfind("ld-linux", 0) != 0 && base.rfind("ld-musl", 0) != 0 && base != "ld.so")
                        m_execOf[ev->pid] = {path, startTimeOf(ev->pid)};
                }
                if (ev->mask & FAN_CLOSE_WRITE)
                    scanFile(ev->fd, ev->pid);
            }
            close(ev->fd);
        }
    }
}

void Watcher::scanFile(int fd, int pid)
{
    struct stat st {
    };
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    const std::string exe = writerOf(pid);
    if (!exe.empty() && !isSandbarCode(exe)) {
        ++m_stats.otherWriters;
        return;
    }
    if (exe.empty())
        ++m_stats.unattributed; // exited before anything recorded it: searched all the same
    const long long mtime = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    // A large file closed again unchanged (same size and time) is not read twice; small ones
    // always are (timestamps are coarse: a same-size rewrite can keep the time).
    auto &last = m_seen[{st.st_dev, st.st_ino}];
    if (st.st_size >= (1 << 20) && last.first == st.st_size && last.second == mtime) {
        ++m_stats.unchanged;
        return;
    }
    last = {st.st_size, mtime};
    const off_t want = std::min<off_t>(st.st_size, m_opt.maxBytes);
    if (st.st_size > m_opt.maxBytes)
        ++m_stats.truncated;
    static std::string data;
    data.resize(size_t(want));
    off_t got = 0;
    while (got < want) {
        const ssize_t r = pread(fd, data.data() + got, size_t(want - got), got);
        if (r <= 0)
            break;
        got += r;
    }
    data.resize(size_t(got));
    ++m_stats.filesScanned;
    m_stats.bytesScanned += got;
    const std::string path = readLink("/proc/self/fd/" + std::to_string(fd));
    if (m_opt.list)
        m_listed.push_back(path + " (" + std::to_string(got) + " bytes, by " + basenameOf(exe) + ")");
    for (const Hit &h : search(data, m_patterns, m_opt.marker)) {
        const std::string base = basenameOf(exe.rfind("comm:", 0) == 0 ? exe.substr(5) : exe);
        const FileAllow *allow = std::find_if(std::begin(kFileAllow), std::end(kFileAllow), [&](const FileAllow &a) {
            return a.writer && base == a.writer && path.find(a.pathContains) != std::string::npos;
        });
        if (allow != std::end(kFileAllow)) {
            ++m_stats.allowed;
            continue;
        }
        const std::lock_guard lock(m_lock);
        m_findings.insert("file " + path + " written by " + (exe.empty() ? std::string("an exited process") : exe) +
                          " (pid " + std::to_string(pid) + "): secret \"" + h.name + "\" (" + h.encoding + ")");
    }
}

void Watcher::sampleProcess(int pid)
{
    if (pid == getpid())
        return;
    const std::string dir = "/proc/" + std::to_string(pid);
    std::string cmdline = readSmall(dir + "/cmdline", 1 << 20);
    if (cmdline.empty())
        return; // a kernel thread, or gone
    const std::lock_guard lock(m_lock);
    const size_t hash = std::hash<std::string>{}(cmdline);
    auto &last = m_cmdlineHash[pid];
    if (last == hash)
        return;
    last = hash;
    ++m_stats.images;
    const std::string exe = readLink(dir + "/exe");
    if (isSandbarCode(exe))
        ++m_stats.sandbarImages;
    const std::string base = basenameOf(exe);
    // A child between fork and exec still shows its parent's command line, while its exe may
    // already name the program it became (the contract server starting bwrap, read in that
    // order): an allowance follows argv[0] as well as the executable.
    const std::string argv0 = basenameOf(cmdline.substr(0, cmdline.find('\0')));
    for (const ArgAllow &a : kArgAllow) {
        if (base != a.program && argv0 != a.program)
            continue;
        // Blank the allowed argument, then search the rest as usual.
        std::vector<std::string> args;
        for (size_t at = 0; at < cmdline.size();) {
            const size_t end = cmdline.find('\0', at);
            args.push_back(cmdline.substr(at, end == std::string::npos ? std::string::npos : end - at));
            at = end == std::string::npos ? cmdline.size() : end + 1;
        }
        cmdline.clear();
        for (size_t i = 0; i < args.size(); ++i) {
            const bool blank = i > 0 && args[i - 1] == a.option;
            if (blank && !search(args[i], m_patterns, m_opt.marker).empty())
                ++m_stats.allowedArgs;
            cmdline += (blank ? std::string() : args[i]) + '\0';
        }
    }
    for (const Hit &h : search(cmdline, m_patterns, m_opt.marker)) {
        std::string ppid = readSmall(dir + "/stat", 4096);
        const auto close = ppid.rfind(')');
        ppid = close == std::string::npos ? std::string("?")
                                          : ppid.substr(close + 4, ppid.find(' ', close + 4) - close - 4);
        m_findings.insert("arguments of pid " + std::to_string(pid) + " (" + (exe.empty() ? std::string("?") : exe) +
                          ", parent " + ppid + " " + readLink("/proc/" + ppid + "/exe") + "): secret \"" + h.name +
                          "\" (" + h.encoding + ")");
    }
}

void Watcher::sampleAll()
{
    ++m_stats.rounds;
    std::set<int> alive;
    if (DIR *d = opendir("/proc")) {
        while (const dirent *e = readdir(d)) {
            char *end = nullptr;
            const long pid = strtol(e->d_name, &end, 10);
            if (*end || pid <= 0)
                continue;
            alive.insert(int(pid));
            sampleProcess(int(pid));
        }
        closedir(d);
    }
    const std::lock_guard lock(m_lock);
    std::erase_if(m_cmdlineHash, [&](const auto &kv) { return !alive.count(kv.first); });
}

void Watcher::readConnector()
{
    alignas(nlmsghdr) char buf[16384];
    for (;;) {
        ssize_t got = recv(m_nl, buf, sizeof buf, 0);
        if (got < 0 && errno == ENOBUFS) {
            const std::lock_guard lock(m_lock);
            ++m_stats.connectorDrops; // the periodic sampling still covers these
            continue;
        }
        if (got <= 0)
            return;
        int n = int(got);
        for (auto *h = reinterpret_cast<nlmsghdr *>(buf); NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
            const auto *msg = static_cast<const cn_msg *>(NLMSG_DATA(h));
            const auto *ev = reinterpret_cast<const proc_event *>(msg->data);
            if (ev->what == proc_event::PROC_EVENT_EXEC) {
                sampleProcess(ev->event_data.exec.process_tgid);
                const std::lock_guard lock(m_lock);
                ++m_stats.execEvents;
            }
        }
    }
}

int Watcher::run(int signalFd)
{
    if (!m_opt.ready.empty()) {
        if (FILE *f = fopen(m_opt.ready.c_str(), "w")) {
            fprintf(f, "%d\n", getpid());
            fclose(f);
        }
    }
    if (m_nl >= 0) {
        m_connector = std::thread([this] {
            // The lowest real-time priority: woken first, and it only reads command lines.
            sched_param param{};
            param.sched_priority = 1;
            m_realtime = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0;
            while (!m_stop) {
                pollfd fd{m_nl, POLLIN, 0};
                if (poll(&fd, 1, 100) > 0)
                    readConnector();
            }
        });
    }
    timespec lastSample{};
    for (;;) {
        pollfd fds[2] = {{m_fan, POLLIN, 0}, {signalFd, POLLIN, 0}};
        poll(fds, 2, 100);
        if (fds[0].revents & POLLIN)
            readEvents();
        timespec now{};
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - lastSample.tv_sec) * 1000 + (now.tv_nsec - lastSample.tv_nsec) / 1000000 >= 100) {
            sampleAll();
            lastSample = now;
        }
        if (fds[1].revents & POLLIN) {
            m_stop = true;
            if (m_connector.joinable())
                m_connector.join();
            readEvents(); // what was written before the stop
            sampleAll();
            return writeReport();
        }
    }
}

int Watcher::writeReport() const
{
    const Stats &s = m_stats;
    std::string r = "secret_watch: marker \"" + m_opt.marker + "\" searched in plain, UTF-16LE, hex and base64\n";
    for (const std::string &m : m_markDesc)
        r += "watched: " + m + "\n";
    r += "files: " + std::to_string(s.filesScanned) + " writes by Sandbar code searched, " +
         std::to_string(s.bytesScanned) + " bytes (" + std::to_string(s.unchanged) +
         " large files closed unchanged skipped, " + std::to_string(s.truncated) + " files over " +
         std::to_string(m_opt.maxBytes) + " bytes searched in that much only, " + std::to_string(s.unattributed) +
         " by writers gone before attribution); " + std::to_string(s.otherWriters) +
         " writes by other programs not searched; " + std::to_string(s.allowed) + " allowed fixture hits\n";
    r += "processes: " + std::to_string(s.images) + " command lines sampled (" + std::to_string(s.sandbarImages) +
         " of Sandbar code), " + std::to_string(s.rounds) + " rounds of /proc, " + std::to_string(s.execEvents) +
         " exec events" +
         (m_nl < 0     ? " (no process connector: sampling only)"
          : m_realtime ? ""
                       : " (not real-time)") +
         ", " + std::to_string(s.allowedArgs) + " allowed arguments\n";
    if (s.overflows || s.connectorDrops)
        r += "lost: " + std::to_string(s.overflows) + " fanotify queue overflows, " + std::to_string(s.connectorDrops) +
             " process connector drops\n";
    r += "findings: " + std::to_string(m_findings.size()) + "\n";
    for (const std::string &f : m_findings)
        r += "finding: " + f + "\n";
    for (const std::string &l : m_listed)
        r += "searched: " + l + "\n";
    FILE *out = m_opt.report.empty() ? stdout : fopen(m_opt.report.c_str(), "w");
    if (!out) {
        fprintf(stderr, "secret_watch: cannot write %s: %s\n%s", m_opt.report.c_str(), strerror(errno), r.c_str());
        return 2;
    }
    fputs(r.c_str(), out);
    if (out != stdout)
        fclose(out);
    if (!m_findings.empty())
        return 1;
    return s.overflows ? 2 : 0;
}

} // namespace

int main(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--list")
            o.list = true;
        else if (a == "--report" && hasValue)
            o.report = argv[++i];
        else if (a == "--ready" && hasValue)
            o.ready = argv[++i];
        else if (a == "--build" && hasValue)
            o.build = argv[++i];
        else if (a == "--mark" && hasValue)
            o.marks.emplace_back(argv[++i]);
        else if (a == "--marker" && hasValue)
            o.marker = argv[++i];
        else if (a == "--code" && hasValue)
            o.code.emplace_back(argv[++i]);
        else if (a == "--max-bytes" && hasValue)
            o.maxBytes = std::max(1LL, atoll(argv[++i]));
        else {
            fprintf(stderr, "usage: secret_watch --report FILE [--ready FILE] --build DIR [--mark PATH]... "
                            "[--marker M] [--code NAME]... [--list] [--max-bytes N]\n");
            return 2;
        }
    }
    if (o.marker.size() < 8) {
        fprintf(stderr, "secret_watch: the marker must be at least 8 characters\n");
        return 2;
    }
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    sigprocmask(SIG_BLOCK, &stop, nullptr);
    const int sfd = signalfd(-1, &stop, SFD_CLOEXEC | SFD_NONBLOCK);
    Watcher w(o);
    std::string error;
    if (sfd < 0 || !w.start(error)) {
        fprintf(stderr, "secret_watch: %s\n", sfd < 0 ? strerror(errno) : error.c_str());
        return 3;
    }
    return w.run(sfd);
}
