#include "providers/sprites/SpritesProvider.h"

#include "cloud/CreateOnce.h"
#include "providers/sprites/SpritesTr.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>
#include <QUuid>
#include <algorithm>

namespace sandbar::sprites {

namespace {
QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

struct SpritesProvider::CreateState {
    CreateSpec spec;
    QString name;
    QString token;
    Callback<SessionInfo> done;
};

SpritesProvider::SpritesProvider(ProviderDescriptor descriptor, QString accountName, Settings settings,
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
          [this](const QString &id, Callback<QList<PtyEntry>> done) { listPtys(id, std::move(done)); })
    , m_stats(this, Capability::StatsCpu | Capability::StatsMemory,
              [this](const QString &id, Callback<StatsSample> done) { sample(id, std::move(done)); })
{
    setFacets({.terminals = &m_terminals,
               .exec = this,
               .files = this,
               .stats = &m_stats,
               .timeLimit = this,
               .snapshots = this,
               .settings = this,
               .labels = this});
    auto o = cloud::CloudClient::bearerOptions(serviceName(), m_settings.endpoint, m_settings.caCertificates,
                                               m_settings.token, m_clock);
    m_client = new cloud::CloudClient(std::move(o), this);
    // A sprite asleep has nothing to end.
    m_ttl = new cloud::DeadlineKeeper(
        *m_clock,
        [this](const QString &id) {
            const auto it = m_records.constFind(id);
            return it != m_records.cend() && !it->info.asleep;
        },
        [this](const QString &id, Callback<void> done) { stop(id, std::move(done)); }, this);
}

SpritesProvider::~SpritesProvider() = default;

QString SpritesProvider::enc(const QString &name)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(name));
}

cloud::ApiCall SpritesProvider::apiCall(const QByteArray &method, const QString &path) const
{
    cloud::ApiCall call;
    call.method = method;
    call.path = path;
    return call;
}

QUrl SpritesProvider::spriteUrl(const QString &sprite, const QString &suffix, const QUrlQuery &query) const
{
    return m_client->url(QStringLiteral("/v1/sprites/") + enc(sprite) + suffix, query);
}

void SpritesProvider::health(Callback<HealthInfo> done)
{
    cloud::ApiCall call = apiCall("GET", QStringLiteral("/v1/sprites"));
    call.query.addQueryItem(QStringLiteral("max_results"), QStringLiteral("1"));
    const QString endpoint = m_settings.endpoint.toString();
    m_client->call(call, Callback<cloud::ApiReply>(done.context(), [done, endpoint](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(r.error());
                       HealthInfo h;
                       h.serverName = serviceName();
                       h.endpoint = endpoint;
                       done(h);
                   }));
}

void SpritesProvider::remember(const SpriteRecord &rec)
{
    m_records.insert(rec.info.id, rec);
    m_ttl->set(rec.info.id, rec.deadline);
}

SessionInfo SpritesProvider::withPorts(SessionInfo info) const
{
    // The sprite's URL reaches port 8080 inside it: say so once something listens there.
    if (m_openPorts.value(info.id).contains(8080))
        for (SessionEndpoint &e : info.endpoints)
            e.name = tr("%1 (8080 is listening)").arg(e.name);
    // Every listening port, 8080 too (its URL may be private), on a local port of this computer.
    const auto forwards = m_forwards.value(info.id);
    QList<int> ports = forwards.keys();
    std::sort(ports.begin(), ports.end());
    for (const int port : std::as_const(ports)) {
        const quint16 local = forwards.value(port)->localPort();
        info.endpoints.append(SessionEndpoint{tr("Port %1 (forwarded to this computer)").arg(port),
                                              QStringLiteral("http://127.0.0.1:%1").arg(local), port, local});
    }
    return info;
}

void SpritesProvider::forwardPort(const QString &sprite, int port, bool open)
{
    QHash<int, cloud::WebSocketPortForward *> &forwards = m_forwards[sprite];
    if (!open) {
        delete forwards.take(port);
        if (forwards.isEmpty())
            m_forwards.remove(sprite);
        return;
    }
    if (forwards.contains(port) || port <= 0 || port > 65535)
        return;
    auto *forward = new cloud::WebSocketPortForward(
        serviceName(),
        [this, sprite, port] {
            cloud::WebSocketPortForward::Dial dial;
            dial.request = m_client->request(spriteUrl(sprite, QStringLiteral("/proxy")));
            dial.init = compact(
                QJsonObject{{QStringLiteral("host"), QStringLiteral("localhost")}, {QStringLiteral("port"), port}});
            return dial;
        },
        this);
    if (!forward->listen()) {
        delete forward; // no local port: the sprite's port is still listed, only not forwarded
        return;
    }
    forwards.insert(port, forward);
}

