#pragma once

#include <QDate>
#include <QDateTime>
#include <QtGlobal>

namespace sandbar {

// The time, for code whose behaviour depends on it (countdowns, ttl deadlines, a budget's
// month, back-off), so that its tests move time instead of waiting for it. Such code takes
// a `const Clock &` that defaults to systemClock() and keeps it for its lifetime (the clock
// must outlive it); tests pass a ManualClock (tests/support/ManualClock.h). Timers still
// fire in real time: code that schedules on a clock recomputes what is due when they fire,
// and offers a way to look now where a test moves time. Pure latency measurements (how long
// a call took, for a log or a figure) keep their QElapsedTimer.
class Clock
{
public:
    virtual ~Clock() = default;

    // Wall-clock time in milliseconds since 1970-01-01T00:00Z. It may jump (NTP, a person
    // setting it, a suspend), so it says when, never how long.
    virtual qint64 currentMSecsSinceEpoch() const = 0;
    // Milliseconds from an arbitrary origin, fixed for the process, that never goes back:
    // what intervals and due times are measured on.
    virtual qint64 monotonicMs() const = 0;

    QDateTime currentDateTimeUtc() const { return QDateTime::fromMSecsSinceEpoch(currentMSecsSinceEpoch(), Qt::UTC); }
    qint64 currentSecsSinceEpoch() const { return currentMSecsSinceEpoch() / 1000; }
    // Today in the local calendar (a budget's month, the ledger's day), as QDate::currentDate().
    QDate currentDate() const { return currentDateTimeUtc().toLocalTime().date(); }
};

// The operating system's clocks. Stateless, so one instance serves every thread.
class SystemClock final : public Clock
{
public:
    qint64 currentMSecsSinceEpoch() const override;
    qint64 monotonicMs() const override;
};

// The system clock, the default of everything that takes a Clock. Immutable: nothing can
// replace it, so a test passes its own clock to the object under test instead.
const Clock &systemClock();

} // namespace sandbar
