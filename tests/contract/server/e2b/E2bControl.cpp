// The E2B control plane (api.e2b.app): sandboxes' lifecycle, list, metrics and logs.

#include "E2bContext.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QUrl>
#include <QUrlQuery>
#include <algorithm>

namespace contract::e2b {

namespace {

QString randomToken(int length)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    QString out;
    for (int i = 0; i < length; ++i)
        out += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(36)]);
    return out;
}

QString iso(const QDateTime &t)
{
    return t.toUTC().toString(Qt::ISODateWithMs);
}

bool authorized(const Context &c, const Request &request, Responder *responder)
{
    const QByteArray key = request.header("x-api-key");
    if (key.isEmpty()) {
        sendError(responder, 401, QStringLiteral("Authorization header is missing"));
        return false;
    }
    if (QString::fromUtf8(key) != c.options.apiKey) {
        sendError(responder, 401, QStringLiteral("Invalid API key, please visit https://e2b.dev/docs/api-key"));
        return false;
    }
    return true;
}

// The JSON body of a control-plane request; empty bodies give an empty object.
bool jsonBody(const Request &request, Responder *responder, QJsonObject *out, bool required)
{
    if (request.bodySize == 0) {
        if (required) {
            sendError(responder, 400, QStringLiteral("request body is required"));
            return false;
        }
        *out = {};
        return true;
    }
    if (request.mediaType() != "application/json") {
        sendError(responder, 415, QStringLiteral("Content-Type must be application/json"));
        return false;
    }
    QJsonDocument doc;
    QString error;
    if (!request.json(&doc, &error) || !doc.isObject()) {
        sendError(responder, 400,
                  QStringLiteral("request body has an error: %1")
                      .arg(error.isEmpty() ? QStringLiteral("not an object") : error));
        return false;
    }
    *out = doc.object();
    return true;
}

Sandbox *findSandbox(Context &c, const Request &request, Responder *responder)
{
    Sandbox *sandbox = c.host.find(request.param(QStringLiteral("id")));
    if (!sandbox)
        sendError(responder, 404,
                  QStringLiteral("sandbox \"%1\" doesn't exist or you don't have access to it")
                      .arg(request.param(QStringLiteral("id"))));
    return sandbox;
}

QJsonObject sandboxJson(const Context &c, const Sandbox *s)
{
    QJsonObject o{{QStringLiteral("sandboxID"), s->id()},
                  {QStringLiteral("templateID"), s->data.value(QStringLiteral("templateID"))},
                  {QStringLiteral("clientID"), QStringLiteral("contract")},
                  {QStringLiteral("envdVersion"), QString::fromLatin1(kEnvdVersion)},
                  {QStringLiteral("domain"), c.domain},
                  {QStringLiteral("trafficAccessToken"), QJsonValue::Null}};
    if (s->data.contains(QStringLiteral("alias")))
        o.insert(QStringLiteral("alias"), s->data.value(QStringLiteral("alias")));
    if (s->data.value(QStringLiteral("secure")).toBool())
        o.insert(QStringLiteral("envdAccessToken"), s->data.value(QStringLiteral("envdAccessToken")));
    return o;
}

QJsonObject listedJson(const Context &c, const Sandbox *s, bool detail)
{
    QJsonObject o = sandboxJson(c, s);
    o.remove(QStringLiteral("trafficAccessToken"));
    if (!detail) {
        o.remove(QStringLiteral("domain"));
        o.remove(QStringLiteral("envdAccessToken"));
    }
    o.insert(QStringLiteral("startedAt"), iso(s->createdAt));
    o.insert(QStringLiteral("endAt"), iso(s->endAt));
    o.insert(QStringLiteral("cpuCount"), s->data.value(QStringLiteral("cpuCount")).toInt(2));
    o.insert(QStringLiteral("memoryMB"), s->data.value(QStringLiteral("memoryMB")).toInt(512));
    o.insert(QStringLiteral("diskSizeMB"), s->data.value(QStringLiteral("diskSizeMB")).toInt(1024));
    o.insert(QStringLiteral("metadata"), s->metadata);
    o.insert(QStringLiteral("state"), s->state());
    o.insert(QStringLiteral("volumeMounts"), QJsonArray());
    if (detail)
        o.insert(QStringLiteral("allowInternetAccess"),
                 s->data.value(QStringLiteral("allowInternetAccess")).toBool(true));
    return o;
}

