#include "providers/e2b/E2bProvider.h"

#include "cloud/JsonValues.h"
#include "cloud/Transfers.h"
#include "providers/CopyJob.h"
#include "providers/ExecFileOps.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>
#include <QUuid>

namespace sandbar::e2b {

namespace {
const QString kService = QStringLiteral("E2B");
constexpr int kCreateAttempts = 3;

QString sandboxPath(const QString &id, const QString &rest = {})
{
    return QStringLiteral("/sandboxes/") + QString::fromLatin1(QUrl::toPercentEncoding(id)) + rest;
}

// GET /v2/sandboxes/{id}/logs, once or (follow) every two seconds from the last timestamp.
class E2bLogStream : public LogStream
{
public:
    E2bLogStream(cloud::CloudClient *client, QString id, LogOptions options)
        : m_client(client)
        , m_id(std::move(id))
        , m_options(options)
    {
        m_timer.setInterval(2000);
        m_timer.setSingleShot(true);
        connect(&m_timer, &QTimer::timeout, this, &E2bLogStream::fetch);
    }
    void start() override { fetch(); }
    void stop() override
    {
        m_stopped = true;
        m_timer.stop();
    }

private:
    void fetch()
    {
        if (m_stopped || !m_client)
            return;
        cloud::ApiCall call;
        call.path = QStringLiteral("/v2") + sandboxPath(m_id, QStringLiteral("/logs"));
        call.query.addQueryItem(QStringLiteral("limit"), QStringLiteral("1000"));
        if (m_cursor > 0)
            call.query.addQueryItem(QStringLiteral("cursor"), QString::number(m_cursor + 1));
        call.query.addQueryItem(QStringLiteral("direction"), QStringLiteral("forward"));
        m_client->callJson(std::move(call), Callback<QJsonDocument>(this, [this](Result<QJsonDocument> r) {
                               if (m_stopped)
                                   return;
                               if (!r.ok())
                                   return Q_EMIT finished(r.error());
                               QByteArray out;
                               const QJsonArray logs = r->object().value(QLatin1String("logs")).toArray();
                               QStringList lines;
                               for (const QJsonValue &v : logs) {
                                   const QJsonObject o = v.toObject();
                                   const QDateTime t = cloud::parseTime(o.value(QLatin1String("timestamp")).toString());
                                   if (t.isValid())
                                       m_cursor = qMax(m_cursor, t.toMSecsSinceEpoch());
                                   QString line = o.value(QLatin1String("message")).toString();
                                   if (line.isEmpty())
                                       line = o.value(QLatin1String("line")).toString();
                                   if (m_options.timestamps)
                                       line = o.value(QLatin1String("timestamp")).toString() + QLatin1Char(' ') + line;
                                   lines << line;
                               }
                               if (m_options.tail >= 0 && lines.size() > m_options.tail && !m_followed)
                                   lines = lines.mid(lines.size() - m_options.tail);
                               for (const QString &l : lines)
                                   out += l.toUtf8() + '\n';
                               if (!out.isEmpty())
                                   Q_EMIT data(out, 1);
                               m_followed = true;
                               if (!m_options.follow)
                                   return Q_EMIT finished({});
                               m_timer.start();
                           }));
    }
    QPointer<cloud::CloudClient> m_client;
    QString m_id;
    LogOptions m_options;
    QTimer m_timer;
    qint64 m_cursor = 0;
    bool m_followed = false;
    bool m_stopped = false;
};
} // namespace

E2bProvider::E2bProvider(const ProviderDescriptor &descriptor, QString account, E2bSettings settings,
                         cloud::CloudClient::Options client, QObject *parent)
    : Provider(parent)
    , CopyingFiles(this)
    , m_descriptor(descriptor)
    , m_account(std::move(account))
    , m_settings(std::move(settings))
    , m_client(new cloud::CloudClient(std::move(client), this))
    , m_stats(this, Capability::StatsCpu | Capability::StatsMemory | Capability::StatsDisk,
              [this](const QString &id, Callback<StatsSample> done) { metrics(id, std::move(done)); })
{
    setFacets({.terminals = this,
               .exec = this,
               .files = this,
               .stats = &m_stats,
               .logs = this,
               .pause = this,
               .timeLimit = this});
}

std::unique_ptr<TransferJob> E2bProvider::putTar(const QString &, QIODevice *, const QString &)
{
    return std::make_unique<FailedTransferJob>(unsupportedError(m_descriptor, Capability::Files));
}

std::unique_ptr<TransferJob> E2bProvider::getTar(const QString &, const QString &, QIODevice *)
{
    return std::make_unique<FailedTransferJob>(unsupportedError(m_descriptor, Capability::Files));
}

std::pair<qint64, QString> E2bProvider::clampTimeout(qint64 ttlSeconds, qint64 capSeconds)
{
    const qint64 cap = capSeconds > 0 ? capSeconds : 3600;
    if (ttlSeconds <= 0)
        return {cap, tr("E2B sandboxes always have a time limit; this one ends after %1 minutes, the plan's longest")
                         .arg(cap / 60)};
    if (ttlSeconds > cap)
        return {
            cap,
            tr("The time limit was shortened to %1 minutes, the longest the account's E2B plan allows").arg(cap / 60)};
    return {ttlSeconds, QString()};
}

void E2bProvider::health(Callback<HealthInfo> done)
{
    cloud::ApiCall call;
    call.path = QStringLiteral("/v2/sandboxes");
    call.query.addQueryItem(QStringLiteral("limit"), QStringLiteral("1"));
    call.timeoutMs = 15000;
    const QString endpoint = m_client->options().baseUrl.toString();
    m_client->call(std::move(call), Callback<cloud::ApiReply>(this, [done, endpoint](Result<cloud::ApiReply> r) {
                       if (!r.ok())
                           return done(r.error());
                       HealthInfo h;
                       h.serverName = QStringLiteral("E2B");
                       h.endpoint = endpoint;
                       h.apiVersion = QStringLiteral("v2");
                       done(h);
                   }));
}

void E2bProvider::listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done)
{
    QMap<QString, QString> filter;
    if (!options.all) {
        filter.insert(QLatin1String(labels::App), QLatin1String(labels::AppValue));
        filter.insert(QLatin1String(labels::Account), m_account);
    }
    listPage(filter, QString(), {}, std::move(done));
}

