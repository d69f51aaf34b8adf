#include "VercelContext.h"

#include "kit/FolderCopy.h"
#include "kit/ProcTree.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <algorithm>
#include <csignal>
#include <sys/stat.h>
#include <unistd.h>

using sandbar::ErrorCode;
using sandbar::makeError;

namespace contract::vercel {

namespace {

constexpr int kTickMs = 200;
// What the service keeps a snapshot for when neither the call nor the sandbox says.
constexpr qint64 kDefaultSnapshotExpirationMs = 30LL * 24 * 3600 * 1000;
const QString kKitHome = QStringLiteral("/home/user");

QString running()
{
    return QStringLiteral("running");
}

} // namespace

Context::Context(Server &srv, SandboxHost &sandboxHost, const Options &options, QObject *parent)
    : QObject(parent)
    , server(srv)
    , host(sandboxHost)
    , apiKey(options.apiKey)
    , baseUrl(options.baseUrl)
    , tls(options.tls)
{
    m_timer.setInterval(kTickMs);
    connect(&m_timer, &QTimer::timeout, this, &Context::tick);
    m_timer.start();
}

QJsonObject Context::errorJson(const QString &code, const QString &message)
{
    return {
        {QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}}}};
}

void Context::error(Responder *responder, int status, const QString &code, const QString &message)
{
    responder->sendJson(status, errorJson(code, message));
}

qint64 Context::nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QString Context::newId(const QString &prefix)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    QString id = prefix + QLatin1Char('_');
    for (int i = 0; i < 24; ++i)
        id += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(62)]);
    return id;
}

bool Context::jsonBody(const Request &request, Responder *responder, QJsonObject *out)
{
    const QByteArray body = request.readBody();
    if (body.trimmed().isEmpty()) {
        *out = {};
        return true;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        error(responder, 400, QStringLiteral("bad_request"),
              QStringLiteral("Invalid JSON body: %1")
                  .arg(doc.isObject() ? parseError.errorString() : QStringLiteral("an object is expected")));
        return false;
    }
    *out = doc.object();
    return true;
}

bool Context::authorize(const Request &request, Responder *responder) const
{
    const QByteArray header = request.header("authorization");
    if (!header.startsWith("Bearer ") || header.mid(7).trimmed().isEmpty()) {
        // The API answers 403 without a token too, flagged missingToken.
        responder->sendJson(403,
                            QJsonObject{{QStringLiteral("error"),
                                         QJsonObject{{QStringLiteral("code"), QStringLiteral("forbidden")},
                                                     {QStringLiteral("message"),
                                                      QStringLiteral("The request is missing an authentication token")},
                                                     {QStringLiteral("missingToken"), true}}}});
        return false;
    }
    if (QString::fromUtf8(header.mid(7).trimmed()) != apiKey) {
        responder->sendJson(403, QJsonObject{{QStringLiteral("error"),
                                              QJsonObject{{QStringLiteral("code"), QStringLiteral("forbidden")},
                                                          {QStringLiteral("message"), QStringLiteral("Not authorized")},
                                                          {QStringLiteral("invalidToken"), true}}}});
        return false;
    }
    if (request.queryValue(QStringLiteral("teamId")).isEmpty()) {
        error(responder, 400, QStringLiteral("bad_request"),
              QStringLiteral("Missing required query parameter: teamId"));
        return false;
    }
    return true;
}

SandboxPtr Context::sandbox(const QString &teamId, const QString &name) const
{
    return sandboxes.value(teamId + QLatin1Char('\n') + name);
}

Sandbox *Context::kitSandbox(const SandboxRecord &record) const
{
    return host.find(record.kitId);
}

SessionPtr Context::sessionFor(const Request &request, Responder *responder) const
{
    const QString id = request.param(QStringLiteral("sessionId"));
    SessionPtr session = sessions.value(id);
    if (!session || session->teamId != request.queryValue(QStringLiteral("teamId"))) {
        error(responder, 404, QStringLiteral("not_found"), QStringLiteral("Session not found: %1").arg(id));
        return nullptr;
    }
    return session;
}

