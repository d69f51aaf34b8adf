#include "providers/docker/DockerProvider.h"

#include "files/FileListing.h"
#include "files/PathSafety.h"
#include "providers/ExecFileOps.h"
#include "providers/docker/DockerExec.h"
#include "providers/docker/DockerLogs.h"
#include "providers/docker/DockerStatsStream.h"
#include "providers/docker/DockerTransfer.h"
#include "providers/docker/DockerUsage.h"
#include "providers/docker/JsonFields.h"

#include <QDir>
#include <QFile>
#include <QMetaMethod>
#include <QTimeZone>
#include <nlohmann/json.hpp>

namespace sandbar::docker {

using nlohmann::json;

DockerProvider::DockerProvider(const ProviderDescriptor &descriptor, QString accountName, net::Endpoint endpoint,
                               QString dataDir, QObject *parent)
    : Provider(parent)
    , CopyingFiles(this)
    , m_descriptor(descriptor)
    , m_account(std::move(accountName))
    , m_dataDir(std::move(dataDir))
    , m_api(new DockerApi(std::move(endpoint), this))
{
    setFacets({.terminals = this,
               .exec = this,
               .files = this,
               .stats = this,
               .logs = this,
               .images = this,
               .pause = this,
               .timeLimit = this});
    m_eventsRetry.setSingleShot(true);
    connect(&m_eventsRetry, &QTimer::timeout, this, &DockerProvider::connectEvents);
    m_usage = new DockerUsageTracker(
        m_api, [this] { return m_eventsConnected; }, this);
    loadOverrides();
}

DockerProvider::~DockerProvider()
{
    m_eventsWanted = false;
    if (m_events)
        m_events->disconnect(this);
}

Capabilities DockerProvider::statsFlags() const
{
    return Capability::StatsCpu | Capability::StatsMemory | Capability::StatsNetwork | Capability::StatsDisk |
           Capability::StatsStream;
}

void DockerProvider::listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done)
{
    Q_UNUSED(sessionId);
    done.post(unsupportedError(m_descriptor, Capability::Reattach));
}

void DockerProvider::removePath(const QString &sessionId, const QString &path, Callback<void> done)
{
    removePathByExec(*this, sessionId, path, std::move(done));
}

void DockerProvider::makeDir(const QString &sessionId, const QString &path, Callback<void> done)
{
    makeDirByExec(*this, sessionId, path, std::move(done));
}

void DockerProvider::movePath(const QString &sessionId, const QString &from, const QString &to, Callback<void> done)
{
    movePathByExec(*this, sessionId, from, to, std::move(done));
}

void DockerProvider::setMode(const QString &sessionId, const QString &path, quint32 mode, Callback<void> done)
{
    setModeByExec(*this, sessionId, path, mode, std::move(done));
}

Capabilities DockerProvider::coreCapabilities() const
{
    Capabilities caps = Provider::coreCapabilities();
    if (m_api->isReady() && m_api->engine().podman)
        caps &= ~Capabilities(Capability::Gpu);
    return caps;
}

void DockerProvider::health(Callback<HealthInfo> done)
{
    m_api->ensureReady(Callback<EngineInfo>(done.context(), [this, done](Result<EngineInfo> e) {
        if (!e)
            return done(e.error());
        HealthInfo h;
        h.serverName = e->serverName;
        h.version = e->version;
        h.apiVersion = e->api.toString();
        h.os = e->os;
        h.endpoint = m_api->endpoint().display();
        if (m_descriptor.id == QLatin1String("docker") && e->podman)
            h.warnings << tr("This endpoint is a Podman engine; a Podman account describes it better.");
        if (m_descriptor.id == QLatin1String("podman") && !e->podman)
            h.warnings << tr("This endpoint is a Docker engine, not Podman.");
        done(h);
    }));
}

