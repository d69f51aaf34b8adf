#include "cloud/Transfers.h"

#include "cloud/CloudTr.h"
#include "providers/Provider.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QRandomGenerator>
#include <cerrno>
#include <cstring>
#include <deque>

namespace sandbar::cloud {

namespace {
// An error reply's body is kept this far, for the server's words in the message.
constexpr qsizetype kErrorBodyBytes = 64 * 1024;

QString quotedFileName(QString name)
{
    // A header parameter: no quotes, backslashes or line breaks from a hostile name.
    name.replace(QLatin1Char('"'), QLatin1Char('_')).replace(QLatin1Char('\\'), QLatin1Char('_'));
    name.replace(QLatin1Char('\r'), QLatin1Char('_')).replace(QLatin1Char('\n'), QLatin1Char('_'));
    return name;
}

// A multipart/form-data body with one file part, read from the file as it is sent: the
// part's head, the file, the closing boundary. Never whole in memory.
class MultipartBody : public QIODevice
{
public:
    MultipartBody(const QByteArray &field, const QString &fileName, QFile *file, QObject *parent)
        : QIODevice(parent)
        , m_file(file)
    {
        m_boundary = "sandbar-" + QByteArray::number(QRandomGenerator::global()->generate64(), 16) +
                     QByteArray::number(QRandomGenerator::global()->generate64(), 16);
        m_head = "--" + m_boundary + "\r\nContent-Disposition: form-data; name=\"" + field + "\"; filename=\"" +
                 quotedFileName(fileName).toUtf8() + "\"\r\nContent-Type: application/octet-stream\r\n\r\n";
        m_tail = "\r\n--" + m_boundary + "--\r\n";
        m_fileSize = file->size();
    }

