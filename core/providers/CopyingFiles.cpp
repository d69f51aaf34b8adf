#include "providers/CopyingFiles.h"

#include "providers/CopyJob.h"
#include "providers/Provider.h"

namespace sandbar {

CopyingFiles::CopyingFiles(Provider *owner)
    : m_owner(owner)
{
}

std::unique_ptr<TransferJob> CopyingFiles::upload(const QString &sessionId, const QString &localPath,
                                                  const QString &remoteDest)
{
    return std::make_unique<CopyJob>(m_owner, this, sessionId, CopyJob::Direction::Upload, localPath, remoteDest);
}

std::unique_ptr<TransferJob> CopyingFiles::download(const QString &sessionId, const QString &remotePath,
                                                    const QString &localDest)
{
    return std::make_unique<CopyJob>(m_owner, this, sessionId, CopyJob::Direction::Download, remotePath, localDest);
}

std::unique_ptr<TransferJob> CopyingFiles::uploadTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir)
{
    return std::make_unique<CopyJob>(m_owner, this, sessionId, CopyJob::Direction::UploadTar, QString(), remoteDir,
                                     tar);
}

std::unique_ptr<TransferJob> CopyingFiles::downloadTar(const QString &sessionId, const QString &remotePath,
                                                       QIODevice *out)
{
    return getTar(sessionId, remotePath, out);
}

} // namespace sandbar
