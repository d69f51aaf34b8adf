#include "cloud/DeadlineKeeper.h"

#include <QTimer>
#include <algorithm>

namespace sandbar::cloud {

DeadlineKeeper::DeadlineKeeper(const Clock &clock, IsActive active, End end, QObject *parent)
    : QObject(parent)
    , m_clock(&clock)
    , m_active(std::move(active))
    , m_end(std::move(end))
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &DeadlineKeeper::enforce);
}

void DeadlineKeeper::set(const QString &sessionId, const QDateTime &deadline)
{
    if (!deadline.isValid())
        return remove(sessionId);
    if (m_deadlines.value(sessionId) != deadline)
        m_endedAt.remove(sessionId); // a new limit is a new chance
    m_deadlines.insert(sessionId, deadline);
    reschedule();
}

void DeadlineKeeper::remove(const QString &sessionId)
{
    m_deadlines.remove(sessionId);
    m_endedAt.remove(sessionId);
    reschedule();
}

void DeadlineKeeper::reschedule()
{
    QDateTime next;
    for (auto it = m_deadlines.cbegin(); it != m_deadlines.cend(); ++it) {
        if (!m_active(it.key()))
            continue;
        const QDateTime last = m_endedAt.value(it.key());
        const QDateTime due = last.isValid() ? std::max(it.value(), last.addSecs(kAgainAfterSeconds)) : it.value();
        if (!next.isValid() || due < next)
            next = due;
    }
    if (!next.isValid())
        return m_timer->stop();
    const qint64 ms = m_clock->currentDateTimeUtc().msecsTo(next);
    // Long waits are re-armed hourly: timers drift across a suspend.
    m_timer->start(int(std::clamp<qint64>(ms, 0, 3600 * 1000)));
}

void DeadlineKeeper::enforce()
{
    const QDateTime now = m_clock->currentDateTimeUtc();
    QStringList due;
    for (auto it = m_deadlines.cbegin(); it != m_deadlines.cend(); ++it) {
        const QDateTime last = m_endedAt.value(it.key());
        if (it.value() <= now && m_active(it.key()) && !(last.isValid() && last.secsTo(now) < kAgainAfterSeconds))
            due << it.key();
    }
    for (const QString &id : due) {
        m_endedAt.insert(id, now);
        // Whatever the outcome, the next look decides: a session still active is asked again.
        m_end(id, Callback<void>(this, [this](VoidResult) { reschedule(); }));
    }
    reschedule();
}

} // namespace sandbar::cloud
