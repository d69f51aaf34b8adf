// The parts of VercelProvider that work inside a running sandbox: commands, files, the
// terminal and the statistics.
#include "cloud/Transfers.h"
#include "providers/CopyJob.h"
#include "providers/ExecFileOps.h"
#include "providers/vercel/VercelJobs.h"
#include "providers/vercel/VercelProvider.h"
#include "providers/vercel/VercelTr.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sandbar::vercel {

namespace {
// The shell Vercel's image has; TERM as Vercel's own CLI sets it.
const QString kShell = QStringLiteral("bash");
} // namespace

std::unique_ptr<ExecJob> VercelProvider::exec(const QString &sessionId, const ExecRequest &request)
{
    return std::make_unique<VercelExecJob>(this, sessionId, request);
}

void VercelProvider::statPath(const QString &sessionId, const QString &path, Callback<PathStat> done)
{
    statPathByExec(*this, sessionId, path, std::move(done));
}

void VercelProvider::listFiles(const QString &sessionId, const QString &path, Callback<QList<FileEntry>> done)
{
    // Command output travels as JSON text: the listing comes base64-armoured.
    listFilesByExec(*this, sessionId, path, true, std::move(done));
}

void VercelProvider::removePath(const QString &sessionId, const QString &path, Callback<void> done)
{
    removePathByExec(*this, sessionId, path, std::move(done));
}

void VercelProvider::makeDir(const QString &sessionId, const QString &path, Callback<void> done)
{
    // fs/mkdir makes one folder, not its parents, and fails on one that exists: mkdir -p.
    makeDirByExec(*this, sessionId, path, std::move(done));
}

void VercelProvider::movePath(const QString &sessionId, const QString &from, const QString &to, Callback<void> done)
{
    movePathByExec(*this, sessionId, from, to, std::move(done));
}

void VercelProvider::setMode(const QString &sessionId, const QString &path, quint32 mode, Callback<void> done)
{
    setModeByExec(*this, sessionId, path, mode, std::move(done));
}

std::unique_ptr<TransferJob> VercelProvider::putItem(const QString &sessionId, const QString &localPath,
                                                     const QString &remoteDir, const QString &name)
{
    return std::make_unique<VercelUploadJob>(this, sessionId, localPath, remoteDir, name);
}

std::unique_ptr<TransferJob> VercelProvider::getItem(const QString &sessionId, const QString &remotePath,
                                                     const QString &localDir, const QString &name)
{
    QPointer<VercelProvider> self(this);
    return cloud::makeSessionDownload(
        this, sessionId, remotePath, localDir, name,
        [self, sessionId](QObject *, Callback<QUrl> done) {
            if (!self)
                return done(makeError(ErrorCode::Cancelled, tr("The account was closed")));
            self->sessionUrl(sessionId, QStringLiteral("/fs/read"), std::move(done));
        },
        // fs/read names the file in a JSON body, not in the URL.
        [self](const QUrl &base, const QString &remoteFile, const QString &localFile) -> std::unique_ptr<TransferJob> {
            auto job = std::make_unique<cloud::HttpDownloadJob>(
                self ? self->client() : nullptr,
                cloud::HttpTarget{base, {{QByteArray("Content-Type"), QByteArray("application/json")}}, true},
                localFile);
            job->setRequest(
                "POST",
                QJsonDocument(QJsonObject{{QStringLiteral("path"), remoteFile}}).toJson(QJsonDocument::Compact));
            return job;
        });
}

std::unique_ptr<TransferJob> VercelProvider::putTar(const QString &, QIODevice *, const QString &)
{
    // A tar from stdin would have to be recompressed as it comes; sandbarctl cp takes paths.
    return std::make_unique<FailedTransferJob>(unsupportedError(m_descriptor, Capability::Files));
}

std::unique_ptr<TransferJob> VercelProvider::getTar(const QString &, const QString &, QIODevice *)
{
    return std::make_unique<FailedTransferJob>(unsupportedError(m_descriptor, Capability::Files));
}