void SpritesProvider::notePort(const QString &sprite, int port, bool open)
{
    QList<int> &ports = m_openPorts[sprite];
    if (open == ports.contains(port))
        return;
    if (open)
        ports.append(port);
    else
        ports.removeAll(port);
    forwardPort(sprite, port, open);
    const auto it = m_records.constFind(sprite);
    if (it != m_records.cend())
        Q_EMIT sessionChanged(withPorts(it->info));
}

void SpritesProvider::listPages(QUrlQuery query, Callback<QList<SpriteRecord>> done)
{
    cloud::ApiCall call = apiCall("GET", QStringLiteral("/v1/sprites"));
    call.query = query;
    cloud::collectPages<SpriteRecord>(
        m_client, call, QStringLiteral("continuation_token"),
        [this](const QByteArray &body) { return parseSpriteList(body, m_account, m_descriptor.id); }, this,
        std::move(done));
}

void SpritesProvider::listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done)
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("max_results"), QStringLiteral("50"));
    const bool all = options.all;
    listPages(query, Callback<QList<SpriteRecord>>(this, [this, all, done](Result<QList<SpriteRecord>> r) {
                  if (!r)
                      return done(r.error());
                  QList<SessionInfo> out;
                  for (const SpriteRecord &rec : r.value()) {
                      const bool ours =
                          rec.info.owned && rec.info.labels.value(QLatin1String(labels::Account)) == m_account;
                      if (!all && !ours)
                          continue;
                      remember(rec);
                      out.append(withPorts(rec.info));
                  }
                  done(out);
              }));
}

void SpritesProvider::getSprite(const QString &name, Callback<SpriteRecord> done)
{
    m_client->call(apiCall("GET", QStringLiteral("/v1/sprites/") + enc(name)),
                   Callback<cloud::ApiReply>(this, [this, done](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(r.error());
                       auto rec = parseSprite(r->body, m_account, m_descriptor.id);
                       if (!rec)
                           return done(rec.error());
                       remember(rec.value());
                       done(rec.value());
                   }));
}

void SpritesProvider::info(const QString &sessionId, Callback<SessionInfo> done)
{
    getSprite(sessionId, Callback<SpriteRecord>(done.context(), [this, done](Result<SpriteRecord> r) {
                  if (!r)
                      return done(r.error());
                  done(withPorts(r->info));
              }));
}

void SpritesProvider::create(const CreateSpec &spec, Callback<SessionInfo> done)
{
    if (spec.ttlSeconds < 0 || (spec.cpus && *spec.cpus <= 0) || (spec.memoryBytes && *spec.memoryBytes <= 0))
        return done.post(makeError(ErrorCode::InvalidArgument, tr("The time limit, CPUs and memory must be positive")));
    if (spec.gpus != 0)
        return done.post(makeError(ErrorCode::Unsupported, tr("Sprites have no GPUs")));
    auto state = std::make_shared<CreateState>();
    state->spec = spec;
    state->name = spriteName(spec.name);
    state->token = QUuid::createUuid().toString(QUuid::WithoutBraces);
    state->done = std::move(done);
    Q_EMIT createProgress(spec.name, tr("Creating the sprite…"), 0, 0);
    cloud::ApiCall call = apiCall("POST", QStringLiteral("/v1/sprites"));
    call.body = compact(createBody(spec, state->name, m_account, state->token));
    call.timeoutMs = 120000;
    // After a lost reply the name says whether the sprite exists, and the token whether it is
    // this create's; a name someone else's now fails with the create's own error.
    const QString name = state->name;
    const QString token = state->token;
    cloud::createOnce<SpriteRecord>(
        m_client, call, this, [this](const QByteArray &body) { return parseSprite(body, m_account, m_descriptor.id); },
        [this, name, token](Callback<std::optional<SpriteRecord>> found) {
            getSprite(name, Callback<SpriteRecord>(found.context(), [name, token, found](Result<SpriteRecord> f) {
                          if (f && f->token == token)
                              return found(std::optional<SpriteRecord>(f.value()));
                          if (!f && f.code() == ErrorCode::NotFound)
                              return found(std::optional<SpriteRecord>());
                          found(f ? makeError(ErrorCode::Conflict, name) : f.error());
                      }));
        },
        Callback<SpriteRecord>(this, [this, state](Result<SpriteRecord> r) {
            if (!r)
                return state->done(r.error());
            created(state, r.value());
        }));
}