// metadata=k%3Dv%26k2%3Dv2 (the SDK URL-encodes each key and value, then the pairs).
QList<QPair<QString, QString>> metadataFilter(const QString &raw)
{
    QList<QPair<QString, QString>> out;
    for (const QString &pair : raw.split(QLatin1Char('&'), Qt::SkipEmptyParts)) {
        const int eq = pair.indexOf(QLatin1Char('='));
        if (eq < 0)
            continue;
        auto decode = [](QString s) {
            s.replace(QLatin1Char('+'), QLatin1Char(' '));
            return QUrl::fromPercentEncoding(QUrl::fromPercentEncoding(s.toUtf8()).toUtf8());
        };
        out.append({decode(pair.left(eq)), decode(pair.mid(eq + 1))});
    }
    return out;
}

int timeoutSeconds(const QJsonObject &body, int fallback)
{
    const QJsonValue v = body.value(QStringLiteral("timeout"));
    return v.isDouble() ? qMax(0, v.toInt()) : fallback;
}

void create(Context &c, const Request &request, Responder *responder)
{
    if (!authorized(c, request, responder))
        return;
    QJsonObject body;
    if (!jsonBody(request, responder, &body, true))
        return;
    const QString templateId = body.value(QStringLiteral("templateID")).toString();
    if (templateId.isEmpty()) {
        sendError(responder, 400, QStringLiteral("request body has an error: templateID is required"));
        return;
    }
    const QJsonValue metadata = body.value(QStringLiteral("metadata"));
    const QJsonValue envVars = body.value(QStringLiteral("envVars"));
    for (const QJsonValue &map : {metadata, envVars}) {
        if (map.isUndefined() || map.isNull())
            continue;
        if (!map.isObject()) {
            sendError(responder, 400,
                      QStringLiteral("request body has an error: metadata and envVars must be objects"));
            return;
        }
        for (const QJsonValue &v : map.toObject()) {
            if (!v.isString()) {
                sendError(responder, 400, QStringLiteral("request body has an error: values must be strings"));
                return;
            }
        }
    }
    Sandbox *s = c.host.create();
    s->metadata = metadata.toObject();
    const QJsonObject env = envVars.toObject();
    for (auto it = env.begin(); it != env.end(); ++it)
        s->envVars.insert(it.key(), it.value().toString());
    s->endAt = s->createdAt.addSecs(timeoutSeconds(body, 15));
    s->data.insert(QStringLiteral("templateID"), templateId);
    if (templateId != QLatin1String("base"))
        s->data.insert(QStringLiteral("alias"), templateId);
    s->data.insert(QStringLiteral("secure"), body.value(QStringLiteral("secure")).toBool(false));
    s->data.insert(QStringLiteral("envdAccessToken"), randomToken(32));
    s->data.insert(QStringLiteral("autoPause"), body.value(QStringLiteral("autoPause")).toBool(false));
    s->data.insert(QStringLiteral("allowInternetAccess"),
                   body.value(QStringLiteral("allow_internet_access")).toBool(true));
    responder->sendJson(201, sandboxJson(c, s));
}

