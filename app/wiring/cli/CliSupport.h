#pragma once

#include "common/Result.h"
#include "metrics/StatsSample.h"
#include "providers/Descriptors.h"
#include "providers/Facets.h"
#include "providers/Session.h"
#include "wiring/AppServices.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMultiMap>
#include <QObject>
#include <QStringList>
#include <functional>

namespace sandbar::cli {

enum Exit { ExitOk = 0, ExitFailure = 1, ExitUsage = 2 };

// What one command line asked for, after the global options were taken out.
struct ParsedArgs {
    QStringList positional;
    QMultiMap<QString, QString> options; // "--name" -> values; flags map to ""
    QStringList rest;                    // after "--"

    bool has(const QString &opt) const { return options.contains(opt); }
    QString value(const QString &opt) const { return options.value(opt); }
    QStringList values(const QString &opt) const;
};

struct OptionSpec {
    QStringList flags;  // take no value
    QStringList valued; // take one value; may repeat
    bool allowRest = false;
};

Result<ParsedArgs> parseArgs(const QStringList &args, const OptionSpec &spec);

// The options clispec lists for the command `words` ("sessions create"), so the parser takes
// exactly what the help, man page and completions document. Options that only some providers
// have are left out: the provider's descriptor adds them (accounts add, sessions create).
OptionSpec optionSpecFor(QStringView words);
// accounts add's options for one provider: --provider and the provider's account fields.
OptionSpec accountsAddSpec(const ProviderDescriptor &provider);

// The state of one sandbarctl run: services, output mode and the way to finish.
// Commands run asynchronously and call finish() exactly once.
class Command : public QObject
{
    Q_OBJECT
public:
    Command(AppServices &services, bool json, QObject *parent = nullptr);

    AppServices &services() { return m_services; }
    bool json() const { return m_json; }

    void out(const QString &line);
    void outRaw(const QByteArray &bytes);
    void errRaw(const QByteArray &bytes);
    void err(const QString &line);
    void printJson(const QJsonValue &value);
    void printTable(const QStringList &header, const QList<QStringList> &rows);

    void finish(int code);
    void fail(const Error &error);      // one clear line on stderr, exit 1
    void usage(const QString &message); // exit 2

    // Resolves REF, then calls next with the handle, or fails.
    void withSession(const QString &ref, std::function<void(const SessionHandle &)> next);

Q_SIGNALS:
    void done(int exitCode);

private:
    AppServices &m_services;
    bool m_json;
    bool m_finished = false;
};

QJsonObject sessionToJson(const SessionInfo &s);
// As `sandbarctl --json stats` and `ls` print them (and the MCP tools answer).
QJsonObject statsSampleToJson(const StatsSample &s);
QJsonObject fileEntryToJson(const FileEntry &e);
QString formatBytes(qint64 bytes);
QString formatAge(const QDateTime &t);

// The command handlers, one per family, each in its own file.
void runAccounts(Command &cmd, const QStringList &args);
void runSessions(Command &cmd, const QStringList &args);
void runExec(Command &cmd, const QStringList &args);
void runShell(Command &cmd, const QStringList &args);
void runCp(Command &cmd, const QStringList &args);
void runLs(Command &cmd, const QStringList &args);
void runMv(Command &cmd, const QStringList &args);
void runChmod(Command &cmd, const QStringList &args);
void runStats(Command &cmd, const QStringList &args);
void runSnapshots(Command &cmd, const QStringList &args); // CliSnapshots.cpp
void runCommands(Command &cmd, const QStringList &args);  // CliCommands.cpp
// A snapshot as `snapshots list --json` and the MCP tools give it: {id, created, comment}.
QJsonObject snapshotToJson(const SnapshotEntry &e);
// TERM, KILL, INT, HUP, QUIT, USR1, USR2 (SIG prefix optional, any case) or a number 1-64, as
// Linux numbers them (sessions run Linux). CliCommands.cpp.
std::optional<int> parseSignalName(QString text);
// A command left running as `commands list --json` gives it: {id, argv, running, started, exit_code}.
QJsonObject backgroundToJson(const BackgroundCommand &c);
void runMcp(Command &cmd, const QStringList &args); // CliMcp.cpp
// `__complete KIND [ARG]`: the shell completions' candidates, one a line (CliComplete.cpp).
void runComplete(Command &cmd, const QStringList &args);

} // namespace sandbar::cli