SessionPtr Context::runningSession(const Request &request, Responder *responder) const
{
    SessionPtr session = sessionFor(request, responder);
    if (session && session->status != running()) {
        // 410 is what the SDK's auto-resume waits for.
        error(responder, 410, QStringLiteral("sandbox_stopped"),
              QStringLiteral("The sandbox session %1 is %2").arg(session->id, session->status));
        return nullptr;
    }
    return session;
}

SessionPtr Context::startSession(SandboxRecord &record)
{
    // A persistent sandbox goes on from its latest snapshot; any other starts again from what it
    // was created from (its folder was emptied when its last session stopped).
    const QString restoreFrom =
        record.persistent && !record.currentSnapshotId.isEmpty() ? record.currentSnapshotId : record.sourceSnapshotId;
    if (!restoreFrom.isEmpty() && restoreFrom != record.folderSnapshotId)
        restoreSnapshot(record, restoreFrom);
    record.folderSnapshotId.clear(); // the session's commands change the files from now on
    const qint64 now = nowMs();
    auto session = std::make_shared<SessionRecord>();
    session->id = newId(QStringLiteral("sbx"));
    session->sandboxName = record.name;
    session->teamId = record.teamId;
    session->vcpus = record.vcpus;
    session->memory = record.memory;
    session->region = record.region;
    session->runtime = record.runtime;
    session->timeout = record.timeout;
    session->requestedAt = session->startedAt = session->createdAt = session->updatedAt = now;
    session->sourceSnapshotId = restoreFrom;
    session->networkPolicy = record.networkPolicy;
    sessions.insert(session->id, session);
    record.currentSessionId = session->id;
    record.sessionIds.append(session->id);
    record.statusUpdatedAt = now;
    if (Sandbox *kit = kitSandbox(record)) {
        kit->setState(running());
        kit->data.insert(QStringLiteral("sessionId"), session->id);
        kit->log(QStringLiteral("info"), QStringLiteral("session %1 started").arg(session->id));
    }
    return session;
}

SnapshotPtr Context::stopSession(SessionRecord &session, bool autoSnapshot)
{
    if (session.status != running())
        return nullptr;
    sampleCpu(session);
    if (closePtys)
        closePtys(session);
    const SandboxPtr record = sandbox(session.teamId, session.sandboxName);
    Sandbox *kit = record ? kitSandbox(*record) : nullptr;
    if (kit) {
        const QList<SandboxProcess *> processes = kit->processes();
        for (SandboxProcess *process : processes)
            process->sendSignal(SIGKILL);
    }
    const qint64 now = nowMs();
    session.status = QStringLiteral("stopped");
    session.requestedStopAt = session.stoppedAt = session.updatedAt = now;
    session.tokens.clear();
    if (!record)
        return nullptr;
    record->statusUpdatedAt = now;
    if (kit) {
        kit->setState(QStringLiteral("stopped"));
        kit->log(QStringLiteral("info"), QStringLiteral("session %1 stopped").arg(session.id));
    }
    if (!autoSnapshot)
        return nullptr;
    if (record->persistent)
        return takeSnapshot(session, *record, QStringLiteral("auto"), std::nullopt);
    wipeFiles(*record);
    return nullptr;
}

