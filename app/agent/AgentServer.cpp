#include "AgentServer.h"

#include "AgentServerPrivate.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <pty.h>
#include <sstream>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace sandbar::agent {
namespace detail {

long long nowMs()
{
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long long monoNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int exitStatusOf(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return -1;
}

void setNonBlocking(int fd)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

std::string errnoText(int err)
{
    return std::strerror(err);
}

bool Server::init(const std::string &configPath)
{
    std::ifstream in(configPath);
    json cfg = json::parse(in, nullptr, false);
    if (cfg.is_discarded() || !cfg.is_object()) {
        std::fprintf(stderr, "sandbar-agent: cannot read %s\n", configPath.c_str());
        return false;
    }
    m_socketPath = cfg.value("socket", std::string("/run/sandbar/agent.sock"));
    m_exitReasonPath = cfg.value("exitReason", std::string("/run/sandbar/exit-reason"));
    m_shell = cfg.value("shell", std::string("/bin/sh"));
    m_deadlineMs = cfg.value("deadlineMs", 0LL);
    m_replayBytes = cfg.value("replayBytes", std::size_t(256u * 1024u));
    if (cfg.contains("env") && cfg["env"].is_array()) {
        for (const auto &e : cfg["env"])
            if (e.is_string())
                m_env.push_back(e.get<std::string>());
    }

    signal(SIGPIPE, SIG_IGN);
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGCHLD);
    sigprocmask(SIG_BLOCK, &mask, &m_oldMask);
    m_signals = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);

    m_listen = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (m_socketPath.size() >= sizeof(addr.sun_path))
        return false;
    std::memcpy(addr.sun_path, m_socketPath.c_str(), m_socketPath.size() + 1);
    unlink(m_socketPath.c_str());
    umask(077);
    if (bind(m_listen, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) != 0 || listen(m_listen, 64) != 0) {
        std::fprintf(stderr, "sandbar-agent: cannot listen on %s: %s\n", m_socketPath.c_str(), std::strerror(errno));
        return false;
    }
    umask(022);
    return true;
}

std::vector<std::string> Server::environment(const json &extra, bool terminal) const
{
    std::vector<std::string> env = {
        "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME=/workspace",
        "USER=sandbox",
        "LOGNAME=sandbox",
        "SHELL=" + m_shell,
        "LANG=C.UTF-8",
    };
    if (terminal)
        env.push_back("TERM=xterm-256color");
    auto put = [&env](const std::string &kv) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
            return;
        const std::string key = kv.substr(0, eq + 1);
        env.erase(std::remove_if(env.begin(), env.end(), [&](const std::string &e) { return e.rfind(key, 0) == 0; }),
                  env.end());
        env.push_back(kv);
    };
    for (const auto &kv : m_env)
        put(kv);
    if (extra.is_array()) {
        for (const auto &e : extra)
            if (e.is_string())
                put(e.get<std::string>());
    }
    return env;
}

// Runs in the forked child only: replaces the process image, never returns.
[[noreturn]] void execChild(const std::vector<std::string> &argv, const std::vector<std::string> &env,
                            const std::string &cwd, const sigset_t &mask)
{
    sigprocmask(SIG_SETMASK, &mask, nullptr);
    signal(SIGPIPE, SIG_DFL);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) {
        std::fprintf(stderr, "sandbar-agent: cannot enter %s: %s\n", cwd.c_str(), std::strerror(errno));
        _exit(126);
    }
    std::vector<char *> a, e;
    for (const auto &s : argv)
        a.push_back(const_cast<char *>(s.c_str()));
    a.push_back(nullptr);
    for (const auto &s : env)
        e.push_back(const_cast<char *>(s.c_str()));
    e.push_back(nullptr);
    environ = e.data();
    execvp(a[0], a.data());
    std::fprintf(stderr, "sandbar-agent: cannot run %s: %s\n", a[0], std::strerror(errno));
    _exit(127);
}

std::vector<std::string> stringList(const json &j)
{
    std::vector<std::string> out;
    if (j.is_array()) {
        for (const auto &e : j)
            if (e.is_string())
                out.push_back(e.get<std::string>());
    }
    return out;
}

