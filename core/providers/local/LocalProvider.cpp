#include "LocalProvider.h"

#include "CgroupStats.h"
#include "LocalChannels.h"
#include "LocalLogs.h"
#include "LocalTarJob.h"
#include "SandboxLayout.h"
#include "common/OffThread.h"
#include "providers/ExecFileOps.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QStandardPaths>
#include <QTimeZone>
#include <chrono>

namespace sandbar::local {

using wire::FrameType;

// ---- provider ----

LocalProvider::LocalProvider(const AccountConfig &account, const LocalEnvironment &environment, QObject *parent)
    : Provider(parent)
    , CopyingFiles(this)
    , m_account(account)
    , m_env(environment)
{
    setFacets({.terminals = this, .exec = this, .files = this, .stats = this, .logs = this, .timeLimit = this});
    m_watch.setInterval(2000);
    connect(&m_watch, &QTimer::timeout, this, &LocalProvider::watch);
    // Workspaces whose deletion a crash or a quit cut short (remove() renames them to
    // .removing-ID first): named now, before any remove() of this run, deleted on a worker.
    const QDir sessions(sessionsDir());
    QStringList leftovers;
    for (const QString &name : sessions.entryList({QStringLiteral(".removing-*")}, QDir::Dirs | QDir::Hidden))
        leftovers << sessions.filePath(name);
    if (!leftovers.isEmpty()) {
        runOffThread<bool>(
            this,
            [leftovers] {
                bool all = true;
                for (const QString &dir : leftovers)
                    all = QDir(dir).removeRecursively() && all;
                return all;
            },
            [](bool) {});
    }
}

LocalProvider::~LocalProvider() = default;

QString LocalProvider::sessionsDir() const
{
    QString base = m_account.settings.value(QStringLiteral("dataDir")).toString();
    if (base.isEmpty())
        base = m_account.dataDir;
    if (base.isEmpty())
        base = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/local/") +
               m_account.name;
    return QDir::cleanPath(base) + QStringLiteral("/sessions");
}

QString LocalProvider::sessionDir(const QString &sessionId) const
{
    return sessionsDir() + QLatin1Char('/') + sessionId;
}

QString LocalProvider::socketPath(const QString &sessionId) const
{
    return sessionDir(sessionId) + QStringLiteral("/run/agent.sock");
}

Result<SessionRecord> LocalProvider::runningRecord(const QString &sessionId) const
{
    if (sessionId.isEmpty() || sessionId.contains(QLatin1Char('/')) || sessionId.startsWith(QLatin1Char('.')))
        return makeError(ErrorCode::NotFound, tr("No Local session \"%1\".").arg(sessionId));
    auto r = loadRecord(sessionDir(sessionId));
    if (!r)
        return makeError(ErrorCode::NotFound, tr("No Local session \"%1\".").arg(sessionId));
    const SessionStatus st = statusOf(*r);
    if (st.state != SessionState::Running)
        return makeError(ErrorCode::Unavailable, st.errorMessage.isEmpty()
                                                     ? tr("The session is not running (%1).").arg(st.statusText)
                                                     : st.errorMessage);
    return r;
}

void LocalProvider::request(const QString &sessionId, FrameType type, const QJsonObject &body, const Reply &done,
                            int timeoutMs)
{
    const auto rec = runningRecord(sessionId);
    if (!rec) {
        QTimer::singleShot(0, this, [done, e = rec.error()] { done(e); });
        return;
    }
    auto *conn = new AgentConnection(socketPath(sessionId), this);
    auto finished = std::make_shared<bool>(false);
    auto finish = [this, conn, finished, done, sessionId](Result<QJsonObject> r) {
        if (*finished)
            return;
        *finished = true;
        conn->close();
        conn->deleteLater();
        if (!r.ok() && r.code() == ErrorCode::Unavailable)
            watch(); // the agent may have died: tell the registry now, not at the next tick
        done(std::move(r));
    };
    connect(conn, &AgentConnection::ready, conn, [conn, type, body] { conn->sendJson(type, 1, body); });
    connect(conn, &AgentConnection::frameReceived, conn, [finish](const wire::Frame &f) {
        if (f.type == FrameType::Reply) // a payload that is no object is no success
            finish(AgentConnection::replyObject(f));
        else if (f.type == FrameType::Error)
            finish(AgentConnection::frameError(f));
    });
    connect(conn, &AgentConnection::failed, conn, [finish](const Error &e) { finish(e); });
    QTimer::singleShot(timeoutMs, conn, [finish] {
        finish(makeError(ErrorCode::Timeout, tr("The sandbox agent did not answer in time.")));
    });
    conn->open();
}

void LocalProvider::health(Callback<HealthInfo> done)
{
    const QString reason = m_env.unavailableReason();
    if (!reason.isEmpty()) {
        done.post(makeError(ErrorCode::Unavailable, reason));
        return;
    }
    auto *p = new QProcess(this);
    connect(p, &QProcess::finished, this, [this, p, done] {
        p->deleteLater();
        HealthInfo h;
        h.serverName = QStringLiteral("bubblewrap");
        h.version = QString::fromUtf8(p->readAllStandardOutput()).trimmed().section(QLatin1Char(' '), -1);
        h.os = QStringLiteral("Linux");
        h.endpoint = sessionsDir();
        if (m_env.slirpPath.isEmpty())
            h.warnings << tr("slirp4netns is not installed: sessions can only have loopback networking "
                             "(sudo apt install slirp4netns).");
        const CgroupSupport cg = detectCgroups(m_env.cgroupOverride);
        if (cg.kind == CgroupSupport::Kind::None)
            h.warnings << tr("CPU and memory limits cannot be enforced: %1.").arg(cg.reason);
        done(h);
    });
    connect(p, &QProcess::errorOccurred, this, [p, done](QProcess::ProcessError err) {
        if (err != QProcess::FailedToStart)
            return;
        p->deleteLater();
        done(makeError(ErrorCode::Unavailable, tr("bubblewrap could not be run: %1").arg(p->errorString())));
    });
    p->start(m_env.bwrapPath, {QStringLiteral("--version")});
}

void LocalProvider::listSessions(const ListOptions &, Callback<QList<SessionInfo>> done)
{
    QList<SessionInfo> out;
    const QDir dir(sessionsDir());
    for (const auto &id : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const auto rec = loadRecord(dir.filePath(id));
        if (!rec)
            continue; // a create still running, or a folder that is not ours
        SessionInfo info = toSessionInfo(*rec, descriptor().id);
        m_lastStates.insert(info.id, info.state);
        out << info;
    }
    if (!m_lastStates.isEmpty() && !m_watch.isActive())
        m_watch.start();
    done.post(out);
}

Capabilities LocalProvider::terminalFlags() const
{
    return Capability::PtyResize | Capability::Reattach;
}

Capabilities LocalProvider::statsFlags() const
{
    return Capability::StatsCpu | Capability::StatsMemory | Capability::StatsNetwork | Capability::StatsStream;
}

void LocalProvider::removePath(const QString &sessionId, const QString &path, Callback<void> done)
{
    removePathByExec(*this, sessionId, path, std::move(done));
}

void LocalProvider::makeDir(const QString &sessionId, const QString &path, Callback<void> done)
{
    makeDirByExec(*this, sessionId, path, std::move(done));
}

void LocalProvider::movePath(const QString &sessionId, const QString &from, const QString &to, Callback<void> done)
{
    movePathByExec(*this, sessionId, from, to, std::move(done));
}

void LocalProvider::setMode(const QString &sessionId, const QString &path, quint32 mode, Callback<void> done)
{
    setModeByExec(*this, sessionId, path, mode, std::move(done));
}

Capabilities LocalProvider::coreCapabilities() const
{
    Capabilities caps = Provider::coreCapabilities();
    if (hostNvidiaGpus(m_env.devRoot).isEmpty())
        caps &= ~Capabilities(Capability::Gpu);
    return caps;
}

void LocalProvider::info(const QString &sessionId, Callback<SessionInfo> done)
{
    auto rec = loadRecord(sessionDir(sessionId));
    if (!rec || sessionId.contains(QLatin1Char('/'))) {
        done.post(makeError(ErrorCode::NotFound, tr("No Local session \"%1\".").arg(sessionId)));
        return;
    }
    SessionInfo s = toSessionInfo(*rec, descriptor().id);
    s.rawJson = recordToJson(*rec);
    done.post(s);
}

void LocalProvider::waitGone(const QString &sessionId, int attemptsLeft, const std::function<void()> &then)
{
    auto rec = loadRecord(sessionDir(sessionId));
    if (!rec || !isAlive(*rec) || attemptsLeft <= 0) {
        then();
        return;
    }
    QTimer::singleShot(10, this,
                       [this, sessionId, attemptsLeft, then] { waitGone(sessionId, attemptsLeft - 1, then); });
}

void LocalProvider::stop(const QString &sessionId, Callback<void> done)
{
    auto rec = loadRecord(sessionDir(sessionId));
    if (!rec) {
        done.post(makeError(ErrorCode::NotFound, tr("No Local session \"%1\".").arg(sessionId)));
        return;
    }
    if (!isAlive(*rec)) {
        done.post({});
        return;
    }
    request(
        sessionId, FrameType::Shutdown, {},
        [this, sessionId, done](Result<QJsonObject>) {
            // The agent ends the sandbox itself; if it cannot, the sandbox is killed.
            waitGone(sessionId, 300, [this, sessionId, done] {
                auto r = loadRecord(sessionDir(sessionId));
                if (r)
                    killSandbox(*r);
                waitGone(sessionId, 300, [this, sessionId, done] {
                    watch();
                    done({});
                });
            });
        },
        3000);
}

void LocalProvider::kill(const QString &sessionId, Callback<void> done)
{
    auto rec = loadRecord(sessionDir(sessionId));
    if (!rec) {
        done.post(makeError(ErrorCode::NotFound, tr("No Local session \"%1\".").arg(sessionId)));
        return;
    }
    if (isAlive(*rec)) {
        rec->killed = true;
        (void)saveRecord(*rec);
        killSandbox(*rec);
    }
    waitGone(sessionId, 300, [this, done] {
        watch();
        done({});
    });
}

void LocalProvider::remove(const QString &sessionId, Callback<void> done)
{
    auto rec = loadRecord(sessionDir(sessionId));
    if (!rec || sessionId.contains(QLatin1Char('/'))) {
        done.post(makeError(ErrorCode::NotFound, tr("No Local session \"%1\".").arg(sessionId)));
        return;
    }
    if (isAlive(*rec)) {
        rec->killed = true;
        (void)saveRecord(*rec);
        killSandbox(*rec);
    }
    const QStringList cgroups = rec->cgroupDirs;
    waitGone(sessionId, 300, [this, sessionId, cgroups, done] {
        // bubblewrap's outer process leaves the cgroups a moment after the sandbox ends.
        waitCgroupsEmpty(cgroups, 200, [this, sessionId, cgroups, done] {
            removeSessionCgroups(cgroups);
            // A workspace of many files takes seconds to delete: renamed out of the listing
            // first (hidden names are never listed), then deleted on a worker thread.
            QString doomed = sessionsDir() + QStringLiteral("/.removing-") + sessionId;
            if (QFileInfo::exists(doomed) || !QDir().rename(sessionDir(sessionId), doomed))
                doomed = sessionDir(sessionId);
            runOffThread<bool>(
                this, [doomed] { return QDir(doomed).removeRecursively(); },
                [this, sessionId, doomed, done](bool removed) {
                    if (!removed) {
                        done(makeError(ErrorCode::Internal, tr("Could not delete %1 completely.").arg(doomed)));
                        return;
                    }
                    m_lastStates.remove(sessionId);
                    m_cpuMarks.remove(sessionId);
                    m_workspaceUsage.forget(sessionDir(sessionId) + QStringLiteral("/workspace"));
                    Q_EMIT sessionRemoved(sessionId);
                    done({});
                });
        });
    });
}

void LocalProvider::waitCgroupsEmpty(const QStringList &dirs, int attemptsLeft, const std::function<void()> &then)
{
    if (attemptsLeft <= 0 || sessionCgroupsEmpty(dirs)) {
        then();
        return;
    }
    QTimer::singleShot(5, this, [this, dirs, attemptsLeft, then] { waitCgroupsEmpty(dirs, attemptsLeft - 1, then); });
}

void LocalProvider::setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done)
{
    if (ttlSeconds < 0) {
        done.post(makeError(ErrorCode::InvalidArgument, tr("The time limit cannot be negative.")));
        return;
    }
    const QDateTime deadline = ttlSeconds > 0 ? QDateTime::currentDateTimeUtc().addSecs(ttlSeconds) : QDateTime();
    QJsonObject body;
    body[QStringLiteral("deadlineMs")] = deadline.isValid() ? deadline.toMSecsSinceEpoch() : qint64(0);
    request(sessionId, FrameType::SetTtl, body, [this, sessionId, ttlSeconds, deadline, done](Result<QJsonObject> r) {
        if (!r) {
            done(r.error());
            return;
        }
        auto rec = loadRecord(sessionDir(sessionId));
        if (rec) {
            // The ttl counts from now; created + ttl tells the same deadline to others.
            rec->ttlSeconds = deadline.isValid() ? rec->created.secsTo(deadline) : 0;
            rec->expiresAt = deadline;
            (void)saveRecord(*rec);
            Q_EMIT sessionChanged(toSessionInfo(*rec, descriptor().id));
        }
        Q_UNUSED(ttlSeconds);
        done({});
    });
}

