#include "SessionStore.h"

#include "providers/local/LocalTr.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>

#ifdef Q_OS_UNIX
#include <csignal>
#endif

namespace sandbar::local {

namespace {
QByteArray readOrEmpty(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// When this computer started, in seconds since the epoch (/proc/stat's btime); 0: unknown.
qint64 bootTime()
{
    const QByteArray stat = readOrEmpty(QStringLiteral("/proc/stat"));
    const qsizetype at = stat.indexOf("\nbtime ");
    return at < 0 ? 0 : stat.mid(at + 7, stat.indexOf('\n', at + 1) - at - 7).trimmed().toLongLong();
}
} // namespace

QByteArray recordToJson(const SessionRecord &r)
{
    QJsonObject o;
    o[QStringLiteral("id")] = r.id;
    o[QStringLiteral("name")] = r.name;
    o[QStringLiteral("account")] = r.account;
    o[QStringLiteral("created")] = r.created.toUTC().toString(Qt::ISODateWithMs);
    o[QStringLiteral("ttlSeconds")] = r.ttlSeconds;
    if (r.expiresAt.isValid())
        o[QStringLiteral("expiresAt")] = r.expiresAt.toUTC().toString(Qt::ISODateWithMs);
    if (r.cpus)
        o[QStringLiteral("cpus")] = *r.cpus;
    if (r.memoryBytes)
        o[QStringLiteral("memoryBytes")] = *r.memoryBytes;
    if (r.pidsLimit)
        o[QStringLiteral("pidsLimit")] = *r.pidsLimit;
    o[QStringLiteral("network")] = r.network;
    QJsonArray mounts;
    for (const auto &m : r.mounts)
        mounts.append(QJsonObject{{QStringLiteral("host"), m.hostPath},
                                  {QStringLiteral("path"), m.sessionPath},
                                  {QStringLiteral("readOnly"), m.readOnly}});
    o[QStringLiteral("mounts")] = mounts;
    if (!r.ports.isEmpty()) {
        QJsonArray ports;
        for (const auto &p : r.ports)
            ports.append(QJsonObject{{QStringLiteral("sessionPort"), p.sessionPort},
                                     {QStringLiteral("hostPort"), p.hostPort},
                                     {QStringLiteral("protocol"), p.protocol}});
        o[QStringLiteral("ports")] = ports;
    }
    if (!r.gpuDevices.isEmpty()) {
        o[QStringLiteral("gpuDevices")] = QJsonArray::fromStringList(r.gpuDevices);
        o[QStringLiteral("gpuIds")] = QJsonArray::fromStringList(r.gpuIds);
    }
    QJsonObject labels;
    for (auto it = r.labels.begin(); it != r.labels.end(); ++it)
        labels[it.key()] = it.value();
    o[QStringLiteral("labels")] = labels;
    o[QStringLiteral("pid")] = r.pid;
    o[QStringLiteral("bwrapPid")] = r.bwrapPid;
    o[QStringLiteral("slirpPid")] = r.slirpPid;
    o[QStringLiteral("startTime")] = r.startTime;
    o[QStringLiteral("agentPid")] = r.agentPid;
    o[QStringLiteral("agentStartTime")] = r.agentStartTime;
    o[QStringLiteral("cgroups")] = QJsonArray::fromStringList(r.cgroupDirs);
    o[QStringLiteral("killed")] = r.killed;
    return QJsonDocument(o).toJson();
}

Result<SessionRecord> recordFromJson(const QByteArray &json)
{
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
    const QJsonObject o = doc.object();
    if (err.error != QJsonParseError::NoError || !doc.isObject() || o.value(QStringLiteral("id")).toString().isEmpty())
        return makeError(ErrorCode::Internal, tr("The session's state file is damaged."));
    SessionRecord r;
    r.id = o.value(QStringLiteral("id")).toString();
    r.name = o.value(QStringLiteral("name")).toString();
    r.account = o.value(QStringLiteral("account")).toString();
    r.created = QDateTime::fromString(o.value(QStringLiteral("created")).toString(), Qt::ISODateWithMs);
    r.ttlSeconds = o.value(QStringLiteral("ttlSeconds")).toInteger();
    r.expiresAt = QDateTime::fromString(o.value(QStringLiteral("expiresAt")).toString(), Qt::ISODateWithMs);
    if (o.contains(QStringLiteral("cpus")))
        r.cpus = o.value(QStringLiteral("cpus")).toDouble();
    if (o.contains(QStringLiteral("memoryBytes")))
        r.memoryBytes = o.value(QStringLiteral("memoryBytes")).toInteger();
    if (o.contains(QStringLiteral("pidsLimit")))
        r.pidsLimit = o.value(QStringLiteral("pidsLimit")).toInteger();
    r.network = o.value(QStringLiteral("network")).toBool();
    for (const auto &v : o.value(QStringLiteral("mounts")).toArray()) {
        const QJsonObject m = v.toObject();
        r.mounts.append(MountSpec{m.value(QStringLiteral("host")).toString(),
                                  m.value(QStringLiteral("path")).toString(),
                                  m.value(QStringLiteral("readOnly")).toBool()});
    }
    for (const auto &v : o.value(QStringLiteral("ports")).toArray()) {
        const QJsonObject p = v.toObject();
        PortSpec port;
        port.sessionPort = p.value(QStringLiteral("sessionPort")).toInt();
        port.hostPort = p.value(QStringLiteral("hostPort")).toInt();
        port.protocol = p.value(QStringLiteral("protocol")).toString(QStringLiteral("tcp"));
        if (port.sessionPort > 0 && port.hostPort > 0)
            r.ports.append(port);
    }
    for (const auto &v : o.value(QStringLiteral("gpuDevices")).toArray())
        r.gpuDevices << v.toString();
    for (const auto &v : o.value(QStringLiteral("gpuIds")).toArray())
        r.gpuIds << v.toString();
    const QJsonObject labels = o.value(QStringLiteral("labels")).toObject();
    for (auto it = labels.begin(); it != labels.end(); ++it)
        r.labels.insert(it.key(), it.value().toString());
    r.pid = o.value(QStringLiteral("pid")).toInteger();
    r.bwrapPid = o.value(QStringLiteral("bwrapPid")).toInteger();
    r.slirpPid = o.value(QStringLiteral("slirpPid")).toInteger();
    r.startTime = o.value(QStringLiteral("startTime")).toInteger();
    r.agentPid = o.value(QStringLiteral("agentPid")).toInteger();
    r.agentStartTime = o.value(QStringLiteral("agentStartTime")).toInteger();
    for (const auto &v : o.value(QStringLiteral("cgroups")).toArray())
        r.cgroupDirs << v.toString();
    r.killed = o.value(QStringLiteral("killed")).toBool();
    return r;
}

Result<SessionRecord> loadRecord(const QString &sessionDir)
{
    QFile f(sessionDir + QStringLiteral("/state.json"));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::NotFound, tr("No session in %1.").arg(sessionDir));
    auto r = recordFromJson(f.readAll());
    if (r)
        r->dir = sessionDir;
    return r;
}

VoidResult saveRecord(const SessionRecord &r)
{
    // Written aside and renamed: a reader never sees half a file. No fsync: after a crash
    // the sandbox is gone anyway, and fsync would double the time a create takes.
    const QString path = r.dir + QStringLiteral("/state.json");
    const QString tmp = path + QStringLiteral(".tmp");
    QFile f(tmp);
    const QByteArray data = recordToJson(r);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(data) != data.size() || !f.flush() ||
        ::rename(QFile::encodeName(tmp).constData(), QFile::encodeName(path).constData()) != 0)
        return makeError(ErrorCode::Internal, tr("Could not save the session's state in %1.").arg(r.dir));
    return {};
}

