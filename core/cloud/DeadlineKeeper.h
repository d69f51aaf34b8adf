#pragma once

#include "common/Callback.h"
#include "common/Clock.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <functional>

class QTimer;

namespace sandbar::cloud {

// Sandbar's own time limits, for sessions a service does not end by itself or ends later than
// asked (a Daytona sandbox, a Vercel session past a shorter ttl, a sprite): each session's
// deadline and one timer for the next. The provider says which sessions are active (only those
// are ended) and what ending one means (a stop; for a sprite, ending what runs in it). One that
// failed to end, or is active again, is asked again after a pause, never in a loop. Lives on
// the provider's thread, owned by it.
class DeadlineKeeper : public QObject
{
    Q_OBJECT
public:
    using IsActive = std::function<bool(const QString &sessionId)>;
    using End = std::function<void(const QString &sessionId, Callback<void> done)>;

    DeadlineKeeper(const Clock &clock, IsActive active, End end, QObject *parent);

    // The session's deadline; an invalid one removes it.
    void set(const QString &sessionId, const QDateTime &deadline);
    void remove(const QString &sessionId);
    QDateTime deadline(const QString &sessionId) const { return m_deadlines.value(sessionId); }
    // Looks again at which deadline comes next (after a session's activity changed).
    void reschedule();

    static constexpr qint64 kAgainAfterSeconds = 30;

private:
    void enforce();

    const Clock *m_clock;
    IsActive m_active;
    End m_end;
    QHash<QString, QDateTime> m_deadlines;
    QHash<QString, QDateTime> m_endedAt; // when each was last asked to end
    QTimer *m_timer = nullptr;
};

} // namespace sandbar::cloud