void E2bProvider::listPage(QMap<QString, QString> filter, QString nextToken, QList<SessionInfo> acc,
                           Callback<QList<SessionInfo>> done)
{
    cloud::ApiCall call;
    call.path = QStringLiteral("/v2/sandboxes");
    if (!filter.isEmpty())
        call.query.addQueryItem(QStringLiteral("metadata"),
                                QString::fromLatin1(QUrl::toPercentEncoding(metadataFilter(filter))));
    call.query.addQueryItem(QStringLiteral("state"), QStringLiteral("running,paused"));
    call.query.addQueryItem(QStringLiteral("limit"), QStringLiteral("100"));
    if (!nextToken.isEmpty())
        call.query.addQueryItem(QStringLiteral("nextToken"), QString::fromLatin1(QUrl::toPercentEncoding(nextToken)));
    m_client->call(std::move(call),
                   Callback<cloud::ApiReply>(this, [this, filter, acc, done](Result<cloud::ApiReply> r) mutable {
                       if (!r.ok())
                           return done(r.error());
                       auto list = parseSandboxList(r->body);
                       if (!list.ok())
                           return done(list.error());
                       for (const SandboxRecord &rec : list.value())
                           acc << toSessionInfo(rec, m_account);
                       const QString next = QString::fromUtf8(r->header("X-Next-Token"));
                       if (next.isEmpty() || acc.size() > 100000)
                           return done(acc);
                       listPage(filter, next, acc, done);
                   }));
}

void E2bProvider::remember(const SandboxRecord &record)
{
    SandboxRecord r = record;
    r.raw.clear();
    m_known.insert(record.id, r);
}