std::unique_ptr<PtyChannel> LocalProvider::openPty(const QString &sessionId, const PtyOptions &options)
{
    return std::make_unique<LocalPtyChannel>(socketPath(sessionId), options);
}

std::unique_ptr<ExecJob> LocalProvider::exec(const QString &sessionId, const ExecRequest &request)
{
    return std::make_unique<LocalExecJob>(socketPath(sessionId), request);
}

void LocalProvider::statPath(const QString &sessionId, const QString &path, Callback<PathStat> done)
{
    if (!path.startsWith(QLatin1Char('/')) || path.contains(QChar(0))) {
        done.post(makeError(ErrorCode::InvalidArgument, tr("'%1' is not an absolute path.").arg(path)));
        return;
    }
    const QString clean = QDir::cleanPath(path);
    request(sessionId, FrameType::FileList, QJsonObject{{QStringLiteral("path"), clean}},
            [done](Result<QJsonObject> r) {
                if (r) {
                    done(PathStat{true, r->value(QStringLiteral("isDir")).toBool()});
                    return;
                }
                // The agent answers "PATH: strerror": nothing there is an answer, not a failure.
                const QString msg = r.error().message;
                if (msg.endsWith(QLatin1String(": No such file or directory")) ||
                    msg.endsWith(QLatin1String(": Not a directory"))) {
                    done(PathStat{});
                    return;
                }
                done(r.error());
            });
}

