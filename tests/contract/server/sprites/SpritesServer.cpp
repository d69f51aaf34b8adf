// The Sprites control plane: sprites (create, list with prefix and continuation token, get,
// update, delete, upgrade, restart, check) and their policies, as @fly/sprites 0.1.0 calls
// them; every sprite's files are a kit Sandbox's folder.
#include "SpritesServer.h"

#include "SpritesContext.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QRandomGenerator>
#include <QRegularExpression>
#include <QUuid>

namespace contract::sprites {

namespace {

constexpr int kMaxCpus = 8;
constexpr int kMaxRamMb = 16384;
constexpr int kMaxLabels = 10;

QString badRequest()
{
    return QStringLiteral("invalid_request");
}

bool isWhole(const QJsonValue &v)
{
    return v.isDouble() && v.toDouble() == double(qint64(v.toDouble()));
}

QString validateConfig(const QJsonValue &value)
{
    if (value.isUndefined() || value.isNull())
        return {};
    if (!value.isObject())
        return QStringLiteral("config must be an object");
    const QJsonObject config = value.toObject();
    const QJsonValue cpus = config.value(QStringLiteral("cpus"));
    if (!cpus.isUndefined() && (!isWhole(cpus) || cpus.toInt() < 1 || cpus.toInt() > kMaxCpus))
        return QStringLiteral("config.cpus must be a whole number between 1 and %1").arg(kMaxCpus);
    const QJsonValue ram = config.value(QStringLiteral("ram_mb"));
    if (!ram.isUndefined() && (!isWhole(ram) || ram.toInt() < 256 || ram.toInt() > kMaxRamMb))
        return QStringLiteral("config.ram_mb must be a whole number between 256 and %1").arg(kMaxRamMb);
    const QJsonValue storage = config.value(QStringLiteral("storage_gb"));
    if (!storage.isUndefined() && (!isWhole(storage) || storage.toInt() < 1 || storage.toInt() > 100))
        return QStringLiteral("config.storage_gb must be a whole number between 1 and 100");
    const QJsonValue region = config.value(QStringLiteral("region"));
    if (!region.isUndefined() && !region.isString())
        return QStringLiteral("config.region must be a string");
    return {};
}

QString validateLabels(const QJsonValue &value)
{
    static const QRegularExpression pattern(QStringLiteral("^[a-zA-Z0-9][a-zA-Z0-9_.:=-]{0,62}$"));
    if (value.isUndefined())
        return {};
    if (!value.isArray() || value.toArray().size() > kMaxLabels)
        return QStringLiteral("labels must be an array of at most %1 strings").arg(kMaxLabels);
    for (const QJsonValue &label : value.toArray()) {
        if (!label.isString() || !pattern.match(label.toString()).hasMatch())
            return QStringLiteral("labels must be 1 to 63 letters, digits or '_.:=-'");
    }
    return {};
}

QString validateUrlSettings(const QJsonValue &value)
{
    if (value.isUndefined())
        return {};
    const QJsonObject settings = value.toObject();
    const QString auth = settings.value(QStringLiteral("auth")).toString();
    if (!value.isObject() || (auth != QLatin1String("sprite") && auth != QLatin1String("public")))
        return QStringLiteral("url_settings.auth must be \"sprite\" or \"public\"");
    const QJsonValue access = settings.value(QStringLiteral("private_access"));
    if (!access.isUndefined() && access.toString() != QLatin1String("admins") &&
        access.toString() != QLatin1String("organization"))
        return QStringLiteral("url_settings.private_access must be \"admins\" or \"organization\"");
    return {};
}

QString validateCreate(const QJsonObject &body)
{
    static const QRegularExpression name(QStringLiteral("^[a-z0-9][a-z0-9-]{0,62}$"));
    if (!name.match(body.value(QStringLiteral("name")).toString()).hasMatch())
        return QStringLiteral(
            "name must be 1 to 63 lower-case letters, digits or '-', starting with a letter or digit");
    if (QString problem = validateConfig(body.value(QStringLiteral("config"))); !problem.isEmpty())
        return problem;
    const QJsonValue env = body.value(QStringLiteral("environment"));
    if (!env.isUndefined() && !env.isObject())
        return QStringLiteral("environment must be an object of strings");
    for (const QJsonValue &v : env.toObject()) {
        if (!v.isString())
            return QStringLiteral("environment must be an object of strings");
    }
    if (QString problem = validateLabels(body.value(QStringLiteral("labels"))); !problem.isEmpty())
        return problem;
    return validateUrlSettings(body.value(QStringLiteral("url_settings")));
}

void applyUpdate(SpriteRecord &record, const QJsonObject &body)
{
    if (body.contains(QStringLiteral("labels"))) {
        record.labels.clear();
        for (const QJsonValue &label : body.value(QStringLiteral("labels")).toArray())
            record.labels.append(label.toString());
    }
    if (body.contains(QStringLiteral("url_settings"))) {
        const QJsonObject settings = body.value(QStringLiteral("url_settings")).toObject();
        record.urlAuth = settings.value(QStringLiteral("auth")).toString();
        record.privateAccess = settings.value(QStringLiteral("private_access")).toString(record.privateAccess);
    }
    record.updatedAt = QDateTime::currentDateTimeUtc();
}

QString randomSuffix()
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    QString out;
    for (int i = 0; i < 8; ++i)
        out += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(36)]);
    return out;
}