void E2bProvider::create(const CreateSpec &spec, Callback<SessionInfo> done)
{
    const auto [timeout, note] = clampTimeout(spec.ttlSeconds, m_settings.maxTimeoutSeconds);
    if (!note.isEmpty())
        Q_EMIT createProgress(spec.name, note, 0, 0);
    const QString token = QUuid::createUuid().toString(QUuid::WithoutBraces);
    QJsonObject metadata;
    for (auto it = spec.labels.begin(); it != spec.labels.end(); ++it)
        metadata[it.key()] = it.value();
    metadata[QLatin1String(labels::App)] = QLatin1String(labels::AppValue);
    metadata[QLatin1String(labels::Account)] = m_account;
    metadata[QLatin1String(labels::Created)] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    metadata[QLatin1String(labels::Ttl)] = QString::number(timeout);
    if (!spec.name.isEmpty())
        metadata[QLatin1String(labels::Name)] = spec.name;
    metadata[QLatin1String(kTokenKey)] = token;
    QJsonObject envVars;
    for (const QString &kv : spec.env) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (eq > 0)
            envVars[kv.left(eq)] = kv.mid(eq + 1);
    }
    QJsonObject body{
        {QStringLiteral("templateID"), spec.image.isEmpty() ? QStringLiteral("base") : spec.image},
        {QStringLiteral("timeout"), timeout},
        {QStringLiteral("metadata"), metadata},
        {QStringLiteral("envVars"), envVars},
        // envd then wants the sandbox's own access token: a leaked sandbox URL is not enough.
        {QStringLiteral("secure"), true},
        {QStringLiteral("allow_internet_access"), spec.network},
        {QStringLiteral("autoPause"), spec.options.value(QStringLiteral("autoPause")).toBool()},
    };
    Q_EMIT createProgress(spec.name, tr("Creating the sandbox…"), 0, 0);
    createAttempt(body, token, 1, std::move(done));
}

void E2bProvider::createAttempt(const QJsonObject &body, const QString &token, int attempt, Callback<SessionInfo> done)
{
    cloud::ApiCall call;
    call.method = "POST";
    call.path = QStringLiteral("/sandboxes");
    call.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    // A create that timed out may have worked: look it up by its token before sending it again.
    call.idempotent = false;
    call.timeoutMs = 60000;
    m_client->call(
        std::move(call), Callback<cloud::ApiReply>(this, [this, body, token, attempt, done](Result<cloud::ApiReply> r) {
            if (r.ok()) {
                auto rec = parseSandbox(r->body);
                if (!rec.ok())
                    return done(rec.error());
                remember(rec.value());
                return info(rec->id, done);
            }
            const ErrorCode code = r.code();
            const bool unknownOutcome = code == ErrorCode::Timeout || code == ErrorCode::Unavailable;
            if (!unknownOutcome || attempt >= kCreateAttempts)
                return done(r.error());
            findByToken(
                token, Callback<std::optional<SessionInfo>>(this, [this, body, token, attempt, done, error = r.error()](
                                                                      Result<std::optional<SessionInfo>> found) {
                    if (found.ok() && found->has_value())
                        return info(found->value().id, done);
                    if (!found.ok())
                        return done(error);
                    QTimer::singleShot(500 * attempt, this,
                                       [=, this] { createAttempt(body, token, attempt + 1, done); });
                }));
        }));
}

void E2bProvider::findByToken(const QString &token, Callback<std::optional<SessionInfo>> done)
{
    QMap<QString, QString> filter{{QLatin1String(kTokenKey), token}};
    listPage(filter, QString(), {}, Callback<QList<SessionInfo>>(this, [done](Result<QList<SessionInfo>> r) {
                 if (!r.ok())
                     return done(r.error());
                 if (r->isEmpty())
                     return done(std::optional<SessionInfo>());
                 done(std::optional<SessionInfo>(r->first()));
             }));
}

void E2bProvider::info(const QString &sessionId, Callback<SessionInfo> done)
{
    cloud::ApiCall call;
    call.path = sandboxPath(sessionId);
    m_client->call(std::move(call), Callback<cloud::ApiReply>(this, [this, done](Result<cloud::ApiReply> r) {
                       if (!r.ok())
                           return done(r.error());
                       auto rec = parseSandbox(r->body);
                       if (!rec.ok())
                           return done(rec.error());
                       remember(rec.value());
                       done(toSessionInfo(rec.value(), m_account));
                   }));
}

void E2bProvider::simple(const QByteArray &method, const QString &path, const QJsonObject &body, Callback<void> done,
                         QList<int> okStatuses)
{
    cloud::ApiCall call;
    call.method = method;
    call.path = path;
    if (!body.isEmpty() || method == "POST")
        call.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    m_client->call(std::move(call),
                   Callback<cloud::ApiReply>(this,
                                             [done](Result<cloud::ApiReply> r) {
                                                 if (!r.ok())
                                                     return done(r.error());
                                                 done({});
                                             }),
                   std::move(okStatuses));
}

void E2bProvider::stop(const QString &sessionId, Callback<void> done)
{
    pause(sessionId, std::move(done));
}

void E2bProvider::pause(const QString &sessionId, Callback<void> done)
{
    // 409: already paused, which is what was asked.
    simple("POST", sandboxPath(sessionId, QStringLiteral("/pause")), {}, std::move(done), {409});
}

