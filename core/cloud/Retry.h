#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QDateTime>
#include <optional>

namespace sandbar::cloud {

// When a failed call is tried again, and after how long. Pure: the client asks it after each
// attempt, so the rules are tested without a network.
struct RetryPolicy {
    int maxAttempts = 4;      // the first attempt included
    qint64 baseDelayMs = 300; // doubled each attempt, with up to 25 % jitter
    qint64 maxDelayMs = 8000;
    // A Retry-After longer than this is not waited for: the error reaches the person, who
    // can decide (a rate limit of minutes should not look like a hang).
    qint64 maxRetryAfterMs = 30000;

    // The delay before attempt `attempt` + 1 (attempt counts from 1); jitter01 in [0, 1).
    qint64 backoffMs(int attempt, double jitter01) const;
};

// What went wrong in one attempt, as far as retrying is concerned.
struct AttemptOutcome {
    int status = 0;             // HTTP status; 0 when no reply came
    bool connectFailed = false; // nothing was sent (refused, DNS, TLS handshake): safe to repeat
    bool transportLost = false; // reset, timeout or truncated reply after the request went out
    QByteArray retryAfter;      // the reply's Retry-After header
};

struct RetryDecision {
    bool retry = false;
    qint64 delayMs = 0;
};

// 429 and 503 are retried for every method (the service refused before doing anything),
// honouring Retry-After; other 5xx, lost connections and timeouts only when the call is safe
// to repeat (idempotent); a refused connection always. Never beyond policy.maxAttempts.
RetryDecision decideRetry(const RetryPolicy &policy, int attempt, const AttemptOutcome &outcome, bool idempotent,
                          const QDateTime &now, double jitter01);

// Retry-After as seconds ("3") or an HTTP date; absent when missing or garbage. Never negative.
std::optional<qint64> parseRetryAfterMs(const QByteArray &value, const QDateTime &now);

// An HTTP error reply as Sandbar's error: 400/422 invalid argument, 401/403 unauthorized, 404
// not found, 409 conflict, 429 limit reached, 5xx unavailable. The message names the service
// and carries the server's own words when its body has them ({"message"}, {"error"},
// {"detail"}, {"error":{"message"}}), shortened; never the request.
Error errorFromHttp(int status, const QByteArray &body, const QString &service);

} // namespace sandbar::cloud
