#pragma once

#include "providers/Jobs.h"
#include "providers/Session.h"

#include <QPointer>
#include <functional>
#include <memory>

class QTimer;

namespace sandbar::daytona {

class DaytonaProvider;

// A transfer whose real job can only be made after a call of its own (the toolbox address,
// whether a remote path is a folder): make() runs on start() and hands the job over, or an
// error. Progress and the end are the inner job's.
class DeferredTransferJob : public TransferJob
{
    Q_OBJECT
public:
    using Ready = std::function<void(Result<std::shared_ptr<TransferJob>>)>;
    using Maker = std::function<void(QObject *context, Ready ready)>;

    explicit DeferredTransferJob(Maker make, QObject *parent = nullptr);
    void start() override;
    void cancel() override;

private:
    void finish(VoidResult result);

    Maker m_make;
    std::shared_ptr<TransferJob> m_inner;
    bool m_cancelled = false;
    bool m_done = false;
};

// process/execute: one request, the combined output in `result` (Daytona does not separate
// stderr), the exit code. Stdin is fed through the shell from a base64 literal.
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
    bool m_done = false;
};

} // namespace sandbar::daytona