void E2bProvider::resume(const QString &sessionId, Callback<void> done)
{
    const qint64 timeout = clampTimeout(0, m_settings.maxTimeoutSeconds).first;
    const qint64 asked = qMin<qint64>(timeout, 3600);
    simple("POST", sandboxPath(sessionId, QStringLiteral("/connect")), QJsonObject{{QStringLiteral("timeout"), asked}},
           std::move(done));
}

void E2bProvider::kill(const QString &sessionId, Callback<void> done)
{
    remove(sessionId, std::move(done));
}

void E2bProvider::remove(const QString &sessionId, Callback<void> done)
{
    const QString id = sessionId;
    simple("DELETE", sandboxPath(sessionId), {}, Callback<void>(this, [this, id, done](VoidResult r) {
               if (r.ok()) {
                   m_known.remove(id);
                   Q_EMIT sessionRemoved(id);
               }
               done(r);
           }));
}

void E2bProvider::setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done)
{
    const auto [timeout, note] = clampTimeout(ttlSeconds, m_settings.maxTimeoutSeconds);
    if (ttlSeconds > 0 && timeout < ttlSeconds)
        return done(makeError(ErrorCode::LimitReached, note));
    if (ttlSeconds <= 0)
        return done(makeError(ErrorCode::Unsupported, tr("E2B sandboxes always have a time limit")));
    simple("POST", sandboxPath(sessionId, QStringLiteral("/timeout")),
           QJsonObject{{QStringLiteral("timeout"), timeout}}, std::move(done));
}

EnvdTarget E2bProvider::targetFor(const SandboxRecord &record) const
{
    EnvdTarget t;
    t.user = m_settings.user;
    if (m_settings.sandboxUrl.isValid() && !m_settings.sandboxUrl.isEmpty()) {
        // One shared host for every sandbox, told apart by headers (E2B's sandbox proxy).
        t.base = m_settings.sandboxUrl;
        t.headers.append({QByteArray("E2b-Sandbox-Id"), record.id.toUtf8()});
        t.headers.append({QByteArray("E2b-Sandbox-Port"), QByteArray::number(kEnvdPort)});
    } else {
        const QString domain = record.domain.isEmpty() ? QStringLiteral("e2b.app") : record.domain;
        t.base = QUrl(QStringLiteral("https://%1-%2.%3").arg(kEnvdPort).arg(record.id, domain));
    }
    if (!record.envdAccessToken.isEmpty())
        t.headers.append({QByteArray("X-Access-Token"), record.envdAccessToken.toUtf8()});
    t.headers.append(
        {QByteArray("Authorization"), QByteArray("Basic " + QByteArray(t.user.toUtf8() + ':').toBase64())});
    return t;
}

void E2bProvider::resolveEnvd(const QString &sessionId, Callback<EnvdTarget> done)
{
    const auto it = m_known.constFind(sessionId);
    if (it != m_known.constEnd())
        return done(targetFor(it.value()));
    info(sessionId, Callback<SessionInfo>(this, [this, sessionId, done](Result<SessionInfo> r) {
             if (!r.ok())
                 return done(r.error());
             if (r->state == SessionState::Paused)
                 return done(makeError(ErrorCode::Unavailable, tr("The sandbox is paused; resume it first")));
             const auto found = m_known.constFind(sessionId);
             if (found == m_known.constEnd())
                 return done(makeError(ErrorCode::NotFound, tr("E2B does not know the sandbox %1").arg(sessionId)));
             done(targetFor(found.value()));
         }));
}

EnvdResolver E2bProvider::resolver(const QString &sessionId)
{
    QPointer<E2bProvider> self(this);
    return [self, sessionId](Callback<EnvdTarget> done) {
        if (!self)
            return done(makeError(ErrorCode::Cancelled, tr("The account was closed")));
        self->resolveEnvd(sessionId, std::move(done));
    };
}

std::unique_ptr<PtyChannel> E2bProvider::openPty(const QString &sessionId, const PtyOptions &options)
{
    PtyOptions o = options;
    if (o.workingDir.isEmpty())
        o.workingDir = QStringLiteral("/home/") + m_settings.user;
    return std::make_unique<E2bPtyChannel>(m_client, resolver(sessionId), o);
}

std::unique_ptr<ExecJob> E2bProvider::exec(const QString &sessionId, const ExecRequest &request)
{
    return std::make_unique<E2bExecJob>(m_client, resolver(sessionId), request);
}

