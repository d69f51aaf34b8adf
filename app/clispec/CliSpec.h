#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

// The one description of sandbarctl's (and sandbar's) command line. The argument parser,
// `sandbarctl help`, the man pages and the shell completions are all made from it, so none of
// them can name an option the others do not know. The texts are English in the source and
// translated at use (context "sandbarctl"); the man pages keep the English.
namespace sandbar::clispec {

// What a word can be completed with; the shells ask `sandbarctl __complete KIND` for the
// dynamic kinds.
enum class Complete {
    None,
    Account,     // an account name
    Session,     // a session REF
    SessionPath, // REF:PATH (the REF part is completed)
    LocalOrSessionPath,
    Provider, // a provider id
    File,
    Dir,
    AuditAction, // an audit action name
};

struct Option {
    const char *name;        // "--account"
    const char *value;       // the placeholder ("NAME"); nullptr for a flag
    const char *description; // QT_TRANSLATE_NOOP("sandbarctl", ...)
    Complete complete = Complete::None;
    bool repeatable = false;
    // Only where the account's provider has the option (sessions create).
    bool providerDependent = false;
};

struct Example {
    const char *commandLine; // as typed, after "sandbarctl "
    const char *description; // translatable
};

// Options a command takes beyond those listed, made from the provider descriptors.
enum class Extra { None, AccountFields, CreateOptions };

struct Command {
    const char *words;                 // "sessions create"
    const char *synopsis;              // what follows the words: "--account NAME [OPTION]..."; "\n" between forms
    const char *summary;               // one line, translatable
    const char *description = nullptr; // paragraphs separated by "\n\n", translatable
    QList<Option> options = {};
    QList<Complete> positionals = {}; // how each positional is completed, in order
    bool allowRest = false;           // takes "-- CMD [ARGS...]"
    Extra extra = Extra::None;
    QList<Example> examples = {};
    const char *alias = nullptr; // another spelling of the last word ("rm" for "remove")
    bool hidden = false;         // not shown or documented (__complete)
};

struct ExitCode {
    const char *code; // "0", "2", "128+N"
    const char *meaning;
};

struct Entry {
    const char *name;
    const char *description;
};

// Translates one of the texts above in the "sandbarctl" context.
QString text(const char *source);
QString guiText(const char *source); // the window's texts, context "sandbar"

const QList<Command> &commands();
// The command whose words are exactly `words` (an alias counts); nullptr if none.
const Command *findCommand(QStringView words);
// The words a command line starts with ("accounts", "exec", ...), in order, without hidden ones.
QStringList topWords();
// The subcommands under `top` ("list", "add", ...), aliases included; empty for a one-word command.
QStringList subWords(QStringView top);
// words + synopsis, one line for each form of the command, as the help and man page show them.
QStringList usagesOf(const Command &command);

const QList<Option> &globalOptions(); // --json, --config-dir
const QList<ExitCode> &exitCodes();
const QList<Entry> &environment(); // what sandbarctl and sandbar read from the environment
const QList<Entry> &files();       // relative to the configuration directory
const char *programSummary();
const char *programDescription();
const char *refDescription(); // what a REF is

// The window: `sandbar [OPTION]...`.
const QList<Option> &guiOptions(); // --config-dir (--help and --version are Qt's)
const char *guiSummary();
const char *guiDescription();

} // namespace sandbar::clispec
