#include "DaytonaServer.h"

#include "DaytonaContext.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>
#include <algorithm>

namespace contract::daytona {

namespace {

// Per-sandbox caps of Daytona's default tier (docs: sandboxes.mdx).
constexpr int kMaxCpu = 4;
constexpr int kMaxMemory = 8;
constexpr int kMaxDisk = 10;

bool isInteger(const QJsonValue &v)
{
    return v.isDouble() && v.toDouble() == double(qint64(v.toDouble()));
}

// Checks an object of strings (labels, env); empty message when fine.
QString checkStringMap(const QJsonValue &v, const QString &field)
{
    if (v.isUndefined() || v.isNull())
        return {};
    if (!v.isObject())
        return QStringLiteral("%1 must be an object").arg(field);
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it.value().isString())
            return QStringLiteral("%1.%2 must be a string").arg(field, it.key());
    }
    return {};
}

// JSON body of a POST/PUT: content type and syntax as NestJS checks them.
bool jsonBody(const Request &request, Responder *responder, QJsonObject *out)
{
    if (request.mediaType() != "application/json") {
        Context::error(responder, 400, QStringLiteral("Content-Type must be application/json"));
        return false;
    }
    QJsonDocument doc;
    QString error;
    if (!request.json(&doc, &error) || !doc.isObject()) {
        Context::error(responder, 400, error.isEmpty() ? QStringLiteral("Request body must be a JSON object") : error);
        return false;
    }
    *out = doc.object();
    return true;
}

QString validateCreate(const QJsonObject &body)
{
    for (const char *field : {"cpu", "gpu", "memory", "disk", "autoStopInterval", "autoArchiveInterval",
                              "autoDeleteInterval", "autoPauseInterval", "ttlMinutes"}) {
        const QJsonValue v = body.value(QLatin1String(field));
        if (!v.isUndefined() && !v.isNull() && !isInteger(v))
            return QStringLiteral("%1 must be an integer number").arg(QLatin1String(field));
    }
    for (const char *field : {"name", "snapshot", "user", "target", "networkAllowList", "domainAllowList"}) {
        const QJsonValue v = body.value(QLatin1String(field));
        if (!v.isUndefined() && !v.isNull() && !v.isString())
            return QStringLiteral("%1 must be a string").arg(QLatin1String(field));
    }
    for (const char *field : {"public", "networkBlockAll"}) {
        const QJsonValue v = body.value(QLatin1String(field));
        if (!v.isUndefined() && !v.isNull() && !v.isBool())
            return QStringLiteral("%1 must be a boolean value").arg(QLatin1String(field));
    }
    if (QString m = checkStringMap(body.value(QStringLiteral("labels")), QStringLiteral("labels")); !m.isEmpty())
        return m;
    if (QString m = checkStringMap(body.value(QStringLiteral("env")), QStringLiteral("env")); !m.isEmpty())
        return m;
    const QJsonValue volumes = body.value(QStringLiteral("volumes"));
    if (!volumes.isUndefined() && !volumes.isNull() && !volumes.isArray())
        return QStringLiteral("volumes must be an array");
    for (const char *field : {"cpu", "gpu", "memory", "disk"}) {
        if (body.value(QLatin1String(field)).toInteger(0) < 0)
            return QStringLiteral("%1 must not be less than 0").arg(QLatin1String(field));
    }
    if (body.value(QStringLiteral("cpu")).toInteger(1) > kMaxCpu)
        return QStringLiteral("CPU request exceeds maximum allowed per sandbox (%1)").arg(kMaxCpu);
    if (body.value(QStringLiteral("memory")).toInteger(1) > kMaxMemory)
        return QStringLiteral("Memory request exceeds maximum allowed per sandbox (%1GiB)").arg(kMaxMemory);
    if (body.value(QStringLiteral("disk")).toInteger(3) > kMaxDisk)
        return QStringLiteral("Disk request exceeds maximum allowed per sandbox (%1GiB)").arg(kMaxDisk);
    return {};
}

