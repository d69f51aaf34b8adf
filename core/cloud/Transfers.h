#pragma once

#include "cloud/CloudClient.h"
#include "providers/Jobs.h"
#include "providers/Session.h"

#include <QFile>
#include <QPointer>
#include <QSaveFile>
#include <functional>
#include <memory>

class QHttpMultiPart;

namespace sandbar::cloud {

// One local file sent as a request body, streamed from disk (never whole in memory), either
// raw (application/octet-stream) or as the only part of a multipart/form-data body.
struct UploadRequest {
    QByteArray method = "POST";
    QNetworkRequest request; // from CloudClient::request: URL, TLS, headers
    QString localPath;
    QByteArray multipartField; // empty: raw body; else the form field ("file")
    QString multipartFileName; // the part's filename
};

class HttpUploadJob : public TransferJob
{
    Q_OBJECT
public:
    HttpUploadJob(CloudClient *client, UploadRequest request, QObject *parent = nullptr);
    ~HttpUploadJob() override;
    void start() override;
    void cancel() override;

private:
    void finish(VoidResult result);

    QPointer<CloudClient> m_client;
    UploadRequest m_request;
    QFile *m_file = nullptr;
    QHttpMultiPart *m_multipart = nullptr;
    QPointer<QNetworkReply> m_reply;
    qint64 m_total = 0;
    bool m_done = false;
};

// A GET whose body is written to localPath as it arrives, through a temporary file that
// replaces localPath only when the whole body came (a failed download leaves what was there).
class HttpDownloadJob : public TransferJob
{
    Q_OBJECT
public:
    HttpDownloadJob(CloudClient *client, QNetworkRequest request, QString localPath, QObject *parent = nullptr);
    ~HttpDownloadJob() override;
    void start() override;
    void cancel() override;

private:
    void drain();
    void finish(VoidResult result);

    QPointer<CloudClient> m_client;
    QNetworkRequest m_request;
    QString m_localPath;
    std::unique_ptr<QSaveFile> m_out;
    QPointer<QNetworkReply> m_reply;
    qint64 m_done = 0;
    qint64 m_total = -1;
    bool m_finished = false;
};

// Copies a whole folder tree with per-item operations a provider supplies, one item at a
// time, so that the provider's own single-file jobs do the streaming. Progress counts bytes
// over the whole tree.
struct TreeOps {
    // Remote folder (parents made as needed).
    std::function<void(const QString &remotePath, Callback<void> done)> makeRemoteDir;
    std::function<std::unique_ptr<TransferJob>(const QString &localFile, const QString &remoteFile)> uploadFile;
    // Remote listing (for downloads): entries of remotePath.
    std::function<void(const QString &remotePath, Callback<QList<FileEntry>> done)> listRemote;
    std::function<std::unique_ptr<TransferJob>(const QString &remoteFile, const QString &localFile)> downloadFile;
};

// Uploads localPath (a file or a folder) as remoteDir/name.
std::unique_ptr<TransferJob> makeTreeUpload(TreeOps ops, const QString &localPath, const QString &remoteDir,
                                            const QString &name);
// Downloads remotePath (a file or a folder; isDir says which) as localDir/name.
std::unique_ptr<TransferJob> makeTreeDownload(TreeOps ops, const QString &remotePath, bool isDir,
                                              const QString &localDir, const QString &name);

} // namespace sandbar::cloud