void createSprite(Context &ctx, const Request &request, Responder *responder)
{
    QJsonObject body;
    if (!ctx.authorize(request, responder) || !Context::jsonBody(request, responder, &body))
        return;
    if (const QString problem = validateCreate(body); !problem.isEmpty()) {
        Context::error(responder, 400, badRequest(), problem);
        return;
    }
    const QString name = body.value(QStringLiteral("name")).toString();
    if (ctx.sprites.contains(name)) {
        Context::error(responder, 409, QStringLiteral("sprite_exists"),
                       QStringLiteral("a sprite named %1 already exists").arg(name));
        return;
    }
    auto record = std::make_shared<SpriteRecord>();
    record->id = QStringLiteral("sprite-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    record->name = name;
    record->config = QJsonObject{{QStringLiteral("ram_mb"), 4096},
                                 {QStringLiteral("cpus"), kMaxCpus},
                                 {QStringLiteral("region"), QStringLiteral("ord")},
                                 {QStringLiteral("storage_gb"), 100}};
    const QJsonObject config = body.value(QStringLiteral("config")).toObject();
    for (auto it = config.begin(); it != config.end(); ++it)
        record->config.insert(it.key(), it.value());
    record->environment = body.value(QStringLiteral("environment")).toObject();
    record->url = QStringLiteral("https://%1-%2.sprites.app").arg(name, randomSuffix());
    record->createdAt = QDateTime::currentDateTimeUtc();
    applyUpdate(*record, body);
    if (record->urlAuth.isEmpty())
        record->urlAuth = QStringLiteral("sprite");
    Sandbox *kit = ctx.host.create();
    record->kitId = kit->id();
    kit->metadata = QJsonObject{{QStringLiteral("name"), name}};
    kit->setState(record->status);
    for (auto it = record->environment.begin(); it != record->environment.end(); ++it)
        kit->envVars.insert(it.key(), it.value().toString());
    ctx.sprites.insert(name, record);
    responder->sendJson(201, ctx.spriteJson(*record));
}

void listSprites(Context &ctx, const Request &request, Responder *responder)
{
    if (!ctx.authorize(request, responder))
        return;
    const QString prefix = Context::queryValue(request, QStringLiteral("prefix"));
    const QString maxText = Context::queryValue(request, QStringLiteral("max_results"));
    bool ok = true;
    const int max = maxText.isEmpty() ? kMaxPage : maxText.toInt(&ok);
    if (!ok || max < 1) {
        Context::error(responder, 400, badRequest(), QStringLiteral("max_results must be a positive number"));
        return;
    }
    // The token is the last name of the previous page (opaque to clients).
    const QString token = Context::queryValue(request, QStringLiteral("continuation_token"));
    const QString after = QString::fromUtf8(QByteArray::fromBase64(token.toLatin1(), QByteArray::Base64UrlEncoding));
    QJsonArray page;
    QJsonObject counts{{QStringLiteral("running"), 0}, {QStringLiteral("warm"), 0}, {QStringLiteral("cold"), 0}};
    bool more = false;
    QString last;
    for (const SpritePtr &record : std::as_const(ctx.sprites)) {
        if (!record->name.startsWith(prefix) || (!after.isEmpty() && record->name <= after))
            continue;
        if (page.size() >= qMin(max, kMaxPage)) {
            more = true;
            break;
        }
        page.append(ctx.spriteJson(*record));
        counts.insert(record->status, counts.value(record->status).toInt() + 1);
        last = record->name;
    }
    QJsonObject out{{QStringLiteral("sprites"), page},
                    {QStringLiteral("has_more"), more},
                    {QStringLiteral("name"), QLatin1String(kOrg)},
                    {QStringLiteral("running_limit"), 10},
                    {QStringLiteral("warm_limit"), 10}};
    for (auto it = counts.begin(); it != counts.end(); ++it)
        out.insert(it.key(), it.value());
    if (more)
        out.insert(QStringLiteral("next_continuation_token"),
                   QString::fromLatin1(last.toUtf8().toBase64(QByteArray::Base64UrlEncoding)));
    responder->sendJson(200, out);
}

void updateSprite(Context &ctx, const Request &request, Responder *responder)
{
    QJsonObject body;
    const SpritePtr record = ctx.spriteFor(request, responder);
    if (!record || !Context::jsonBody(request, responder, &body))
        return;
    if (!body.contains(QStringLiteral("labels")) && !body.contains(QStringLiteral("url_settings"))) {
        Context::error(responder, 400, badRequest(), QStringLiteral("url_settings or labels is required"));
        return;
    }
    QString problem = validateLabels(body.value(QStringLiteral("labels")));
    if (problem.isEmpty())
        problem = validateUrlSettings(body.value(QStringLiteral("url_settings")));
    if (!problem.isEmpty()) {
        Context::error(responder, 400, badRequest(), problem);
        return;
    }
    applyUpdate(*record, body);
    responder->sendJson(200, ctx.spriteJson(*record));
}

// GET/POST(/PUT)/DELETE /policy/{kind}: network answers 204 to a POST (as the SDK expects),
// the others 200 with the policy.
void policy(Context &ctx, const Request &request, Responder *responder)
{
    const SpritePtr record = ctx.spriteFor(request, responder);
    if (!record)
        return;
    const QString kind = request.param(QStringLiteral("kind"));
    QJsonObject *stored = kind == QLatin1String("network")      ? &record->networkPolicy
                          : kind == QLatin1String("resources")  ? &record->resources
                          : kind == QLatin1String("privileges") ? &record->privileges
                                                                : nullptr;
    if (!stored) {
        Context::error(responder, 404, QStringLiteral("not_found"), QStringLiteral("no policy %1").arg(kind));
        return;
    }
    if (request.method == "GET") {
        QJsonObject out = *stored;
        if (kind == QLatin1String("network") && !out.contains(QStringLiteral("rules")))
            out.insert(QStringLiteral("rules"), QJsonArray());
        responder->sendJson(200, out);
        return;
    }
    if (request.method == "DELETE") {
        *stored = {};
        responder->sendJson(200, QJsonObject{});
        return;
    }
    QJsonObject body;
    if (!Context::jsonBody(request, responder, &body))
        return;
    if (kind == QLatin1String("resources")) {
        const QJsonValue limit = body.value(QStringLiteral("memory")).toObject().value(QStringLiteral("limit_mb"));
        if (!body.value(QStringLiteral("memory")).isUndefined() && (!isWhole(limit) || limit.toInt() < 256)) {
            Context::error(responder, 400, badRequest(), QStringLiteral("memory.limit_mb must be at least 256"));
            return;
        }
    }
    if (kind == QLatin1String("network")) {
        for (const QJsonValue &rule : body.value(QStringLiteral("rules")).toArray()) {
            const QString action = rule.toObject().value(QStringLiteral("action")).toString();
            if (action != QLatin1String("allow") && action != QLatin1String("deny")) {
                Context::error(responder, 400, badRequest(), QStringLiteral("a rule's action is allow or deny"));
                return;
            }
        }
        *stored = body;
        responder->send(204, {}, {});
        return;
    }
    *stored = body;
    responder->sendJson(200, body);
}

void machineAction(Context &ctx, const Request &request, Responder *responder, const QString &action)
{
    const SpritePtr record = ctx.spriteFor(request, responder);
    if (!record)
        return;
    if (action == QLatin1String("upgrade")) {
        responder->send(204, {}, {});
    } else if (action == QLatin1String("restart")) {
        ctx.killSessions(record->name);
        ctx.updateStatus(*record);
        ctx.touch(*record);
        responder->sendJson(200, QJsonObject{{QStringLiteral("sprite_name"), record->name},
                                             {QStringLiteral("machine_id"), record->kitId},
                                             {QStringLiteral("message"), QStringLiteral("restarted")}});
    } else {
        responder->sendJson(200,
                            QJsonObject{{QStringLiteral("sprite_name"), record->name},
                                        {QStringLiteral("sprite_id"), record->id},
                                        {QStringLiteral("status"), QStringLiteral("ok")},
                                        {QStringLiteral("checked_at"), Context::iso(QDateTime::currentDateTimeUtc())},
                                        {QStringLiteral("elapsed"), QStringLiteral("1ms")}});
    }
}

} // namespace

