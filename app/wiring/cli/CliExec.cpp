#include "providers/Provider.h"
#include "terminal/PtyChannel.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/UnixSignals.h"

#include <QSocketNotifier>
#include <csignal>
#include <memory>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <utility>

namespace sandbar::cli {

namespace {

QString tr(const char *s)
{
    return QCoreApplication::translate("sandbar::cli", s);
}

// Reads this process's stdin without blocking the event loop.
class StdinReader : public QObject
{
    Q_OBJECT
public:
    explicit StdinReader(QObject *parent)
        : QObject(parent)
    {
        m_notifier = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, [this]() {
            char buf[16384];
            const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
            if (n > 0) {
                Q_EMIT data(QByteArray(buf, int(n)));
            } else {
                m_notifier->setEnabled(false);
                Q_EMIT closed();
            }
        });
    }

Q_SIGNALS:
    void data(const QByteArray &bytes);
    void closed();

private:
    QSocketNotifier *m_notifier;
};

// Puts the calling terminal in raw mode for the life of the object.
class RawMode
{
public:
    RawMode()
    {
        if (!::isatty(STDIN_FILENO) || ::tcgetattr(STDIN_FILENO, &m_saved) != 0)
            return;
        termios raw = m_saved;
        ::cfmakeraw(&raw);
        m_active = ::tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0;
    }
    ~RawMode()
    {
        if (m_active)
            ::tcsetattr(STDIN_FILENO, TCSANOW, &m_saved);
    }
    RawMode(const RawMode &) = delete;
    RawMode &operator=(const RawMode &) = delete;

private:
    termios m_saved{};
    bool m_active = false;
};

QPair<int, int> terminalSize()
{
    winsize ws{};
    if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0)
        return {ws.ws_col, ws.ws_row};
    return {80, 24};
}

} // namespace

void runExec(Command &cmd, const QStringList &args)
{
    auto parsed = parseArgs(args, OptionSpec{{}, {}, true});
    if (!parsed.ok())
        return cmd.usage(parsed.message());
    if (parsed->positional.size() != 1 || parsed->rest.isEmpty())
        return cmd.usage(tr("usage: exec REF -- CMD [ARGS...]"));
    const QStringList argv = parsed->rest;
    cmd.withSession(parsed->positional.first(), [&cmd, argv](const SessionHandle &h) {
        if (!h.provider->capabilities().testFlag(Capability::Exec))
            return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::Exec));
        ExecRequest req;
        req.argv = argv;
        auto job = h.provider->exec(h.session.id, req);
        ExecJob *j = job.release();
        j->setParent(&cmd);
        QObject::connect(j, &ExecJob::stdoutData, &cmd, [&cmd](const QByteArray &b) { cmd.outRaw(b); });
        QObject::connect(j, &ExecJob::stderrData, &cmd, [&cmd](const QByteArray &b) { cmd.errRaw(b); });
        // Ctrl-C (or TERM, HUP) ends the command in the session too, not only this process:
        // the job's cancel kills it there, and the exit says which signal. A second one
        // leaves at once.
        auto interrupted = std::make_shared<int>(0);
        auto *signals = new UnixSignals({SIGINT, SIGTERM, SIGHUP}, &cmd);
        QObject::connect(signals, &UnixSignals::raised, j, [&cmd, j, interrupted](int signal) {
            if (*interrupted != 0)
                return cmd.finish(128 + signal);
            *interrupted = signal;
            j->cancel();
        });
        QObject::connect(j, &ExecJob::finished, &cmd, [&cmd, interrupted](const Result<int> &r) {
            if (!r.ok() && *interrupted != 0) {
                // What became of the command in the session, then the shell's code for the signal.
                cmd.errRaw("sandbarctl: " + r.message().toUtf8() + '\n');
                return cmd.finish(128 + *interrupted);
            }
            if (!r.ok())
                return cmd.fail(r.error());
            // The remote exit code is ours; codes above 255 cannot be passed on as they are.
            cmd.finish(r.value() >= 0 && r.value() <= 255 ? r.value() : ExitFailure);
        });
        j->start();
    });
}

// An interactive terminal in the calling terminal. The remote program never gets our
// terminal's descriptor: its PTY is made by the provider and bytes are relayed, so a
// sandboxed program cannot push input into this terminal (TIOCSTI).
void runShell(Command &cmd, const QStringList &args)
{
    if (args.size() != 1)
        return cmd.usage(tr("usage: shell REF"));
    cmd.withSession(args.first(), [&cmd](const SessionHandle &h) {
        if (!h.provider->capabilities().testFlag(Capability::Pty))
            return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::Pty));
        PtyOptions opts;
        const auto [cols, rows] = terminalSize();
        opts.cols = cols;
        opts.rows = rows;
        auto channel = h.provider->openPty(h.session.id, opts);
        PtyChannel *ch = channel.release();
        ch->setParent(&cmd);
        auto raw = std::make_shared<std::unique_ptr<RawMode>>();
        auto *input = new StdinReader(&cmd);
        auto *signals = new UnixSignals({SIGWINCH}, &cmd);
        // Keys typed before the remote terminal is up are kept and sent once it is.
        struct Pending {
            bool started = false;
            QByteArray bytes;
        };
        auto pending = std::make_shared<Pending>();
        const auto send = [ch, pending](const QByteArray &b) {
            if (pending->started)
                ch->write(b);
            else
                pending->bytes += b;
        };
        QObject::connect(ch, &PtyChannel::started, &cmd, [raw, ch, pending]() {
            *raw = std::make_unique<RawMode>();
            pending->started = true;
            if (!pending->bytes.isEmpty())
                ch->write(std::exchange(pending->bytes, {}));
        });
        QObject::connect(ch, &PtyChannel::dataReceived, &cmd, [&cmd](const QByteArray &b) { cmd.outRaw(b); });
        QObject::connect(input, &StdinReader::data, ch, send);
        QObject::connect(input, &StdinReader::closed, ch, [send]() { send(QByteArray("\x04", 1)); });
        QObject::connect(signals, &UnixSignals::raised, ch, [ch](int) {
            const auto [c, r] = terminalSize();
            ch->resize(c, r);
        });
        QObject::connect(ch, &PtyChannel::finished, &cmd, [&cmd, raw](int code) {
            raw->reset();
            cmd.finish(code >= 0 && code <= 255 ? code : ExitFailure);
        });
        QObject::connect(ch, &PtyChannel::errorOccurred, &cmd, [&cmd, raw](const Error &e) {
            raw->reset();
            cmd.errRaw("\r\n");
            cmd.fail(e);
        });
        ch->start();
    });
}

} // namespace sandbar::cli

#include "CliExec.moc"
