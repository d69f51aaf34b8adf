#pragma once

#include "common/Result.h"

#include <QDateTime>
#include <QString>

namespace sandbar::audit {

// A point in time as a person writes it for --since: relative to now ("90s", "30m",
// "2h", "7d", "2w", counted back from now) or ISO-8601 ("2026-11-29",
// "2026-11-29T10:00", "2026-11-29T10:00:05.250Z", "2026-11-29T10:00+02:00"). A date or
// time without a zone is local time, as the person meant it. Returns UTC.
Result<QDateTime> parseTimeSpec(const QString &text, const QDateTime &now);

} // namespace sandbar::audit
