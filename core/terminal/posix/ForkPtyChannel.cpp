#include "terminal/posix/ForkPtyChannel.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#if defined(__APPLE__)
#include <util.h> // forkpty() lives in libSystem and is declared here on macOS
#else
#include <pty.h>
#endif
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#if !defined(__GLIBC__)
extern char **environ;
#endif

namespace sandbar {

namespace {

// pipe2() is Linux and the BSDs; macOS has only pipe() and fcntl() afterwards (a fork on
// another thread in between would inherit the wake pipe, which only costs two descriptors).
int makeWakePipe(int fds[2])
{
#if defined(__APPLE__)
    if (::pipe(fds) != 0)
        return -1;
    for (int i = 0; i < 2; ++i) {
        ::fcntl(fds[i], F_SETFD, FD_CLOEXEC);
        ::fcntl(fds[i], F_SETFL, ::fcntl(fds[i], F_GETFL) | O_NONBLOCK);
    }
    return 0;
#else
    return ::pipe2(fds, O_CLOEXEC | O_NONBLOCK);
#endif
}

// A reader that fills its inbox on every read is carrying a flood; on Linux it then runs as
// SCHED_BATCH, which the kernel never lets preempt the running thread on wakeup. Ten floods'
// readers woken each time the UI thread takes their output would otherwise push the UI
// thread off a small machine's cores just when an idle terminal's echo needs it. A reader
// that reads a little (a prompt, an echo) goes back to the normal policy; both switches
// need no privilege.
void setBulkReader(bool bulk, bool &current)
{
#if defined(SCHED_BATCH)
    if (bulk == current)
        return;
    const sched_param param{};
    if (pthread_setschedparam(pthread_self(), bulk ? SCHED_BATCH : SCHED_OTHER, &param) == 0)
        current = bulk;
#else
    (void)bulk;
    (void)current;
#endif
}

} // namespace

std::unique_ptr<LocalPtyChannel> makeLocalPtyChannel(QString program, QStringList arguments, QObject *parent)
{
    return std::make_unique<ForkPtyChannel>(std::move(program), std::move(arguments), parent);
}

ForkPtyChannel::ForkPtyChannel(QString program, QStringList arguments, QObject *parent)
    : LocalPtyChannel(std::move(program), std::move(arguments), parent)
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
#if defined(__GLIBC__)
        ::execvpe(argv[0], argv.data(), envp.data());
#else
        // No execvpe(): the PATH search of execvp() in the child's environment instead.
        environ = envp.data();
        ::execvp(argv[0], argv.data());
#endif
        ::_exit(127);
    }
    m_pid = pid;
    m_fd = master;
    ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) | O_NONBLOCK);
    ::fcntl(m_fd, F_SETFD, FD_CLOEXEC);
    if (makeWakePipe(m_wake) != 0) {
        m_wake[0] = m_wake[1] = -1;
        const int err = errno;
        hangUp();
        Q_EMIT errorOccurred(
            makeError(ErrorCode::Internal,
                      tr("Could not start the terminal reader: %1").arg(QString::fromLocal8Bit(std::strerror(err)))));
        return;
    }
    m_stopping = m_paused = m_eof = m_posted = false;
    m_reader = std::thread([this] { readLoop(); });
    m_writeNotifier = std::make_unique<QSocketNotifier>(m_fd, QSocketNotifier::Write);
    m_writeNotifier->setEnabled(false);
    connect(m_writeNotifier.get(), &QSocketNotifier::activated, this, &ForkPtyChannel::onWritable);
    Q_EMIT started();
}

