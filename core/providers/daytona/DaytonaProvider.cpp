#include "providers/daytona/DaytonaProvider.h"

#include "cloud/CreateOnce.h"
#include "cloud/ServiceUrl.h"
#include "cloud/Transfers.h"
#include "providers/daytona/DaytonaJobs.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>
#include <QUuid>
#include <algorithm>

namespace sandbar::daytona {

namespace {
QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// How long create waits for a new sandbox to be started (pulling a snapshot can take a while).
constexpr int kStartPolls = 180;
constexpr int kStartPollMs = 1000;
} // namespace

struct DaytonaProvider::CreateState {
    CreateSpec spec;
    QString token;
    Callback<SessionInfo> done;
};

DaytonaProvider::DaytonaProvider(ProviderDescriptor descriptor, QString accountName, Settings settings,
                                 const Clock &clock, QObject *parent)
    : Provider(parent)
    , CopyingFiles(this)
    , m_descriptor(std::move(descriptor))
    , m_account(std::move(accountName))
    , m_settings(std::move(settings))
    , m_clock(&clock)
    , m_terminals(
          this, Capability::PtyResize | Capability::Reattach,
          [this](const QString &id, const PtyOptions &options) { return ptyConnection(id, options); },
          [this](const QString &id, Callback<QList<PtyEntry>> done) { ptyList(id, std::move(done)); })
    , m_stats(this, Capability::StatsCpu | Capability::StatsMemory | Capability::StatsDisk,
              [this](const QString &id, Callback<StatsSample> done) { telemetry(id, std::move(done)); })
{
    setFacets({.terminals = &m_terminals,
               .exec = this,
               .files = this,
               .stats = &m_stats,
               .pause = this,
               .archive = this,
               .timeLimit = this,
               .labels = this});
    auto o = cloud::CloudClient::bearerOptions(tr("Daytona"), m_settings.endpoint, m_settings.caCertificates,
                                               m_settings.apiKey, m_clock);
    if (!m_settings.organization.isEmpty())
        o.authHeaders.append({QByteArray("X-Daytona-Organization-ID"), m_settings.organization.toUtf8()});
    m_client = new cloud::CloudClient(std::move(o), this);
    m_ttl = new cloud::DeadlineKeeper(
        *m_clock,
        [this](const QString &id) {
            const SessionState s = m_states.value(id, SessionState::Unknown);
            return s != SessionState::Stopped && s != SessionState::Stopping && s != SessionState::Error;
        },
        [this](const QString &id, Callback<void> done) {
            stop(id, Callback<void>(this, [this, id, done](VoidResult r) {
                     if (r)
                         m_states.insert(id, SessionState::Stopped);
                     done(std::move(r));
                 }));
        },
        this);
}

DaytonaProvider::~DaytonaProvider() = default;

QString DaytonaProvider::enc(const QString &id) const
{
    return QString::fromLatin1(QUrl::toPercentEncoding(id));
}

void DaytonaProvider::health(Callback<HealthInfo> done)
{
    cloud::ApiCall call;
    call.path = QStringLiteral("/sandbox");
    call.query.addQueryItem(QStringLiteral("limit"), QStringLiteral("1"));
    const QString endpoint = m_settings.endpoint.toString();
    m_client->call(call, Callback<cloud::ApiReply>(done.context(), [done, endpoint](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(r.error());
                       HealthInfo h;
                       h.serverName = tr("Daytona");
                       h.endpoint = endpoint;
                       done(h);
                   }));
}

void DaytonaProvider::remember(const SandboxRecord &rec)
{
    const QString id = rec.info.id;
    if (!rec.toolboxProxyUrl.isEmpty()) {
        // Toolbox calls carry the account's key: only to https (or a loopback http) address.
        auto base = cloud::parseServiceUrl(rec.toolboxProxyUrl, tr("Toolbox URL"));
        if (base)
            m_toolbox.insert(id, cloud::joinUrl(base.value(), QLatin1Char('/') + enc(id)));
        else
            m_toolbox.remove(id);
    }
    if (rec.info.cpus)
        m_cpus.insert(id, *rec.info.cpus);
    m_states.insert(id, rec.info.state);
    m_ttl->set(id, rec.deadline);
}

void DaytonaProvider::listPages(QUrlQuery query, std::shared_ptr<QList<SandboxRecord>> acc, int pageNo,
                                Callback<QList<SandboxRecord>> done)
{
    cloud::ApiCall call;
    call.path = QStringLiteral("/sandbox");
    call.query = query;
    m_client->call(call, Callback<cloud::ApiReply>(this, [this, query, acc, pageNo, done](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(r.error());
                       auto page = parseSandboxList(r->body, m_account, m_descriptor.id);
                       if (!page)
                           return done(page.error());
                       acc->append(page->items);
                       // A server that repeats a cursor must not keep us here forever.
                       if (page->nextCursor.isEmpty() || page->items.isEmpty() || pageNo >= 200)
                           return done(*acc);
                       QUrlQuery next = query;
                       next.removeAllQueryItems(QStringLiteral("cursor"));
                       next.addQueryItem(QStringLiteral("cursor"),
                                         QString::fromUtf8(QUrl::toPercentEncoding(page->nextCursor)));
                       listPages(next, acc, pageNo + 1, done);
                   }));
}

void DaytonaProvider::listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done)
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("limit"), QStringLiteral("100"));
    if (!options.all) {
        const QJsonObject filter{{QLatin1String(labels::App), QLatin1String(labels::AppValue)},
                                 {QLatin1String(labels::Account), m_account}};
        query.addQueryItem(QStringLiteral("labels"),
                           QString::fromUtf8(QUrl::toPercentEncoding(QString::fromUtf8(compact(filter)))));
    }
    const bool all = options.all;
    listPages(query, std::make_shared<QList<SandboxRecord>>(), 1,
              Callback<QList<SandboxRecord>>(this, [this, all, done](Result<QList<SandboxRecord>> r) {
                  if (!r)
                      return done(r.error());
                  QList<SessionInfo> out;
                  for (const SandboxRecord &rec : r.value()) {
                      // The filter is the server's; a server that ignored it must not hand us
                      // another account's sandboxes.
                      const bool ours =
                          rec.info.owned && rec.info.labels.value(QLatin1String(labels::Account)) == m_account;
                      if (!all && !ours)
                          continue;
                      remember(rec);
                      out.append(rec.info);
                  }
                  done(out);
              }));
}

