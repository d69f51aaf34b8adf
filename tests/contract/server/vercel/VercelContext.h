#pragma once

#include "common/Result.h"
#include "kit/Options.h"
#include "kit/Request.h"
#include "kit/Responder.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QStringDecoder>
#include <QStringList>
#include <QTimer>
#include <functional>
#include <memory>
#include <optional>

class QWebSocket;

namespace contract {
class Server;
class SandboxHost;
class Sandbox;
class SandboxProcess;
} // namespace contract

namespace contract::vercel {

// The session's working folder as the service reports it. It is the kit's /home/user: the same
// folder of the sandbox (under bubblewrap the commands themselves see it as /home/user).
inline constexpr char kCwd[] = "/vercel/sandbox";
inline constexpr char kRegion[] = "iad1";
inline constexpr int kMemoryPerVcpu = 2048;            // MB, as the service allots it
inline constexpr qint64 kMaxTimeoutMs = 5 * 3600000LL; // the longest a session may run (Pro plan)

// One command of a session: a real process of the sandbox; its output is kept (as UTF-8 text)
// so that GET .../logs can replay it from the start.
class Command : public QObject
{
    Q_OBJECT
public:
    struct Line {
        QString stream; // "stdout" or "stderr"
        QString data;
    };

    Command(QString commandId, QString session, QObject *parent);

    // Follows the process's output and exit (call once, right after it started).
    void attach(SandboxProcess *process);
    bool isFinished() const { return exitCode.has_value(); }
    // {id,name,args,cwd,sessionId,exitCode (null while running),durationMs (once finished),startedAt}
    QJsonObject toJson() const;
    // Sends `signal` to the process tree; false when it already ended.
    bool kill(int signal);
    // Ends the command now (killed), for a sandbox deleted with its processes.
    void abandon();

    QString id;
    QString sessionId;
    QString name;
    QStringList args;
    QString cwd; // as the API names it (/vercel/sandbox/...)
    qint64 startedAt = 0;
    qint64 durationMs = 0;
    std::optional<int> exitCode;
    QList<Line> log;

Q_SIGNALS:
    void output(const QString &stream, const QString &data);
    void finished();

private:
    void onOutput(bool toStderr, const QByteArray &bytes);
    void onFinished(int code, const QString &status);

    QPointer<SandboxProcess> m_process;
    int m_signalSent = 0;
    qint64 m_logBytes = 0;
    QStringDecoder m_stdout{QStringDecoder::Utf8};
    QStringDecoder m_stderr{QStringDecoder::Utf8};
};

// One run of a sandbox's VM (the service's "session").
struct SessionRecord {
    QString id;
    QString sandboxName;
    QString teamId;
    QString status = QStringLiteral("running");
    int vcpus = 2;
    int memory = 2 * kMemoryPerVcpu;
    QString region;
    QString runtime;
    qint64 timeout = 0; // ms from startedAt
    qint64 requestedAt = 0;
    qint64 startedAt = 0;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    qint64 requestedStopAt = 0; // 0: absent
    qint64 stoppedAt = 0;
    qint64 snapshottedAt = 0;
    QString sourceSnapshotId;
    QJsonObject networkPolicy;      // the response form ({"mode":...})
    QHash<qint64, qint64> cpuTicks; // pid -> the most CPU ticks seen
    qint64 startupCpuMs = 0;        // see Context::sampleCpu
    qint64 ingress = 0;
    qint64 egress = 0;
    QMap<QString, QPointer<Command>> commands;
    QSet<QString> tokens; // of POST .../interactive
    QList<QPointer<QWebSocket>> ptys;
};

// A named sandbox: its configuration, its files (the kit's Sandbox folder, kept across
// sessions) and its sessions.
struct SandboxRecord {
    QString name;
    QString teamId;
    QString projectId;
    QString kitId; // the kit's Sandbox that holds the files
    bool persistent = true;
    QString region;
    QString runtime;
    QString image;
    int vcpus = 2;
    int memory = 2 * kMemoryPerVcpu;
    qint64 timeout = 300000;
    QJsonObject networkPolicy;
    QJsonObject tags;
    QJsonObject env;
    QList<int> ports;
    QJsonValue snapshotExpiration; // undefined: absent
    QJsonValue keepLastSnapshots;
    QJsonValue failoverRegions;
    QString networkId;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    qint64 statusUpdatedAt = 0;
    QString currentSessionId;
    QString currentSnapshotId;
    QString sourceSnapshotId; // what the sandbox was created from
    QString folderSnapshotId; // the snapshot the folder holds unchanged since (restores skip it)
    QStringList sessionIds;
};

struct SnapshotRecord {
    QString id;
    QString sourceSessionId;
    QString sandboxName;
    QString teamId;
    QString projectId;
    QString region;
    QString status = QStringLiteral("created"); // created, deleted, failed
    qint64 sizeBytes = 0;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    qint64 expiresAt = 0; // 0: never
    qint64 lastUsedAt = 0;
    QString creationMethod;
    QString parentId;
    QString folder; // host copy of the files (home/ and tmp/)
};

using SandboxPtr = std::shared_ptr<SandboxRecord>;
using SessionPtr = std::shared_ptr<SessionRecord>;
using SnapshotPtr = std::shared_ptr<SnapshotRecord>;

// State shared by the control plane, commands, files and PTY parts of the server.
class Context : public QObject
{
    Q_OBJECT
public:
    Context(Server &server, SandboxHost &host, const Options &options, QObject *parent);