SnapshotPtr Context::takeSnapshot(SessionRecord &session, SandboxRecord &record, const QString &method,
                                  std::optional<qint64> expiration)
{
    const qint64 now = nowMs();
    auto snapshot = std::make_shared<SnapshotRecord>();
    snapshot->id = newId(QStringLiteral("snap"));
    snapshot->sourceSessionId = session.id;
    snapshot->sandboxName = record.name;
    snapshot->teamId = record.teamId;
    snapshot->projectId = record.projectId;
    snapshot->region = record.region;
    snapshot->createdAt = snapshot->updatedAt = now;
    snapshot->creationMethod = method;
    snapshot->parentId = record.currentSnapshotId;
    snapshot->folder = host.baseDir() + QStringLiteral("/vercel-snapshots/") + snapshot->id;
    if (Sandbox *kit = kitSandbox(record))
        snapshot->sizeBytes = copyTree(kit->root(), snapshot->folder);
    qint64 lifetime = kDefaultSnapshotExpirationMs;
    if (expiration)
        lifetime = *expiration;
    else if (record.snapshotExpiration.isDouble())
        lifetime = qint64(record.snapshotExpiration.toDouble());
    if (lifetime > 0)
        snapshot->expiresAt = now + lifetime;
    snapshots.insert(snapshot->id, snapshot);
    record.currentSnapshotId = record.folderSnapshotId = snapshot->id;
    record.updatedAt = now;
    // keepLastSnapshots: only the newest `count` stay; with deleteEvicted the older ones go.
    const QJsonObject keep = record.keepLastSnapshots.toObject();
    if (keep.value(QStringLiteral("deleteEvicted")).toBool()) {
        QList<SnapshotPtr> own;
        for (const SnapshotPtr &s : std::as_const(snapshots)) {
            if (s->teamId == record.teamId && s->sandboxName == record.name && s->status == QLatin1String("created"))
                own.append(s);
        }
        std::sort(own.begin(), own.end(), [](const SnapshotPtr &a, const SnapshotPtr &b) {
            return a->createdAt != b->createdAt ? a->createdAt > b->createdAt : a->id > b->id;
        });
        const int count = keep.value(QStringLiteral("count")).toInt(1);
        for (qsizetype i = count; i < own.size(); ++i) {
            if (own.at(i)->id != snapshot->id)
                deleteSnapshot(*own.at(i));
        }
    }
    return snapshot;
}

SnapshotPtr Context::snapshotSession(SessionRecord &session, std::optional<qint64> expiration)
{
    const SandboxPtr record = sandbox(session.teamId, session.sandboxName);
    if (!record || session.status != running())
        return nullptr;
    // Snapshotting stops the session: its processes end first, so the files hold still.
    stopSession(session, false);
    const SnapshotPtr snapshot = takeSnapshot(session, *record, QStringLiteral("manual"), expiration);
    session.snapshottedAt = snapshot->createdAt;
    if (!record->persistent)
        wipeFiles(*record);
    return snapshot;
}

bool Context::restoreSnapshot(SandboxRecord &record, const QString &snapshotId)
{
    const SnapshotPtr snapshot = snapshots.value(snapshotId);
    Sandbox *kit = kitSandbox(record);
    if (!snapshot || snapshot->status != QLatin1String("created") || !kit)
        return false;
    clearFolder(kit->homeDir());
    clearFolder(kit->tmpDir());
    copyTree(snapshot->folder, kit->root());
    snapshot->lastUsedAt = nowMs();
    record.folderSnapshotId = snapshotId;
    return true;
}

void Context::wipeFiles(const SandboxRecord &record)
{
    if (Sandbox *kit = kitSandbox(record)) {
        clearFolder(kit->homeDir());
        clearFolder(kit->tmpDir());
    }
}

void Context::copyFiles(const SandboxRecord &from, const SandboxRecord &to)
{
    Sandbox *source = kitSandbox(from);
    Sandbox *target = kitSandbox(to);
    if (source && target)
        copyTree(source->root(), target->root());
}

void Context::deleteSandbox(SandboxRecord &record, bool deleteOrphanSnapshots)
{
    if (const SessionPtr current = sessions.value(record.currentSessionId))
        stopSession(*current, false);
    for (const QString &id : std::as_const(record.sessionIds)) {
        const SessionPtr session = sessions.take(id);
        if (!session)
            continue;
        for (const QPointer<Command> &command : std::as_const(session->commands)) {
            if (!command)
                continue;
            // The process goes with the sandbox's folder: its waiters hear the kill now.
            command->abandon();
            command->deleteLater();
        }
    }
    if (deleteOrphanSnapshots) {
        const QList<SnapshotPtr> all = snapshots.values();
        for (const SnapshotPtr &s : all) {
            if (s->teamId == record.teamId && s->sandboxName == record.name)
                deleteSnapshot(*s);
        }
    }
    host.kill(record.kitId);
    sandboxes.remove(record.teamId + QLatin1Char('\n') + record.name);
}