// A list item: the service leaves the full DTO's heavier fields out of lists.
QJsonObject listItem(Context &ctx, Sandbox *sandbox)
{
    QJsonObject o = ctx.sandboxJson(sandbox);
    for (const char *field : {"env", "volumes", "buildInfo", "networkBlockAll", "networkAllowList", "domainAllowList"})
        o.remove(QLatin1String(field));
    return o;
}

class ControlPlane
{
public:
    explicit ControlPlane(Context &c)
        : ctx(c)
    {
    }

    void create(const Request &request, Responder *responder);
    void list(const Request &request, Responder *responder, bool paginated);
    void lifecycle(const Request &request, Responder *responder, const QString &action);
    void setInterval(const Request &request, Responder *responder, const QString &field);
    void labels(const Request &request, Responder *responder);
    void metrics(const Request &request, Responder *responder);

    // The sandbox named by {id}, or nullptr after a 404.
    Sandbox *sandboxFor(const Request &request, Responder *responder)
    {
        const QString key = request.param(QStringLiteral("id"));
        Sandbox *sandbox = ctx.find(key);
        if (!sandbox)
            Context::error(responder, 404, QStringLiteral("Sandbox with ID or name %1 not found").arg(key));
        return sandbox;
    }

    Context &ctx;
};

void ControlPlane::create(const Request &request, Responder *responder)
{
    QJsonObject body;
    if (!jsonBody(request, responder, &body))
        return;
    if (const QString problem = validateCreate(body); !problem.isEmpty()) {
        Context::error(responder, 400, problem);
        return;
    }
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QString name = body.value(QStringLiteral("name")).toString(id);
    if (ctx.find(name)) {
        Context::error(responder, 409, QStringLiteral("Sandbox with name %1 already exists").arg(name));
        return;
    }
    Sandbox *sandbox = ctx.host.create(id);
    if (!sandbox) {
        Context::error(responder, 500, QStringLiteral("Failed to create sandbox"));
        return;
    }
    const QString now = Context::nowIso();
    QJsonObject d;
    d.insert(QStringLiteral("organizationId"), QStringLiteral("contract-organization"));
    d.insert(QStringLiteral("name"), name);
    const bool fromImage = body.contains(QStringLiteral("buildInfo"));
    d.insert(
        QStringLiteral("snapshot"),
        fromImage
            ? QJsonValue(QJsonValue::Null)
            : QJsonValue(body.value(QStringLiteral("snapshot")).toString(QStringLiteral("daytonaio/sandbox:0.4.3"))));
    if (fromImage)
        d.insert(QStringLiteral("buildInfo"), body.value(QStringLiteral("buildInfo")));
    d.insert(QStringLiteral("user"), body.value(QStringLiteral("user")).toString(QStringLiteral("daytona")));
    d.insert(QStringLiteral("public"), body.value(QStringLiteral("public")).toBool(false));
    d.insert(QStringLiteral("networkBlockAll"), body.value(QStringLiteral("networkBlockAll")).toBool(false));
    if (body.value(QStringLiteral("networkAllowList")).isString())
        d.insert(QStringLiteral("networkAllowList"), body.value(QStringLiteral("networkAllowList")));
    if (body.value(QStringLiteral("domainAllowList")).isString())
        d.insert(QStringLiteral("domainAllowList"), body.value(QStringLiteral("domainAllowList")));
    d.insert(QStringLiteral("target"), body.value(QStringLiteral("target")).toString(QStringLiteral("us")));
    d.insert(QStringLiteral("cpu"), body.value(QStringLiteral("cpu")).toInt(1));
    d.insert(QStringLiteral("gpu"), body.value(QStringLiteral("gpu")).toInt(0));
    d.insert(QStringLiteral("memory"), body.value(QStringLiteral("memory")).toInt(1));
    d.insert(QStringLiteral("disk"), body.value(QStringLiteral("disk")).toInt(3));
    d.insert(QStringLiteral("autoStopInterval"), body.value(QStringLiteral("autoStopInterval")).toInt(15));
    d.insert(QStringLiteral("autoArchiveInterval"), body.value(QStringLiteral("autoArchiveInterval")).toInt(10080));
    d.insert(QStringLiteral("autoDeleteInterval"), body.value(QStringLiteral("autoDeleteInterval")).toInt(-1));
    d.insert(QStringLiteral("volumes"), body.value(QStringLiteral("volumes")).toArray());
    d.insert(QStringLiteral("recoverable"), false);
    d.insert(QStringLiteral("backupState"), QStringLiteral("None"));
    d.insert(QStringLiteral("sandboxClass"), QStringLiteral("container"));
    d.insert(QStringLiteral("runnerId"), QStringLiteral("contract-runner"));
    d.insert(QStringLiteral("daemonVersion"), QStringLiteral("0.218.0"));
    d.insert(QStringLiteral("updatedAt"), now);
    sandbox->data = d;
    sandbox->metadata = body.value(QStringLiteral("labels")).toObject();
    const QJsonObject env = body.value(QStringLiteral("env")).toObject();
    for (auto it = env.begin(); it != env.end(); ++it)
        sandbox->envVars.insert(it.key(), it.value().toString());
    sandbox->setState(QLatin1String(kStarted));
    sandbox->log(QStringLiteral("info"), QStringLiteral("sandbox %1 created").arg(name));
    ctx.touch(id);
    ctx.sample(sandbox);
    const QJsonObject dto = ctx.sandboxJson(sandbox);
    Q_EMIT ctx.event(QStringLiteral("sandbox.created"), dto);
    responder->sendJson(200, dto);
}

