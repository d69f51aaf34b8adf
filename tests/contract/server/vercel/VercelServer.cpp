// Vercel Sandbox's control plane: named sandboxes (create, list, get/resume, update, delete,
// fork), as @vercel/sandbox 3.5.0 calls them; every sandbox's files are a kit Sandbox's folder.
#include "VercelServer.h"

#include "VercelContext.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QRandomGenerator>
#include <QRegularExpression>

namespace contract::vercel {

namespace {

constexpr int kMaxTags = 5;
constexpr int kMaxPorts = 4;
constexpr int kMaxVcpus = 8;

QString badRequest()
{
    return QStringLiteral("bad_request");
}

bool isInteger(const QJsonValue &v)
{
    return v.isDouble() && v.toDouble() == double(qint64(v.toDouble()));
}

bool isStringMap(const QJsonValue &v)
{
    if (!v.isObject())
        return false;
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it.value().isString())
            return false;
    }
    return true;
}

QString validateName(const QJsonValue &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}$"));
    if (name.isUndefined())
        return {};
    if (!name.isString() || !pattern.match(name.toString()).hasMatch())
        return QStringLiteral("name must be 1 to 128 letters, digits, '.', '_' or '-'");
    return {};
}

QString validatePorts(const QJsonValue &ports)
{
    if (ports.isUndefined())
        return {};
    const QJsonArray list = ports.toArray();
    if (!ports.isArray() || list.size() > kMaxPorts)
        return QStringLiteral("ports must be an array of at most %1 port numbers").arg(kMaxPorts);
    for (const QJsonValue &port : list) {
        if (!isInteger(port) || port.toInt() < 1 || port.toInt() > 65535)
            return QStringLiteral("ports must hold port numbers between 1 and 65535");
    }
    return {};
}

// The fields create, fork and update share; an empty string when they are fine.
QString validateConfig(const QJsonObject &body)
{
    if (QString problem = validateName(body.value(QStringLiteral("name"))); !problem.isEmpty())
        return problem;
    if (QString problem = validatePorts(body.value(QStringLiteral("ports"))); !problem.isEmpty())
        return problem;
    const QJsonValue timeout = body.value(QStringLiteral("timeout"));
    if (!timeout.isUndefined() && (!isInteger(timeout) || timeout.toDouble() < 1 || timeout.toDouble() > kMaxTimeoutMs))
        return QStringLiteral("timeout must be a number of milliseconds between 1 and %1").arg(kMaxTimeoutMs);
    const QJsonValue resources = body.value(QStringLiteral("resources"));
    const QJsonValue vcpus = resources.toObject().value(QStringLiteral("vcpus"));
    if (!resources.isUndefined() &&
        (!resources.isObject() || !isInteger(vcpus) || vcpus.toInt() < 1 || vcpus.toInt() > kMaxVcpus))
        return QStringLiteral("resources.vcpus must be a whole number between 1 and %1").arg(kMaxVcpus);
    if (!body.value(QStringLiteral("persistent")).isUndefined() && !body.value(QStringLiteral("persistent")).isBool())
        return QStringLiteral("persistent must be a boolean");
    const QJsonValue policy = body.value(QStringLiteral("networkPolicy"));
    if (!policy.isUndefined() && responsePolicy(policy).isNull())
        return QStringLiteral("networkPolicy is not a valid network policy");
    if (!body.value(QStringLiteral("env")).isUndefined() && !isStringMap(body.value(QStringLiteral("env"))))
        return QStringLiteral("env must be an object of strings");
    const QJsonValue tags = body.value(QStringLiteral("tags"));
    if (!tags.isUndefined() && (!isStringMap(tags) || tags.toObject().size() > kMaxTags))
        return QStringLiteral("tags must be an object of at most %1 strings").arg(kMaxTags);
    const QJsonValue expiration = body.value(QStringLiteral("snapshotExpiration"));
    if (!expiration.isUndefined() && (!isInteger(expiration) || expiration.toDouble() < 0))
        return QStringLiteral("snapshotExpiration must be a number of milliseconds (0: never)");
    const QJsonValue keep = body.value(QStringLiteral("keepLastSnapshots"));
    const QJsonValue count = keep.toObject().value(QStringLiteral("count"));
    if (!keep.isUndefined() && !keep.isNull() &&
        (!keep.isObject() || !isInteger(count) || count.toInt() < 1 || count.toInt() > 10))
        return QStringLiteral("keepLastSnapshots.count must be between 1 and 10");
    for (const char *field : {"region", "runtime", "image"}) {
        const QJsonValue v = body.value(QLatin1String(field));
        if (!v.isUndefined() && !v.isString())
            return QStringLiteral("%1 must be a string").arg(QLatin1String(field));
    }
    if (body.contains(QStringLiteral("runtime")) && body.contains(QStringLiteral("image")))
        return QStringLiteral("runtime and image cannot be used together");
    return {};
}

