// DaytonaProvider's in-sandbox half: the toolbox (terminals, commands, files) and telemetry.
#include "cloud/ServiceUrl.h"
#include "cloud/Transfers.h"
#include "cloud/WebSocketPtyChannel.h"
#include "cloud/WebSocketTerminals.h"
#include "providers/CopyJob.h"
#include "providers/ExecFileOps.h"
#include "providers/daytona/DaytonaJobs.h"
#include "providers/daytona/DaytonaProvider.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

namespace sandbar::daytona {

namespace {
QUrl withPath(QUrl url, const QString &path)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("path"), QString::fromUtf8(QUrl::toPercentEncoding(path)));
    url.setQuery(q);
    return url;
}

QUrlQuery pathQuery(const QString &path)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("path"), QString::fromUtf8(QUrl::toPercentEncoding(path)));
    return q;
}

QString ptyPath(const QString &ptyId)
{
    return QStringLiteral("/process/pty/") + QString::fromLatin1(QUrl::toPercentEncoding(ptyId));
}

Result<cloud::WebSocketPtyChannel::TextFrame> ptyTextFrame(const QString &text)
{
    auto r = parsePtyControl(text);
    if (!r)
        return r.error();
    cloud::WebSocketPtyChannel::TextFrame f;
    f.ready = r.value();
    return f;
}

Result<int> ptyClosed(QWebSocketProtocol::CloseCode code, const QString &reason)
{
    const PtyCloseReason why = parsePtyCloseReason(reason);
    if (why.exitCode)
        return *why.exitCode;
    if (code == QWebSocketProtocol::CloseCodeNormal)
        return 0;
    return makeError(ErrorCode::Unavailable,
                     reason.isEmpty() ? DaytonaProvider::tr("The terminal connection to Daytona was closed before the "
                                                            "shell ended (code %1)")
                                            .arg(int(code))
                                      : DaytonaProvider::tr("The terminal connection to Daytona was closed before the "
                                                            "shell ended (code %1: %2)")
                                            .arg(int(code))
                                            .arg(reason));
}

// The toolbox's request for a new PTY of these options.
QByteArray ptyCreateBody(const PtyOptions &options)
{
    QJsonObject body{{QStringLiteral("id"),
                      QString(QStringLiteral("sandbar-") + QUuid::createUuid().toString(QUuid::Id128).left(12))},
                     {QStringLiteral("cols"), qBound(1, options.cols, 1000)},
                     {QStringLiteral("rows"), qBound(1, options.rows, 1000)},
                     {QStringLiteral("lazyStart"), false}};
    if (!options.workingDir.isEmpty())
        body.insert(QStringLiteral("cwd"), options.workingDir);
    QJsonObject envs{{QStringLiteral("TERM"), QStringLiteral("xterm-256color")}};
    for (const QString &kv : options.env) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (eq > 0)
            envs.insert(kv.left(eq), kv.mid(eq + 1));
    }
    body.insert(QStringLiteral("envs"), envs);
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}
} // namespace

void DaytonaProvider::toolboxUrl(const QString &sessionId, const QString &path, Callback<QUrl> done)
{
    if (m_toolbox.contains(sessionId))
        return done(cloud::joinUrl(m_toolbox.value(sessionId), path));
    info(sessionId, Callback<SessionInfo>(this, [this, sessionId, path, done](Result<SessionInfo> r) {
             if (!r)
                 return done(r.error());
             if (!m_toolbox.contains(sessionId))
                 return done(
                     makeError(ErrorCode::Unavailable,
                               tr("Daytona gave no usable toolbox address for this sandbox (https is needed)")));
             done(cloud::joinUrl(m_toolbox.value(sessionId), path));
         }));
}

QNetworkRequest DaytonaProvider::toolboxRequest(const QUrl &url) const
{
    return m_client->request(url, {}, true);
}

