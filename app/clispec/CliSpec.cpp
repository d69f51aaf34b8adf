#include "clispec/CliSpec.h"

#include <QCoreApplication>

namespace sandbar::clispec {

namespace {

using C = Complete;

const Option kAccountFilter{"--account", "NAME", QT_TRANSLATE_NOOP("sandbarctl", "Only the sessions of account NAME."),
                            C::Account};

// long by design: table (every sandbarctl command, one entry each)
QList<Command> makeCommands()
{
    QList<Command> list;
    list << Command{
        .words = "accounts list",
        .synopsis = "",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "List the accounts, their providers and settings."),
        .description =
            QT_TRANSLATE_NOOP("sandbarctl", "Secrets are never printed: a setting kept in the keychain shows as "
                                            "(keychain). With --json, each account is an object with its name, "
                                            "provider, settings, the keys of its secrets and when it was added."),
    };
    list << Command{
        .words = "accounts add",
        .synopsis = "NAME --provider PROVIDER [--FIELD VALUE]... [--SECRET-env VARIABLE]...",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Add an account of a provider."),
        .description = QT_TRANSLATE_NOOP(
            "sandbarctl",
            "The other options are the account fields of the provider (see PROVIDERS): --FIELD VALUE for a "
            "setting, a flag for a yes/no field. A secret such as an API key is never taken from the command "
            "line, where other users could see it: --FIELD-env VARIABLE names the environment variable that "
            "holds it, and it is kept in the system keychain."),
        .options = {{"--provider", "PROVIDER",
                     QT_TRANSLATE_NOOP("sandbarctl", "The provider of the account, by its id (see PROVIDERS)."),
                     C::Provider}},
        .extra = Extra::AccountFields,
        .examples = {{"accounts add work --provider docker --endpoint unix:///run/docker.sock",
                      QT_TRANSLATE_NOOP("sandbarctl", "Add a Docker engine reached over its socket.")},
                     {"accounts add cloud --provider e2b --api-key-env E2B_API_KEY",
                      QT_TRANSLATE_NOOP("sandbarctl", "Add an E2B account whose API key is in $E2B_API_KEY.")}},
    };
    list << Command{
        .words = "accounts remove",
        .synopsis = "NAME",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Remove an account and its secrets."),
        .positionals = {C::Account},
        .alias = "rm",
    };
    list << Command{
        .words = "accounts check",
        .synopsis = "NAME",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Check that an account's engine or service answers."),
        .description = QT_TRANSLATE_NOOP("sandbarctl", "Prints the server, its version and API version, and any "
                                                       "warnings; exits 1 when it cannot be reached."),
        .positionals = {C::Account},
    };
    list << Command{
        .words = "accounts trust",
        .synopsis = "NAME [--fingerprint SHA256:KEY]",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Trust the host key of an account's SSH host."),
        .description = QT_TRANSLATE_NOOP(
            "sandbarctl",
            "For an engine reached over ssh://, whose host key ssh does not know yet: Sandbar never trusts one "
            "silently, and a command on the account says the fingerprint the host offers. Compare it with the "
            "host's own (ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub there), then trust it: the key is "
            "written, as ssh writes keys, to the known_hosts file ssh uses for that host. With --fingerprint, only "
            "that key is trusted; a host that offers another is refused."),
        .options = {{"--fingerprint", "SHA256:KEY",
                     QT_TRANSLATE_NOOP("sandbarctl", "Trust the key only if it is this one, as it was shown.")}},
        .positionals = {C::Account},
        .examples = {{"accounts trust build1 --fingerprint SHA256:IWx/hUlf4vmwEsrhE7d7I8IDFPqRO6DlfLdKBPcqM64",
                      QT_TRANSLATE_NOOP("sandbarctl", "Trust the key build1's host offers, if it is this one.")}},
    };
    list << Command{
        .words = "sessions list",
        .synopsis = "[--account NAME] [--all] [--label KEY[=VALUE]]...",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "List the sessions with their REF, name, state and time limit."),
        .description =
            QT_TRANSLATE_NOOP("sandbarctl", "Asks each account's engine or service; the exit status is 1 when one "
                                            "could not be reached, after listing what could."),
        .options = {kAccountFilter,
                    {"--all", nullptr,
                     QT_TRANSLATE_NOOP("sandbarctl", "Also list what the engines run that Sandbar did not create "
                                                     "(see sessions adopt).")},
                    {"--label", "KEY[=VALUE]",
                     QT_TRANSLATE_NOOP("sandbarctl", "Only the sessions with this label (any value for KEY alone); "
                                                     "repeated, only those with all of them."),
                     C::None, true}},
        .alias = "ls",
    };
    list << Command{
        .words = "sessions create",
        .synopsis = "--account NAME [OPTION]...",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Create a session and print its REF."),
        .description = QT_TRANSLATE_NOOP(
            "sandbarctl",
            "Besides the options below, it takes each create option of the account's provider as --OPTION "
            "VALUE (see PROVIDERS), e.g. --memory 2G --pidsLimit 256 --readOnlyMounts; a yes/no option is a "
            "flag that also takes --OPTION=no. Without --ttl a session ends after an hour; --ttl 0 means no "
            "limit, and a warning says so."),
        .options = {{"--account", "NAME",
                     QT_TRANSLATE_NOOP("sandbarctl", "The account to create the session in (required)."), C::Account},
                    {"--image", "IMAGE",
                     QT_TRANSLATE_NOOP("sandbarctl", "The image or template to start from; a provider without images "
                                                     "ignores it.")},
                    {"--name", "NAME", QT_TRANSLATE_NOOP("sandbarctl", "A name for the session, usable as its REF.")},
                    {"--gpus", "all|N|UUID[,UUID...]",
                     QT_TRANSLATE_NOOP("sandbarctl", "The GPUs to give the session: all, a number, or their UUIDs.")},
                    {"--cpus", "N", QT_TRANSLATE_NOOP("sandbarctl", "Limit the session to N CPUs (may be a fraction)."),
                     C::None, false, true},
                    {"--memory-mib", "N", QT_TRANSLATE_NOOP("sandbarctl", "Limit the session's memory to N MiB."),
                     C::None, false, true},
                    {"--ttl", "SECONDS",
                     QT_TRANSLATE_NOOP("sandbarctl", "End the session after SECONDS (default 3600; 0: no limit)."),
                     C::None, false, true},
                    {"--env", "K=V", QT_TRANSLATE_NOOP("sandbarctl", "Set an environment variable in the session."),
                     C::None, true, true},
                    {"--mount", "HOST:PATH[:ro]",
                     QT_TRANSLATE_NOOP("sandbarctl",
                                       "Mount the host folder HOST at PATH in the session, read-only with :ro."),
                     C::Dir, true, true},
                    {"--label", "KEY[=VALUE]",
                     QT_TRANSLATE_NOOP("sandbarctl", "Put one of your labels on the session; Sandbar's own keys "
                                                     "(sandbar, sandbar-*, dev.sandbar.*) are refused."),
                     C::None, true, true},
                    {"--network", nullptr,
                     QT_TRANSLATE_NOOP("sandbarctl", "Give the session network access (off by default)."), C::None,
                     false, true}},
        .extra = Extra::CreateOptions,
        .examples = {{"sessions create --account local --ttl 900 --env GREETING=hello",
                      QT_TRANSLATE_NOOP("sandbarctl", "Create a session that ends itself after 15 minutes.")},
                     {"sessions create --account work --image python:3.12 --mount \"$PWD\":/workspace:ro",
                      QT_TRANSLATE_NOOP("sandbarctl", "Start from an image with this folder mounted read-only.")}},
    };
    const struct {
        const char *words;
        const char *summary;
    } oneRef[] = {
        {"sessions info",
         QT_TRANSLATE_NOOP("sandbarctl", "Show a session's state, image, limits, mounts and abilities.")},
        {"sessions stop", QT_TRANSLATE_NOOP("sandbarctl", "Stop a session; its files are kept.")},
        {"sessions kill", QT_TRANSLATE_NOOP("sandbarctl", "Kill a session's processes at once.")},
        {"sessions rm", QT_TRANSLATE_NOOP("sandbarctl", "Remove a session and its files.")},
        {"sessions pause", QT_TRANSLATE_NOOP("sandbarctl", "Pause a session's processes.")},
        {"sessions resume", QT_TRANSLATE_NOOP("sandbarctl", "Resume a paused session.")},
        {"sessions archive", QT_TRANSLATE_NOOP("sandbarctl", "Archive a session, where the provider can.")},
    };
    for (const auto &c : oneRef)
        list << Command{.words = c.words, .synopsis = "REF", .summary = c.summary, .positionals = {C::Session}};
    list << Command{
        .words = "sessions ttl",
        .synopsis = "REF SECONDS",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Set a session's time limit to SECONDS from now (0: none)."),
        .positionals = {C::Session, C::None},
    };
    list << Command{
        .words = "sessions adopt",
        .synopsis = "REF",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Take a container Sandbar did not create into its listing."),
        .description = QT_TRANSLATE_NOOP("sandbarctl", "REF is one that sessions list --all shows. The adoption "
                                                       "is remembered per account; removing the session ends it."),
        .positionals = {C::Session},
    };
    list << Command{
        .words = "sessions fork",
        .synopsis = "REF [--name NAME]",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Copy a session into a new one, where the provider can, and "
                                                   "print the new one's reference."),
        .description = QT_TRANSLATE_NOOP("sandbarctl", "The copy has the session's files and settings (Vercel's: as "
                                                       "its latest snapshot has them), runs at once and keeps its "
                                                       "time limit and labels."),
        .options = {{"--name", "NAME", QT_TRANSLATE_NOOP("sandbarctl", "The new session's name.")}},
        .positionals = {C::Session},
    };
    list << Command{
        .words = "sessions set",
        .synopsis = "REF --OPTION VALUE...",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Change settings of a session that exists, where its provider "
                                                   "can, and print its reference."),
        .description = QT_TRANSLATE_NOOP("sandbarctl", "The options are the create options the provider can change "
                                                       "later, spelt as sessions create spells them (see PROVIDERS): "
                                                       "a sprite's --public-url, or --public-url=no."),
        .positionals = {C::Session},
        .examples = {{"sessions set sprites/my-sprite --public-url",
                      QT_TRANSLATE_NOOP("sandbarctl", "Let anyone open the sprite's URL.")}},
    };
    list << Command{
        .words = "sessions label",
        .synopsis = "REF KEY=VALUE... [KEY-]...",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Set or remove your labels on a session, where its provider can, "
                                                   "and print its reference."),
        .description = QT_TRANSLATE_NOOP("sandbarctl", "KEY=VALUE sets a label, KEY- removes one; the others stay. "
                                                       "Sandbar's own labels (dev.sandbar.*) cannot be changed."),
        .positionals = {C::Session, C::None},
        .examples = {{"sessions label sprites/my-sprite team=web stage-",
                      QT_TRANSLATE_NOOP("sandbarctl", "Label the sprite team=web and remove its stage label.")}},
    };
    list << Command{
        .words = "snapshots list",
        .synopsis = "REF",
        .summary =
            QT_TRANSLATE_NOOP("sandbarctl", "List a session's snapshots (a sprite's checkpoints), newest first."),
        .positionals = {C::Session},
    };
    list << Command{
        .words = "snapshots create",
        .synopsis = "REF [--comment TEXT]",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Save a snapshot of a session and print its id."),
        .description = QT_TRANSLATE_NOOP("sandbarctl", "What the provider reports while it saves goes to stderr."),
        .options = {{"--comment", "TEXT", QT_TRANSLATE_NOOP("sandbarctl", "A note kept with the snapshot.")}},
        .positionals = {C::Session},
    };
    list << Command{
        .words = "snapshots restore",
        .synopsis = "REF ID",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Put a session back as it was at a snapshot."),
        .description = QT_TRANSLATE_NOOP("sandbarctl", "What runs in the session ends; its files become the "
                                                       "snapshot's."),
        .positionals = {C::Session, C::None},
    };
    list << Command{
        .words = "commands list",
        .synopsis = "REF",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "List the commands left running in a session, newest first, "
                                                   "with their state."),
        .description = QT_TRANSLATE_NOOP("sandbarctl", "Where the provider cannot list them (Vercel), the list holds "
                                                       "those started through Sandbar with this account."),
        .positionals = {C::Session},
    };
    list << Command{
        .words = "commands start",
        .synopsis = "REF -- CMD [ARG]...",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Start a command that keeps running on its own and print its id."),
        .description = QT_TRANSLATE_NOOP("sandbarctl", "It takes no input. Follow its output with commands logs, end "
                                                       "it with commands kill."),
        .positionals = {C::Session},
        .allowRest = true,
        .examples = {{"commands start vercel/web -- npm run dev",
                      QT_TRANSLATE_NOOP("sandbarctl", "Start a development server and leave it running.")}},
    };
    list << Command{
        .words = "commands logs",
        .synopsis = "REF ID",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Print a command's output from its start and follow it until the "
                                                   "command ends."),
        .description = QT_TRANSLATE_NOOP("sandbarctl", "Its stderr goes to stderr. An interrupt stops following; the "
                                                       "command runs on."),
        .positionals = {C::Session, C::None},
    };
    list << Command{
        .words = "commands kill",
        .synopsis = "REF ID [--signal SIG]",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Send a signal to a command left running (TERM unless told)."),
        .options = {{"--signal", "SIG",
                     QT_TRANSLATE_NOOP("sandbarctl", "TERM, KILL, INT, HUP, QUIT, USR1, USR2 or "
                                                     "a number.")}},
        .positionals = {C::Session, C::None},
    };
    list << Command{
        .words = "exec",
        .synopsis = "REF -- CMD [ARG]...",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Run a command in a session and exit with its exit code."),
        .description =
            QT_TRANSLATE_NOOP("sandbarctl", "Its output streams to this terminal. An interrupt (or TERM, HUP) ends the "
                                            "command in the session too; a second one leaves at once."),
        .positionals = {C::Session},
        .allowRest = true,
        .examples = {{"exec local/3f2a -- uname -a",
                      QT_TRANSLATE_NOOP("sandbarctl", "Run uname in the session local/3f2a.")}},
    };
    list << Command{
        .words = "shell",
        .synopsis = "REF",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Open an interactive shell in a session in this terminal."),
        .positionals = {C::Session},
    };
    list << Command{
        .words = "cp",
        .synopsis = "SRC|- REF:DEST\nREF:SRC DEST|-",
        .summary =
            QT_TRANSLATE_NOOP("sandbarctl", "Copy files between this computer and a session, as docker cp does."),
        .description = QT_TRANSLATE_NOOP(
            "sandbarctl",
            "An existing folder receives the item under its own name, a path whose parent exists names the copy, "
            "a trailing / demands an existing folder, and SRC/. copies a folder's contents. - reads a tar from "
            "standard input (to a session) or writes one to standard output (from a session). A DEST left "
            "empty in the session is /workspace/."),
        .positionals = {C::LocalOrSessionPath, C::LocalOrSessionPath},
        .examples = {{"cp ./src local/3f2a:/workspace/",
                      QT_TRANSLATE_NOOP("sandbarctl", "Copy the folder src into the session's /workspace.")},
                     {"cp local/3f2a:/workspace/out.txt .",
                      QT_TRANSLATE_NOOP("sandbarctl", "Copy a file from the session to this folder.")}},
    };
    list << Command{
        .words = "ls",
        .synopsis = "REF:PATH",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "List a folder in a session."),
        .positionals = {C::SessionPath},
    };
    list << Command{
        .words = "mv",
        .synopsis = "REF:PATH TO",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Rename or move a file or folder within a session."),
        .description = QT_TRANSLATE_NOOP("sandbarctl", "TO is a path in the same session, or a bare name for a new "
                                                       "name in the same folder. Nothing is overwritten: when "
                                                       "something is at TO already, the move is refused."),
        .positionals = {C::SessionPath, C::None},
        .examples = {{"mv local/3f2a:/workspace/draft.md final.md",
                      QT_TRANSLATE_NOOP("sandbarctl", "Rename draft.md to final.md in its folder.")}},
    };
    list << Command{
        .words = "chmod",
        .synopsis = "MODE REF:PATH",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Set the permissions of a file or folder in a session."),
        .description = QT_TRANSLATE_NOOP("sandbarctl", "MODE is one to four octal digits, as chmod takes them: "
                                                       "755, 0640. A folder's contents keep theirs."),
        .positionals = {C::None, C::SessionPath},
    };
    list << Command{
        .words = "stats",
        .synopsis = "REF [--once]",
        .summary =
            QT_TRANSLATE_NOOP("sandbarctl", "Show a session's CPU, memory, network, disk and GPU use as it runs."),
        .description = QT_TRANSLATE_NOOP("sandbarctl", "With --json every field is printed, GPUs with their UUID, "
                                                       "power and temperature."),
        .options = {{"--once", nullptr, QT_TRANSLATE_NOOP("sandbarctl", "Print one sample and exit.")}},
        .positionals = {C::Session},
    };
    list << Command{
        .words = "catalog",
        .synopsis = "",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Show the providers' prices, limits and cold start times."),
        .description = QT_TRANSLATE_NOOP("sandbarctl", "With --json each figure comes with its source and date. "
                                                       "Corrections go in catalog.json in the configuration "
                                                       "directory."),
    };
    list << Command{
        .words = "compare",
        .synopsis = "--vcpus N --memory-gib N --hours N [OPTION]...",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Estimate what a workload costs a month with each provider."),
        .options = {{"--vcpus", "N", QT_TRANSLATE_NOOP("sandbarctl", "vCPUs the workload needs (required).")},
                    {"--memory-gib", "N", QT_TRANSLATE_NOOP("sandbarctl", "Memory in GiB (required).")},
                    {"--hours", "N", QT_TRANSLATE_NOOP("sandbarctl", "Hours a month it runs (required).")},
                    {"--cpu-busy", "FRACTION",
                     QT_TRANSLATE_NOOP("sandbarctl",
                                       "How busy its CPUs are, from 0 to 1, for providers that bill use.")},
                    {"--session-hours", "N", QT_TRANSLATE_NOOP("sandbarctl", "How long one session runs, in hours.")},
                    {"--storage-gib", "N", QT_TRANSLATE_NOOP("sandbarctl", "Disk in GiB.")},
                    {"--gpu", "TYPE", QT_TRANSLATE_NOOP("sandbarctl", "A GPU type, as the catalog names it.")},
                    {"--gpus", "N",
                     QT_TRANSLATE_NOOP("sandbarctl", "How many GPUs of that type (needs --gpu; default 1).")},
                    {"--idle-hours", "N", QT_TRANSLATE_NOOP("sandbarctl", "Hours a month it is kept but idle.")},
                    {"--sessions", "N", QT_TRANSLATE_NOOP("sandbarctl", "Sessions started a month.")},
                    {"--egress-gb", "N", QT_TRANSLATE_NOOP("sandbarctl", "Network traffic out, in GB a month.")},
                    {"--free-credit", nullptr,
                     QT_TRANSLATE_NOOP("sandbarctl", "Take the providers' free monthly credit off.")}},
        .examples = {{"compare --vcpus 2 --memory-gib 4 --hours 100",
                      QT_TRANSLATE_NOOP("sandbarctl", "Compare 100 hours a month of 2 vCPUs and 4 GiB.")}},
    };
    list << Command{
        .words = "audit",
        .synopsis = "[OPTION]...",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Show the audit log of what Sandbar did, newest first."),
        .options = {{"--since", "TIME",
                     QT_TRANSLATE_NOOP("sandbarctl", "Only entries since TIME: an ISO 8601 date or time "
                                                     "(local unless it names a zone), or an age such as 90s, 30m, "
                                                     "2h, 7d or 2w.")},
                    {"--account", "NAME", QT_TRANSLATE_NOOP("sandbarctl", "Only entries of account NAME."), C::Account},
                    {"--session", "ID", QT_TRANSLATE_NOOP("sandbarctl", "Only entries of the session ID.")},
                    {"--action", "NAME",
                     QT_TRANSLATE_NOOP("sandbarctl", "Only entries of one action, e.g. session.created."),
                     C::AuditAction},
                    {"--grep", "TEXT", QT_TRANSLATE_NOOP("sandbarctl", "Only entries that contain TEXT.")},
                    {"--limit", "N", QT_TRANSLATE_NOOP("sandbarctl", "At most N entries.")}},
        .examples = {{"audit --since 1d --action session.created",
                      QT_TRANSLATE_NOOP("sandbarctl", "The sessions created in the last day.")}},
    };
    list << Command{
        .words = "budget",
        .synopsis = "[ACCOUNT [USD|none] [--stop|--no-stop]]",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Show or set an account's monthly budget in USD."),
        .description =
            QT_TRANSLATE_NOOP("sandbarctl", "Without arguments it lists every budget with what was spent this month; "
                                            "with ACCOUNT, that account's. The window warns at 80 % and 100 %; none "
                                            "removes the budget."),
        .options = {{"--stop", nullptr,
                     QT_TRANSLATE_NOOP("sandbarctl", "Stop the account's running sessions when the budget is spent.")},
                    {"--no-stop", nullptr, QT_TRANSLATE_NOOP("sandbarctl", "Only warn when the budget is spent.")}},
        .positionals = {C::Account, C::None},
        .examples = {{"budget cloud 25 --stop",
                      QT_TRANSLATE_NOOP("sandbarctl", "Allow 25 USD a month and stop sessions beyond it.")}},
    };
    list << Command{
        .words = "mcp",
        .synopsis = "",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Serve the Model Context Protocol on standard input and output."),
        .description = QT_TRANSLATE_NOOP(
            "sandbarctl",
            "JSON-RPC, one message a line, so an agent can list, create and drive sessions with the tools it "
            "lists. What agents may do is the agent policy, agent-policy.json in the configuration directory; "
            "calls that need approval wait in the running window."),
    };
    list << Command{
        .words = "help",
        .synopsis = "[COMMAND]",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Show the commands, or one command's options."),
        .positionals = {C::None},
    };
    list << Command{
        .words = "version",
        .synopsis = "",
        .summary = QT_TRANSLATE_NOOP("sandbarctl", "Print the version."),
    };
    list << Command{
        .words = "__complete",
        .synopsis = "KIND [ARG]",
        .summary = "Print completion candidates, one a line (for the shell completions).",
        .positionals = {C::None},
        .hidden = true,
    };
    return list;
}

} // namespace