cloud::WebSocketTerminals::Connection VercelProvider::ptyConnection(const QString &sessionId, const PtyOptions &options)
{
    QPointer<VercelProvider> self(this);
    cloud::WebSocketPtyChannel::Hooks hooks;
    hooks.service = tr("Vercel Sandbox");
    // The first frame says what to run and at what size; nothing runs before it.
    const QString cwd = options.workingDir.isEmpty() ? m_records.value(sessionId).cwd : options.workingDir;
    hooks.openingText = [options, cwd] {
        QStringList env{QStringLiteral("TERM=xterm-256color")};
        env += options.env;
        const QStringList argv = options.argv.isEmpty() ? QStringList{kShell} : options.argv;
        QJsonObject start{{QStringLiteral("type"), QStringLiteral("start")},
                          {QStringLiteral("command"), argv.first()},
                          {QStringLiteral("args"), QJsonArray::fromStringList(argv.mid(1))},
                          {QStringLiteral("env"), QJsonArray::fromStringList(env)},
                          {QStringLiteral("cols"), qBound(1, options.cols, 1000)},
                          {QStringLiteral("rows"), qBound(1, options.rows, 1000)}};
        if (!cwd.isEmpty())
            start.insert(QStringLiteral("cwd"), cwd);
        return QString::fromUtf8(QJsonDocument(start).toJson(QJsonDocument::Compact));
    };
    hooks.resizeText = [](int cols, int rows) {
        return QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("resize")},
                                                           {QStringLiteral("cols"), qBound(1, cols, 1000)},
                                                           {QStringLiteral("rows"), qBound(1, rows, 1000)}})
                                     .toJson(QJsonDocument::Compact));
    };
    // The exit comes as a text frame before the socket closes; the close then says nothing more.
    auto exitCode = std::make_shared<std::optional<int>>();
    hooks.textFrame = [exitCode](const QString &text) -> Result<cloud::WebSocketPtyChannel::TextFrame> {
        if (const auto code = parseExitFrame(text)) {
            *exitCode = *code;
            return cloud::WebSocketPtyChannel::TextFrame{};
        }
        // Anything else in text is output, as Vercel's CLI shows it.
        return cloud::WebSocketPtyChannel::TextFrame{false, text.toUtf8()};
    };
    hooks.closed = [exitCode](QWebSocketProtocol::CloseCode code, const QString &reason) -> Result<int> {
        if (*exitCode)
            return **exitCode;
        if (code == QWebSocketProtocol::CloseCodeNormal)
            return 0;
        return makeError(ErrorCode::Unavailable,
                         tr("Vercel closed the terminal (%1%2)")
                             .arg(int(code))
                             .arg(reason.isEmpty() ? QString() : QStringLiteral(": ") + reason));
    };
    auto opener = [self, sessionId](Callback<QNetworkRequest> ready) {
        if (!self)
            return ready(makeError(ErrorCode::Cancelled, tr("The account was closed")));
        self->sessionCall(sessionId, QStringLiteral("/interactive"), QByteArrayLiteral("{}"),
                          Callback<cloud::ApiReply>(ready.context(), [self, ready](Result<cloud::ApiReply> r) {
                              if (!r)
                                  return ready(r.error());
                              auto where = parseInteractive(r->body);
                              if (!where)
                                  return ready(where.error());
                              if (!self)
                                  return ready(makeError(ErrorCode::Cancelled, tr("The account was closed")));
                              QUrl url(where->url);
                              QUrlQuery q(url);
                              q.addQueryItem(QStringLiteral("token"),
                                             QString::fromLatin1(QUrl::toPercentEncoding(where->token)));
                              url.setQuery(q);
                              // The token is the credential: the account's key stays home.
                              ready(self->client()->request(url, {}, false));
                          }));
    };
    return cloud::WebSocketTerminals::Connection{opener, hooks, {}};
}

void VercelProvider::sample(const QString &sessionId, Callback<StatsSample> done)
{
    getSandbox(sessionId, false, Callback<VercelRecord>(this, [this, sessionId, done](Result<VercelRecord> r) {
                   if (!r)
                       return done(r.error());
                   StatsSample s;
                   s.time = m_clock->currentDateTimeUtc();
                   s.networkRxBytes = r->ingressBytes;
                   s.networkTxBytes = r->egressBytes;
                   if (r->activeCpuMs) {
                       const qint64 now = m_since.elapsed();
                       const auto before = m_cpu.constFind(sessionId);
                       if (before != m_cpu.cend())
                           s.cpuPercent = cpuPercent(before->cpuMs, *r->activeCpuMs, now - before->atMs);
                       m_cpu.insert(sessionId, CpuReading{*r->activeCpuMs, now});
                   }
                   done(s);
               }));
}

void VercelProvider::keptUntil(const QString &sessionId, Callback<cloud::TerminalKeepAlive::Ends> done)
{
    const qint64 maxMs = m_settings.maxTimeoutSeconds * 1000;
    getSandbox(sessionId, false, Callback<VercelRecord>(done.context(), [done, maxMs](Result<VercelRecord> r) {
                   if (!r)
                       return done(r.error());
                   cloud::TerminalKeepAlive::Ends ends;
                   if (r->info.state != SessionState::Running || !r->sessionStarted.isValid() || r->timeoutMs <= 0)
                       return done(ends); // nothing runs that Vercel would end
                   ends.service = r->sessionStarted.addMSecs(r->timeoutMs);
                   ends.sandbar = r->sessionStarted.addMSecs(maxMs);
                   if (r->deadline.isValid() && r->deadline < ends.sandbar)
                       ends.sandbar = r->deadline;
                   done(ends);
               }));
}

void VercelProvider::lengthen(const QString &sessionId, qint64 ms, Callback<void> done)
{
    sessionCall(sessionId, QStringLiteral("/extend-timeout"),
                QJsonDocument(QJsonObject{{QStringLiteral("duration"), double(ms)}}).toJson(QJsonDocument::Compact),
                Callback<cloud::ApiReply>(done.context(), [done](Result<cloud::ApiReply> e) {
                    if (!e)
                        return done(makeError(e.code(), tr("Vercel did not extend the sandbox: %1").arg(e.message())));
                    done(VoidResult{});
                }));
}

} // namespace sandbar::vercel
