#pragma once

#include "providers/Session.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QTimer>
#include <functional>
#include <optional>

namespace sandbar {
class SessionRegistry;
class CostMeter;
namespace costs {
class BudgetWatcher;
}
} // namespace sandbar

namespace sandbar::ui {

struct Notification {
    enum class Kind { SessionFailed, ExpiresSoon, Expired, Budget, AgentApproval, Info };
    Kind kind = Kind::Info;
    QString title;
    QString message;
    QString ref; // the session's ACCOUNT/ID, or the account for a budget
    bool critical = false;
};

// "3 running · $0.42/h": the tray's tooltip and first menu line. Without a cost meter
// (usdPerHour empty) the cost part is left out.
QString trayStatusText(int running, std::optional<double> usdPerHour);
// Sessions in a state that runs (and bills): Running and Creating.
int runningSessionCount(const QList<SessionInfo> &sessions);

// Decides what deserves a desktop notification, and says it through a sink (the tray's
// showMessage, or a status-bar/log callback where there is no tray):
//   - a session entering Error, once per failure (again only after it left Error);
//   - a session's ttl: a warning `warningLeadSeconds` before expiresAt and a notice at
//     it, each once per session and expiry (extending the ttl re-arms both);
//   - budget alerts (80 / 100 %);
//   - an agent's call waiting for approval (the caller tells it when the Agents view is not in front).
// No widgets: the clock is injectable and checkExpiry() can be driven by a test.
class Notifier : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<QDateTime()>;
    using Sink = std::function<void(const Notification &)>;

    explicit Notifier(QObject *parent = nullptr);

    void setClock(Clock clock) { m_clock = std::move(clock); }
    void setSink(Sink sink) { m_sink = std::move(sink); }
    // Off: nothing reaches the sink (decisions are still made, so turning it back on
    // does not replay old events).
    void setEnabled(bool on) { m_enabled = on; }
    bool isEnabled() const { return m_enabled; }
    void setWarningLeadSeconds(int seconds) { m_leadSeconds = seconds; }
    int warningLeadSeconds() const { return m_leadSeconds; }

    // Follows the registry's sessions and keeps a timer for the next ttl moment.
    void watchRegistry(SessionRegistry &registry);
    // Budget alerts, from the watcher's threshold signal.
    void watchBudgets(costs::BudgetWatcher &budgets);
    // Sessions the cost meter stopped at a budget's limit.
    void watchCostMeter(CostMeter &meter);

    // The current list of sessions: failures are noticed here, ttl deadlines recorded.
    void updateSessions(const QList<SessionInfo> &sessions);
    // Fires whatever ttl notices are due at the clock's now.
    void checkExpiry();
    void budgetAlert(const QString &account, int percent);
    void budgetStopped(const QString &account, const QStringList &refs);
    // An AI agent's call waits for the person's approval in the Agents view.
    void agentApprovalRequested(const QString &client, const QString &tool);

    // When the next ttl notice is due (invalid: none pending); for the timer and tests.
    QDateTime nextDeadline() const;

Q_SIGNALS:
    void notified(const sandbar::ui::Notification &notification);

private:
    struct Track {
        QString name;
        SessionState state = SessionState::Unknown;
        QDateTime expiresAt;
        bool seenAlive = false; // seen in a running state before its expiry
        bool warned = false;
        bool expired = false;
        bool failedNotified = false;
    };
    void emitNotification(const Notification &n);
    void checkTrack(const QString &ref, Track &t, const QDateTime &now);
    void schedule();
    QDateTime now() const;

    Clock m_clock;
    Sink m_sink;
    bool m_enabled = true;
    int m_leadSeconds = 300;
    QHash<QString, Track> m_tracks;
    QTimer m_timer;
};

} // namespace sandbar::ui
