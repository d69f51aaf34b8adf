#include "StopAll.h"

#include "sessions/SessionRegistry.h"

#include <QCoreApplication>
#include <memory>

namespace sandbar::ui {

QString StopAllSummary::text() const
{
    if (requested == 0)
        return QCoreApplication::translate("sandbar::ui::StopAll", "No session was running.");
    if (failures.isEmpty())
        return QCoreApplication::translate("sandbar::ui::StopAll", "Stopped %n session(s).", "", stopped);
    return QCoreApplication::translate("sandbar::ui::StopAll", "Stopped %1 of %2 sessions; %3")
        .arg(stopped)
        .arg(requested)
        .arg(failures.constFirst());
}

void stopAllRunningSessions(SessionRegistry &registry, QObject *context, std::function<void(StopAllSummary)> done)
{
    QList<SessionInfo> targets;
    for (const SessionInfo &s : registry.sessions()) {
        if (s.state == SessionState::Running || s.state == SessionState::Creating || s.state == SessionState::Paused)
            targets.append(s);
    }
    struct State {
        StopAllSummary summary;
        int pending = 0;
        std::function<void(StopAllSummary)> done;
    };
    auto state = std::make_shared<State>();
    state->summary.requested = int(targets.size());
    state->pending = int(targets.size());
    state->done = std::move(done);
    if (targets.isEmpty()) {
        // Queued like every other answer, so the caller never sees it re-entrantly.
        QMetaObject::invokeMethod(
            context, [state]() { state->done(state->summary); }, Qt::QueuedConnection);
        return;
    }
    const auto finish = [state](const QString &ref, const VoidResult &r) {
        if (r.ok())
            ++state->summary.stopped;
        else
            state->summary.failures.append(QStringLiteral("%1: %2").arg(ref, r.message()));
        if (--state->pending == 0)
            state->done(state->summary);
    };
    for (const SessionInfo &s : targets) {
        const QString ref = s.ref();
        const QString id = s.id;
        registry.provider(s.account, Callback<Provider *>(context, [context, finish, ref, id](Result<Provider *> p) {
                              if (!p.ok())
                                  return finish(ref, p.error());
                              p.value()->stop(id,
                                              Callback<void>(context, [finish, ref](VoidResult r) { finish(ref, r); }));
                          }));
    }
}

} // namespace sandbar::ui