void Context::deleteSnapshot(SnapshotRecord &snapshot)
{
    if (snapshot.status == QLatin1String("deleted"))
        return;
    snapshot.status = QStringLiteral("deleted");
    snapshot.updatedAt = nowMs();
    QDir(snapshot.folder).removeRecursively();
}

void Context::sampleCpu(SessionRecord &session)
{
    const SandboxPtr record = sandbox(session.teamId, session.sandboxName);
    Sandbox *kit = record ? kitSandbox(*record) : nullptr;
    if (!kit)
        return;
    const QList<SandboxProcess *> processes = kit->processes();
    for (SandboxProcess *process : processes) {
        QList<qint64> pids = ProcTree::descendants(process->pid());
        pids.prepend(process->pid());
        for (qint64 pid : std::as_const(pids)) {
            const qint64 ticks = ProcTree::stat(pid).cpuTicks;
            qint64 &seen = session.cpuTicks[pid];
            seen = qMax(seen, ticks);
        }
    }
}

void Context::tick()
{
    const qint64 now = nowMs();
    const QList<SessionPtr> all = sessions.values();
    for (const SessionPtr &session : all) {
        if (session->status != running())
            continue;
        sampleCpu(*session);
        if (now >= session->startedAt + session->timeout) {
            // The session's timeout is a hard stop, as on the service (extend-timeout moves it).
            stopSession(*session);
        }
    }
    const QList<SnapshotPtr> snaps = snapshots.values();
    for (const SnapshotPtr &snapshot : snaps) {
        if (snapshot->expiresAt > 0 && now >= snapshot->expiresAt)
            deleteSnapshot(*snapshot);
    }
}

QString Context::absolutePath(const QString &path, const QString &cwd)
{
    if (path.startsWith(QLatin1Char('/')))
        return QDir::cleanPath(path);
    QString base = cwd;
    if (!base.startsWith(QLatin1Char('/')))
        base = QString(QLatin1String(kCwd) + QLatin1Char('/') + cwd);
    return QDir::cleanPath(QString(base + QLatin1Char('/') + path));
}

sandbar::Result<QString> Context::kitPath(const QString &apiPath, const QString &cwd)
{
    if (apiPath.isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("path must not be empty"));
    if (apiPath.contains(QChar(0)) || cwd.contains(QChar(0)))
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("invalid path"));
    const QString path = absolutePath(apiPath, cwd);
    const QString root = QLatin1String(kCwd);
    if (path == root || path.startsWith(QString(root + QLatin1Char('/'))))
        return QString(kKitHome + path.mid(root.size()));
    if (path == QLatin1String("/tmp") || path.startsWith(QLatin1String("/tmp/")))
        return path;
    return makeError(
        ErrorCode::Unauthorized,
        QStringLiteral("%1 is outside %2 and /tmp, the folders the contract server serves").arg(path, root));
}

sandbar::Result<QString> Context::hostPath(const SessionRecord &session, const QString &apiPath,
                                           const QString &cwd) const
{
    const auto kit = kitPath(apiPath, cwd);
    if (!kit)
        return kit.error();
    const SandboxPtr record = sandbox(session.teamId, session.sandboxName);
    Sandbox *folder = record ? kitSandbox(*record) : nullptr;
    if (!folder)
        return makeError(ErrorCode::NotFound, QStringLiteral("the sandbox is gone"));
    auto mapped = folder->mapPath(*kit);
    if (!mapped) // in the API's terms, not the kit's
        return makeError(mapped.code(), QString(mapped.message()).replace(kKitHome, QLatin1String(kCwd)));
    return mapped;
}

