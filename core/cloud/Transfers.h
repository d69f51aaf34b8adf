#pragma once

#include "cloud/CloudClient.h"
#include "net/HttpClient.h"
#include "providers/Jobs.h"
#include "providers/Session.h"

#include <QFile>
#include <QPointer>
#include <QSaveFile>
#include <functional>
#include <memory>

namespace sandbar {
class Provider;
}

namespace sandbar::cloud {

// What an exchange's end means for a transfer or a stream: the server's refusal in its words
// (an HTTP status outside 2xx, errorBody its first bytes), or the transport's failure in
// people's.
VoidResult exchangeOutcome(CloudClient *client, net::HttpExchange *ex, const VoidResult &result, int status,
                           const QByteArray &errorBody, const QUrl &url);

// One local file sent as a request body, streamed from disk (never whole in memory), either
// raw (application/octet-stream) or as the only part of a multipart/form-data body.
struct UploadRequest {
    QByteArray method = "POST";
    HttpTarget target;
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
    QIODevice *m_body = nullptr; // m_file, or the multipart body around it
    QPointer<net::HttpExchange> m_exchange;
    qint64 m_total = 0;
    bool m_done = false;
};

// A GET whose body is written to localPath as it arrives, through a temporary file that
// replaces localPath only when the whole body came (a failed download leaves what was there).
class HttpDownloadJob : public TransferJob
{
    Q_OBJECT
public:
    HttpDownloadJob(CloudClient *client, HttpTarget target, QString localPath, QObject *parent = nullptr);
    // A service that names the file in a request body (Vercel's POST fs/read) instead of the URL.
    void setRequest(QByteArray method, QByteArray body);
    ~HttpDownloadJob() override;
    void start() override;
    void cancel() override;

private:
    void write(const QByteArray &chunk);
    void finish(VoidResult result);

    QPointer<CloudClient> m_client;
    HttpTarget m_target;
    QString m_localPath;
    QByteArray m_method = "GET";
    QByteArray m_body;
    std::unique_ptr<QSaveFile> m_out;
    QPointer<net::HttpExchange> m_exchange;
    int m_status = 0;
    QByteArray m_errorBody;
    qint64 m_done = 0;
    qint64 m_total = -1;
    bool m_finished = false;
};

// A transfer whose real job can only be made after a call of its own (an in-sandbox address,
// whether a remote path is a folder): make() runs on start() and hands the job over, or an
// error. Progress and the end are the inner job's.
class DeferredTransferJob : public TransferJob
{
    Q_OBJECT
public:
    using Ready = std::function<void(Result<std::shared_ptr<TransferJob>>)>;
    using Maker = std::function<void(QObject *context, Ready ready)>;

    explicit DeferredTransferJob(Maker make, QObject *parent = nullptr);
    void start() override;
    void cancel() override;

private:
    void finish(VoidResult result);

    Maker m_make;
    std::shared_ptr<TransferJob> m_inner;
    bool m_cancelled = false;
    bool m_done = false;
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

// Downloads remotePath (a file or a folder) of a cloud session as localDir/name the way the
// cloud providers do: the provider's statPath says what is there, resolve finds the base URL of
// the per-file download (an in-sandbox address, known after a call), the provider's listFiles
// walks a folder and fileJob downloads one file from that base. Fails Cancelled once the
// provider is gone.
using ResolveUrl = std::function<void(QObject *context, Callback<QUrl> done)>;
using FileDownload =
    std::function<std::unique_ptr<TransferJob>(const QUrl &base, const QString &remoteFile, const QString &localFile)>;
std::unique_ptr<TransferJob> makeSessionDownload(Provider *provider, const QString &sessionId,
                                                 const QString &remotePath, const QString &localDir,
                                                 const QString &name, ResolveUrl resolve, FileDownload fileJob);

} // namespace sandbar::cloud
