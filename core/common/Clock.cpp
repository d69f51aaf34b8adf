#include "common/Clock.h"

#include <chrono>

namespace sandbar {

qint64 SystemClock::currentMSecsSinceEpoch() const
{
    return QDateTime::currentMSecsSinceEpoch();
}

qint64 SystemClock::monotonicMs() const
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

const Clock &systemClock()
{
    static const SystemClock clock;
    return clock;
}

} // namespace sandbar
