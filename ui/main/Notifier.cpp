#include "Notifier.h"

#include "costs/BudgetWatcher.h"
#include "costs/CostMeter.h"
#include "sessions/SessionRegistry.h"

#include <QLocale>

namespace sandbar::ui {

namespace {

bool isAlive(SessionState s)
{
    return s == SessionState::Running || s == SessionState::Creating || s == SessionState::Paused;
}

QString displayName(const QString &name, const QString &ref)
{
    return name.isEmpty() ? ref : name;
}

// Long waits are cut short so a suspended laptop or a changed clock is noticed soon.
constexpr qint64 kMaxTimerMs = 60 * 1000;

} // namespace

QString trayStatusText(int running, std::optional<double> usdPerHour)
{
    const QString count = Notifier::tr("%n running", "sessions", running);
    if (!usdPerHour)
        return count;
    const QString cost = Notifier::tr("$%1/h").arg(QLocale::c().toString(qMax(0.0, *usdPerHour), 'f', 2));
    return Notifier::tr("%1 · %2", "tray status: count · cost").arg(count, cost);
}

int runningSessionCount(const QList<SessionInfo> &sessions)
{
    int n = 0;
    for (const SessionInfo &s : sessions)
        n += (s.state == SessionState::Running || s.state == SessionState::Creating) ? 1 : 0;
    return n;
}

Notifier::Notifier(QObject *parent)
    : QObject(parent)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &Notifier::checkExpiry);
}

QDateTime Notifier::now() const
{
    return m_clock ? m_clock() : QDateTime::currentDateTimeUtc();
}

void Notifier::watchRegistry(SessionRegistry &registry)
{
    connect(&registry, &SessionRegistry::sessionsChanged, this,
            [this, r = &registry]() { updateSessions(r->sessions()); });
    updateSessions(registry.sessions());
}

void Notifier::watchBudgets(costs::BudgetWatcher &budgets)
{
    connect(&budgets, &costs::BudgetWatcher::threshold, this, &Notifier::budgetAlert);
}

void Notifier::watchCostMeter(CostMeter &meter)
{
    connect(&meter, &CostMeter::budgetStopped, this, &Notifier::budgetStopped);
}

void Notifier::updateSessions(const QList<SessionInfo> &sessions)
{
    const QDateTime t = now();
    QHash<QString, Track> next;
    for (const SessionInfo &s : sessions) {
        const QString ref = s.ref();
        Track track = m_tracks.value(ref);
        track.name = s.name;
        if (s.state == SessionState::Error) {
            if (!track.failedNotified) {
                track.failedNotified = true;
                Notification n;
                n.kind = Notification::Kind::SessionFailed;
                n.ref = ref;
                n.critical = true;
                n.title = tr("Session failed");
                n.message = s.errorMessage.isEmpty() ? tr("%1 stopped with an error.").arg(displayName(s.name, ref))
                                                     : tr("%1: %2").arg(displayName(s.name, ref), s.errorMessage);
                emitNotification(n);
            }
        } else {
            track.failedNotified = false; // a later failure is a new one
        }
        if (track.expiresAt != s.expiresAt) {
            // A new or extended deadline: both notices are due again.
            track.expiresAt = s.expiresAt;
            track.warned = track.expired = false;
            track.seenAlive = false;
        }
        track.state = s.state;
        if (isAlive(s.state) && s.expiresAt.isValid() && t < s.expiresAt)
            track.seenAlive = true;
        checkTrack(ref, track, t);
        next.insert(ref, track);
    }
    // A session that vanished at its expiry (auto-removed) still gets its notice.
    for (auto it = m_tracks.begin(); it != m_tracks.end(); ++it) {
        if (!next.contains(it.key()))
            checkTrack(it.key(), it.value(), t);
    }
    m_tracks = std::move(next);
    schedule();
}

void Notifier::checkExpiry()
{
    const QDateTime t = now();
    for (auto it = m_tracks.begin(); it != m_tracks.end(); ++it)
        checkTrack(it.key(), it.value(), t);
    schedule();
}

void Notifier::checkTrack(const QString &ref, Track &track, const QDateTime &t)
{
    if (!track.expiresAt.isValid() || !track.seenAlive)
        return;
    const QString who = displayName(track.name, ref);
    if (t >= track.expiresAt) {
        if (!track.expired) {
            track.expired = track.warned = true;
            Notification n;
            n.kind = Notification::Kind::Expired;
            n.ref = ref;
            n.title = tr("Session expired");
            n.message = tr("%1 reached its time limit and is being stopped.").arg(who);
            emitNotification(n);
        }
        return;
    }
    if (!track.warned && isAlive(track.state) && t.secsTo(track.expiresAt) <= m_leadSeconds) {
        track.warned = true;
        const qint64 minutes = qMax<qint64>(1, (t.secsTo(track.expiresAt) + 59) / 60);
        Notification n;
        n.kind = Notification::Kind::ExpiresSoon;
        n.ref = ref;
        n.title = tr("Session expires soon");
        n.message = tr("%1 will be stopped in %n minute(s) (its time limit).", "", int(minutes)).arg(who);
        emitNotification(n);
    }
}

QDateTime Notifier::nextDeadline() const
{
    QDateTime best;
    for (const Track &t : m_tracks) {
        if (!t.expiresAt.isValid() || !t.seenAlive || t.expired)
            continue;
        const QDateTime due = t.warned ? t.expiresAt : t.expiresAt.addSecs(-m_leadSeconds);
        if (!best.isValid() || due < best)
            best = due;
    }
    return best;
}

void Notifier::schedule()
{
    const QDateTime due = nextDeadline();
    if (!due.isValid()) {
        m_timer.stop();
        return;
    }
    const qint64 ms = qBound<qint64>(0, now().msecsTo(due), kMaxTimerMs);
    m_timer.start(int(ms));
}

void Notifier::budgetAlert(const QString &account, int percent)
{
    Notification n;
    n.kind = Notification::Kind::Budget;
    n.ref = account;
    n.critical = percent >= 100;
    n.title = percent >= 100 ? tr("Budget reached") : tr("Budget alert");
    n.message = tr("Account %1 has used %2 % of this month's budget.").arg(account).arg(percent);
    emitNotification(n);
}

void Notifier::budgetStopped(const QString &account, const QStringList &refs)
{
    if (refs.isEmpty())
        return;
    Notification n;
    n.kind = Notification::Kind::Budget;
    n.ref = account;
    n.critical = true;
    n.title = tr("Sessions stopped");
    n.message = tr("Account %1 reached its budget: %n session(s) stopped.", "", int(refs.size())).arg(account);
    emitNotification(n);
}

void Notifier::agentApprovalRequested(const QString &client, const QString &tool)
{
    Notification n;
    n.kind = Notification::Kind::AgentApproval;
    n.ref = client;
    n.title = tr("An agent asks for your approval");
    n.message = tr("%1 wants to call %2. Open Agents in Sandbar to approve or deny it.").arg(client, tool);
    emitNotification(n);
}

void Notifier::emitNotification(const Notification &n)
{
    if (!m_enabled)
        return;
    Q_EMIT notified(n);
    if (m_sink)
        m_sink(n);
}

} // namespace sandbar::ui
