#include "providers/vercel/VercelProvider.h"

#include "cloud/CreateOnce.h"
#include "providers/vercel/VercelTr.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>
#include <QUuid>
#include <algorithm>

namespace sandbar::vercel {

namespace {
QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// How long create waits for the new session to run (a git clone at create can take a while).
constexpr int kStartPolls = 300;
constexpr int kStartPollMs = 1000;
} // namespace

VercelProvider::VercelProvider(ProviderDescriptor descriptor, QString accountName, Settings settings,
                               const Clock &clock, QObject *parent)
    : Provider(parent)
    , CopyingFiles(this)
    , m_descriptor(std::move(descriptor))
    , m_account(std::move(accountName))
    , m_settings(std::move(settings))
    , m_clock(&clock)
    , m_terminals(this, Capability::PtyResize,
                  [this](const QString &id, const PtyOptions &options) { return ptyConnection(id, options); })
    , m_stats(
          this, Capability::StatsCpu,
          [this](const QString &id, Callback<StatsSample> done) { sample(id, std::move(done)); },
          Capability::StatsMemory | Capability::StatsDisk)
{
    m_keepAlive = new cloud::TerminalKeepAlive(
        m_terminals, *m_clock,
        {[this](const QString &id, Callback<cloud::TerminalKeepAlive::Ends> done) { keptUntil(id, std::move(done)); },
         [this](const QString &id, qint64 ms, Callback<void> done) { lengthen(id, ms, std::move(done)); }},
        m_settings.keepAlive, this);
    setFacets({.terminals = m_keepAlive,
               .exec = this,
               .files = this,
               .stats = &m_stats,
               .pause = this,
               .timeLimit = this,
               .snapshots = this,
               .fork = this,
               .background = this});
    auto o = cloud::CloudClient::bearerOptions(tr("Vercel Sandbox"), m_settings.endpoint, m_settings.caCertificates,
                                               m_settings.token, m_clock);
    m_client = new cloud::CloudClient(std::move(o), this);
    m_since.start();
    // Only where Sandbar's limit is shorter than Vercel's own: Vercel ends the rest itself.
    m_ttl = new cloud::DeadlineKeeper(
        *m_clock,
        [this](const QString &id) {
            const auto it = m_records.constFind(id);
            return it != m_records.cend() && it->info.state == SessionState::Running;
        },
        [this](const QString &id, Callback<void> done) { stop(id, std::move(done)); }, this);
}

VercelProvider::~VercelProvider() = default;

QString VercelProvider::enc(const QString &name)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(name));
}

cloud::ApiCall VercelProvider::apiCall(const QByteArray &method, const QString &path) const
{
    cloud::ApiCall call;
    call.method = method;
    call.path = path;
    // Vercel wants the team on every request, first.
    call.query.addQueryItem(QStringLiteral("teamId"), m_settings.team);
    return call;
}

void VercelProvider::health(Callback<HealthInfo> done)
{
    cloud::ApiCall call = apiCall("GET", QStringLiteral("/v2/sandboxes"));
    call.query.addQueryItem(QStringLiteral("project"), m_settings.project);
    call.query.addQueryItem(QStringLiteral("limit"), QStringLiteral("1"));
    const QString endpoint = m_settings.endpoint.toString();
    m_client->call(call, Callback<cloud::ApiReply>(done.context(), [done, endpoint](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(r.error());
                       HealthInfo h;
                       h.serverName = tr("Vercel Sandbox");
                       h.endpoint = endpoint;
                       done(h);
                   }));
}

void VercelProvider::remember(const VercelRecord &rec)
{
    VercelRecord kept = rec;
    // A listed sandbox carries no session object: what the last get said of it stays.
    if (const auto it = m_records.constFind(rec.info.id); it != m_records.cend() && rec.cwd.isEmpty())
        kept.cwd = it->cwd;
    m_records.insert(rec.info.id, kept);
    // Sandbar's limit where Vercel's own runs longer (see setTimeout).
    if (rec.deadline.isValid() && rec.sessionStarted.isValid() && rec.timeoutMs > 0 &&
        rec.deadline < rec.sessionStarted.addMSecs(rec.timeoutMs))
        m_ttl->set(rec.info.id, rec.deadline);
    else if (rec.sessionStarted.isValid())
        m_ttl->remove(rec.info.id);
}

void VercelProvider::listPages(QUrlQuery query, Callback<QList<VercelRecord>> done)
{
    cloud::ApiCall call = apiCall("GET", QStringLiteral("/v2/sandboxes"));
    for (const auto &[k, v] : query.queryItems(QUrl::FullyEncoded))
        call.query.addQueryItem(k, v);
    cloud::collectPages<VercelRecord>(
        m_client, call, QStringLiteral("cursor"),
        [this](const QByteArray &body) { return parseSandboxList(body, m_account, m_descriptor.id); }, this,
        std::move(done));
}

