#include "providers/CopyJob.h"

#include "providers/PartialDownloads.h"
#include "providers/Provider.h"

#include <QDir>
#include <QFileInfo>
#include <QTimer>

namespace sandbar {

using files::CopyKind;

namespace {
bool isRemotePath(const files::CopyPath &p)
{
    return p.path.startsWith(QLatin1Char('/')) && !p.path.contains(QChar(0));
}

QString remoteParent(const QString &path)
{
    const auto slash = path.lastIndexOf(QLatin1Char('/'));
    return slash <= 0 ? QStringLiteral("/") : path.left(slash);
}
} // namespace

CopyJob::CopyJob(Provider *provider, CopyingFiles *steps, QString sessionId, Direction direction, QString source,
                 QString dest, QIODevice *tar, QObject *parent)
    : TransferJob(parent)
    , m_provider(provider)
    , m_steps(steps)
    , m_sessionId(std::move(sessionId))
    , m_direction(direction)
    , m_source(files::parseCopyPath(source))
    , m_dest(files::parseCopyPath(dest))
    , m_tar(tar)
{
}

CopyJob::~CopyJob()
{
    // Destroyed mid-download (the app closing): nothing half-written stays behind.
    m_inner.reset();
    if (!m_staging.isEmpty())
        PartialDownloads(journalPath()).end(m_staging);
}

QString CopyJob::journalPath() const
{
    return m_provider ? PartialDownloads::journalIn(m_provider->stateDir()) : QString();
}

void CopyJob::start()
{
    // Every outcome is reported from the event loop, never from inside start().
    QTimer::singleShot(0, this, [this] {
        if (m_direction == Direction::Download) {
            if (!isRemotePath(m_source))
                return finish(makeError(ErrorCode::InvalidArgument,
                                        tr("'%1' is not an absolute path in the session.").arg(m_source.path)));
            if (!QDir::isAbsolutePath(m_dest.path))
                return finish(
                    makeError(ErrorCode::InvalidArgument, tr("'%1' is not an absolute local path.").arg(m_dest.path)));
            return statRemote(m_source.path, [this](PathStat st) {
                if (!st.exists)
                    return finish(
                        makeError(ErrorCode::NotFound,
                                  tr("'%1' does not exist in session %2.").arg(m_source.path, m_sessionId.left(12))));
                download(st.isDir ? CopyKind::Folder : CopyKind::File);
            });
        }
        if (!isRemotePath(m_dest))
            return finish(makeError(ErrorCode::InvalidArgument,
                                    tr("'%1' is not an absolute path in the session.").arg(m_dest.path)));
        if (m_direction == Direction::UploadTar) {
            if (!m_tar || !m_tar->isReadable())
                return finish(makeError(ErrorCode::InvalidArgument, tr("The tar stream cannot be read.")));
            return statRemote(m_dest.path, [this](PathStat st) {
                if (!st.exists)
                    return finish(
                        makeError(ErrorCode::NotFound, tr("The destination folder '%1' must exist.").arg(m_dest.path)));
                if (!st.isDir)
                    return finish(makeError(
                        ErrorCode::InvalidArgument,
                        tr("'%1' is not a folder: a tar stream is extracted into a folder.").arg(m_dest.path)));
                run(m_steps->putTar(m_sessionId, m_tar, m_dest.path));
            });
        }
        const QFileInfo local(m_source.path);
        if (m_source.path.isEmpty() || !local.exists())
            return finish(makeError(ErrorCode::NotFound, tr("No such local file or folder: %1").arg(m_source.path)));
        upload(local.isDir() ? CopyKind::Folder : CopyKind::File);
    });
}

void CopyJob::statRemote(const QString &path, std::function<void(PathStat)> then)
{
    if (!m_provider)
        return finish(makeError(ErrorCode::Unavailable, tr("The provider is gone.")));
    m_steps->statPath(m_sessionId, path, Callback<PathStat>(this, [this, then](Result<PathStat> r) {
                          if (m_done)
                              return;
                          if (!m_provider) // what follows asks it again
                              return finish(makeError(ErrorCode::Unavailable, tr("The provider is gone.")));
                          if (!r)
                              return finish(r.error());
                          then(*r);
                      }));
}

void CopyJob::upload(CopyKind kind)
{
    statRemote(m_dest.path, [this, kind](PathStat st) {
        auto resolve = [this, kind](files::CopyProbe probe) {
            auto target = files::resolveCopy(kind, m_source, m_dest, probe);
            if (!target)
                return finish(target.error());
            setTarget(*target);
            run(m_steps->putItem(m_sessionId, m_source.path, target->dir, target->name));
        };
        if (st.exists)
            return resolve({true, st.isDir, true});
        statRemote(remoteParent(m_dest.path), [resolve](PathStat parent) {
            resolve({false, false, parent.exists && parent.isDir});
        });
    });
}

void CopyJob::download(CopyKind kind)
{
    const QFileInfo dest(m_dest.path);
    files::CopyProbe probe{dest.exists(), dest.isDir(), QFileInfo(dest.absolutePath()).isDir()};
    auto target = files::resolveCopy(kind, m_source, m_dest, probe);
    if (!target)
        return finish(target.error());
    setTarget(*target);
    auto staging = PartialDownloads(journalPath()).begin(target->dir);
    if (!staging)
        return finish(staging.error());
    m_staging = *staging;
    m_stagedName = target->name;
    m_final = QDir(target->dir).filePath(target->name);
    run(m_steps->getItem(m_sessionId, m_source.path, m_staging, target->name));
}

void CopyJob::setTarget(const files::CopyTarget &target)
{
    const QString sep = target.dir.endsWith(QLatin1Char('/')) ? QString() : QStringLiteral("/");
    setProperty(kTargetProperty, QString(target.dir + sep + target.name));
}

void CopyJob::run(std::unique_ptr<TransferJob> job)
{
    if (!job)
        return finish(makeError(ErrorCode::Unsupported, tr("This provider cannot copy files.")));
    m_inner = std::move(job);
    m_inner->setParent(nullptr);
    connect(m_inner.get(), &TransferJob::progress, this, &TransferJob::progress);
    connect(m_inner.get(), &TransferJob::finished, this, [this](const VoidResult &r) { finish(r); });
    m_inner->start();
}

void CopyJob::cancel()
{
    if (m_inner && !m_done)
        return m_inner->cancel();
    finish(makeError(ErrorCode::Cancelled, tr("The copy was cancelled.")));
}

void CopyJob::finish(VoidResult result)
{
    if (m_done)
        return;
    m_done = true;
    if (!m_staging.isEmpty()) {
        if (result)
            result = PartialDownloads::moveIntoPlace(QDir(m_staging).filePath(m_stagedName), m_final);
        PartialDownloads(journalPath()).end(m_staging);
        m_staging.clear();
    }
    Q_EMIT finished(result);
}

FailedTransferJob::FailedTransferJob(Error error, QObject *parent)
    : TransferJob(parent)
    , m_error(std::move(error))
{
}

void FailedTransferJob::start()
{
    QTimer::singleShot(0, this, [this] { Q_EMIT finished(m_error); });
}

} // namespace sandbar