qint64 processStartTime(qint64 pid)
{
    if (pid <= 0)
        return 0;
    const QByteArray line = readOrEmpty(QStringLiteral("/proc/%1/stat").arg(pid));
    const int close = line.lastIndexOf(')');
    if (close < 0)
        return 0;
    const QList<QByteArray> fields = line.mid(close + 2).split(' ');
    // fields[0] is field 3 (state); start time is field 22.
    if (fields.size() < 20 || fields[0] == "Z" || fields[0] == "X")
        return 0;
    return fields[19].toLongLong();
}

bool isAlive(const SessionRecord &r)
{
    return r.pid > 0 && processStartTime(r.pid) == r.startTime;
}

bool agentGone(const SessionRecord &r)
{
    return r.agentPid > 0 && processStartTime(r.agentPid) != r.agentStartTime;
}

bool isEnding(const SessionRecord &r)
{
    if (r.bwrapPid <= 0 || isAlive(r))
        return false;
    // bubblewrap started its init: a process under its pid that started later is another one.
    const qint64 monitorStart = processStartTime(r.bwrapPid);
    return monitorStart > 0 && monitorStart <= r.startTime;
}

void killSandbox(const SessionRecord &r)
{
#ifdef Q_OS_UNIX
    if (isAlive(r))
        ::kill(pid_t(r.pid), SIGKILL);
#else
    Q_UNUSED(r);
#endif
}