void SpritesProvider::created(std::shared_ptr<CreateState> state, const SpriteRecord &rec)
{
    remember(rec);
    auto info = std::make_shared<SessionInfo>(rec.info);
    const QString base = QStringLiteral("/v1/sprites/") + enc(rec.info.id) + QStringLiteral("/policy/");
    // A sprite that could not be given what was asked for is not handed over otherwise; it
    // holds nothing yet, so it goes.
    const auto fail = [this, state, rec](const QString &what, const Error &why) {
        remove(rec.info.id, Callback<void>(this, [state, what, why](VoidResult) {
                   state->done(
                       makeError(why.code, tr("%1, so the sprite was deleted again: %2").arg(what, why.message)));
               }));
    };
    const auto closeNetwork = [this, state, info, base, fail] {
        if (state->spec.network)
            return state->done(withPorts(*info));
        // Sandbar's secure default: no domain reachable.
        Q_EMIT createProgress(state->spec.name, tr("Closing the sprite's network…"), 0, 0);
        cloud::ApiCall call = apiCall("POST", base + QStringLiteral("network"));
        call.body = compact(denyAllPolicy());
        m_client->call(call, Callback<cloud::ApiReply>(this, [this, state, info, fail](Result<cloud::ApiReply> r) {
                           if (!r)
                               return fail(tr("The sprite's network could not be closed"), r.error());
                           info->network = false;
                           state->done(withPorts(*info));
                       }));
    };
    if (!state->spec.memoryBytes)
        return closeNetwork();
    // The memory asked for is also the sprite's limit, set and read back.
    cloud::ApiCall set = apiCall("POST", base + QStringLiteral("resources"));
    set.body = compact(resourcesPolicy(*state->spec.memoryBytes));
    m_client->call(
        set, Callback<cloud::ApiReply>(this, [this, info, base, fail, closeNetwork](Result<cloud::ApiReply> r) {
            if (!r)
                return fail(tr("The sprite's memory limit could not be set"), r.error());
            m_client->call(apiCall("GET", base + QStringLiteral("resources")),
                           Callback<cloud::ApiReply>(this, [info, fail, closeNetwork](Result<cloud::ApiReply> g) {
                               if (!g)
                                   return fail(tr("The sprite's memory limit could not be read"), g.error());
                               if (const auto limit = memoryLimit(g->body))
                                   info->memoryBytes = *limit;
                               closeNetwork();
                           }));
        }));
}

void SpritesProvider::endSessions(const QString &sprite, const QString &signal, Callback<void> done)
{
    m_client->call(apiCall("GET", QStringLiteral("/v1/sprites/") + enc(sprite) + QStringLiteral("/exec")),
                   Callback<cloud::ApiReply>(this, [this, sprite, signal, done](Result<cloud::ApiReply> r) {
                       if (!r)
                           return done(r.error());
                       auto sessions = parseSessionList(r->body);
                       if (!sessions)
                           return done(sessions.error());
                       // Every listed session runs (is_active says whether a client is attached).
                       auto left = std::make_shared<int>(int(sessions->size()));
                       auto firstError = std::make_shared<std::optional<Error>>();
                       if (*left == 0)
                           return done(VoidResult{});
                       for (const ExecSession &s : sessions.value()) {
                           cloud::ApiCall kill =
                               apiCall("POST", QStringLiteral("/v1/sprites/") + enc(sprite) + QStringLiteral("/exec/") +
                                                   enc(s.id) + QStringLiteral("/kill"));
                           kill.query.addQueryItem(QStringLiteral("signal"), signal);
                           kill.query.addQueryItem(QStringLiteral("timeout"), QStringLiteral("5s"));
                           kill.timeoutMs = 60000;
                           // A session that ended meanwhile is what was asked for.
                           m_client->call(
                               kill,
                               Callback<cloud::ApiReply>(this,
                                                         [left, firstError, done](Result<cloud::ApiReply> k) {
                                                             if (!k && !*firstError)
                                                                 *firstError = k.error();
                                                             if (--*left > 0)
                                                                 return;
                                                             if (*firstError)
                                                                 return done(**firstError);
                                                             done(VoidResult{});
                                                         }),
                               {404});
                       }
                   }));
}

void SpritesProvider::stop(const QString &sessionId, Callback<void> done)
{
    endSessions(sessionId, QStringLiteral("TERM"), Callback<void>(this, [this, sessionId, done](VoidResult r) {
                    if (!r)
                        return done(
                            makeError(r.code(), tr("Ending the sprite's sessions failed: %1").arg(r.message())));
                    done(VoidResult{});
                    info(sessionId, Callback<SessionInfo>(this, [this](Result<SessionInfo> s) {
                             if (s)
                                 Q_EMIT sessionChanged(s.value());
                         }));
                }));
}

void SpritesProvider::kill(const QString &sessionId, Callback<void> done)
{
    endSessions(sessionId, QStringLiteral("KILL"), Callback<void>(this, [this, sessionId, done](VoidResult r) {
                    if (!r)
                        return done(
                            makeError(r.code(), tr("Killing the sprite's sessions failed: %1").arg(r.message())));
                    done(VoidResult{});
                    info(sessionId, Callback<SessionInfo>(this, [this](Result<SessionInfo> s) {
                             if (s)
                                 Q_EMIT sessionChanged(s.value());
                         }));
                }));
}

