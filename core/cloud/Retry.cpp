#include "cloud/Retry.h"

#include "cloud/CloudTr.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <QTimeZone>
#include <algorithm>
#include <cmath>

namespace sandbar::cloud {

namespace {
QString serverWords(const QByteArray &body)
{
    QString text;
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (doc.isObject()) {
        const QJsonObject o = doc.object();
        for (const char *key : {"message", "detail", "error", "error_description"}) {
            const QJsonValue v = o.value(QLatin1String(key));
            if (v.isString() && !v.toString().isEmpty()) {
                text = v.toString();
                break;
            }
            if (v.isObject() && v.toObject().value(QLatin1String("message")).isString()) {
                text = v.toObject().value(QLatin1String("message")).toString();
                break;
            }
        }
    } else if (!body.trimmed().startsWith('<')) {
        text = QString::fromUtf8(body.left(300)).trimmed(); // plain text; an HTML page says nothing useful
    }
    text = text.simplified();
    if (text.size() > 300)
        text = text.left(299) + QChar(0x2026);
    return text;
}
} // namespace

qint64 RetryPolicy::backoffMs(int attempt, double jitter01) const
{
    const int exponent = std::clamp(attempt - 1, 0, 20);
    const double base = double(baseDelayMs) * std::pow(2.0, exponent);
    const double withJitter = base * (1.0 + 0.25 * std::clamp(jitter01, 0.0, 1.0));
    return std::min<qint64>(maxDelayMs, qint64(withJitter));
}

std::optional<qint64> parseRetryAfterMs(const QByteArray &value, const QDateTime &now)
{
    const QByteArray v = value.trimmed();
    if (v.isEmpty())
        return std::nullopt;
    bool ok = false;
    const qint64 seconds = v.toLongLong(&ok);
    if (ok)
        return seconds < 0 ? std::nullopt : std::optional<qint64>(std::min<qint64>(seconds, 86400) * 1000);
    // IMF-fixdate: "Wed, 21 Oct 2015 07:28:00 GMT"
    // The weekday adds nothing and a wrong one should not void the date.
    QString text = QString::fromLatin1(v);
    const qsizetype comma = text.indexOf(QLatin1Char(','));
    if (comma >= 0)
        text = text.mid(comma + 1).trimmed();
    text.replace(QLatin1String(" GMT"), QString());
    QDateTime when = QLocale::c().toDateTime(text, QStringLiteral("dd MMM yyyy HH:mm:ss"));
    if (!when.isValid())
        return std::nullopt;
    when.setTimeSpec(Qt::UTC);
    return std::max<qint64>(0, now.msecsTo(when));
}

RetryDecision decideRetry(const RetryPolicy &policy, int attempt, const AttemptOutcome &outcome, bool idempotent,
                          const QDateTime &now, double jitter01)
{
    if (attempt >= policy.maxAttempts)
        return {};
    const bool refusedBeforeWork = outcome.status == 429 || outcome.status == 503;
    bool retry = false;
    if (refusedBeforeWork || outcome.connectFailed)
        retry = true;
    else if (idempotent && (outcome.transportLost || (outcome.status >= 500 && outcome.status <= 599)))
        retry = true;
    if (!retry)
        return {};
    qint64 delay = policy.backoffMs(attempt, jitter01);
    if (refusedBeforeWork) {
        if (const auto after = parseRetryAfterMs(outcome.retryAfter, now)) {
            if (*after > policy.maxRetryAfterMs)
                return {};
            delay = std::max(delay, *after);
        }
    }
    return {true, delay};
}

Error errorFromHttp(int status, const QByteArray &body, const QString &service)
{
    const QString words = serverWords(body);
    const QString said = words.isEmpty() ? QString() : tr(": %1").arg(words);
    ErrorCode code = ErrorCode::Internal;
    QString message;
    if (status == 401 || status == 403) {
        code = ErrorCode::Unauthorized;
        message = status == 401
                      ? tr("%1 refused the API key (HTTP 401)%2; check or replace the account's key").arg(service, said)
                      : tr("%1 refused the request (HTTP 403)%2").arg(service, said);
    } else if (status == 404) {
        code = ErrorCode::NotFound;
        message = tr("%1 has no such sandbox or path (HTTP 404)%2").arg(service, said);
    } else if (status == 409) {
        code = ErrorCode::Conflict;
        message = tr("%1 refused: conflict (HTTP 409)%2").arg(service, said);
    } else if (status == 429) {
        code = ErrorCode::LimitReached;
        message = tr("%1 is rate limiting this account (HTTP 429)%2; try again shortly").arg(service, said);
    } else if (status == 400 || status == 413 || status == 415 || status == 422) {
        code = ErrorCode::InvalidArgument;
        message = tr("%1 rejected the request (HTTP %2)%3").arg(service).arg(status).arg(said);
    } else if (status == 507) {
        code = ErrorCode::LimitReached;
        message = tr("%1: the sandbox's disk is full (HTTP 507)%2").arg(service, said);
    } else if (status >= 500) {
        code = ErrorCode::Unavailable;
        message = tr("%1 failed (HTTP %2)%3").arg(service).arg(status).arg(said);
    } else {
        message = tr("%1 answered HTTP %2%3").arg(service).arg(status).arg(said);
    }
    return makeError(code, message);
}

} // namespace sandbar::cloud
