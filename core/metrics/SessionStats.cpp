#include "metrics/SessionStats.h"

namespace sandbar::metrics {

SessionStats::SessionStats(QString ref, QObject *parent)
    : QObject(parent)
    , m_ref(std::move(ref))
{
}

void SessionStats::setSession(const SessionInfo &session, Capabilities caps, const QString &providerName)
{
    const bool changed = session.state != m_session.state || session.network != m_session.network ||
                         session.cpus != m_session.cpus || session.memoryBytes != m_session.memoryBytes ||
                         session.gpus != m_session.gpus || caps != m_caps || providerName != m_providerName;
    m_session = session;
    m_caps = caps;
    m_providerName = providerName;
    if (changed)
        Q_EMIT statusChanged();
}

void SessionStats::append(const StatsSample &sample)
{
    m_history.append(sample);
    Q_EMIT appended();
}

void SessionStats::setState(State state, std::optional<Error> error, QDateTime nextRetry)
{
    const bool changed = state != m_state || error.has_value() != m_error.has_value() ||
                         (error && m_error && error->message != m_error->message) || nextRetry != m_nextRetry;
    m_state = state;
    m_error = std::move(error);
    m_nextRetry = nextRetry;
    if (changed)
        Q_EMIT statusChanged();
}

} // namespace sandbar::metrics