QString text(const char *source)
{
    return QCoreApplication::translate("sandbarctl", source);
}

QString guiText(const char *source)
{
    return QCoreApplication::translate("sandbar", source);
}

const QList<Command> &commands()
{
    static const QList<Command> list = makeCommands();
    return list;
}

const Command *findCommand(QStringView words)
{
    const QString w = words.toString().simplified();
    for (const auto &c : commands()) {
        const QString name = QLatin1String(c.words);
        if (name == w)
            return &c;
        if (c.alias && name.section(QLatin1Char(' '), 0, -2) + QLatin1Char(' ') + QLatin1String(c.alias) == w)
            return &c;
    }
    return nullptr;
}

QStringList topWords()
{
    QStringList out;
    for (const auto &c : commands()) {
        const QString top = QString::fromLatin1(c.words).section(QLatin1Char(' '), 0, 0);
        if (!c.hidden && !out.contains(top))
            out << top;
    }
    return out;
}

QStringList subWords(QStringView top)
{
    QStringList out;
    for (const auto &c : commands()) {
        const QString words = QString::fromLatin1(c.words);
        if (words.section(QLatin1Char(' '), 0, 0) != top || !words.contains(QLatin1Char(' ')))
            continue;
        out << words.section(QLatin1Char(' '), 1);
        if (c.alias)
            out << QLatin1String(c.alias);
    }
    return out;
}

