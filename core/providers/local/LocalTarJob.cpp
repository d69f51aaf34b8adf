#include "providers/local/LocalTarJob.h"

#include "files/TarExtractor.h"
#include "files/TarSource.h"
#include "providers/local/LocalProvider.h"

#include <QDir>
#include <QIODevice>
#include <QTimer>

namespace sandbar::local {

LocalTarJob::LocalTarJob(LocalProvider *provider, QString sessionId, QIODevice *device, QString remotePath,
                         Direction direction, QObject *parent)
    : TransferJob(parent)
    , m_provider(provider)
    , m_sessionId(std::move(sessionId))
    , m_device(device)
    , m_remotePath(std::move(remotePath))
    , m_direction(direction)
{
}

LocalTarJob::~LocalTarJob() = default;

void LocalTarJob::start()
{
    QTimer::singleShot(0, this, [this] {
        if (!m_temp.isValid())
            return finish(
                makeError(ErrorCode::Internal, tr("Cannot make a temporary folder: %1").arg(m_temp.errorString())));
        if (!m_device || !m_device->isOpen())
            return finish(makeError(ErrorCode::InvalidArgument, tr("The tar stream is not open.")));
        if (!m_provider)
            return finish(makeError(ErrorCode::Unavailable, tr("The provider is gone.")));
        if (m_direction == Direction::Put)
            return extract();
        const QString name = QDir::cleanPath(m_remotePath).section(QLatin1Char('/'), -1);
        run(m_provider->getItem(m_sessionId, m_remotePath, m_temp.path(), name), [this, name] {
            m_source = std::make_unique<files::TarSource>(m_temp.filePath(name));
            if (auto r = m_source->prepare(); !r)
                return finish(r.error());
            writeTar();
        });
    });
}

void LocalTarJob::extract()
{
    files::TarExtractor extractor(m_temp.path());
    QByteArray chunk;
    for (;;) {
        chunk = m_device->read(256 * 1024);
        if (chunk.isEmpty())
            break;
        if (auto r = extractor.feed(chunk); !r)
            return finish(r);
    }
    if (auto r = extractor.finish(); !r)
        return finish(r);
    m_pending = QDir(m_temp.path())
                    .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDir::Name);
    putNext();
}

void LocalTarJob::putNext()
{
    if (m_done)
        return;
    if (m_pending.isEmpty())
        return finish({});
    if (!m_provider)
        return finish(makeError(ErrorCode::Unavailable, tr("The provider is gone.")));
    const QString name = m_pending.takeFirst();
    run(m_provider->putItem(m_sessionId, m_temp.filePath(name), m_remotePath, name), [this] { putNext(); });
}

// A chunk per turn of the event loop: a slow reader of the device never freezes the rest.
void LocalTarJob::writeTar()
{
    if (m_done)
        return;
    const QByteArray chunk = m_source->read(256 * 1024);
    if (m_source->failure())
        return finish(*m_source->failure());
    if (chunk.isEmpty())
        return finish({});
    if (m_device->write(chunk) != chunk.size())
        return finish(
            makeError(ErrorCode::Internal, tr("Writing the tar stream failed: %1").arg(m_device->errorString())));
    emitProgress(m_source->fileBytesDone(), m_source->totalFileBytes());
    QTimer::singleShot(0, this, [this] { writeTar(); });
}

void LocalTarJob::run(std::unique_ptr<TransferJob> job, std::function<void()> then)
{
    m_inner = std::move(job);
    connect(m_inner.get(), &TransferJob::progress, this, &TransferJob::progress);
    connect(m_inner.get(), &TransferJob::finished, this, [this, then](const VoidResult &r) {
        if (!r)
            return finish(r);
        // The finished job is deleted later: it is still emitting.
        m_inner.release()->deleteLater();
        then();
    });
    m_inner->start();
}

void LocalTarJob::cancel()
{
    if (m_inner)
        m_inner->cancel();
    finish(makeError(ErrorCode::Cancelled, tr("The copy was cancelled.")));
}

void LocalTarJob::finish(const VoidResult &result)
{
    if (m_done)
        return;
    m_done = true;
    Q_EMIT finished(result);
}

} // namespace sandbar::local