Client *Server::client(int fd)
{
    auto it = m_clients.find(fd);
    return it == m_clients.end() || it->second->dead ? nullptr : it->second.get();
}

Pty *Server::findPty(const std::string &id)
{
    for (auto &p : m_ptys)
        if (p->id == id)
            return p.get();
    return nullptr;
}

void Server::send(Client &c, FrameType type, std::uint32_t ch, const std::string &payload)
{
    if (c.dead)
        return;
    c.out += wire::encode(type, ch, payload);
    flush(c);
    if (c.out.size() > kClientOutLimit)
        c.dead = true;
}

void Server::sendError(Client &c, std::uint32_t ch, const std::string &message)
{
    sendJson(c, FrameType::Error, ch, json{{"message", message}});
}

void Server::flush(Client &c)
{
    while (!c.out.empty() && !c.dead) {
        const ssize_t n = ::send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL);
        if (n > 0) {
            c.out.erase(0, std::size_t(n));
        } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            return;
        } else {
            c.dead = true;
        }
    }
}

void Server::accept()
{
    for (;;) {
        const int fd = accept4(m_listen, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        auto c = std::make_unique<Client>();
        c->fd = fd;
        sendJson(*c, FrameType::Hello, 0, json{{"version", wire::kProtocolVersion}, {"agentPid", getpid()}});
        m_clients[fd] = std::move(c);
    }
}

void Server::dropClient(int fd)
{
    auto it = m_clients.find(fd);
    if (it == m_clients.end())
        return;
    Client &c = *it->second;
    for (auto &p : m_ptys) {
        auto &s = p->subscribers;
        s.erase(std::remove_if(s.begin(), s.end(), [fd](const auto &sub) { return sub.first == fd; }), s.end());
    }
    // A command without its client has nobody to report to: it is cancelled. Terminals
    // stay, since reattaching to them later is the point.
    for (auto &e : m_execs) {
        if (e->client == fd) {
            e->client = -1;
            if (!e->reaped)
                kill(-e->pid, SIGKILL);
        }
    }
    for (auto &[ch, g] : c.gets)
        close(g.fd);
    for (auto &[ch, pfd] : c.puts)
        close(pfd);
    close(fd);
    m_clients.erase(it);
}

void Server::readClient(Client &c)
{
    char buf[65536];
    for (;;) {
        const ssize_t n = read(c.fd, buf, sizeof buf);
        if (n > 0) {
            c.decoder.feed(buf, std::size_t(n));
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            break;
        c.dead = true; // EOF or error
        break;
    }
    wire::Frame f;
    for (;;) {
        const auto st = c.decoder.next(f);
        if (st == wire::Decoder::Status::NeedMore)
            break;
        if (st == wire::Decoder::Status::Error) {
            sendError(c, 0, "protocol error: " + c.decoder.error());
            c.dead = true;
            break;
        }
        handle(c, f);
    }
}

Pty *Server::attachedPty(Client &c, std::uint32_t ch)
{
    auto it = c.attached.find(ch);
    return it == c.attached.end() ? nullptr : findPty(it->second);
}

void Server::listPtys(Client &c, std::uint32_t ch)
{
    json list = json::array();
    for (const auto &p : m_ptys)
        list.push_back(json{{"id", p->id}, {"argv", p->argv}, {"exited", p->exited}, {"code", p->code}});
    sendJson(c, FrameType::Reply, ch, json{{"ptys", list}});
}

void Server::execInput(Client &c, const wire::Frame &f)
{
    for (auto &e : m_execs) {
        if (e->client == c.fd && e->channel == f.channel) {
            if (f.type == FrameType::ExecStdin)
                e->pendingIn += f.payload;
            else
                e->inEof = true;
            if (e->pendingIn.empty() && e->inEof && e->in >= 0) {
                close(e->in);
                e->in = -1;
            }
        }
    }
}

void Server::writeFileData(Client &c, std::uint32_t ch, const std::string &data)
{
    auto it = c.puts.find(ch);
    if (it == c.puts.end())
        return;
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = write(it->second, data.data() + done, data.size() - done);
        if (n <= 0) {
            sendError(c, ch, errnoText(errno));
            close(it->second);
            c.puts.erase(it);
            return;
        }
        done += std::size_t(n);
    }
}

void Server::endFile(Client &c, std::uint32_t ch)
{
    auto it = c.puts.find(ch);
    if (it == c.puts.end())
        return;
    const int rc = close(it->second);
    c.puts.erase(it);
    if (rc != 0)
        sendError(c, ch, errnoText(errno));
    else
        sendJson(c, FrameType::Reply, ch, json{{"done", true}});
}

void Server::handle(Client &c, const wire::Frame &f)
{
    auto payloadJson = [&f]() {
        json j = json::parse(f.payload, nullptr, false);
        return j.is_object() ? j : json::object();
    };
    switch (f.type) {
    case FrameType::OpenPty: openPty(c, f.channel, payloadJson()); break;
    case FrameType::AttachPty: attachPty(c, f.channel, payloadJson().value("id", std::string())); break;
    case FrameType::PtyInput: {
        Pty *p = attachedPty(c, f.channel);
        if (p && !p->exited) {
            p->pendingIn += f.payload;
            writePty(*p);
        }
        break;
    }
    case FrameType::Resize: {
        Pty *p = attachedPty(c, f.channel);
        const json j = payloadJson();
        if (p && !p->exited) {
            winsize ws{};
            ws.ws_col = (unsigned short)std::clamp(j.value("cols", 80), 1, 1000);
            ws.ws_row = (unsigned short)std::clamp(j.value("rows", 24), 1, 1000);
            ioctl(p->master, TIOCSWINSZ, &ws);
        }
        break;
    }
    case FrameType::ClosePty: {
        Pty *p = attachedPty(c, f.channel);
        if (p && !p->exited) {
            kill(-p->pid, SIGHUP);
            kill(-p->pid, SIGCONT);
        }
        break;
    }
    case FrameType::ListPtys: listPtys(c, f.channel); break;
    case FrameType::Exec: startExec(c, f.channel, payloadJson()); break;
    case FrameType::ExecStdin:
    case FrameType::ExecStdinEof: execInput(c, f); break;
    case FrameType::Stats: stats(c, f.channel); break;
    case FrameType::SetTtl:
        m_deadlineMs = payloadJson().value("deadlineMs", 0LL);
        sendJson(c, FrameType::Reply, f.channel, json{{"deadlineMs", m_deadlineMs}});
        break;
    case FrameType::Shutdown:
        sendJson(c, FrameType::Reply, f.channel, json::object());
        finish("stopped");
        break;
    case FrameType::FileList: listFiles(c, f.channel, payloadJson().value("path", std::string())); break;
    case FrameType::FileGet: fileGet(c, f.channel, payloadJson().value("path", std::string())); break;
    case FrameType::FilePut: filePut(c, f.channel, payloadJson()); break;
    case FrameType::FileData: writeFileData(c, f.channel, f.payload); break;
    case FrameType::FileEnd: endFile(c, f.channel); break;
    default: sendError(c, f.channel, std::string("unexpected frame ") + wire::typeName(f.type)); break;
    }
}

void Server::openPty(Client &c, std::uint32_t ch, const json &req)
{
    std::vector<std::string> argv = stringList(req.value("argv", json::array()));
    if (argv.empty())
        argv = {m_shell, "-l"};
    winsize ws{};
    ws.ws_col = (unsigned short)std::clamp(req.value("cols", 80), 1, 1000);
    ws.ws_row = (unsigned short)std::clamp(req.value("rows", 24), 1, 1000);
    const auto env = environment(req.value("env", json::array()), true);
    const std::string cwd = req.value("cwd", std::string("/workspace"));
    int master = -1;
    const pid_t pid = forkpty(&master, nullptr, nullptr, &ws);
    if (pid < 0) {
        sendError(c, ch, "cannot open a terminal: " + errnoText(errno));
        return;
    }
    if (pid == 0)
        execChild(argv, env, cwd, m_oldMask);
    fcntl(master, F_SETFD, FD_CLOEXEC);
    setNonBlocking(master);
    auto p = std::make_unique<Pty>();
    p->id = "pty" + std::to_string(m_nextPty++);
    p->master = master;
    p->pid = pid;
    p->argv = argv;
    p->subscribers.emplace_back(c.fd, ch);
    c.attached[ch] = p->id;
    sendJson(c, FrameType::Reply, ch, json{{"id", p->id}, {"pid", pid}});
    m_ptys.push_back(std::move(p));
}

void Server::attachPty(Client &c, std::uint32_t ch, const std::string &id)
{
    Pty *p = findPty(id);
    if (!p) {
        sendError(c, ch, "no terminal " + id + " in this session");
        return;
    }
    c.attached[ch] = id;
    sendJson(c, FrameType::Reply, ch, json{{"id", id}, {"pid", p->pid}});
    for (std::size_t off = 0; off < p->replay.size(); off += wire::kChunkSize)
        send(c, FrameType::PtyData, ch, p->replay.substr(off, wire::kChunkSize));
    if (p->exited) {
        sendJson(c, FrameType::PtyExit, ch, json{{"code", p->code}});
        m_ptys.erase(std::remove_if(m_ptys.begin(), m_ptys.end(), [p](const auto &x) { return x.get() == p; }),
                     m_ptys.end());
        return;
    }
    p->subscribers.emplace_back(c.fd, ch);
}

void Server::readPty(Pty &p)
{
    char buf[65536];
    for (;;) {
        const ssize_t n = read(p.master, buf, sizeof buf);
        if (n <= 0)
            return; // EAGAIN, or EIO once every slave is closed: the exit comes from SIGCHLD
        const std::string chunk(buf, std::size_t(n));
        p.replay += chunk;
        if (p.replay.size() > m_replayBytes + m_replayBytes / 4)
            p.replay.erase(0, p.replay.size() - m_replayBytes);
        for (const auto &[fd, ch] : p.subscribers)
            if (Client *c = client(fd))
                send(*c, FrameType::PtyData, ch, chunk);
    }
}

void Server::writePty(Pty &p)
{
    while (!p.pendingIn.empty() && p.master >= 0) {
        const ssize_t n = write(p.master, p.pendingIn.data(), p.pendingIn.size());
        if (n > 0)
            p.pendingIn.erase(0, std::size_t(n));
        else if (n < 0 && errno == EINTR)
            continue;
        else if (n < 0 && errno == EAGAIN)
            return; // the poll loop waits for room
        else {
            p.pendingIn.clear();
            return;
        }
    }
}

void Server::finishPty(Pty &p)
{
    readPty(p); // drain what the program wrote last
    close(p.master);
    p.master = -1;
    p.exited = true;
    bool told = false;
    for (const auto &[fd, ch] : p.subscribers) {
        if (Client *c = client(fd)) {
            sendJson(*c, FrameType::PtyExit, ch, json{{"code", p.code}});
            c->attached.erase(ch);
            told = true;
        }
    }
    p.subscribers.clear();
    if (told) {
        const Pty *gone = &p;
        m_ptys.erase(std::remove_if(m_ptys.begin(), m_ptys.end(), [gone](const auto &x) { return x.get() == gone; }),
                     m_ptys.end());
        return;
    }
    // Nobody watched it end: keep it (bounded) so that a reattaching window learns how.
    std::size_t exited = 0;
    for (const auto &x : m_ptys)
        exited += x->exited ? 1 : 0;
    for (auto it = m_ptys.begin(); exited > kMaxExitedPtys && it != m_ptys.end();) {
        if ((*it)->exited) {
            it = m_ptys.erase(it);
            --exited;
        } else {
            ++it;
        }
    }
}

void Server::startExec(Client &c, std::uint32_t ch, const json &req)
{
    const auto argv = stringList(req.value("argv", json::array()));
    if (argv.empty()) {
        sendError(c, ch, "exec needs a command");
        return;
    }
    const bool wantsStdin = req.value("stdin", false);
    int pin[2] = {-1, -1}, pout[2], perr[2];
    if ((wantsStdin && pipe2(pin, O_CLOEXEC) != 0) || pipe2(pout, O_CLOEXEC) != 0 || pipe2(perr, O_CLOEXEC) != 0) {
        sendError(c, ch, "cannot create pipes: " + errnoText(errno));
        return;
    }
    const auto env = environment(req.value("env", json::array()), false);
    const std::string cwd = req.value("cwd", std::string("/workspace"));
    const pid_t pid = fork();
    if (pid < 0) {
        sendError(c, ch, "cannot start: " + errnoText(errno));
        return;
    }
    if (pid == 0) {
        setpgid(0, 0);
        const int devnull = open("/dev/null", O_RDONLY);
        dup2(wantsStdin ? pin[0] : devnull, 0);
        dup2(pout[1], 1);
        dup2(perr[1], 2);
        execChild(argv, env, cwd.empty() ? std::string("/workspace") : cwd, m_oldMask);
    }
    auto e = std::make_unique<Exec>();
    e->pid = pid;
    e->client = c.fd;
    e->channel = ch;
    if (wantsStdin) {
        close(pin[0]);
        e->in = pin[1];
        setNonBlocking(e->in);
    }
    close(pout[1]);
    close(perr[1]);
    e->out = pout[0];
    e->err = perr[0];
    setNonBlocking(e->out);
    setNonBlocking(e->err);
    sendJson(c, FrameType::Reply, ch, json{{"pid", pid}});
    m_execs.push_back(std::move(e));
}

void Server::readExec(Exec &e, bool isErr)
{
    int &fd = isErr ? e.err : e.out;
    char buf[65536];
    for (;;) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0) {
            if (Client *c = client(e.client))
                send(*c, isErr ? FrameType::ExecStderr : FrameType::ExecStdout, e.channel,
                     std::string(buf, std::size_t(n)));
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            return;
        close(fd);
        fd = -1;
        return;
    }
}

