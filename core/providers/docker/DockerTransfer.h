#pragma once

#include "providers/Jobs.h"
#include "providers/docker/DockerApi.h"

#include <QPointer>
#include <memory>

namespace sandbar::files {
class TarSource;
class TarExtractor;
} // namespace sandbar::files

namespace sandbar::docker {

class DockerExecJob;

// Uploads a local file or folder as a tar stream: PUT /archive for ordinary targets, or
// `tar -x` through exec for a target beneath a tmpfs mount, which the archive endpoint
// would silently write underneath (moby#22020). Never holds the file in memory.
class DockerUploadJob : public TransferJob
{
    Q_OBJECT
public:
    DockerUploadJob(DockerApi *api, QString containerId, QString localPath, QString remoteDir,
                    QObject *parent = nullptr);
    ~DockerUploadJob() override;

    void start() override;
    void cancel() override;

private:
    void begin(const QByteArray &inspectBody);
    void viaArchive();
    void viaExec();
    void reportProgress();
    void finish(const VoidResult &result);

    QPointer<DockerApi> m_api;
    QString m_containerId, m_localPath, m_remoteDir;
    std::unique_ptr<files::TarSource> m_source;
    net::HttpExchange *m_exchange = nullptr;
    DockerExecJob *m_exec = nullptr;
    QByteArray m_replyBody;
    QByteArray m_execErr;
    bool m_done = false;
};

// Downloads a file or folder: GET /archive streamed into a safe tar extractor, or
// `tar -c` through exec beneath a tmpfs mount, which the archive endpoint cannot see.
class DockerDownloadJob : public TransferJob
{
    Q_OBJECT
public:
    DockerDownloadJob(DockerApi *api, QString containerId, QString remotePath, QString localDir,
                      QObject *parent = nullptr);
    ~DockerDownloadJob() override;

    void start() override;
    void cancel() override;

private:
    void viaArchive();
    void viaExec();
    void finish(const VoidResult &result);

    QPointer<DockerApi> m_api;
    QString m_containerId, m_remotePath, m_localDir;
    DockerExecJob *m_exec = nullptr;
    QByteArray m_execErr;
    std::unique_ptr<files::TarExtractor> m_extractor;
    net::HttpExchange *m_exchange = nullptr;
    QByteArray m_errorBody;
    qint64 m_total = -1;
    bool m_done = false;
};

} // namespace sandbar::docker
