#include "audit/AuditedProvider.h"

#include "audit/AuditLog.h"
#include "audit/Sanitizer.h"
#include "providers/CopyJob.h"
#include "terminal/PtyChannel.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>

namespace sandbar::audit {

namespace {

qint64 localSize(const QString &path)
{
    const QFileInfo fi(path);
    if (!fi.isDir())
        return fi.size();
    qint64 total = 0;
    QDirIterator it(path, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

// A tar's size where the device can tell (a file), else unknown (-1: a pipe).
qint64 tarSize(QIODevice *tar)
{
    return tar && !tar->isSequential() ? tar->size() : -1;
}

} // namespace

// The same table as the inner provider's, each entry pointing at this wrapper's own.
void AuditedProvider::mirrorFacets()
{
    const Facets &in = m_inner->facets();
    Facets f;
    f.terminals = in.terminals ? this : nullptr;
    f.exec = in.exec ? this : nullptr;
    f.files = in.files ? this : nullptr;
    f.stats = in.stats ? this : nullptr;
    f.logs = in.logs ? this : nullptr;
    f.images = in.images ? this : nullptr;
    f.pause = in.pause ? this : nullptr;
    f.archive = in.archive ? this : nullptr;
    f.timeLimit = in.timeLimit ? this : nullptr;
    f.snapshots = in.snapshots ? this : nullptr;
    f.fork = in.fork ? this : nullptr;
    f.settings = in.settings ? this : nullptr;
    f.background = in.background ? this : nullptr;
    f.labels = in.labels ? this : nullptr;
    setFacets(f);
}

AuditedProvider::AuditedProvider(std::unique_ptr<Provider> inner, AuditLog &log, QObject *parent)
    : Provider(parent)
    , m_inner(std::move(inner))
    , m_log(log)
{
    m_inner->setParent(nullptr);
    mirrorFacets();
    connect(m_inner.get(), &Provider::facetsChanged, this, &AuditedProvider::mirrorFacets);
    connect(m_inner.get(), &Provider::sessionChanged, this, &Provider::sessionChanged);
    connect(m_inner.get(), &Provider::sessionRemoved, this, &Provider::sessionRemoved);
    connect(m_inner.get(), &Provider::createProgress, this, &Provider::createProgress);
    connect(m_inner.get(), &Provider::snapshotProgress, this, &Provider::snapshotProgress);
}

AuditedProvider::~AuditedProvider() = default;

void AuditedProvider::record(int action, const QString &sessionId, const QJsonObject &detail, const VoidResult &outcome)
{
    // A remote engine's rows say which machine the action reached.
    QJsonObject withHost = detail;
    if (const QString host = remoteHost(); !host.isEmpty())
        withHost[QStringLiteral("host")] = host;
    AuditEntry e = makeEntry(Action(action), accountName(), descriptor().id, sessionId, withHost);
    e.setOutcome(outcome);
    // An audit failure must not fail the action; the log reports write errors itself.
    [[maybe_unused]] const auto r = m_log.append(std::move(e));
}

Callback<void> AuditedProvider::logged(int action, const QString &sessionId, const QJsonObject &detail,
                                       Callback<void> done)
{
    return Callback<void>(done.context(), [this, action, sessionId, detail, done](VoidResult r) {
        record(action, sessionId, detail, r);
        done(std::move(r));
    });
}

void AuditedProvider::create(const CreateSpec &spec, Callback<SessionInfo> done)
{
    const QJsonObject detail = createDetail(spec, descriptor().createOptions);
    m_inner->create(spec, Callback<SessionInfo>(done.context(), [this, detail, done](Result<SessionInfo> r) {
                        record(int(Action::SessionCreated), r.ok() ? r->id : QString(), detail,
                               r.ok() ? VoidResult{} : VoidResult(r.error()));
                        done(std::move(r));
                    }));
}

void AuditedProvider::adopt(const QString &id, Callback<SessionInfo> done)
{
    m_inner->adopt(id, Callback<SessionInfo>(done.context(), [this, id, done](Result<SessionInfo> r) {
                       record(int(Action::SessionAdopted), r.ok() ? r->id : id, {},
                              r.ok() ? VoidResult{} : VoidResult(r.error()));
                       done(std::move(r));
                   }));
}

void AuditedProvider::stop(const QString &id, Callback<void> done)
{
    m_inner->stop(id, logged(int(Action::SessionStopped), id, {}, std::move(done)));
}

void AuditedProvider::kill(const QString &id, Callback<void> done)
{
    m_inner->kill(id, logged(int(Action::SessionKilled), id, {}, std::move(done)));
}

void AuditedProvider::remove(const QString &id, Callback<void> done)
{
    m_inner->remove(id, logged(int(Action::SessionRemoved), id, {}, std::move(done)));
}

void AuditedProvider::pause(const QString &id, Callback<void> done)
{
    m_inner->pausing()->pause(id, logged(int(Action::SessionPaused), id, {}, std::move(done)));
}

void AuditedProvider::resume(const QString &id, Callback<void> done)
{
    m_inner->pausing()->resume(id, logged(int(Action::SessionResumed), id, {}, std::move(done)));
}

void AuditedProvider::archive(const QString &id, Callback<void> done)
{
    m_inner->archiving()->archive(id, logged(int(Action::SessionArchived), id, {}, std::move(done)));
}

void AuditedProvider::setTimeout(const QString &id, qint64 ttlSeconds, Callback<void> done)
{
    m_inner->timeLimit()->setTimeout(
        id, ttlSeconds, logged(int(Action::SessionTtlChanged), id, ttlDetail(ttlSeconds), std::move(done)));
}

void AuditedProvider::createSnapshot(const QString &id, const QString &comment, Callback<SnapshotEntry> done)
{
    m_inner->snapshots()->createSnapshot(
        id, comment, Callback<SnapshotEntry>(done.context(), [this, id, comment, done](Result<SnapshotEntry> r) {
            record(int(Action::SnapshotCreated), id, snapshotDetail(r.ok() ? r->id : QString(), comment),
                   r.ok() ? VoidResult{} : VoidResult(r.error()));
            done(std::move(r));
        }));
}

void AuditedProvider::restoreSnapshot(const QString &id, const QString &snapshotId, Callback<void> done)
{
    m_inner->snapshots()->restoreSnapshot(
        id, snapshotId, logged(int(Action::SnapshotRestored), id, snapshotDetail(snapshotId), std::move(done)));
}

void AuditedProvider::changeSettings(const QString &id, const QVariantMap &values, Callback<SessionInfo> done)
{
    const QJsonObject detail = sanitizeDetail(values, descriptor().createOptions);
    m_inner->sessionSettings()->changeSettings(
        id, values, Callback<SessionInfo>(done.context(), [this, id, detail, done](Result<SessionInfo> r) {
            record(int(Action::SessionSettingsChanged), id, detail, r.ok() ? VoidResult{} : VoidResult(r.error()));
            done(std::move(r));
        }));
}

void AuditedProvider::startBackground(const QString &id, const ExecRequest &request, Callback<BackgroundCommand> done)
{
    QJsonObject detail = execDetail(request);
    m_inner->background()->startBackground(
        id, request,
        Callback<BackgroundCommand>(done.context(), [this, id, detail, done](Result<BackgroundCommand> r) mutable {
            if (r.ok())
                detail.insert(QStringLiteral("command"), r->id);
            record(int(Action::CommandStarted), id, detail, r.ok() ? VoidResult{} : VoidResult(r.error()));
            done(std::move(r));
        }));
}

void AuditedProvider::signalBackground(const QString &id, const QString &commandId, int signal, Callback<void> done)
{
    const QJsonObject detail{{QStringLiteral("command"), commandId.left(200)}, {QStringLiteral("signal"), signal}};
    m_inner->background()->signalBackground(id, commandId, signal,
                                            logged(int(Action::CommandSignalled), id, detail, std::move(done)));
}

void AuditedProvider::setLabels(const QString &id, const QMap<QString, QString> &labels, Callback<SessionInfo> done)
{
    const QJsonObject detail{{QStringLiteral("labels"), QJsonArray::fromStringList(labels.keys())}};
    m_inner->labelling()->setLabels(
        id, labels, Callback<SessionInfo>(done.context(), [this, id, detail, done](Result<SessionInfo> r) {
            record(int(Action::SessionLabelsChanged), id, detail, r.ok() ? VoidResult{} : VoidResult(r.error()));
            done(std::move(r));
        }));
}

void AuditedProvider::fork(const QString &id, const ForkSpec &spec, Callback<SessionInfo> done)
{
    m_inner->forking()->fork(id, spec, Callback<SessionInfo>(done.context(), [this, id, done](Result<SessionInfo> r) {
                                 QJsonObject detail;
                                 if (r.ok())
                                     detail[QStringLiteral("fork")] = r->id;
                                 record(int(Action::SessionForked), id, detail,
                                        r.ok() ? VoidResult{} : VoidResult(r.error()));
                                 done(std::move(r));
                             }));
}

std::unique_ptr<PtyChannel> AuditedProvider::openPty(const QString &id, const PtyOptions &options)
{
    auto channel = m_inner->terminals()->openPty(id, options);
    const QJsonObject detail = ptyDetail(options);
    connect(channel.get(), &PtyChannel::started, this,
            [this, id, detail]() { record(int(Action::PtyOpened), id, detail, {}); });
    connect(channel.get(), &PtyChannel::errorOccurred, this, [this, id, detail, ch = channel.get()](const Error &e) {
        // Only a terminal that never opened is a failed action; a later drop is not.
        if (!ch->property("sandbar.audited").toBool())
            record(int(Action::PtyOpened), id, detail, e);
    });
    connect(channel.get(), &PtyChannel::started, this,
            [ch = channel.get()]() { ch->setProperty("sandbar.audited", true); });
    return channel;
}

std::unique_ptr<ExecJob> AuditedProvider::exec(const QString &id, const ExecRequest &request)
{
    auto job = m_inner->commands()->exec(id, request);
    QJsonObject detail = execDetail(request);
    connect(job.get(), &ExecJob::finished, this, [this, id, detail](const Result<int> &r) mutable {
        if (r.ok())
            detail.insert(QStringLiteral("exit_code"), r.value());
        record(int(Action::ExecRun), id, detail, r.ok() ? VoidResult{} : VoidResult(r.error()));
    });
    return job;
}

// The copy rules decide where the item lands; the job says so once resolved (CopyJob).
std::unique_ptr<TransferJob> AuditedProvider::upload(const QString &id, const QString &localPath,
                                                     const QString &remoteDest)
{
    auto job = m_inner->files()->upload(id, localPath, remoteDest);
    TransferJob *raw = job.get();
    connect(raw, &TransferJob::finished, this, [this, raw, id, remoteDest, localPath](const VoidResult &r) {
        const QString remote = raw->property(CopyJob::kTargetProperty).toString();
        record(int(Action::FileUploaded), id,
               fileDetail(remote.isEmpty() ? remoteDest : remote, localSize(localPath), localPath), r);
    });
    return job;
}

std::unique_ptr<TransferJob> AuditedProvider::download(const QString &id, const QString &remotePath,
                                                       const QString &localDest)
{
    auto job = m_inner->files()->download(id, remotePath, localDest);
    TransferJob *raw = job.get();
    connect(raw, &TransferJob::finished, this, [this, raw, id, remotePath, localDest](const VoidResult &r) {
        const QString target = raw->property(CopyJob::kTargetProperty).toString();
        const QString local = target.isEmpty() ? localDest : target;
        record(int(Action::FileDownloaded), id, fileDetail(remotePath, r.ok() ? localSize(local) : -1, local), r);
    });
    return job;
}

std::unique_ptr<TransferJob> AuditedProvider::loggedJob(std::unique_ptr<TransferJob> job, int action, const QString &id,
                                                        const QJsonObject &detail)
{
    connect(job.get(), &TransferJob::finished, this,
            [this, action, id, detail](const VoidResult &r) { record(action, id, detail, r); });
    return job;
}

std::unique_ptr<TransferJob> AuditedProvider::uploadTar(const QString &id, QIODevice *tar, const QString &remoteDir)
{
    return loggedJob(m_inner->files()->uploadTar(id, tar, remoteDir), int(Action::FileUploaded), id,
                     fileDetail(remoteDir, tarSize(tar), QStringLiteral("-")));
}

std::unique_ptr<TransferJob> AuditedProvider::downloadTar(const QString &id, const QString &remotePath, QIODevice *out)
{
    return loggedJob(m_inner->files()->downloadTar(id, remotePath, out), int(Action::FileDownloaded), id,
                     fileDetail(remotePath, -1, QStringLiteral("-")));
}

void AuditedProvider::removePath(const QString &id, const QString &path, Callback<void> done)
{
    m_inner->files()->removePath(id, path, logged(int(Action::FileRemoved), id, fileDetail(path, -1), std::move(done)));
}

void AuditedProvider::makeDir(const QString &id, const QString &path, Callback<void> done)
{
    m_inner->files()->makeDir(id, path, logged(int(Action::FolderCreated), id, fileDetail(path, -1), std::move(done)));
}

void AuditedProvider::movePath(const QString &id, const QString &from, const QString &to, Callback<void> done)
{
    m_inner->files()->movePath(id, from, to, logged(int(Action::FileMoved), id, moveDetail(from, to), std::move(done)));
}

void AuditedProvider::setMode(const QString &id, const QString &path, quint32 mode, Callback<void> done)
{
    m_inner->files()->setMode(id, path, mode,
                              logged(int(Action::FileModeChanged), id, modeDetail(path, mode), std::move(done)));
}

} // namespace sandbar::audit
