#include "wiring/cli/UnixSignals.h"

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
} // namespace

UnixSignals::UnixSignals(const QList<int> &signals, QObject *parent)
    : QObject(parent)
    , m_signals(signals)
{
    if (g_pipe[0] < 0 && ::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
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