std::unique_ptr<TransferJob> LocalProvider::putItem(const QString &sessionId, const QString &localPath,
                                                    const QString &remoteDir, const QString &name)
{
    return std::make_unique<LocalUploadJob>(socketPath(sessionId), localPath, remoteDir, name);
}

std::unique_ptr<TransferJob> LocalProvider::getItem(const QString &sessionId, const QString &remotePath,
                                                    const QString &localDir, const QString &name)
{
    return std::make_unique<LocalDownloadJob>(socketPath(sessionId), remotePath, localDir, name);
}

std::unique_ptr<TransferJob> LocalProvider::putTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir)
{
    return std::make_unique<LocalTarJob>(this, sessionId, tar, remoteDir, LocalTarJob::Direction::Put);
}

std::unique_ptr<TransferJob> LocalProvider::getTar(const QString &sessionId, const QString &remotePath, QIODevice *out)
{
    return std::make_unique<LocalTarJob>(this, sessionId, out, remotePath, LocalTarJob::Direction::Get);
}

void LocalProvider::listFiles(const QString &sessionId, const QString &path, Callback<QList<FileEntry>> done)
{
    const QString dir = QDir::cleanPath(path.isEmpty() ? QString::fromLatin1(kWorkspace) : path);
    request(
        sessionId, FrameType::FileList, QJsonObject{{QStringLiteral("path"), dir}}, [dir, done](Result<QJsonObject> r) {
            if (!r) {
                done(r.error());
                return;
            }
            QList<FileEntry> out;
            for (const auto &v : r->value(QStringLiteral("entries")).toArray()) {
                const QJsonObject e = v.toObject();
                FileEntry f;
                f.name = e.value(QStringLiteral("name")).toString();
                if (!isSafeEntryName(f.name))
                    continue;
                f.path = r->value(QStringLiteral("isDir")).toBool() ? dir + QLatin1Char('/') + f.name : dir;
                f.path = QDir::cleanPath(f.path);
                f.size = e.value(QStringLiteral("size")).toInteger();
                f.isDir = e.value(QStringLiteral("dir")).toBool();
                f.isLink = e.value(QStringLiteral("link")).toBool();
                f.linkTarget = e.value(QStringLiteral("target")).toString();
                f.mode = quint32(e.value(QStringLiteral("mode")).toInt());
                f.modified = QDateTime::fromMSecsSinceEpoch(e.value(QStringLiteral("mtimeMs")).toInteger(), Qt::UTC);
                out << f;
            }
            done(out);
        });
}

