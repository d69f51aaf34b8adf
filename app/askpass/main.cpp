// sandbar-askpass: what ssh runs for a passphrase or a security key's PIN when Sandbar's window
// started it (SSH_ASKPASS with SSH_ASKPASS_REQUIRE=force). It hands ssh's prompt to the window
// over the private socket SANDBAR_ASKPASS_SOCKET names and prints the answer for ssh; nothing
// is kept. The prompt goes as text ending in a NUL; the window answers '1' and the text, or
// '0' when the person cancelled, and closes.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

bool writeAll(int fd, const char *data, size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0)
            return false;
        data += n;
        size -= size_t(n);
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    const char *path = std::getenv("SANDBAR_ASKPASS_SOCKET");
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (!path || std::strlen(path) >= sizeof(address.sun_path)) {
        std::fprintf(stderr, "sandbar-askpass: no Sandbar window to ask\n");
        return 1;
    }
    std::strcpy(address.sun_path, path);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof(address)) != 0) {
        std::fprintf(stderr, "sandbar-askpass: cannot reach the Sandbar window at %s\n", path);
        return 1;
    }
    // The prompt ends with a NUL (no half-close: Qt's local sockets take it for the end).
    const std::string prompt = argc > 1 ? argv[1] : "";
    if (!writeAll(fd, prompt.c_str(), prompt.size() + 1))
        return 1;
    std::string reply;
    char buffer[512];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
        reply.append(buffer, size_t(n));
    ::close(fd);
    const bool answered = !reply.empty() && reply[0] == '1';
    if (answered) {
        std::fwrite(reply.data() + 1, 1, reply.size() - 1, stdout);
        std::fputc('\n', stdout);
        std::fflush(stdout);
    }
    // The passphrase leaves no copy here.
    std::memset(reply.data(), 0, reply.size());
    std::memset(buffer, 0, sizeof buffer);
    return answered ? 0 : 1;
}