void DockerProvider::listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done)
{
    // Adopted containers carry no label to filter on: with any adopted, list all and keep
    // Sandbar's own plus the adopted ones.
    const bool everything = options.all || !m_adopted.isEmpty();
    QByteArray path = "/containers/json?all=true";
    if (!everything) {
        const json filters{{"label", {std::string(labels::App) + "=" + labels::AppValue}}};
        path += "&filters=" + DockerApi::enc(QString::fromStdString(filters.dump()));
    }
    m_api->call(
        "GET", path, {},
        Callback<net::HttpResponse>(done.context(), [this, all = options.all, done](Result<net::HttpResponse> r) {
            if (!r)
                return done(r.error());
            if (!r->isSuccess())
                return done(errorFromStatus(r->status, r->body, tr("Listing sessions failed")));
            auto list = sessionsFromList(r->body, {m_account, m_descriptor.id});
            if (!list)
                return done(list.error());
            QList<SessionInfo> out;
            QSet<QString> seen;
            for (const auto &s : std::as_const(*list)) {
                seen.insert(s.id);
                const SessionInfo withState = withOverrides(s);
                if (all || withState.owned || withState.adopted)
                    out << withState;
            }
            // An adopted container removed behind our back is forgotten.
            const auto before = m_adopted.size();
            m_adopted.removeIf([&seen](const QString &id) { return !seen.contains(id); });
            if (m_adopted.size() != before)
                saveOverrides();
            done(out);
        }));
}

void DockerProvider::info(const QString &sessionId, Callback<SessionInfo> done)
{
    m_api->call("GET", "/containers/" + DockerApi::enc(sessionId) + "/json", {},
                Callback<net::HttpResponse>(done.context(), [this, sessionId, done](Result<net::HttpResponse> r) {
                    if (!r)
                        return done(r.error());
                    if (r->status == 404)
                        return done(DockerApi::sessionGone(sessionId));
                    if (!r->isSuccess())
                        return done(errorFromStatus(r->status, r->body,
                                                    tr("Reading session %1 failed").arg(sessionId.left(12))));
                    auto s = sessionFromInspect(r->body, {m_account, m_descriptor.id});
                    if (!s)
                        return done(s.error());
                    done(withOverrides(*s));
                }));
}

void DockerProvider::adopt(const QString &sessionId, Callback<SessionInfo> done)
{
    info(sessionId, Callback<SessionInfo>(done.context(), [this, done](Result<SessionInfo> r) {
             if (!r)
                 return done(r.error());
             if (r->owned)
                 return done(makeError(
                     ErrorCode::Conflict,
                     tr("Session %1 was created by Sandbar; there is nothing to adopt.").arg(r->id.left(12))));
             m_adopted.insert(r->id);
             saveOverrides();
             done(withOverrides(*r));
         }));
}

void DockerProvider::simple(const QByteArray &method, const QByteArray &path, const QString &sessionId,
                            const QString &action, Callback<void> done, bool notModifiedIsOk)
{
    m_api->call(method, path, {},
                Callback<net::HttpResponse>(done.context(),
                                            [sessionId, action, done, notModifiedIsOk](Result<net::HttpResponse> r) {
                                                if (!r)
                                                    return done(r.error());
                                                if (r->isSuccess() || (notModifiedIsOk && r->status == 304))
                                                    return done({});
                                                if (r->status == 404)
                                                    return done(DockerApi::sessionGone(sessionId));
                                                if (r->status == 409)
                                                    return done(makeError(
                                                        ErrorCode::Conflict,
                                                        tr("%1: session %2 is not in a state for that (%3)")
                                                            .arg(action, sessionId.left(12), engineMessage(r->body))));
                                                done(errorFromStatus(r->status, r->body, action));
                                            }),
                DockerApi::kLifecycleTimeout);
}

void DockerProvider::stop(const QString &sessionId, Callback<void> done)
{
    simple("POST", "/containers/" + DockerApi::enc(sessionId) + "/stop?t=5", sessionId, tr("Stopping failed"),
           std::move(done), true);
}