void LocalProvider::stats(const QString &sessionId, Callback<StatsSample> done)
{
    // One reading: the agent's figures (its walk of the sandbox's /proc, its network
    // namespace's counters) and, where the session has cgroups, theirs, which count what
    // the limits count (page cache, kernel memory, the CPU time of processes gone since).
    struct Reading {
        QJsonObject agent;
        CgroupReading cgroup;
        std::optional<SessionRecord> record;
        CpuMark mark;
    };
    auto take = [this, sessionId](const QJsonObject &o) {
        Reading r;
        r.agent = o;
        if (auto rec = loadRecord(sessionDir(sessionId))) {
            r.cgroup = readCgroupStats(rec->cgroupDirs);
            r.record = *rec;
        }
        if (r.cgroup.cpuNs) {
            const auto mono = std::chrono::steady_clock::now().time_since_epoch();
            r.mark = {*r.cgroup.cpuNs, std::chrono::duration_cast<std::chrono::nanoseconds>(mono).count(), true};
        } else {
            r.mark = {o.value(QStringLiteral("cpuNs")).toInteger(), o.value(QStringLiteral("monoNs")).toInteger(),
                      false};
        }
        return r;
    };
    // A mark to compare with: from the same counter, and recent.
    auto comparable = [](const CpuMark &now, const CpuMark &before) {
        return now.cgroup == before.cgroup && now.monoNs > before.monoNs &&
               now.monoNs - before.monoNs < 60'000'000'000LL;
    };
    auto build = [this, sessionId](const Reading &r, const std::optional<CpuMark> &prev) {
        StatsSample s;
        s.time = QDateTime::currentDateTimeUtc();
        const CpuMark &now = r.mark;
        if (prev)
            s.cpuPercent = std::max(0.0, 100.0 * double(now.cpuNs - prev->cpuNs) / double(now.monoNs - prev->monoNs));
        m_cpuMarks.insert(sessionId, now);
        const CgroupReading &cg = r.cgroup;
        s.memoryUsedBytes =
            cg.memoryUsedBytes ? *cg.memoryUsedBytes : r.agent.value(QStringLiteral("rssBytes")).toInteger();
        s.memoryLimitBytes = cg.memoryLimitBytes;
        if (!s.memoryLimitBytes && !cg.memoryUnlimited && r.record)
            s.memoryLimitBytes = r.record->memoryBytes;
        // The cgroup's count is the one its pids limit applies to (it includes bubblewrap's
        // outer process); the agent counts what it sees in the sandbox's /proc.
        s.pids = cg.pids ? *cg.pids : r.agent.value(QStringLiteral("pids")).toInteger();
        s.networkRxBytes = r.agent.value(QStringLiteral("rxBytes")).toInteger();
        s.networkTxBytes = r.agent.value(QStringLiteral("txBytes")).toInteger();
        // v2's io.stat, else what the agent adds up from /proc/<pid>/io, else v1's blkio.
        const QJsonValue agentRead = r.agent.value(QStringLiteral("ioReadBytes"));
        if (cg.ioUnified || !agentRead.isDouble()) {
            s.blockReadBytes = cg.ioReadBytes;
            s.blockWriteBytes = cg.ioWriteBytes;
        } else {
            s.blockReadBytes = agentRead.toInteger();
            s.blockWriteBytes = r.agent.value(QStringLiteral("ioWriteBytes")).toInteger();
        }
        s.oomKills = cg.oomKills;
        if (r.record) {
            const WorkspaceUsage::Figures fs = m_workspaceUsage.sample(r.record->dir + QStringLiteral("/workspace"));
            s.filesystemUsedBytes = fs.usedBytes;
            s.filesystemTotalBytes = fs.totalBytes;
        }
        return s;
    };
    request(sessionId, FrameType::Stats, {}, [this, sessionId, take, comparable, build, done](Result<QJsonObject> r) {
        if (!r) {
            done(r.error());
            return;
        }
        const Reading first = take(*r);
        const auto it = m_cpuMarks.constFind(sessionId);
        if (it != m_cpuMarks.cend() && comparable(first.mark, *it)) {
            done(build(first, *it));
            return;
        }
        // No recent reading to compare with: take a second one shortly after.
        QTimer::singleShot(100, this, [this, sessionId, take, comparable, build, mark = first.mark, done] {
            request(sessionId, FrameType::Stats, {}, [take, comparable, build, mark, done](Result<QJsonObject> r2) {
                if (!r2) {
                    done(r2.error());
                    return;
                }
                const Reading second = take(*r2);
                // Not comparable: the cgroup appeared or went in between.
                done(build(second, comparable(second.mark, mark) ? std::optional(mark) : std::nullopt));
            });
        });
    });
}