void ControlPlane::list(const Request &request, Responder *responder, bool paginated)
{
    QJsonObject labelFilter;
    const QString labels = request.queryValue(QStringLiteral("labels"));
    if (!labels.isEmpty()) {
        const QJsonDocument doc = QJsonDocument::fromJson(labels.toUtf8());
        if (!doc.isObject()) {
            Context::error(responder, 400, QStringLiteral("Invalid labels: must be a JSON object"));
            return;
        }
        labelFilter = doc.object();
    }
    QStringList states;
    for (const QString &value : request.query.allQueryItemValues(QStringLiteral("states"), QUrl::FullyDecoded))
        states += value.split(QLatin1Char(','), Qt::SkipEmptyParts);
    const QString idPrefix = request.queryValue(QStringLiteral("id"));
    const QString namePrefix = request.queryValue(QStringLiteral("name"));

    QList<Sandbox *> matching;
    const QList<Sandbox *> all = ctx.host.sandboxes();
    for (Sandbox *sandbox : all) {
        bool keep = true;
        for (auto it = labelFilter.begin(); keep && it != labelFilter.end(); ++it)
            keep = sandbox->metadata.value(it.key()) == it.value();
        if (keep && !states.isEmpty())
            keep = states.contains(sandbox->state());
        if (keep && !idPrefix.isEmpty())
            keep = sandbox->id().startsWith(idPrefix, Qt::CaseInsensitive);
        if (keep && !namePrefix.isEmpty())
            keep = sandbox->data.value(QStringLiteral("name")).toString().startsWith(namePrefix, Qt::CaseInsensitive);
        if (keep)
            matching.append(sandbox);
    }
    // Newest first, as the service's default sort (createdAt desc); ties by id keep pages stable.
    std::sort(matching.begin(), matching.end(), [](Sandbox *a, Sandbox *b) {
        if (a->createdAt != b->createdAt)
            return a->createdAt > b->createdAt;
        return a->id() < b->id();
    });

    if (request.query.hasQueryItem(QStringLiteral("verbose"))) {
        // The pre-pagination API answered GET /sandbox with a bare array.
        QJsonArray items;
        for (Sandbox *sandbox : std::as_const(matching))
            items.append(ctx.sandboxJson(sandbox));
        responder->sendJson(200, items);
        return;
    }
    bool ok = true;
    const QString limitText = request.queryValue(QStringLiteral("limit"));
    const int limit = limitText.isEmpty() ? 100 : limitText.toInt(&ok);
    if (!ok || limit < 1 || limit > 200) {
        Context::error(responder, 400, QStringLiteral("limit must not be less than 1 and not greater than 200"));
        return;
    }
    qsizetype offset = 0;
    if (paginated) {
        const QString pageText = request.queryValue(QStringLiteral("page"));
        const int page = pageText.isEmpty() ? 1 : pageText.toInt(&ok);
        if (!ok || page < 1) {
            Context::error(responder, 400, QStringLiteral("page must not be less than 1"));
            return;
        }
        offset = qsizetype(page - 1) * limit;
        QJsonArray items;
        for (qsizetype i = offset; i < matching.size() && i < offset + limit; ++i)
            items.append(listItem(ctx, matching.at(i)));
        const qsizetype total = matching.size();
        responder->sendJson(200, QJsonObject{{QStringLiteral("items"), items},
                                             {QStringLiteral("total"), total},
                                             {QStringLiteral("page"), page},
                                             {QStringLiteral("totalPages"), int((total + limit - 1) / limit)}});
        return;
    }
    const QString cursor = request.queryValue(QStringLiteral("cursor"));
    if (!cursor.isEmpty()) {
        // The cursor is opaque to clients: base64url of the next offset.
        offset = QByteArray::fromBase64(cursor.toLatin1(), QByteArray::Base64UrlEncoding).toLongLong(&ok);
        if (!ok || offset < 0) {
            Context::error(responder, 400, QStringLiteral("Invalid cursor"));
            return;
        }
    }
    QJsonArray items;
    for (qsizetype i = offset; i < matching.size() && i < offset + limit; ++i)
        items.append(listItem(ctx, matching.at(i)));
    QJsonValue next = QJsonValue::Null;
    if (offset + limit < matching.size())
        next = QString::fromLatin1(QByteArray::number(offset + limit).toBase64(QByteArray::Base64UrlEncoding));
    responder->sendJson(200, QJsonObject{{QStringLiteral("items"), items}, {QStringLiteral("nextCursor"), next}});
}

