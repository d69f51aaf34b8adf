// Checkpoints: POST .../checkpoint copies the sprite's files aside and streams its progress as
// NDJSON; .../checkpoints lists them (newest first) and .../checkpoints/{id}/restore ends every
// session and copies the files back, streaming NDJSON too.
#include "SpritesContext.h"
#include "kit/FolderCopy.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QDir>

namespace contract::sprites {

namespace {

QJsonObject line(const QString &type, const QString &text)
{
    return QJsonObject{{QStringLiteral("type"), type},
                       {type == QLatin1String("error") ? QStringLiteral("error") : QStringLiteral("data"), text},
                       {QStringLiteral("time"), Context::iso(QDateTime::currentDateTimeUtc())}};
}

QJsonObject checkpointJson(const CheckpointRecord &checkpoint)
{
    QJsonObject out{{QStringLiteral("id"), checkpoint.id},
                    {QStringLiteral("create_time"), Context::iso(checkpoint.created)},
                    {QStringLiteral("comment"), checkpoint.comment},
                    {QStringLiteral("is_auto"), false}};
    if (!checkpoint.sourceId.isEmpty())
        out.insert(QStringLiteral("source_id"), checkpoint.sourceId);
    return out;
}

// Streams the lines one chunk each (a truncate fault cuts the second in half).
void stream(Responder *responder, const QList<QJsonObject> &lines)
{
    responder->begin(200, {{"Content-Type", "application/x-ndjson"}});
    for (const QJsonObject &l : lines)
        responder->write(Context::ndjson(l));
    responder->end();
}

const CheckpointRecord *findCheckpoint(const SpriteRecord &record, const QString &id)
{
    for (const CheckpointRecord &checkpoint : record.checkpoints) {
        if (checkpoint.id == id)
            return &checkpoint;
    }
    return nullptr;
}

void createCheckpoint(Context &ctx, const Request &request, Responder *responder)
{
    QJsonObject body;
    const SpritePtr record = ctx.spriteFor(request, responder);
    if (!record || !Context::jsonBody(request, responder, &body))
        return;
    const QJsonValue comment = body.value(QStringLiteral("comment"));
    if (!comment.isUndefined() && !comment.isString()) {
        Context::error(responder, 400, QStringLiteral("invalid_request"), QStringLiteral("comment must be a string"));
        return;
    }
    Sandbox *kit = ctx.kit(*record);
    ctx.touch(*record);
    CheckpointRecord checkpoint;
    checkpoint.id = QStringLiteral("v%1").arg(record->nextCheckpoint++);
    checkpoint.comment = comment.toString();
    checkpoint.created = QDateTime::currentDateTimeUtc();
    checkpoint.sourceId = record->lastCheckpoint;
    checkpoint.folder = ctx.host.baseDir() + QStringLiteral("/checkpoints/%1/%2").arg(record->id, checkpoint.id);
    QDir(checkpoint.folder).removeRecursively();
    const qint64 bytes = kit ? copyTree(kit->root(), checkpoint.folder) : 0;
    record->checkpoints.append(checkpoint);
    record->lastCheckpoint = checkpoint.id;
    stream(responder, {line(QStringLiteral("info"), QStringLiteral("Creating checkpoint...")),
                       line(QStringLiteral("info"), QStringLiteral("Saving filesystem state (%1 bytes)...").arg(bytes)),
                       line(QStringLiteral("complete"), QStringLiteral("Checkpoint %1 created").arg(checkpoint.id))});
}

void restoreCheckpoint(Context &ctx, const Request &request, Responder *responder)
{
    const SpritePtr record = ctx.spriteFor(request, responder);
    if (!record)
        return;
    const QString id = request.param(QStringLiteral("id"));
    const CheckpointRecord *checkpoint = findCheckpoint(*record, id);
    Sandbox *kit = ctx.kit(*record);
    if (!checkpoint || !kit) {
        Context::error(responder, 404, QStringLiteral("not_found"), QStringLiteral("checkpoint not found: %1").arg(id));
        return;
    }
    // The sprite restarts from the checkpoint: nothing that ran before survives.
    ctx.killSessions(record->name);
    ctx.updateStatus(*record);
    clearFolder(kit->homeDir());
    clearFolder(kit->tmpDir());
    copyTree(checkpoint->folder, kit->root());
    record->lastCheckpoint = id;
    ctx.touch(*record);
    stream(responder, {line(QStringLiteral("info"), QStringLiteral("Restoring to checkpoint %1...").arg(id)),
                       line(QStringLiteral("info"), QStringLiteral("Stopping services...")),
                       line(QStringLiteral("info"), QStringLiteral("Restoring filesystem...")),
                       line(QStringLiteral("complete"), QStringLiteral("Restored to %1").arg(id))});
}

} // namespace

void installCheckpoints(Context &context)
{
    Context *ctx = &context;
    Server &s = context.server;
    s.route("POST", QStringLiteral("/v1/sprites/{name}/checkpoint"), [ctx](const Request &r, Responder *out) {
         createCheckpoint(*ctx, r, out);
     }).streams();
    s.route("GET", QStringLiteral("/v1/sprites/{name}/checkpoints"), [ctx](const Request &r, Responder *out) {
        const SpritePtr record = ctx->spriteFor(r, out);
        if (!record)
            return;
        QJsonArray list;
        for (qsizetype i = record->checkpoints.size() - 1; i >= 0; --i)
            list.append(checkpointJson(record->checkpoints.at(i)));
        out->sendJson(200, list);
    });
    s.route("GET", QStringLiteral("/v1/sprites/{name}/checkpoints/{id}"), [ctx](const Request &r, Responder *out) {
        const SpritePtr record = ctx->spriteFor(r, out);
        if (!record)
            return;
        if (const CheckpointRecord *checkpoint = findCheckpoint(*record, r.param(QStringLiteral("id"))))
            out->sendJson(200, checkpointJson(*checkpoint));
        else
            Context::error(out, 404, QStringLiteral("not_found"),
                           QStringLiteral("checkpoint not found: %1").arg(r.param(QStringLiteral("id"))));
    });
    s.route("POST", QStringLiteral("/v1/sprites/{name}/checkpoints/{id}/restore"),
            [ctx](const Request &r, Responder *out) { restoreCheckpoint(*ctx, r, out); })
        .streams();
}

} // namespace contract::sprites
