#include "wiring/CliMain.h"

#include "clispec/CliSpec.h"
#include "wiring/AppServices.h"
#include "wiring/Translations.h"
#include "wiring/cli/CliAudit.h"
#include "wiring/cli/CliCatalog.h"
#include "wiring/cli/CliSupport.h"

#include <QCoreApplication>
#include <QTimer>
#include <cstdio>

namespace sandbar {

namespace {

// Breaks text into lines of at most width columns, each starting with indent.
QString wrapped(const QString &text, int indent, int width = 80)
{
    QString out;
    QString line;
    const QString pad(indent, QLatin1Char(' '));
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && indent + line.size() + 1 + word.size() > width) {
            out += pad + line + QLatin1Char('\n');
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    if (!line.isEmpty())
        out += pad + line + QLatin1Char('\n');
    return out;
}

QString optionLine(const clispec::Option &o)
{
    QString head = QLatin1String(o.name);
    if (o.value)
        head += QLatin1Char(' ') + QLatin1String(o.value);
    if (o.repeatable)
        head += QStringLiteral("...");
    const QString text = clispec::text(o.description);
    QString body = wrapped(text, 22);
    if (head.size() <= 20)
        return QStringLiteral("  ") + head.leftJustified(20) + body.mid(22);
    return QStringLiteral("  ") + head + QLatin1Char('\n') + body;
}

// The help, made from the same definitions (clispec) that the parser, man page and completions
// are made from; the words are translated, the command syntax stays as typed.
QByteArray helpText()
{
    QString out;
    out += QStringLiteral("sandbarctl - ") + clispec::text(clispec::programSummary()) + QLatin1String("\n\n");
    out += QCoreApplication::translate("sandbarctl",
                                       "Usage: sandbarctl [--json] [--config-dir DIR] COMMAND [ARGUMENT]...") +
           QLatin1String("\n\n");
    out +=
        QCoreApplication::translate("sandbarctl", "Global options (before or after the command):") + QLatin1Char('\n');
    for (const auto &o : clispec::globalOptions())
        out += optionLine(o);
    out += QLatin1Char('\n') + QCoreApplication::translate("sandbarctl", "Commands:") + QLatin1Char('\n');
    for (const auto &c : clispec::commands()) {
        if (c.hidden)
            continue;
        const QString words = QLatin1String(c.words);
        if (words.size() <= 18)
            out += QStringLiteral("  ") + words.leftJustified(18) + clispec::text(c.summary) + QLatin1Char('\n');
        else
            out += QStringLiteral("  ") + words + QLatin1Char('\n') + wrapped(clispec::text(c.summary), 20);
    }
    out += QLatin1Char('\n') + wrapped(clispec::text(clispec::refDescription()), 0);
    out += wrapped(QCoreApplication::translate(
                       "sandbarctl",
                       "Exit codes: 0 ok, 1 failure, 2 usage. Run 'sandbarctl help COMMAND' for a command's options, "
                       "or see man sandbarctl."),
                   0);
    return out.toLocal8Bit();
}

// The providers an account can be of, from the provider list, for `help accounts add`.
QString providersSection()
{
    ProviderFactories factories;
    registerProviders(factories);
    QString out = QLatin1Char('\n') + QCoreApplication::translate("sandbarctl", "Providers:") + QLatin1Char('\n');
    for (const auto &f : factories.all()) {
        const ProviderDescriptor &d = f->descriptor();
        out += QStringLiteral("  ") + d.id.leftJustified(9) + QLatin1Char(' ') + d.displayName + QLatin1Char('\n');
    }
    return out;
}

// `help COMMAND`: one command (or every command under its first word) with its options.
QByteArray commandHelp(const QString &words)
{
    QString out;
    for (const auto &c : clispec::commands()) {
        const QString name = QLatin1String(c.words);
        if (c.hidden ||
            (name != words && !name.startsWith(words + QLatin1Char(' ')) && clispec::findCommand(words) != &c))
            continue;
        if (!out.isEmpty())
            out += QLatin1Char('\n');
        for (const QString &usage : clispec::usagesOf(c))
            out += QCoreApplication::translate("sandbarctl", "Usage:") + QStringLiteral(" sandbarctl ") + usage +
                   QLatin1Char('\n');
        out += wrapped(clispec::text(c.summary), 2);
        if (c.description) {
            for (const QString &para : clispec::text(c.description).split(QStringLiteral("\n\n")))
                out += QLatin1Char('\n') + wrapped(para, 2);
        }
        if (!c.options.isEmpty()) {
            out += QLatin1Char('\n') + QCoreApplication::translate("sandbarctl", "Options:") + QLatin1Char('\n');
            for (const auto &o : c.options)
                out += optionLine(o);
        }
        if (c.extra == clispec::Extra::AccountFields)
            out += providersSection();
        if (!c.examples.isEmpty()) {
            out += QLatin1Char('\n') + QCoreApplication::translate("sandbarctl", "Examples:") + QLatin1Char('\n');
            for (const auto &e : c.examples)
                out += QStringLiteral("  sandbarctl ") + QLatin1String(e.commandLine) + QLatin1Char('\n') +
                       wrapped(clispec::text(e.description), 4);
        }
    }
    return out.toLocal8Bit();
}

struct Globals {
    bool json = false;
    QString configDir;
    QStringList rest;
};

// --json and --config-dir may stand anywhere before a "--" (after it they belong to
// the remote command).
Result<Globals> takeGlobals(const QStringList &args)
{
    Globals g;
    bool passthrough = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (passthrough) {
            g.rest << a;
            continue;
        }
        if (a == QLatin1String("--")) {
            passthrough = true;
            g.rest << a;
        } else if (a == QLatin1String(clispec::globalOptions().at(0).name)) {
            g.json = true;
        } else if (a == QLatin1String(clispec::globalOptions().at(1).name)) {
            if (i + 1 >= args.size())
                return makeError(ErrorCode::InvalidArgument,
                                 QCoreApplication::translate("sandbarctl", "--config-dir needs a directory"));
            g.configDir = args.at(++i);
        } else if (a.startsWith(QLatin1String("--config-dir="))) {
            g.configDir = a.mid(13);
        } else {
            g.rest << a;
        }
    }
    return g;
}

void runAuditCommand(cli::Command &cmd, const QStringList &args)
{
    cli::runAuditWithLog(cmd, args, *cmd.services().audit);
}

} // namespace