void Server::maybeFinishExec(std::size_t index)
{
    Exec &e = *m_execs[index];
    if (!e.reaped)
        return;
    // A background child may hold the pipes open: what is there now is all we wait for.
    if (e.out >= 0)
        readExec(e, false);
    if (e.err >= 0)
        readExec(e, true);
    for (int *fd : {&e.in, &e.out, &e.err}) {
        if (*fd >= 0)
            close(*fd);
        *fd = -1;
    }
    if (Client *c = client(e.client))
        sendJson(*c, FrameType::ExecExit, e.channel, json{{"code", e.code}});
    m_execs.erase(m_execs.begin() + long(index));
}

void Server::reap()
{
    signalfd_siginfo si;
    while (read(m_signals, &si, sizeof si) == sizeof si) {
    }
    for (;;) {
        int status = 0;
        const pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid <= 0)
            break;
        for (auto &p : m_ptys) {
            if (p->pid == pid && !p->exited) {
                p->code = exitStatusOf(status);
                finishPty(*p);
                break;
            }
        }
        for (std::size_t i = 0; i < m_execs.size(); ++i) {
            if (m_execs[i]->pid == pid) {
                m_execs[i]->reaped = true;
                m_execs[i]->code = exitStatusOf(status);
                maybeFinishExec(i);
                break;
            }
        }
    }
}

