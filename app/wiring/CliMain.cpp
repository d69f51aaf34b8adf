#include "wiring/CliMain.h"

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

// The command syntax stays as typed; the words around it are translated.
const char kCommands[] = R"(  accounts list
  accounts add NAME --provider PROVIDER [--endpoint URL] [--FIELD VALUE]...
  accounts remove NAME
  accounts check NAME
  sessions list [--account NAME] [--all]
  sessions create --account NAME [--image IMAGE] [--cpus N] [--memory-mib N] [--ttl SECONDS]
                  [--env K=V]... [--mount HOST:PATH[:ro]]... [--network] [--name NAME]
                  [--gpus all|N|UUID[,UUID...]] [--OPTION VALUE]...
  sessions info|stop|kill|rm|pause|resume REF
  sessions ttl REF SECONDS
  sessions adopt REF
  exec REF -- CMD [ARGS...]
  shell REF
  cp SRC|- REF:DEST
  cp REF:SRC DEST|-
  ls REF:PATH
  stats REF [--once]
  catalog
  compare --vcpus N --memory-gib N --hours N [--cpu-busy FRACTION] [--session-hours N]
          [--storage-gib N] [--gpu TYPE] [--gpus N] [--idle-hours N] [--sessions N]
  audit [--since TIME] [--account NAME] [--session ID] [--action NAME] [--grep TEXT] [--limit N]
  budget [ACCOUNT [USD|none] [--stop|--no-stop]]
  mcp
)";

// The words of the help, in the "sandbarctl" translation context.
class HelpText
{
    Q_DECLARE_TR_FUNCTIONS(sandbarctl)
public:
    static QByteArray text();
};

QByteArray helpText()
{
    return HelpText::text();
}

QByteArray HelpText::text()
{
    QString out;
    out += tr("sandbarctl - drive Sandbar's sandboxes from the command line") + QLatin1String("\n\n");
    out += tr("Global options (before or after the command):") + QLatin1Char('\n');
    out += QLatin1String("  --json              ") + tr("machine-readable output") + QLatin1Char('\n');
    out += QLatin1String("  --config-dir DIR    ") + tr("keep every file Sandbar writes under DIR") +
           QLatin1String("\n\n");
    out += tr("Commands:") + QLatin1Char('\n') + QLatin1String(kCommands) + QLatin1Char('\n');
    out += tr("sessions create takes each create option of the account's provider as --OPTION VALUE, e.g. "
              "--memory 2G --pidsLimit 256 --readOnlyMounts; without --ttl a session ends after an hour "
              "(--ttl 0: no limit).") +
           QLatin1Char('\n');
    out += tr("cp copies as docker cp does; - reads a tar from stdin (to a session) or writes one to stdout "
              "(from a session).") +
           QLatin1String("\n\n");
    out += tr("mcp serves the Model Context Protocol on stdin and stdout (JSON-RPC, one message a line), so an "
              "agent can list, create and drive sessions with the tools it lists.") +
           QLatin1Char('\n');
    out += tr("REF is ACCOUNT/ID (as printed by 'sessions create'), or an ID prefix or session name that only one "
              "account has. Exit codes: 0 ok, 1 failure, 2 usage.") +
           QLatin1Char('\n');
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
        } else if (a == QLatin1String("--json")) {
            g.json = true;
        } else if (a == QLatin1String("--config-dir")) {
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
        std::fputs(helpText().constData(), args.isEmpty() ? stderr : stdout);
        return args.isEmpty() ? cli::ExitUsage : cli::ExitOk;
    }
    if (args.first() == QLatin1String("--version") || args.first() == QLatin1String("version")) {
        std::printf("sandbarctl %s\n", SANDBAR_VERSION);
        return cli::ExitOk;
    }

    auto services = buildServices(resolveConfigDir(globals->configDir));
    // A short-lived process: write each audit row at once rather than batching.
    services->audit->setFlushDelay(0);
    if (!services->audit->openWarning().isEmpty())
        std::fprintf(stderr, "sandbarctl: warning: %s\n", qPrintable(services->audit->openWarning()));
    if (!services->accounts->loadWarning().isEmpty())
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
        {QStringLiteral("stats"), &cli::runStats},
        {QStringLiteral("catalog"), &cli::runCatalog},
        {QStringLiteral("compare"), &cli::runCompare},
        {QStringLiteral("audit"), &runAuditCommand},
        {QStringLiteral("budget"), &cli::runBudget},
        {QStringLiteral("mcp"), &cli::runMcp},
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
