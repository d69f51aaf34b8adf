#pragma once

#include "common/Result.h"
#include "kit/Options.h"
#include "kit/Request.h"
#include "kit/Responder.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <memory>
#include <optional>

class QWebSocket;

namespace contract {
class Server;
class SandboxHost;
class Sandbox;
class SandboxProcess;
} // namespace contract

namespace contract::sprites {

// The sprite's home as the service names it. It is the kit's /home/user: the same folder of
// the sandbox (under bubblewrap the commands themselves see it as /home/user).
inline constexpr char kHome[] = "/home/sprite";
inline constexpr char kOrg[] = "contract-org";
inline constexpr int kMaxPage = 50;
inline constexpr int kScrollback = 64 * 1024; // output an attach replays

struct CheckpointRecord {
    QString id; // "v1", "v2", ...
    QString comment;
    QDateTime created;
    QString sourceId; // the checkpoint the files came from (the last created or restored)
    QString folder;   // host copy of the sprite's home/ and tmp/
};

struct SpriteRecord {
    QString id;
    QString name;
    QString kitId;
    QJsonObject config; // ram_mb, cpus, region, storage_gb
    QJsonObject environment;
    QStringList labels;
    QString urlAuth = QStringLiteral("sprite");
    QString privateAccess;
    QString url;
    QString status = QStringLiteral("cold");
    QDateTime createdAt;
    QDateTime updatedAt;
    QDateTime lastRunningAt;
    QDateTime lastWarmingAt;
    QDateTime warmSince;
    QJsonObject resources;     // {"memory":{"limit_mb":n,"autoscale":b}}
    QJsonObject networkPolicy; // {"rules":[...]}
    QJsonObject privileges;
    QList<CheckpointRecord> checkpoints; // oldest first
    int nextCheckpoint = 1;
    QString lastCheckpoint;
    QMap<int, qint64> ports; // listening port -> pid, as last polled
};
using SpritePtr = std::shared_ptr<SpriteRecord>;

class Context;

// One exec session: a real process of the sprite (on a PTY or pipes) that outlives its
// WebSockets; any number of sockets may be attached, all see its output.
class ExecSession : public QObject
{
    Q_OBJECT
public:
    ExecSession(Context &context, QString sessionId, QString sprite, QObject *parent);

    // Follows the process's output and exit (call once, right after it started).
    void start(SandboxProcess *process);
    void attach(QWebSocket *socket);
    bool isRunning() const;
    // Ends the process now (SIGKILL to its tree), for a sprite deleted or restored.
    void abandon();
    // {id, command, workdir, created, bytes_per_second, is_active, last_activity, tty}
    QJsonObject toJson() const;
    QJsonObject sessionInfo() const;
    void sendText(const QJsonObject &message);

    QString id;
    QString spriteName;
    QStringList command;
    QString workdir; // as the API names it (/home/sprite/...)
    bool tty = false;
    int cols = 80;
    int rows = 24;
    QDateTime created;
    QDateTime lastActivity;
    qint64 maxRunAfterDisconnectMs = -1; // -1: forever
    QPointer<SandboxProcess> process;
    std::optional<int> exitCode;

Q_SIGNALS:
    void ended(int exitCode);

private:
    void onOutput(int stream, const QByteArray &bytes);
    void onFinished(int code, const QString &status);
    void onClientGone();
    void onText(const QString &text);
    void onBinary(const QByteArray &bytes);

    Context &m_ctx;
    QList<QPointer<QWebSocket>> m_clients;
    QByteArray m_scrollback;
    QList<QPair<qint64, qint64>> m_traffic; // (ms, bytes) of the last seconds
    QTimer m_detached;
};

// State shared by the control plane, exec, files and checkpoint parts of the server.
class Context : public QObject
{
    Q_OBJECT
public:
    Context(Server &server, SandboxHost &host, const Options &options, QObject *parent);

    Server &server;
    SandboxHost &host;
    QString apiKey;
    QString baseUrl;
    qint64 coldMs = 30000;
    qint64 exitHoldMs = 2000;
    QMap<QString, SpritePtr> sprites; // by name: listings are in name order
    QMap<int, QPointer<ExecSession>> sessions;
    int nextSessionId = 1;
    QList<QPointer<QWebSocket>> portWatchers; // with the sprite's name as a property

    // The API's error body: {"error":"<code>","message":"..."} (what parseAPIError reads).
    static void error(Responder *responder, int status, const QString &code, const QString &message);
    // The files API's error body: {"error":"<message>","code":"ENOENT","path":"..."}.
    static void fsError(Responder *responder, int status, const QString &code, const QString &message,
                        const QString &path);
    static QString iso(const QDateTime &time);
    static QByteArray ndjson(const QJsonObject &line);
    // A query parameter's values, decoded as a form ('+' is a space, as URLSearchParams sends it).
    static QStringList queryValues(const Request &request, const QString &key);
    static QString queryValue(const Request &request, const QString &key, const QString &fallback = {});
    // A JSON object body; an empty body is {}. False after a 400.
    static bool jsonBody(const Request &request, Responder *responder, QJsonObject *out);
    // "30s", "5m", "1h", "250ms" or a number of seconds; nullopt when unreadable.
    static std::optional<qint64> durationMs(const QString &text);

    bool authorized(const Request &request) const;
    // The bearer token; false after a 401.
    bool authorize(const Request &request, Responder *responder) const;
    // The sprite {name} of the path, after the token; nullptr after a 401 or 404.
    SpritePtr spriteFor(const Request &request, Responder *responder) const;
    Sandbox *kit(const SpriteRecord &record) const;
    QJsonObject spriteJson(const SpriteRecord &record) const;
    QList<ExecSession *> sessionsOf(const QString &sprite) const;
    void killSessions(const QString &sprite);
    void deleteSprite(const QString &name);
    // Running while a session runs, warm after the last one ends, cold after coldMs.
    void updateStatus(SpriteRecord &record);
    // A cold sprite that serves a request wakes up (warm).
    void touch(SpriteRecord &record);

    // An API path (absolute, or relative to workingDir) as the kit names it (/home/sprite/x ->
    // /home/user/x, /tmp/x -> /tmp/x); ".." out of the sprite and other folders are refused.
    static sandbar::Result<QString> kitPath(const QString &apiPath, const QString &workingDir);
    // The same mapped into the sprite's folder on this host.
    sandbar::Result<QString> hostPath(const SpriteRecord &record, const QString &apiPath,
                                      const QString &workingDir) const;
    // The API path of a host path inside the sprite's folder.
    QString apiPath(const SpriteRecord &record, const QString &hostPath) const;

private:
    void tick();
    void pollPorts(SpriteRecord &record);

    QTimer m_timer;
    int m_ticks = 0;
};

// "TERM", "SIGTERM" or a number; 0 when unknown.
int signalNumber(const QString &name);

void installControlPlane(Context &context);
void installExec(Context &context);
void installFiles(Context &context);
void installCheckpoints(Context &context);
void installProxy(Context &context);

} // namespace contract::sprites
