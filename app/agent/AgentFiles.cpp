#include "AgentServerPrivate.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbar::agent::detail {

void Server::stats(Client &c, std::uint32_t ch)
{
    const long ticks = sysconf(_SC_CLK_TCK);
    const long page = sysconf(_SC_PAGESIZE);
    long long cpuTicks = 0, rssPages = 0, pids = 0, ioRead = 0, ioWrite = 0;
    if (DIR *d = opendir("/proc")) {
        while (dirent *ent = readdir(d)) {
            if (ent->d_name[0] < '0' || ent->d_name[0] > '9')
                continue;
            std::ifstream in(std::string("/proc/") + ent->d_name + "/stat");
            std::string line;
            if (!std::getline(in, line))
                continue;
            const auto close = line.rfind(')');
            if (close == std::string::npos)
                continue;
            std::istringstream rest(line.substr(close + 2));
            std::vector<std::string> fields;
            for (std::string f; rest >> f;)
                fields.push_back(f);
            // fields[0] is the state (field 3); utime/stime are fields 14/15, cutime/cstime
            // (children waited for) 16/17, rss field 24. With the children's share the sum
            // keeps the time of processes that have ended, as long as someone reaped them.
            if (fields.size() < 22)
                continue;
            cpuTicks +=
                std::stoll(fields[11]) + std::stoll(fields[12]) + std::stoll(fields[13]) + std::stoll(fields[14]);
            rssPages += std::stoll(fields[21]);
            ++pids;
            // Storage I/O the process caused (reaped children's included, as for CPU time):
            // cgroup v1's blkio counters miss buffered writeback, and recent kernels fill
            // them only for throttled groups.
            std::ifstream io(std::string("/proc/") + ent->d_name + "/io");
            for (std::string key; io >> key;) {
                long long v = 0;
                if (!(io >> v))
                    break;
                if (key == "read_bytes:")
                    ioRead += v;
                else if (key == "write_bytes:")
                    ioWrite += v;
            }
        }
        closedir(d);
    }
    // Every interface of the sandbox's own network namespace, loopback included: that
    // namespace is the sandbox's alone, so its loopback traffic is the sandbox's traffic
    // (and a session without network still has counters).
    long long rx = 0, tx = 0;
    std::ifstream net("/proc/net/dev");
    std::string line;
    for (int i = 0; std::getline(net, line); ++i) {
        const auto colon = line.find(':');
        if (i < 2 || colon == std::string::npos)
            continue;
        std::istringstream fs(line.substr(colon + 1));
        long long v[9] = {};
        for (auto &x : v)
            fs >> x;
        rx += v[0];
        tx += v[8];
    }
    sendJson(c, FrameType::Reply, ch,
             json{{"cpuNs", cpuTicks * (1000000000LL / ticks)},
                  {"rssBytes", rssPages * page},
                  {"pids", pids},
                  {"rxBytes", rx},
                  {"txBytes", tx},
                  {"ioReadBytes", ioRead},
                  {"ioWriteBytes", ioWrite},
                  {"monoNs", monoNs()},
                  {"deadlineMs", m_deadlineMs}});
}

static json entryJson(const std::string &name, const std::string &full)
{
    struct stat st {
    };
    if (lstat(full.c_str(), &st) != 0)
        return json();
    json e{{"name", name},
           {"size", (long long)st.st_size},
           {"dir", S_ISDIR(st.st_mode)},
           {"link", S_ISLNK(st.st_mode)},
           {"mode", st.st_mode & 07777},
           {"mtimeMs", (long long)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000}};
    if (S_ISLNK(st.st_mode)) {
        char target[4096];
        const ssize_t n = readlink(full.c_str(), target, sizeof target - 1);
        e["target"] = std::string(target, n > 0 ? std::size_t(n) : 0);
        struct stat followed {
        };
        if (stat(full.c_str(), &followed) == 0)
            e["dir"] = bool(S_ISDIR(followed.st_mode));
    }
    return e;
}

void Server::listFiles(Client &c, std::uint32_t ch, const std::string &path)
{
    struct stat st {
    };
    if (path.empty() || path[0] != '/' || stat(path.c_str(), &st) != 0) {
        sendError(c, ch, path + ": " + errnoText(path.empty() || path[0] != '/' ? EINVAL : errno));
        return;
    }
    json entries = json::array();
    bool truncated = false;
    if (!S_ISDIR(st.st_mode)) {
        const auto slash = path.rfind('/');
        entries.push_back(entryJson(path.substr(slash + 1), path));
    } else if (DIR *d = opendir(path.c_str())) {
        while (dirent *ent = readdir(d)) {
            const std::string name = ent->d_name;
            if (name == "." || name == "..")
                continue;
            if (entries.size() >= kMaxListEntries) {
                truncated = true;
                break;
            }
            json e = entryJson(name, path + (path.back() == '/' ? "" : "/") + name);
            if (!e.is_null())
                entries.push_back(std::move(e));
        }
        closedir(d);
    } else {
        sendError(c, ch, path + ": " + errnoText(errno));
        return;
    }
    sendJson(c, FrameType::Reply, ch,
             json{{"isDir", bool(S_ISDIR(st.st_mode))}, {"entries", entries}, {"truncated", truncated}});
}

void Server::fileGet(Client &c, std::uint32_t ch, const std::string &path)
{
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {
    };
    if (fd < 0 || fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        const int err = fd < 0 ? errno : EISDIR;
        if (fd >= 0)
            close(fd);
        sendError(c, ch, path + ": " + errnoText(err));
        return;
    }
    sendJson(c, FrameType::Reply, ch, json{{"size", (long long)st.st_size}, {"mode", st.st_mode & 07777}});
    c.gets[ch] = FileGet{fd};
    pumpFiles(c);
}

void Server::pumpFiles(Client &c)
{
    char buf[wire::kChunkSize];
    for (auto it = c.gets.begin(); it != c.gets.end() && c.out.size() < kFilePumpLimit;) {
        const ssize_t n = read(it->second.fd, buf, sizeof buf);
        if (n > 0) {
            send(c, FrameType::FileData, it->first, std::string(buf, std::size_t(n)));
            continue;
        }
        if (n < 0)
            sendError(c, it->first, errnoText(errno));
        else
            sendJson(c, FrameType::FileEnd, it->first, json::object());
        close(it->second.fd);
        it = c.gets.erase(it);
    }
}

void Server::filePut(Client &c, std::uint32_t ch, const json &req)
{
    const std::string path = req.value("path", std::string());
    const mode_t mode = mode_t(req.value("mode", 0644)) & 07777;
    if (path.empty() || path[0] != '/') {
        sendError(c, ch, path + ": the path must be absolute");
        return;
    }
    if (req.value("dir", false)) {
        struct stat st {
        };
        if (mkdir(path.c_str(), mode | 0700) != 0 &&
            !(errno == EEXIST && stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))) {
            sendError(c, ch, path + ": " + errnoText(errno));
            return;
        }
        sendJson(c, FrameType::Reply, ch, json{{"done", true}});
        return;
    }
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) {
        sendError(c, ch, path + ": " + errnoText(errno));
        return;
    }
    c.puts[ch] = fd;
    sendJson(c, FrameType::Reply, ch, json{{"ready", true}});
}

} // namespace sandbar::agent::detail