QStringList usagesOf(const Command &command)
{
    QStringList out;
    const QString words = QString::fromLatin1(command.words);
    for (const QString &syn : QString::fromLatin1(command.synopsis).split(QLatin1Char('\n')))
        out << (syn.isEmpty() ? words : words + QLatin1Char(' ') + syn);
    return out;
}

const QList<Option> &globalOptions()
{
    static const QList<Option> list = {
        {"--json", nullptr, QT_TRANSLATE_NOOP("sandbarctl", "machine-readable output")},
        {"--config-dir", "DIR", QT_TRANSLATE_NOOP("sandbarctl", "keep every file Sandbar writes under DIR"), C::Dir},
    };
    return list;
}

const QList<ExitCode> &exitCodes()
{
    static const QList<ExitCode> list = {
        {"0", QT_TRANSLATE_NOOP("sandbarctl", "Success.")},
        {"1", QT_TRANSLATE_NOOP("sandbarctl", "Failure; one line on standard error says why.")},
        {"2", QT_TRANSLATE_NOOP("sandbarctl", "Usage error: an unknown command or option, or a missing argument.")},
        {"128+N", QT_TRANSLATE_NOOP("sandbarctl", "exec was ended by signal N.")},
    };
    return list;
}

const QList<Entry> &environment()
{
    static const QList<Entry> list = {
        {"SANDBAR_CONFIG_DIR",
         QT_TRANSLATE_NOOP("sandbarctl", "The configuration directory, when --config-dir is not given.")},
        {"DOCKER_HOST", QT_TRANSLATE_NOOP("sandbarctl", "Where the first start looks for a Docker engine, besides "
                                                        "the usual sockets.")},
        {"XDG_CONFIG_HOME",
         QT_TRANSLATE_NOOP("sandbarctl", "The configuration directory is $XDG_CONFIG_HOME/sandbar by default.")},
        {"SANDBAR_AGENT_PATH",
         QT_TRANSLATE_NOOP("sandbarctl", "The sandbar-agent program the local provider runs in its sessions, when "
                                         "it is not installed next to sandbarctl or in libexec/sandbar.")},
        {"SANDBAR_LOCAL_CGROUP_ROOT",
         QT_TRANSLATE_NOOP("sandbarctl", "The cgroup v2 folder the local provider puts its sessions under, for "
                                         "accounts that do not name one; none turns the limits off.")},
    };
    return list;
}

