#pragma once

#include "kit/Options.h"
#include "kit/Request.h"
#include "kit/Responder.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <functional>
#include <memory>

class QWebSocket;

namespace contract {
class Server;
class SandboxHost;
class Sandbox;
class SandboxProcess;
} // namespace contract

namespace contract::daytona {

// Daytona's own lifecycle states (the kit's Sandbox::state() holds these strings).
inline constexpr char kStarted[] = "started";
inline constexpr char kStopped[] = "stopped";
inline constexpr char kArchived[] = "archived";

// One PTY session of the toolbox: a real shell on a pseudo-terminal, any number of
// WebSocket clients attached at once.
struct PtySession {
    QString id;
    QString cwd;
    QJsonObject envs;
    int cols = 80;
    int rows = 24;
    bool lazyStart = false;
    QDateTime createdAt;
    QPointer<SandboxProcess> process;
    // Clients and whether each asked for the "exited" control message.
    QList<QPair<QPointer<QWebSocket>, bool>> clients;
    // Output produced while nobody was attached, handed to the next client so the first
    // prompt is never lost; bounded.
    QByteArray backlog;
};

// What the Daytona server keeps beside the kit's Sandbox.
struct SandboxExtra {
    qint64 lastActivityMs = 0;
    QHash<QString, std::shared_ptr<PtySession>> ptys;
    // Telemetry samples: {timestampMs, name -> value}.
    QList<QPair<qint64, QHash<QString, double>>> samples;
};

// State shared by the control-plane, toolbox and PTY parts of the server.
class Context : public QObject
{
    Q_OBJECT
public:
    Context(Server &server, SandboxHost &host, const Options &options, QObject *parent);

    Server &server;
    SandboxHost &host;
    QString apiKey;
    QString baseUrl; // "http://127.0.0.1:PORT"
    // Length of one "minute" for auto-stop, so tests can shorten it
    // (SANDBAR_CONTRACT_DAYTONA_MINUTE_MS; default 60000).
    qint64 minuteMs = 60000;

    QString toolboxProxyUrl() const { return baseUrl + QStringLiteral("/toolbox"); }
    SandboxExtra &extra(const QString &id) { return m_extra[id]; }
    void forget(const QString &id) { m_extra.remove(id); }

    // Daytona's error body: {"statusCode":N,"message":"...","error":"Reason Phrase"}.
    static void error(Responder *responder, int status, const QString &message);
    // Daytona's (NestJS's) error body: {statusCode, message, error}.
    static QJsonObject errorJson(int status, const QString &message);
    static QString nowIso();
    static QString iso(const QDateTime &time);

    // Bearer check with Daytona's 401; false after answering.
    bool authorize(const Request &request, Responder *responder) const;
    bool authorized(const Request &request) const;
    // A sandbox by id or name (the control plane accepts both); nullptr if none.
    Sandbox *find(const QString &idOrName) const;
    // For the toolbox: auth, existence, started state, and it counts as activity.
    Sandbox *toolboxSandbox(const Request &request, Responder *responder);
    void touch(const QString &id);

    // Stops a sandbox as Daytona does: every process (PTYs included) ends, files stay.
    void stopSandbox(Sandbox *sandbox);
    void deleteSandbox(Sandbox *sandbox);
    // Takes one telemetry sample of a started sandbox (cpu, memory, filesystem).
    void sample(Sandbox *sandbox);
    QJsonObject sandboxJson(Sandbox *sandbox);

    // Moves a sandbox to `state` and tells Socket.IO listeners (sandbox.state.updated).
    void changeState(Sandbox *sandbox, const QString &state);

    // Hooks the PTY part registers so the lifecycle can end sessions.
    std::function<void(Sandbox *)> closeAllPtys;

Q_SIGNALS:
    // A notification-gateway event: name ("sandbox.created", "sandbox.state.updated") and payload.
    void event(const QString &name, const QJsonObject &payload);

private:
    void tick();

    QHash<QString, SandboxExtra> m_extra;
    QTimer m_timer;
    qint64 m_lastSampleMs = 0;
};

void installControlPlane(Context &context);
void installToolbox(Context &context);
void installPty(Context &context);
void installSocketIo(Context &context);

} // namespace contract::daytona