void ControlPlane::lifecycle(const Request &request, Responder *responder, const QString &action)
{
    Sandbox *sandbox = sandboxFor(request, responder);
    if (!sandbox)
        return;
    const QString state = sandbox->state();
    if (action == QLatin1String("start")) {
        if (state != QLatin1String(kStarted)) {
            ctx.changeState(sandbox, QLatin1String(kStarted));
            sandbox->log(QStringLiteral("info"), QStringLiteral("sandbox started"));
        }
        ctx.touch(sandbox->id());
        ctx.sample(sandbox);
    } else if (action == QLatin1String("stop")) {
        if (state == QLatin1String(kArchived)) {
            Context::error(responder, 400, QStringLiteral("Sandbox is archived"));
            return;
        }
        if (state == QLatin1String(kStarted)) {
            const QString id = sandbox->id();
            ctx.stopSandbox(sandbox);
            if (!ctx.host.find(id)) { // autoDeleteInterval 0: deleted on stop
                responder->sendJson(200, QJsonObject{{QStringLiteral("id"), id},
                                                     {QStringLiteral("state"), QStringLiteral("destroyed")}});
                return;
            }
        }
    } else if (action == QLatin1String("archive")) {
        if (state == QLatin1String(kStarted)) {
            Context::error(responder, 400, QStringLiteral("Sandbox must be stopped before it can be archived"));
            return;
        }
        ctx.changeState(sandbox, QLatin1String(kArchived));
    } else if (action == QLatin1String("delete")) {
        QJsonObject dto = ctx.sandboxJson(sandbox);
        dto.insert(QStringLiteral("state"), QStringLiteral("destroyed"));
        dto.insert(QStringLiteral("desiredState"), QStringLiteral("destroyed"));
        ctx.deleteSandbox(sandbox);
        responder->sendJson(200, dto);
        return;
    }
    responder->sendJson(200, ctx.sandboxJson(sandbox));
}

