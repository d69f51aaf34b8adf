#pragma once

#include "providers/Jobs.h"
#include "providers/Session.h"

#include <QPointer>
#include <functional>
#include <memory>

class QTimer;

namespace sandbar::daytona {

class DaytonaProvider;

// process/execute: one request, the combined output in `result` (Daytona does not separate
// stderr), the exit code. Stdin is fed through the shell from a base64 literal.
// The toolbox's process/execute has no call to stop it, and dropping the request leaves the
// command running: cancel() ends it with a second execute that kills the processes carrying the
// command's tag (providers/ExecReaper.h), then finishes (Cancelled) saying what it did.
class DaytonaExecJob : public ExecJob
{
    Q_OBJECT
public:
    DaytonaExecJob(DaytonaProvider *provider, QString sessionId, ExecRequest request, QObject *parent = nullptr);
    void start() override;
    void cancel() override;

    // The command line sent for request (argv quoted; env, working folder and stdin folded in).
    static QString commandLine(const ExecRequest &request);

private:
    QPointer<DaytonaProvider> m_provider;
    QString m_sessionId;
    ExecRequest m_request;
    QString m_tag; // in the command's environment once sent
    bool m_done = false;
};

} // namespace sandbar::daytona
