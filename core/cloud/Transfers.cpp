#include "cloud/Transfers.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QHttpMultiPart>
#include <cerrno>
#include <cstring>
#include <deque>

namespace sandbar::cloud {

namespace {
QString quotedFileName(QString name)
{
    // A header parameter: no quotes, backslashes or line breaks from a hostile name.
    name.replace(QLatin1Char('"'), QLatin1Char('_')).replace(QLatin1Char('\\'), QLatin1Char('_'));
    name.replace(QLatin1Char('\r'), QLatin1Char('_')).replace(QLatin1Char('\n'), QLatin1Char('_'));
    return name;
}

// The reply's outcome for a transfer: an HTTP error with the server's words, or the transport's.
VoidResult replyOutcome(CloudClient *client, QNetworkReply *reply, const QByteArray &errorBody)
{
    const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (status.isValid() && status.toInt() >= 400)
        return errorFromHttp(status.toInt(), errorBody, client ? client->options().service : QString());
    if (reply->error() != QNetworkReply::NoError && !(status.isValid() && reply->error() < 100))
        return client ? client->transportError(reply) : makeError(ErrorCode::Unavailable, reply->errorString());
    return {};
}
} // namespace

HttpUploadJob::HttpUploadJob(CloudClient *client, UploadRequest request, QObject *parent)
    : TransferJob(parent)
    , m_client(client)
    , m_request(std::move(request))
{
}

HttpUploadJob::~HttpUploadJob()
{
    if (m_reply)
        m_reply->abort();
}

void HttpUploadJob::start()
{
    if (!m_client)
        return finish(makeError(ErrorCode::Cancelled, tr("The account was closed")));
    m_file = new QFile(m_request.localPath, this);
    if (!m_file->open(QIODevice::ReadOnly))
        return finish(
            makeError(ErrorCode::NotFound, tr("Cannot read %1: %2").arg(m_request.localPath, m_file->errorString())));
    m_total = m_file->size();
    QNetworkRequest req = m_request.request;
    if (m_request.multipartField.isEmpty()) {
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/octet-stream"));
        req.setHeader(QNetworkRequest::ContentLengthHeader, m_total);
        m_reply = m_client->send(m_request.method, req, m_file);
    } else {
        m_multipart = new QHttpMultiPart(QHttpMultiPart::FormDataType, this);
        QHttpPart part;
        part.setHeader(
            QNetworkRequest::ContentDispositionHeader,
            QStringLiteral("form-data; name=\"%1\"; filename=\"%2\"")
                .arg(QString::fromLatin1(m_request.multipartField), quotedFileName(m_request.multipartFileName))
                .toUtf8());
        part.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/octet-stream"));
        part.setBodyDevice(m_file);
        m_multipart->append(part);
        req.setHeader(QNetworkRequest::ContentTypeHeader,
                      QByteArray(QByteArray("multipart/form-data; boundary=") + m_multipart->boundary()));
        m_reply = m_client->send(m_request.method, req, m_multipart);
    }
    connect(m_reply, &QNetworkReply::uploadProgress, this, [this](qint64 sent, qint64 total) {
        Q_UNUSED(total);
        // Multipart framing adds a few hundred bytes; progress is about the file.
        emitProgress(qMin(sent, m_total), m_total);
    });
    auto body = std::make_shared<QByteArray>();
    connect(m_reply, &QNetworkReply::readyRead, this, [this, body] {
        const QByteArray chunk = m_reply->readAll();
        if (body->size() < 64 * 1024)
            body->append(chunk.left(64 * 1024));
    });
    connect(m_reply, &QNetworkReply::finished, this, [this, body] {
        body->append(m_reply->readAll().left(64 * 1024));
        const VoidResult r = replyOutcome(m_client, m_reply, *body);
        if (r.ok())
            emitProgress(m_total, m_total);
        finish(r);
    });
}

void HttpUploadJob::cancel()
{
    if (m_reply && m_reply->isRunning()) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
    finish(makeError(ErrorCode::Cancelled, tr("Cancelled")));
}

void HttpUploadJob::finish(VoidResult result)
{
    if (m_done)
        return;
    m_done = true;
    if (m_reply)
        m_reply->deleteLater();
    Q_EMIT finished(result);
}

HttpDownloadJob::HttpDownloadJob(CloudClient *client, QNetworkRequest request, QString localPath, QObject *parent)
    : TransferJob(parent)
    , m_client(client)
    , m_request(std::move(request))
    , m_localPath(std::move(localPath))
{
}

HttpDownloadJob::~HttpDownloadJob()
{
    if (m_reply)
        m_reply->abort();
}

void HttpDownloadJob::start()
{
    if (!m_client)
        return finish(makeError(ErrorCode::Cancelled, tr("The account was closed")));
    m_out = std::make_unique<QSaveFile>(m_localPath);
    if (!m_out->open(QIODevice::WriteOnly))
        return finish(
            makeError(ErrorCode::InvalidArgument, tr("Cannot write %1: %2").arg(m_localPath, m_out->errorString())));
    m_reply = m_client->send("GET", m_request);
    // Back-pressure: Qt stops reading the socket while this much is unread.
    m_reply->setReadBufferSize(1024 * 1024);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, [this] {
        const QVariant len = m_reply->header(QNetworkRequest::ContentLengthHeader);
        m_total = len.isValid() ? len.toLongLong() : -1;
    });
    connect(m_reply, &QNetworkReply::readyRead, this, &HttpDownloadJob::drain);
    connect(m_reply, &QNetworkReply::finished, this, [this] {
        const QVariant status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (status.isValid() && status.toInt() >= 400) {
            const QByteArray body = m_reply->read(64 * 1024);
            return finish(errorFromHttp(status.toInt(), body, m_client ? m_client->options().service : QString()));
        }
        drain();
        if (m_finished)
            return;
        VoidResult r = replyOutcome(m_client, m_reply, {});
        if (r.ok() && m_total >= 0 && m_done != m_total)
            r = makeError(
                ErrorCode::Unavailable,
                tr("The download of %1 ended after %2 of %3 bytes").arg(m_localPath).arg(m_done).arg(m_total));
        if (r.ok() && !m_out->commit())
            r = makeError(ErrorCode::Internal, tr("Cannot write %1: %2").arg(m_localPath, m_out->errorString()));
        if (r.ok())
            emitProgress(m_done, m_done);
        finish(r);
    });
}