void list(Context &c, const Request &request, Responder *responder, bool v2)
{
    if (!authorized(c, request, responder))
        return;
    const auto filter = metadataFilter(request.query.queryItemValue(QStringLiteral("metadata"), QUrl::FullyDecoded));
    QStringList states = request.queryValue(QStringLiteral("state")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (!v2)
        states = {QStringLiteral("running")};
    const QString templ = request.queryValue(QStringLiteral("template"));
    bool ok = false;
    int limit = request.queryValue(QStringLiteral("limit")).toInt(&ok);
    if (!ok)
        limit = 100;
    if (limit < 1 || limit > 100) {
        sendError(responder, 400, QStringLiteral("limit must be between 1 and 100"));
        return;
    }
    QList<Sandbox *> all = c.host.sandboxes();
    std::sort(all.begin(), all.end(), [](Sandbox *a, Sandbox *b) {
        return a->createdAt != b->createdAt ? a->createdAt < b->createdAt : a->id() < b->id();
    });
    QList<Sandbox *> matched;
    for (Sandbox *s : std::as_const(all)) {
        if (!states.isEmpty() && !states.contains(s->state()))
            continue;
        if (!templ.isEmpty() && s->data.value(QStringLiteral("templateID")).toString() != templ)
            continue;
        const bool metaOk = std::all_of(filter.cbegin(), filter.cend(), [s](const auto &kv) {
            return s->metadata.value(kv.first).toString() == kv.second;
        });
        if (metaOk)
            matched.append(s);
    }
    // The cursor is the id of the first sandbox of the next page.
    qsizetype start = 0;
    const QString token = request.queryValue(QStringLiteral("nextToken"));
    if (!token.isEmpty()) {
        start = -1;
        for (qsizetype i = 0; i < matched.size(); ++i) {
            if (matched.at(i)->id() == token)
                start = i;
        }
        if (start < 0) {
            sendError(responder, 400, QStringLiteral("invalid next token"));
            return;
        }
    }
    QJsonArray out;
    for (qsizetype i = start; i < matched.size() && i < start + limit; ++i)
        out.append(listedJson(c, matched.at(i), false));
    Headers headers;
    if (v2 && start + limit < matched.size())
        headers.append(qMakePair(QByteArray("X-Next-Token"), matched.at(start + limit)->id().toUtf8()));
    responder->sendJson(200, out, headers);
}

void connectSandbox(Context &c, const Request &request, Responder *responder, bool resumeOnly)
{
    if (!authorized(c, request, responder))
        return;
    QJsonObject body;
    if (!jsonBody(request, responder, &body, false))
        return;
    Sandbox *s = findSandbox(c, request, responder);
    if (!s)
        return;
    const bool paused = s->isPaused();
    if (resumeOnly && !paused) {
        sendError(responder, 409, QStringLiteral("sandbox \"%1\" is already running").arg(s->id()));
        return;
    }
    const QDateTime wanted = QDateTime::currentDateTimeUtc().addSecs(timeoutSeconds(body, 15));
    if (paused) {
        s->resume();
        s->endAt = wanted;
    } else if (wanted > s->endAt) {
        s->endAt = wanted; // connect never shortens a running sandbox's life
    }
    responder->sendJson(paused ? 201 : 200, sandboxJson(c, s));
}

} // namespace

