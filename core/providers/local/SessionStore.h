#pragma once

// What a Local session leaves on disk, so that a restarted Sandbar finds it:
// DATADIR/sessions/<id>/{state.json, workspace/, run/agent.sock, status.json, agent.log}.

#include "common/Result.h"
#include "providers/Session.h"

#include <QDateTime>
#include <QString>
#include <QStringList>
#include <optional>

namespace sandbar::local {

struct SessionRecord {
    QString id;
    QString name;
    QString account;
    QDateTime created;
    qint64 ttlSeconds = 0;
    QDateTime expiresAt;
    std::optional<double> cpus;
    std::optional<qint64> memoryBytes;
    std::optional<qint64> pidsLimit;
    bool network = false;
    QList<MountSpec> mounts;
    QList<PortSpec> ports;  // as forwarded: hostPort is the port chosen, never 0
    QStringList gpuDevices; // /dev names bound in (nvidia0, nvidiactl, ...)
    QStringList gpuIds;     // the GPUs it has: UUIDs where nvidia-smi said, else /dev/nvidiaN numbers
    QMap<QString, QString> labels;
    qint64 pid = 0; // the sandbox's first process (bubblewrap's init), host pid
    qint64 bwrapPid = 0;
    qint64 slirpPid = 0;
    qint64 startTime = 0; // of pid, from /proc/<pid>/stat, against pid reuse
    qint64 agentPid = 0;  // sandbar-agent, init's child; 0: not known (sessions of older versions)
    qint64 agentStartTime = 0;
    QStringList cgroupDirs;
    bool killed = false; // ended by Sandbar's kill(), not by accident

    QString dir; // not stored: where it was read from
};

QByteArray recordToJson(const SessionRecord &r);
Result<SessionRecord> recordFromJson(const QByteArray &json);

Result<SessionRecord> loadRecord(const QString &sessionDir);
VoidResult saveRecord(const SessionRecord &r);

// Start time (field 22 of /proc/<pid>/stat) of a live, non-zombie process; 0 otherwise.
qint64 processStartTime(qint64 pid);
bool isAlive(const SessionRecord &r);
// The sandbox's init is gone but bubblewrap, which writes its exit status as it leaves, is
// still there: for a moment the status says nothing yet.
bool isEnding(const SessionRecord &r);
// The agent is gone while the sandbox's init lives on, held up by processes the agent left
// (bubblewrap's init waits for all its children): the session can no longer be used.
bool agentGone(const SessionRecord &r);
// SIGKILL to the sandbox's first process: the kernel ends its whole pid namespace.
void killSandbox(const SessionRecord &r);

struct SessionStatus {
    SessionState state = SessionState::Unknown;
    QString statusText;
    QString errorMessage;
};

// Why a session is in the state it is: alive, ended by its time limit or a stop, or
// ended by accident (the agent's exit status from bubblewrap's status file says how).
SessionStatus statusOf(const SessionRecord &r);
// The part of statusOf that reads no process table: pure, for tests.
SessionStatus endedStatus(bool killedBySandbar, const QString &exitReason, const QByteArray &statusJson);

SessionInfo toSessionInfo(const SessionRecord &r, const QString &providerId);

} // namespace sandbar::local