QJsonObject Context::sessionJson(SessionRecord &s)
{
    if (s.status == running())
        sampleCpu(s);
    qint64 ticks = 0;
    for (auto it = s.cpuTicks.cbegin(); it != s.cpuTicks.cend(); ++it)
        ticks += it.value();
    QJsonObject o{{QStringLiteral("id"), s.id},
                  {QStringLiteral("memory"), s.memory},
                  {QStringLiteral("vcpus"), s.vcpus},
                  {QStringLiteral("region"), s.region},
                  {QStringLiteral("timeout"), s.timeout},
                  {QStringLiteral("status"), s.status},
                  {QStringLiteral("requestedAt"), s.requestedAt},
                  {QStringLiteral("startedAt"), s.startedAt},
                  {QStringLiteral("createdAt"), s.createdAt},
                  {QStringLiteral("cwd"), QLatin1String(kCwd)},
                  {QStringLiteral("updatedAt"), s.updatedAt},
                  {QStringLiteral("activeCpuDurationMs"), ticks * 1000 / ProcTree::ticksPerSecond() + s.startupCpuMs},
                  {QStringLiteral("networkTransfer"),
                   QJsonObject{{QStringLiteral("ingress"), s.ingress}, {QStringLiteral("egress"), s.egress}}}};
    if (!s.runtime.isEmpty())
        o.insert(QStringLiteral("runtime"), s.runtime);
    if (s.requestedStopAt > 0)
        o.insert(QStringLiteral("requestedStopAt"), s.requestedStopAt);
    if (s.stoppedAt > 0) {
        o.insert(QStringLiteral("stoppedAt"), s.stoppedAt);
        o.insert(QStringLiteral("duration"), s.stoppedAt - s.startedAt);
    }
    if (!s.sourceSnapshotId.isEmpty())
        o.insert(QStringLiteral("sourceSnapshotId"), s.sourceSnapshotId);
    if (s.snapshottedAt > 0)
        o.insert(QStringLiteral("snapshottedAt"), s.snapshottedAt);
    if (!s.networkPolicy.isEmpty())
        o.insert(QStringLiteral("networkPolicy"), s.networkPolicy);
    return o;
}

QJsonObject Context::sandboxJson(const SandboxRecord &r)
{
    const SessionPtr current = sessions.value(r.currentSessionId);
    qint64 egress = 0;
    qint64 ingress = 0;
    qint64 cpu = 0;
    qint64 duration = 0;
    for (const QString &id : r.sessionIds) {
        if (const SessionPtr s = sessions.value(id)) {
            const QJsonObject json = sessionJson(*s);
            egress += s->egress;
            ingress += s->ingress;
            cpu += json.value(QStringLiteral("activeCpuDurationMs")).toInteger();
            duration += (s->stoppedAt > 0 ? s->stoppedAt : nowMs()) - s->startedAt;
        }
    }
    QJsonObject o{{QStringLiteral("name"), r.name},
                  {QStringLiteral("persistent"), r.persistent},
                  {QStringLiteral("region"), r.region},
                  {QStringLiteral("vcpus"), r.vcpus},
                  {QStringLiteral("memory"), r.memory},
                  {QStringLiteral("timeout"), r.timeout},
                  {QStringLiteral("totalEgressBytes"), egress},
                  {QStringLiteral("totalIngressBytes"), ingress},
                  {QStringLiteral("totalActiveCpuDurationMs"), cpu},
                  {QStringLiteral("totalDurationMs"), duration},
                  {QStringLiteral("createdAt"), r.createdAt},
                  {QStringLiteral("updatedAt"), r.updatedAt},
                  {QStringLiteral("currentSessionId"), r.currentSessionId},
                  {QStringLiteral("status"), current ? current->status : QStringLiteral("stopped")},
                  {QStringLiteral("statusUpdatedAt"), r.statusUpdatedAt},
                  {QStringLiteral("cwd"), QLatin1String(kCwd)}};
    if (!r.networkPolicy.isEmpty())
        o.insert(QStringLiteral("networkPolicy"), r.networkPolicy);
    if (!r.runtime.isEmpty())
        o.insert(QStringLiteral("runtime"), r.runtime);
    if (!r.image.isEmpty())
        o.insert(QStringLiteral("image"), r.image);
    if (!r.currentSnapshotId.isEmpty())
        o.insert(QStringLiteral("currentSnapshotId"), r.currentSnapshotId);
    if (!r.tags.isEmpty())
        o.insert(QStringLiteral("tags"), r.tags);
    if (!r.networkId.isEmpty())
        o.insert(QStringLiteral("networkId"), r.networkId);
    if (!r.snapshotExpiration.isUndefined() && !r.snapshotExpiration.isNull())
        o.insert(QStringLiteral("snapshotExpiration"), r.snapshotExpiration);
    if (r.keepLastSnapshots.isObject())
        o.insert(QStringLiteral("keepLastSnapshots"), r.keepLastSnapshots);
    if (r.failoverRegions.isArray())
        o.insert(QStringLiteral("failoverRegions"), r.failoverRegions);
    return o;
}