    QByteArray contentType() const { return "multipart/form-data; boundary=" + m_boundary; }
    qint64 headBytes() const { return m_head.size(); }
    bool isSequential() const override { return false; }
    qint64 size() const override { return m_head.size() + m_fileSize + m_tail.size(); }
    bool seek(qint64 pos) override
    {
        if (!QIODevice::seek(pos))
            return false;
        m_offset = pos;
        return true;
    }

protected:
    qint64 readData(char *data, qint64 max) override
    {
        qint64 done = 0;
        while (done < max && m_offset < size()) {
            qint64 n = 0;
            if (m_offset < m_head.size()) {
                n = qMin(max - done, m_head.size() - m_offset);
                std::memcpy(data + done, m_head.constData() + m_offset, size_t(n));
            } else if (m_offset < m_head.size() + m_fileSize) {
                const qint64 at = m_offset - m_head.size();
                if (m_file->pos() != at && !m_file->seek(at))
                    return done > 0 ? done : -1;
                n = m_file->read(data + done, qMin(max - done, m_fileSize - at));
                if (n <= 0) // the file shrank or failed: the exchange reports the short body
                    return done > 0 ? done : -1;
            } else {
                const qint64 at = m_offset - m_head.size() - m_fileSize;
                n = qMin(max - done, m_tail.size() - at);
                std::memcpy(data + done, m_tail.constData() + at, size_t(n));
            }
            done += n;
            m_offset += n;
        }
        return done;
    }
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    QFile *m_file;
    QByteArray m_boundary;
    QByteArray m_head;
    QByteArray m_tail;
    qint64 m_fileSize = 0;
    qint64 m_offset = 0;
};

} // namespace

VoidResult exchangeOutcome(CloudClient *client, net::HttpExchange *ex, const VoidResult &result, int status,
                           const QByteArray &errorBody, const QUrl &url)
{
    const QString service = client ? client->options().service : QString();
    if (status != 0 && (status < 200 || status >= 300))
        return errorFromHttp(status, errorBody, service);
    if (!result.ok())
        return client ? client->exchangeError(ex, result, url) : result;
    return {};
}

HttpUploadJob::HttpUploadJob(CloudClient *client, UploadRequest request, QObject *parent)
    : TransferJob(parent)
    , m_client(client)
    , m_request(std::move(request))
{
}

HttpUploadJob::~HttpUploadJob()
{
    if (m_exchange)
        m_exchange->disconnect(this);
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
    net::HttpRequest req;
    req.method = m_request.method;
    qint64 framing = 0;
    if (m_request.multipartField.isEmpty()) {
        req.headers.append({QByteArray("Content-Type"), QByteArray("application/octet-stream")});
        m_body = m_file;
    } else {
        auto *multipart = new MultipartBody(m_request.multipartField, m_request.multipartFileName, m_file, this);
        multipart->open(QIODevice::ReadOnly | QIODevice::Unbuffered);
        req.headers.append({QByteArray("Content-Type"), multipart->contentType()});
        framing = multipart->headBytes();
        m_body = multipart;
    }
    req.bodyDevice = m_body;
    req.bodyLength = m_body->size();
    req.connectTimeout = std::chrono::seconds(30);
    // From the last byte sent to the answer: the server may still be writing a large file out.
    req.responseTimeout = std::chrono::seconds(120);
    m_exchange = m_client->exchange(m_request.target, std::move(req), this);
    connect(m_exchange, &net::HttpExchange::uploadProgress, this, [this, framing](qint64 sent, qint64) {
        // Progress is about the file, not the multipart framing around it.
        emitProgress(qBound<qint64>(0, sent - framing, m_total), m_total);
    });
    auto status = std::make_shared<int>(0);
    auto body = std::make_shared<QByteArray>();
    connect(m_exchange, &net::HttpExchange::headersReceived, this,
            [status](const net::HttpResponse &head) { *status = head.status; });
    connect(m_exchange, &net::HttpExchange::bodyData, this, [body](const QByteArray &chunk) {
        if (body->size() < kErrorBodyBytes)
            body->append(chunk.left(kErrorBodyBytes - body->size()));
    });
    connect(m_exchange, &net::HttpExchange::finished, this, [this, status, body](const VoidResult &result) {
        const VoidResult r = exchangeOutcome(m_client, m_exchange, result, *status, *body, m_request.target.url);
        if (r.ok())
            emitProgress(m_total, m_total);
        finish(r);
    });
    m_exchange->start();
}

void HttpUploadJob::cancel()
{
    if (m_exchange)
        m_exchange->disconnect(this);
    finish(makeError(ErrorCode::Cancelled, tr("Cancelled")));
}

void HttpUploadJob::finish(VoidResult result)
{
    if (m_done)
        return;
    m_done = true;
    if (m_exchange) {
        m_exchange->disconnect(this);
        m_exchange->abort();
        m_exchange->deleteLater();
    }
    Q_EMIT finished(result);
}

HttpDownloadJob::HttpDownloadJob(CloudClient *client, HttpTarget target, QString localPath, QObject *parent)
    : TransferJob(parent)
    , m_client(client)
    , m_target(std::move(target))
    , m_localPath(std::move(localPath))
{
}

HttpDownloadJob::~HttpDownloadJob()
{
    if (m_exchange)
        m_exchange->disconnect(this);
}

void HttpDownloadJob::setRequest(QByteArray method, QByteArray body)
{
    m_method = std::move(method);
    m_body = std::move(body);
}

void HttpDownloadJob::start()
{
    if (!m_client)
        return finish(makeError(ErrorCode::Cancelled, tr("The account was closed")));
    m_out = std::make_unique<QSaveFile>(m_localPath);
    if (!m_out->open(QIODevice::WriteOnly))
        return finish(
            makeError(ErrorCode::InvalidArgument, tr("Cannot write %1: %2").arg(m_localPath, m_out->errorString())));
    net::HttpRequest req;
    req.method = m_method;
    req.body = m_body;
    req.connectTimeout = std::chrono::seconds(30);
    req.responseTimeout = std::chrono::seconds(60);
    // A download that stalls this long is dead, not slow.
    req.idleTimeout = std::chrono::seconds(120);
    // The socket is read only as fast as the file is written: TCP holds the server back.
    m_exchange = m_client->exchange(m_target, std::move(req), this);
    connect(m_exchange, &net::HttpExchange::headersReceived, this, [this](const net::HttpResponse &head) {
        m_status = head.status;
        bool ok = false;
        const qint64 len = head.header("Content-Length").toLongLong(&ok);
        m_total = ok && len >= 0 ? len : -1;
    });
    connect(m_exchange, &net::HttpExchange::bodyData, this, &HttpDownloadJob::write);
    connect(m_exchange, &net::HttpExchange::finished, this, [this](const VoidResult &result) {
        if (m_finished)
            return;
        VoidResult r = exchangeOutcome(m_client, m_exchange, result, m_status, m_errorBody, m_target.url);
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
    m_exchange->start();
}

void HttpDownloadJob::write(const QByteArray &chunk)
{
    if (m_finished)
        return;
    if (m_status < 200 || m_status >= 300) {
        // An error page is kept for its words, never written as the file.
        if (m_errorBody.size() < kErrorBodyBytes)
            m_errorBody.append(chunk.left(kErrorBodyBytes - m_errorBody.size()));
        return;
    }
    errno = 0;
    if (m_out->write(chunk) != chunk.size()) {
        // QSaveFile says "Unknown error" for a full disk; the system's word is clearer.
        const int err = errno;
        const QString why = err != 0 ? QString::fromLocal8Bit(std::strerror(err)) : m_out->errorString();
        return finish(makeError(ErrorCode::Internal, tr("Cannot write %1: %2").arg(m_localPath, why)));
    }
    m_done += chunk.size();
    emitProgress(m_done, m_total);
}

void HttpDownloadJob::cancel()
{
    finish(makeError(ErrorCode::Cancelled, tr("Cancelled")));
}

void HttpDownloadJob::finish(VoidResult result)
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_out && !result.ok())
        m_out->cancelWriting();
    if (m_exchange) {
        m_exchange->disconnect(this);
        m_exchange->abort();
        m_exchange->deleteLater();
    }
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

std::unique_ptr<TransferJob> makeSessionDownload(Provider *provider, const QString &sessionId,
                                                 const QString &remotePath, const QString &localDir,
                                                 const QString &name, ResolveUrl resolve, FileDownload fileJob)
{
    QPointer<Provider> self(provider);
    const auto gone = [] { return makeError(ErrorCode::Cancelled, tr("The account was closed")); };
    return std::make_unique<DeferredTransferJob>([=](QObject *context, DeferredTransferJob::Ready ready) {
        FilesFacet *files = self ? self->files() : nullptr;
        if (!files)
            return ready(gone());
        files->statPath(
            sessionId, remotePath, Callback<PathStat>(context, [=](Result<PathStat> st) {
                if (!st)
                    return ready(st.error());
                if (!st->exists)
                    return ready(makeError(ErrorCode::NotFound, tr("Nothing is at %1 in the sandbox").arg(remotePath)));
                resolve(context, Callback<QUrl>(context, [=](Result<QUrl> url) {
                            if (!url)
                                return ready(url.error());
                            if (!self || !self->files())
                                return ready(gone());
                            TreeOps ops;
                            ops.listRemote = [self, sessionId, gone](const QString &path,
                                                                     Callback<QList<FileEntry>> done) {
                                if (!self || !self->files())
                                    return done(gone());
                                self->files()->listFiles(sessionId, path, done);
                            };
                            const QUrl base = url.value();
                            ops.downloadFile = [fileJob, base](const QString &remoteFile, const QString &localFile) {
                                return fileJob(base, remoteFile, localFile);
                            };
                            ready(std::shared_ptr<TransferJob>(
                                makeTreeDownload(ops, remotePath, st->isDir, localDir, name).release()));
                        }));
            }));
    });
}

} // namespace sandbar::cloud