void HttpDownloadJob::drain()
{
    if (m_finished || !m_reply)
        return;
    const QVariant status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (status.isValid() && status.toInt() >= 400)
        return; // the error body is read when the reply finishes
    while (m_reply->bytesAvailable() > 0) {
        const QByteArray chunk = m_reply->read(256 * 1024);
        errno = 0;
        if (m_out->write(chunk) != chunk.size()) {
            // QSaveFile says "Unknown error" for a full disk; the system's word is clearer.
            const int err = errno;
            const QString why = err != 0 ? QString::fromLocal8Bit(std::strerror(err)) : m_out->errorString();
            // Finished first: abort() reports the reply's end at once, which would otherwise
            // say "ended after N bytes" instead of why.
            finish(makeError(ErrorCode::Internal, tr("Cannot write %1: %2").arg(m_localPath, why)));
            if (m_reply)
                m_reply->abort();
            return;
        }
        m_done += chunk.size();
    }
    emitProgress(m_done, m_total);
}

void HttpDownloadJob::cancel()
{
    if (m_reply && m_reply->isRunning()) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
    finish(makeError(ErrorCode::Cancelled, tr("Cancelled")));
}

void HttpDownloadJob::finish(VoidResult result)
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_out && !result.ok())
        m_out->cancelWriting();
    if (m_reply)
        m_reply->deleteLater();
    Q_EMIT finished(result);
}

DeferredTransferJob::DeferredTransferJob(Maker make, QObject *parent)
    : TransferJob(parent)
    , m_make(std::move(make))
{
}

void DeferredTransferJob::start()
{
    m_make(this, [this](Result<std::shared_ptr<TransferJob>> r) {
        if (m_done)
            return;
        if (!r)
            return finish(r.error());
        if (m_cancelled)
            return finish(makeError(ErrorCode::Cancelled, tr("Cancelled")));
        m_inner = r.value();
        connect(m_inner.get(), &TransferJob::progress, this,
                [this](qint64 done, qint64 total) { emitProgress(done, total); });
        connect(m_inner.get(), &TransferJob::finished, this, [this](const VoidResult &result) { finish(result); });
        m_inner->start();
    });
}

void DeferredTransferJob::cancel()
{
    m_cancelled = true;
    if (m_inner)
        m_inner->cancel();
}

void DeferredTransferJob::finish(VoidResult result)
{
    if (m_done)
        return;
    m_done = true;
    Q_EMIT finished(result);
}

namespace {

// One item of a tree copy: a folder to make or a file to copy.
struct TreeItem {
    QString source;
    QString target;
    bool isDir = false;
    qint64 size = 0;
};

// Runs tree items one by one; a download discovers folders as it lists them.
class TreeJob : public TransferJob
{
public:
    TreeJob(TreeOps ops, bool upload)
        : m_ops(std::move(ops))
        , m_upload(upload)
    {
    }