// Applies the shared fields of a (validated) body to a sandbox.
void applyConfig(SandboxRecord &r, const QJsonObject &body)
{
    if (body.value(QStringLiteral("ports")).isArray()) {
        r.ports.clear();
        for (const QJsonValue &port : body.value(QStringLiteral("ports")).toArray())
            r.ports.append(port.toInt());
    }
    if (body.contains(QStringLiteral("timeout")))
        r.timeout = qint64(body.value(QStringLiteral("timeout")).toDouble());
    if (body.contains(QStringLiteral("resources"))) {
        r.vcpus = body.value(QStringLiteral("resources")).toObject().value(QStringLiteral("vcpus")).toInt();
        r.memory = r.vcpus * kMemoryPerVcpu;
    }
    if (body.contains(QStringLiteral("persistent")))
        r.persistent = body.value(QStringLiteral("persistent")).toBool();
    if (body.contains(QStringLiteral("networkPolicy")))
        r.networkPolicy = responsePolicy(body.value(QStringLiteral("networkPolicy"))).toObject();
    if (body.contains(QStringLiteral("env")))
        r.env = body.value(QStringLiteral("env")).toObject();
    if (body.contains(QStringLiteral("tags")))
        r.tags = body.value(QStringLiteral("tags")).toObject();
    if (body.contains(QStringLiteral("snapshotExpiration")))
        r.snapshotExpiration = body.value(QStringLiteral("snapshotExpiration"));
    if (body.contains(QStringLiteral("keepLastSnapshots")))
        r.keepLastSnapshots = body.value(QStringLiteral("keepLastSnapshots"));
    if (body.contains(QStringLiteral("region")))
        r.region = body.value(QStringLiteral("region")).toString();
    if (body.value(QStringLiteral("failoverRegions")).isArray())
        r.failoverRegions = body.value(QStringLiteral("failoverRegions"));
    if (body.contains(QStringLiteral("networkId")))
        r.networkId = body.value(QStringLiteral("networkId")).toString(); // null clears it
    if (body.contains(QStringLiteral("runtime"))) {
        r.runtime = body.value(QStringLiteral("runtime")).toString();
        r.image.clear();
    }
    if (body.contains(QStringLiteral("image"))) {
        r.image = body.value(QStringLiteral("image")).toString();
        r.runtime.clear();
    }
}

QString newName()
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    QString name = QStringLiteral("sandbox-");
    for (int i = 0; i < 12; ++i)
        name += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(36)]);
    return name;
}

// The folder of a new sandbox, labelled for GET /_contract/state.
void makeFolder(Context &ctx, SandboxRecord &record)
{
    Sandbox *kit = ctx.host.create();
    record.kitId = kit->id();
    kit->metadata = record.tags;
    kit->data = QJsonObject{{QStringLiteral("name"), record.name},
                            {QStringLiteral("teamId"), record.teamId},
                            {QStringLiteral("projectId"), record.projectId}};
    for (auto it = record.env.begin(); it != record.env.end(); ++it)
        kit->envVars.insert(it.key(), it.value().toString());
}

