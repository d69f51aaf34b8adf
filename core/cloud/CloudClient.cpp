#include "cloud/CloudClient.h"

#include "cloud/ServiceUrl.h"

#include <QCoreApplication>
#include <QHttpMultiPart>
#include <QNetworkAccessManager>
#include <QNetworkProxyFactory>
#include <QPointer>
#include <QRandomGenerator>
#include <QSslConfiguration>
#include <QTimer>

namespace sandbar::cloud {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("sandbar::cloud", text);
}

constexpr char kSslErrorsProperty[] = "sandbar.sslErrors";
constexpr char kTimedOutProperty[] = "sandbar.timedOut";
constexpr char kTooLargeProperty[] = "sandbar.tooLarge";
// What QNAM's network thread may read ahead of this thread. Unset, it decodes a body as fast
// as the server sends it, so a never-ending reply grows memory while this thread is busy,
// long before the size cap below is checked.
constexpr qint64 kReadAheadBytes = 256 * 1024;

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

// A request body read once, front to back (see runAttempt: non-idempotent calls).
class OneShotBody : public QIODevice
{
public:
    explicit OneShotBody(QByteArray data)
        : m_data(std::move(data))
    {
        open(QIODevice::ReadOnly);
    }
    bool isSequential() const override { return true; }
    qint64 bytesAvailable() const override { return m_data.size() - m_pos + QIODevice::bytesAvailable(); }
    bool atEnd() const override { return m_pos >= m_data.size() && QIODevice::bytesAvailable() == 0; }
    bool reset() override { return false; }

protected:
    qint64 readData(char *out, qint64 max) override
    {
        const qint64 n = qMin(max, qint64(m_data.size()) - m_pos);
        if (n <= 0)
            return m_pos >= m_data.size() ? -1 : 0;
        memcpy(out, m_data.constData() + m_pos, size_t(n));
        m_pos += n;
        return n;
    }
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    QByteArray m_data;
    qint64 m_pos = 0;
};

bool connectNeverHappened(QNetworkReply::NetworkError e)
{
    switch (e) {
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::HostNotFoundError:
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyNotFoundError: return true;
    default: return false;
    }
}
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
    QByteArray received;
};

