#include "providers/docker/DockerApi.h"

#include "providers/docker/JsonFields.h"

#include <QTimer>
#include <QUrl>
#include <nlohmann/json.hpp>

namespace sandbar::docker {

DockerApi::DockerApi(net::Endpoint endpoint, QObject *parent)
    : QObject(parent)
    , m_client(std::move(endpoint))
{
}

QByteArray DockerApi::enc(const QString &s)
{
    return QUrl::toPercentEncoding(s);
}

Error DockerApi::sessionGone(const QString &id)
{
    return makeError(ErrorCode::NotFound, tr("session %1 no longer exists").arg(id.left(12)));
}

void DockerApi::ensureReady(Callback<EngineInfo> done)
{
    if (m_ready) {
        done(m_engine);
        return;
    }
    m_waiting << std::move(done);
    if (!m_negotiating)
        negotiate();
}

void DockerApi::negotiate()
{
    m_negotiating = true;
    net::HttpRequest ping;
    ping.target = "/_ping";
    ping.connectTimeout = std::chrono::milliseconds(3000);
    ping.responseTimeout = std::chrono::milliseconds(10000);
    m_client.request(ping, Callback<net::HttpResponse>(this, [this](Result<net::HttpResponse> r) {
                         if (!r)
                             return finishNegotiation(r.error());
                         if (!r->isSuccess() && r->header("Api-Version").isEmpty())
                             return finishNegotiation(errorFromStatus(
                                 r->status, r->body, tr("The engine at %1 refused /_ping").arg(endpoint().display())));
                         auto version = negotiateApiVersion(r->header("Api-Version"));
                         if (!version)
                             return finishNegotiation(version.error());
                         EngineInfo info;
                         info.api = *version;
                         net::HttpRequest req;
                         req.target = "/v" + info.api.toString().toLatin1() + "/version";
                         m_client.request(
                             req, Callback<net::HttpResponse>(this, [this, info](Result<net::HttpResponse> v) mutable {
                                 if (!v)
                                     return finishNegotiation(v.error());
                                 const auto j = nlohmann::json::parse(
                                     v->body.constData(), v->body.constData() + v->body.size(), nullptr, false);
                                 info.serverName = QStringLiteral("Docker Engine");
                                 if (j.is_object()) {
                                     info.version = QString::fromStdString(jsonText(j, "Version"));
                                     info.os = QString::fromStdString(jsonText(j, "Os"));
                                     const auto comps = j.find("Components");
                                     if (comps != j.end() && comps->is_array()) {
                                         for (const auto &c : *comps) {
                                             if (jsonText(c, "Name") == "Podman Engine") {
                                                 info.podman = true;
                                                 info.serverName = QStringLiteral("Podman Engine");
                                                 info.version = QString::fromStdString(jsonText(c, "Version"));
                                             }
                                         }
                                     }
                                 }
                                 finishNegotiation(info);
                             }));
                     }));
}

void DockerApi::finishNegotiation(Result<EngineInfo> result)
{
    m_negotiating = false;
    if (result) {
        m_engine = *result;
        m_ready = true;
    }
    const auto waiting = std::exchange(m_waiting, {});
    for (const auto &cb : waiting)
        cb(result);
}

net::HttpRequest DockerApi::request(const QByteArray &method, const QByteArray &path, const QByteArray &jsonBody) const
{
    net::HttpRequest req;
    req.method = method;
    req.target = "/v" + m_engine.api.toString().toLatin1() + path;
    if (!jsonBody.isEmpty()) {
        req.body = jsonBody;
        req.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    }
    return req;
}

void DockerApi::call(const QByteArray &method, const QByteArray &path, const QByteArray &jsonBody,
                     Callback<net::HttpResponse> done, std::chrono::milliseconds responseTimeout)
{
    ensureReady(Callback<EngineInfo>(done.context(),
                                     [this, method, path, jsonBody, done, responseTimeout](Result<EngineInfo> r) {
                                         if (!r)
                                             return done(r.error());
                                         net::HttpRequest req = request(method, path, jsonBody);
                                         if (responseTimeout.count() > 0)
                                             req.responseTimeout = responseTimeout;
                                         m_client.request(std::move(req), done);
                                     }));
}

void DockerApi::createExec(const QString &containerId, const QByteArray &body, Callback<QString> done)
{
    call("POST", "/containers/" + enc(containerId) + "/exec", body,
         Callback<net::HttpResponse>(done.context(), [containerId, done](Result<net::HttpResponse> r) {
             if (!r)
                 return done(r.error());
             if (r->status == 404)
                 return done(sessionGone(containerId));
             if (r->status == 409)
                 return done(
                     makeError(ErrorCode::Conflict,
                               tr("session %1 is not running (%2)").arg(containerId.left(12), engineMessage(r->body))));
             if (!r->isSuccess())
                 return done(errorFromStatus(r->status, r->body, tr("Starting a command failed")));
             const auto j =
                 nlohmann::json::parse(r->body.constData(), r->body.constData() + r->body.size(), nullptr, false);
             const std::string id = jsonText(j, "Id");
             if (id.empty())
                 return done(makeError(ErrorCode::Internal, tr("The engine did not return an exec id.")));
             done(QString::fromStdString(id));
         }));
}

void DockerApi::execExitCode(const QString &execId, Callback<int> done, int attempt)
{
    call("GET", "/exec/" + enc(execId) + "/json", {},
         Callback<net::HttpResponse>(done.context(), [this, execId, done, attempt](Result<net::HttpResponse> r) {
             if (!r)
                 return done(r.error());
             if (!r->isSuccess())
                 return done(errorFromStatus(r->status, r->body, tr("Reading a command's exit code failed")));
             const auto j =
                 nlohmann::json::parse(r->body.constData(), r->body.constData() + r->body.size(), nullptr, false);
             const auto code = j.is_object() ? j.find("ExitCode") : j.end();
             const auto run = j.is_object() ? j.find("Running") : j.end();
             const bool running = run != j.end() && run->is_boolean() && run->get<bool>();
             if (code != j.end() && code->is_number_integer() && !running)
                 return done(code->get<int>());
             // The stream can end a moment before the engine records the exit.
             if (attempt < 20) {
                 QTimer::singleShot(25 * (attempt + 1), done.context() ? done.context() : this,
                                    [this, execId, done, attempt] { execExitCode(execId, done, attempt + 1); });
                 return;
             }
             done(makeError(ErrorCode::Timeout, tr("The engine did not report the command's exit code.")));
         }));
}

} // namespace sandbar::docker
