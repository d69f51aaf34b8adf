#pragma once

#include "common/Callback.h"
#include "net/HttpClient.h"
#include "providers/docker/DockerParsers.h"

#include <QObject>

namespace sandbar::docker {

enum class Flavour { Docker, Podman };

struct EngineInfo {
    ApiVersion api;
    bool podman = false;
    QString serverName; // "Docker Engine", "Podman Engine"
    QString version;
    QString os;
};

// One engine endpoint: negotiates the API version once (GET /_ping, then /version to tell
// Docker from Podman) and prefixes every request with /vX.Y. Calls made while negotiating
// wait for it; a failed negotiation is retried by the next call.
class DockerApi : public QObject
{
    Q_OBJECT
public:
    explicit DockerApi(net::Endpoint endpoint, QObject *parent = nullptr);

    const net::Endpoint &endpoint() const { return m_client.endpoint(); }
    bool isReady() const { return m_ready; }
    const EngineInfo &engine() const { return m_engine; }

    void ensureReady(Callback<EngineInfo> done);
    // Every request and stream asks it when the engine's socket does not answer (DockerSsh.h).
    void setConnectRecovery(std::shared_ptr<net::ConnectRecovery> recovery)
    {
        m_client.setConnectRecovery(std::move(recovery));
    }

    // A request for path (which starts with '/' and carries its query), version-prefixed.
    net::HttpRequest request(const QByteArray &method, const QByteArray &path, const QByteArray &jsonBody = {}) const;
    // Negotiates, then sends a buffered request; responseTimeout 0 keeps the request's default.
    void call(const QByteArray &method, const QByteArray &path, const QByteArray &jsonBody,
              Callback<net::HttpResponse> done, std::chrono::milliseconds responseTimeout = {});
    // For calls that wait on the runtime (create, start, stop, remove): on a loaded host runc
    // and the storage driver can take far longer than a listing, and giving up early would
    // report a failure for a container the engine then goes on to make.
    static constexpr std::chrono::milliseconds kLifecycleTimeout{120000};
    void send(net::HttpRequest request, Callback<net::HttpResponse> done) const
    {
        m_client.request(std::move(request), std::move(done));
    }
    net::HttpExchange *exchange(net::HttpRequest request, QObject *parent) const
    {
        return m_client.exchange(std::move(request), parent);
    }

    // Creates an exec instance; 404 and 409 become "no longer exists" / "not running".
    void createExec(const QString &containerId, const QByteArray &body, Callback<QString> done);
    // GET /exec/{id}/json until ExitCode is known (retries briefly while Running).
    void execExitCode(const QString &execId, Callback<int> done, int attempt = 0);

    static QByteArray enc(const QString &s); // percent-encoded for a path segment or query
    static Error sessionGone(const QString &id);

private:
    void negotiate();
    void finishNegotiation(Result<EngineInfo> result);

    net::HttpClient m_client;
    bool m_ready = false;
    bool m_negotiating = false;
    EngineInfo m_engine;
    QList<Callback<EngineInfo>> m_waiting;
};

} // namespace sandbar::docker
