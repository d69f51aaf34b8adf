#include "Launcher.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <linux/netlink.h>
#include <linux/nsfs.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <poll.h>
#include <sched.h>
#include <sstream>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#ifdef SANDBAR_HAVE_SECCOMP
#include <seccomp.h>
#endif

namespace sandbar::agent {

namespace {

using json = nlohmann::json;

void writeAll(int fd, const std::string &s)
{
    std::size_t done = 0;
    while (done < s.size()) {
        const ssize_t n = write(fd, s.data() + done, s.size() - done);
        if (n <= 0 && errno != EINTR)
            return;
        if (n > 0)
            done += std::size_t(n);
    }
}

std::string tailOf(const std::string &path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string s = ss.str();
    if (s.size() > 2000)
        s = s.substr(s.size() - 2000);
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

// The filter bubblewrap installs in the sandbox: TIOCSTI and TIOCLINUX would let a
// program push keystrokes into the terminal it shares (CVE-2017-5226). Blocking them
// this way keeps the controlling terminal, which --new-session would detach.
int seccompFd(std::string &error)
{
#ifdef SANDBAR_HAVE_SECCOMP
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        error = "seccomp_init failed";
        return -1;
    }
    int rc = 0;
    for (unsigned long req : {static_cast<unsigned long>(TIOCSTI), static_cast<unsigned long>(TIOCLINUX)}) {
        // The comparison spelled out: libseccomp's SCMP_A1 macro is a C compound literal,
        // which C++ compilers accept only as an extension (Clang warns).
        scmp_arg_cmp cmp{};
        cmp.arg = 1;
        cmp.op = SCMP_CMP_MASKED_EQ;
        cmp.datum_a = 0xFFFFFFFFu;
        cmp.datum_b = req;
        rc = rc ? rc : seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1, &cmp);
    }
    const int fd = memfd_create("sandbar-seccomp", 0);
    if (rc == 0 && fd >= 0)
        rc = seccomp_export_bpf(ctx, fd);
    seccomp_release(ctx);
    if (rc != 0 || fd < 0) {
        error = "cannot build the seccomp filter: " + std::string(std::strerror(rc ? -rc : errno));
        return -1;
    }
    lseek(fd, 0, SEEK_SET);
    return fd;
#else
    (void)error;
    return -2; // built without libseccomp: the caller falls back to --new-session
#endif
}

bool canConnect(const std::string &path)
{
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof(addr.sun_path)) {
        close(fd);
        return false;
    }
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    // Through a pointer: scripts/check-connects.sh reads any three-argument connect as Qt's.
    const auto posixConnect = &::connect;
    const bool ok = posixConnect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) == 0;
    close(fd);
    return ok;
}

long long startTimeOf(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(in, line);
    const auto close = line.rfind(')');
    if (close == std::string::npos)
        return 0;
    std::istringstream rest(line.substr(close + 2));
    std::string f;
    for (int i = 3; i <= 22 && rest >> f; ++i) {
        if (i == 22)
            return std::stoll(f);
    }
    return 0;
}

bool readWithTimeout(int fd, std::string &out, int timeoutMs, bool untilEof)
{
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    char buf[4096];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            return false;
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, int(left.count())) <= 0)
            continue;
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0) {
            out.append(buf, std::size_t(n));
            if (!untilEof)
                return true;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        return true; // EOF
    }
}

