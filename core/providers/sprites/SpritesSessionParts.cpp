// The parts of SpritesProvider that work inside a sprite: commands, terminals and files.
#include "cloud/Transfers.h"
#include "providers/CopyJob.h"
#include "providers/ExecFileOps.h"
#include "providers/sprites/SpritesJobs.h"
#include "providers/sprites/SpritesProvider.h"
#include "providers/sprites/SpritesTr.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>

namespace sandbar::sprites {

namespace {
// A sprite's login shell, as its own CLI starts it.
const QStringList kShell{QStringLiteral("bash"), QStringLiteral("-l")};
} // namespace

QNetworkRequest SpritesProvider::execRequest(const QString &sprite, const QUrlQuery &query,
                                             const QString &attachId) const
{
    QUrlQuery q = query;
    if (!attachId.isEmpty()) {
        q = QUrlQuery();
        q.addQueryItem(QStringLiteral("stdin"), QStringLiteral("true"));
    }
    const QString suffix = attachId.isEmpty() ? QStringLiteral("/exec") : QStringLiteral("/exec/") + enc(attachId);
    return m_client->request(spriteUrl(sprite, suffix, q));
}

std::unique_ptr<ExecJob> SpritesProvider::exec(const QString &sessionId, const ExecRequest &request)
{
    return std::make_unique<SpritesExecJob>(this, sessionId, request);
}

cloud::WebSocketTerminals::Connection SpritesProvider::ptyConnection(const QString &sessionId,
                                                                     const PtyOptions &options)
{
    QPointer<SpritesProvider> self(this);
    const bool attach = !options.attachId.isEmpty();
    cloud::WebSocketPtyChannel::Hooks hooks;
    hooks.service = serviceName();
    hooks.connectTimeoutMs = 60000; // a cold sprite wakes first
    // An attach learns the session's mode from session_info before anything else counts.
    hooks.waitForReady = attach;
    hooks.resizeText = [](int cols, int rows) { return resizeText(cols, rows); };
    struct State {
        std::optional<int> exitCode;
        QString sessionId;
    };
    auto state = std::make_shared<State>();
    state->sessionId = options.attachId;
    hooks.textFrame = [self, sessionId, state](const QString &text) -> Result<cloud::WebSocketPtyChannel::TextFrame> {
        const auto m = parseControl(text);
        if (!m)
            return cloud::WebSocketPtyChannel::TextFrame{}; // a notice Sandbar has no use for
        switch (m->kind) {
        case ControlMessage::Kind::SessionInfo:
            if (!m->sessionId.isEmpty())
                state->sessionId = m->sessionId;
            return cloud::WebSocketPtyChannel::TextFrame{true, {}};
        case ControlMessage::Kind::Exit: state->exitCode = m->exitCode; break;
        case ControlMessage::Kind::PortOpened:
        case ControlMessage::Kind::PortClosed:
            if (self)
                self->notePort(sessionId, m->port, m->kind == ControlMessage::Kind::PortOpened);
            break;
        }
        return cloud::WebSocketPtyChannel::TextFrame{};
    };
    hooks.closed = [state](QWebSocketProtocol::CloseCode code, const QString &reason) -> Result<int> {
        if (state->exitCode)
            return *state->exitCode;
        // As the SDK reads a TTY's end without an exit message.
        if (code == QWebSocketProtocol::CloseCodeNormal)
            return 0;
        return makeError(ErrorCode::Unavailable,
                         tr("Sprites closed the terminal (%1%2)")
                             .arg(int(code))
                             .arg(reason.isEmpty() ? QString() : QStringLiteral(": ") + reason));
    };
    // The service keeps a terminal running when its socket closes (to be reattached): closing
    // the tab ends its shell, so that the sprite can sleep.
    hooks.hangup = [self, sessionId, state] {
        if (!self || state->sessionId.isEmpty())
            return false;
        cloud::ApiCall kill;
        kill.method = "POST";
        kill.url =
            self->spriteUrl(sessionId, QStringLiteral("/exec/") + enc(state->sessionId) + QStringLiteral("/kill"),
                            QUrlQuery(QStringLiteral("signal=HUP&timeout=5s")));
        self->m_client->call(kill, Callback<cloud::ApiReply>(self, [](Result<cloud::ApiReply>) {}), {404});
        return true;
    };
    const QStringList argv = options.argv.isEmpty() ? kShell : options.argv;
    QStringList env{QStringLiteral("TERM=xterm-256color")};
    env += options.env;
    const QNetworkRequest request = execRequest(
        sessionId, execQuery(argv, env, options.workingDir, true, options.cols, options.rows), options.attachId);
    return cloud::WebSocketTerminals::Connection{cloud::WebSocketPtyChannel::fixedRequest(request), hooks, {}};
}

void SpritesProvider::listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done)
{
    m_client->call(apiCall("GET", QStringLiteral("/v1/sprites/") + enc(sessionId) + QStringLiteral("/exec")),
                   Callback<cloud::ApiReply>(done.context(), [done](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(r.error());
                       auto sessions = parseSessionList(r->body);
                       if (!sessions)
                           return done(sessions.error());
                       QList<PtyEntry> out;
                       for (const ExecSession &s : sessions.value()) {
                           if (!s.tty)
                               continue;
                           PtyEntry e;
                           e.id = s.id;
                           e.argv = QProcess::splitCommand(s.command);
                           e.exited = false; // the list holds running sessions only
                           out.append(e);
                       }
                       done(out);
                   }));
}

