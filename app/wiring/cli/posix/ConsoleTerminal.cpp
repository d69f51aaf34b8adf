// The POSIX console: termios raw mode, TIOCGWINSZ and SIGWINCH, SIGINT/SIGTERM/SIGHUP, stdin
// on a QSocketNotifier.
#include "wiring/cli/ConsoleTerminal.h"

#include "wiring/cli/posix/UnixSignals.h"

#include <QSocketNotifier>
#include <csignal>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

namespace sandbar::cli {

struct ConsoleRawMode::Saved {
    termios attributes{};
};

ConsoleRawMode::ConsoleRawMode()
{
    termios saved{};
    if (!::isatty(STDIN_FILENO) || ::tcgetattr(STDIN_FILENO, &saved) != 0)
        return;
    termios raw = saved;
    ::cfmakeraw(&raw);
    if (::tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0)
        m_saved = std::make_unique<Saved>(Saved{saved});
}

ConsoleRawMode::~ConsoleRawMode()
{
    if (m_saved)
        ::tcsetattr(STDIN_FILENO, TCSANOW, &m_saved->attributes);
}

QSize consoleSize()
{
    winsize ws{};
    if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0)
        return {ws.ws_col, ws.ws_row};
    return {80, 24};
}

struct ConsoleEvents::Private {
    UnixSignals *signals = nullptr;
};

ConsoleEvents::ConsoleEvents(Watches watches, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    QList<int> numbers;
    if (watches.testFlag(Stop))
        numbers << SIGINT << SIGTERM << SIGHUP;
    if (watches.testFlag(Resize))
        numbers << SIGWINCH;
    d->signals = new UnixSignals(numbers, this);
    connect(d->signals, &UnixSignals::raised, this, [this](int signal) {
        switch (signal) {
        case SIGWINCH: Q_EMIT resized(); break;
        case SIGINT: Q_EMIT stopRequested(Interrupt); break;
        case SIGTERM: Q_EMIT stopRequested(Terminate); break;
        case SIGHUP: Q_EMIT stopRequested(HangUp); break;
        default: break;
        }
    });
}

ConsoleEvents::~ConsoleEvents() = default;

struct ConsoleInput::Private {
    QSocketNotifier *notifier = nullptr;
};

ConsoleInput::ConsoleInput(QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->notifier = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
    connect(d->notifier, &QSocketNotifier::activated, this, [this]() {
        char buf[16384];
        const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
        if (n > 0) {
            Q_EMIT data(QByteArray(buf, qsizetype(n)));
        } else {
            d->notifier->setEnabled(false);
            Q_EMIT closed();
        }
    });
}

ConsoleInput::~ConsoleInput() = default;

} // namespace sandbar::cli