void E2bProvider::filesystem(const QString &sessionId, const QString &method, const QJsonObject &body,
                             Callback<QByteArray> done)
{
    QPointer<cloud::CloudClient> client(m_client);
    resolveEnvd(sessionId, Callback<EnvdTarget>(this, [client, method, body, done](Result<EnvdTarget> t) {
                    if (!t.ok())
                        return done(t.error());
                    envdUnary(client, t.value(), QStringLiteral("filesystem.Filesystem/") + method, body, done, true);
                }));
}

void E2bProvider::statPath(const QString &sessionId, const QString &path, Callback<PathStat> done)
{
    filesystem(sessionId, QStringLiteral("Stat"), QJsonObject{{QStringLiteral("path"), path}},
               Callback<QByteArray>(this, [done](Result<QByteArray> r) {
                   if (!r.ok())
                       return r.code() == ErrorCode::NotFound ? done(PathStat{}) : done(r.error());
                   auto e = parseEntryReply(r.value());
                   if (!e.ok())
                       return done(e.error());
                   done(PathStat{true, e->isDir});
               }));
}

void E2bProvider::listFiles(const QString &sessionId, const QString &path, Callback<QList<FileEntry>> done)
{
    filesystem(sessionId, QStringLiteral("ListDir"),
               QJsonObject{{QStringLiteral("path"), path}, {QStringLiteral("depth"), 1}},
               Callback<QByteArray>(this, [done](Result<QByteArray> r) {
                   if (!r.ok())
                       return done(r.error());
                   done(parseListDir(r.value()));
               }));
}

void E2bProvider::makeDir(const QString &sessionId, const QString &path, Callback<void> done)
{
    filesystem(sessionId, QStringLiteral("MakeDir"), QJsonObject{{QStringLiteral("path"), path}},
               Callback<QByteArray>(this, [done](Result<QByteArray> r) {
                   if (!r.ok() && r.code() != ErrorCode::Conflict)
                       return done(r.error());
                   done({});
               }));
}

void E2bProvider::removePath(const QString &sessionId, const QString &path, Callback<void> done)
{
    if (path.isEmpty() || path == QLatin1String("/"))
        return done(makeError(ErrorCode::InvalidArgument, tr("Refusing to delete the sandbox's root folder")));
    filesystem(sessionId, QStringLiteral("Remove"), QJsonObject{{QStringLiteral("path"), path}},
               Callback<QByteArray>(this, [done](Result<QByteArray> r) {
                   if (!r.ok())
                       return done(r.error());
                   done({});
               }));
}

// envd's Move replaces an existing target and it has no chmod: both by command.
void E2bProvider::movePath(const QString &sessionId, const QString &from, const QString &to, Callback<void> done)
{
    movePathByExec(*this, sessionId, from, to, std::move(done));
}

void E2bProvider::setMode(const QString &sessionId, const QString &path, quint32 mode, Callback<void> done)
{
    setModeByExec(*this, sessionId, path, mode, std::move(done));
}

std::unique_ptr<TransferJob> E2bProvider::deferred(const QString &sessionId,
                                                   std::function<std::unique_ptr<TransferJob>(const EnvdTarget &)> make)
{
    const EnvdResolver resolve = resolver(sessionId);
    return std::make_unique<cloud::DeferredTransferJob>(
        [resolve, make](QObject *context, cloud::DeferredTransferJob::Ready ready) {
            resolve(Callback<EnvdTarget>(context, [make, ready](Result<EnvdTarget> t) {
                if (!t.ok())
                    return ready(t.error());
                ready(std::shared_ptr<TransferJob>(make(t.value()).release()));
            }));
        });
}

std::unique_ptr<TransferJob> E2bProvider::uploadFile(const QString &sessionId, const QString &localFile,
                                                     const QString &remoteFile)
{
    QPointer<cloud::CloudClient> client(m_client);
    return deferred(sessionId, [client, localFile, remoteFile](const EnvdTarget &t) -> std::unique_ptr<TransferJob> {
        cloud::UploadRequest up;
        up.target = cloud::HttpTarget{t.filesUrl(remoteFile), t.headers, false};
        up.localPath = localFile;
        return std::make_unique<cloud::HttpUploadJob>(client, std::move(up));
    });
}

