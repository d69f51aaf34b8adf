#pragma once

#include "providers/Jobs.h"
#include "providers/Session.h"

#include <QFile>
#include <QTimer>
#include <functional>
#include <optional>

namespace sandbar::local {

// A Local session's agent.log (what bubblewrap, the agent and slirp4netns write to their
// stdout and stderr), as one combined stream (0). Following is tail -f: a timer reads what was
// appended, starts over when the file was truncated, and finishes once the session has ended
// and nothing more came.
class LocalLogStream : public LogStream
{
    Q_OBJECT
public:
    LocalLogStream(QString path, LogOptions options, std::function<bool()> alive, QObject *parent = nullptr);
    // A stream that finishes with error once started (an unknown session).
    explicit LocalLogStream(Error error, QObject *parent = nullptr);

    void start() override;
    void stop() override;

    // Tests shorten the poll.
    void setPollInterval(std::chrono::milliseconds interval) { m_poll.setInterval(interval); }

    // Where the last `lines` lines of the first `size` bytes of file begin; reads backwards
    // in blocks and gives up (starting later) past maxScan bytes.
    static qint64 tailOffset(QFile *file, qint64 size, int lines, qint64 maxScan = 8 << 20);

private:
    void first();
    void poll();
    // Reads from m_pos up to at most `limit` bytes; true when anything came.
    bool drain(qint64 limit);
    void finish(const VoidResult &result);

    QString m_path;
    LogOptions m_options;
    std::function<bool()> m_alive;
    std::optional<Error> m_error;
    QFile m_file;
    QTimer m_poll;
    qint64 m_pos = 0;
    qint64 m_end = -1; // a non-following read stops here
    bool m_done = false;
};

} // namespace sandbar::local