void ControlPlane::setInterval(const Request &request, Responder *responder, const QString &field)
{
    Sandbox *sandbox = sandboxFor(request, responder);
    if (!sandbox)
        return;
    bool ok = false;
    const int minutes = request.param(QStringLiteral("interval")).toInt(&ok);
    const int lowest = field == QLatin1String("autoDeleteInterval") ? -1 : 0;
    if (!ok || minutes < lowest) {
        Context::error(responder, 400, QStringLiteral("Invalid %1 value").arg(field));
        return;
    }
    sandbox->data.insert(field, minutes);
    sandbox->data.insert(QStringLiteral("updatedAt"), Context::nowIso());
    if (field == QLatin1String("autoStopInterval"))
        ctx.touch(sandbox->id()); // the idle clock restarts with the new interval
    responder->sendJson(200, ctx.sandboxJson(sandbox));
}

void ControlPlane::labels(const Request &request, Responder *responder)
{
    Sandbox *sandbox = sandboxFor(request, responder);
    if (!sandbox)
        return;
    QJsonObject body;
    if (!jsonBody(request, responder, &body))
        return;
    const QJsonValue labels = body.value(QStringLiteral("labels"));
    QString problem = labels.isObject() ? checkStringMap(labels, QStringLiteral("labels"))
                                        : QStringLiteral("labels must be an object");
    if (!problem.isEmpty()) {
        Context::error(responder, 400, problem);
        return;
    }
    sandbox->metadata = labels.toObject();
    sandbox->data.insert(QStringLiteral("updatedAt"), Context::nowIso());
    responder->sendJson(200, QJsonObject{{QStringLiteral("labels"), sandbox->metadata}});
}

void ControlPlane::metrics(const Request &request, Responder *responder)
{
    Sandbox *sandbox = sandboxFor(request, responder);
    if (!sandbox)
        return;
    const QDateTime from = QDateTime::fromString(request.queryValue(QStringLiteral("from")), Qt::ISODateWithMs);
    const QDateTime to = QDateTime::fromString(request.queryValue(QStringLiteral("to")), Qt::ISODateWithMs);
    if (!from.isValid() || !to.isValid()) {
        Context::error(responder, 400, QStringLiteral("from and to must be ISO 8601 date strings"));
        return;
    }
    QStringList names;
    for (const QString &value : request.query.allQueryItemValues(QStringLiteral("metricNames"), QUrl::FullyDecoded))
        names += value.split(QLatin1Char(','), Qt::SkipEmptyParts);
    ctx.sample(sandbox); // a fresh point for "now"
    const auto &samples = ctx.extra(sandbox->id()).samples;
    QMap<QString, QJsonArray> series;
    for (const auto &[ms, values] : samples) {
        if (ms < from.toMSecsSinceEpoch() || ms > to.toMSecsSinceEpoch())
            continue;
        const QString stamp = Context::iso(QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC));
        for (auto it = values.cbegin(); it != values.cend(); ++it) {
            if (names.isEmpty() || names.contains(it.key()))
                series[it.key()].append(
                    QJsonObject{{QStringLiteral("timestamp"), stamp}, {QStringLiteral("value"), it.value()}});
        }
    }
    QJsonArray out;
    for (auto it = series.cbegin(); it != series.cend(); ++it)
        out.append(QJsonObject{{QStringLiteral("metricName"), it.key()}, {QStringLiteral("dataPoints"), it.value()}});
    responder->sendJson(200, QJsonObject{{QStringLiteral("series"), out}});
}

} // namespace

void install(Server &server, SandboxHost &host, const Options &options)
{
    // Injected faults in Daytona's own (NestJS) shape: {statusCode, message, error}.
    server.setErrorBody(&Context::errorJson);
    auto *context = new Context(server, host, options, &server);
    installControlPlane(*context);
    installToolbox(*context);
    installPty(*context);
    installSocketIo(*context);
}

