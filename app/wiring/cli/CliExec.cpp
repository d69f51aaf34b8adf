#include "providers/Provider.h"
#include "terminal/PtyChannel.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/CliTr.h"
#include "wiring/cli/ConsoleTerminal.h"

#include <memory>
#include <utility>

namespace sandbar::cli {

void runExec(Command &cmd, const QStringList &args)
{
    auto parsed = parseArgs(args, optionSpecFor(u"exec"));
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
        auto job = h.provider->commands()->exec(h.session.id, req);
        ExecJob *j = job.release();
        j->setParent(&cmd);
        QObject::connect(j, &ExecJob::stdoutData, &cmd, [&cmd](const QByteArray &b) { cmd.outRaw(b); });
        QObject::connect(j, &ExecJob::stderrData, &cmd, [&cmd](const QByteArray &b) { cmd.errRaw(b); });
        // Ctrl-C (or TERM, HUP) ends the command in the session too, not only this process:
        // the job's cancel kills it there, and the exit says which signal. A second one
        // leaves at once.
        auto interrupted = std::make_shared<int>(0);
        auto *console = new ConsoleEvents(ConsoleEvents::Stop, &cmd);
        QObject::connect(console, &ConsoleEvents::stopRequested, j, [&cmd, j, interrupted](int request) {
            if (*interrupted != 0)
                return cmd.finish(128 + request);
            *interrupted = request;
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
        const QSize size = consoleSize();
        opts.cols = size.width();
        opts.rows = size.height();
        auto channel = h.provider->terminals()->openPty(h.session.id, opts);
        PtyChannel *ch = channel.release();
        ch->setParent(&cmd);
        auto raw = std::make_shared<std::unique_ptr<ConsoleRawMode>>();
        auto *input = new ConsoleInput(&cmd);
        auto *console = new ConsoleEvents(ConsoleEvents::Resize, &cmd);
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
            *raw = std::make_unique<ConsoleRawMode>();
            pending->started = true;
            if (!pending->bytes.isEmpty())
                ch->write(std::exchange(pending->bytes, {}));
        });
        QObject::connect(ch, &PtyChannel::dataReceived, &cmd, [&cmd](const QByteArray &b) { cmd.outRaw(b); });
        QObject::connect(input, &ConsoleInput::data, ch, send);
        QObject::connect(input, &ConsoleInput::closed, ch, [send]() { send(QByteArray("\x04", 1)); });
        QObject::connect(console, &ConsoleEvents::resized, ch, [ch]() {
            const QSize now = consoleSize();
            ch->resize(now.width(), now.height());
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