CloudClient::CloudClient(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_nam(new QNetworkAccessManager(this))
{
    m_nam->setProxyFactory(new SystemProxyFactory);
    // Redirects stay on https (Qt refuses https -> http by default).
    m_nam->setRedirectPolicy(QNetworkRequest::NoLessSafeRedirectPolicy);
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

namespace {
// Keeps the TLS errors of a reply so transportError can say why a certificate was refused.
QNetworkReply *recordSslErrors(QNetworkReply *reply)
{
    QObject::connect(reply, &QNetworkReply::sslErrors, reply, [reply](const QList<QSslError> &errors) {
        QStringList texts;
        for (const auto &e : errors)
            texts << e.errorString();
        reply->setProperty(kSslErrorsProperty, texts.join(QLatin1String("; ")));
    });
    return reply;
}
} // namespace

QNetworkReply *CloudClient::send(const QByteArray &method, const QNetworkRequest &request, QIODevice *body) const
{
    return recordSslErrors(m_nam->sendCustomRequest(request, method, body));
}

QNetworkReply *CloudClient::send(const QByteArray &method, const QNetworkRequest &request, const QByteArray &body) const
{
    return recordSslErrors(m_nam->sendCustomRequest(request, method, body));
}

QNetworkReply *CloudClient::send(const QByteArray &method, const QNetworkRequest &request, QHttpMultiPart *body) const
{
    return recordSslErrors(m_nam->sendCustomRequest(request, method, body));
}

Error CloudClient::transportError(QNetworkReply *reply) const
{
    const QString where =
        reply->url().host() + (reply->url().port() > 0 ? QStringLiteral(":%1").arg(reply->url().port()) : QString());
    if (reply->property(kTimedOutProperty).toBool())
        return makeError(ErrorCode::Timeout, tr("%1 did not answer in time (%2)").arg(m_options.service, where));
    if (reply->property(kTooLargeProperty).toBool())
        return makeError(ErrorCode::Unavailable,
                         tr("%1 sent a reply too large to be what was asked").arg(m_options.service));
    const QString ssl = reply->property(kSslErrorsProperty).toString();
    if (!ssl.isEmpty() || reply->error() == QNetworkReply::SslHandshakeFailedError)
        return makeError(ErrorCode::Unavailable,
                         tr("The certificate of %1 was refused: %2. A self-hosted service with its own certificate "
                            "authority needs the account's CA file.")
                             .arg(where, ssl.isEmpty() ? reply->errorString() : ssl));
    if (reply->error() == QNetworkReply::OperationCanceledError)
        return makeError(ErrorCode::Cancelled, tr("Cancelled"));
    if (connectNeverHappened(reply->error()))
        return makeError(ErrorCode::Unavailable,
                         tr("Cannot reach %1 at %2: %3").arg(m_options.service, where, reply->errorString()));
    return makeError(ErrorCode::Unavailable,
                     tr("The connection to %1 (%2) was lost: %3").arg(m_options.service, where, reply->errorString()));
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
// Reads what the reply holds in slices, checking the cap before keeping each one, so that
// a reply over the cap costs at most the cap plus one slice.
template <typename Attempt>
void drainReply(QNetworkReply *reply, Attempt &attempt)
{
    while (reply->bytesAvailable() > 0) {
        const QByteArray slice = reply->read(kReadAheadBytes);
        if (slice.isEmpty())
            return;
        if (attempt.received.size() + slice.size() > attempt.call.maxReplyBytes) {
            reply->setProperty(kTooLargeProperty, true);
            reply->abort();
            return;
        }
        attempt.received += slice;
    }
    // Qt 6.4.2's network thread loses the limit once the reply has been read from (a single
    // read let a busy thread's reply grow to 1 GiB). Setting it again after each read holds
    // it back in most runs, not all: tst_hostilecloud's endlessChunkedWhileBusy measures it.
    reply->setReadBufferSize(kReadAheadBytes);
}
} // namespace

void CloudClient::runAttempt(std::shared_ptr<Attempt> attempt)
{
    // A caller that went away (a closed dialog) needs no more attempts.
    if (attempt->done.expired())
        return;
    ++attempt->number;
    attempt->received.clear();
    const ApiCall &c = attempt->call;
    QUrl target = c.url.isValid() ? c.url : url(c.path);
    if (!c.query.isEmpty())
        target.setQuery(c.query);
    HeaderList headers = c.headers;
    if (!c.body.isEmpty() || c.method == "POST" || c.method == "PUT" || c.method == "PATCH")
        headers.append({QByteArray("Content-Type"), c.contentType});
    headers.append({QByteArray("Accept"), QByteArray("application/json")});
    QNetworkReply *reply = nullptr;
    if (!c.idempotent && !c.body.isEmpty()) {
        // QNAM silently sends a request again when the connection closes before any reply
        // (QHttpNetworkConnectionChannel's reconnectAttempts), whatever its method: a create
        // whose reply was lost would run twice. A body that cannot be rewound makes that
        // resend fail (ContentReSendError), so the caller sees the loss and decides.
        QNetworkRequest r = request(target, headers, c.authenticate);
        r.setAttribute(QNetworkRequest::DoNotBufferUploadDataAttribute, true);
        r.setHeader(QNetworkRequest::ContentLengthHeader, c.body.size());
        auto *body = new OneShotBody(c.body);
        reply = send(c.method, r, body);
        body->setParent(reply);
    } else {
        reply = send(c.method, request(target, headers, c.authenticate), c.body);
    }

    auto *timer = new QTimer(reply);
    timer->setSingleShot(true);
    QObject::connect(timer, &QTimer::timeout, reply, [reply] {
        reply->setProperty(kTimedOutProperty, true);
        reply->abort();
    });
    timer->start(c.timeoutMs);

    reply->setReadBufferSize(kReadAheadBytes);
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [reply, attempt] { drainReply(reply, *attempt); });
    QObject::connect(reply, &QNetworkReply::finished, this, [this, reply, attempt] {
        reply->deleteLater();
        if (reply->isOpen()) // an aborted reply (timeout, too large) is closed
            drainReply(reply, *attempt);
        const QVariant statusAttr = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        const bool aborted = reply->property(kTimedOutProperty).toBool() || reply->property(kTooLargeProperty).toBool();
        AttemptOutcome outcome;
        if (statusAttr.isValid() && !aborted && reply->error() != QNetworkReply::RemoteHostClosedError) {
            outcome.status = statusAttr.toInt();
            outcome.retryAfter = reply->rawHeader("Retry-After");
        } else if (reply->property(kSslErrorsProperty).toString().isEmpty() &&
                   reply->error() != QNetworkReply::SslHandshakeFailedError &&
                   !reply->property(kTooLargeProperty).toBool()) {
            outcome.connectFailed = connectNeverHappened(reply->error());
            outcome.transportLost = !outcome.connectFailed;
        }
        const bool httpError = outcome.status >= 400 && !attempt->okStatuses.contains(outcome.status);
        if (outcome.status > 0 && !httpError) {
            ApiReply r;
            r.status = outcome.status;
            r.body = std::move(attempt->received);
            r.headers = reply->rawHeaderPairs();
            return attempt->done(std::move(r));
        }
        const RetryDecision decision =
            decideRetry(m_options.retry, attempt->number, outcome, attempt->call.idempotent,
                        QDateTime::currentDateTimeUtc(), QRandomGenerator::global()->generateDouble());
        if (decision.retry) {
            QTimer::singleShot(decision.delayMs, this, [this, attempt] { runAttempt(attempt); });
            return;
        }
        if (httpError)
            return attempt->done(errorFromHttp(outcome.status, attempt->received, m_options.service));
        attempt->done(transportError(reply));
    });
}

} // namespace sandbar::cloud