// The snapshot a create's source names, or an empty string after answering.
std::optional<QString> sourceSnapshot(Context &ctx, const QJsonObject &body, const QString &teamId,
                                      Responder *responder)
{
    const QJsonValue source = body.value(QStringLiteral("source"));
    if (source.isUndefined())
        return QString();
    const QString type = source.toObject().value(QStringLiteral("type")).toString();
    if (type == QLatin1String("snapshot")) {
        const QString id = source.toObject().value(QStringLiteral("snapshotId")).toString();
        const SnapshotPtr snapshot = ctx.snapshots.value(id);
        if (!snapshot || snapshot->teamId != teamId || snapshot->status != QLatin1String("created")) {
            Context::error(responder, 410, QStringLiteral("snapshot_not_found"),
                           QStringLiteral("Snapshot not found: %1").arg(id));
            return std::nullopt;
        }
        return id;
    }
    if (type == QLatin1String("git") || type == QLatin1String("tarball")) {
        // The sandboxes here have no network to fetch a repository or an archive from.
        Context::error(responder, 400, badRequest(),
                       QStringLiteral("source type %1 is not served by the contract server (no network)").arg(type));
        return std::nullopt;
    }
    Context::error(responder, 400, badRequest(), QStringLiteral("source.type must be git, tarball or snapshot"));
    return std::nullopt;
}

void createSandbox(Context &ctx, const Request &request, Responder *responder)
{
    QJsonObject body;
    if (!Context::jsonBody(request, responder, &body))
        return;
    QString problem = validateConfig(body);
    if (problem.isEmpty() && !body.value(QStringLiteral("projectId")).isString())
        problem = QStringLiteral("projectId is required");
    if (!problem.isEmpty()) {
        Context::error(responder, 400, badRequest(), problem);
        return;
    }
    const QString teamId = request.queryValue(QStringLiteral("teamId"));
    const QString name = body.value(QStringLiteral("name")).toString(newName());
    if (ctx.sandbox(teamId, name)) {
        Context::error(responder, 409, QStringLiteral("conflict"),
                       QStringLiteral("A sandbox named %1 already exists").arg(name));
        return;
    }
    const std::optional<QString> snapshotId = sourceSnapshot(ctx, body, teamId, responder);
    if (!snapshotId)
        return;
    auto record = std::make_shared<SandboxRecord>();
    record->name = name;
    record->teamId = teamId;
    record->projectId = body.value(QStringLiteral("projectId")).toString();
    record->region = QLatin1String(kRegion);
    record->networkPolicy = QJsonObject{{QStringLiteral("mode"), QStringLiteral("allow-all")}};
    record->createdAt = record->updatedAt = Context::nowMs();
    record->sourceSnapshotId = *snapshotId;
    applyConfig(*record, body);
    makeFolder(ctx, *record);
    ctx.sandboxes.insert(teamId + QLatin1Char('\n') + name, record);
    ctx.startSession(*record);
    responder->sendJson(200, ctx.fullJson(*record, false));
}

void forkSandbox(Context &ctx, const Request &request, Responder *responder)
{
    const QString teamId = request.queryValue(QStringLiteral("teamId"));
    const SandboxPtr source = ctx.sandbox(teamId, request.param(QStringLiteral("name")));
    QJsonObject body;
    if (!source) {
        Context::error(responder, 404, QStringLiteral("not_found"),
                       QStringLiteral("Sandbox not found: %1").arg(request.param(QStringLiteral("name"))));
        return;
    }
    if (!Context::jsonBody(request, responder, &body))
        return;
    if (const QString problem = validateConfig(body); !problem.isEmpty()) {
        Context::error(responder, 400, badRequest(), problem);
        return;
    }
    const QString name = body.value(QStringLiteral("name")).toString(newName());
    if (ctx.sandbox(teamId, name)) {
        Context::error(responder, 409, QStringLiteral("conflict"),
                       QStringLiteral("A sandbox named %1 already exists").arg(name));
        return;
    }
    // The fork copies the source's configuration (fields of the body win) and its files: from
    // its latest snapshot when it has one, else as they are now.
    auto record = std::make_shared<SandboxRecord>(*source);
    record->name = name;
    record->currentSessionId.clear();
    record->currentSnapshotId.clear();
    record->folderSnapshotId.clear();
    record->sessionIds.clear();
    record->createdAt = record->updatedAt = Context::nowMs();
    const SnapshotPtr latest = ctx.snapshots.value(source->currentSnapshotId);
    record->sourceSnapshotId = latest && latest->status == QLatin1String("created") ? latest->id : QString();
    applyConfig(*record, body);
    makeFolder(ctx, *record);
    if (record->sourceSnapshotId.isEmpty())
        ctx.copyFiles(*source, *record);
    ctx.sandboxes.insert(teamId + QLatin1Char('\n') + name, record);
    ctx.startSession(*record);
    responder->sendJson(200, ctx.fullJson(*record, false));
}