void installControlPlane(Context &context)
{
    Context *ctx = &context;
    Server &s = context.server;
    s.route("POST", QStringLiteral("/v1/sprites"),
            [ctx](const Request &r, Responder *out) { createSprite(*ctx, r, out); });
    s.route("GET", QStringLiteral("/v1/sprites"),
            [ctx](const Request &r, Responder *out) { listSprites(*ctx, r, out); });
    s.route("GET", QStringLiteral("/v1/sprites/{name}"), [ctx](const Request &r, Responder *out) {
        if (const SpritePtr record = ctx->spriteFor(r, out))
            out->sendJson(200, ctx->spriteJson(*record));
    });
    s.route("PUT", QStringLiteral("/v1/sprites/{name}"),
            [ctx](const Request &r, Responder *out) { updateSprite(*ctx, r, out); });
    s.route("DELETE", QStringLiteral("/v1/sprites/{name}"), [ctx](const Request &r, Responder *out) {
        if (const SpritePtr record = ctx->spriteFor(r, out)) {
            ctx->deleteSprite(record->name);
            out->send(204, {}, {});
        }
    });
    for (const QString &action : {QStringLiteral("upgrade"), QStringLiteral("restart")}) {
        s.route("POST", QStringLiteral("/v1/sprites/{name}/") + action,
                [ctx, action](const Request &r, Responder *out) { machineAction(*ctx, r, out, action); });
    }
    s.route("GET", QStringLiteral("/v1/sprites/{name}/check"),
            [ctx](const Request &r, Responder *out) { machineAction(*ctx, r, out, QStringLiteral("check")); });
    s.route("*", QStringLiteral("/v1/sprites/{name}/policy/{kind}"), [ctx](const Request &r, Responder *out) {
        if (r.method == "GET" || r.method == "POST" || r.method == "PUT" || r.method == "DELETE")
            policy(*ctx, r, out);
        else
            Context::error(out, 405, QStringLiteral("method_not_allowed"), QStringLiteral("method not allowed"));
    });
}

