#pragma once

#include "providers/Descriptors.h"
#include "providers/Session.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVariantMap>

namespace sandbar::audit {

// What the audit log may keep of a person's input. Pure functions: secrets and
// environment values are replaced by "***" before anything reaches the database.

inline constexpr char Redacted[] = "***";

// KEY looks like it names a secret: contains TOKEN, SECRET, KEY, PASSWORD, PASSWD,
// CREDENTIAL or AUTH (any case, any separator).
bool looksSecret(const QString &key);

// "K=V" -> "K=***" (every value: an environment value is never recorded); "K" stays.
QString redactEnvEntry(const QString &entry);
QStringList redactEnv(const QStringList &env);

// A command line as typed, with the values of KEY=VALUE pairs whose KEY looks secret,
// of --env/-e flags, of secret-looking flags (--token X, --api-key=X) and of passwords
// in URLs replaced. Quoting is kept: sh -c 'export TOKEN=abc' -> sh -c 'export TOKEN=***'.
QString redactCommandLine(const QString &line);
// The same for an argv, argument by argument (so "-c" scripts are redacted inside).
QStringList redactArgv(const QStringList &argv);

// A structured detail for the log: keys whose field is secret (FieldDescriptor::secret
// or FieldType::Secret) or whose name looks secret are dropped; "env" lists are
// redacted; every other string goes through redactCommandLine. Nested maps recurse.
QJsonObject sanitizeDetail(const QVariantMap &detail, const QList<FieldDescriptor> &fields = {});

// Details for the common actions, already sanitized.
QJsonObject execDetail(const ExecRequest &request);
QJsonObject ptyDetail(const PtyOptions &options);
QJsonObject createDetail(const CreateSpec &spec, const QList<FieldDescriptor> &createOptions = {});
QJsonObject fileDetail(const QString &path, qint64 sizeBytes, const QString &localPath = {});
// A move in the session: {path, to}; a mode change: {path, mode} (octal text, "0755").
QJsonObject moveDetail(const QString &from, const QString &to);
QJsonObject modeDetail(const QString &path, quint32 mode);
QJsonObject ttlDetail(qint64 ttlSeconds);
QJsonObject budgetDetail(double monthSpendUsd, double monthlyBudgetUsd);
// A snapshot's id and, where given, the comment typed for it (through redactCommandLine).
QJsonObject snapshotDetail(const QString &snapshotId, const QString &comment = {});

// An agent's tool arguments as the log, the window and its approval queue may show them:
// secret-looking keys and env values redacted, argv and command lines through redactArgv /
// redactCommandLine, file content and stdin replaced by their size, long strings cut.
QJsonObject agentArgumentsDetail(const QJsonObject &arguments);
// One MCP tool call: who called (initialize's clientInfo), how, which tool, with what, how long.
QJsonObject agentCallDetail(const QString &clientName, const QString &clientVersion, const QString &transport,
                            const QString &tool, const QJsonObject &arguments, qint64 durationMs);

} // namespace sandbar::audit
