#include "cloud/CloudClient.h"

#include "cloud/CloudTr.h"
#include "cloud/ServiceUrl.h"
#include "net/HttpClient.h"

#include <QCoreApplication>
#include <QNetworkProxyFactory>
#include <QPointer>
#include <QRandomGenerator>
#include <QSslConfiguration>
#include <QTimer>
#include <optional>

namespace sandbar::cloud {

namespace {
// The system's proxies (environment, desktop settings), except for loopback: a contract
// server or tunnel on 127.0.0.1 must never be sent to a proxy.
class SystemProxyFactory : public QNetworkProxyFactory
{
public:
    QList<QNetworkProxy> queryProxy(const QNetworkProxyQuery &query) override
    {
        if (isLoopbackHost(query.peerHostName()))
            return {QNetworkProxy(QNetworkProxy::NoProxy)};
        return systemProxyForQuery(query);
    }
};

} // namespace

QByteArray ApiReply::header(const QByteArray &name) const
{
    for (const auto &h : headers)
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    return {};
}

Result<QJsonDocument> parseJsonReply(const ApiReply &reply, const QString &service)
{
    if (reply.body.trimmed().isEmpty())
        return QJsonDocument();
    QJsonParseError err{};
    QJsonDocument doc = QJsonDocument::fromJson(reply.body, &err);
    if (err.error != QJsonParseError::NoError)
        return makeError(ErrorCode::Unavailable, tr("%1 answered something that is not JSON (HTTP %2, %3 bytes): %4")
                                                     .arg(service)
                                                     .arg(reply.status)
                                                     .arg(reply.body.size())
                                                     .arg(err.errorString()));
    return doc;
}

struct CloudClient::Attempt {
    ApiCall call;
    Callback<ApiReply> done;
    QList<int> okStatuses;
    int number = 0;
};

CloudClient::Options CloudClient::bearerOptions(QString service, QUrl baseUrl, QList<QSslCertificate> extraCas,
                                                const QString &token, const Clock *clock)
{
    Options o;
    o.service = std::move(service);
    o.baseUrl = std::move(baseUrl);
    o.extraCaCertificates = std::move(extraCas);
    o.authHeaders.append({QByteArray("Authorization"), QByteArray("Bearer ") + token.toUtf8()});
    o.clock = clock;
    return o;
}

CloudClient::CloudClient(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_proxies(std::make_unique<SystemProxyFactory>())
{
}

CloudClient::~CloudClient() = default;

QUrl CloudClient::url(const QString &path, const QUrlQuery &query) const
{
    QUrl u = joinUrl(m_options.baseUrl, path);
    if (!query.isEmpty())
        u.setQuery(query);
    return u;
}

QNetworkRequest CloudClient::request(const QUrl &url, const HeaderList &headers, bool authenticate) const
{
    QNetworkRequest r(url);
    if (url.scheme() == QLatin1String("https")) {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        if (!m_options.extraCaCertificates.isEmpty())
            ssl.setCaCertificates(QSslConfiguration::systemCaCertificates() + m_options.extraCaCertificates);
        ssl.setPeerVerifyMode(QSslSocket::VerifyPeer);
        r.setSslConfiguration(ssl);
    }
    r.setHeader(QNetworkRequest::UserAgentHeader, QByteArray("Sandbar/" SANDBAR_VERSION));
    if (authenticate)
        for (const auto &h : m_options.authHeaders)
            r.setRawHeader(h.first, h.second);
    for (const auto &h : headers)
        r.setRawHeader(h.first, h.second);
    return r;
}

Error CloudClient::failure(Failure kind, const QString &where, const QString &detail) const
{
    switch (kind) {
    case Failure::Timeout:
        return makeError(ErrorCode::Timeout, tr("%1 did not answer in time (%2)").arg(m_options.service, where));
    case Failure::TooLarge:
        return makeError(ErrorCode::Unavailable,
                         tr("%1 sent a reply too large to be what was asked").arg(m_options.service));
    case Failure::Certificate:
        return makeError(ErrorCode::Unavailable,
                         tr("The certificate of %1 was refused: %2. A self-hosted service with its own certificate "
                            "authority needs the account's CA file.")
                             .arg(where, detail));
    case Failure::Unreachable:
        return makeError(ErrorCode::Unavailable, tr("Cannot reach %1 at %2: %3").arg(m_options.service, where, detail));
    case Failure::Lost: break;
    }
    return makeError(ErrorCode::Unavailable,
                     tr("The connection to %1 (%2) was lost: %3").arg(m_options.service, where, detail));
}

void CloudClient::call(ApiCall call, Callback<ApiReply> done, QList<int> okStatuses)
{
    auto attempt = std::make_shared<Attempt>();
    attempt->call = std::move(call);
    attempt->done = std::move(done);
    attempt->okStatuses = std::move(okStatuses);
    runAttempt(std::move(attempt));
}

void CloudClient::callJson(ApiCall call, Callback<QJsonDocument> done)
{
    const QString service = m_options.service;
    this->call(std::move(call), Callback<ApiReply>(this, [done, service](Result<ApiReply> r) {
                   if (!r.ok())
                       return done(r.error());
                   done(parseJsonReply(r.value(), service));
               }));
}

namespace {
// The proxy a call to url goes through, as a socket takes it: the system's choice (never one
// for loopback), with an HTTP proxy used as a CONNECT tunnel for http and https alike.
std::optional<QNetworkProxy> socketProxy(QNetworkProxyFactory &factory, const QUrl &url)
{
    const QList<QNetworkProxy> proxies = factory.queryProxy(QNetworkProxyQuery(url));
    for (QNetworkProxy p : proxies) {
        switch (p.type()) {
        case QNetworkProxy::NoProxy:
        case QNetworkProxy::DefaultProxy: return QNetworkProxy(QNetworkProxy::NoProxy);
        case QNetworkProxy::HttpCachingProxy: p.setType(QNetworkProxy::HttpProxy); return p;
        case QNetworkProxy::HttpProxy:
        case QNetworkProxy::Socks5Proxy: return p;
        default: break; // an FTP proxy carries no HTTPS
        }
    }
    return QNetworkProxy(QNetworkProxy::NoProxy);
}
} // namespace

net::Endpoint CloudClient::endpointFor(const QUrl &url) const
{
    const bool https = url.scheme() == QLatin1String("https");
    net::Endpoint ep;
    ep.kind = net::Endpoint::Kind::Tcp;
    ep.host = url.host();
    ep.port = quint16(url.port(https ? 443 : 80));
    ep.tls = https;
    ep.extraCaCertificates = m_options.extraCaCertificates;
    ep.proxy = socketProxy(*m_proxies, url);
    return ep;
}

void CloudClient::fillRequest(net::HttpRequest &request, const HttpTarget &target) const
{
    request.target = target.url.toEncoded(QUrl::RemoveScheme | QUrl::RemoveAuthority | QUrl::RemoveFragment);
    if (request.target.isEmpty() || request.target.startsWith('?'))
        request.target.prepend('/');
    request.headers.append({QByteArray("User-Agent"), QByteArray("Sandbar/" SANDBAR_VERSION)});
    if (target.authenticate)
        request.headers += m_options.authHeaders;
    request.headers += target.headers;
}

net::HttpExchange *CloudClient::exchange(const HttpTarget &target, net::HttpRequest request, QObject *parent) const
{
    fillRequest(request, target);
    return new net::HttpExchange(endpointFor(target.url), std::move(request), parent);
}

Error CloudClient::failureOf(const net::HttpExchange *ex, const VoidResult &result, const QUrl &url, bool timedOut,
                             bool overflow) const
{
    if (!timedOut && !overflow && result.code() == ErrorCode::Cancelled)
        return result.error();
    const QString where = url.host() + (url.port() > 0 ? QStringLiteral(":%1").arg(url.port()) : QString());
    const QString detail = !ex->failureDetail().isEmpty() ? ex->failureDetail()
                           : result.ok()                  ? QString()
                                                          : result.message();
    Failure kind = Failure::Lost;
    if (timedOut || result.code() == ErrorCode::Timeout)
        kind = Failure::Timeout;
    else if (overflow)
        kind = Failure::TooLarge;
    else if (!result.ok() && ex->failedStage() == net::HttpExchange::Stage::Handshaking)
        kind = Failure::Certificate;
    else if (!result.ok() && ex->failedStage() == net::HttpExchange::Stage::Connecting)
        kind = Failure::Unreachable;
    return failure(kind, where, detail);
}

Error CloudClient::exchangeError(const net::HttpExchange *ex, const VoidResult &result, const QUrl &url) const
{
    return failureOf(ex, result, url, false, false);
}

void CloudClient::runAttempt(std::shared_ptr<Attempt> attempt)
{
    // A caller that went away (a closed dialog) needs no more attempts.
    if (attempt->done.expired())
        return;
    ++attempt->number;
    const ApiCall &c = attempt->call;
    QUrl target = c.url.isValid() ? c.url : url(c.path);
    if (!c.query.isEmpty())
        target.setQuery(c.query);

    // Our own HTTP/1.1 exchange rather than QNAM: it reads the socket only as this thread
    // takes the reply in, so a server that never stops sending is held back by TCP and the
    // cap below, whatever this thread is busy with. (QNAM's network thread decodes a body
    // ahead of its reader and, in Qt 6.4, ignores the reply's read buffer size.) One
    // connection per attempt: a retry or a non-idempotent call is never resent behind the
    // caller's back, as QNAM's reconnect does.
    net::HttpRequest req;
    req.method = c.method;
    fillRequest(req, HttpTarget{target, c.headers, c.authenticate});
    if (!c.body.isEmpty() || c.method == "POST" || c.method == "PUT" || c.method == "PATCH")
        req.headers.append({QByteArray("Content-Type"), c.contentType});
    req.headers.append({QByteArray("Accept"), QByteArray("application/json")});
    req.body = c.body;
    req.connectTimeout = std::chrono::milliseconds(c.timeoutMs);
    req.responseTimeout = std::chrono::milliseconds(c.timeoutMs);

    auto *ex = new net::HttpExchange(endpointFor(target), std::move(req), this);
    auto timedOut = std::make_shared<bool>(false);
    auto *timer = new QTimer(ex);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, ex, [ex, timedOut] {
        *timedOut = true;
        ex->abort();
    });
    timer->start(c.timeoutMs);
    const auto reply = net::collectBody(ex, c.maxReplyBytes);
    connect(ex, &net::HttpExchange::finished, this,
            [this, ex, timedOut, reply, attempt, target](const VoidResult &result) {
                ex->deleteLater();
                QByteArray body = std::move(reply->body);
                const net::HttpResponse &head = ex->response();
                const bool tls = !result.ok() && ex->failedStage() == net::HttpExchange::Stage::Handshaking;
                AttemptOutcome outcome;
                if (result.ok() && head.status > 0) {
                    outcome.status = head.status;
                    outcome.retryAfter = head.header("Retry-After");
                } else if (!tls && !reply->overflow) {
                    outcome.connectFailed = !*timedOut && ex->failedStage() == net::HttpExchange::Stage::Connecting;
                    outcome.transportLost = !outcome.connectFailed;
                }
                const bool httpError = outcome.status >= 400 && !attempt->okStatuses.contains(outcome.status);
                if (outcome.status > 0 && !httpError) {
                    ApiReply r;
                    r.status = outcome.status;
                    r.body = std::move(body);
                    r.headers = head.headers;
                    return attempt->done(std::move(r));
                }
                const RetryDecision decision =
                    decideRetry(m_options.retry, attempt->number, outcome, attempt->call.idempotent,
                                m_options.clock->currentDateTimeUtc(), QRandomGenerator::global()->generateDouble());
                if (decision.retry) {
                    QTimer::singleShot(decision.delayMs, this, [this, attempt] { runAttempt(attempt); });
                    return;
                }
                if (httpError)
                    return attempt->done(errorFromHttp(outcome.status, body, m_options.service));
                attempt->done(failureOf(ex, result, target, *timedOut, reply->overflow));
            });
    ex->start();
}

} // namespace sandbar::cloud