void install(Server &server, SandboxHost &host, const Options &options)
{
    auto *context = new Context(server, host, options, &server);
    installControlPlane(*context);
    installExec(*context);
    installFiles(*context);
    installCheckpoints(*context);
    installProxy(*context);
    server.setFallback([](const Request &request, Responder *responder) {
        Context::error(responder, 404, QStringLiteral("not_found"),
                       QStringLiteral("no route for %1").arg(request.path));
    });
    // Injected faults in the Sprites API's own shape: {"error": code, "message"}.
    server.setErrorBody([](int status, const QString &message) {
        const QString code = status == 429   ? QStringLiteral("rate_limited")
                             : status == 401 ? QStringLiteral("unauthorized")
                             : status >= 500 ? QStringLiteral("internal_error")
                                             : QStringLiteral("bad_request");
        return QJsonObject{{QStringLiteral("error"), code}, {QStringLiteral("message"), message}};
    });
    server.setStateExtra([context] {
        QJsonArray sprites;
        for (const SpritePtr &record : std::as_const(context->sprites)) {
            QJsonObject s = context->spriteJson(*record);
            s.insert(QStringLiteral("state"), record->status);
            s.insert(QStringLiteral("kitId"), record->kitId);
            s.insert(QStringLiteral("sessions"), static_cast<int>(context->sessionsOf(record->name).size()));
            s.insert(QStringLiteral("checkpoints"), static_cast<int>(record->checkpoints.size()));
            QJsonArray ports;
            for (auto it = record->ports.cbegin(); it != record->ports.cend(); ++it)
                ports.append(it.key());
            s.insert(QStringLiteral("ports"), ports);
            sprites.append(s);
        }
        return QJsonObject{{QStringLiteral("sprites"), sprites}};
    });
}

} // namespace contract::sprites
