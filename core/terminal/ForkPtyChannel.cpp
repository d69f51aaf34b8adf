#include "terminal/ForkPtyChannel.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace sandbar {

ForkPtyChannel::ForkPtyChannel(QString program, QStringList arguments, QObject *parent)
    : PtyChannel(parent)
    , m_program(std::move(program))
    , m_arguments(std::move(arguments))
{
    m_reapTimer.setSingleShot(true);
    connect(&m_reapTimer, &QTimer::timeout, this, &ForkPtyChannel::tryReap);
}

ForkPtyChannel::~ForkPtyChannel()
{
    closeFd();
    if (m_pid > 0 && !m_exitCode) {
        ::kill(pid_t(m_pid), SIGHUP);
        int status = 0;
        if (::waitpid(pid_t(m_pid), &status, WNOHANG) == 0) {
            // Still there after the hang-up: do not leave a zombie behind.
            ::kill(pid_t(m_pid), SIGKILL);
            ::waitpid(pid_t(m_pid), &status, 0);
        }
    }
}

void ForkPtyChannel::setInitialSize(int cols, int rows)
{
    m_cols = qMax(1, cols);
    m_rows = qMax(1, rows);
}

void ForkPtyChannel::start()
{
    if (m_fd >= 0 || m_pid > 0) {
        Q_EMIT errorOccurred(makeError(ErrorCode::Conflict, tr("The terminal program is already running.")));
        return;
    }
    // Everything the child needs is prepared before fork(): after it, in a threaded process,
    // only async-signal-safe calls are allowed until exec.
    std::vector<QByteArray> argStore;
    argStore.push_back(QFile::encodeName(m_program));
    for (const QString &a : m_arguments)
        argStore.push_back(a.toLocal8Bit());
    std::vector<char *> argv;
    for (auto &a : argStore)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!m_env.contains(QStringLiteral("TERM")))
        env.insert(QStringLiteral("TERM"), QStringLiteral("xterm-256color"));
    for (const QString &k : m_env.keys()) {
        if (m_env.value(k).isEmpty())
            env.remove(k);
        else
            env.insert(k, m_env.value(k));
    }
    std::vector<QByteArray> envStore;
    for (const QString &kv : env.toStringList())
        envStore.push_back(kv.toLocal8Bit());
    std::vector<char *> envp;
    for (auto &e : envStore)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const QByteArray workDir = QFile::encodeName(m_workDir);

    struct winsize ws {
    };
    ws.ws_col = static_cast<unsigned short>(m_cols);
    ws.ws_row = static_cast<unsigned short>(m_rows);
    int master = -1;
    const pid_t pid = ::forkpty(&master, nullptr, nullptr, &ws);
    if (pid < 0) {
        const int err = errno;
        Q_EMIT errorOccurred(
            makeError(ErrorCode::Unavailable,
                      tr("Could not open a pseudo-terminal: %1").arg(QString::fromLocal8Bit(std::strerror(err)))));
        return;
    }
    if (pid == 0) {
        // Child: default signal handling, then exec. 127 is the shell's "command not found".
        ::signal(SIGPIPE, SIG_DFL);
        ::signal(SIGHUP, SIG_DFL);
        ::signal(SIGINT, SIG_DFL);
        ::signal(SIGCHLD, SIG_DFL);
        if (!workDir.isEmpty() && ::chdir(workDir.constData()) != 0)
            ::_exit(126);
        ::execve(argv[0], argv.data(), envp.data());
        ::execvpe(argv[0], argv.data(), envp.data());
        ::_exit(127);
    }
    m_pid = pid;
    m_fd = master;
    ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) | O_NONBLOCK);
    ::fcntl(m_fd, F_SETFD, FD_CLOEXEC);
    m_readNotifier = std::make_unique<QSocketNotifier>(m_fd, QSocketNotifier::Read);
    connect(m_readNotifier.get(), &QSocketNotifier::activated, this, &ForkPtyChannel::onReadable);
    m_writeNotifier = std::make_unique<QSocketNotifier>(m_fd, QSocketNotifier::Write);
    m_writeNotifier->setEnabled(false);
    connect(m_writeNotifier.get(), &QSocketNotifier::activated, this, &ForkPtyChannel::onWritable);
    Q_EMIT started();
}