void DaytonaProvider::toolboxCall(const QString &sessionId, cloud::ApiCall call, Callback<cloud::ApiReply> done,
                                  QList<int> okStatuses)
{
    const QString path = call.path;
    toolboxUrl(sessionId, path,
               Callback<QUrl>(done.context() ? done.context() : this,
                              [this, call, done, okStatuses](Result<QUrl> url) mutable {
                                  if (!url)
                                      return done(url.error());
                                  call.url = url.value();
                                  call.path.clear();
                                  m_client->call(call, done, okStatuses);
                              }));
}

cloud::WebSocketTerminals::Connection DaytonaProvider::ptyConnection(const QString &sessionId,
                                                                     const PtyOptions &options)
{
    QPointer<DaytonaProvider> self(this);
    auto ptyId = std::make_shared<QString>(options.attachId);
    cloud::WebSocketPtyChannel::Hooks hooks;
    hooks.service = tr("Daytona");
    hooks.waitForReady = true;
    hooks.textFrame = ptyTextFrame;
    hooks.closed = ptyClosed;
    hooks.resize = [self, sessionId, ptyId](int cols, int rows) {
        if (!self || ptyId->isEmpty())
            return;
        cloud::ApiCall call;
        call.method = "POST";
        call.path = ptyPath(*ptyId) + QStringLiteral("/resize");
        call.body = QJsonDocument(QJsonObject{{QStringLiteral("cols"), qBound(1, cols, 1000)},
                                              {QStringLiteral("rows"), qBound(1, rows, 1000)}})
                        .toJson(QJsonDocument::Compact);
        self->toolboxCall(sessionId, call, Callback<cloud::ApiReply>(self, [](Result<cloud::ApiReply>) {}));
    };
    // Ending the terminal ends its program: the toolbox then closes the socket with the exit.
    hooks.hangup = [self, sessionId, ptyId]() {
        if (!self || ptyId->isEmpty())
            return false;
        cloud::ApiCall call;
        call.method = "DELETE";
        call.path = ptyPath(*ptyId);
        self->toolboxCall(sessionId, call, Callback<cloud::ApiReply>(self, [](Result<cloud::ApiReply>) {}));
        return true;
    };
    auto opener = [self, sessionId, ptyId, options](Callback<QNetworkRequest> ready) {
        if (!self)
            return ready(makeError(ErrorCode::Cancelled, tr("The account was closed")));
        const auto connectTo = [self, sessionId, ptyId, ready] {
            self->toolboxUrl(sessionId, ptyPath(*ptyId) + QStringLiteral("/connect"),
                             Callback<QUrl>(ready.context(), [self, ready](Result<QUrl> url) {
                                 if (!url)
                                     return ready(url.error());
                                 if (!self)
                                     return ready(makeError(ErrorCode::Cancelled, tr("The account was closed")));
                                 ready(self->toolboxRequest(url.value()));
                             }));
        };
        if (!ptyId->isEmpty())
            return connectTo();
        cloud::ApiCall call;
        call.method = "POST";
        call.path = QStringLiteral("/process/pty");
        call.body = ptyCreateBody(options);
        call.idempotent = false;
        self->toolboxCall(
            sessionId, call,
            Callback<cloud::ApiReply>(ready.context(), [ptyId, connectTo, ready](Result<cloud::ApiReply> r) {
                if (!r)
                    return ready(r.error());
                auto id = parsePtyCreated(r->body);
                if (!id)
                    return ready(id.error());
                *ptyId = id.value();
                connectTo();
            }));
    };
    cloud::WebSocketTerminals::Connection c{opener, std::move(hooks), {}};
    // The toolbox's PTY always runs the sandbox user's shell; another program replaces it.
    if (!options.argv.isEmpty() && options.attachId.isEmpty())
        c.typeFirst = (QStringLiteral("exec ") + shellJoin(options.argv) + QLatin1Char('\n')).toUtf8();
    return c;
}