std::unique_ptr<LogStream> LocalProvider::logs(const QString &sessionId, const LogOptions &options)
{
    const QString dir = sessionDir(sessionId);
    if (sessionId.isEmpty() || sessionId.contains(QLatin1Char('/')) || sessionId.startsWith(QLatin1Char('.')) ||
        !loadRecord(dir))
        return std::make_unique<LocalLogStream>(
            makeError(ErrorCode::NotFound, tr("No Local session \"%1\".").arg(sessionId)));
    return std::make_unique<LocalLogStream>(dir + QStringLiteral("/agent.log"), options, [dir] {
        const auto rec = loadRecord(dir);
        return rec && isAlive(*rec);
    });
}

std::unique_ptr<StatsStream> LocalProvider::streamStats(const QString &sessionId)
{
    return std::make_unique<LocalStatsStream>(this, sessionId);
}

void LocalProvider::listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done)
{
    request(sessionId, FrameType::ListPtys, {}, [done](Result<QJsonObject> r) {
        if (!r) {
            done(r.error());
            return;
        }
        QList<PtyEntry> out;
        for (const auto &v : r->value(QStringLiteral("ptys")).toArray()) {
            const QJsonObject o = v.toObject();
            QStringList argv;
            for (const auto &a : o.value(QStringLiteral("argv")).toArray())
                argv << a.toString();
            out << PtyEntry{o.value(QStringLiteral("id")).toString(), argv, o.value(QStringLiteral("exited")).toBool(),
                            o.value(QStringLiteral("code")).toInt()};
        }
        done(out);
    });
}

void LocalProvider::watch()
{
    for (auto it = m_lastStates.begin(); it != m_lastStates.end(); ++it) {
        auto rec = loadRecord(sessionDir(it.key()));
        if (!rec)
            continue;
        // What a lost agent left running (a command, a shell's background job) is ended: it
        // can no longer be reached, and it would hold the session's cgroups and memory.
        if (agentGone(*rec) && isAlive(*rec))
            killSandbox(*rec);
        const SessionInfo info = toSessionInfo(*rec, descriptor().id);
        if (info.state != it.value()) {
            it.value() = info.state;
            Q_EMIT sessionChanged(info);
        }
    }
}

} // namespace sandbar::local
