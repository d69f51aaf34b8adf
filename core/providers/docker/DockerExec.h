#pragma once

#include "providers/Jobs.h"
#include "providers/Session.h"
#include "providers/docker/DockerApi.h"
#include "providers/docker/DockerParsers.h"
#include "terminal/PtyChannel.h"

#include <QPointer>

class QIODevice;

namespace sandbar::docker {

// A command without a terminal: a Tty=false exec whose multiplexed output is demuxed.
// Stdin comes from request.stdinData or, for large inputs, a device streamed with
// back-pressure; either is followed by a half-close so the command sees EOF.
//
// Ending it: the Engine API (and Podman's compat API) has no call to kill an exec, and dropping
// the connection leaves the command running. So every exec carries a random tag in its
// environment (SANDBAR_EXEC_TAG), which its children inherit, and cancel(), the idle timeout,
// a broken stream or destroying the job while it runs start a second exec in the container
// that finds the tagged processes in /proc and sends TERM to each and its process group, then
// KILL after a 2 s grace. finished (Cancelled) comes once that is done and says what it did.
// That second exec needs sh and grep in the container (busybox has both); without them the
// answer says the processes may still run.
class DockerExecJob : public ExecJob
{
    Q_OBJECT
public:
    DockerExecJob(DockerApi *api, QString containerId, ExecRequest request, QObject *parent = nullptr);
    ~DockerExecJob() override;

    // Not owned; must outlive the job. Replaces request.stdinData.
    void setStdinDevice(QIODevice *device) { m_stdinDevice = device; }
    // Gives up when no output arrives for this long (0 = never).
    void setIdleTimeout(std::chrono::milliseconds timeout) { m_idle = timeout; }

    void start() override;
    void cancel() override;

Q_SIGNALS:
    void stdinProgress(qint64 written);

private:
    void onUpgraded();
    void pumpStdin();
    void finish(Result<int> result);
    // Kills what is left of the command, then finishes with why plus what became of it.
    void endProcesses(const Error &why);

    // The second exec; done gets how many processes it signalled. Runs on even when the job
    // that asked is gone (it belongs to the api).
    static void reap(DockerApi *api, const QString &containerId, const QString &user, const QString &tag,
                     Callback<int> done);

    QString m_tag;
    bool m_isReaper = false; // the killing exec is not tagged, so not killed in turn

    QPointer<DockerApi> m_api;
    QString m_containerId;
    ExecRequest m_request;
    QIODevice *m_stdinDevice = nullptr;
    std::chrono::milliseconds m_idle{0};
    QString m_execId;
    net::HttpExchange *m_exchange = nullptr;
    StreamDemuxer m_demux;
    QByteArray m_errorBody;
    qint64 m_stdinWritten = 0;
    bool m_stdinClosed = false;
    bool m_startSent = false; // from here on a process may run in the container
    bool m_ending = false;
    bool m_done = false;
};

// Bounds for runExec where the container's answer is small by design: the container may run
// anything under the command's name. Zero means no bound.
struct RunExecLimits {
    qsizetype maxOutputBytes = 0; // stdout and stderr together; past it the command is ended
    std::chrono::milliseconds idle{0};
};

// Collects an exec's output; for the provider's own small commands. Past limits.maxOutputBytes
// the command is cancelled and done gets an Internal error.
void runExec(DockerApi *api, const QString &containerId, const ExecRequest &request, Callback<ExecOutput> done,
             RunExecLimits limits = {});

// An interactive terminal: a Tty=true exec on a hijacked connection.
class DockerPtyChannel : public PtyChannel
{
    Q_OBJECT
public:
    DockerPtyChannel(DockerApi *api, QString containerId, PtyOptions options, QObject *parent = nullptr);
    ~DockerPtyChannel() override;

    void start() override;
    void write(const QByteArray &bytes) override;
    void resize(int cols, int rows) override;
    void close() override;
    bool isOpen() const override { return m_open; }
    std::optional<int> exitCode() const override { return m_exitCode; }
    void setReadingPaused(bool paused) override;
    bool deliverNow() override { return m_exchange && m_exchange->pollNow(); }

private:
    void sendResize(int attempt);
    void fail(const Error &error);

    QPointer<DockerApi> m_api;
    QString m_containerId;
    PtyOptions m_options;
    QString m_execId;
    net::HttpExchange *m_exchange = nullptr;
    QByteArray m_errorBody;
    bool m_open = false;
    bool m_ended = false;
    bool m_readingPaused = false;
    std::optional<int> m_exitCode;
    int m_cols = 80, m_rows = 24;
    int m_resizeGeneration = 0;
    bool m_resizeInFlight = false;
};

} // namespace sandbar::docker