void DaytonaProvider::findByToken(const QString &token, Callback<std::optional<SandboxRecord>> done)
{
    QUrlQuery query;
    const QJsonObject filter{{QLatin1String(TokenLabel), token}};
    query.addQueryItem(QStringLiteral("labels"),
                       QString::fromUtf8(QUrl::toPercentEncoding(QString::fromUtf8(compact(filter)))));
    listPages(query, std::make_shared<QList<SandboxRecord>>(), 1,
              Callback<QList<SandboxRecord>>(this, [token, done](Result<QList<SandboxRecord>> r) {
                  if (!r)
                      return done(r.error());
                  for (const SandboxRecord &rec : r.value())
                      if (rec.token == token)
                          return done(std::optional<SandboxRecord>(rec));
                  done(std::optional<SandboxRecord>());
              }));
}

void DaytonaProvider::create(const CreateSpec &spec, Callback<SessionInfo> done)
{
    if (spec.ttlSeconds < 0 || (spec.cpus && *spec.cpus <= 0) || (spec.memoryBytes && *spec.memoryBytes <= 0))
        return done.post(makeError(ErrorCode::InvalidArgument, tr("The time limit, CPUs and memory must be positive")));
    auto state = std::make_shared<CreateState>();
    state->spec = spec;
    state->token = QUuid::createUuid().toString(QUuid::WithoutBraces);
    state->done = std::move(done);
    Q_EMIT createProgress(spec.name, tr("Creating the sandbox…"), 0, 0);
    cloud::ApiCall call;
    call.method = "POST";
    call.path = QStringLiteral("/sandbox");
    call.body = compact(createBody(spec, m_account, state->token, m_clock->currentDateTimeUtc(), m_settings.target));
    call.timeoutMs = 120000;
    // A lost reply is looked up by the create's token before the call goes again.
    const QString token = state->token;
    cloud::createOnce<SandboxRecord>(
        m_client, call, this,
        [this](const QByteArray &body) { return parseSandboxJson(body, m_account, m_descriptor.id); },
        [this, token](Callback<std::optional<SandboxRecord>> found) { findByToken(token, std::move(found)); },
        Callback<SandboxRecord>(this, [this, state](Result<SandboxRecord> r) {
            if (!r)
                return state->done(r.error());
            remember(r.value());
            waitStarted(state, r.value(), 0);
        }));
}