int cliMain(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    installTranslations(app);
    QCoreApplication::setOrganizationName(QStringLiteral("Sandbar"));
    QCoreApplication::setApplicationName(QStringLiteral("sandbar"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SANDBAR_VERSION));

    auto globals = takeGlobals(QCoreApplication::arguments().mid(1));
    if (!globals.ok()) {
        std::fprintf(stderr, "sandbarctl: %s\n", qPrintable(globals.message()));
        return cli::ExitUsage;
    }
    QStringList args = globals->rest;
    if (args.isEmpty() || args.first() == QLatin1String("help") || args.first() == QLatin1String("--help") ||
        args.first() == QLatin1String("-h")) {
        const QString topic = args.mid(1).join(QLatin1Char(' '));
        if (!topic.isEmpty()) {
            const QByteArray text = commandHelp(topic);
            if (text.isEmpty()) {
                std::fprintf(
                    stderr, "sandbarctl: %s\n",
                    qPrintable(QCoreApplication::translate("sandbarctl", "no command '%1'; try 'sandbarctl help'")
                                   .arg(topic)));
                return cli::ExitUsage;
            }
            std::fputs(text.constData(), stdout);
            return cli::ExitOk;
        }
        std::fputs(helpText().constData(), args.isEmpty() ? stderr : stdout);
        return args.isEmpty() ? cli::ExitUsage : cli::ExitOk;
    }
    if (args.first() == QLatin1String("--version") || args.first() == QLatin1String("version")) {
        std::printf("sandbarctl %s\n", SANDBAR_VERSION);
        return cli::ExitOk;
    }

    const bool completing = args.first() == QLatin1String("__complete");
    auto services = buildServices(resolveConfigDir(globals->configDir));
    // A short-lived process: write each audit row at once rather than batching.
    services->audit->setFlushDelay(0);
    // A completion prints candidates only; a warning would land in the person's prompt.
    if (!completing && !services->audit->openWarning().isEmpty())
        std::fprintf(stderr, "sandbarctl: warning: %s\n", qPrintable(services->audit->openWarning()));
    if (!completing && !services->accounts->loadWarning().isEmpty())
        std::fprintf(stderr, "sandbarctl: warning: %s\n", qPrintable(services->accounts->loadWarning()));
    services->accounts->createDefaultAccounts();

    cli::Command command(*services, globals->json);
    int exitCode = cli::ExitOk;
    QObject::connect(&command, &cli::Command::done, &app, [&exitCode](int code) {
        exitCode = code;
        QCoreApplication::exit(code);
    });

    const QString verb = args.takeFirst();
    using Handler = void (*)(cli::Command &, const QStringList &);
    const QList<QPair<QString, Handler>> handlers = {
        {QStringLiteral("accounts"), &cli::runAccounts},
        {QStringLiteral("sessions"), &cli::runSessions},
        {QStringLiteral("exec"), &cli::runExec},
        {QStringLiteral("shell"), &cli::runShell},
        {QStringLiteral("cp"), &cli::runCp},
        {QStringLiteral("ls"), &cli::runLs},
        {QStringLiteral("mv"), &cli::runMv},
        {QStringLiteral("chmod"), &cli::runChmod},
        {QStringLiteral("stats"), &cli::runStats},
        {QStringLiteral("snapshots"), &cli::runSnapshots},
        {QStringLiteral("commands"), &cli::runCommands},
        {QStringLiteral("catalog"), &cli::runCatalog},
        {QStringLiteral("compare"), &cli::runCompare},
        {QStringLiteral("audit"), &runAuditCommand},
        {QStringLiteral("budget"), &cli::runBudget},
        {QStringLiteral("mcp"), &cli::runMcp},
        {QStringLiteral("__complete"), &cli::runComplete},
    };
    Handler handler = nullptr;
    for (const auto &[name, h] : handlers) {
        if (name == verb)
            handler = h;
    }
    if (!handler) {
        std::fprintf(stderr, "sandbarctl: unknown command '%s'\nTry 'sandbarctl help'.\n", qPrintable(verb));
        return cli::ExitUsage;
    }
    // Start once the loop runs, so a command that finishes at once still exits cleanly.
    QTimer::singleShot(0, &command, [&command, handler, args]() { handler(command, args); });
    app.exec();
    return exitCode;
}

} // namespace sandbar