// A memory file holding bubblewrap's options, NUL-separated, for its --args; left
// inheritable so that bubblewrap can read it.
int optionsFile(const std::vector<std::string> &options)
{
    const int fd = memfd_create("sandbar-bwrap-args", 0);
    if (fd < 0)
        return -1;
    std::string blob;
    for (const auto &o : options) {
        blob += o;
        blob.push_back('\0');
    }
    writeAll(fd, blob);
    if (lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

// Adds "prohibit 169.254.0.0/16" to the sandbox's routes: link-local holds the cloud
// metadata service (169.254.169.254), which hands out the machine's credentials on a
// cloud VM, and slirp4netns would otherwise route it like any other address. The
// sandbox runs without CAP_NET_ADMIN, so it cannot remove the route. Runs in a child
// because joining namespaces changes the whole (single-threaded) process.
std::string prohibitLinkLocal(int usernsFd, pid_t child)
{
    int result[2];
    if (pipe2(result, O_CLOEXEC) != 0)
        return std::strerror(errno);
    const pid_t pid = fork();
    if (pid < 0)
        return std::strerror(errno);
    if (pid == 0) {
        close(result[0]);
        auto fail = [&](const char *what) {
            dprintf(result[1], "%s: %s", what, std::strerror(errno));
            _exit(1);
        };
        const int netns = open(("/proc/" + std::to_string(child) + "/ns/net").c_str(), O_RDONLY | O_CLOEXEC);
        if (netns < 0)
            fail("cannot open the network namespace");
        if (setns(usernsFd, CLONE_NEWUSER) != 0)
            fail("cannot join the user namespace");
        if (setns(netns, CLONE_NEWNET) != 0)
            fail("cannot join the network namespace");
        const int nl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
        if (nl < 0)
            fail("cannot open a routing socket");
        struct {
            nlmsghdr header;
            rtmsg route;
            rtattr dstAttr;
            in_addr dst;
        } req{};
        req.header.nlmsg_len = sizeof(req);
        req.header.nlmsg_type = RTM_NEWROUTE;
        req.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK;
        req.header.nlmsg_seq = 1;
        req.route.rtm_family = AF_INET;
        req.route.rtm_dst_len = 16;
        req.route.rtm_table = RT_TABLE_MAIN;
        req.route.rtm_protocol = RTPROT_STATIC;
        req.route.rtm_scope = RT_SCOPE_UNIVERSE;
        req.route.rtm_type = RTN_PROHIBIT;
        req.dstAttr.rta_type = RTA_DST;
        req.dstAttr.rta_len = RTA_LENGTH(sizeof(in_addr));
        req.dst.s_addr = htonl(0xA9FE0000u); // 169.254.0.0
        if (send(nl, &req, sizeof(req), 0) != ssize_t(sizeof(req)))
            fail("cannot send the route");
        char reply[512];
        const ssize_t n = recv(nl, reply, sizeof(reply), 0);
        const auto *h = reinterpret_cast<const nlmsghdr *>(reply);
        if (n < ssize_t(NLMSG_LENGTH(sizeof(nlmsgerr))) || h->nlmsg_type != NLMSG_ERROR)
            fail("no answer to the route");
        const int err = -static_cast<const nlmsgerr *>(NLMSG_DATA(h))->error;
        if (err != 0) {
            errno = err;
            fail("the route was refused");
        }
        _exit(0);
    }
    close(result[1]);
    std::string error;
    readWithTimeout(result[0], error, 5000, true);
    close(result[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return {};
    return error.empty() ? std::string("the route helper failed") : error;
}

// One request on slirp4netns's API socket, which answers each connection once and closes it.
json slirpApi(const std::string &socketPath, const json &request, int timeoutMs)
{
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (socketPath.size() >= sizeof(addr.sun_path))
        return json{{"error", {{"desc", "API socket path too long"}}}};
    std::memcpy(addr.sun_path, socketPath.c_str(), socketPath.size() + 1);
    const auto posixConnect = &::connect;
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
        const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return json{{"error", {{"desc", std::string(std::strerror(errno))}}}};
        if (posixConnect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) == 0) {
            writeAll(fd, request.dump());
            shutdown(fd, SHUT_WR);
            std::string answer;
            readWithTimeout(fd, answer, timeoutMs, true);
            close(fd);
            const json j = json::parse(answer, nullptr, false);
            if (j.is_discarded() || !j.is_object())
                return json{{"error", {{"desc", "no answer from slirp4netns's API socket"}}}};
            return j;
        }
        const int err = errno;
        close(fd);
        // slirp4netns may still be creating the socket when it reports the network ready.
        if (std::chrono::steady_clock::now() >= end || (err != ENOENT && err != ECONNREFUSED))
            return json{
                {"error", {{"desc", "cannot reach slirp4netns's API socket: " + std::string(std::strerror(err))}}}};
        usleep(5000);
    }
}

// A port nothing listens on now, for a forward whose host port is "any".
int freeLoopbackPort(bool udp)
{
    const int fd = socket(AF_INET, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(a);
    int port = 0;
    if (bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof(a)) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    close(fd);
    return port;
}

// Forwards each of spec's ports from 127.0.0.1 (never a wider address: an agent's server is
// for this computer) into the sandbox. On failure, names the port in "failedPort".
json forwardPorts(const std::string &apiSocket, const json &ports, int timeoutMs)
{
    json forwarded = json::array();
    for (const auto &p : ports) {
        const int sessionPort = p.value("sessionPort", 0);
        const int wanted = p.value("hostPort", 0);
        const std::string proto = p.value("protocol", std::string("tcp"));
        std::string desc;
        int hostPort = 0;
        // A picked port can be taken between the pick and the forward: pick again.
        for (int attempt = 0; attempt < (wanted > 0 ? 1 : 3) && hostPort == 0; ++attempt) {
            const int candidate = wanted > 0 ? wanted : freeLoopbackPort(proto == "udp");
            if (candidate <= 0) {
                desc = "no free port on 127.0.0.1";
                continue;
            }
            const json answer = slirpApi(apiSocket,
                                         json{{"execute", "add_hostfwd"},
                                              {"arguments",
                                               {{"proto", proto},
                                                {"host_addr", "127.0.0.1"},
                                                {"host_port", candidate},
                                                {"guest_port", sessionPort}}}},
                                         timeoutMs);
            if (answer.contains("return")) {
                hostPort = candidate;
            } else {
                const json e = answer.value("error", json::object());
                desc = e.is_object() ? e.value("desc", std::string("refused")) : std::string("refused");
            }
        }
        if (hostPort == 0)
            return json{{"ok", false},
                        {"error", "cannot forward port " + std::to_string(sessionPort) + "/" + proto + ": " + desc},
                        {"failedPort",
                         {{"sessionPort", sessionPort}, {"hostPort", wanted}, {"protocol", proto}, {"desc", desc}}}};
        forwarded.push_back({{"sessionPort", sessionPort}, {"hostPort", hostPort}, {"protocol", proto}});
    }
    return json{{"ok", true}, {"ports", forwarded}};
}

json failure(const std::string &error)
{
    return json{{"ok", false}, {"error", error}};
}

// A pipe whose read end stays with the launcher and whose write end the sandbox inherits.
bool inheritablePipe(int fds[2])
{
    if (pipe(fds) != 0)
        return false;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    return true;
}

// What the steps of startSandbox share.
struct LaunchContext {
    const json &spec;
    std::string logPath;
    std::string socketPath;
    int timeoutMs;
    int log;
    int devnull;
};

void redirectStreams(const LaunchContext &ctx)
{
    dup2(ctx.devnull, 0);
    dup2(ctx.log, 1);
    dup2(ctx.log, 2);
}

std::vector<char *> execArgs(std::vector<std::string> &args)
{
    std::vector<char *> a;
    for (auto &s : args)
        a.push_back(s.data());
    a.push_back(nullptr);
    return a;
}

// syncFd is -1 without a network.
std::vector<std::string> bwrapOptions(const json &spec, int filter, int infoFd, int statusFd, int syncFd)
{
    std::vector<std::string> options;
    for (const auto &a : spec["args"])
        options.push_back(a.get<std::string>());
    if (filter >= 0) {
        options.insert(options.end(), {"--seccomp", std::to_string(filter)});
    } else {
        options.push_back("--new-session");
    }
    options.insert(options.end(), {"--info-fd", std::to_string(infoFd), "--json-status-fd", std::to_string(statusFd)});
    // bubblewrap keeps this pipe open for the sandbox's lifetime; slirp4netns exits when it closes.
    if (syncFd >= 0)
        options.insert(options.end(), {"--sync-fd", std::to_string(syncFd)});
    return options;
}

// Runs in the forked child that becomes bubblewrap.
[[noreturn]] void execBwrap(const LaunchContext &ctx, std::vector<std::string> &argv,
                            const std::vector<std::string> &cgroups)
{
    // Join the session's cgroups before exec, so that every process it starts is counted.
    const std::string self = std::to_string(getpid());
    for (const auto &procs : cgroups) {
        const int fd = open(procs.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0 || write(fd, self.data(), self.size()) < 0) {
            dprintf(ctx.log, "sandbar-agent: cannot join cgroup %s: %s\n", procs.c_str(), std::strerror(errno));
            _exit(125);
        }
        close(fd);
    }
    redirectStreams(ctx);
    std::vector<char *> a = execArgs(argv);
    // No environment: the sandbox's pid 1 is bubblewrap, and its /proc/1/environ would
    // show the app's (API keys included) to every program inside. --clearenv and
    // --setenv give the agent the little it needs.
    char *noEnvironment[] = {nullptr};
    execve(a[0], a.data(), noEnvironment);
    dprintf(ctx.log, "sandbar-agent: cannot run %s: %s\n", a[0], std::strerror(errno));
    _exit(127);
}

// Waits for bubblewrap to name the sandbox's pid 1, then for the agent inside to listen;
// returns the report, or the failure.
json awaitAgent(const LaunchContext &ctx, pid_t bwrap, int infoFd, int readyFd)
{
    std::string infoText;
    readWithTimeout(infoFd, infoText, ctx.timeoutMs, true);
    close(infoFd);
    const json infoJson = json::parse(infoText, nullptr, false);
    if (infoJson.is_discarded() || !infoJson.contains("child-pid")) {
        waitpid(bwrap, nullptr, WNOHANG);
        return failure("bubblewrap could not start the sandbox: " + tailOf(ctx.logPath));
    }
    const pid_t child = infoJson["child-pid"].get<pid_t>();
    json report{{"ok", true}, {"pid", child}, {"bwrapPid", bwrap}, {"startTime", startTimeOf(child)}};

    std::string agentReady;
    const bool answered = readWithTimeout(readyFd, agentReady, ctx.timeoutMs, false);
    close(readyFd);
    if (!answered || agentReady.empty() || !canConnect(ctx.socketPath)) {
        kill(child, SIGKILL);
        return failure(std::string(answered ? "the sandbox ended while starting: "
                                            : "the sandbox agent did not answer in time: ") +
                       tailOf(ctx.logPath));
    }
    return report;
}

// The user namespace that owns the sandbox's network namespace: with --disable-userns the
// sandbox itself runs in a nested one, which slirp4netns could join but which grants
// nothing over the network namespace. -1 (errno set) when there is none.
int networkOwner(pid_t child)
{
    const int netns = open(("/proc/" + std::to_string(child) + "/ns/net").c_str(), O_RDONLY | O_CLOEXEC);
    const int owner = netns >= 0 ? ioctl(netns, NS_GET_USERNS) : -1;
    if (netns >= 0)
        close(netns);
    return owner;
}

// Runs in the forked child that becomes slirp4netns.
[[noreturn]] void execSlirp(const LaunchContext &ctx, pid_t child, int exitFd, int readyFd, int usernsFd,
                            const std::string &apiSocket)
{
    const std::string p = std::to_string(child);
    std::vector<std::string> sa{ctx.spec.value("slirp4netns", std::string("slirp4netns")),
                                "--configure",
                                "--mtu=65520",
                                "--exit-fd=" + std::to_string(exitFd),
                                "--ready-fd=" + std::to_string(readyFd),
                                "--userns-path=/proc/self/fd/" + std::to_string(usernsFd),
                                "--netns-type=path"};
    // Otherwise 10.0.2.2 is the host's 127.0.0.1: every local service (databases,
    // agents, a dev server, the Docker API on TCP) would be open to the sandbox.
    sa.push_back("--disable-host-loopback");
    if (!apiSocket.empty())
        sa.push_back("--api-socket=" + apiSocket);
    sa.insert(sa.end(), {"/proc/" + p + "/ns/net", "tap0"});
    fcntl(exitFd, F_SETFD, 0);
    fcntl(readyFd, F_SETFD, 0);
    fcntl(usernsFd, F_SETFD, 0);
    redirectStreams(ctx);
    std::vector<char *> a = execArgs(sa);
    execv(a[0], a.data());
    dprintf(ctx.log, "sandbar-agent: cannot run slirp4netns: %s\n", std::strerror(errno));
    _exit(127);
}

// Gives the sandbox its user-mode network and forwards spec's ports; adds slirpPid (and
// ports) to report, or returns the failure.
std::optional<json> startNetwork(const LaunchContext &ctx, pid_t child, int syncFd, json &report)
{
    int netReady[2];
    if (pipe2(netReady, O_CLOEXEC) != 0)
        return failure(std::strerror(errno));
    const int owner = networkOwner(child);
    if (owner < 0) {
        kill(child, SIGKILL);
        return failure("cannot find the sandbox's network namespace: " + std::string(std::strerror(errno)));
    }
    const std::string routeError = prohibitLinkLocal(owner, child);
    if (!routeError.empty()) {
        close(owner);
        kill(child, SIGKILL);
        return failure("cannot keep link-local addresses out of the sandbox: " + routeError);
    }
    const json ports = ctx.spec.value("ports", json::array());
    // Only with ports to forward: the socket can open any port of this computer's loopback.
    const std::string apiSocket = ports.empty() ? std::string() : ctx.spec.value("slirpApi", std::string());
    const pid_t slirp = fork();
    if (slirp == 0)
        execSlirp(ctx, child, syncFd, netReady[1], owner, apiSocket);
    close(netReady[1]);
    close(syncFd);
    close(owner);
    std::string readyText;
    if (slirp < 0 || !readWithTimeout(netReady[0], readyText, ctx.timeoutMs, false) || readyText.empty()) {
        kill(child, SIGKILL);
        return failure("user-mode networking (slirp4netns) failed: " + tailOf(ctx.logPath));
    }
    close(netReady[0]);
    report["slirpPid"] = slirp;
    if (!apiSocket.empty()) {
        json forwarded = forwardPorts(apiSocket, ports, ctx.timeoutMs);
        if (!forwarded.value("ok", false)) {
            // slirp4netns ends with the sandbox, when bubblewrap closes the sync pipe.
            kill(child, SIGKILL);
            return forwarded;
        }
        report["ports"] = forwarded["ports"];
    }
    return std::nullopt;
}

// Runs in the detached grandchild; returns the report line for the caller.
json startSandbox(const json &spec)
{
    const std::string logPath = spec.value("log", std::string("/dev/null"));
    const std::string socketPath = spec.value("socket", std::string());
    const int timeoutMs = spec.value("timeoutMs", 10000);
    const int log = open(logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    const int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    const int status =
        open(spec.value("status", std::string("/dev/null")).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
    if (log < 0 || status < 0)
        return failure("cannot write in the session folder: " + std::string(std::strerror(errno)));
    const LaunchContext ctx{spec, logPath, socketPath, timeoutMs, log, devnull};

    std::string error;
    const int filter = seccompFd(error);
    if (filter == -1)
        return failure(error);
    int info[2];
    if (!inheritablePipe(info))
        return failure(std::strerror(errno));
    // The agent writes one byte here once it listens: no polling of its socket.
    int ready[2];
    if (!inheritablePipe(ready))
        return failure(std::strerror(errno));
    int sync[2] = {-1, -1};
    const bool network = spec.value("network", false);
    if (network && !inheritablePipe(sync))
        return failure(std::strerror(errno));

    // bubblewrap's first process is the sandbox's pid 1, whose command line every program
    // inside can read: the options (the user's home, the session and config folders) go
    // through a file instead, and only the agent's own command stays on the command line.
    const int argsFd = optionsFile(bwrapOptions(spec, filter, info[1], status, sync[1]));
    if (argsFd < 0)
        return failure("cannot pass bubblewrap its options: " + std::string(std::strerror(errno)));
    std::vector<std::string> argv{spec.value("bwrap", std::string("bwrap")), "--args", std::to_string(argsFd)};
    for (const auto &a : spec["command"])
        argv.push_back(a.get<std::string>());
    argv.push_back(std::to_string(ready[1]));
    std::vector<std::string> cgroups;
    for (const auto &c : spec.value("cgroupProcs", json::array()))
        cgroups.push_back(c.get<std::string>());

    const pid_t bwrap = fork();
    if (bwrap < 0)
        return failure(std::strerror(errno));
    if (bwrap == 0)
        execBwrap(ctx, argv, cgroups);
    close(argsFd);
    close(info[1]);
    close(ready[1]);
    if (network)
        close(sync[1]);
    if (filter >= 0)
        close(filter);

    json report = awaitAgent(ctx, bwrap, info[0], ready[0]);
    if (!report.value("ok", false))
        return report;
    // Only now: bubblewrap has finished setting up the namespace's loopback, which
    // slirp4netns would otherwise race with.
    if (network) {
        if (std::optional<json> failed = startNetwork(ctx, report["pid"].get<pid_t>(), sync[0], report))
            return *failed;
    }
    return report;
}

} // namespace

int launch(const std::string &specPath)
{
    std::ifstream in(specPath);
    const json spec = json::parse(in, nullptr, false);
    if (spec.is_discarded() || !spec.is_object() || !spec.contains("args") || !spec.contains("command")) {
        std::printf("%s\n", json{{"ok", false}, {"error", "unreadable launch spec " + specPath}}.dump().c_str());
        return 1;
    }
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0)
        return 1;
    const pid_t first = fork();
    if (first < 0)
        return 1;
    if (first == 0) {
        // A new session whose leader exits once the sandbox answers: bubblewrap (forked
        // from it, so never a session leader able to take a terminal) then belongs to no
        // terminal and no parent of ours, and survives the app that asked for it.
        close(report[0]);
        setsid();
        if (chdir("/") != 0)
            _exit(1);
        const json result = startSandbox(spec);
        writeAll(report[1], result.dump());
        _exit(0);
    }
    close(report[1]);
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = read(report[0], buf, sizeof buf)) != 0;) {
        if (n > 0)
            text.append(buf, std::size_t(n));
        else if (errno != EINTR)
            break;
    }
    waitpid(first, nullptr, 0);
    const json result = json::parse(text, nullptr, false);
    if (result.is_discarded()) {
        std::printf("%s\n", json{{"ok", false}, {"error", "the launcher ended without a report"}}.dump().c_str());
        return 1;
    }
    std::printf("%s\n", result.dump().c_str());
    return result.value("ok", false) ? 0 : 1;
}

} // namespace sandbar::agent