void SpritesProvider::remove(const QString &sessionId, Callback<void> done)
{
    cloud::ApiCall call = apiCall("DELETE", QStringLiteral("/v1/sprites/") + enc(sessionId));
    call.timeoutMs = 120000;
    m_client->call(
        call,
        Callback<cloud::ApiReply>(this,
                                  [this, sessionId, done](Result<cloud::ApiReply> r) {
                                      if (!r)
                                          return done(makeError(r.code(), tr("Deleting failed: %1").arg(r.message())));
                                      m_records.remove(sessionId);
                                      m_openPorts.remove(sessionId);
                                      qDeleteAll(m_forwards.take(sessionId));
                                      m_ttl->remove(sessionId);
                                      done(VoidResult{});
                                      Q_EMIT sessionRemoved(sessionId);
                                  }),
        {404});
}

void SpritesProvider::changeSettings(const QString &sessionId, const QVariantMap &values, Callback<SessionInfo> done)
{
    const QString publicUrl = QStringLiteral("public-url");
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        if (it.key() != publicUrl)
            return done.post(makeError(ErrorCode::InvalidArgument,
                                       tr("'%1' cannot be changed on a sprite that exists").arg(it.key())));
    }
    if (!values.contains(publicUrl))
        return info(sessionId, std::move(done));
    cloud::ApiCall call = apiCall("PUT", QStringLiteral("/v1/sprites/") + enc(sessionId));
    call.body = compact(urlSettingsBody(values.value(publicUrl).toBool()));
    m_client->call(call, Callback<cloud::ApiReply>(this, [this, done](Result<cloud::ApiReply> put) {
                       if (!put)
                           return done(
                               makeError(put.code(), tr("Changing the settings failed: %1").arg(put.message())));
                       auto rec = parseSprite(put->body, m_account, m_descriptor.id);
                       if (!rec)
                           return done(rec.error());
                       remember(rec.value());
                       const SessionInfo now = withPorts(rec->info);
                       done(now);
                       Q_EMIT sessionChanged(now);
                   }));
}

void SpritesProvider::setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done)
{
    if (ttlSeconds < 0)
        return done.post(makeError(ErrorCode::InvalidArgument, tr("The time limit cannot be negative")));
    getSprite(sessionId, Callback<SpriteRecord>(this, [this, sessionId, ttlSeconds, done](Result<SpriteRecord> r) {
                  if (!r)
                      return done(r.error());
                  const QDateTime now = m_clock->currentDateTimeUtc();
                  const QDateTime created = r->info.created.isValid() ? r->info.created : now;
                  // The label counts from creation, so that created + ttl is the deadline for all.
                  const qint64 fromCreation = ttlSeconds == 0 ? 0 : qMax<qint64>(1, created.secsTo(now) + ttlSeconds);
                  putLabels(sessionId, labelsWithTtl(r.value(), fromCreation),
                            Callback<SessionInfo>(done.context(), [done](Result<SessionInfo> put) {
                                done(put ? VoidResult{} : VoidResult(put.error()));
                            }));
              }));
}

void SpritesProvider::setLabels(const QString &sessionId, const QMap<QString, QString> &labels,
                                Callback<SessionInfo> done)
{
    for (auto it = labels.cbegin(); it != labels.cend(); ++it) {
        if (labels::isSandbars(it.key()) || cloud::isServiceTag(it.key()))
            return done.post(makeError(ErrorCode::InvalidArgument, tr("%1 is one of Sandbar's labels").arg(it.key())));
    }
    getSprite(sessionId, Callback<SpriteRecord>(this, [this, sessionId, labels, done](Result<SpriteRecord> r) {
                  if (!r)
                      return done(r.error());
                  putLabels(sessionId, labelsWithPersons(r.value(), labels), done);
              }));
}

void SpritesProvider::putLabels(const QString &sprite, const QStringList &labelList, Callback<SessionInfo> done)
{
    cloud::ApiCall call = apiCall("PUT", QStringLiteral("/v1/sprites/") + enc(sprite));
    call.body = compact(QJsonObject{{QStringLiteral("labels"), QJsonArray::fromStringList(labelList)}});
    m_client->call(call, Callback<cloud::ApiReply>(this, [this, done](Result<cloud::ApiReply> put) {
                       if (!put)
                           return done(put.error());
                       auto rec = parseSprite(put->body, m_account, m_descriptor.id);
                       if (!rec)
                           return done(rec.error());
                       remember(rec.value());
                       const SessionInfo info = withPorts(rec->info);
                       done(info);
                       Q_EMIT sessionChanged(info);
                   }));
}

} // namespace sandbar::sprites
