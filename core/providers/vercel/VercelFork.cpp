// VercelProvider's fork: Vercel copies a sandbox (its files from its latest snapshot, or as
// they are, and its settings) into a new one that runs. The copy gets Sandbar's tags of its own,
// with a create token, so that a lost reply is looked up rather than forked twice.
#include "providers/vercel/VercelProvider.h"
#include "providers/vercel/VercelTr.h"

#include <QJsonDocument>
#include <QLocale>
#include <QUuid>

namespace sandbar::vercel {

void VercelProvider::fork(const QString &sessionId, const ForkSpec &spec, Callback<SessionInfo> done)
{
    getSandbox(
        sessionId, false, Callback<VercelRecord>(this, [this, sessionId, spec, done](Result<VercelRecord> source) {
            if (!source)
                return done(makeError(source.code(), tr("Forking failed: %1").arg(source.message())));
            auto state = std::make_shared<CreateState>();
            state->spec.name = spec.name.trimmed().isEmpty() ? sessionId : spec.name.trimmed();
            state->token = QUuid::createUuid().toString(QUuid::WithoutBraces);
            state->done = done;
            Q_EMIT createProgress(state->spec.name, tr("Forking %1…").arg(sessionId), 0, 0);
            cloud::ApiCall call =
                apiCall("POST", QStringLiteral("/v2/sandboxes/") + enc(sessionId) + QStringLiteral("/fork"));
            call.query.addQueryItem(QStringLiteral("projectId"), m_settings.project);
            call.body =
                QJsonDocument(forkBody(source.value(), spec, m_account, state->token)).toJson(QJsonDocument::Compact);
            call.timeoutMs = 120000;
            makeOnce(call, state, tr("Forking failed: %1"));
        }));
}

void VercelProvider::forkOrigin(const QString &sessionId, Callback<QString> done)
{
    getSandbox(sessionId, false, Callback<VercelRecord>(this, [this, sessionId, done](Result<VercelRecord> source) {
                   if (!source)
                       return done(source.error());
                   const QString latest = source->currentSnapshotId;
                   if (latest.isEmpty())
                       return done(tr("Vercel copies the files as they are now."));
                   // When it was taken, from the sandbox's snapshots; without it the id still says which.
                   listSnapshots(sessionId, Callback<QList<SnapshotEntry>>(this, [latest, done](auto list) {
                                     QDateTime taken;
                                     for (const SnapshotEntry &e : list.valueOr({})) {
                                         if (e.id == latest)
                                             taken = e.created;
                                     }
                                     const QString which =
                                         taken.isValid()
                                             ? tr("its latest snapshot, taken %1")
                                                   .arg(QLocale().toString(taken.toLocalTime(), QLocale::ShortFormat))
                                             : tr("its latest snapshot, %1").arg(latest);
                                     done(tr("Vercel copies the files of %1: what changed since is not in the copy "
                                             "(take a snapshot first to copy them as they are now).")
                                              .arg(which));
                                 }));
               }));
}

} // namespace sandbar::vercel
