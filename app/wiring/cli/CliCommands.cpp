// sandbarctl commands: commands left running in a session (BackgroundFacet): start, list,
// their output, a signal.
#include "providers/Provider.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/CliTr.h"
#include "wiring/cli/ConsoleTerminal.h"

#include <QJsonArray>
#include <QJsonObject>

namespace sandbar::cli {

QJsonObject backgroundToJson(const BackgroundCommand &c)
{
    QJsonObject o{{QStringLiteral("id"), c.id},
                  {QStringLiteral("argv"), QJsonArray::fromStringList(c.argv)},
                  {QStringLiteral("running"), c.running}};
    if (c.started.isValid())
        o[QStringLiteral("started")] = c.started.toUTC().toString(Qt::ISODate);
    if (c.exitCode)
        o[QStringLiteral("exit_code")] = *c.exitCode;
    return o;
}

std::optional<int> parseSignalName(QString text)
{
    text = text.toUpper();
    if (text.startsWith(QLatin1String("SIG")))
        text = text.mid(3);
    static const QList<QPair<QString, int>> names = {
        {QStringLiteral("HUP"), 1},   {QStringLiteral("INT"), 2},   {QStringLiteral("QUIT"), 3},
        {QStringLiteral("KILL"), 9},  {QStringLiteral("USR1"), 10}, {QStringLiteral("USR2"), 12},
        {QStringLiteral("TERM"), 15},
    };
    for (const auto &[name, number] : names) {
        if (name == text)
            return number;
    }
    bool ok = false;
    const int number = text.toInt(&ok);
    return ok && number >= 1 && number <= 64 ? std::optional<int>(number) : std::nullopt;
}

namespace {

QString stateText(const BackgroundCommand &c)
{
    if (c.running)
        return tr("running");
    return c.exitCode ? tr("exited %1").arg(*c.exitCode) : tr("ended");
}

void withBackground(Command &cmd, const QString &ref,
                    std::function<void(BackgroundFacet *, const SessionHandle &)> next)
{
    cmd.withSession(ref, [&cmd, next](const SessionHandle &h) {
        BackgroundFacet *background = h.provider->background();
        if (!background)
            return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::Background));
        next(background, h);
    });
}

void commandsList(Command &cmd, const QString &ref)
{
    withBackground(cmd, ref, [&cmd](BackgroundFacet *background, const SessionHandle &h) {
        background->listBackground(
            h.session.id, Callback<QList<BackgroundCommand>>(&cmd, [&cmd](Result<QList<BackgroundCommand>> r) {
                if (!r)
                    return cmd.fail(r.error());
                if (cmd.json()) {
                    QJsonArray a;
                    for (const BackgroundCommand &c : r.value())
                        a.append(backgroundToJson(c));
                    cmd.printJson(a);
                    return cmd.finish(ExitOk);
                }
                QList<QStringList> rows;
                for (const BackgroundCommand &c : r.value())
                    rows << QStringList{c.id, c.started.isValid() ? formatAge(c.started) : QString(), stateText(c),
                                        c.argv.join(QLatin1Char(' '))};
                cmd.printTable({tr("ID"), tr("STARTED"), tr("STATE"), tr("COMMAND")}, rows);
                cmd.finish(ExitOk);
            }));
    });
}

void commandsStart(Command &cmd, const QString &ref, const QStringList &argv)
{
    withBackground(cmd, ref, [&cmd, argv](BackgroundFacet *background, const SessionHandle &h) {
        ExecRequest request;
        request.argv = argv;
        background->startBackground(h.session.id, request,
                                    Callback<BackgroundCommand>(&cmd, [&cmd](Result<BackgroundCommand> r) {
                                        if (!r)
                                            return cmd.fail(r.error());
                                        if (cmd.json())
                                            cmd.printJson(backgroundToJson(r.value()));
                                        else
                                            cmd.out(r->id);
                                        cmd.finish(ExitOk);
                                    }));
    });
}

// The output as it was and as it comes, until the command ends (or an interrupt here, which
// leaves the command running).
void commandsLogs(Command &cmd, const QString &ref, const QString &commandId)
{
    withBackground(cmd, ref, [&cmd, commandId](BackgroundFacet *background, const SessionHandle &h) {
        LogStream *stream = background->backgroundOutput(h.session.id, commandId).release();
        stream->setParent(&cmd);
        QObject::connect(stream, &LogStream::data, &cmd, [&cmd](const QByteArray &bytes, int fd) {
            if (fd == 2)
                cmd.errRaw(bytes);
            else
                cmd.outRaw(bytes);
        });
        QObject::connect(stream, &LogStream::finished, &cmd, [&cmd](const VoidResult &r) {
            if (!r)
                return cmd.fail(r.error());
            cmd.finish(ExitOk);
        });
        auto *console = new ConsoleEvents(ConsoleEvents::Stop, &cmd);
        QObject::connect(console, &ConsoleEvents::stopRequested, stream, [&cmd, stream](int request) {
            stream->stop();
            cmd.finish(128 + request);
        });
        stream->start();
    });
}

void commandsKill(Command &cmd, const QString &ref, const QString &commandId, int signal)
{
    withBackground(cmd, ref, [&cmd, commandId, signal](BackgroundFacet *background, const SessionHandle &h) {
        background->signalBackground(h.session.id, commandId, signal, Callback<void>(&cmd, [&cmd](VoidResult r) {
                                         if (!r)
                                             return cmd.fail(r.error());
                                         cmd.finish(ExitOk);
                                     }));
    });
}

} // namespace

void runCommands(Command &cmd, const QStringList &argsIn)
{
    QStringList args = argsIn;
    if (args.isEmpty())
        return cmd.usage(tr("commands needs a subcommand: list, start, logs, kill"));
    const QString sub = args.takeFirst();
    if (sub == QLatin1String("list") || sub == QLatin1String("ls")) {
        if (args.size() != 1)
            return cmd.usage(tr("usage: commands list REF"));
        return commandsList(cmd, args.first());
    }
    if (sub == QLatin1String("start")) {
        auto parsed = parseArgs(args, optionSpecFor(u"commands start"));
        if (!parsed.ok())
            return cmd.usage(parsed.message());
        if (parsed->positional.size() != 1 || parsed->rest.isEmpty())
            return cmd.usage(tr("usage: commands start REF -- CMD [ARG]..."));
        return commandsStart(cmd, parsed->positional.first(), parsed->rest);
    }
    if (sub == QLatin1String("logs")) {
        if (args.size() != 2)
            return cmd.usage(tr("usage: commands logs REF ID"));
        return commandsLogs(cmd, args.at(0), args.at(1));
    }
    if (sub == QLatin1String("kill")) {
        auto parsed = parseArgs(args, optionSpecFor(u"commands kill"));
        if (!parsed.ok())
            return cmd.usage(parsed.message());
        if (parsed->positional.size() != 2)
            return cmd.usage(tr("usage: commands kill REF ID [--signal SIG]"));
        const QString name = parsed->value(QStringLiteral("--signal"));
        const std::optional<int> signal = parseSignalName(name.isEmpty() ? QStringLiteral("TERM") : name);
        if (!signal)
            return cmd.usage(
                tr("'%1' is not a signal: give TERM, KILL, INT, HUP, QUIT, USR1, USR2 or a number").arg(name));
        return commandsKill(cmd, parsed->positional.at(0), parsed->positional.at(1), *signal);
    }
    cmd.usage(tr("unknown commands subcommand '%1'").arg(sub));
}

} // namespace sandbar::cli
