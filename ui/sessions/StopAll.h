#pragma once

#include "providers/Session.h"

#include <QObject>
#include <QStringList>
#include <functional>

namespace sandbar {
class SessionRegistry;
}

namespace sandbar::ui {

struct StopAllSummary {
    int requested = 0;
    int stopped = 0;
    QStringList failures; // "ref: message", one per session that did not stop

    // One line for a notification: "Stopped 3 sessions." / "Stopped 2 of 3 sessions; ...".
    QString text() const;
};

// Stops every running session (Running, Creating, Paused) the registry lists, through each
// session's account provider, all at once; `done` runs once, with the summary, after the
// last answer (at once when nothing runs). Dropped if context goes away first.
void stopAllRunningSessions(SessionRegistry &registry, QObject *context, std::function<void(StopAllSummary)> done);

} // namespace sandbar::ui
