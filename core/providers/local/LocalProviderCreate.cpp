// LocalProvider's create path: the checks before the disk is touched, the session's folder
// and files, the launch plan, and sandbar-agent launch started and awaited.
#include "providers/local/LocalGpu.h"
#include "providers/local/LocalProvider.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QUuid>

#ifdef Q_OS_UNIX
#include <sys/un.h>
#include <unistd.h>
#endif

namespace sandbar::local {

namespace {
#ifdef Q_OS_UNIX
constexpr qsizetype kMaxSocketPath = qsizetype(sizeof(sockaddr_un::sun_path));
#else
constexpr qsizetype kMaxSocketPath = 108;
#endif

// Files of a brand-new session folder: nobody reads them half-written, so no rename
// dance and no fsync (which would cost more than the sandbox's whole start).
bool writeFile(const QString &path, const QByteArray &data,
               QFile::Permissions perms = QFile::ReadOwner | QFile::WriteOwner)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(data) != data.size())
        return false;
    f.close();
    return f.error() == QFile::NoError && QFile::setPermissions(path, perms);
}

QString hostnameFor(const QString &name)
{
    QString h = name.toLower();
    h.replace(QRegularExpression(QStringLiteral("[^a-z0-9-]+")), QStringLiteral("-"));
    h = h.left(63);
    while (h.startsWith(QLatin1Char('-')))
        h.remove(0, 1);
    while (h.endsWith(QLatin1Char('-')))
        h.chop(1);
    return h.isEmpty() ? QStringLiteral("sandbar") : h;
}

VoidResult validatePorts(const CreateSpec &spec)
{
    if (!spec.ports.isEmpty() && !spec.network)
        return makeError(ErrorCode::InvalidArgument,
                         LocalProvider::tr("Forwarding ports needs the network on: a session without a network has "
                                           "no port to forward. Turn the network on or leave out the ports."));
    for (const PortSpec &p : spec.ports) {
        if (p.sessionPort < 1 || p.sessionPort > 65535 || p.hostPort < 0 || p.hostPort > 65535)
            return makeError(ErrorCode::InvalidArgument,
                             LocalProvider::tr("Port %1 is not between 1 and 65535.")
                                 .arg(p.sessionPort < 1 || p.sessionPort > 65535 ? p.sessionPort : p.hostPort));
        if (p.protocol != QLatin1String("tcp") && p.protocol != QLatin1String("udp"))
            return makeError(ErrorCode::InvalidArgument,
                             LocalProvider::tr("Port protocol '%1' is not tcp or udp.").arg(p.protocol.left(20)));
    }
    return {};
}

Error portError(const QJsonObject &failed)
{
    const int sessionPort = failed.value(QStringLiteral("sessionPort")).toInt();
    const int hostPort = failed.value(QStringLiteral("hostPort")).toInt();
    const QString protocol = failed.value(QStringLiteral("protocol")).toString();
    const QString why = failed.value(QStringLiteral("desc")).toString();
    if (hostPort > 0)
        return makeError(ErrorCode::Conflict,
                         LocalProvider::tr("Port %1 on 127.0.0.1 could not be forwarded to session port %2/%3: "
                                           "another program probably uses it (slirp4netns: %4). Choose another host "
                                           "port, or leave it out for a free one. The session was removed.")
                             .arg(hostPort)
                             .arg(sessionPort)
                             .arg(protocol, why));
    return makeError(ErrorCode::Unavailable,
                     LocalProvider::tr("Session port %1/%2 could not be forwarded to this computer (slirp4netns: %3). "
                                       "The session was removed.")
                         .arg(sessionPort)
                         .arg(protocol, why));
}

// What createSession's checks found, for the steps after them.
struct CreateChecks {
    GpuSelection gpus;
    CgroupLimits limits;
    CgroupSupport cgroups;
};

