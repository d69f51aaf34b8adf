#include "providers/Session.h"

namespace sandbar {

QString sessionStateName(SessionState state)
{
    switch (state) {
    case SessionState::Creating: return QStringLiteral("creating");
    case SessionState::Running: return QStringLiteral("running");
    case SessionState::Paused: return QStringLiteral("paused");
    case SessionState::Stopping: return QStringLiteral("stopping");
    case SessionState::Stopped: return QStringLiteral("stopped");
    case SessionState::Error: return QStringLiteral("error");
    case SessionState::Unknown: return QStringLiteral("unknown");
    }
    return QStringLiteral("unknown");
}

SessionState sessionStateFromName(const QString &name)
{
    for (auto s : {SessionState::Creating, SessionState::Running, SessionState::Paused, SessionState::Stopping,
                   SessionState::Stopped, SessionState::Error}) {
        if (sessionStateName(s) == name)
            return s;
    }
    return SessionState::Unknown;
}

} // namespace sandbar