void DaytonaProvider::ptyList(const QString &sessionId, Callback<QList<PtyEntry>> done)
{
    cloud::ApiCall call;
    call.path = QStringLiteral("/process/pty");
    toolboxCall(sessionId, call, Callback<cloud::ApiReply>(done.context(), [done](Result<cloud::ApiReply> r) {
                    if (!r)
                        return done(r.error());
                    done(parsePtyList(r->body));
                }));
}

std::unique_ptr<ExecJob> DaytonaProvider::exec(const QString &sessionId, const ExecRequest &request)
{
    return std::make_unique<DaytonaExecJob>(this, sessionId, request);
}

void DaytonaProvider::statPath(const QString &sessionId, const QString &path, Callback<PathStat> done)
{
    cloud::ApiCall call;
    call.path = QStringLiteral("/files/info");
    call.query = pathQuery(path);
    toolboxCall(sessionId, call,
                Callback<cloud::ApiReply>(done.context(),
                                          [done, path](Result<cloud::ApiReply> r) {
                                              if (!r)
                                                  return done(r.error());
                                              PathStat st;
                                              if (r->status == 404)
                                                  return done(st);
                                              auto e = parseFileInfoJson(r->body, path);
                                              if (!e)
                                                  return done(e.error());
                                              st.exists = true;
                                              st.isDir = e->isDir;
                                              done(st);
                                          }),
                {404});
}

void DaytonaProvider::listFiles(const QString &sessionId, const QString &path, Callback<QList<FileEntry>> done)
{
    cloud::ApiCall call;
    call.path = QStringLiteral("/files");
    call.query = pathQuery(path);
    toolboxCall(sessionId, call, Callback<cloud::ApiReply>(done.context(), [done, path](Result<cloud::ApiReply> r) {
                    if (!r)
                        return done(r.error());
                    done(parseFileList(r->body, path));
                }));
}

void DaytonaProvider::makeDir(const QString &sessionId, const QString &path, Callback<void> done)
{
    cloud::ApiCall call;
    call.method = "POST";
    call.path = QStringLiteral("/files/folder");
    call.query = pathQuery(path);
    call.query.addQueryItem(QStringLiteral("mode"), QStringLiteral("0755"));
    toolboxCall(sessionId, call, Callback<cloud::ApiReply>(done.context(), [done](Result<cloud::ApiReply> r) {
                    if (!r)
                        return done(r.error());
                    done(VoidResult{});
                }));
}

void DaytonaProvider::removePath(const QString &sessionId, const QString &path, Callback<void> done)
{
    if (path.isEmpty() || path == QLatin1String("/"))
        return done.post(makeError(ErrorCode::InvalidArgument, tr("Refusing to delete '%1'").arg(path)));
    cloud::ApiCall call;
    call.method = "DELETE";
    call.path = QStringLiteral("/files");
    call.query = pathQuery(path);
    call.query.addQueryItem(QStringLiteral("recursive"), QStringLiteral("true"));
    toolboxCall(sessionId, call, Callback<cloud::ApiReply>(done.context(), [done](Result<cloud::ApiReply> r) {
                    if (!r)
                        return done(r.error());
                    done(VoidResult{});
                }));
}

// The toolbox's move (a rename) would replace an existing target: a command keeps FilesFacet's
// rule, and sets the mode with it.
void DaytonaProvider::movePath(const QString &sessionId, const QString &from, const QString &to, Callback<void> done)
{
    movePathByExec(*this, sessionId, from, to, std::move(done));
}

void DaytonaProvider::setMode(const QString &sessionId, const QString &path, quint32 mode, Callback<void> done)
{
    setModeByExec(*this, sessionId, path, mode, std::move(done));
}

