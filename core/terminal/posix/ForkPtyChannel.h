#pragma once

#include "terminal/LocalPtyChannel.h"

#include <QSocketNotifier>
#include <QTimer>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace sandbar {

// The POSIX local terminal: a program on a pseudo-terminal made with forkpty(). A reader
// thread drains the master side (a pty hands over at most a few KiB per read, so a flood is thousands of reads and
// wake-ups that would otherwise sit on the UI thread between parses) and posts what it read
// to this object's thread, coalesced, at most one 64 KiB chunk undelivered (then it stops
// reading, and the program blocks on the full terminal); writes stay on this object's
// thread with a QSocketNotifier. resize sets TIOCSWINSZ (the kernel sends SIGWINCH); close()
// hangs up (SIGHUP); the exit status comes from waitpid.
class ForkPtyChannel : public LocalPtyChannel
{
    Q_OBJECT
public:
    explicit ForkPtyChannel(QString program, QStringList arguments = {}, QObject *parent = nullptr);
    ~ForkPtyChannel() override;

    void start() override;
    void write(const QByteArray &bytes) override;
    void resize(int cols, int rows) override;
    void close() override;
    void setReadingPaused(bool paused) override;
    bool deliverNow() override;
    bool isOpen() const override { return m_fd >= 0; }
    std::optional<int> exitCode() const override { return m_exitCode; }
    qint64 pid() const override { return m_pid; }

private:
    void readLoop();
    void deliver();
    void stopReader();
    void onWritable();
    void hangUp(); // the master side is done: stop watching, then reap the child
    void tryReap();
    void closeFd();

    int m_fd = -1;
    qint64 m_pid = -1;
    std::optional<int> m_exitCode;
    bool m_finished = false;
    std::unique_ptr<QSocketNotifier> m_writeNotifier;
    // The reader thread and what it shares with this object's thread, under m_lock.
    std::thread m_reader;
    int m_wake[2] = {-1, -1}; // a pipe that interrupts the reader's poll()
    std::mutex m_lock;
    std::condition_variable m_cv;
    QByteArray m_inbox;
    bool m_posted = false;
    bool m_paused = false;
    bool m_stopping = false;
    bool m_eof = false;
    QByteArray m_outbox;
    QTimer m_reapTimer;
    int m_reapTries = 0;
};

} // namespace sandbar
