#include "providers/Provider.h"

#include "providers/CopyJob.h"

namespace sandbar {

void Provider::listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done)
{
    Q_UNUSED(sessionId);
    done(unsupportedError(descriptor(), Capability::Reattach));
}

void Provider::adopt(const QString &sessionId, Callback<SessionInfo> done)
{
    Q_UNUSED(sessionId);
    done(unsupportedError(descriptor(), Capability::Adopt));
}

std::unique_ptr<TransferJob> Provider::upload(const QString &sessionId, const QString &localPath,
                                              const QString &remoteDest)
{
    return std::make_unique<CopyJob>(this, sessionId, CopyJob::Direction::Upload, localPath, remoteDest);
}

std::unique_ptr<TransferJob> Provider::download(const QString &sessionId, const QString &remotePath,
                                                const QString &localDest)
{
    return std::make_unique<CopyJob>(this, sessionId, CopyJob::Direction::Download, remotePath, localDest);
}

std::unique_ptr<TransferJob> Provider::uploadTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir)
{
    return std::make_unique<CopyJob>(this, sessionId, CopyJob::Direction::UploadTar, QString(), remoteDir, tar);
}

std::unique_ptr<TransferJob> Provider::downloadTar(const QString &sessionId, const QString &remotePath, QIODevice *out)
{
    return getTar(sessionId, remotePath, out);
}

void Provider::statPath(const QString &sessionId, const QString &path, Callback<PathStat> done)
{
    Q_UNUSED(sessionId);
    Q_UNUSED(path);
    done(unsupportedError(descriptor(), Capability::Files));
}

std::unique_ptr<TransferJob> Provider::putItem(const QString &, const QString &, const QString &, const QString &)
{
    return std::make_unique<FailedTransferJob>(unsupportedError(descriptor(), Capability::Files));
}

std::unique_ptr<TransferJob> Provider::getItem(const QString &, const QString &, const QString &, const QString &)
{
    return std::make_unique<FailedTransferJob>(unsupportedError(descriptor(), Capability::Files));
}

std::unique_ptr<TransferJob> Provider::putTar(const QString &, QIODevice *, const QString &)
{
    return std::make_unique<FailedTransferJob>(unsupportedError(descriptor(), Capability::Files));
}

std::unique_ptr<TransferJob> Provider::getTar(const QString &, const QString &, QIODevice *)
{
    return std::make_unique<FailedTransferJob>(unsupportedError(descriptor(), Capability::Files));
}

Error unsupportedError(const ProviderDescriptor &provider, Capability cap)
{
    return makeError(ErrorCode::Unsupported, QCoreApplication::translate("sandbar::Provider", "%1 does not support %2")
                                                 .arg(provider.displayName, capabilityName(cap)));
}

} // namespace sandbar
