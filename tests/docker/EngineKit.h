#pragma once
// Helpers shared by the Docker and Podman integration tests (tests/podman includes this).

#include "TestSupport.h"
#include "net/HttpClient.h"
#include "providers/docker/DockerFactory.h"
#include "providers/docker/DockerProvider.h"
#include "terminal/PtyChannel.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTest>
#include <memory>

namespace sandbar::test {

inline std::unique_ptr<Provider> makeEngineProvider(docker::Flavour flavour, const QString &endpoint,
                                                    const QString &account = QStringLiteral("test"))
{
    docker::DockerFactory factory(flavour);
    AccountConfig acct;
    acct.name = account;
    acct.provider = factory.descriptor().id;
    acct.settings.insert(QStringLiteral("endpoint"), endpoint);
    auto p = factory.create(acct);
    if (!p)
        return nullptr;
    return std::move(p.value());
}

// One raw request to an engine (endpoint as in DOCKER_HOST), for what the provider does not
// do: loading, saving and building images. A body is sent as a tar.
inline Result<net::HttpResponse> engineRequest(const QString &endpoint, const QByteArray &method,
                                               const QByteArray &target, const QByteArray &body = {},
                                               int timeoutMs = 30000)
{
    auto ep = net::Endpoint::parse(endpoint);
    if (!ep)
        return ep.error();
    net::HttpClient client(*ep);
    net::HttpRequest req;
    req.method = method;
    req.target = target;
    req.body = body;
    if (!body.isEmpty())
        req.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/x-tar")));
    req.responseTimeout = std::chrono::milliseconds(timeoutMs);
    return await<net::HttpResponse>([&](auto cb) { client.request(req, cb); }, timeoutMs + 5000);
}

struct ExecResult {
    std::optional<Result<int>> code;
    QByteArray out, err;
};

inline ExecResult runJob(ExecJob *job, int timeoutMs = 30000)
{
    ExecResult r;
    QObject::connect(job, &ExecJob::stdoutData, job, [&r](const QByteArray &b) { r.out += b; });
    QObject::connect(job, &ExecJob::stderrData, job, [&r](const QByteArray &b) { r.err += b; });
    QObject::connect(job, &ExecJob::finished, job, [&r](const Result<int> &c) { r.code = c; });
    job->start();
    waitUntil([&] { return r.code.has_value(); }, timeoutMs);
    return r;
}

inline ExecResult runIn(Provider *p, const QString &id, const QStringList &argv, const QByteArray &stdinData = {},
                        int timeoutMs = 30000)
{
    ExecRequest req;
    req.argv = argv;
    req.stdinData = stdinData;
    auto job = p->commands()->exec(id, req);
    return runJob(job.get(), timeoutMs);
}

inline VoidResult runTransfer(TransferJob *job, int timeoutMs = 60000, qint64 *lastDone = nullptr)
{
    std::optional<VoidResult> result;
    QObject::connect(job, &TransferJob::finished, job, [&](const VoidResult &r) { result = r; });
    QObject::connect(job, &TransferJob::progress, job, [&](qint64 done, qint64) {
        if (lastDone)
            *lastDone = done;
    });
    job->start();
    if (!waitUntil([&] { return result.has_value(); }, timeoutMs))
        return makeError(ErrorCode::Timeout, QStringLiteral("transfer did not finish"));
    return *result;
}

// Types into a PTY and waits for text in its output.
struct PtyProbe {
    QByteArray output;
    std::optional<int> finishedCode;
    std::optional<Error> error;
    bool started = false;

    void attach(PtyChannel *pty)
    {
        QObject::connect(pty, &PtyChannel::started, pty, [this] { started = true; });
        QObject::connect(pty, &PtyChannel::dataReceived, pty, [this](const QByteArray &b) { output += b; });
        QObject::connect(pty, &PtyChannel::finished, pty, [this](int c) { finishedCode = c; });
        QObject::connect(pty, &PtyChannel::errorOccurred, pty, [this](const Error &e) { error = e; });
    }
    bool waitFor(const QByteArray &text, int timeoutMs = 15000)
    {
        return waitUntil([&] { return output.contains(text) || error.has_value(); }, timeoutMs) &&
               output.contains(text);
    }
};

// A stats stream, a terminal and a running command (`sleep 30`) into one session, each seen
// working: what an engine's death must end. Stays where it was opened (its slots hold it).
struct LiveStreams {
    std::unique_ptr<StatsStream> stream;
    std::unique_ptr<PtyChannel> pty;
    std::unique_ptr<ExecJob> job;
    PtyProbe probe;
    int samples = 0;
    std::optional<Error> streamError;
    std::optional<Result<int>> jobResult;

    // False, with what did not start in *why, when one of them is not working in time.
    bool open(Provider *p, const QString &id, QString *why)
    {
        stream = p->statistics()->streamStats(id);
        QObject::connect(stream.get(), &StatsStream::sample, stream.get(), [this](const StatsSample &) { ++samples; });
        QObject::connect(stream.get(), &StatsStream::errorOccurred, stream.get(),
                         [this](const Error &e) { streamError = e; });
        stream->start();
        pty = p->terminals()->openPty(id, {});
        probe.attach(pty.get());
        pty->start();
        ExecRequest sleeper;
        sleeper.argv = QStringList{QStringLiteral("sleep"), QStringLiteral("30")};
        job = p->commands()->exec(id, sleeper);
        QObject::connect(job.get(), &ExecJob::finished, job.get(), [this](const Result<int> &r) { jobResult = r; });
        job->start();
        if (!waitUntil([&] { return samples >= 1 && probe.started; }, 20000)) {
            *why = QStringLiteral("no statistics or no terminal within 20 s");
            return false;
        }
        pty->write("echo alive-$((1+1))\n");
        if (!probe.waitFor("alive-2")) {
            *why = QStringLiteral("the terminal does not answer: ") + QString::fromUtf8(probe.output);
            return false;
        }
        // The sleeper's exec has started once its process shows in the container.
        if (!waitUntil(
                [&] {
                    pty->write("ps | grep -q \"[s]leep 30\" && echo sleeper-$((2+2))\n");
                    return probe.waitFor("sleeper-4", 500);
                },
                30000)) {
            *why = QStringLiteral("the command did not start: ") + QString::fromUtf8(probe.output);
            return false;
        }
        return true;
    }
};

// Whether the engine at endpoint answers /_ping once its socket file exists, within timeoutMs.
inline bool waitForEngine(const QString &endpoint, const QString &socketPath, int timeoutMs)
{
    return waitUntil(
        [&] {
            if (!QFile::exists(socketPath))
                return false;
            auto r = engineRequest(endpoint, "GET", "/_ping", {}, 1000);
            return r.ok() && r->status == 200;
        },
        timeoutMs);
}

} // namespace sandbar::test