void Server::finish(const char *reason)
{
    if (FILE *f = std::fopen(m_exitReasonPath.c_str(), "w")) {
        std::fputs(reason, f);
        std::fclose(f);
    }
    for (auto &[fd, c] : m_clients)
        flush(*c);
    unlink(m_socketPath.c_str());
    // Leaving ends the sandbox: bubblewrap's init follows us and the kernel ends the rest
    // of the pid namespace with it.
    _exit(0);
}

// The descriptors one turn of the loop waits on, each with what it belongs to.
struct Server::PollSet {
    std::vector<pollfd> fds;
    std::vector<std::pair<int, int>> what; // kind, index/fd
    bool pumping = false;

    void add(int fd, short events, int kind, int ref)
    {
        fds.push_back(pollfd{fd, events, 0});
        what.emplace_back(kind, ref);
    }
};

void Server::collectPollFds(PollSet &set)
{
    set.add(m_listen, POLLIN, 0, 0);
    set.add(m_signals, POLLIN, 1, 0);
    for (auto &[fd, c] : m_clients) {
        set.add(fd, short(POLLIN | (c->out.empty() ? 0 : POLLOUT)), 2, fd);
        set.pumping = set.pumping || (!c->gets.empty() && c->out.size() < kFilePumpLimit);
    }
    for (std::size_t i = 0; i < m_ptys.size(); ++i)
        if (!m_ptys[i]->exited)
            set.add(m_ptys[i]->master, short(POLLIN | (m_ptys[i]->pendingIn.empty() ? 0 : POLLOUT)), 3, int(i));
    for (std::size_t i = 0; i < m_execs.size(); ++i) {
        if (m_execs[i]->out >= 0)
            set.add(m_execs[i]->out, POLLIN, 4, int(i));
        if (m_execs[i]->err >= 0)
            set.add(m_execs[i]->err, POLLIN, 5, int(i));
        if (m_execs[i]->in >= 0 && !m_execs[i]->pendingIn.empty())
            set.add(m_execs[i]->in, POLLOUT, 6, int(i));
    }
}

