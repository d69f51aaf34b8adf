#pragma once

#include "common/Result.h"

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
#include <functional>
#include <optional>

class QProcess;

namespace sandbar {
class LocalPtyChannel;
}

namespace contract {

struct ProcessSpec {
    QString cmd; // program (looked up on PATH inside the sandbox)
    QStringList args;
    QMap<QString, QString> envs; // on top of the sandbox's envVars
    QString cwd;                 // sandbox path; default /home/user
    bool pty = false;
    int cols = 80;
    int rows = 24;
    QString tag;
    bool stdinOpen = true; // false: stdin is closed at once (non-PTY)
};

// A command inside a sandbox: a real local process (under bubblewrap when available),
// on a pipe set or a pseudo-terminal.
class SandboxProcess : public QObject
{
    Q_OBJECT
public:
    enum class Channel { Stdout, Stderr, Pty };

    SandboxProcess(ProcessSpec spec, QObject *parent);
    ~SandboxProcess() override;

    qint64 pid() const { return m_pid; }
    const ProcessSpec &spec() const { return m_spec; }
    bool isPty() const { return m_spec.pty; }
    bool isRunning() const { return m_running; }
    std::optional<int> exitCode() const { return m_exitCode; }
    QString exitStatus() const { return m_status; }
    // The last bytes the process wrote to stderr (pipes only), for the server's trace.
    QByteArray stderrTail() const { return m_stderrTail; }

    void write(const QByteArray &bytes);
    void closeStdin();
    void resize(int cols, int rows);
    // Sends a POSIX signal to the process and everything below it.
    bool sendSignal(int signal);

Q_SIGNALS:
    void started();
    void output(contract::SandboxProcess::Channel channel, const QByteArray &bytes);
    // exitCode -1 with a status such as "signal: killed" when killed by a signal.
    void finished(int exitCode, const QString &status);

private:
    friend class Sandbox;
    bool start(const QString &program, const QStringList &arguments, const QString &hostCwd,
               const QHash<QString, QString> &env, QString *error);
    void onFinished(int code, const QString &status);

    ProcessSpec m_spec;
    qint64 m_pid = -1;
    bool m_running = false;
    std::optional<int> m_exitCode;
    QString m_status;
    QString m_failure;
    QByteArray m_stderrTail;
    QProcess *m_process = nullptr;
    sandbar::LocalPtyChannel *m_pty = nullptr;
};

struct SandboxMetrics {
    double cpuPercent = 0;  // of one CPU, over the last sample interval
    qint64 memoryBytes = 0; // RSS of the sandbox's process tree
    qint64 diskBytes = 0;   // size of the sandbox's folder
    int cpuCount = 1;
    qint64 memoryTotal = 0;
    qint64 diskTotal = 0;
};

// One sandbox: a private folder (home and tmp), its processes, lifecycle state and the
// provider's data (metadata, template, ...).
class Sandbox : public QObject
{
    Q_OBJECT
public:
    Sandbox(QString id, QString root, QObject *parent);
    ~Sandbox() override;

    QString id() const { return m_id; }
    QString root() const { return m_root; }
    QString homeDir() const;                  // host folder seen as /home/user
    QString tmpDir() const;                   // host folder seen as /tmp
    QString state() const { return m_state; } // "running", "paused" (provider may set others)
    void setState(const QString &state) { m_state = state; }
    bool isPaused() const { return m_state == QLatin1String("paused"); }

    QJsonObject metadata; // user metadata / labels
    QJsonObject data;     // provider specifics (template, envVars, secure, token, ...)
    QHash<QString, QString> envVars;
    QDateTime createdAt;
    QDateTime endAt; // invalid: never expires

    // Maps an API path (absolute like /home/user/x or /tmp/x, or relative to /home/user)
    // into this sandbox's folder. Refuses escapes through ".." or symlinks, and paths
    // outside /home/user and /tmp.
    sandbar::Result<QString> mapPath(const QString &apiPath) const;
    // The API path of a host path inside the folder (inverse of mapPath).
    QString apiPath(const QString &hostPath) const;

    SandboxProcess *start(const ProcessSpec &spec, QString *error);
    SandboxProcess *process(qint64 pid) const;
    QList<SandboxProcess *> processes() const;
    int activePtys() const;

    // Stops (SIGSTOP) or continues (SIGCONT) every process; sets the state.
    void pause();
    void resume();
    SandboxMetrics metrics();
    // A line for the sandbox's log (GET .../logs).
    void log(const QString &level, const QString &message);
    QJsonArray logs() const { return m_logs; }

    static sandbar::Result<QString> mapInto(const QString &home, const QString &tmp, const QString &apiPath);

private:
    QString m_id;
    QString m_root;
    QString m_state = QStringLiteral("running");
    QList<QPointer<SandboxProcess>> m_processes;
    QJsonArray m_logs;
    qint64 m_lastCpuTicks = -1;
    qint64 m_lastSampleMs = 0;
};

// Creates and tracks sandboxes, each with its own temporary folder; kills them on
// kill(), expiry, and destruction (the server's exit path).
class SandboxHost : public QObject
{
    Q_OBJECT
public:
    explicit SandboxHost(QObject *parent = nullptr);
    ~SandboxHost() override;

    // id empty: a random one.
    Sandbox *create(const QString &id = {});
    Sandbox *find(const QString &id) const;
    QList<Sandbox *> sandboxes() const;
    bool kill(const QString &id);
    void killAll();
    int createdTotal() const { return m_created; }
    int activePtys() const;
    bool usesBubblewrap() const { return m_bwrap; }
    QString baseDir() const { return m_base; }

    // Called for a sandbox whose endAt passed (default: kill it).
    void setExpiryHandler(std::function<void(Sandbox *)> handler) { m_onExpiry = std::move(handler); }

    // The program and arguments that run `spec` inside `sandbox` (bwrap wrapper or plain).
    QStringList commandLine(const Sandbox *sandbox, const ProcessSpec &spec) const;

Q_SIGNALS:
    void sandboxRemoved(const QString &id);

private:
    void checkExpiry();

    QString m_base;
    QString m_bwrapPath;
    QStringList m_rootBinds; // bwrap's arguments for the host's system folders (rootBinds())
    bool m_bwrap = false;
    int m_created = 0;
    QMap<QString, Sandbox *> m_sandboxes;
    QTimer m_expiry;
    std::function<void(Sandbox *)> m_onExpiry;
};

} // namespace contract
