#pragma once

#include "terminal/PtyChannel.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <memory>

namespace sandbar {

// A program on this machine's own pseudo-terminal: the platform-neutral face of a local
// terminal. Each platform has its variant in a folder of its own (posix/ForkPtyChannel with
// forkpty(); windows/ is where a ConPTY one goes, see its README) and makeLocalPtyChannel()
// is the one place that names it.
class LocalPtyChannel : public PtyChannel
{
    Q_OBJECT
public:
    // Variables set (or, with an empty value, removed) in the child's environment, on top
    // of this process's; TERM defaults to xterm-256color. Read by start().
    void setEnvironment(const QProcessEnvironment &env) { m_env = env; }
    void setWorkingDirectory(const QString &dir) { m_workDir = dir; }
    void setInitialSize(int cols, int rows)
    {
        m_cols = qMax(1, cols);
        m_rows = qMax(1, rows);
    }
    // The program's process id once started, -1 before.
    virtual qint64 pid() const = 0;

protected:
    LocalPtyChannel(QString program, QStringList arguments, QObject *parent)
        : PtyChannel(parent)
        , m_program(std::move(program))
        , m_arguments(std::move(arguments))
    {
    }

    QString m_program;
    QStringList m_arguments;
    QProcessEnvironment m_env;
    QString m_workDir;
    int m_cols = 80;
    int m_rows = 24;
};

// The local pseudo-terminal of this platform, not yet started. Defined by the platform's
// folder (posix/ForkPtyChannel.cpp); see PORTING.md for the platforms that have none yet.
std::unique_ptr<LocalPtyChannel> makeLocalPtyChannel(QString program, QStringList arguments = {},
                                                     QObject *parent = nullptr);

} // namespace sandbar
