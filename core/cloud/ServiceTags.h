#pragma once

// Sandbar's labels on a service that keeps only a few short tags a sandbox (Vercel's tags, a
// sprite's labels): four names, read back as Sandbar's own labels. Header-only: the providers'
// pure parsers use it, and the fuzzers build those alone.

#include "providers/Session.h"

#include <QMap>
#include <QString>

namespace sandbar::cloud {

inline constexpr char kAccountTag[] = "sandbar";     // the account's name (also "made by Sandbar")
inline constexpr char kTokenTag[] = "sandbar-token"; // finds a create whose reply was lost
inline constexpr char kTtlTag[] = "sandbar-ttl";     // Sandbar's time limit, seconds from creation
inline constexpr char kAgentTag[] = "sandbar-agent"; // the MCP client that made it

// Whether a tag is one of Sandbar's four (the person's are the others).
inline bool isServiceTag(const QString &key)
{
    return key == QLatin1String(kAccountTag) || key == QLatin1String(kTokenTag) || key == QLatin1String(kTtlTag) ||
           key == QLatin1String(kAgentTag);
}

// Files one tag under Sandbar's labels (the token into *token); a tag of the person's stays as
// it is, and an empty key is dropped.
inline void putServiceTag(QMap<QString, QString> &labelsOut, const QString &key, const QString &value, QString *token)
{
    if (key == QLatin1String(kAccountTag)) {
        labelsOut.insert(QLatin1String(labels::App), QLatin1String(labels::AppValue));
        labelsOut.insert(QLatin1String(labels::Account), value);
    } else if (key == QLatin1String(kTtlTag)) {
        labelsOut.insert(QLatin1String(labels::Ttl), value);
    } else if (key == QLatin1String(kAgentTag)) {
        labelsOut.insert(QLatin1String(labels::Agent), value);
    } else if (key == QLatin1String(kTokenTag)) {
        *token = value;
    } else if (!key.isEmpty()) {
        labelsOut.insert(key, value);
    }
}

// The other way: Sandbar's labels as the service's tags, for a copy of a sandbox (a fork) made
// for account with its own create token. The time limit, the agent's label and the person's
// labels carry over; the account is the copy's own.
inline QMap<QString, QString> serviceTagsFor(const QMap<QString, QString> &labelsIn, const QString &account,
                                             const QString &token)
{
    QMap<QString, QString> tags{{QLatin1String(kAccountTag), account}, {QLatin1String(kTokenTag), token}};
    for (auto it = labelsIn.cbegin(); it != labelsIn.cend(); ++it) {
        if (it.key() == QLatin1String(labels::Ttl))
            tags.insert(QLatin1String(kTtlTag), it.value());
        else if (it.key() == QLatin1String(labels::Agent))
            tags.insert(QLatin1String(kAgentTag), it.value());
        else if (it.key() != QLatin1String(labels::App) && it.key() != QLatin1String(labels::Account))
            tags.insert(it.key(), it.value());
    }
    return tags;
}

// Sandbar's time limit read back from the labels (seconds from creation): info's ttl and
// expiry, and the deadline it returns; none (invalid) without one, without a creation time, or
// past ten years (garbage, not a limit).
inline QDateTime applyTtlLabel(SessionInfo &info)
{
    constexpr qint64 kTenYears = 10LL * 366 * 86400;
    const qint64 ttl = info.labels.value(QLatin1String(labels::Ttl)).toLongLong();
    if (ttl <= 0 || ttl > kTenYears || !info.created.isValid())
        return {};
    info.ttlSeconds = ttl;
    info.expiresAt = info.created.addSecs(ttl);
    return info.expiresAt;
}

} // namespace sandbar::cloud