void DaytonaProvider::waitStarted(std::shared_ptr<CreateState> state, const SandboxRecord &rec, int polls)
{
    if (rec.info.state == SessionState::Running)
        return state->done(rec.info);
    if (rec.info.state == SessionState::Error)
        return state->done(makeError(ErrorCode::Unavailable,
                                     rec.info.errorMessage.isEmpty()
                                         ? tr("Daytona could not start the sandbox")
                                         : tr("Daytona could not start the sandbox: %1").arg(rec.info.errorMessage)));
    if (polls >= kStartPolls)
        return state->done(
            makeError(ErrorCode::Timeout, tr("The sandbox did not start in time (it is %1)").arg(rec.state)));
    if (polls == 0)
        Q_EMIT createProgress(state->spec.name, tr("Starting the sandbox…"), 0, 0);
    const QString id = rec.info.id;
    QTimer::singleShot(kStartPollMs, this, [this, state, id, polls] {
        if (state->done.expired())
            return;
        info(id, Callback<SessionInfo>(this, [this, state, id, polls](Result<SessionInfo> r) {
                 if (!r)
                     return state->done(r.error());
                 SandboxRecord now;
                 now.info = r.value();
                 now.state = r->statusText;
                 waitStarted(state, now, polls + 1);
             }));
    });
}

void DaytonaProvider::info(const QString &sessionId, Callback<SessionInfo> done)
{
    cloud::ApiCall call;
    call.path = QStringLiteral("/sandbox/") + enc(sessionId);
    m_client->call(call, Callback<cloud::ApiReply>(this, [this, done](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(r.error());
                       auto rec = parseSandboxJson(r->body, m_account, m_descriptor.id);
                       if (!rec)
                           return done(rec.error());
                       remember(rec.value());
                       done(rec->info);
                   }));
}

void DaytonaProvider::lifecycle(const QString &sessionId, const QString &action, QUrlQuery query,
                                const QString &failure, Callback<void> done)
{
    cloud::ApiCall call;
    call.method = "POST";
    call.path = QStringLiteral("/sandbox/") + enc(sessionId) + QLatin1Char('/') + action;
    call.query = query;
    call.timeoutMs = 120000;
    m_client->call(call, Callback<cloud::ApiReply>(this, [this, sessionId, failure, done](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(makeError(r.code(), failure + QStringLiteral(": ") + r.message()));
                       done(VoidResult{});
                       // Views learn the new state without asking.
                       info(sessionId, Callback<SessionInfo>(this, [this](Result<SessionInfo> s) {
                                if (s)
                                    Q_EMIT sessionChanged(s.value());
                            }));
                   }));
}

void DaytonaProvider::stop(const QString &sessionId, Callback<void> done)
{
    lifecycle(sessionId, QStringLiteral("stop"), {}, tr("Stopping failed"), std::move(done));
}

void DaytonaProvider::kill(const QString &sessionId, Callback<void> done)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("force"), QStringLiteral("true"));
    lifecycle(sessionId, QStringLiteral("stop"), q, tr("Killing failed"), std::move(done));
}

void DaytonaProvider::resume(const QString &sessionId, Callback<void> done)
{
    lifecycle(sessionId, QStringLiteral("start"), {}, tr("Starting failed"), std::move(done));
}

void DaytonaProvider::pause(const QString &sessionId, Callback<void> done)
{
    // Daytona's stop is its pause: the files stay, start brings the sandbox back, and a
    // stopped sandbox is billed for its disk alone.
    lifecycle(sessionId, QStringLiteral("stop"), {}, tr("Pausing failed"), std::move(done));
}

void DaytonaProvider::archive(const QString &sessionId, Callback<void> done)
{
    // Daytona archives stopped sandboxes only: a running one is stopped first.
    info(sessionId, Callback<SessionInfo>(this, [this, sessionId, done](Result<SessionInfo> r) {
             if (!r.ok())
                 return done(r.error());
             const auto archiveNow = [this, sessionId, done] {
                 lifecycle(sessionId, QStringLiteral("archive"), {}, tr("Archiving failed"), done);
             };
             if (r->state != SessionState::Running)
                 return archiveNow();
             lifecycle(sessionId, QStringLiteral("stop"), {}, tr("Archiving failed"),
                       Callback<void>(this, [archiveNow, done](VoidResult stopped) {
                           if (!stopped.ok())
                               return done(stopped.error());
                           archiveNow();
                       }));
         }));
}