void SpritesProvider::sample(const QString &sessionId, Callback<StatsSample> done)
{
    // Sprites report no resource use of their own, and a command to read the sprite's /proc
    // would keep it awake and billed: that is read only while its Stats tab is open (the kit's
    // stream). Here the sprite's state says what is known: asleep, it runs nothing and holds no
    // memory it pays for; awake, the figures are the stream's.
    getSprite(sessionId, Callback<SpriteRecord>(done.context(), [this, done](Result<SpriteRecord> r) {
                  if (!r)
                      return done(r.error());
                  StatsSample s;
                  s.time = m_clock->currentDateTimeUtc();
                  if (r->info.asleep) {
                      s.cpuPercent = 0.0;
                      s.memoryUsedBytes = 0;
                  }
                  done(s);
              }));
}

void SpritesProvider::statPath(const QString &sessionId, const QString &path, Callback<PathStat> done)
{
    statPathByExec(*this, sessionId, path, std::move(done));
}

void SpritesProvider::listFiles(const QString &sessionId, const QString &path, Callback<QList<FileEntry>> done)
{
    cloud::ApiCall call = apiCall("GET", QStringLiteral("/v1/sprites/") + enc(sessionId) + QStringLiteral("/fs/list"));
    call.query.addQueryItem(QStringLiteral("path"), QString::fromLatin1(QUrl::toPercentEncoding(path)));
    call.query.addQueryItem(QStringLiteral("workingDir"), QStringLiteral("/"));
    m_client->call(call, Callback<cloud::ApiReply>(done.context(), [done, path](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(r.error());
                       done(parseFsList(r->body, path));
                   }));
}

void SpritesProvider::removePath(const QString &sessionId, const QString &path, Callback<void> done)
{
    cloud::ApiCall call =
        apiCall("DELETE", QStringLiteral("/v1/sprites/") + enc(sessionId) + QStringLiteral("/fs/delete"));
    call.query.addQueryItem(QStringLiteral("path"), QString::fromLatin1(QUrl::toPercentEncoding(path)));
    call.query.addQueryItem(QStringLiteral("workingDir"), QStringLiteral("/"));
    call.query.addQueryItem(QStringLiteral("recursive"), QStringLiteral("true"));
    m_client->call(call, Callback<cloud::ApiReply>(done.context(), [done](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(r.error());
                       done(VoidResult{});
                   }));
}

void SpritesProvider::makeDir(const QString &sessionId, const QString &path, Callback<void> done)
{
    // The files API makes folders only on the way to a file: mkdir -p.
    makeDirByExec(*this, sessionId, path, std::move(done));
}

void SpritesProvider::movePath(const QString &sessionId, const QString &from, const QString &to, Callback<void> done)
{
    if (const auto refused = moveRefusal(from, to))
        return done.post(*refused);
    // fs/rename replaces what is at the target: looked for first, so that nothing is overwritten.
    statPath(sessionId, to, Callback<PathStat>(this, [this, sessionId, from, to, done](Result<PathStat> there) {
                 if (!there)
                     return done(there.error());
                 if (there->exists)
                     return done(makeError(ErrorCode::Conflict, tr("'%1' exists already").arg(to)));
                 cloud::ApiCall call =
                     apiCall("POST", QStringLiteral("/v1/sprites/") + enc(sessionId) + QStringLiteral("/fs/rename"));
                 call.body = QJsonDocument(QJsonObject{{QStringLiteral("source"), from},
                                                       {QStringLiteral("dest"), to},
                                                       {QStringLiteral("workingDir"), QStringLiteral("/")}})
                                 .toJson(QJsonDocument::Compact);
                 m_client->call(call, Callback<cloud::ApiReply>(done.context(), [done](Result<cloud::ApiReply> r) {
                                    if (!r)
                                        return done(r.error());
                                    done(VoidResult{});
                                }));
             }));
}

