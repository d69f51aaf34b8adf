#pragma once

// Internals of sandbar-agent's server, shared by AgentServer.cpp (connections, terminals,
// commands) and AgentFiles.cpp (files and stats).

#include "AgentProtocol.h"

#include <csignal>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>
#include <vector>

namespace sandbar::agent {
namespace wire = sandbar::local::wire;

namespace detail {

using json = nlohmann::json;
using wire::FrameType;

inline constexpr std::size_t kClientOutLimit = 16u << 20; // a client that reads nothing is dropped
inline constexpr std::size_t kFilePumpLimit = 1u << 20;   // file chunks are queued below this
inline constexpr std::size_t kMaxExitedPtys = 16;
inline constexpr std::size_t kMaxListEntries = 5000;

long long nowMs();
long long monoNs();
int exitStatusOf(int status);
void setNonBlocking(int fd);
std::string errnoText(int err);

struct Pty {
    std::string id;
    int master = -1;
    pid_t pid = -1;
    std::vector<std::string> argv;
    std::string replay;
    std::string pendingIn; // typed or pasted faster than the program reads
    bool exited = false;
    int code = -1;
    std::vector<std::pair<int, std::uint32_t>> subscribers; // client fd, channel
};

struct Exec {
    pid_t pid = -1;
    int in = -1, out = -1, err = -1;
    std::string pendingIn;
    bool inEof = false;
    bool reaped = false;
    int code = -1;
    int client = -1;
    std::uint32_t channel = 0;
};

struct FileGet {
    int fd = -1;
};

struct Client {
    int fd = -1;
    wire::Decoder decoder;
    std::string out;
    std::map<std::uint32_t, std::string> attached; // channel -> pty id
    std::map<std::uint32_t, FileGet> gets;
    std::map<std::uint32_t, int> puts; // channel -> open file
    bool dead = false;
};

class Server
{
public:
    bool init(const std::string &configPath);
    int run();

private:
    void accept();
    void readClient(Client &c);
    void flush(Client &c);
    void send(Client &c, FrameType type, std::uint32_t ch, const std::string &payload);
    void sendJson(Client &c, FrameType type, std::uint32_t ch, const json &j) { send(c, type, ch, j.dump()); }
    void sendError(Client &c, std::uint32_t ch, const std::string &message);
    void handle(Client &c, const wire::Frame &f);
    Pty *attachedPty(Client &c, std::uint32_t ch);
    void listPtys(Client &c, std::uint32_t ch);
    void execInput(Client &c, const wire::Frame &f);
    void writeFileData(Client &c, std::uint32_t ch, const std::string &data);
    void endFile(Client &c, std::uint32_t ch);
    void dropClient(int fd);
    Client *client(int fd);

    void openPty(Client &c, std::uint32_t ch, const json &req);
    void attachPty(Client &c, std::uint32_t ch, const std::string &id);
    void readPty(Pty &p);
    void writePty(Pty &p);
    void finishPty(Pty &p);
    void startExec(Client &c, std::uint32_t ch, const json &req);
    void readExec(Exec &e, bool isErr);
    void maybeFinishExec(std::size_t index);
    void reap();
    void stats(Client &c, std::uint32_t ch);
    void listFiles(Client &c, std::uint32_t ch, const std::string &path);
    void fileGet(Client &c, std::uint32_t ch, const std::string &path);
    void filePut(Client &c, std::uint32_t ch, const json &req);
    void pumpFiles(Client &c);
    void finish(const char *reason);

    struct PollSet;
    void collectPollFds(PollSet &set);
    void dispatch(const PollSet &set);
    void ptyEvent(Pty *p, short revents);
    void execEvent(Exec *e, int kind);

    std::vector<std::string> environment(const json &extra, bool terminal) const;
    Pty *findPty(const std::string &id);

    std::string m_socketPath;
    std::string m_exitReasonPath;
    std::string m_shell = "/bin/sh";
    std::vector<std::string> m_env;
    std::size_t m_replayBytes = 256u * 1024u;
    long long m_deadlineMs = 0;
    int m_listen = -1;
    int m_signals = -1;
    int m_nextPty = 1;
    std::map<int, std::unique_ptr<Client>> m_clients;
    std::vector<std::unique_ptr<Pty>> m_ptys;
    std::vector<std::unique_ptr<Exec>> m_execs;
    sigset_t m_oldMask{};
};

} // namespace detail
} // namespace sandbar::agent