QJsonArray Context::routesJson(const SandboxRecord &record) const
{
    // The service serves a port at https://<subdomain>.vercel.run; here the URL points at this
    // server (whose /route/... answers that the sandbox's network is not reachable from outside).
    QString slug;
    for (const QChar c : record.name.toLower())
        slug += (c.isLetterOrNumber() && c.unicode() < 128) ? c : QLatin1Char('-');
    QJsonArray routes;
    for (int port : record.ports) {
        routes.append(QJsonObject{
            {QStringLiteral("port"), port},
            {QStringLiteral("subdomain"), QStringLiteral("%1-%2").arg(slug).arg(port)},
            {QStringLiteral("url"), QStringLiteral("%1/route/%2/%3").arg(baseUrl, record.currentSessionId).arg(port)}});
    }
    return routes;
}

QJsonObject Context::snapshotJson(const SnapshotRecord &s)
{
    QJsonObject o{{QStringLiteral("id"), s.id},
                  {QStringLiteral("sourceSessionId"), s.sourceSessionId},
                  {QStringLiteral("region"), s.region},
                  {QStringLiteral("regions"), QJsonArray{s.region}},
                  {QStringLiteral("status"), s.status},
                  {QStringLiteral("sizeBytes"), s.sizeBytes},
                  {QStringLiteral("createdAt"), s.createdAt},
                  {QStringLiteral("updatedAt"), s.updatedAt},
                  {QStringLiteral("creationMethod"), s.creationMethod}};
    if (s.expiresAt > 0)
        o.insert(QStringLiteral("expiresAt"), s.expiresAt);
    if (s.lastUsedAt > 0)
        o.insert(QStringLiteral("lastUsedAt"), s.lastUsedAt);
    if (!s.parentId.isEmpty())
        o.insert(QStringLiteral("parentId"), s.parentId);
    return o;
}

QJsonObject Context::fullJson(SandboxRecord &record, bool resumed)
{
    const SessionPtr session = sessions.value(record.currentSessionId);
    return QJsonObject{{QStringLiteral("sandbox"), sandboxJson(record)},
                       {QStringLiteral("session"), session ? sessionJson(*session) : QJsonObject()},
                       {QStringLiteral("routes"), routesJson(record)},
                       {QStringLiteral("resumed"), resumed}};
}

QJsonValue responsePolicy(const QJsonValue &request)
{
    if (request.isString()) {
        const QString mode = request.toString();
        if (mode == QLatin1String("allow-all") || mode == QLatin1String("deny-all"))
            return QJsonObject{{QStringLiteral("mode"), mode}};
        return QJsonValue::Null;
    }
    if (!request.isObject())
        return QJsonValue::Null;
    const QJsonObject o = request.toObject();
    const QString mode = o.value(QStringLiteral("mode")).toString();
    if (mode == QLatin1String("allow-all") || mode == QLatin1String("deny-all") || mode == QLatin1String("custom"))
        return o;
    if (o.contains(QStringLiteral("mode")))
        return QJsonValue::Null;
    // The request's {allow, subnets} comes back in the response's older "custom" form.
    QJsonObject out{{QStringLiteral("mode"), QStringLiteral("custom")}};
    const QJsonValue allow = o.value(QStringLiteral("allow"));
    if (allow.isArray()) {
        out.insert(QStringLiteral("allowedDomains"), allow);
    } else if (allow.isObject()) {
        out.insert(QStringLiteral("allowedDomains"), QJsonArray::fromStringList(allow.toObject().keys()));
    } else if (!allow.isUndefined()) {
        return QJsonValue::Null;
    }
    const QJsonObject subnets = o.value(QStringLiteral("subnets")).toObject();
    if (subnets.value(QStringLiteral("allow")).isArray())
        out.insert(QStringLiteral("allowedCIDRs"), subnets.value(QStringLiteral("allow")));
    if (subnets.value(QStringLiteral("deny")).isArray())
        out.insert(QStringLiteral("deniedCIDRs"), subnets.value(QStringLiteral("deny")));
    return out;
}