void ForkPtyChannel::onReadable()
{
    // A pty read returns a few KiB at a time; gather up to 256 KiB per notification into
    // one delivery (fewer signals and screen feeds during a flood), but stay bounded so
    // one busy program cannot hold the event loop.
    constexpr qsizetype kMaxPerTurn = 256 * 1024;
    QByteArray got;
    bool gone = false;
    while (got.size() < kMaxPerTurn) {
        const qsizetype at = got.size();
        got.resize(at + 65536);
        const ssize_t n = ::read(m_fd, got.data() + at, 65536);
        if (n > 0) {
            got.resize(at + qsizetype(n));
            continue;
        }
        got.resize(at);
        // EOF, or EIO once the last slave descriptor is closed: the program is gone.
        gone = !(n < 0 && (errno == EAGAIN || errno == EINTR));
        break;
    }
    if (!got.isEmpty()) {
        Q_EMIT dataReceived(got);
        if (m_fd < 0)
            return; // a receiver closed us
    }
    if (gone)
        hangUp();
}

void ForkPtyChannel::setReadingPaused(bool paused)
{
    if (m_readNotifier)
        m_readNotifier->setEnabled(!paused);
}

void ForkPtyChannel::write(const QByteArray &bytes)
{
    if (m_fd < 0 || bytes.isEmpty())
        return;
    m_outbox.append(bytes);
    onWritable();
}

void ForkPtyChannel::onWritable()
{
    while (!m_outbox.isEmpty() && m_fd >= 0) {
        const ssize_t n = ::write(m_fd, m_outbox.constData(), size_t(m_outbox.size()));
        if (n > 0) {
            m_outbox.remove(0, qsizetype(n));
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        break; // EAGAIN: wait for the notifier
    }
    if (m_writeNotifier)
        m_writeNotifier->setEnabled(!m_outbox.isEmpty());
}

void ForkPtyChannel::resize(int cols, int rows)
{
    m_cols = qMax(1, cols);
    m_rows = qMax(1, rows);
    if (m_fd < 0)
        return;
    struct winsize ws {
    };
    ws.ws_col = static_cast<unsigned short>(m_cols);
    ws.ws_row = static_cast<unsigned short>(m_rows);
    ::ioctl(m_fd, TIOCSWINSZ, &ws);
}

void ForkPtyChannel::close()
{
    if (m_pid > 0 && !m_exitCode)
        ::kill(pid_t(m_pid), SIGHUP);
    hangUp();
}

void ForkPtyChannel::closeFd()
{
    m_readNotifier.reset();
    m_writeNotifier.reset();
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    m_outbox.clear();
}

void ForkPtyChannel::hangUp()
{
    closeFd();
    m_reapTries = 0;
    tryReap();
}

void ForkPtyChannel::tryReap()
{
    if (m_finished || m_pid <= 0)
        return;
    int status = 0;
    const pid_t r = ::waitpid(pid_t(m_pid), &status, WNOHANG);
    if (r == 0) {
        // The pty closes a moment before the process is reapable; after ~5 s of hang-up
        // the program ignores SIGHUP, so it is killed.
        if (++m_reapTries == 250)
            ::kill(pid_t(m_pid), SIGKILL);
        m_reapTimer.start(m_reapTries < 10 ? 1 : 20);
        return;
    }
    m_finished = true;
    if (r < 0) {
        Q_EMIT errorOccurred(makeError(ErrorCode::Internal, tr("Lost track of the terminal program.")));
        return;
    }
    m_exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    Q_EMIT finished(*m_exitCode);
}

} // namespace sandbar
