#pragma once

#include "cloud/Retry.h"
#include "common/Callback.h"
#include "common/Clock.h"
#include "common/Result.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QList>
#include <QNetworkProxyFactory>
#include <QNetworkReply>
#include <QObject>
#include <QSslCertificate>
#include <QUrl>
#include <QUrlQuery>
#include <memory>

class QNetworkAccessManager;

namespace sandbar::net {
class HttpExchange;
struct HttpRequest;
struct Endpoint;
} // namespace sandbar::net

namespace sandbar::cloud {

using HeaderList = QList<std::pair<QByteArray, QByteArray>>;

// Where a stream or a transfer goes: a URL (an in-sandbox host, often) and its headers, with
// the account's authentication headers when authenticate (never to a URL of another host).
struct HttpTarget {
    QUrl url;
    HeaderList headers;
    bool authenticate = true;
};

// One call to a cloud service's JSON API.
struct ApiCall {
    QByteArray method = "GET";
    QString path; // under the account's base URL ("/sandboxes/abc")
    QUrl url;     // instead of base + path: an in-sandbox host (E2B's envd, Daytona's toolbox)
    QUrlQuery query;
    QByteArray body;
    QByteArray contentType = "application/json";
    HeaderList headers;       // on top of the account's authentication headers
    bool idempotent = true;   // safe to send again after a lost reply (see decideRetry)
    bool authenticate = true; // send the account's headers (never to a URL of another host)
    int timeoutMs = 30000;    // per attempt, from sending to the whole reply
    qint64 maxReplyBytes = 32 * 1024 * 1024;
};

struct ApiReply {
    int status = 0;
    QByteArray body;
    QList<QNetworkReply::RawHeaderPair> headers;

    QByteArray header(const QByteArray &name) const; // case-insensitive; empty when absent
};

// A reply body as JSON, or an InvalidArgument-free Unavailable error that says the service
// answered something that is not JSON (a proxy's HTML page, a truncated body).
Result<QJsonDocument> parseJsonReply(const ApiReply &reply, const QString &service);

// A cloud account's connection: TLS verified against the system's CAs plus the account's own
// CA file, proxies from the system (never for loopback), the account's authentication
// headers, per-attempt deadlines, and retries with back-off that honour Retry-After. Calls,
// streams and transfers all go over net::HttpExchange, which reads the socket only as this
// thread takes the reply in (see runAttempt); only WebSockets take a QNetworkRequest. Lives
// on one thread (the GUI's or sandbarctl's), like its provider.
class CloudClient : public QObject
{
    Q_OBJECT
public:
    struct Options {
        QString service; // "E2B", for messages
        QUrl baseUrl;    // checked with parseServiceUrl
        QList<QSslCertificate> extraCaCertificates;
        HeaderList authHeaders; // secrets: never logged, never put in an error
        RetryPolicy retry;
        // What a Retry-After given as an HTTP date counts from. Not owned; never null.
        const Clock *clock = &systemClock();
    };

    explicit CloudClient(Options options, QObject *parent = nullptr);
    // Options for a service that takes the key as a bearer token (most of them).
    static Options bearerOptions(QString service, QUrl baseUrl, QList<QSslCertificate> extraCas, const QString &token,
                                 const Clock *clock);
    ~CloudClient() override;

    const Options &options() const { return m_options; }

    // The whole reply, retried as the policy allows; an HTTP status >= 400 is an Error
    // (errorFromHttp) unless it is listed in okStatuses.
    void call(ApiCall call, Callback<ApiReply> done, QList<int> okStatuses = {});
    // call() and parse the body as JSON (an empty 2xx body is an empty document).
    void callJson(ApiCall call, Callback<QJsonDocument> done);

    // For a WebSocket: a request to url with TLS configured and, when authenticate, the
    // account's headers.
    QNetworkRequest request(const QUrl &url, const HeaderList &headers = {}, bool authenticate = true) const;

    // For streams and transfers that take their reply in as it comes: an unstarted exchange
    // owned by parent, to target, with request's method, body and timeouts (its target and
    // headers are filled in from target), TLS and proxies as call()'s.
    net::HttpExchange *exchange(const HttpTarget &target, net::HttpRequest request, QObject *parent) const;
    // Why such an exchange failed without an HTTP status, in people's words (as call()'s).
    Error exchangeError(const net::HttpExchange *exchange, const VoidResult &result, const QUrl &url) const;
    // The URL for a path under the base.
    QUrl url(const QString &path, const QUrlQuery &query = {}) const;

private:
    struct Attempt;
    void runAttempt(std::shared_ptr<Attempt> attempt);
    net::Endpoint endpointFor(const QUrl &url) const;
    void fillRequest(net::HttpRequest &request, const HttpTarget &target) const;
    // How a call failed without an HTTP status, in people's words; where is host[:port].
    enum class Failure { Timeout, TooLarge, Certificate, Unreachable, Lost };
    Error failure(Failure kind, const QString &where, const QString &detail) const;
    Error failureOf(const net::HttpExchange *exchange, const VoidResult &result, const QUrl &url, bool timedOut,
                    bool overflow) const;

    Options m_options;
    std::unique_ptr<QNetworkProxyFactory> m_proxies;
};

} // namespace sandbar::cloud