void Server::ptyEvent(Pty *p, short revents)
{
    const bool alive =
        std::find_if(m_ptys.begin(), m_ptys.end(), [p](const auto &x) { return x.get() == p; }) != m_ptys.end();
    if (alive && !p->exited) {
        if (revents & POLLOUT)
            writePty(*p);
        readPty(*p);
    }
}

void Server::execEvent(Exec *e, int kind)
{
    auto it = std::find_if(m_execs.begin(), m_execs.end(), [e](const auto &x) { return x.get() == e; });
    if (it == m_execs.end())
        return;
    if (kind == 4 && e->out >= 0)
        readExec(*e, false);
    else if (kind == 5 && e->err >= 0)
        readExec(*e, true);
    else if (kind == 6 && e->in >= 0) {
        const ssize_t n = write(e->in, e->pendingIn.data(), e->pendingIn.size());
        if (n > 0)
            e->pendingIn.erase(0, std::size_t(n));
        else if (n < 0 && errno != EAGAIN)
            e->pendingIn.clear();
        if (e->pendingIn.empty() && e->inEof) {
            close(e->in);
            e->in = -1;
        }
    }
    if (e->reaped && e->out < 0 && e->err < 0)
        maybeFinishExec(std::size_t(it - m_execs.begin()));
}