const QList<Entry> &files()
{
    static const QList<Entry> list = {
        {"sandbar.ini", QT_TRANSLATE_NOOP("sandbarctl", "Accounts and preferences (secrets are in the keychain).")},
        {"audit.sqlite", QT_TRANSLATE_NOOP("sandbarctl", "The audit log.")},
        {"ledger.sqlite", QT_TRANSLATE_NOOP("sandbarctl", "Budgets and what each account spent.")},
        {"catalog.json", QT_TRANSLATE_NOOP("sandbarctl", "Corrections to the price catalog.")},
        {"agent-policy.json", QT_TRANSLATE_NOOP("sandbarctl", "What agents may do over MCP.")},
        {"agents.sock", QT_TRANSLATE_NOOP("sandbarctl", "Where sandbarctl mcp reaches the running window.")},
    };
    return list;
}

const char *programSummary()
{
    return QT_TRANSLATE_NOOP("sandbarctl", "drive Sandbar's sandboxes from the command line");
}

const char *programDescription()
{
    return QT_TRANSLATE_NOOP(
        "sandbarctl",
        "sandbarctl creates and drives sandboxed sessions for AI agents on the accounts Sandbar knows: a local "
        "sandbox, Docker and Podman engines, and cloud services such as E2B and Daytona. It shares its accounts, "
        "audit log and budgets with the Sandbar window.");
}