    void add(TreeItem item)
    {
        m_total += item.size;
        m_items.push_back(std::move(item));
    }

    void start() override { next(); }

    void cancel() override
    {
        if (m_current)
            m_current->cancel();
        finish(makeError(ErrorCode::Cancelled, QCoreApplication::translate("sandbar::cloud", "Cancelled")));
    }

private:
    void next()
    {
        if (m_finished)
            return;
        if (m_items.empty()) {
            emitProgress(m_doneBytes, m_total);
            return finish({});
        }
        TreeItem item = std::move(m_items.front());
        m_items.pop_front();
        if (item.isDir)
            return m_upload ? makeRemote(item) : listRemote(item);
        m_current =
            m_upload ? m_ops.uploadFile(item.source, item.target) : m_ops.downloadFile(item.source, item.target);
        if (!m_current)
            return finish(makeError(
                ErrorCode::Unsupported,
                QCoreApplication::translate("sandbar::cloud", "This provider cannot copy %1").arg(item.source)));
        const qint64 base = m_doneBytes;
        connect(m_current.get(), &TransferJob::progress, this,
                [this, base](qint64 done, qint64) { emitProgress(base + done, qMax(m_total, base + done)); });
        connect(m_current.get(), &TransferJob::finished, this, [this, item](const VoidResult &r) {
            m_doneBytes += item.size;
            m_current.release()->deleteLater();
            if (!r.ok())
                return finish(r);
            next();
        });
        m_current->start();
    }

    void makeRemote(const TreeItem &item)
    {
        m_ops.makeRemoteDir(item.target, Callback<void>(this, [this](VoidResult r) {
                                if (!r.ok())
                                    return finish(r);
                                next();
                            }));
    }

    void listRemote(const TreeItem &item)
    {
        if (!QDir().mkpath(item.target))
            return finish(
                makeError(ErrorCode::Internal,
                          QCoreApplication::translate("sandbar::cloud", "Cannot make the folder %1").arg(item.target)));
        m_ops.listRemote(item.source, Callback<QList<FileEntry>>(this, [this, item](Result<QList<FileEntry>> r) {
                             if (!r.ok())
                                 return finish(r.error());
                             for (const FileEntry &e : r.value()) {
                                 if (e.name == QLatin1String(".") || e.name == QLatin1String("..") ||
                                     e.name.contains(QLatin1Char('/')) || e.isLink)
                                     continue; // links are not followed out of the copied tree
                                 TreeItem child{item.source + QLatin1Char('/') + e.name,
                                                item.target + QLatin1Char('/') + e.name, e.isDir, e.isDir ? 0 : e.size};
                                 add(std::move(child));
                             }
                             next();
                         }));
    }

    void finish(VoidResult r)
    {
        if (m_finished)
            return;
        m_finished = true;
        Q_EMIT finished(r);
    }

    TreeOps m_ops;
    bool m_upload;
    std::deque<TreeItem> m_items;
    std::unique_ptr<TransferJob> m_current;
    qint64 m_total = 0;
    qint64 m_doneBytes = 0;
    bool m_finished = false;
};

} // namespace

std::unique_ptr<TransferJob> makeTreeUpload(TreeOps ops, const QString &localPath, const QString &remoteDir,
                                            const QString &name)
{
    auto job = std::make_unique<TreeJob>(std::move(ops), true);
    const QString base =
        remoteDir.endsWith(QLatin1Char('/')) ? QString(remoteDir + name) : QString(remoteDir + QLatin1Char('/') + name);
    const QFileInfo root(localPath);
    if (!root.isDir()) {
        job->add({localPath, base, false, root.size()});
        return job;
    }
    job->add({localPath, base, true, 0});
    QDirIterator it(localPath, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    QStringList entries;
    while (it.hasNext())
        entries << it.next();
    entries.sort(); // parents before their children
    const QDir rootDir(localPath);
    for (const QString &path : entries) {
        const QFileInfo fi(path);
        if (fi.isSymLink())
            continue; // never follow a link out of the tree being copied
        job->add(
            {path, base + QLatin1Char('/') + rootDir.relativeFilePath(path), fi.isDir(), fi.isDir() ? 0 : fi.size()});
    }
    return job;
}

std::unique_ptr<TransferJob> makeTreeDownload(TreeOps ops, const QString &remotePath, bool isDir,
                                              const QString &localDir, const QString &name)
{
    auto job = std::make_unique<TreeJob>(std::move(ops), false);
    job->add({remotePath, QDir(localDir).filePath(name), isDir, 0});
    return job;
}

} // namespace sandbar::cloud
