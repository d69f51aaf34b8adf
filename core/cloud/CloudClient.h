#pragma once

#include "cloud/Retry.h"
#include "common/Callback.h"
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
class QHttpMultiPart;

namespace sandbar::cloud {

using HeaderList = QList<std::pair<QByteArray, QByteArray>>;

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
// headers, per-attempt deadlines, and retries with back-off that honour Retry-After. API
// calls go over net::HttpExchange (see runAttempt); streams and transfers over a
// QNetworkAccessManager. Lives on one thread (the GUI's or sandbarctl's), like its provider.
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
    };

    explicit CloudClient(Options options, QObject *parent = nullptr);
    ~CloudClient() override;

    const Options &options() const { return m_options; }
    QNetworkAccessManager *network() const { return m_nam; }

    // The whole reply, retried as the policy allows; an HTTP status >= 400 is an Error
    // (errorFromHttp) unless it is listed in okStatuses.
    void call(ApiCall call, Callback<ApiReply> done, QList<int> okStatuses = {});
    // call() and parse the body as JSON (an empty 2xx body is an empty document).
    void callJson(ApiCall call, Callback<QJsonDocument> done);

    // For streams and transfers that manage their own reply: a request to url with TLS
    // configured and, when authenticate, the account's headers.
    QNetworkRequest request(const QUrl &url, const HeaderList &headers = {}, bool authenticate = true) const;
    // Sends it (body may be null or a device that stays alive until finished); the reply is
    // owned by the caller and records TLS errors so transportError can name them.
    QNetworkReply *send(const QByteArray &method, const QNetworkRequest &request, QIODevice *body = nullptr) const;
    QNetworkReply *send(const QByteArray &method, const QNetworkRequest &request, const QByteArray &body) const;
    QNetworkReply *send(const QByteArray &method, const QNetworkRequest &request, QHttpMultiPart *body) const;
    // What went wrong with a reply that failed without an HTTP status, in people's words.
    Error transportError(QNetworkReply *reply) const;
    // The URL for a path under the base.
    QUrl url(const QString &path, const QUrlQuery &query = {}) const;

private:
    struct Attempt;
    void runAttempt(std::shared_ptr<Attempt> attempt);
    // How a call failed without an HTTP status, in people's words; where is host[:port].
    enum class Failure { Timeout, TooLarge, Certificate, Unreachable, Lost };
    Error failure(Failure kind, const QString &where, const QString &detail) const;

    Options m_options;
    QNetworkAccessManager *m_nam = nullptr;          // streams and transfers
    std::unique_ptr<QNetworkProxyFactory> m_proxies; // call()'s proxies
};

} // namespace sandbar::cloud