void VercelProvider::listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done)
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("project"), m_settings.project);
    query.addQueryItem(QStringLiteral("limit"), QStringLiteral("50"));
    if (!options.all)
        query.addQueryItem(QStringLiteral("tags"), QString::fromUtf8(QUrl::toPercentEncoding(
                                                       QLatin1String(kAccountTag) + QLatin1Char(':') + m_account)));
    const bool all = options.all;
    listPages(query, Callback<QList<VercelRecord>>(this, [this, all, done](Result<QList<VercelRecord>> r) {
                  if (!r)
                      return done(r.error());
                  QList<SessionInfo> out;
                  for (const VercelRecord &rec : r.value()) {
                      // The filter is the server's; one that ignored it must not hand us another
                      // account's sandboxes.
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

void VercelProvider::findByToken(const QString &token, Callback<std::optional<VercelRecord>> done)
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("project"), m_settings.project);
    query.addQueryItem(QStringLiteral("tags"),
                       QString::fromUtf8(QUrl::toPercentEncoding(QLatin1String(kTokenTag) + QLatin1Char(':') + token)));
    listPages(query, Callback<QList<VercelRecord>>(this, [token, done](Result<QList<VercelRecord>> r) {
                  if (!r)
                      return done(r.error());
                  for (const VercelRecord &rec : r.value())
                      if (rec.token == token)
                          return done(std::optional<VercelRecord>(rec));
                  done(std::optional<VercelRecord>());
              }));
}

void VercelProvider::create(const CreateSpec &spec, Callback<SessionInfo> done)
{
    if (spec.ttlSeconds < 0 || (spec.cpus && *spec.cpus <= 0))
        return done.post(makeError(ErrorCode::InvalidArgument, tr("The time limit and CPUs must be positive")));
    const int own = int(spec.labels.size() - (spec.labels.contains(QLatin1String(labels::Agent)) ? 1 : 0));
    if (own > tagRoom(spec))
        return done.post(makeError(ErrorCode::InvalidArgument,
                                   tr("Vercel keeps five tags on a sandbox and Sandbar uses %1: give at most %2 labels")
                                       .arg(5 - tagRoom(spec))
                                       .arg(tagRoom(spec))));
    auto state = std::make_shared<CreateState>();
    state->spec = spec;
    // Vercel runs nothing without a limit, nor past the plan's: without Sandbar's, its own five
    // minutes, which an attached terminal lengthens.
    if (spec.ttlSeconds > 0)
        state->spec.ttlSeconds = std::min(spec.ttlSeconds, m_settings.maxTimeoutSeconds);
    const qint64 timeout = spec.ttlSeconds > 0 ? state->spec.ttlSeconds
                                               : std::min(m_settings.plainTimeoutSeconds, m_settings.maxTimeoutSeconds);
    state->token = QUuid::createUuid().toString(QUuid::WithoutBraces);
    state->done = std::move(done);
    Q_EMIT createProgress(spec.name, tr("Creating the sandbox…"), 0, 0);
    // A runtime (node22, python3.13) is the older create's; an image the newer one's.
    const bool runtime = !state->spec.options.value(QStringLiteral("runtime")).toString().trimmed().isEmpty();
    cloud::ApiCall call = apiCall("POST", runtime ? QStringLiteral("/v2/sandboxes") : QStringLiteral("/v3/sandboxes"));
    call.body = compact(createBody(state->spec, m_account, state->token, m_settings.project, timeout));
    call.timeoutMs = 120000;
    makeOnce(call, state, {});
}

void VercelProvider::makeOnce(const cloud::ApiCall &call, std::shared_ptr<CreateState> state, const QString &failure)
{
    // A lost reply is looked up by the call's token tag before the call goes again.
    const QString token = state->token;
    cloud::createOnce<VercelRecord>(
        m_client, call, this,
        [this](const QByteArray &body) { return parseSandboxReply(body, m_account, m_descriptor.id); },
        [this, token](Callback<std::optional<VercelRecord>> found) { findByToken(token, std::move(found)); },
        Callback<VercelRecord>(this, [this, state, failure](Result<VercelRecord> r) {
            if (!r)
                return state->done(failure.isEmpty() ? r.error() : makeError(r.code(), failure.arg(r.message())));
            remember(r.value());
            waitRunning(state, r.value(), 0);
        }));
}

void VercelProvider::waitRunning(std::shared_ptr<CreateState> state, const VercelRecord &rec, int polls)
{
    if (rec.info.state == SessionState::Running)
        return state->done(rec.info);
    if (rec.info.state == SessionState::Error || rec.info.state == SessionState::Stopped)
        return state->done(
            makeError(ErrorCode::Unavailable, tr("Vercel could not start the sandbox (it is %1)").arg(rec.status)));
    if (polls >= kStartPolls)
        return state->done(
            makeError(ErrorCode::Timeout, tr("The sandbox did not start in time (it is %1)").arg(rec.status)));
    if (polls == 0)
        Q_EMIT createProgress(state->spec.name, tr("Starting the sandbox…"), 0, 0);
    const QString name = rec.info.id;
    QTimer::singleShot(kStartPollMs, this, [this, state, name, polls] {
        if (state->done.expired())
            return;
        getSandbox(name, false, Callback<VercelRecord>(this, [this, state, polls](Result<VercelRecord> r) {
                       if (!r)
                           return state->done(r.error());
                       waitRunning(state, r.value(), polls + 1);
                   }));
    });
}

void VercelProvider::getSandbox(const QString &name, bool resume, Callback<VercelRecord> done)
{
    cloud::ApiCall call = apiCall("GET", QStringLiteral("/v2/sandboxes/") + enc(name));
    call.query.addQueryItem(QStringLiteral("projectId"), m_settings.project);
    if (resume) {
        call.query.addQueryItem(QStringLiteral("resume"), QStringLiteral("true"));
        call.timeoutMs = 120000;
    }
    m_client->call(call, Callback<cloud::ApiReply>(this, [this, done](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(r.error());
                       auto rec = parseSandboxReply(r->body, m_account, m_descriptor.id);
                       if (!rec)
                           return done(rec.error());
                       remember(rec.value());
                       done(rec.value());
                   }));
}

void VercelProvider::info(const QString &sessionId, Callback<SessionInfo> done)
{
    getSandbox(sessionId, false, Callback<VercelRecord>(done.context(), [done](Result<VercelRecord> r) {
                   if (!r)
                       return done(r.error());
                   done(r->info);
               }));
}

void VercelProvider::sessionUrl(const QString &sandbox, const QString &suffix, Callback<QUrl> done)
{
    const auto build = [this, suffix](const VercelRecord &rec) -> Result<QUrl> {
        if (rec.sessionId.isEmpty() || rec.info.state != SessionState::Running)
            return makeError(ErrorCode::Unavailable,
                             tr("The sandbox %1 is not running (it is %2)").arg(rec.info.id, rec.status));
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("teamId"), m_settings.team);
        return m_client->url(QStringLiteral("/v2/sandboxes/sessions/") + enc(rec.sessionId) + suffix, q);
    };
    const auto it = m_records.constFind(sandbox);
    if (it != m_records.cend() && it->info.state == SessionState::Running && !it->sessionId.isEmpty())
        return done.post(build(*it));
    getSandbox(sandbox, false, Callback<VercelRecord>(done.context(), [build, done](Result<VercelRecord> r) {
                   if (!r)
                       return done(r.error());
                   done(build(r.value()));
               }));
}

void VercelProvider::sessionCall(const QString &sandbox, const QString &suffix, QByteArray body,
                                 Callback<cloud::ApiReply> done, QList<int> okStatuses)
{
    cloud::ApiCall call;
    call.method = "POST";
    call.body = std::move(body);
    sessionCall(sandbox, suffix, call, std::move(done), std::move(okStatuses));
}

bool VercelProvider::hasStopped(const QString &sandbox) const
{
    const auto it = m_records.constFind(sandbox);
    return it != m_records.cend() && it->info.state != SessionState::Running;
}

void VercelProvider::sessionCall(const QString &sandbox, const QString &suffix, const cloud::ApiCall &callIn,
                                 Callback<cloud::ApiReply> done, QList<int> okStatuses)
{
    QPointer<VercelProvider> self(this);
    sessionUrl(sandbox, suffix,
               Callback<QUrl>(done.context(), [self, sandbox, callIn, done, okStatuses](Result<QUrl> url) {
                   if (!url)
                       return done(url.error());
                   if (!self)
                       return done(makeError(ErrorCode::Cancelled, tr("The account was closed")));
                   cloud::ApiCall call = callIn;
                   call.url = url.value();
                   call.timeoutMs = 120000;
                   const bool wants410 = okStatuses.contains(410);
                   const auto replied = [self, sandbox, wants410, done](Result<cloud::ApiReply> r) {
                       if (!r || r->status != 410 || wants410)
                           return done(std::move(r));
                       // The session ended under us: the next call looks again.
                       if (self)
                           self->m_records.remove(sandbox);
                       done(makeError(ErrorCode::Unavailable,
                                      tr("The sandbox %1 has stopped (%2)").arg(sandbox, errorMessage(r->body))));
                   };
                   self->m_client->call(call, Callback<cloud::ApiReply>(done.context(), replied),
                                        QList<int>(okStatuses) << 410);
               }));
}

void VercelProvider::stop(const QString &sessionId, Callback<void> done)
{
    sessionCall(sessionId, QStringLiteral("/stop"), QByteArray(),
                Callback<cloud::ApiReply>(this, [this, sessionId, done](Result<cloud::ApiReply> r) {
                    if (!r)
                        return done(makeError(r.code(), tr("Stopping failed: %1").arg(r.message())));
                    m_records.remove(sessionId);
                    m_ttl->remove(sessionId);
                    done(VoidResult{});
                    info(sessionId, Callback<SessionInfo>(this, [this](Result<SessionInfo> s) {
                             if (s)
                                 Q_EMIT sessionChanged(s.value());
                         }));
                }));
}

void VercelProvider::pause(const QString &sessionId, Callback<void> done)
{
    const auto it = m_records.constFind(sessionId);
    if (it != m_records.cend() && !it->persistent)
        return done.post(makeError(
            ErrorCode::Unsupported,
            tr("Only a persistent sandbox keeps its files when stopped; %1 is not persistent").arg(sessionId)));
    stop(sessionId, std::move(done));
}

void VercelProvider::resume(const QString &sessionId, Callback<void> done)
{
    getSandbox(sessionId, true, Callback<VercelRecord>(this, [this, done](Result<VercelRecord> r) {
                   if (!r)
                       return done(makeError(r.code(), tr("Resuming failed: %1").arg(r.message())));
                   done(VoidResult{});
                   Q_EMIT sessionChanged(r->info);
               }));
}

void VercelProvider::remove(const QString &sessionId, Callback<void> done)
{
    cloud::ApiCall call = apiCall("DELETE", QStringLiteral("/v2/sandboxes/") + enc(sessionId));
    call.query.addQueryItem(QStringLiteral("projectId"), m_settings.project);
    call.timeoutMs = 120000;
    m_client->call(
        call,
        Callback<cloud::ApiReply>(this,
                                  [this, sessionId, done](Result<cloud::ApiReply> r) {
                                      if (!r)
                                          return done(makeError(r.code(), tr("Removing failed: %1").arg(r.message())));
                                      m_records.remove(sessionId);
                                      m_cpu.remove(sessionId);
                                      m_ttl->remove(sessionId);
                                      commandBook().dropSession(sessionId);
                                      done(VoidResult{});
                                      Q_EMIT sessionRemoved(sessionId);
                                  }),
        {404});
}

void VercelProvider::setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done)
{
    if (ttlSeconds <= 0)
        return done.post(makeError(ErrorCode::InvalidArgument,
                                   tr("Vercel sandboxes always end: give a time limit of at least one second")));
    getSandbox(
        sessionId, false, Callback<VercelRecord>(this, [this, sessionId, ttlSeconds, done](Result<VercelRecord> r) {
            if (!r)
                return done(r.error());
            const QDateTime deadline = m_clock->currentDateTimeUtc().addSecs(ttlSeconds);
            const QDateTime created = r->info.created.isValid() ? r->info.created : deadline;
            // The tag counts from creation, so that created + ttl is the deadline for everyone.
            cloud::ApiCall call = apiCall("PATCH", QStringLiteral("/v2/sandboxes/") + enc(sessionId));
            call.query.addQueryItem(QStringLiteral("projectId"), m_settings.project);
            call.body = compact(QJsonObject{
                {QStringLiteral("tags"), tagsWithTtl(r.value(), qMax<qint64>(1, created.secsTo(deadline)))}});
            const VercelRecord rec = r.value();
            m_client->call(
                call, Callback<cloud::ApiReply>(this, [this, rec, deadline, done](Result<cloud::ApiReply> patched) {
                    if (!patched)
                        return done(patched.error());
                    extendTo(rec, deadline, done);
                }));
        }));
}

void VercelProvider::extendTo(const VercelRecord &rec, const QDateTime &deadline, Callback<void> done)
{
    const QDateTime vercelEnd = rec.sessionStarted.addMSecs(rec.timeoutMs);
    const QString name = rec.info.id;
    if (!rec.sessionStarted.isValid() || deadline <= vercelEnd) {
        // Vercel cannot shorten a session: Sandbar stops it then.
        m_ttl->set(name, deadline);
        return done(VoidResult{});
    }
    lengthen(name, vercelEnd.msecsTo(deadline), Callback<void>(this, [this, name, done](VoidResult e) {
                 if (e)
                     m_ttl->remove(name);
                 done(std::move(e));
             }));
}

} // namespace sandbar::vercel
