// envd's plain HTTP endpoints (port 49983 inside a sandbox): health, metrics, files.

#include "E2bContext.h"
#include "kit/Connect.h"
#include "kit/Multipart.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QBuffer>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QSaveFile>
#include <memory>

namespace contract::e2b {

namespace {

bool knownUser(const QString &user)
{
    return user.isEmpty() || user == QLatin1String("user") || user == QLatin1String("root");
}

// "Authorization: Basic base64(user:)" selects the Unix user.
QString basicUser(const Request &request)
{
    const QByteArray auth = request.header("authorization");
    if (!auth.startsWith("Basic "))
        return {};
    const QByteArray decoded = QByteArray::fromBase64(auth.mid(6).trimmed());
    return QString::fromUtf8(decoded.left(decoded.indexOf(':')));
}

QJsonObject entryInfo(const Sandbox *s, const QString &hostPath)
{
    const QFileInfo info(hostPath);
    return {{QStringLiteral("path"), s->apiPath(hostPath)},
            {QStringLiteral("name"), info.fileName()},
            {QStringLiteral("type"), info.isDir() ? QStringLiteral("dir") : QStringLiteral("file")}};
}

void envdError(Responder *responder, int status, const QString &message)
{
    sendError(responder, status, message);
}

void download(Context &c, const Request &r, Responder *res)
{
    Sandbox *s = envdSandbox(c, r, res, false);
    if (!s)
        return;
    const QString path = r.queryValue(QStringLiteral("path"));
    if (path.isEmpty()) {
        envdError(res, 400, QStringLiteral("path is required"));
        return;
    }
    auto host = s->mapPath(path);
    if (!host) {
        envdError(res, 403, host.message());
        return;
    }
    const QFileInfo info(*host);
    if (!info.exists()) {
        envdError(res, 404, QStringLiteral("path '%1' does not exist").arg(path));
        return;
    }
    if (info.isDir()) {
        envdError(res, 400, QStringLiteral("path '%1' is a directory").arg(path));
        return;
    }
    res->sendFile(*host, "application/octet-stream",
                  {{"Content-Disposition", "attachment; filename=\"" + info.fileName().toUtf8() + '"'}});
}

// Writes `in` to the sandbox path atomically (QSaveFile), creating parent folders.
bool writeInto(Sandbox *s, const QString &apiPath, QIODevice &in, QJsonArray *entries, QString *error)
{
    auto host = s->mapPath(apiPath);
    if (!host) {
        *error = host.message();
        return false;
    }
    QDir().mkpath(QFileInfo(*host).path());
    QSaveFile out(*host);
    if (!out.open(QIODevice::WriteOnly)) {
        *error = out.errorString();
        return false;
    }
    while (!in.atEnd()) {
        const QByteArray chunk = in.read(256 * 1024);
        if (chunk.isEmpty() || out.write(chunk) != chunk.size()) {
            *error = QStringLiteral("write failed");
            return false;
        }
    }
    if (!out.commit()) {
        *error = out.errorString();
        return false;
    }
    entries->append(entryInfo(s, *host));
    return true;
}

std::unique_ptr<QIODevice> bodyDevice(const Request &r)
{
    if (!r.bodyFile.isEmpty())
        return std::make_unique<QFile>(r.bodyFile);
    auto buffer = std::make_unique<QBuffer>();
    buffer->setData(r.body);
    return buffer;
}

void upload(Context &c, const Request &r, Responder *res)
{
    Sandbox *s = envdSandbox(c, r, res, false);
    if (!s)
        return;
    const QString path = r.queryValue(QStringLiteral("path"));
    const QByteArray type = r.mediaType();
    std::unique_ptr<QIODevice> in = bodyDevice(r);
    if (!in->open(QIODevice::ReadOnly)) {
        envdError(res, 500, QStringLiteral("cannot read the upload"));
        return;
    }
    QJsonArray entries;
    QString error;
    if (!r.header("content-encoding").isEmpty() && r.header("content-encoding") != "identity") {
        envdError(res, 400, QStringLiteral("unsupported Content-Encoding"));
        return;
    }
    if (type == "application/octet-stream") {
        if (path.isEmpty()) {
            envdError(res, 400, QStringLiteral("path is required for octet-stream uploads"));
            return;
        }
        if (!writeInto(s, path, *in, &entries, &error)) {
            envdError(res, 400, error);
            return;
        }
        res->sendJson(200, entries);
        return;
    }
    if (type != "multipart/form-data") {
        envdError(res, 400, QStringLiteral("expected multipart/form-data or application/octet-stream"));
        return;
    }
    // Each "file" part goes straight to its QSaveFile: memory stays bounded.
    std::unique_ptr<QSaveFile> current;
    QString currentHost;
    const auto sink = [&](const MultipartPart &part) -> QIODevice * {
        if (part.name != QLatin1String("file") || !error.isEmpty())
            return nullptr;
        const QString target = path.isEmpty() ? part.fileName : path;
        auto host = s->mapPath(target);
        if (!host) {
            error = host.message();
            return nullptr;
        }
        QDir().mkpath(QFileInfo(*host).path());
        current = std::make_unique<QSaveFile>(*host);
        currentHost = *host;
        if (!current->open(QIODevice::WriteOnly)) {
            error = current->errorString();
            current.reset();
        }
        return current.get();
    };
    const auto done = [&](const MultipartPart &, qint64) {
        if (!current)
            return error.isEmpty();
        const bool ok = current->commit();
        current.reset();
        if (ok)
            entries.append(entryInfo(s, currentHost));
        return ok;
    };
    if (!MultipartReader::read(*in, r.contentTypeParam("boundary"), sink, done, &error) || !error.isEmpty()) {
        envdError(res, 400, error);
        return;
    }
    if (entries.isEmpty()) {
        envdError(res, 400, QStringLiteral("no file part in the upload"));
        return;
    }
    res->sendJson(200, entries);
}

} // namespace

Sandbox *envdSandbox(Context &c, const Request &request, Responder *responder, bool connectRpc)
{
    const QString id = envdSandboxId(request);
    Sandbox *s = c.host.find(id);
    if (!s || s->isPaused()) {
        // What the edge proxy answers when nothing listens behind it.
        responder->sendJson(502, QJsonObject{{QStringLiteral("sandboxId"), id},
                                             {QStringLiteral("message"), QStringLiteral("The sandbox was not found")},
                                             {QStringLiteral("code"), 502}});
        return nullptr;
    }
    auto refuse = [&](int status, const QString &message) {
        if (connectRpc)
            connectrpc::sendError(
                responder, status == 401 ? QStringLiteral("unauthenticated") : QStringLiteral("permission_denied"),
                message);
        else
            sendError(responder, status, message);
        return nullptr;
    };
    if (s->data.value(QStringLiteral("secure")).toBool() &&
        QString::fromUtf8(request.header("x-access-token")) !=
            s->data.value(QStringLiteral("envdAccessToken")).toString())
        return refuse(401, QStringLiteral("invalid access token"));
    const QString user = basicUser(request);
    const QString queryUser = request.queryValue(QStringLiteral("username"));
    if (!knownUser(user) || !knownUser(queryUser))
        return refuse(401, QStringLiteral("user '%1' not found").arg(user.isEmpty() ? queryUser : user));
    return s;
}

void installEnvd(Context &context)
{
    Context *c = &context;
    Server &server = context.server;
    const Predicate envd = [](const Request &r) { return isEnvdRequest(r); };
    server
        .route("GET", QStringLiteral("/health"),
               [c](const Request &r, Responder *res) {
                   if (envdSandbox(*c, r, res, false))
                       res->send(204, {}, {});
               })
        .onlyWhen(envd)
        .named(QStringLiteral("envd GET /health"));
    server
        .route("GET", QStringLiteral("/metrics"),
               [c](const Request &r, Responder *res) {
                   Sandbox *s = envdSandbox(*c, r, res, false);
                   if (!s)
                       return;
                   const SandboxMetrics m = s->metrics();
                   res->sendJson(200, QJsonObject{{QStringLiteral("ts"), QDateTime::currentSecsSinceEpoch()},
                                                  {QStringLiteral("cpu_count"), m.cpuCount},
                                                  {QStringLiteral("cpu_used_pct"), m.cpuPercent},
                                                  {QStringLiteral("mem_total"), m.memoryTotal},
                                                  {QStringLiteral("mem_used"), m.memoryBytes},
                                                  {QStringLiteral("mem_cache"), 0},
                                                  {QStringLiteral("mem_total_mib"), m.memoryTotal / (1024 * 1024)},
                                                  {QStringLiteral("mem_used_mib"), m.memoryBytes / (1024 * 1024)},
                                                  {QStringLiteral("disk_used"), m.diskBytes},
                                                  {QStringLiteral("disk_total"), m.diskTotal}});
               })
        .onlyWhen(envd)
        .named(QStringLiteral("envd GET /metrics"));
    server
        .route("GET", QStringLiteral("/envs"),
               [c](const Request &r, Responder *res) {
                   Sandbox *s = envdSandbox(*c, r, res, false);
                   if (!s)
                       return;
                   QJsonObject env;
                   for (auto it = s->envVars.cbegin(); it != s->envVars.cend(); ++it)
                       env.insert(it.key(), it.value());
                   res->sendJson(200, env);
               })
        .onlyWhen(envd)
        .named(QStringLiteral("envd GET /envs"));
    server.route("GET", QStringLiteral("/files"), [c](const Request &r, Responder *res) { download(*c, r, res); })
        .onlyWhen(envd)
        .streams()
        .named(QStringLiteral("envd GET /files"));
    server.route("POST", QStringLiteral("/files"), [c](const Request &r, Responder *res) { upload(*c, r, res); })
        .onlyWhen(envd)
        .named(QStringLiteral("envd POST /files"));
}

} // namespace contract::e2b