void DaytonaProvider::remove(const QString &sessionId, Callback<void> done)
{
    cloud::ApiCall call;
    call.method = "DELETE";
    call.path = QStringLiteral("/sandbox/") + enc(sessionId);
    call.timeoutMs = 120000;
    m_client->call(
        call,
        Callback<cloud::ApiReply>(this,
                                  [this, sessionId, done](Result<cloud::ApiReply> r) {
                                      if (!r)
                                          return done(makeError(r.code(), tr("Removing failed: %1").arg(r.message())));
                                      m_toolbox.remove(sessionId);
                                      m_cpus.remove(sessionId);
                                      m_states.remove(sessionId);
                                      m_ttl->remove(sessionId);
                                      done(VoidResult{});
                                      Q_EMIT sessionRemoved(sessionId);
                                  }),
        {404});
}

void DaytonaProvider::setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done)
{
    if (ttlSeconds < 0)
        return done.post(makeError(ErrorCode::InvalidArgument, tr("The time limit must not be negative")));
    info(sessionId, Callback<SessionInfo>(this, [this, sessionId, ttlSeconds, done](Result<SessionInfo> r) {
             if (!r)
                 return done(r.error());
             const QDateTime now = m_clock->currentDateTimeUtc();
             QMap<QString, QString> lbl = r->labels;
             QDateTime created = r->created.isValid() ? r->created : now;
             if (!lbl.contains(QLatin1String(labels::Created)))
                 lbl.insert(QLatin1String(labels::Created), created.toString(Qt::ISODate));
             // The label counts from creation, so that created + ttl is the deadline for everyone.
             const qint64 ttl = ttlSeconds > 0 ? qMax<qint64>(1, created.secsTo(now.addSecs(ttlSeconds))) : 0;
             lbl.insert(QLatin1String(labels::Ttl), QString::number(ttl));
             putLabels(sessionId, lbl, Callback<void>(this, [this, sessionId, ttl, created, done](VoidResult put) {
                           if (!put)
                               return done(put.error());
                           m_ttl->set(sessionId, ttl > 0 ? created.addSecs(ttl) : QDateTime());
                           done(VoidResult{});
                       }));
         }));
}

void DaytonaProvider::setLabels(const QString &sessionId, const QMap<QString, QString> &labels,
                                Callback<SessionInfo> done)
{
    for (auto it = labels.cbegin(); it != labels.cend(); ++it) {
        if (labels::isSandbars(it.key()))
            return done.post(makeError(ErrorCode::InvalidArgument, tr("%1 is one of Sandbar's labels").arg(it.key())));
    }
    info(sessionId, Callback<SessionInfo>(this, [this, sessionId, labels, done](Result<SessionInfo> r) {
             if (!r)
                 return done(r.error());
             SessionInfo now = r.value();
             QMap<QString, QString> all = labels;
             for (auto it = now.labels.cbegin(); it != now.labels.cend(); ++it) {
                 if (labels::isSandbars(it.key()))
                     all.insert(it.key(), it.value());
             }
             putLabels(sessionId, all, Callback<void>(this, [this, now, all, done](VoidResult put) mutable {
                           if (!put)
                               return done(put.error());
                           now.labels = all;
                           done(now);
                           Q_EMIT sessionChanged(now);
                       }));
         }));
}

void DaytonaProvider::putLabels(const QString &sessionId, const QMap<QString, QString> &all, Callback<void> done)
{
    QJsonObject o;
    for (auto it = all.cbegin(); it != all.cend(); ++it)
        o.insert(it.key(), it.value());
    cloud::ApiCall call;
    call.method = "PUT";
    call.path = QStringLiteral("/sandbox/") + enc(sessionId) + QStringLiteral("/labels");
    call.body = compact(QJsonObject{{QStringLiteral("labels"), o}});
    m_client->call(call, Callback<cloud::ApiReply>(done.context(), [done](Result<cloud::ApiReply> put) {
                       done(put ? VoidResult{} : VoidResult(put.error()));
                   }));
}

} // namespace sandbar::daytona
