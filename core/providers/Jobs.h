#pragma once

#include "common/Result.h"
#include "metrics/StatsSample.h"

#include <QElapsedTimer>
#include <QObject>

namespace sandbar {

// A running upload or download. Streams: never holds the whole file in memory.
class TransferJob : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~TransferJob() override = default;

    virtual void start() = 0;
    virtual void cancel() = 0;

Q_SIGNALS:
    void progress(qint64 doneBytes, qint64 totalBytes); // total -1 when unknown
    void finished(const sandbar::VoidResult &result);

protected:
    // Transports see a chunk every few KiB; listeners (a progress bar, a terminal line) need
    // a few updates a second, so progress is emitted at most every 50 ms, plus the last one.
    void emitProgress(qint64 doneBytes, qint64 totalBytes)
    {
        const bool last = totalBytes >= 0 && doneBytes >= totalBytes;
        if (!last && m_progressClock.isValid() && m_progressClock.elapsed() < 50)
            return;
        m_progressClock.start();
        Q_EMIT progress(doneBytes, totalBytes);
    }

private:
    QElapsedTimer m_progressClock;
};

// A running command without a terminal: stdout and stderr arrive separately.
class ExecJob : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~ExecJob() override = default;

    virtual void start() = 0;
    virtual void cancel() = 0;

Q_SIGNALS:
    void stdoutData(const QByteArray &bytes);
    void stderrData(const QByteArray &bytes);
    void finished(const sandbar::Result<int> &exitCode);
};

// A session's log (container output, the agent's log). Chunks arrive as the provider sends
// them, split at line ends where the framing allows; stream 1 is stdout, 2 stderr, 0 one
// combined stream (a TTY). finished comes once: at the end of a non-following read, when
// the session's log ends, on error, or never after stop().
class LogStream : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~LogStream() override = default;

    virtual void start() = 0;
    virtual void stop() = 0;

Q_SIGNALS:
    void data(const QByteArray &bytes, int stream);
    void finished(const sandbar::VoidResult &result);
};

// A live feed of samples for the session whose charts are open.
class StatsStream : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~StatsStream() override = default;

    virtual void start() = 0;
    virtual void stop() = 0;

Q_SIGNALS:
    void sample(const sandbar::StatsSample &sample);
    void errorOccurred(const sandbar::Error &error);
};

} // namespace sandbar