void DockerProvider::kill(const QString &sessionId, Callback<void> done)
{
    m_api->call("POST", "/containers/" + DockerApi::enc(sessionId) + "/kill?signal=SIGKILL", {},
                Callback<net::HttpResponse>(done.context(), [sessionId, done](Result<net::HttpResponse> r) {
                    if (!r)
                        return done(r.error());
                    if (r->isSuccess())
                        return done({});
                    if (r->status == 404)
                        return done(DockerApi::sessionGone(sessionId));
                    if (r->status == 409)
                        return done(
                            makeError(ErrorCode::Conflict,
                                      tr("session %1 is not running, so it cannot be killed").arg(sessionId.left(12))));
                    done(errorFromStatus(r->status, r->body, tr("Killing failed")));
                }));
}

void DockerProvider::remove(const QString &sessionId, Callback<void> done)
{
    m_deadlines.remove(sessionId);
    m_lastCpu.remove(sessionId);
    m_usage->forget(sessionId);
    m_adopted.remove(sessionId);
    saveOverrides();
    simple("DELETE", "/containers/" + DockerApi::enc(sessionId) + "?force=true&v=true", sessionId,
           tr("Removing failed"), std::move(done));
}

void DockerProvider::pause(const QString &sessionId, Callback<void> done)
{
    simple("POST", "/containers/" + DockerApi::enc(sessionId) + "/pause", sessionId, tr("Pausing failed"),
           std::move(done));
}

void DockerProvider::resume(const QString &sessionId, Callback<void> done)
{
    simple("POST", "/containers/" + DockerApi::enc(sessionId) + "/unpause", sessionId, tr("Resuming failed"),
           std::move(done));
}

void DockerProvider::setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done)
{
    const QDateTime deadline = ttlSeconds > 0 ? QDateTime::currentDateTimeUtc().addSecs(ttlSeconds) : QDateTime();
    ExecRequest req;
    req.argv =
        QStringList{QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                    QStringLiteral("echo \"$1\" > %1").arg(QLatin1String(kDeadlineFile)), QStringLiteral("sandbar-ttl"),
                    QString::number(deadline.isValid() ? deadline.toSecsSinceEpoch() : 0)};
    runExec(m_api, sessionId, req,
            Callback<ExecOutput>(done.context(), [this, sessionId, deadline, done](Result<ExecOutput> r) {
                if (!r)
                    return done(r.error());
                if (r->exitCode != 0) {
                    // A session whose limit ends while it is being changed is killed under the
                    // command, which then says nothing: its exit code is all there is to tell.
                    const QString said = QString::fromUtf8(r->stderrData).trimmed();
                    const QString why =
                        said.isEmpty() ? tr("the command in the session ended with code %1").arg(r->exitCode) : said;
                    return done(makeError(ErrorCode::Internal, tr("Changing the time limit failed: %1").arg(why)));
                }
                m_deadlines.insert(sessionId, deadline);
                saveOverrides();
                done({});
            }));
}

SessionInfo DockerProvider::withOverrides(SessionInfo s) const
{
    s.adopted = !s.owned && m_adopted.contains(s.id);
    if (m_endpointMapper && !s.endpoints.isEmpty())
        s.endpoints = m_endpointMapper(s.endpoints);
    const auto it = m_deadlines.constFind(s.id);
    if (it == m_deadlines.constEnd())
        return s;
    s.expiresAt = *it;
    s.ttlSeconds = it->isValid() && s.created.isValid() ? s.created.secsTo(*it) : 0;
    return s;
}

void DockerProvider::loadOverrides()
{
    if (m_dataDir.isEmpty())
        return;
    QFile f(m_dataDir + QStringLiteral("/docker-deadlines.json"));
    if (!f.open(QIODevice::ReadOnly))
        return;
    const QByteArray bytes = f.readAll();
    const auto j = json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
    if (!j.is_object())
        return;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.value().is_number_integer()) {
            const qint64 secs = it.value().get<qint64>();
            m_deadlines.insert(QString::fromStdString(it.key()),
                               secs > 0 ? QDateTime::fromSecsSinceEpoch(secs, QTimeZone::utc()) : QDateTime());
        }
    }
    QFile a(m_dataDir + QStringLiteral("/docker-adopted.json"));
    if (!a.open(QIODevice::ReadOnly))
        return;
    const QByteArray adopted = a.readAll();
    const auto ids = json::parse(adopted.constData(), adopted.constData() + adopted.size(), nullptr, false);
    if (!ids.is_array())
        return;
    for (const auto &id : ids) {
        if (id.is_string())
            m_adopted.insert(QString::fromStdString(id.get<std::string>()));
    }
}