std::unique_ptr<TransferJob> DaytonaProvider::putItem(const QString &sessionId, const QString &localPath,
                                                      const QString &remoteDir, const QString &name)
{
    QPointer<DaytonaProvider> self(this);
    return std::make_unique<cloud::DeferredTransferJob>([self, sessionId, localPath, remoteDir, name](
                                                            QObject *context, cloud::DeferredTransferJob::Ready ready) {
        if (!self)
            return ready(makeError(ErrorCode::Cancelled, tr("The account was closed")));
        self->toolboxUrl(
            sessionId, QStringLiteral("/files/upload"),
            Callback<QUrl>(context, [self, sessionId, localPath, remoteDir, name, ready](Result<QUrl> url) {
                if (!url)
                    return ready(url.error());
                if (!self)
                    return ready(makeError(ErrorCode::Cancelled, tr("The account was closed")));
                const QUrl uploadUrl = url.value();
                cloud::TreeOps ops;
                ops.makeRemoteDir = [self, sessionId](const QString &path, Callback<void> done) {
                    if (!self)
                        return done(makeError(ErrorCode::Cancelled, tr("The account was closed")));
                    self->makeDir(sessionId, path, done);
                };
                ops.uploadFile = [self, uploadUrl](const QString &localFile,
                                                   const QString &remoteFile) -> std::unique_ptr<TransferJob> {
                    cloud::UploadRequest req;
                    req.target = cloud::HttpTarget{withPath(uploadUrl, remoteFile), {}, true};
                    req.localPath = localFile;
                    req.multipartField = "file";
                    req.multipartFileName = QFileInfo(remoteFile).fileName();
                    return std::make_unique<cloud::HttpUploadJob>(self->client(), req);
                };
                ready(std::shared_ptr<TransferJob>(cloud::makeTreeUpload(ops, localPath, remoteDir, name).release()));
            }));
    });
}

std::unique_ptr<TransferJob> DaytonaProvider::getItem(const QString &sessionId, const QString &remotePath,
                                                      const QString &localDir, const QString &name)
{
    QPointer<DaytonaProvider> self(this);
    return cloud::makeSessionDownload(
        this, sessionId, remotePath, localDir, name,
        [self, sessionId](QObject *, Callback<QUrl> done) {
            if (!self)
                return done(makeError(ErrorCode::Cancelled, tr("The account was closed")));
            self->toolboxUrl(sessionId, QStringLiteral("/files/download"), std::move(done));
        },
        [self](const QUrl &base, const QString &remoteFile, const QString &localFile) -> std::unique_ptr<TransferJob> {
            return std::make_unique<cloud::HttpDownloadJob>(
                self ? self->client() : nullptr, cloud::HttpTarget{withPath(base, remoteFile), {}, true}, localFile);
        });
}

void DaytonaProvider::telemetry(const QString &sessionId, Callback<StatsSample> done)
{
    cloud::ApiCall call;
    call.path = QStringLiteral("/sandbox/") + QString::fromLatin1(QUrl::toPercentEncoding(sessionId)) +
                QStringLiteral("/telemetry/metrics");
    const QDateTime now = QDateTime::currentDateTimeUtc();
    call.query.addQueryItem(QStringLiteral("from"), now.addSecs(-600).toString(Qt::ISODate));
    call.query.addQueryItem(QStringLiteral("to"), now.toString(Qt::ISODate));
    std::optional<double> cores;
    if (m_cpus.contains(sessionId))
        cores = m_cpus.value(sessionId);
    m_client->call(call, Callback<cloud::ApiReply>(done.context(), [done, cores](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(r.error());
                       done(parseTelemetry(r->body, cores));
                   }));
}

std::unique_ptr<TransferJob> DaytonaProvider::putTar(const QString &, QIODevice *, const QString &)
{
    return std::make_unique<FailedTransferJob>(unsupportedError(m_descriptor, Capability::Files));
}

std::unique_ptr<TransferJob> DaytonaProvider::getTar(const QString &, const QString &, QIODevice *)
{
    return std::make_unique<FailedTransferJob>(unsupportedError(m_descriptor, Capability::Files));
}

} // namespace sandbar::daytona