// The sandbox named by {name} in the caller's team (and projectId when given); nullptr after a 404.
SandboxPtr sandboxFor(Context &ctx, const Request &request, Responder *responder)
{
    const QString name = request.param(QStringLiteral("name"));
    SandboxPtr record = ctx.sandbox(request.queryValue(QStringLiteral("teamId")), name);
    const QString project = request.queryValue(QStringLiteral("projectId"));
    if (!record || (!project.isEmpty() && project != record->projectId)) {
        Context::error(responder, 404, QStringLiteral("not_found"), QStringLiteral("Sandbox not found: %1").arg(name));
        return nullptr;
    }
    return record;
}

void getSandbox(Context &ctx, const Request &request, Responder *responder)
{
    const SandboxPtr record = sandboxFor(ctx, request, responder);
    if (!record)
        return;
    const QString resume = request.queryValue(QStringLiteral("resume"));
    if (!resume.isEmpty() && resume != QLatin1String("true") && resume != QLatin1String("false")) {
        Context::error(responder, 400, badRequest(), QStringLiteral("resume must be true or false"));
        return;
    }
    const SessionPtr current = ctx.sessions.value(record->currentSessionId);
    bool resumed = false;
    if (resume == QLatin1String("true") && (!current || current->status != QLatin1String("running"))) {
        ctx.startSession(*record);
        resumed = true;
    }
    responder->sendJson(200, ctx.fullJson(*record, resumed));
}

void updateSandbox(Context &ctx, const Request &request, Responder *responder)
{
    const SandboxPtr record = sandboxFor(ctx, request, responder);
    QJsonObject body;
    if (!record || !Context::jsonBody(request, responder, &body))
        return;
    QString problem = validateConfig(body);
    if (body.contains(QStringLiteral("name")))
        problem = QStringLiteral("name cannot be changed");
    const QString snapshotId = body.value(QStringLiteral("currentSnapshotId")).toString();
    const SnapshotPtr snapshot = ctx.snapshots.value(snapshotId);
    if (!snapshotId.isEmpty() && (!snapshot || snapshot->teamId != record->teamId))
        problem = QStringLiteral("currentSnapshotId names no snapshot of this team");
    if (!problem.isEmpty()) {
        Context::error(responder, 400, badRequest(), problem);
        return;
    }
    // Applies to the next session; the SDK extends a running one's timeout itself, and sends a
    // new network policy to it with POST .../network-policy.
    applyConfig(*record, body);
    if (body.contains(QStringLiteral("resources")))
        record->memory = body.value(QStringLiteral("resources"))
                             .toObject()
                             .value(QStringLiteral("memory"))
                             .toInt(record->vcpus * kMemoryPerVcpu);
    if (!snapshotId.isEmpty())
        record->currentSnapshotId = snapshotId;
    record->updatedAt = Context::nowMs();
    if (Sandbox *kit = ctx.kitSandbox(*record))
        kit->metadata = record->tags;
    QJsonObject reply{{QStringLiteral("sandbox"), ctx.sandboxJson(*record)}};
    if (body.contains(QStringLiteral("ports")))
        reply.insert(QStringLiteral("routes"), ctx.routesJson(*record));
    responder->sendJson(200, reply);
}

void removeSandbox(Context &ctx, const Request &request, Responder *responder)
{
    const SandboxPtr record = sandboxFor(ctx, request, responder);
    if (!record)
        return;
    if (const SessionPtr current = ctx.sessions.value(record->currentSessionId))
        ctx.stopSession(*current, false);
    const QJsonObject reply{{QStringLiteral("sandbox"), ctx.sandboxJson(*record)},
                            {QStringLiteral("routes"), ctx.routesJson(*record)}};
    ctx.deleteSandbox(*record, request.queryValue(QStringLiteral("deleteOrphanSnapshots")) == QLatin1String("true"));
    responder->sendJson(200, reply);
}

