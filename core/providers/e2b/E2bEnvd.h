#pragma once

// envd, the daemon inside every E2B sandbox: processes over Connect-RPC (JSON), files over
// plain HTTP. One EnvdTarget says where a sandbox's envd is and what it needs to hear.

#include "cloud/CloudClient.h"
#include "net/ConnectEnvelope.h"
#include "net/HttpClient.h"
#include "providers/Jobs.h"
#include "providers/Session.h"
#include "terminal/PtyChannel.h"

#include <QJsonObject>
#include <QPointer>
#include <QQueue>
#include <functional>

namespace sandbar::e2b {

inline constexpr int kEnvdPort = 49983;

struct EnvdTarget {
    QUrl base;                 // https://49983-ID.DOMAIN, or the account's shared sandbox URL
    cloud::HeaderList headers; // E2b-Sandbox-Id/Port on a shared host, X-Access-Token, the user
    QString user;

    QUrl url(const QString &path) const;
    // envd's /files for a path in the sandbox, as the account's user (uploads and downloads).
    QUrl filesUrl(const QString &remotePath) const;
};

// Finds where a sandbox's envd is (its domain and access token may need a control-plane
// call first); streams and jobs ask it when they start.
using EnvdResolver = std::function<void(Callback<EnvdTarget> done)>;

// A unary Connect call (process.Process/SendInput, filesystem.Filesystem/ListDir, ...): JSON
// in, JSON out, Connect's error body mapped to Sandbar's codes.
void envdUnary(cloud::CloudClient *client, const EnvdTarget &target, const QString &method, const QJsonObject &body,
               Callback<QByteArray> done, bool idempotent = false);

// One process.Process Start or Connect stream: the request is one envelope, the reply a
// sequence of them; events are parsed as they arrive. Keystrokes and resizes go through
// unary calls, one at a time in order (SendInput never overtakes an earlier SendInput), the
// input that arrives while one is in flight coalesced into the next.
class ProcessStream : public QObject
{
    Q_OBJECT
public:
    // attachPid > 0: Connect to that running process instead of starting one.
    ProcessStream(cloud::CloudClient *client, EnvdResolver resolve, QJsonObject startRequest, qint64 attachPid,
                  bool pty, QObject *parent = nullptr);
    ~ProcessStream() override;

    void start();
    void sendInput(const QByteArray &bytes);
    void closeStdin();
    void resize(int cols, int rows);
    void signal(const QString &signalName); // "SIGNAL_SIGKILL", "SIGNAL_SIGTERM"
    void abort();                           // drops the stream; the process lives on
    // Back-pressure from a reader that falls behind: the stream is not read meanwhile.
    void setReadingPaused(bool paused);
    bool pollNow() { return m_exchange && m_exchange->pollNow(); } // see HttpExchange::pollNow
    qint64 pid() const { return m_pid; }
    bool isRunning() const { return m_exchange != nullptr && !m_ended; }

Q_SIGNALS:
    void started(qint64 pid);
    void output(const QByteArray &bytes, int stream);
    void ended(int exitCode);
    void failed(const sandbar::Error &error);

private:
    void begin();
    void onBody(const QByteArray &bytes);
    void onFinished(const VoidResult &result);
    void handle(const net::connect::Envelope &envelope);
    void fail(const Error &error);
    void pumpInput();
    void pumpResize();
    QJsonObject selector() const;

    QPointer<cloud::CloudClient> m_client;
    EnvdResolver m_resolve;
    EnvdTarget m_target;
    QJsonObject m_startRequest;
    bool m_pty = false;
    QPointer<net::HttpExchange> m_exchange;
    QUrl m_url;
    int m_status = 0;
    QByteArray m_errorBody;
    bool m_readingPaused = false;
    net::connect::EnvelopeDecoder m_decoder;
    qint64 m_pid = 0;
    bool m_ended = false;
    QByteArray m_pendingInput;
    bool m_inputInFlight = false;
    bool m_closeStdinAfterInput = false;
    std::optional<std::pair<int, int>> m_pendingSize;
    bool m_resizeInFlight = false;
};

class E2bPtyChannel : public PtyChannel
{
    Q_OBJECT
public:
    E2bPtyChannel(cloud::CloudClient *client, EnvdResolver resolve, const PtyOptions &options,
                  QObject *parent = nullptr);
    void start() override;
    void write(const QByteArray &bytes) override;
    void resize(int cols, int rows) override;
    void close() override;
    bool isOpen() const override;
    std::optional<int> exitCode() const override { return m_exitCode; }
    void setReadingPaused(bool paused) override { m_stream->setReadingPaused(paused); }
    bool deliverNow() override { return m_stream->pollNow(); }

private:
    ProcessStream *m_stream = nullptr;
    std::optional<int> m_exitCode;
};

class E2bExecJob : public ExecJob
{
    Q_OBJECT
public:
    E2bExecJob(cloud::CloudClient *client, EnvdResolver resolve, const ExecRequest &request, QObject *parent = nullptr);
    void start() override;
    void cancel() override;

private:
    ProcessStream *m_stream = nullptr;
    QByteArray m_stdin;
    bool m_done = false;
};

// The Start request of a process: argv[0] is the command; a shell when argv is empty.
QJsonObject startRequest(const QStringList &argv, const QStringList &env, const QString &cwd,
                         std::optional<std::pair<int, int>> ptySize);

} // namespace sandbar::e2b
