#include "wiring/cli/posix/UnixSignals.h"

#include <QSocketNotifier>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace sandbar::cli {

namespace {
int g_pipe[2] = {-1, -1};

void onSignal(int sig)
{
    const unsigned char b = static_cast<unsigned char>(sig);
    [[maybe_unused]] const auto n = ::write(g_pipe[1], &b, 1);
}

// pipe2() where there is one; macOS has only pipe() and fcntl() afterwards.
bool makePipe()
{
#if defined(__APPLE__)
    if (::pipe(g_pipe) != 0)
        return false;
    for (int fd : g_pipe) {
        ::fcntl(fd, F_SETFD, FD_CLOEXEC);
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
    return true;
#else
    return ::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) == 0;
#endif
}
} // namespace

UnixSignals::UnixSignals(const QList<int> &signals, QObject *parent)
    : QObject(parent)
    , m_signals(signals)
{
    if (g_pipe[0] < 0 && !makePipe())
        return;
    m_notifier = new QSocketNotifier(g_pipe[0], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, [this]() {
        unsigned char b = 0;
        while (::read(g_pipe[0], &b, 1) == 1)
            Q_EMIT raised(int(b));
    });
    for (int s : m_signals) {
        struct sigaction sa = {};
        sa.sa_handler = &onSignal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        ::sigaction(s, &sa, nullptr);
    }
}

UnixSignals::~UnixSignals()
{
    for (int s : m_signals)
        ::signal(s, SIG_DFL);
}

} // namespace sandbar::cli