    Server &server;
    SandboxHost &host;
    QString apiKey;
    QString baseUrl; // "http://127.0.0.1:PORT"
    bool tls = false;

    QMap<QString, SandboxPtr> sandboxes; // by teamId + '\n' + name
    QHash<QString, SessionPtr> sessions;
    QHash<QString, SnapshotPtr> snapshots;

    // Vercel's error body: {"error":{"code":"...","message":"..."}}.
    static void error(Responder *responder, int status, const QString &code, const QString &message);
    // Vercel's error body: {"error":{"code","message"}}.
    static QJsonObject errorJson(const QString &code, const QString &message);
    static qint64 nowMs();
    // "<prefix>_" and 24 random letters and digits.
    static QString newId(const QString &prefix);
    // A JSON object body; an empty body is {}. False after a 400.
    static bool jsonBody(const Request &request, Responder *responder, QJsonObject *out);

    // The bearer token and the teamId every call carries; false after answering.
    bool authorize(const Request &request, Responder *responder) const;
    SandboxPtr sandbox(const QString &teamId, const QString &name) const;
    Sandbox *kitSandbox(const SandboxRecord &record) const;
    // The session named by {sessionId} in the caller's team; nullptr after a 404.
    SessionPtr sessionFor(const Request &request, Responder *responder) const;
    // The same, and running; nullptr after a 404 or a 410 sandbox_stopped.
    SessionPtr runningSession(const Request &request, Responder *responder) const;

    // A new running session of `record` (its files restored as persistence says).
    SessionPtr startSession(SandboxRecord &record);
    // Ends every process of a running session. With `autoSnapshot`, a persistent sandbox keeps
    // its files in a snapshot (returned) and any other loses them; without, the files stay as
    // they are (the caller snapshots or deletes the sandbox).
    SnapshotPtr stopSession(SessionRecord &session, bool autoSnapshot = true);
    // Copies the sandbox's files into a new snapshot.
    SnapshotPtr takeSnapshot(SessionRecord &session, SandboxRecord &record, const QString &method,
                             std::optional<qint64> expiration);
    // POST .../snapshot: stops the session and keeps its files in a new snapshot.
    SnapshotPtr snapshotSession(SessionRecord &session, std::optional<qint64> expiration);
    // Restores a snapshot's files into the sandbox's folder (false when the snapshot is gone).
    bool restoreSnapshot(SandboxRecord &record, const QString &snapshotId);
    void deleteSandbox(SandboxRecord &record, bool deleteOrphanSnapshots);
    void deleteSnapshot(SnapshotRecord &snapshot);
    // Copies the files of one sandbox into another (fork).
    void copyFiles(const SandboxRecord &from, const SandboxRecord &to);

    QJsonObject sessionJson(SessionRecord &session);
    QJsonObject sandboxJson(const SandboxRecord &record);
    QJsonArray routesJson(const SandboxRecord &record) const;
    static QJsonObject snapshotJson(const SnapshotRecord &snapshot);
    // {sandbox, session, routes, resumed}: what create, get and fork answer.
    QJsonObject fullJson(SandboxRecord &record, bool resumed);

    // An API path (absolute, or relative to `cwd`) mapped into the sandbox's folder: only
    // /vercel/sandbox and /tmp exist here; ".." and links out of the sandbox are refused.
    sandbar::Result<QString> hostPath(const SessionRecord &session, const QString &apiPath,
                                      const QString &cwd = QLatin1String(kCwd)) const;
    // An API path made absolute against `cwd` (itself relative to /vercel/sandbox) and cleaned.
    static QString absolutePath(const QString &path, const QString &cwd = QLatin1String(kCwd));
    // The kit's path for a command's working folder (/vercel/sandbox/x -> /home/user/x).
    static sandbar::Result<QString> kitPath(const QString &apiPath, const QString &cwd = QLatin1String(kCwd));

    // The PTY part closes the interactive sockets of a session that stops.
    std::function<void(SessionRecord &)> closePtys;

private:
    void tick();
    void sampleCpu(SessionRecord &session);
    void wipeFiles(const SandboxRecord &record);

    QTimer m_timer;
};

// The NetworkPolicy of a request ("allow-all", {"mode":...} or {allow, subnets}) in the
// form the service reports it; a null value when it is not one.
QJsonValue responsePolicy(const QJsonValue &request);

// A process's exit code as the API reports it: a signal ends it with 128 + its number, as a
// shell says (`signalSent`, when the server sent one, names it best).
int exitCodeFor(int code, const QString &status, int signalSent = 0);

// One item of a listing with its sort key: `key` (a time; 0 when sorting by name) then `tie`.
struct Listed {
    qint64 key = 0;
    QString tie;
    QJsonObject item;
};

// Answers one page of a listing: {itemsKey:[...],"pagination":{"count":n,"next":cursor|null}},
// ordered by the request's sortOrder (default desc), limit (1..100, default 50) and cursor.
void answerPage(const Request &request, Responder *responder, QList<Listed> items, const QString &itemsKey);

void installControlPlane(Context &context);
void installSessions(Context &context);
void installCommands(Context &context);
void installFiles(Context &context);
void installPty(Context &context);

// Registers a route at the server's root and under /api (the path of https://vercel.com/api).
void routeBoth(Context &context, const QByteArray &method, const QString &path,
               std::function<void(Context &, const Request &, Responder *)> handler, bool streams = false);

} // namespace contract::vercel
