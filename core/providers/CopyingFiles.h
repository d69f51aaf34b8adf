#pragma once

#include "providers/Facets.h"

#include <QPointer>

namespace sandbar {

class Provider;

// A files facet that builds the copy rules (upload, download and the tar forms) from four
// steps, the same way for every provider (CopyJob): a provider writes only those steps and
// statPath, listFiles, removePath and makeDir.
class CopyingFiles : public FilesFacet
{
public:
    // owner: the provider this facet belongs to (its state folder keeps the downloads' journal;
    // a copy whose provider is gone fails instead of reaching a dangling facet).
    explicit CopyingFiles(Provider *owner);

    std::unique_ptr<TransferJob> upload(const QString &sessionId, const QString &localPath,
                                        const QString &remoteDest) final;
    std::unique_ptr<TransferJob> download(const QString &sessionId, const QString &remotePath,
                                          const QString &localDest) final;
    std::unique_ptr<TransferJob> uploadTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir) final;
    std::unique_ptr<TransferJob> downloadTar(const QString &sessionId, const QString &remotePath, QIODevice *out) final;

    // putItem puts a local file or folder into the existing remote folder remoteDir as
    // remoteDir/name (a folder merges into one of that name); getItem is the reverse into an
    // existing local folder.
    virtual std::unique_ptr<TransferJob> putItem(const QString &sessionId, const QString &localPath,
                                                 const QString &remoteDir, const QString &name) = 0;
    virtual std::unique_ptr<TransferJob> getItem(const QString &sessionId, const QString &remotePath,
                                                 const QString &localDir, const QString &name) = 0;
    // A tar read from `tar` extracted into remoteDir (already checked to be a folder); a tar of
    // remotePath written to `out`. Neither device is owned.
    virtual std::unique_ptr<TransferJob> putTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir) = 0;
    virtual std::unique_ptr<TransferJob> getTar(const QString &sessionId, const QString &remotePath,
                                                QIODevice *out) = 0;

private:
    QPointer<Provider> m_owner;
};

} // namespace sandbar
