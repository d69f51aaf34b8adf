// SpritesProvider's checkpoints: Sandbar's snapshots of a sprite.
#include "cloud/NdjsonStream.h"
#include "net/HttpTypes.h"
#include "providers/sprites/SpritesProvider.h"
#include "providers/sprites/SpritesTr.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace sandbar::sprites {

void SpritesProvider::listSnapshots(const QString &sessionId, Callback<QList<SnapshotEntry>> done)
{
    m_client->call(apiCall("GET", QStringLiteral("/v1/sprites/") + enc(sessionId) + QStringLiteral("/checkpoints")),
                   Callback<cloud::ApiReply>(done.context(), [done](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(r.error());
                       done(parseCheckpointList(r->body));
                   }));
}

void SpritesProvider::progressCall(const QString &sprite, const QString &suffix, QByteArray body, Callback<void> done)
{
    net::HttpRequest request;
    request.method = "POST";
    request.body = std::move(body);
    request.connectTimeout = std::chrono::seconds(30);
    request.responseTimeout = std::chrono::seconds(120);
    // Quiet while the service copies: a checkpoint of a large disk takes its time.
    const cloud::HttpTarget target{
        spriteUrl(sprite, suffix), {{QByteArray("Content-Type"), QByteArray("application/json")}}, true};
    cloud::streamLines(
        m_client, target, std::move(request), this,
        [this, sprite](const QByteArray &line) -> VoidResult {
            auto m = parseStreamMessage(line);
            if (!m)
                return m.error();
            if (m->failed)
                return makeError(ErrorCode::Unavailable, tr("Sprites reported: %1").arg(m->text));
            if (!m->text.isEmpty())
                Q_EMIT snapshotProgress(sprite, m->text);
            return VoidResult{};
        },
        std::move(done));
}

void SpritesProvider::createSnapshot(const QString &sessionId, const QString &comment, Callback<SnapshotEntry> done)
{
    QJsonObject body;
    if (!comment.trimmed().isEmpty())
        body.insert(QStringLiteral("comment"), comment.trimmed());
    Q_EMIT snapshotProgress(sessionId, tr("Saving a checkpoint…"));
    progressCall(sessionId, QStringLiteral("/checkpoint"), QJsonDocument(body).toJson(QJsonDocument::Compact),
                 Callback<void>(done.context(), [this, sessionId, done](VoidResult r) {
                     if (!r)
                         return done(makeError(r.code(), tr("The checkpoint failed: %1").arg(r.message())));
                     // The stream names the checkpoint only in words: the list has it, newest first.
                     listSnapshots(
                         sessionId,
                         Callback<QList<SnapshotEntry>>(done.context(), [done](Result<QList<SnapshotEntry>> l) {
                             if (!l)
                                 return done(l.error());
                             if (l->isEmpty())
                                 return done(makeError(ErrorCode::Unavailable,
                                                       tr("Sprites reported the checkpoint saved, yet lists "
                                                          "none")));
                             done(l->first());
                         }));
                 }));
}

void SpritesProvider::restoreSnapshot(const QString &sessionId, const QString &snapshotId, Callback<void> done)
{
    Q_EMIT snapshotProgress(sessionId, tr("Restoring checkpoint %1…").arg(snapshotId));
    progressCall(sessionId, QStringLiteral("/checkpoints/") + enc(snapshotId) + QStringLiteral("/restore"), {},
                 Callback<void>(this, [this, sessionId, done](VoidResult r) {
                     if (!r)
                         return done(makeError(r.code(), tr("Restoring failed: %1").arg(r.message())));
                     done(VoidResult{});
                     info(sessionId, Callback<SessionInfo>(this, [this](Result<SessionInfo> s) {
                              if (s)
                                  Q_EMIT sessionChanged(s.value());
                          }));
                 }));
}

} // namespace sandbar::sprites