void ForkPtyChannel::readLoop()
{
    // Past this much undelivered output the reader stops reading until this object's thread
    // took it: the program then blocks on a full terminal, as in any terminal. One chunk at
    // a time keeps what a flood queues on the UI thread (and each delivery's copy) small;
    // the screen queues a few of them ahead of its parser before it pauses us.
    constexpr qsizetype kMaxInbox = 64 * 1024;
    constexpr qsizetype kSmallRead = 4096;
    QByteArray buf(16384, Qt::Uninitialized);
    bool bulk = false;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(m_lock);
            m_cv.wait(lock, [this] { return m_stopping || (!m_paused && m_inbox.size() < kMaxInbox); });
            if (m_stopping)
                return;
        }
        pollfd fds[2] = {{m_fd, POLLIN, 0}, {m_wake[0], POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (fds[1].revents) {
            char drain[64];
            while (::read(m_wake[0], drain, sizeof drain) > 0) {
            }
            continue; // paused, resumed or stopping: look again
        }
        qsizetype room = 0;
        {
            std::lock_guard<std::mutex> lock(m_lock);
            room = kMaxInbox - m_inbox.size();
        }
        bool gone = false;
        QByteArray got;
        while (got.size() < room) {
            const ssize_t n = ::read(m_fd, buf.data(), size_t(std::min(buf.size(), room - got.size())));
            if (n > 0) {
                got.append(buf.constData(), qsizetype(n));
                continue;
            }
            // EOF, or EIO once the last slave descriptor is closed: the program is gone.
            gone = !(n < 0 && (errno == EAGAIN || errno == EINTR));
            break;
        }
        if (got.size() >= room)
            setBulkReader(true, bulk);
        else if (got.size() < kSmallRead)
            setBulkReader(false, bulk);
        std::lock_guard<std::mutex> lock(m_lock);
        m_inbox.append(got);
        m_eof = gone;
        if (!m_posted && (!m_inbox.isEmpty() || gone)) {
            m_posted = true;
            QMetaObject::invokeMethod(this, &ForkPtyChannel::deliver, Qt::QueuedConnection);
        }
        if (gone)
            return;
    }
    std::lock_guard<std::mutex> lock(m_lock);
    m_eof = true;
    if (!m_posted) {
        m_posted = true;
        QMetaObject::invokeMethod(this, &ForkPtyChannel::deliver, Qt::QueuedConnection);
    }
}

void ForkPtyChannel::deliver()
{
    QByteArray got;
    bool eof = false;
    {
        std::lock_guard<std::mutex> lock(m_lock);
        got.swap(m_inbox);
        eof = m_eof;
        m_posted = false;
    }
    m_cv.notify_all(); // room again in the inbox
    if (!got.isEmpty()) {
        Q_EMIT dataReceived(got);
        if (m_fd < 0)
            return; // a receiver closed us
    }
    if (eof)
        hangUp();
}

bool ForkPtyChannel::deliverNow()
{
    // Data only: the end (m_eof) stays for the queued deliver(), which finds the inbox empty.
    QByteArray got;
    {
        std::lock_guard<std::mutex> lock(m_lock);
        got.swap(m_inbox);
    }
    if (got.isEmpty())
        return false;
    m_cv.notify_all();
    Q_EMIT dataReceived(got);
    return true;
}

void ForkPtyChannel::setReadingPaused(bool paused)
{
    {
        std::lock_guard<std::mutex> lock(m_lock);
        if (m_paused == paused)
            return;
        m_paused = paused;
    }
    m_cv.notify_all();
    if (m_wake[1] >= 0) {
        const char c = 0;
        [[maybe_unused]] const ssize_t n = ::write(m_wake[1], &c, 1);
    }
}

void ForkPtyChannel::stopReader()
{
    if (!m_reader.joinable())
        return;
    {
        std::lock_guard<std::mutex> lock(m_lock);
        m_stopping = true;
    }
    m_cv.notify_all();
    const char c = 0;
    [[maybe_unused]] const ssize_t n = ::write(m_wake[1], &c, 1);
    m_reader.join();
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
    stopReader();
    m_writeNotifier.reset();
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    for (int &w : m_wake) {
        if (w >= 0)
            ::close(w);
        w = -1;
    }
    m_outbox.clear();
    std::lock_guard<std::mutex> lock(m_lock);
    m_inbox.clear();
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
