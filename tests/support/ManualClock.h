#pragma once

#include "common/Clock.h"

namespace sandbar::test {

// A clock that moves only when the test says so: give it to the object under test, then
// advance() it past a back-off, a ttl or a countdown instead of waiting that long. Both
// readings start at fixed values (the wall clock mid-month at midday UTC, so a day or a
// month does not change under a test unless it means to cross one) and advance together;
// setWallClock() jumps the wall clock alone, as NTP or a person would.
class ManualClock final : public Clock
{
public:
    static QDateTime defaultStart() { return QDateTime(QDate(2025, 6, 15), QTime(12, 0), Qt::UTC); }

    explicit ManualClock(const QDateTime &start = defaultStart())
        : m_wallMs(start.toMSecsSinceEpoch())
    {
    }

    qint64 currentMSecsSinceEpoch() const override { return m_wallMs; }
    qint64 monotonicMs() const override { return m_monotonicMs; }

    // Moves both readings forward by ms (never back: the monotonic reading cannot).
    void advance(qint64 ms)
    {
        Q_ASSERT(ms >= 0);
        m_wallMs += ms;
        m_monotonicMs += ms;
    }
    void advanceSecs(qint64 secs) { advance(secs * 1000); }
    // The wall clock jumps to t; the monotonic reading stays where it is.
    void setWallClock(const QDateTime &t) { m_wallMs = t.toMSecsSinceEpoch(); }

private:
    qint64 m_wallMs;
    // Not 0: code may treat 0 as "never".
    qint64 m_monotonicMs = 1'000'000;
};

} // namespace sandbar::test