void installControlPlane(Context &context)
{
    auto plane = std::make_shared<ControlPlane>(context);
    Server &server = context.server;
    Context *ctx = &context;
    // Every control-plane route checks the API key first.
    auto guarded = [plane, ctx](auto body) {
        return [plane, ctx, body](const Request &request, Responder *responder) {
            if (ctx->authorize(request, responder))
                body(*plane, request, responder);
        };
    };
    server.route("GET", QStringLiteral("/api/config"), [ctx](const Request &, Responder *responder) {
        responder->sendJson(
            200, QJsonObject{{QStringLiteral("version"), QStringLiteral("0.218.0")},
                             {QStringLiteral("environment"), QStringLiteral("contract")},
                             {QStringLiteral("proxyToolboxUrl"), ctx->toolboxProxyUrl()},
                             {QStringLiteral("defaultSnapshot"), QStringLiteral("daytonaio/sandbox:0.4.3")},
                             {QStringLiteral("dashboardUrl"), QString(ctx->baseUrl + QStringLiteral("/dashboard"))},
                             {QStringLiteral("maxAutoArchiveInterval"), 43200},
                             {QStringLiteral("maintananceMode"), false},
                             {QStringLiteral("linkedAccountsEnabled"), false},
                             {QStringLiteral("announcements"), QJsonObject{}}});
    });
    server.route("POST", QStringLiteral("/api/sandbox"),
                 guarded([](ControlPlane &p, const Request &r, Responder *s) { p.create(r, s); }));
    server.route("GET", QStringLiteral("/api/sandbox"),
                 guarded([](ControlPlane &p, const Request &r, Responder *s) { p.list(r, s, false); }));
    server.route("GET", QStringLiteral("/api/sandbox/paginated"),
                 guarded([](ControlPlane &p, const Request &r, Responder *s) { p.list(r, s, true); }));
    server.route("GET", QStringLiteral("/api/sandbox/{id}"),
                 guarded([](ControlPlane &p, const Request &r, Responder *s) {
                     if (Sandbox *sandbox = p.sandboxFor(r, s))
                         s->sendJson(200, p.ctx.sandboxJson(sandbox));
                 }));
    server.route(
        "DELETE", QStringLiteral("/api/sandbox/{id}"),
        guarded([](ControlPlane &p, const Request &r, Responder *s) { p.lifecycle(r, s, QStringLiteral("delete")); }));
    for (const QString &action : {QStringLiteral("start"), QStringLiteral("stop"), QStringLiteral("archive")}) {
        server.route("POST", QStringLiteral("/api/sandbox/{id}/") + action,
                     guarded([action](ControlPlane &p, const Request &r, Responder *s) { p.lifecycle(r, s, action); }));
    }
    const QList<QPair<QString, QString>> intervals{
        {QStringLiteral("autostop"), QStringLiteral("autoStopInterval")},
        {QStringLiteral("autoarchive"), QStringLiteral("autoArchiveInterval")},
        {QStringLiteral("autodelete"), QStringLiteral("autoDeleteInterval")}};
    for (const auto &[segment, field] : intervals) {
        const QString name = field;
        server.route("POST", QStringLiteral("/api/sandbox/{id}/%1/{interval}").arg(segment),
                     guarded([name](ControlPlane &p, const Request &r, Responder *s) { p.setInterval(r, s, name); }));
    }
    server.route("PUT", QStringLiteral("/api/sandbox/{id}/labels"),
                 guarded([](ControlPlane &p, const Request &r, Responder *s) { p.labels(r, s); }));
    server.route("POST", QStringLiteral("/api/sandbox/{id}/last-activity"),
                 guarded([](ControlPlane &p, const Request &r, Responder *s) {
                     if (Sandbox *sandbox = p.sandboxFor(r, s)) {
                         p.ctx.touch(sandbox->id());
                         s->send(201, {}, {});
                     }
                 }));
    server.route("GET", QStringLiteral("/api/sandbox/{id}/toolbox-proxy-url"),
                 guarded([](ControlPlane &p, const Request &r, Responder *s) {
                     if (p.sandboxFor(r, s))
                         s->sendJson(200, QJsonObject{{QStringLiteral("url"), p.ctx.toolboxProxyUrl()}});
                 }));
    server.route("GET", QStringLiteral("/api/sandbox/{id}/telemetry/metrics"),
                 guarded([](ControlPlane &p, const Request &r, Responder *s) { p.metrics(r, s); }));
}

} // namespace contract::daytona