const char *refDescription()
{
    return QT_TRANSLATE_NOOP("sandbarctl",
                             "REF is ACCOUNT/ID (as printed by 'sessions create'), or an ID prefix or session name "
                             "that only one account has.");
}

const QList<Option> &guiOptions()
{
    static const QList<Option> list = {
        {"--config-dir", "DIR", QT_TRANSLATE_NOOP("sandbar", "Keep every file Sandbar writes under DIR."), C::Dir},
        {"--help", nullptr,
         QT_TRANSLATE_NOOP("sandbar", "Show the options and exit (also -h; --help-all adds Qt's own options).")},
        {"--version", nullptr, QT_TRANSLATE_NOOP("sandbar", "Show the version and exit (also -v).")},
    };
    return list;
}

const char *guiSummary()
{
    return QT_TRANSLATE_NOOP("sandbar", "Manage AI-agent sandboxes");
}

const char *guiDescription()
{
    return QT_TRANSLATE_NOOP(
        "sandbar",
        "Sandbar is a desktop application to create, watch and control sandboxed sessions for AI agents: local "
        "sandboxes, Docker and Podman containers, and cloud sandboxes. It shows live resource charts, takes "
        "file uploads, estimates costs, keeps an audit log, and asks before an agent connected over MCP does "
        "something the agent policy says needs approval. sandbarctl(1) drives the same sessions from the "
        "command line.");
}

} // namespace sandbar::clispec
