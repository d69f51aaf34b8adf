#pragma once

// A fake sandbar-agent for tests/local: a unix socket served from plain blocking sockets
// on threads of its own, so a flood really goes as fast as the kernel allows and the fake
// side's buffers never count as the client's memory. Each accepted connection runs the
// test's script; the script's return is the agent's close.

#include "providers/local/AgentProtocol.h"

#include <QElapsedTimer>
#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <atomic>
#include <cstring>
#include <functional>
#include <mutex>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace sandbar::test::agent {

namespace w = sandbar::local::wire;
using w::FrameType;

// One accepted connection, seen from the fake agent's thread.
class Peer
{
public:
    Peer(int fd, const std::atomic<bool> &stop)
        : m_fd(fd)
        , m_stop(stop)
    {
    }

    bool sendRaw(const std::string &bytes)
    {
        std::size_t off = 0;
        while (off < bytes.size()) {
            pollfd p{m_fd, POLLOUT, 0};
            if (m_stop || ::poll(&p, 1, 50) < 0)
                return false;
            if (!(p.revents & POLLOUT))
                continue;
            const ssize_t n = ::send(m_fd, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            off += std::size_t(n);
        }
        return true;
    }
    bool send(FrameType t, quint32 ch, const std::string &payload = {}) { return sendRaw(w::encode(t, ch, payload)); }
    bool hello(int version = w::kProtocolVersion)
    {
        return send(FrameType::Hello, 0, "{\"version\":" + std::to_string(version) + "}");
    }
    // The next frame from the client; false at EOF, on garbage or after timeoutMs.
    bool read(w::Frame &out, int timeoutMs = 10000)
    {
        QElapsedTimer t;
        t.start();
        for (;;) {
            const auto st = m_decoder.next(out);
            if (st == w::Decoder::Status::Ok)
                return true;
            if (st == w::Decoder::Status::Error || m_stop || t.elapsed() > timeoutMs)
                return false;
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0)
                continue;
            char buf[65536];
            const ssize_t n = ::recv(m_fd, buf, sizeof buf, 0);
            if (n <= 0)
                return false;
            m_decoder.feed(buf, std::size_t(n));
        }
    }
    // Reads and drops everything until the client closes; true if it did in time.
    bool waitClosed(int timeoutMs = 10000)
    {
        w::Frame f;
        QElapsedTimer t;
        t.start();
        while (read(f, timeoutMs))
            if (t.elapsed() > timeoutMs)
                return false;
        return !m_stop && t.elapsed() <= timeoutMs;
    }
    // Holds the connection open without reading until the test ends.
    void hold()
    {
        while (!m_stop)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }

private:
    int m_fd;
    const std::atomic<bool> &m_stop;
    w::Decoder m_decoder;
};

class FakeAgent
{
public:
    using Script = std::function<void(Peer &)>;
    explicit FakeAgent(Script script)
        : m_script(std::move(script))
    {
        path = m_dir.filePath(QStringLiteral("agent.sock"));
        m_listen = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        const QByteArray p = QFile::encodeName(path);
        std::memcpy(a.sun_path, p.constData(), std::size_t(p.size()));
        if (::bind(m_listen, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 || ::listen(m_listen, 16) != 0)
            qFatal("fake agent cannot listen");
        m_accept = std::thread([this] {
            while (!m_stop) {
                pollfd pf{m_listen, POLLIN, 0};
                if (::poll(&pf, 1, 50) <= 0)
                    continue;
                const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
                if (fd < 0)
                    continue;
                std::lock_guard lock(m_mutex);
                m_fds.push_back(fd);
                ++connections;
                m_threads.emplace_back([this, fd] {
                    Peer peer(fd, m_stop);
                    m_script(peer);
                    ::shutdown(fd, SHUT_RDWR); // the script's end is the agent's close
                    ++scriptsDone;
                });
            }
        });
    }
    ~FakeAgent()
    {
        m_stop = true;
        m_accept.join();
        for (int fd : m_fds)
            ::shutdown(fd, SHUT_RDWR);
        for (auto &t : m_threads)
            t.join();
        for (int fd : m_fds)
            ::close(fd);
        ::close(m_listen);
    }

    QString path;
    std::atomic<int> connections{0};
    std::atomic<int> scriptsDone{0};

private:
    QTemporaryDir m_dir;
    Script m_script;
    int m_listen = -1;
    std::atomic<bool> m_stop{false};
    std::mutex m_mutex;
    std::vector<int> m_fds;
    std::vector<std::thread> m_threads;
    std::thread m_accept;
};

// A frame header as raw bytes, for lengths and types encode() would not make.
inline std::string header(std::uint32_t len, std::uint8_t type, std::uint32_t ch)
{
    std::string h;
    for (int s : {24, 16, 8, 0})
        h.push_back(char((len >> s) & 0xff));
    h.push_back(char(type));
    for (int s : {24, 16, 8, 0})
        h.push_back(char((ch >> s) & 0xff));
    return h;
}

} // namespace sandbar::test::agent