void Server::dispatch(const PollSet &set)
{
    // Handle events by identity, not index: handlers may add or remove entries.
    std::vector<Pty *> ptys;
    for (auto &p : m_ptys)
        ptys.push_back(p.get());
    std::vector<Exec *> execs;
    for (auto &e : m_execs)
        execs.push_back(e.get());
    for (std::size_t i = 0; i < set.fds.size(); ++i) {
        const short revents = set.fds[i].revents;
        if (!revents)
            continue;
        const auto [kind, ref] = set.what[i];
        if (kind == 0) {
            accept();
        } else if (kind == 1) {
            reap();
        } else if (kind == 2) {
            if (Client *c = client(ref)) {
                if (revents & POLLOUT)
                    flush(*c);
                if (revents & (POLLIN | POLLHUP | POLLERR))
                    readClient(*c);
            }
        } else if (kind == 3) {
            ptyEvent(ptys[std::size_t(ref)], revents);
        } else {
            execEvent(execs[std::size_t(ref)], kind);
        }
    }
}

int Server::run()
{
    for (;;) {
        if (m_deadlineMs > 0 && nowMs() >= m_deadlineMs)
            finish("ttl");
        PollSet set;
        collectPollFds(set);
        int timeout = -1;
        if (m_deadlineMs > 0)
            timeout = int(std::clamp<long long>(m_deadlineMs - nowMs(), 0, 60000));
        if (set.pumping)
            timeout = 0;
        if (poll(set.fds.data(), set.fds.size(), timeout) < 0 && errno != EINTR)
            return 1;
        dispatch(set);
        std::vector<int> dead;
        for (auto &[fd, c] : m_clients) {
            pumpFiles(*c);
            if (c->dead)
                dead.push_back(fd);
        }
        for (int fd : dead)
            dropClient(fd);
    }
}

} // namespace detail

int serve(const std::string &configPath, int readyFd)
{
    if (readyFd >= 0)
        fcntl(readyFd, F_SETFD, FD_CLOEXEC); // never inherited by the session's programs
    detail::Server server;
    if (!server.init(configPath))
        return 3;
    if (readyFd >= 0) {
        const char byte = '1';
        (void)!write(readyFd, &byte, 1);
        close(readyFd);
    }
    return server.run();
}

} // namespace sandbar::agent
