#include "cloud/TerminalKeepAlive.h"

#include "terminal/PtyChannel.h"

#include <QPointer>
#include <QTimer>
#include <memory>

namespace sandbar::cloud {

TerminalKeepAlive::TerminalKeepAlive(TerminalFacet &inner, const Clock &clock, Hooks hooks, Timing timing,
                                     QObject *parent)
    : QObject(parent)
    , m_inner(inner)
    , m_clock(&clock)
    , m_hooks(std::move(hooks))
    , m_timing(timing)
{
}

std::unique_ptr<PtyChannel> TerminalKeepAlive::openPty(const QString &sessionId, const PtyOptions &options)
{
    std::unique_ptr<PtyChannel> channel = m_inner.openPty(sessionId, options);
    if (!channel)
        return channel;
    Watch &w = m_watch[sessionId];
    ++w.count;
    // A terminal counts until it finishes or goes, whichever comes first, and only once.
    auto counted = std::make_shared<bool>(true);
    const auto done = [this, sessionId, counted] {
        if (!*counted)
            return;
        *counted = false;
        release(sessionId);
    };
    connect(channel.get(), &PtyChannel::finished, this, done);
    connect(channel.get(), &QObject::destroyed, this, done);
    if (w.count == 1)
        step(sessionId);
    return channel;
}

void TerminalKeepAlive::release(const QString &sessionId)
{
    auto it = m_watch.find(sessionId);
    if (it == m_watch.end() || --it->count > 0)
        return;
    if (it->timer)
        it->timer->deleteLater();
    m_watch.erase(it);
}

void TerminalKeepAlive::later(const QString &sessionId, qint64 ms)
{
    auto it = m_watch.find(sessionId);
    if (it == m_watch.end())
        return;
    if (!it->timer) {
        it->timer = new QTimer(this);
        it->timer->setSingleShot(true);
        connect(it->timer, &QTimer::timeout, this, [this, sessionId] { step(sessionId); });
    }
    it->timer->start(int(qBound<qint64>(0, ms, 24LL * 3600 * 1000)));
}

void TerminalKeepAlive::step(const QString &sessionId)
{
    auto it = m_watch.find(sessionId);
    if (it == m_watch.end() || it->busy)
        return;
    it->busy = true;
    const auto finish = [this, sessionId](std::optional<qint64> nextMs, bool extended = false) {
        auto w = m_watch.find(sessionId);
        if (w == m_watch.end())
            return;
        w->busy = false;
        w->extended = extended;
        if (nextMs)
            later(sessionId, *nextMs);
    };
    const bool justExtended = it->extended;
    m_hooks.ends(sessionId, Callback<Ends>(this, [this, sessionId, finish, justExtended](Result<Ends> ends) {
                     // A session that is gone or no longer runs has nothing to keep alive.
                     if (!ends || !ends->service.isValid())
                         return finish(std::nullopt);
                     const QDateTime now = m_clock->currentDateTimeUtc();
                     const qint64 left = now.msecsTo(ends->service);
                     if (left > m_timing.leadMs)
                         return finish(left - m_timing.leadMs);
                     // Lengthened a moment ago, yet the end has not moved: ask again later
                     // rather than lengthen it twice.
                     if (justExtended)
                         return finish(m_timing.retryMs);
                     qint64 amount = m_timing.sliceMs;
                     if (ends->sandbar.isValid())
                         amount = std::min(amount, ends->service.msecsTo(ends->sandbar));
                     if (amount <= 0)
                         return finish(std::nullopt); // Sandbar's deadline: the session ends then
                     m_hooks.extend(sessionId, amount, Callback<void>(this, [this, finish](VoidResult extended) {
                                        finish(extended ? 0 : m_timing.retryMs, extended.ok());
                                    }));
                 }));
}

} // namespace sandbar::cloud
