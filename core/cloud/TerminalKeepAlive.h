#pragma once

// While a terminal is open on a session, keeps the service from ending the session at its own
// timeout, as the services' own CLIs do (Vercel's: ten seconds before the end, five minutes
// more, again and again), and never past Sandbar's own deadline for the session. It stands in
// front of the provider's terminals facet: every terminal it opens counts until the terminal
// finishes or goes, and with the last one the lengthening stops, so a forgotten sandbox still
// ends at the service's timeout. A budget that says to stop ends the session itself (the
// budget watcher), and with it this.

#include "common/Clock.h"
#include "providers/Facets.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <functional>

class QTimer;

namespace sandbar::cloud {

class TerminalKeepAlive final : public QObject, public TerminalFacet
{
    Q_OBJECT
public:
    struct Ends {
        QDateTime service; // when the service ends the session as things stand; invalid: never
        QDateTime sandbar; // Sandbar's own deadline for it; invalid: none
    };
    struct Hooks {
        // Asked afresh before each step: someone else may have lengthened the session.
        std::function<void(const QString &sessionId, Callback<Ends> done)> ends;
        std::function<void(const QString &sessionId, qint64 ms, Callback<void> done)> extend;
    };
    struct Timing {
        qint64 leadMs = 10000;   // how long before the service's end to lengthen it
        qint64 sliceMs = 300000; // by how much each time
        qint64 retryMs = 15000;  // after a failed step
    };

    TerminalKeepAlive(TerminalFacet &inner, const Clock &clock, Hooks hooks, Timing timing, QObject *parent);

    Capabilities terminalFlags() const override { return m_inner.terminalFlags(); }
    std::unique_ptr<PtyChannel> openPty(const QString &sessionId, const PtyOptions &options) override;
    void listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done) override
    {
        m_inner.listPtys(sessionId, std::move(done));
    }

    // Terminals open on the session now.
    int attached(const QString &sessionId) const { return m_watch.value(sessionId).count; }

private:
    struct Watch {
        int count = 0;
        QTimer *timer = nullptr;
        bool busy = false;     // a step is on its way
        bool extended = false; // the last step lengthened the session
    };
    void release(const QString &sessionId);
    void step(const QString &sessionId);
    void later(const QString &sessionId, qint64 ms);

    TerminalFacet &m_inner;
    const Clock *m_clock;
    Hooks m_hooks;
    Timing m_timing;
    QHash<QString, Watch> m_watch;
};

} // namespace sandbar::cloud
