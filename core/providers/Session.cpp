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

namespace sandbar {

CreateSpec createSpecFromOptions(const QVariantMap &options)
{
    CreateSpec s;
    s.options = options;
    const auto take = [&options](const char *key) { return options.value(QLatin1String(key)); };
    s.image = take(createkeys::Image).toString();
    if (take(createkeys::Cpus).isValid())
        s.cpus = take(createkeys::Cpus).toDouble();
    if (take(createkeys::Memory).isValid())
        s.memoryBytes = take(createkeys::Memory).toLongLong();
    if (take(createkeys::PidsLimit).isValid())
        s.pidsLimit = take(createkeys::PidsLimit).toLongLong();
    s.ttlSeconds = take(createkeys::Ttl).toLongLong();
    s.network = take(createkeys::Network).toBool();
    s.user = take(createkeys::User).toString();
    s.gpus = take(createkeys::Gpus).toInt();
    s.name = take(createkeys::Name).toString();
    for (const auto &line : take(createkeys::Env).toString().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.contains(QLatin1Char('=')))
            s.env << line.trimmed();
    }
    return s;
}

} // namespace sandbar