// Everything create() refuses before it touches the disk, in the order it reports it.
Result<CreateChecks> checkCreate(const CreateSpec &spec, const LocalEnvironment &env,
                                 const std::optional<QList<NvidiaSmiGpu>> &smi)
{
    const QString reason = env.unavailableReason();
    if (!reason.isEmpty())
        return makeError(ErrorCode::Unavailable, reason);
    for (const auto &m : spec.mounts) {
        if (auto ok = validateMount(m); !ok)
            return ok.error();
    }
    if (spec.network && env.slirpPath.isEmpty())
        return makeError(ErrorCode::Unavailable,
                         LocalProvider::tr("Network for a Local sandbox needs slirp4netns, which is not installed "
                                           "(sudo apt install slirp4netns). Create the session without network, or "
                                           "install it."));
    if (auto ok = validatePorts(spec); !ok)
        return ok.error();
    const auto gpus = selectGpuDevices(spec.gpus, spec.gpuUuids, env.devRoot, smi);
    if (!gpus)
        return gpus.error();
    if (!spec.user.isEmpty() && spec.user != QStringLiteral("sandbox"))
        return makeError(ErrorCode::Unsupported,
                         LocalProvider::tr("Local sandboxes always run as the user \"sandbox\" (uid 1000)."));
    if (spec.ttlSeconds < 0 || (spec.cpus && *spec.cpus <= 0) || (spec.memoryBytes && *spec.memoryBytes <= 0))
        return makeError(ErrorCode::InvalidArgument, LocalProvider::tr("Limits and the time limit must be positive."));
    const CgroupLimits limits{spec.cpus, spec.memoryBytes, spec.pidsLimit};
    // Every session gets its cgroups where they are usable: they are its statistics as well
    // as its limits. Without them a session without limits still starts (fewer statistics).
    const CgroupSupport cgroups = detectCgroups(env.cgroupOverride);
    if (limits.any() && cgroups.kind == CgroupSupport::Kind::None)
        return limitsUnsupportedError(cgroups);
    return CreateChecks{*gpus, limits, cgroups};
}

// The session's own /etc files (hosts, hostname, resolv.conf) and the agent's config.
bool writeSessionFiles(const SessionRecord &rec, const CreateSpec &spec, const QString &shell, const QString &host)
{
    const auto readable = QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther;
    const QString etc = rec.dir + QStringLiteral("/etc/");
    bool ok = writeFile(etc + QStringLiteral("hosts"), "127.0.0.1 localhost " + host.toUtf8() + "\n::1 localhost\n",
                        readable) &&
              writeFile(etc + QStringLiteral("hostname"), host.toUtf8() + '\n', readable) &&
              writeFile(etc + QStringLiteral("resolv.conf"), spec.network ? "nameserver 10.0.2.3\n" : "", readable);
    QJsonObject config{{QStringLiteral("env"), QJsonArray::fromStringList(spec.env)},
                       {QStringLiteral("shell"), shell},
                       {QStringLiteral("replayBytes"), 256 * 1024},
                       {QStringLiteral("deadlineMs"), rec.expiresAt.isValid() ? rec.expiresAt.toMSecsSinceEpoch() : 0}};
    ok = ok && writeFile(rec.dir + QStringLiteral("/run/config.json"), QJsonDocument(config).toJson());
    return ok;
}
} // namespace

void LocalProvider::create(const CreateSpec &spec, Callback<SessionInfo> done)
{
    if (!gpuIdsNeedNvidiaSmi(spec.gpuUuids) || m_env.nvidiaSmiPath.isEmpty())
        return createSession(spec, std::nullopt, done);
    // Only nvidia-smi knows which /dev/nvidiaN a UUID is.
    listNvidiaGpus(this, m_env.nvidiaSmiPath, [this, spec, done](Result<QList<NvidiaSmiGpu>> gpus) {
        if (!gpus)
            return done(gpus.error());
        createSession(spec, gpus.value(), done);
    });
}

void LocalProvider::createSession(const CreateSpec &spec, const std::optional<QList<NvidiaSmiGpu>> &smi,
                                  Callback<SessionInfo> done)
{
    const auto checked = checkCreate(spec, m_env, smi);
    if (!checked) {
        done.post(checked.error());
        return;
    }
    SessionRecord rec = newRecord(spec, checked->gpus);
    if (auto made = makeSessionDir(rec); !made) {
        done.post(made.error());
        return;
    }

    const QString shell =
        QFileInfo::exists(QStringLiteral("/usr/bin/bash")) ? QStringLiteral("/bin/bash") : QStringLiteral("/bin/sh");
    const QString host = hostnameFor(rec.name);
    const auto etcDir = prepareSandboxEtc(QFileInfo(sessionsDir()).path(), shell);
    if (!etcDir) {
        failCreate(rec, etcDir.error(), done);
        return;
    }
    if (!writeSessionFiles(rec, spec, shell, host)) {
        failCreate(rec, makeError(ErrorCode::Internal, tr("Could not write the session's files in %1.").arg(rec.dir)),
                   done);
        return;
    }

    QStringList procs;
    if (checked->cgroups.kind != CgroupSupport::Kind::None) {
        auto made = createSessionCgroups(checked->cgroups, rec.id, checked->limits);
        if (made) {
            rec.cgroupDirs = made->dirs;
            procs = made->procs;
        } else if (checked->limits.any()) {
            failCreate(rec, made.error(), done);
            return;
        } // else only statistics are lost: the agent's own figures stand in
    }

    const QString launchPath = rec.dir + QStringLiteral("/launch.json");
    if (!writeFile(launchPath, QJsonDocument(launchSpec(rec, spec, host, *etcDir, procs)).toJson())) {
        failCreate(rec, makeError(ErrorCode::Internal, tr("Could not write %1.").arg(launchPath)), done);
        return;
    }
    startLauncher(rec, launchPath, done);
}

