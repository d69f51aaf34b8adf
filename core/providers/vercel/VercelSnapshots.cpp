// VercelProvider's snapshots: Vercel's own snapshots of a sandbox's files, as Sandbar's.
//
// Taking one stops the sandbox (Vercel saves the files of a stopped VM). Going back to one is
// for persistent sandboxes: their next session starts from the sandbox's current snapshot, so a
// restore stops what runs, points the sandbox at the snapshot and resumes it.
#include "cloud/Paging.h"
#include "providers/vercel/VercelProvider.h"
#include "providers/vercel/VercelTr.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

namespace sandbar::vercel {

namespace {
// How long a restore waits for a stop (and its automatic snapshot) to finish.
constexpr int kSettlePolls = 180;
constexpr int kSettlePollMs = 1000;
} // namespace

void VercelProvider::listSnapshots(const QString &sessionId, Callback<QList<SnapshotEntry>> done)
{
    cloud::ApiCall call = apiCall("GET", QStringLiteral("/v2/sandboxes/snapshots"));
    call.query.addQueryItem(QStringLiteral("project"), m_settings.project);
    call.query.addQueryItem(QStringLiteral("name"), sessionId);
    call.query.addQueryItem(QStringLiteral("sortOrder"), QStringLiteral("desc"));
    call.query.addQueryItem(QStringLiteral("limit"), QStringLiteral("100"));
    // The context is taken before done moves into the call.
    QObject *context = done.context();
    cloud::collectPages<SnapshotEntry>(m_client, call, QStringLiteral("cursor"), &parseSnapshotList, context,
                                       std::move(done));
}

void VercelProvider::createSnapshot(const QString &sessionId, const QString &comment, Callback<SnapshotEntry> done)
{
    if (!comment.trimmed().isEmpty())
        return done.post(makeError(ErrorCode::InvalidArgument,
                                   tr("Vercel keeps no comment with a snapshot: leave the comment empty")));
    Q_EMIT snapshotProgress(sessionId, tr("Saving a snapshot (Vercel stops the sandbox to save it)…"));
    sessionCall(sessionId, QStringLiteral("/snapshot"), "{}",
                Callback<cloud::ApiReply>(this, [this, sessionId, done](Result<cloud::ApiReply> r) {
                    if (!r)
                        return done(makeError(r.code(), tr("The snapshot failed: %1").arg(r.message())));
                    auto entry = parseSnapshotReply(r->body);
                    m_records.remove(sessionId);
                    m_ttl->remove(sessionId);
                    done(std::move(entry));
                    info(sessionId, Callback<SessionInfo>(this, [this](Result<SessionInfo> s) {
                             if (s)
                                 Q_EMIT sessionChanged(s.value());
                         }));
                }));
}

void VercelProvider::waitSettled(const QString &name, int polls, Callback<VercelRecord> done)
{
    getSandbox(name, false, Callback<VercelRecord>(this, [this, name, polls, done](Result<VercelRecord> r) {
                   if (!r || r->info.state != SessionState::Stopping)
                       return done(std::move(r));
                   if (polls >= kSettlePolls)
                       return done(makeError(
                           ErrorCode::Timeout,
                           tr("The sandbox %1 did not finish stopping in time (it is %2)").arg(name, r->status)));
                   QTimer::singleShot(kSettlePollMs, this, [this, name, polls, done] {
                       if (!done.expired())
                           waitSettled(name, polls + 1, done);
                   });
               }));
}

void VercelProvider::restoreSnapshot(const QString &sessionId, const QString &snapshotId, Callback<void> done)
{
    const auto fail = [done](const Error &e) { done(makeError(e.code, tr("Restoring failed: %1").arg(e.message))); };
    // Points the stopped sandbox at the snapshot, then starts its next session from it.
    const auto pointAndResume = [this, sessionId, snapshotId, done, fail] {
        Q_EMIT snapshotProgress(sessionId, tr("Starting the sandbox from snapshot %1…").arg(snapshotId));
        cloud::ApiCall call = apiCall("PATCH", QStringLiteral("/v2/sandboxes/") + enc(sessionId));
        call.query.addQueryItem(QStringLiteral("projectId"), m_settings.project);
        call.body = QJsonDocument(QJsonObject{{QStringLiteral("currentSnapshotId"), snapshotId}})
                        .toJson(QJsonDocument::Compact);
        m_client->call(call, Callback<cloud::ApiReply>(this, [this, sessionId, done, fail](Result<cloud::ApiReply> r) {
                           if (!r)
                               return fail(r.error());
                           getSandbox(sessionId, true,
                                      Callback<VercelRecord>(this, [this, done, fail](Result<VercelRecord> resumed) {
                                          if (!resumed)
                                              return fail(resumed.error());
                                          done(VoidResult{});
                                          Q_EMIT sessionChanged(resumed->info);
                                      }));
                       }));
    };
    waitSettled(
        sessionId, 0, Callback<VercelRecord>(this, [this, sessionId, pointAndResume, fail](Result<VercelRecord> r) {
            if (!r)
                return fail(r.error());
            if (!r->persistent)
                return fail(makeError(ErrorCode::Unsupported,
                                      tr("only a persistent sandbox goes back to a snapshot; create a new sandbox "
                                         "with the snapshot's ID as its source instead")));
            if (r->info.state != SessionState::Running)
                return pointAndResume();
            Q_EMIT snapshotProgress(sessionId, tr("Stopping the sandbox (what runs in it ends)…"));
            stop(sessionId, Callback<void>(this, [this, sessionId, pointAndResume, fail](VoidResult stopped) {
                     if (!stopped)
                         return fail(stopped.error());
                     waitSettled(sessionId, 0,
                                 Callback<VercelRecord>(this, [pointAndResume, fail](Result<VercelRecord> settled) {
                                     if (!settled)
                                         return fail(settled.error());
                                     pointAndResume();
                                 }));
                 }));
        }));
}

} // namespace sandbar::vercel