void DockerProvider::saveOverrides() const
{
    if (m_dataDir.isEmpty())
        return;
    json j = json::object();
    for (auto it = m_deadlines.begin(); it != m_deadlines.end(); ++it)
        j[it.key().toStdString()] = it.value().isValid() ? it.value().toSecsSinceEpoch() : 0;
    QDir().mkpath(m_dataDir);
    QFile f(m_dataDir + QStringLiteral("/docker-deadlines.json"));
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(QByteArray::fromStdString(j.dump()));
    json ids = json::array();
    for (const auto &id : m_adopted)
        ids.push_back(id.toStdString());
    QFile a(m_dataDir + QStringLiteral("/docker-adopted.json"));
    if (a.open(QIODevice::WriteOnly | QIODevice::Truncate))
        a.write(QByteArray::fromStdString(ids.dump()));
}

std::unique_ptr<PtyChannel> DockerProvider::openPty(const QString &sessionId, const PtyOptions &options)
{
    auto pty = std::make_unique<DockerPtyChannel>(m_api, sessionId, options);
    connect(pty.get(), &PtyChannel::finished, m_usage, [this, sessionId] { m_usage->noteExecEnded(sessionId); });
    return pty;
}

std::unique_ptr<ExecJob> DockerProvider::exec(const QString &sessionId, const ExecRequest &request)
{
    // A command's end is when an out-of-memory kill inside it is worth looking for (DockerUsage.h).
    auto job = std::make_unique<DockerExecJob>(m_api, sessionId, request);
    connect(job.get(), &ExecJob::finished, m_usage, [this, sessionId] { m_usage->noteExecEnded(sessionId); });
    return job;
}

void DockerProvider::statPath(const QString &sessionId, const QString &path, Callback<PathStat> done)
{
    statRemotePath(m_api, sessionId, path, std::move(done));
}

std::unique_ptr<TransferJob> DockerProvider::putItem(const QString &sessionId, const QString &localPath,
                                                     const QString &remoteDir, const QString &name)
{
    return std::make_unique<DockerUploadJob>(m_api, sessionId, localPath, remoteDir, name);
}

std::unique_ptr<TransferJob> DockerProvider::getItem(const QString &sessionId, const QString &remotePath,
                                                     const QString &localDir, const QString &name)
{
    return std::make_unique<DockerDownloadJob>(m_api, sessionId, remotePath, localDir, name);
}

std::unique_ptr<TransferJob> DockerProvider::putTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir)
{
    auto job = std::make_unique<DockerUploadJob>(m_api, sessionId, QString(), remoteDir, QString());
    job->setTarStream(tar);
    return job;
}

std::unique_ptr<TransferJob> DockerProvider::getTar(const QString &sessionId, const QString &remotePath, QIODevice *out)
{
    auto job = std::make_unique<DockerDownloadJob>(m_api, sessionId, remotePath, QString(), QString());
    job->setTarStream(out);
    return job;
}

void DockerProvider::listFiles(const QString &sessionId, const QString &path, Callback<QList<FileEntry>> done)
{
    auto dir = files::normalizeRemotePath(path);
    if (!dir)
        return done.post(dir.error());
    ExecRequest req;
    req.argv = QStringList{QStringLiteral("/bin/sh"), QStringLiteral("-c"), files::fileListScript(),
                           QStringLiteral("sandbar-ls"), *dir};
    const QString d = *dir;
    runExec(m_api, sessionId, req, Callback<ExecOutput>(done.context(), [sessionId, d, done](Result<ExecOutput> r) {
                if (!r)
                    return done(r.error());
                if (r->exitCode == 3)
                    return done(makeError(ErrorCode::NotFound,
                                          tr("'%1' is not a folder in session %2 (%3)")
                                              .arg(d, sessionId.left(12), QString::fromUtf8(r->stderrData).trimmed())));
                if (r->exitCode != 0)
                    return done(
                        makeError(ErrorCode::Internal,
                                  tr("Listing '%1' failed: %2").arg(d, QString::fromUtf8(r->stderrData).trimmed())));
                done(files::parseFileList(r->stdoutData, d));
            }));
}

