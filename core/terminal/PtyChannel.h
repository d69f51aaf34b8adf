#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QObject>
#include <optional>

namespace sandbar {

// A byte stream to a program running on a pseudo-terminal, wherever that program is:
// a local forkpty child, a Docker exec over a hijacked socket, a Local-sandbox agent.
// Lifecycle: start() -> started() -> dataReceived()* -> finished(exitCode) | errorOccurred().
class PtyChannel : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~PtyChannel() override = default;

    virtual void start() = 0;
    virtual void write(const QByteArray &bytes) = 0;
    virtual void resize(int cols, int rows) = 0;
    // Ends the remote program's terminal (hang-up); finished() or errorOccurred() follows.
    virtual void close() = 0;
    virtual bool isOpen() const = 0;
    // The program's exit status once known; absent while running or when the transport
    // could not tell (for example a dropped connection).
    virtual std::optional<int> exitCode() const = 0;
    // Flow control from a consumer that has fallen behind: while paused the channel reads
    // no more output, so the program blocks on a full terminal as it would in any other
    // terminal. Transports that cannot pause ignore it.
    virtual void setReadingPaused(bool paused) { Q_UNUSED(paused); }
    // Emits now, from the caller's stack, output that has arrived but waits for its turn
    // in the event loop (a reader thread's queued delivery). A typed key's echo is fetched
    // this way between the slices of other terminals' floods instead of waiting behind
    // them. Returns whether anything was delivered.
    virtual bool deliverNow() { return false; }

Q_SIGNALS:
    void started();
    void dataReceived(const QByteArray &bytes);
    void finished(int exitCode);
    void errorOccurred(const sandbar::Error &error);
};

} // namespace sandbar
