#pragma once

#include "common/Result.h"
#include "metrics/StatsHistory.h"
#include "providers/Capabilities.h"
#include "providers/Session.h"

#include <QDateTime>
#include <QObject>
#include <optional>

namespace sandbar::metrics {

// One session's statistics as the views see them: its history, what its provider can
// tell, and how sampling goes. Made and fed by the StatsCollector; views hold a pointer
// (QPointer) and listen. Lives until the session is removed.
class SessionStats : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Idle,       // nobody is interested, or the session is not running
        Polling,    // one-shot samples at the list or detail period
        Streaming,  // the provider's live stream (an open Stats tab)
        BackingOff, // the last sample failed; retrying later (lastError says why)
        Stopped,    // the session is not running; the history is kept
    };
    Q_ENUM(State)

    SessionStats(QString ref, QObject *parent = nullptr);

    QString ref() const { return m_ref; }
    const StatsHistory &history() const { return m_history; }

    // What the session is (limits, network flag, GPUs) and what its provider offers:
    // the views show "Not provided by <provider>" for a figure it cannot give.
    const SessionInfo &session() const { return m_session; }
    Capabilities capabilities() const { return m_caps; }
    QString providerName() const { return m_providerName; }

    State state() const { return m_state; }
    const std::optional<Error> &lastError() const { return m_error; }
    QDateTime nextRetry() const { return m_nextRetry; }

    // --- for the collector (and tests feeding synthetic history) ---
    StatsHistory &mutableHistory() { return m_history; }
    void setSession(const SessionInfo &session, Capabilities caps, const QString &providerName);
    void append(const StatsSample &sample); // merges and emits appended()
    void setState(State state, std::optional<Error> error = {}, QDateTime nextRetry = {});

Q_SIGNALS:
    void appended();
    void statusChanged(); // state, error or session facts changed

private:
    QString m_ref;
    StatsHistory m_history;
    SessionInfo m_session;
    Capabilities m_caps;
    QString m_providerName;
    State m_state = State::Idle;
    std::optional<Error> m_error;
    QDateTime m_nextRetry;
};

} // namespace sandbar::metrics