void SpritesProvider::setMode(const QString &sessionId, const QString &path, quint32 mode, Callback<void> done)
{
    if (const auto refused = modeRefusal(path, mode))
        return done.post(*refused);
    cloud::ApiCall call =
        apiCall("POST", QStringLiteral("/v1/sprites/") + enc(sessionId) + QStringLiteral("/fs/chmod"));
    call.body = QJsonDocument(QJsonObject{{QStringLiteral("path"), path},
                                          {QStringLiteral("workingDir"), QStringLiteral("/")},
                                          {QStringLiteral("mode"), modeText(mode)}})
                    .toJson(QJsonDocument::Compact);
    m_client->call(call, Callback<cloud::ApiReply>(done.context(), [done](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(r.error());
                       done(VoidResult{});
                   }));
}

std::unique_ptr<TransferJob> SpritesProvider::putItem(const QString &sessionId, const QString &localPath,
                                                      const QString &remoteDir, const QString &name)
{
    QPointer<SpritesProvider> self(this);
    cloud::TreeOps ops;
    ops.makeRemoteDir = [self, sessionId](const QString &dir, Callback<void> done) {
        if (!self)
            return done(makeError(ErrorCode::Cancelled, tr("The account was closed")));
        self->makeDir(sessionId, dir, std::move(done));
    };
    ops.uploadFile = [self, sessionId](const QString &localFile,
                                       const QString &remoteFile) -> std::unique_ptr<TransferJob> {
        if (!self)
            return std::make_unique<FailedTransferJob>(makeError(ErrorCode::Cancelled, tr("The account was closed")));
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("path"), QString::fromLatin1(QUrl::toPercentEncoding(remoteFile)));
        q.addQueryItem(QStringLiteral("workingDir"), QStringLiteral("/"));
        q.addQueryItem(QStringLiteral("mkdirParents"), QStringLiteral("true"));
        // The file keeps its permission bits (an executable stays one).
        const auto perms = QFileInfo(localFile).permissions();
        const int mode = ((perms & QFileDevice::ExeOwner) ? 0755 : 0644);
        q.addQueryItem(QStringLiteral("mode"), QStringLiteral("0%1").arg(mode, 0, 8));
        cloud::UploadRequest request;
        request.method = "PUT";
        request.target = cloud::HttpTarget{self->spriteUrl(sessionId, QStringLiteral("/fs/write"), q),
                                           {{QByteArray("Content-Type"), QByteArray("application/octet-stream")}},
                                           true};
        request.localPath = localFile;
        return std::make_unique<cloud::HttpUploadJob>(self->client(), request);
    };
    return cloud::makeTreeUpload(ops, localPath, remoteDir, name);
}

std::unique_ptr<TransferJob> SpritesProvider::getItem(const QString &sessionId, const QString &remotePath,
                                                      const QString &localDir, const QString &name)
{
    QPointer<SpritesProvider> self(this);
    return cloud::makeSessionDownload(
        this, sessionId, remotePath, localDir, name,
        [self, sessionId](QObject *, Callback<QUrl> done) {
            if (!self)
                return done(makeError(ErrorCode::Cancelled, tr("The account was closed")));
            done(self->spriteUrl(sessionId, QStringLiteral("/fs/read")));
        },
        [self](const QUrl &base, const QString &remoteFile, const QString &localFile) -> std::unique_ptr<TransferJob> {
            QUrl url = base;
            QUrlQuery q;
            q.addQueryItem(QStringLiteral("path"), QString::fromLatin1(QUrl::toPercentEncoding(remoteFile)));
            q.addQueryItem(QStringLiteral("workingDir"), QStringLiteral("/"));
            url.setQuery(q);
            return std::make_unique<cloud::HttpDownloadJob>(self ? self->client() : nullptr,
                                                            cloud::HttpTarget{url, {}, true}, localFile);
        });
}

std::unique_ptr<TransferJob> SpritesProvider::putTar(const QString &, QIODevice *, const QString &)
{
    // Sprites take files one by one; sandbarctl cp takes paths.
    return std::make_unique<FailedTransferJob>(unsupportedError(m_descriptor, Capability::Files));
}

std::unique_ptr<TransferJob> SpritesProvider::getTar(const QString &, const QString &, QIODevice *)
{
    return std::make_unique<FailedTransferJob>(unsupportedError(m_descriptor, Capability::Files));
}

} // namespace sandbar::sprites