void installControlPlane(Context &context)
{
    Context *c = &context;
    Server &server = context.server;
    c->host.setExpiryHandler([c](Sandbox *s) {
        if (s->data.value(QStringLiteral("autoPause")).toBool() && !s->isPaused()) {
            s->pause();
            s->endAt = {};
        } else {
            c->host.kill(s->id());
        }
    });
    server.route("POST", QStringLiteral("/sandboxes"), [c](const Request &r, Responder *res) { create(*c, r, res); });
    server.route("POST", QStringLiteral("/v2/sandboxes"),
                 [c](const Request &r, Responder *res) { create(*c, r, res); });
    server.route("GET", QStringLiteral("/v2/sandboxes"),
                 [c](const Request &r, Responder *res) { list(*c, r, res, true); });
    server.route("GET", QStringLiteral("/sandboxes"),
                 [c](const Request &r, Responder *res) { list(*c, r, res, false); });
    server.route("GET", QStringLiteral("/sandboxes/{id}"), [c](const Request &r, Responder *res) {
        if (!authorized(*c, r, res))
            return;
        if (Sandbox *s = findSandbox(*c, r, res))
            res->sendJson(200, listedJson(*c, s, true));
    });
    server.route("DELETE", QStringLiteral("/sandboxes/{id}"), [c](const Request &r, Responder *res) {
        if (!authorized(*c, r, res))
            return;
        if (findSandbox(*c, r, res)) {
            c->host.kill(r.param(QStringLiteral("id")));
            res->send(204, {}, {});
        }
    });
    server.route("POST", QStringLiteral("/sandboxes/{id}/pause"), [c](const Request &r, Responder *res) {
        if (!authorized(*c, r, res))
            return;
        QJsonObject body;
        if (!jsonBody(r, res, &body, false))
            return;
        Sandbox *s = findSandbox(*c, r, res);
        if (!s)
            return;
        if (s->isPaused()) {
            sendError(res, 409, QStringLiteral("sandbox \"%1\" is already paused").arg(s->id()));
            return;
        }
        s->pause();
        s->endAt = {}; // a paused sandbox does not time out
        res->send(204, {}, {});
    });
    for (const QString &path :
         {QStringLiteral("/sandboxes/{id}/connect"), QStringLiteral("/v2/sandboxes/{id}/connect")}) {
        server.route("POST", path, [c](const Request &r, Responder *res) { connectSandbox(*c, r, res, false); });
    }
    server.route("POST", QStringLiteral("/sandboxes/{id}/resume"),
                 [c](const Request &r, Responder *res) { connectSandbox(*c, r, res, true); });
    server.route("POST", QStringLiteral("/sandboxes/{id}/timeout"), [c](const Request &r, Responder *res) {
        if (!authorized(*c, r, res))
            return;
        QJsonObject body;
        if (!jsonBody(r, res, &body, true))
            return;
        Sandbox *s = findSandbox(*c, r, res);
        if (!s)
            return;
        if (!body.value(QStringLiteral("timeout")).isDouble()) {
            sendError(res, 400, QStringLiteral("request body has an error: timeout is required"));
            return;
        }
        s->endAt = QDateTime::currentDateTimeUtc().addSecs(timeoutSeconds(body, 0));
        res->send(204, {}, {});
    });
    server.route("POST", QStringLiteral("/sandboxes/{id}/refreshes"), [c](const Request &r, Responder *res) {
        if (!authorized(*c, r, res))
            return;
        QJsonObject body;
        if (!jsonBody(r, res, &body, false))
            return;
        if (Sandbox *s = findSandbox(*c, r, res)) {
            const int duration = body.value(QStringLiteral("duration")).toInt(60);
            s->endAt = qMax(s->endAt, QDateTime::currentDateTimeUtc().addSecs(qBound(0, duration, 3600)));
            res->send(204, {}, {});
        }
    });
    server.route("GET", QStringLiteral("/sandboxes/{id}/metrics"), [c](const Request &r, Responder *res) {
        if (!authorized(*c, r, res))
            return;
        Sandbox *s = findSandbox(*c, r, res);
        if (!s)
            return;
        const SandboxMetrics m = s->metrics();
        const QDateTime now = QDateTime::currentDateTimeUtc();
        res->sendJson(200, QJsonArray{QJsonObject{{QStringLiteral("timestamp"), iso(now)},
                                                  {QStringLiteral("timestampUnix"), now.toSecsSinceEpoch()},
                                                  {QStringLiteral("cpuCount"), m.cpuCount},
                                                  {QStringLiteral("cpuUsedPct"), m.cpuPercent},
                                                  {QStringLiteral("memUsed"), m.memoryBytes},
                                                  {QStringLiteral("memTotal"), m.memoryTotal},
                                                  {QStringLiteral("memCache"), 0},
                                                  {QStringLiteral("diskUsed"), m.diskBytes},
                                                  {QStringLiteral("diskTotal"), m.diskTotal}}});
    });
    server.route("GET", QStringLiteral("/v2/sandboxes/{id}/logs"), [c](const Request &r, Responder *res) {
        if (!authorized(*c, r, res))
            return;
        Sandbox *s = findSandbox(*c, r, res);
        if (!s)
            return;
        QJsonArray logs;
        for (const QJsonValue &v : s->logs()) {
            QJsonObject entry = v.toObject();
            entry.insert(QStringLiteral("fields"), QJsonObject());
            logs.append(entry);
        }
        res->sendJson(200, QJsonObject{{QStringLiteral("logs"), logs}});
    });
    server.route("GET", QStringLiteral("/sandboxes/{id}/logs"), [c](const Request &r, Responder *res) {
        if (!authorized(*c, r, res))
            return;
        Sandbox *s = findSandbox(*c, r, res);
        if (!s)
            return;
        QJsonArray lines;
        QJsonArray entries;
        for (const QJsonValue &v : s->logs()) {
            QJsonObject entry = v.toObject();
            lines.append(QJsonObject{{QStringLiteral("timestamp"), entry.value(QStringLiteral("timestamp"))},
                                     {QStringLiteral("line"), entry.value(QStringLiteral("message"))}});
            entry.insert(QStringLiteral("fields"), QJsonObject());
            entries.append(entry);
        }
        res->sendJson(200, QJsonObject{{QStringLiteral("logs"), lines}, {QStringLiteral("logEntries"), entries}});
    });
    server.route("GET", QStringLiteral("/health"), [](const Request &, Responder *res) { res->send(200, {}, {}); });
}

} // namespace contract::e2b
