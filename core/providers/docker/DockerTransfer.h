#pragma once

#include "providers/Jobs.h"
#include "providers/Provider.h"
#include "providers/docker/DockerApi.h"

#include <QPointer>
#include <memory>
#include <optional>

namespace sandbar::files {
class TarSource;
class TarExtractor;
} // namespace sandbar::files

namespace sandbar::docker {

class DockerExecJob;

// Uploads a local file or folder as a tar stream whose top entry is `name` (or, with
// setTarStream, a ready tar from the user) into the existing folder remoteDir: PUT /archive
// for ordinary targets, or
// `tar -x` through exec for a target beneath a tmpfs mount, which the archive endpoint
// would silently write underneath (moby#22020). Never holds the file in memory.
//
// The engine extracts straight under the final names, so an engine that dies mid-upload
// would leave a half-written file where the user expects a whole one. In a running container
// the item therefore travels under a hidden staging name in the same folder
// (.sandbar-upload-<epoch>-<random>-<name>) and is renamed into place by `mv -T` (atomic
// within a folder); a folder onto an existing folder is merged entry by entry with renames,
// as the direct extraction merged it. Staging leftovers of failed uploads are removed when
// the engine is reachable, and older than an hour by the next upload into that folder.
// Where nothing in the container could rename (stopped or paused, no shell, a folder its
// user may not write) and for a user's tar, the engine extracts under the final names.
class DockerUploadJob : public TransferJob
{
    Q_OBJECT
public:
    DockerUploadJob(DockerApi *api, QString containerId, QString localPath, QString remoteDir, QString name,
                    QObject *parent = nullptr);
    ~DockerUploadJob() override;
    // Sends this tar (open, not owned) instead of one made from localPath.
    void setTarStream(QIODevice *tar) { m_tar = tar; }

    void start() override;
    void cancel() override;

private:
    void begin(const QByteArray &inspectBody);
    void probe();
    void send(const QString &rootName);
    void viaArchive();
    void viaExec();
    void sent();
    void finalize(bool withT = true);
    void reportProgress();
    void finish(const VoidResult &result);

    QPointer<DockerApi> m_api;
    QIODevice *body() const;
    std::optional<Error> sourceFailure() const;

    QString m_containerId, m_localPath, m_remoteDir, m_name;
    QString m_user;       // the container's Config.User, who owns what the tar brings
    QString m_staging;    // the hidden name the item travels under; empty when sent directly
    QString m_into;       // the folder the engine extracts into
    bool m_merge = false; // a folder of that name exists: merge into it
    bool m_viaExec = false;
    std::unique_ptr<files::TarSource> m_source;
    QIODevice *m_tar = nullptr;
    net::HttpExchange *m_exchange = nullptr;
    DockerExecJob *m_exec = nullptr;
    QByteArray m_replyBody;
    QByteArray m_execErr;
    bool m_done = false;
};

// Downloads a file or folder into the existing folder localDir as `name` (or, with
// setTarStream, writes the tar itself to a device): GET /archive streamed into a safe tar
// extractor, or
// `tar -c` through exec beneath a tmpfs mount, which the archive endpoint cannot see.
class DockerDownloadJob : public TransferJob
{
    Q_OBJECT
public:
    DockerDownloadJob(DockerApi *api, QString containerId, QString remotePath, QString localDir, QString name,
                      QObject *parent = nullptr);
    ~DockerDownloadJob() override;
    void setTarStream(QIODevice *out) { m_out = out; }

    void start() override;
    void cancel() override;

private:
    void viaArchive();
    void viaExec();
    VoidResult consume(const QByteArray &bytes);
    VoidResult endOfStream();
    void finish(const VoidResult &result);

    QPointer<DockerApi> m_api;
    QString m_containerId, m_remotePath, m_localDir, m_name;
    QIODevice *m_out = nullptr;
    qint64 m_written = 0;
    DockerExecJob *m_exec = nullptr;
    QByteArray m_execErr;
    std::unique_ptr<files::TarExtractor> m_extractor;
    net::HttpExchange *m_exchange = nullptr;
    QByteArray m_errorBody;
    qint64 m_total = -1;
    bool m_done = false;
};

// Provider::statPath for Docker and Podman: HEAD /archive (X-Docker-Container-Path-Stat),
// or `test` through exec beneath a tmpfs mount, which the archive endpoint cannot see.
void statRemotePath(DockerApi *api, const QString &containerId, const QString &path, Callback<PathStat> done);

} // namespace sandbar::docker