std::unique_ptr<TransferJob> E2bProvider::downloadFile(const QString &sessionId, const QString &remoteFile,
                                                       const QString &localFile)
{
    QPointer<cloud::CloudClient> client(m_client);
    return deferred(sessionId, [client, localFile, remoteFile](const EnvdTarget &t) -> std::unique_ptr<TransferJob> {
        return std::make_unique<cloud::HttpDownloadJob>(
            client, cloud::HttpTarget{t.filesUrl(remoteFile), t.headers, false}, localFile);
    });
}

std::unique_ptr<TransferJob> E2bProvider::putItem(const QString &sessionId, const QString &localPath,
                                                  const QString &remoteDir, const QString &name)
{
    QPointer<E2bProvider> self(this);
    cloud::TreeOps ops;
    ops.makeRemoteDir = [self, sessionId](const QString &path, Callback<void> done) {
        if (!self)
            return done(makeError(ErrorCode::Cancelled, tr("The account was closed")));
        self->makeDir(sessionId, path, std::move(done));
    };
    ops.uploadFile = [self, sessionId](const QString &local, const QString &remote) -> std::unique_ptr<TransferJob> {
        return self ? self->uploadFile(sessionId, local, remote) : nullptr;
    };
    return cloud::makeTreeUpload(std::move(ops), localPath, remoteDir, name);
}

std::unique_ptr<TransferJob> E2bProvider::getItem(const QString &sessionId, const QString &remotePath,
                                                  const QString &localDir, const QString &name)
{
    QPointer<E2bProvider> self(this);
    cloud::TreeOps ops;
    ops.listRemote = [self, sessionId](const QString &path, Callback<QList<FileEntry>> done) {
        if (!self)
            return done(makeError(ErrorCode::Cancelled, tr("The account was closed")));
        self->listFiles(sessionId, path, std::move(done));
    };
    ops.downloadFile = [self, sessionId](const QString &remote, const QString &local) -> std::unique_ptr<TransferJob> {
        return self ? self->downloadFile(sessionId, remote, local) : nullptr;
    };
    // Whether remotePath is a folder is asked first; the tree job then lists or copies.
    return std::make_unique<cloud::DeferredTransferJob>(
        [self, sessionId, remotePath, localDir, name, ops](QObject *context, cloud::DeferredTransferJob::Ready ready) {
            if (!self)
                return ready(makeError(ErrorCode::Cancelled, tr("The account was closed")));
            self->statPath(sessionId, remotePath, Callback<PathStat>(context, [=](Result<PathStat> st) {
                               if (!st.ok())
                                   return ready(st.error());
                               if (!st->exists)
                                   return ready(makeError(ErrorCode::NotFound,
                                                          tr("%1 does not exist in the sandbox").arg(remotePath)));
                               ready(std::shared_ptr<TransferJob>(
                                   cloud::makeTreeDownload(ops, remotePath, st->isDir, localDir, name).release()));
                           }));
        });
}

std::unique_ptr<LogStream> E2bProvider::logs(const QString &sessionId, const LogOptions &options)
{
    return std::make_unique<E2bLogStream>(m_client, sessionId, options);
}

void E2bProvider::metrics(const QString &sessionId, Callback<StatsSample> done)
{
    cloud::ApiCall call;
    call.path = sandboxPath(sessionId, QStringLiteral("/metrics"));
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    call.query.addQueryItem(QStringLiteral("start"), QString::number(now - 120));
    call.query.addQueryItem(QStringLiteral("end"), QString::number(now + 5));
    m_client->call(std::move(call), Callback<cloud::ApiReply>(this, [done](Result<cloud::ApiReply> r) {
                       if (!r.ok())
                           return done(r.error());
                       done(parseMetrics(r->body));
                   }));
}

void E2bProvider::listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done)
{
    QPointer<cloud::CloudClient> client(m_client);
    resolveEnvd(sessionId, Callback<EnvdTarget>(this, [client, done](Result<EnvdTarget> t) {
                    if (!t.ok())
                        return done(t.error());
                    envdUnary(
                        client, t.value(), QStringLiteral("process.Process/List"), QJsonObject{},
                        Callback<QByteArray>(
                            client,
                            [done](Result<QByteArray> r) {
                                if (!r.ok())
                                    return done(r.error());
                                auto list = parseProcessList(r.value());
                                if (!list.ok())
                                    return done(list.error());
                                QList<PtyEntry> out;
                                for (const ProcessRecord &p : list.value())
                                    out << PtyEntry{QString::number(p.pid), QStringList{p.cmd} + p.args, false, -1};
                                done(out);
                            }),
                        true);
                }));
}

} // namespace sandbar::e2b
