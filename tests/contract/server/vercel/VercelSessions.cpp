// Sessions (the runs of a sandbox's VM) and snapshots: get, list, stop, extend-timeout,
// network-policy, snapshot; snapshots get, list and delete.
#include "VercelContext.h"
#include "kit/Server.h"

namespace contract::vercel {

namespace {

QString badRequest()
{
    return QStringLiteral("bad_request");
}

bool isWholeNumber(const QJsonValue &v)
{
    return v.isDouble() && v.toDouble() == double(qint64(v.toDouble()));
}

void getSession(Context &ctx, const Request &request, Responder *responder)
{
    const SessionPtr session = ctx.sessionFor(request, responder);
    if (!session)
        return;
    const SandboxPtr record = ctx.sandbox(session->teamId, session->sandboxName);
    responder->sendJson(200, QJsonObject{{QStringLiteral("session"), ctx.sessionJson(*session)},
                                         {QStringLiteral("routes"), record ? ctx.routesJson(*record) : QJsonArray()}});
}

// GET /v2/sandboxes/sessions?project=&name=<sandbox>&limit=&cursor=&sortOrder=
void listSessions(Context &ctx, const Request &request, Responder *responder)
{
    const QString teamId = request.queryValue(QStringLiteral("teamId"));
    const QString project = request.queryValue(QStringLiteral("project"));
    const QString name = request.queryValue(QStringLiteral("name"));
    QList<Listed> items;
    for (const SessionPtr &session : std::as_const(ctx.sessions)) {
        const SandboxPtr record = ctx.sandbox(session->teamId, session->sandboxName);
        if (session->teamId != teamId || (!name.isEmpty() && session->sandboxName != name) ||
            (!project.isEmpty() && (!record || record->projectId != project)))
            continue;
        items.append({session->createdAt, session->id, ctx.sessionJson(*session)});
    }
    answerPage(request, responder, items, QStringLiteral("sessions"));
}

void stop(Context &ctx, const Request &request, Responder *responder)
{
    const SessionPtr session = ctx.sessionFor(request, responder);
    if (!session)
        return;
    // Stopping a stopped session answers its state again.
    const SnapshotPtr snapshot = ctx.stopSession(*session);
    QJsonObject reply{{QStringLiteral("session"), ctx.sessionJson(*session)}};
    if (const SandboxPtr record = ctx.sandbox(session->teamId, session->sandboxName))
        reply.insert(QStringLiteral("sandbox"), ctx.sandboxJson(*record));
    if (snapshot)
        reply.insert(QStringLiteral("snapshot"), Context::snapshotJson(*snapshot));
    responder->sendJson(200, reply);
}

void extendTimeout(Context &ctx, const Request &request, Responder *responder)
{
    const SessionPtr session = ctx.runningSession(request, responder);
    QJsonObject body;
    if (!session || !Context::jsonBody(request, responder, &body))
        return;
    const QJsonValue duration = body.value(QStringLiteral("duration"));
    if (!isWholeNumber(duration) || duration.toDouble() < 1) {
        Context::error(responder, 400, badRequest(),
                       QStringLiteral("duration must be a positive number of milliseconds"));
        return;
    }
    const qint64 total = session->timeout + qint64(duration.toDouble());
    if (total > kMaxTimeoutMs) {
        Context::error(
            responder, 400, badRequest(),
            QStringLiteral("The timeout would be %1 ms, over the maximum of %2 ms").arg(total).arg(kMaxTimeoutMs));
        return;
    }
    session->timeout = total; // still measured from the session's start
    session->updatedAt = Context::nowMs();
    responder->sendJson(200, QJsonObject{{QStringLiteral("session"), ctx.sessionJson(*session)}});
}

void networkPolicy(Context &ctx, const Request &request, Responder *responder)
{
    const SessionPtr session = ctx.runningSession(request, responder);
    QJsonObject body;
    if (!session || !Context::jsonBody(request, responder, &body))
        return;
    const QJsonValue policy = responsePolicy(body);
    if (!policy.isObject()) {
        Context::error(responder, 400, badRequest(), QStringLiteral("The body is not a valid network policy"));
        return;
    }
    session->networkPolicy = policy.toObject();
    session->updatedAt = Context::nowMs();
    if (const SandboxPtr record = ctx.sandbox(session->teamId, session->sandboxName)) {
        record->networkPolicy = session->networkPolicy;
        record->updatedAt = session->updatedAt;
    }
    responder->sendJson(200, QJsonObject{{QStringLiteral("session"), ctx.sessionJson(*session)}});
}

void snapshot(Context &ctx, const Request &request, Responder *responder)
{
    const SessionPtr session = ctx.runningSession(request, responder);
    QJsonObject body;
    if (!session || !Context::jsonBody(request, responder, &body))
        return;
    const QJsonValue expiration = body.value(QStringLiteral("expiration"));
    if (!expiration.isUndefined() && (!isWholeNumber(expiration) || expiration.toDouble() < 0)) {
        Context::error(responder, 400, badRequest(),
                       QStringLiteral("expiration must be a number of milliseconds (0: never)"));
        return;
    }
    const SnapshotPtr snapshot = ctx.snapshotSession(
        *session, expiration.isUndefined() ? std::nullopt : std::optional<qint64>(qint64(expiration.toDouble())));
    if (!snapshot) {
        Context::error(responder, 404, QStringLiteral("not_found"), QStringLiteral("The sandbox is gone"));
        return;
    }
    responder->sendJson(200, QJsonObject{{QStringLiteral("snapshot"), Context::snapshotJson(*snapshot)},
                                         {QStringLiteral("session"), ctx.sessionJson(*session)}});
}

SnapshotPtr snapshotFor(Context &ctx, const Request &request, Responder *responder)
{
    const QString id = request.param(QStringLiteral("snapshotId"));
    SnapshotPtr snapshot = ctx.snapshots.value(id);
    if (!snapshot || snapshot->teamId != request.queryValue(QStringLiteral("teamId"))) {
        Context::error(responder, 404, QStringLiteral("not_found"), QStringLiteral("Snapshot not found: %1").arg(id));
        return nullptr;
    }
    return snapshot;
}

// GET /v2/sandboxes/snapshots?project=&name=<sandbox>&limit=&cursor=&sortOrder=
void listSnapshots(Context &ctx, const Request &request, Responder *responder)
{
    const QString teamId = request.queryValue(QStringLiteral("teamId"));
    const QString project = request.queryValue(QStringLiteral("project"));
    const QString name = request.queryValue(QStringLiteral("name"));
    QList<Listed> items;
    for (const SnapshotPtr &s : std::as_const(ctx.snapshots)) {
        if (s->teamId != teamId || s->status == QLatin1String("deleted") ||
            (!name.isEmpty() && s->sandboxName != name) || (!project.isEmpty() && s->projectId != project))
            continue;
        items.append({s->createdAt, s->id, Context::snapshotJson(*s)});
    }
    answerPage(request, responder, items, QStringLiteral("snapshots"));
}

} // namespace

void installSessions(Context &context)
{
    const QString session = QStringLiteral("/v2/sandboxes/sessions/{sessionId}");
    routeBoth(context, "GET", QStringLiteral("/v2/sandboxes/sessions"), listSessions);
    routeBoth(context, "GET", session, getSession);
    routeBoth(context, "POST", session + QStringLiteral("/stop"), stop);
    routeBoth(context, "POST", session + QStringLiteral("/extend-timeout"), extendTimeout);
    routeBoth(context, "POST", session + QStringLiteral("/network-policy"), networkPolicy);
    routeBoth(context, "POST", session + QStringLiteral("/snapshot"), snapshot);
    routeBoth(context, "GET", QStringLiteral("/v2/sandboxes/snapshots"), listSnapshots);
    routeBoth(context, "GET", QStringLiteral("/v2/sandboxes/snapshots/{snapshotId}"),
              [](Context &ctx, const Request &request, Responder *responder) {
                  if (const SnapshotPtr s = snapshotFor(ctx, request, responder))
                      responder->sendJson(200, QJsonObject{{QStringLiteral("snapshot"), Context::snapshotJson(*s)}});
              });
    routeBoth(context, "DELETE", QStringLiteral("/v2/sandboxes/snapshots/{snapshotId}"),
              [](Context &ctx, const Request &request, Responder *responder) {
                  if (const SnapshotPtr s = snapshotFor(ctx, request, responder)) {
                      ctx.deleteSnapshot(*s);
                      responder->sendJson(200, QJsonObject{{QStringLiteral("snapshot"), Context::snapshotJson(*s)}});
                  }
              });
}

} // namespace contract::vercel