void DockerProvider::stats(const QString &sessionId, Callback<StatsSample> done)
{
    m_api->ensureReady(Callback<EngineInfo>(done.context(), [this, sessionId, done](Result<EngineInfo> e) {
        if (!e)
            return done(e.error());
        const bool podman = e->podman;
        // The stats reply and the container's OOM kills and writable-layer size (cached; the
        // first sample of a container waits for its first look) go out together.
        auto sample = std::make_shared<std::optional<Result<StatsSample>>>();
        auto pending = std::make_shared<int>(2);
        auto deliver = [this, sessionId, done, sample, pending] {
            if (--*pending > 0)
                return;
            Result<StatsSample> s = std::move(**sample);
            if (s)
                m_usage->fill(sessionId, &*s);
            done(std::move(s));
        };
        // one-shot answers at once, without precpu_stats: the delta is taken against the
        // sample kept here from the previous call.
        const QByteArray path = "/containers/" + DockerApi::enc(sessionId) + "/stats?stream=false" +
                                (e->api >= ApiVersion{1, 41} ? "&one-shot=true" : "");
        m_api->call("GET", path, {},
                    Callback<net::HttpResponse>(
                        done.context(), [this, sessionId, podman, sample, deliver](Result<net::HttpResponse> r) {
                            if (!r) {
                                *sample = r.error();
                            } else if (r->status == 404) {
                                *sample = DockerApi::sessionGone(sessionId);
                            } else if (!r->isSuccess()) {
                                *sample = errorFromStatus(r->status, r->body, tr("Statistics failed"));
                            } else {
                                std::optional<CpuReading> previous;
                                if (const auto it = m_lastCpu.constFind(sessionId); it != m_lastCpu.constEnd())
                                    previous = *it;
                                CpuReading now;
                                auto s = statsSample(r->body, previous, podman, &now);
                                if (s)
                                    m_lastCpu.insert(sessionId, now);
                                *sample = std::move(s);
                            }
                            deliver();
                        }));
        m_usage->ensure(sessionId, deliver);
    }));
}

std::unique_ptr<LogStream> DockerProvider::logs(const QString &sessionId, const LogOptions &options)
{
    return std::make_unique<DockerLogStream>(m_api, sessionId, options);
}

std::unique_ptr<StatsStream> DockerProvider::streamStats(const QString &sessionId)
{
    return std::make_unique<FilledStatsStream>(std::make_unique<DockerStatsStream>(m_api, sessionId), m_usage,
                                               sessionId);
}

// ---- events -------------------------------------------------------------------------------

void DockerProvider::setEventsBackoff(std::chrono::milliseconds first, std::chrono::milliseconds max)
{
    m_backoffFirst = m_backoff = first;
    m_backoffMax = max;
}

void DockerProvider::connectNotify(const QMetaMethod &signal)
{
    if (signal == QMetaMethod::fromSignal(&Provider::sessionChanged) ||
        signal == QMetaMethod::fromSignal(&Provider::sessionRemoved))
        QTimer::singleShot(0, this, &DockerProvider::updateEventsWatch);
}

void DockerProvider::disconnectNotify(const QMetaMethod &signal)
{
    if (signal.isValid())
        QTimer::singleShot(0, this, &DockerProvider::updateEventsWatch);
}