SessionStatus endedStatus(bool killedBySandbar, const QString &exitReason, const QByteArray &statusJson)
{
    if (killedBySandbar)
        return {SessionState::Stopped, tr("Killed"), {}};
    if (exitReason == QStringLiteral("ttl"))
        return {SessionState::Stopped, tr("Time limit reached"), {}};
    if (exitReason == QStringLiteral("stopped"))
        return {SessionState::Stopped, tr("Stopped"), {}};
    // bubblewrap appends one JSON document per line; the exit code comes last.
    std::optional<int> code;
    for (const auto &line : statusJson.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.contains(QStringLiteral("exit-code")))
            code = o.value(QStringLiteral("exit-code")).toInt();
    }
    SessionStatus s{SessionState::Error, tr("Ended unexpectedly"), {}};
    if (!code)
        s.errorMessage = tr("The sandbox is no longer running and left no exit status (was the computer restarted?). "
                            "Its workspace is kept until the session is removed.");
    else if (*code > 128)
        s.errorMessage = tr("The sandbox agent was killed from outside Sandbar (signal %1); its terminals and "
                            "commands ended with it. The workspace is kept until the session is removed.")
                             .arg(*code - 128);
    else
        s.errorMessage = tr("The sandbox agent ended unexpectedly (exit code %1). The workspace is kept until the "
                            "session is removed.")
                             .arg(*code);
    return s;
}

SessionStatus statusOf(const SessionRecord &r)
{
    const bool alive = isAlive(r);
    if (alive && !agentGone(r))
        return {SessionState::Running, QCoreApplication::translate("sandbar::local::SessionStore", "Running"), {}};
    const QString reason = QString::fromUtf8(readOrEmpty(r.dir + QStringLiteral("/run/exit-reason"))).trimmed();
    if (alive) {
        // The agent left as asked (stop, time limit) and the rest of the sandbox follows.
        if (r.killed || !reason.isEmpty())
            return {SessionState::Stopping, QCoreApplication::translate("sandbar::local::SessionStore", "Ending"), {}};
        return {SessionState::Error, tr("Ended unexpectedly"),
                tr("The sandbox agent is gone (killed from outside Sandbar, or crashed); its terminals and commands "
                   "ended with it. The workspace is kept until the session is removed.")};
    }
    const QByteArray exitStatus = readOrEmpty(r.dir + QStringLiteral("/status.json"));
    SessionStatus s = endedStatus(r.killed, reason, exitStatus);
    if (s.state == SessionState::Error && isEnding(r)) // its exit status is on its way
        return {SessionState::Stopping, QCoreApplication::translate("sandbar::local::SessionStore", "Ending"), {}};
    // No exit status, yet the computer has not restarted since the session began: the one
    // who writes it, bubblewrap's outer process, was killed; "restarted?" would mislead.
    const qint64 boot = bootTime();
    if (s.state == SessionState::Error && !exitStatus.contains("\"exit-code\"") && boot > 0 && r.created.isValid() &&
        r.created.toSecsSinceEpoch() > boot)
        s.errorMessage = tr("The sandbox is no longer running: its bubblewrap process was killed from outside "
                            "Sandbar, and its terminals and commands ended with it. The workspace is kept until the "
                            "session is removed.");
    return s;
}

SessionInfo toSessionInfo(const SessionRecord &r, const QString &providerId)
{
    SessionInfo s;
    s.id = r.id;
    s.account = r.account;
    s.provider = providerId;
    s.name = r.name;
    const SessionStatus st = statusOf(r);
    s.state = st.state;
    s.statusText = st.statusText;
    s.errorMessage = st.errorMessage;
    s.created = r.created;
    s.ttlSeconds = r.ttlSeconds;
    s.expiresAt = r.expiresAt;
    s.cpus = r.cpus;
    s.memoryBytes = r.memoryBytes;
    s.network = r.network;
    s.gpus = int(r.gpuIds.size());
    s.gpuUuids = r.gpuIds;
    s.owned = true;
    s.labels = r.labels;
    s.mounts = r.mounts;
    // A forward lives as long as the sandbox's slirp4netns: an ended session has no endpoint.
    if (s.state == SessionState::Running || s.state == SessionState::Paused) {
        for (const auto &p : r.ports) {
            SessionEndpoint e;
            e.name = QStringLiteral("%1/%2").arg(p.sessionPort).arg(p.protocol);
            e.sessionPort = p.sessionPort;
            e.hostPort = p.hostPort;
            // What an agent serves on TCP is most often a web page; UDP has no URL a browser opens.
            const QString scheme = p.protocol == QLatin1String("udp") ? QStringLiteral("udp") : QStringLiteral("http");
            e.url = QStringLiteral("%1://127.0.0.1:%2").arg(scheme).arg(p.hostPort);
            s.endpoints << e;
        }
    }
    return s;
}

} // namespace sandbar::local