void answerPage(const Request &request, Responder *responder, QList<Listed> items, const QString &itemsKey)
{
    const QString order = request.queryValue(QStringLiteral("sortOrder"));
    if (!order.isEmpty() && order != QLatin1String("asc") && order != QLatin1String("desc")) {
        Context::error(responder, 400, QStringLiteral("bad_request"), QStringLiteral("sortOrder must be asc or desc"));
        return;
    }
    const QString limitText = request.queryValue(QStringLiteral("limit"));
    bool ok = true;
    const int limit = limitText.isEmpty() ? 50 : limitText.toInt(&ok);
    if (!ok || limit < 1 || limit > 100) {
        Context::error(responder, 400, QStringLiteral("bad_request"),
                       QStringLiteral("limit must be between 1 and 100"));
        return;
    }
    const bool ascending = order == QLatin1String("asc");
    // True when `a` comes before `b` in the order asked for.
    const auto before = [ascending](qint64 aKey, const QString &aTie, qint64 bKey, const QString &bTie) {
        const bool less = aKey != bKey ? aKey < bKey : aTie < bTie;
        const bool greater = aKey != bKey ? aKey > bKey : aTie > bTie;
        return ascending ? less : greater;
    };
    std::sort(items.begin(), items.end(),
              [&before](const Listed &a, const Listed &b) { return before(a.key, a.tie, b.key, b.tie); });
    qsizetype start = 0;
    const QString cursor = request.queryValue(QStringLiteral("cursor"));
    if (!cursor.isEmpty()) {
        // The cursor names the last item of the previous page (keyset paging): a page neither
        // repeats nor skips an item when others come or go in between.
        const QString decoded =
            QString::fromUtf8(QByteArray::fromBase64(cursor.toLatin1(), QByteArray::Base64UrlEncoding));
        const qsizetype newline = decoded.indexOf(QLatin1Char('\n'));
        const qint64 key = decoded.left(newline).toLongLong(&ok);
        if (newline < 0 || !ok) {
            Context::error(responder, 400, QStringLiteral("bad_request"), QStringLiteral("Invalid cursor"));
            return;
        }
        const QString tie = decoded.mid(newline + 1);
        while (start < items.size() && !before(key, tie, items.at(start).key, items.at(start).tie))
            ++start;
    }
    QJsonArray page;
    for (qsizetype i = start; i < items.size() && i < start + limit; ++i)
        page.append(items.at(i).item);
    QJsonValue next = QJsonValue::Null;
    if (start + limit < items.size()) {
        const Listed &last = items.at(start + limit - 1);
        next = QString::fromLatin1(QString(QString::number(last.key) + QLatin1Char('\n') + last.tie)
                                       .toUtf8()
                                       .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    }
    responder->sendJson(
        200, QJsonObject{{itemsKey, page},
                         {QStringLiteral("pagination"),
                          QJsonObject{{QStringLiteral("count"), page.size()}, {QStringLiteral("next"), next}}}});
}

void routeBoth(Context &context, const QByteArray &method, const QString &path,
               std::function<void(Context &, const Request &, Responder *)> handler, bool streams)
{
    Context *ctx = &context;
    for (const QString &prefix : {QString(), QStringLiteral("/api")}) {
        Route &route =
            context.server.route(method, prefix + path, [ctx, handler](const Request &request, Responder *responder) {
                if (ctx->authorize(request, responder))
                    handler(*ctx, request, responder);
            });
        if (streams)
            route.streams();
    }
}

} // namespace contract::vercel