// GET /v2/sandboxes?project=&namePrefix=&tags=key:value&sortBy=&sortOrder=&limit=&cursor=
void listSandboxes(Context &ctx, const Request &request, Responder *responder)
{
    const QString sortBy = request.queryValue(QStringLiteral("sortBy"));
    if (!sortBy.isEmpty() && sortBy != QLatin1String("createdAt") && sortBy != QLatin1String("name") &&
        sortBy != QLatin1String("statusUpdatedAt")) {
        Context::error(responder, 400, badRequest(),
                       QStringLiteral("sortBy must be createdAt, name or statusUpdatedAt"));
        return;
    }
    QList<QPair<QString, QString>> tags;
    for (const QString &tag : request.query.allQueryItemValues(QStringLiteral("tags"), QUrl::FullyDecoded)) {
        const qsizetype colon = tag.indexOf(QLatin1Char(':'));
        if (colon <= 0) {
            Context::error(responder, 400, badRequest(), QStringLiteral("tags must be key:value"));
            return;
        }
        tags.append({tag.left(colon), tag.mid(colon + 1)});
    }
    const QString teamId = request.queryValue(QStringLiteral("teamId"));
    const QString project = request.queryValue(QStringLiteral("project"));
    const QString prefix = request.queryValue(QStringLiteral("namePrefix"));
    QList<Listed> items;
    for (const SandboxPtr &record : std::as_const(ctx.sandboxes)) {
        bool keep = record->teamId == teamId && (project.isEmpty() || record->projectId == project) &&
                    record->name.startsWith(prefix);
        for (const auto &[key, value] : std::as_const(tags))
            keep = keep && record->tags.value(key).toString(QStringLiteral("\x01")) == value;
        if (!keep)
            continue;
        const qint64 key = sortBy == QLatin1String("name")              ? 0
                           : sortBy == QLatin1String("statusUpdatedAt") ? record->statusUpdatedAt
                                                                        : record->createdAt;
        items.append({key, record->name, ctx.sandboxJson(*record)});
    }
    answerPage(request, responder, items, QStringLiteral("sandboxes"));
}

} // namespace

void installControlPlane(Context &context)
{
    for (const QString &path : {QStringLiteral("/v3/sandboxes"), QStringLiteral("/v2/sandboxes")})
        routeBoth(context, "POST", path, createSandbox);
    routeBoth(context, "GET", QStringLiteral("/v2/sandboxes"), listSandboxes);
    routeBoth(context, "GET", QStringLiteral("/v2/sandboxes/{name}"), getSandbox);
    routeBoth(context, "PATCH", QStringLiteral("/v2/sandboxes/{name}"), updateSandbox);
    routeBoth(context, "DELETE", QStringLiteral("/v2/sandboxes/{name}"), removeSandbox);
    routeBoth(context, "POST", QStringLiteral("/v2/sandboxes/{name}/fork"), forkSandbox);
}

void install(Server &server, SandboxHost &host, const Options &options)
{
    auto *context = new Context(server, host, options, &server);
    // The session, snapshot, command and file paths first: /v2/sandboxes/{name} would take
    // /v2/sandboxes/sessions and /v2/sandboxes/snapshots otherwise.
    installSessions(*context);
    installCommands(*context);
    installFiles(*context);
    installPty(*context);
    installControlPlane(*context);
    server.setFallback([](const Request &request, Responder *responder) {
        Context::error(responder, 404, QStringLiteral("not_found"),
                       QStringLiteral("No route for %1 %2").arg(QString::fromLatin1(request.method), request.path));
    });
    // Injected faults in Vercel's own shape: {"error":{"code","message"}}.
    server.setErrorBody([](int status, const QString &message) {
        const QString code = status == 429   ? QStringLiteral("rate_limited")
                             : status == 401 ? QStringLiteral("unauthorized")
                             : status == 404 ? QStringLiteral("not_found")
                             : status == 503 ? QStringLiteral("service_unavailable")
                             : status >= 500 ? QStringLiteral("internal_server_error")
                                             : QStringLiteral("bad_request");
        return Context::errorJson(code, message);
    });
    server.setStateExtra([context] {
        QJsonArray sessions;
        for (const SessionPtr &s : std::as_const(context->sessions))
            sessions.append(QJsonObject{{QStringLiteral("id"), s->id},
                                        {QStringLiteral("sandbox"), s->sandboxName},
                                        {QStringLiteral("status"), s->status},
                                        {QStringLiteral("commands"), static_cast<int>(s->commands.size())}});
        return QJsonObject{{QStringLiteral("vercelSessions"), sessions},
                           {QStringLiteral("vercelSnapshots"), static_cast<int>(context->snapshots.size())}};
    });
}

} // namespace contract::vercel
