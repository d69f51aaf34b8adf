#pragma once

#include "terminal/PtyChannel.h"

#include <QProcessEnvironment>
#include <QSocketNotifier>
#include <QStringList>
#include <QTimer>
#include <memory>

namespace sandbar {

// A local program on a pseudo-terminal made with forkpty(). The master side is non-blocking
// and watched with QSocketNotifier; resize sets TIOCSWINSZ (the kernel sends SIGWINCH);
// close() hangs up (SIGHUP); the exit status comes from waitpid.
class ForkPtyChannel : public PtyChannel
{
    Q_OBJECT
public:
    explicit ForkPtyChannel(QString program, QStringList arguments = {}, QObject *parent = nullptr);
    ~ForkPtyChannel() override;

    // Variables set (or, with an empty value, removed) in the child's environment, on top
    // of this process's; TERM defaults to xterm-256color.
    void setEnvironment(const QProcessEnvironment &env) { m_env = env; }
    void setWorkingDirectory(const QString &dir) { m_workDir = dir; }
    void setInitialSize(int cols, int rows);

    void start() override;
    void write(const QByteArray &bytes) override;
    void resize(int cols, int rows) override;
    void close() override;
    void setReadingPaused(bool paused) override;
    bool isOpen() const override { return m_fd >= 0; }
    std::optional<int> exitCode() const override { return m_exitCode; }
    qint64 pid() const { return m_pid; }

private:
    void onReadable();
    void onWritable();
    void hangUp(); // the master side is done: stop watching, then reap the child
    void tryReap();
    void closeFd();

    QString m_program;
    QStringList m_arguments;
    QProcessEnvironment m_env;
    QString m_workDir;
    int m_cols = 80;
    int m_rows = 24;
    int m_fd = -1;
    qint64 m_pid = -1;
    std::optional<int> m_exitCode;
    bool m_finished = false;
    std::unique_ptr<QSocketNotifier> m_readNotifier;
    std::unique_ptr<QSocketNotifier> m_writeNotifier;
    QByteArray m_outbox;
    QTimer m_reapTimer;
    int m_reapTries = 0;
};

} // namespace sandbar