void DockerProvider::updateEventsWatch()
{
    const bool wanted = isSignalConnected(QMetaMethod::fromSignal(&Provider::sessionChanged)) ||
                        isSignalConnected(QMetaMethod::fromSignal(&Provider::sessionRemoved));
    if (wanted == m_eventsWanted)
        return;
    m_eventsWanted = wanted;
    if (wanted) {
        connectEvents();
    } else {
        m_eventsRetry.stop();
        if (m_events) {
            m_events->disconnect(this);
            m_events->abort();
            m_events->deleteLater();
        }
        m_eventsConnected = false;
    }
}

void DockerProvider::scheduleEventsReconnect()
{
    m_eventsConnected = false;
    if (!m_eventsWanted)
        return;
    m_eventsRetry.start(m_backoff);
    m_backoff = std::min(m_backoff * 2, m_backoffMax);
}

void DockerProvider::connectEvents()
{
    if (!m_eventsWanted || m_events)
        return;
    m_api->ensureReady(Callback<EngineInfo>(this, [this](Result<EngineInfo> e) {
        if (!e)
            return scheduleEventsReconnect();
        if (!m_eventsWanted || m_events)
            return;
        const json filters{{"type", {"container"}}, {"label", {std::string(labels::App) + "=" + labels::AppValue}}};
        QByteArray path = "/events?filters=" + DockerApi::enc(QString::fromStdString(filters.dump()));
        if (m_lastEventTime > 0)
            path += "&since=" + QByteArray::number(m_lastEventTime);
        auto req = m_api->request("GET", path);
        req.headers.append(qMakePair(QByteArray("Accept"), QByteArray("application/x-ndjson")));
        m_events = m_api->exchange(req, this);
        m_eventsBuffer.clear();
        connect(m_events, &net::HttpExchange::headersReceived, this, [this](const net::HttpResponse &head) {
            if (head.status == 200) {
                m_eventsConnected = true;
                m_backoff = m_backoffFirst;
            }
        });
        connect(m_events, &net::HttpExchange::bodyData, this, [this](const QByteArray &bytes) {
            if (!m_events || m_events->response().status != 200)
                return;
            m_eventsBuffer += bytes;
            for (const EngineEvent &ev : takeEvents(&m_eventsBuffer)) {
                m_lastEventTime = qMax(m_lastEventTime, ev.time);
                m_usage->noteEvent(ev); // oom and start: the statistics' OOM kill count
                if (ev.type != QLatin1String("container") || ev.id.isEmpty())
                    continue;
                if (ev.action == QLatin1String("destroy")) {
                    m_deadlines.remove(ev.id);
                    m_lastCpu.remove(ev.id);
                    m_usage->forget(ev.id);
                    Q_EMIT sessionRemoved(ev.id);
                    continue;
                }
                static const QStringList ignored{
                    QStringLiteral("exec_"),          QStringLiteral("attach"),       QStringLiteral("detach"),
                    QStringLiteral("resize"),         QStringLiteral("top"),          QStringLiteral("archive-path"),
                    QStringLiteral("extract-to-dir"), QStringLiteral("copy"),         QStringLiteral("commit"),
                    QStringLiteral("export"),         QStringLiteral("health_status")};
                bool skip = false;
                for (const QString &prefix : ignored)
                    skip = skip || ev.action.startsWith(prefix);
                if (skip)
                    continue;
                const QString id = ev.id;
                info(id, Callback<SessionInfo>(this, [this, id](Result<SessionInfo> s) {
                         if (s)
                             Q_EMIT sessionChanged(*s);
                         else if (s.code() == ErrorCode::NotFound)
                             Q_EMIT sessionRemoved(id);
                     }));
            }
        });
        connect(m_events, &net::HttpExchange::finished, this, [this](const VoidResult &) {
            if (m_events)
                m_events->deleteLater();
            m_events = nullptr;
            scheduleEventsReconnect();
        });
        m_events->start();
    }));
}

HostProcessMatch DockerProvider::hostProcessMatch(const QString &sessionId) const
{
    if (m_api->endpoint().kind == net::Endpoint::Kind::Tcp || !m_remoteHost.isEmpty())
        return {};
    return HostProcessMatch{sessionId, {}};
}

} // namespace sandbar::docker