SessionRecord LocalProvider::newRecord(const CreateSpec &spec, const GpuSelection &gpus) const
{
    SessionRecord rec;
    rec.id = QStringLiteral("sb-") + QUuid::createUuid().toString(QUuid::Id128).left(10);
    rec.name = spec.name.isEmpty() ? rec.id : spec.name;
    rec.account = m_account.name;
    rec.created = QDateTime::currentDateTimeUtc();
    rec.ttlSeconds = spec.ttlSeconds;
    if (spec.ttlSeconds > 0)
        rec.expiresAt = rec.created.addSecs(spec.ttlSeconds);
    rec.cpus = spec.cpus;
    rec.memoryBytes = spec.memoryBytes;
    rec.pidsLimit = spec.pidsLimit;
    rec.network = spec.network;
    rec.mounts = spec.mounts;
    rec.gpuDevices = gpus.devices;
    rec.gpuIds = gpus.gpuIds;
    rec.labels = spec.labels;
    rec.labels.insert(QLatin1String(labels::App), QLatin1String(labels::AppValue));
    rec.labels.insert(QLatin1String(labels::Account), m_account.name);
    rec.dir = sessionDir(rec.id);
    return rec;
}

VoidResult LocalProvider::makeSessionDir(const SessionRecord &rec) const
{
    if (QFile::encodeName(socketPath(rec.id)).size() >= kMaxSocketPath)
        return makeError(ErrorCode::InvalidArgument,
                         tr("The data folder %1 is too deep for the agent's socket path; choose a shorter data "
                            "folder for this account.")
                             .arg(sessionsDir()));
    QDir d;
    if (!d.mkpath(rec.dir + QStringLiteral("/workspace")) || !d.mkpath(rec.dir + QStringLiteral("/run")) ||
        !d.mkpath(rec.dir + QStringLiteral("/etc")))
        return makeError(ErrorCode::Internal, tr("Could not create the session folder %1.").arg(rec.dir));
    QFile::setPermissions(rec.dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return {};
}

QJsonObject LocalProvider::launchSpec(const SessionRecord &rec, const CreateSpec &spec, const QString &host,
                                      const QString &etcDir, const QStringList &procs) const
{
    SandboxPlan plan;
    plan.agentPath = m_env.agentPath;
    plan.sessionDir = rec.dir;
    plan.hostname = host;
    plan.network = spec.network;
    plan.mounts = spec.mounts;
    plan.systemDirs = hostSystemDirs();
    plan.etcDir = etcDir;
#ifdef Q_OS_UNIX
    plan.hostRoot = ::geteuid() == 0;
#endif
    plan.gpuDevices = rec.gpuDevices;
    plan.devRoot = m_env.devRoot;
    QJsonObject launch{{QStringLiteral("bwrap"), m_env.bwrapPath},
                       {QStringLiteral("args"), QJsonArray::fromStringList(bwrapOptions(plan))},
                       {QStringLiteral("command"), QJsonArray::fromStringList(agentCommand())},
                       {QStringLiteral("log"), QString(rec.dir + QStringLiteral("/agent.log"))},
                       {QStringLiteral("status"), QString(rec.dir + QStringLiteral("/status.json"))},
                       {QStringLiteral("socket"), socketPath(rec.id)},
                       {QStringLiteral("network"), spec.network},
                       {QStringLiteral("slirp4netns"), m_env.slirpPath},
                       // Outside run/, which the sandbox sees: the socket opens ports of this computer.
                       {QStringLiteral("slirpApi"), QString(rec.dir + QStringLiteral("/slirp.sock"))},
                       {QStringLiteral("cgroupProcs"), QJsonArray::fromStringList(procs)},
                       {QStringLiteral("timeoutMs"), m_env.startTimeoutMs}};
    QJsonArray ports;
    for (const PortSpec &port : spec.ports)
        ports.append(QJsonObject{{QStringLiteral("sessionPort"), port.sessionPort},
                                 {QStringLiteral("hostPort"), port.hostPort},
                                 {QStringLiteral("protocol"), port.protocol}});
    launch.insert(QStringLiteral("ports"), ports);
    return launch;
}

void LocalProvider::startLauncher(const SessionRecord &rec, const QString &launchPath, Callback<SessionInfo> done)
{
    auto *p = new QProcess(this);
    p->setProcessChannelMode(QProcess::SeparateChannels);
    connect(p, &QProcess::finished, this, [this, p, rec, done] {
        p->deleteLater();
        finishCreate(rec, p->readAllStandardOutput(), done);
    });
    connect(p, &QProcess::errorOccurred, this, [this, p, rec, done](QProcess::ProcessError err) {
        if (err != QProcess::FailedToStart)
            return;
        p->deleteLater();
        failCreate(rec, makeError(ErrorCode::Unavailable, tr("Could not run sandbar-agent: %1").arg(p->errorString())),
                   done);
    });
    p->start(m_env.agentPath, {QStringLiteral("launch"), launchPath});
}

void LocalProvider::finishCreate(SessionRecord rec, const QByteArray &out, Callback<SessionInfo> done)
{
    const QJsonObject o = QJsonDocument::fromJson(out.trimmed().split('\n').constLast()).object();
    if (o.contains(QStringLiteral("failedPort"))) {
        failCreate(rec, portError(o.value(QStringLiteral("failedPort")).toObject()), done);
        return;
    }
    if (!o.value(QStringLiteral("ok")).toBool()) {
        const QString why = o.value(QStringLiteral("error")).toString();
        failCreate(rec,
                   makeError(ErrorCode::Unavailable,
                             tr("Could not start the sandbox: %1").arg(why.isEmpty() ? QString::fromUtf8(out) : why)),
                   done);
        return;
    }
    rec.pid = o.value(QStringLiteral("pid")).toInteger();
    rec.bwrapPid = o.value(QStringLiteral("bwrapPid")).toInteger();
    rec.slirpPid = o.value(QStringLiteral("slirpPid")).toInteger();
    rec.startTime = o.value(QStringLiteral("startTime")).toInteger();
    // The agent, init's only child now: once it is gone the session is, even while processes
    // it left keep bubblewrap's init waiting.
    QFile children(QStringLiteral("/proc/%1/task/%1/children").arg(rec.pid));
    if (children.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> pids = children.readAll().trimmed().split(' ');
        if (pids.size() == 1 && !pids.constFirst().isEmpty()) {
            rec.agentPid = pids.constFirst().toLongLong();
            rec.agentStartTime = processStartTime(rec.agentPid);
        }
    }
    for (const auto &v : o.value(QStringLiteral("ports")).toArray()) {
        const QJsonObject f = v.toObject();
        PortSpec port;
        port.sessionPort = f.value(QStringLiteral("sessionPort")).toInt();
        port.hostPort = f.value(QStringLiteral("hostPort")).toInt();
        port.protocol = f.value(QStringLiteral("protocol")).toString();
        rec.ports << port;
    }
    if (auto saved = saveRecord(rec); !saved) {
        killSandbox(rec);
        failCreate(rec, saved.error(), done);
        return;
    }
    const SessionInfo info = toSessionInfo(rec, descriptor().id);
    m_lastStates.insert(rec.id, info.state);
    if (!m_watch.isActive())
        m_watch.start();
    Q_EMIT sessionChanged(info);
    done(info);
}

void LocalProvider::failCreate(const SessionRecord &rec, const Error &error, Callback<SessionInfo> done)
{
    QDir(rec.dir).removeRecursively();
    // A sandbox the launcher just ended (a port it could not forward) may still have processes
    // in its cgroups, which cannot be removed before they are empty: the answer waits for them
    // (two seconds at most), so that a failed create leaves nothing behind.
    const QStringList cgroups = rec.cgroupDirs;
    waitCgroupsEmpty(cgroups, 400, [cgroups, error, done] {
        removeSessionCgroups(cgroups);
        done.post(error);
    });
}

} // namespace sandbar::local
