#include "providers/docker/DockerExec.h"

#include "providers/ExecReaper.h"
#include "providers/docker/JsonFields.h"

#include <QIODevice>
#include <QRandomGenerator>
#include <QTimer>
#include <nlohmann/json.hpp>

namespace sandbar::docker {

using nlohmann::json;

namespace {
constexpr qint64 kStdinHighWater = 1024 * 1024;
constexpr qint64 kStdinChunk = 256 * 1024;

// An answer that was not an upgrade (404, 409, 500...) as an Error.
Error startError(int status, const QByteArray &body, const QString &containerId)
{
    if (status == 404)
        return DockerApi::sessionGone(containerId);
    if (status == 409)
        return makeError(ErrorCode::Conflict,
                         QCoreApplication::translate("sandbar::docker", "session %1 is not running (%2)")
                             .arg(containerId.left(12), engineMessage(body)));
    return errorFromStatus(status, body, QCoreApplication::translate("sandbar::docker", "Starting a command failed"));
}
} // namespace

DockerExecJob::DockerExecJob(DockerApi *api, QString containerId, ExecRequest request, QObject *parent)
    : ExecJob(parent)
    , m_api(api)
    , m_containerId(std::move(containerId))
    , m_request(std::move(request))
{
}

DockerExecJob::~DockerExecJob()
{
    // Gone with its owner (an MCP call that ended, a closed window): the command would otherwise
    // run on unseen.
    if (m_startSent && !m_done && !m_ending && !m_isReaper && m_api)
        reap(m_api, m_containerId, m_request.user, m_tag, {});
}

void DockerExecJob::start()
{
    if (!m_api)
        return finish(makeError(ErrorCode::Unavailable, tr("The provider is gone.")));
    if (m_request.argv.isEmpty())
        return finish(makeError(ErrorCode::InvalidArgument, tr("No command to run.")));
    const bool withStdin = m_stdinDevice || !m_request.stdinData.isEmpty();
    json body{{"AttachStdin", withStdin},
              {"AttachStdout", true},
              {"AttachStderr", true},
              {"Tty", false},
              {"Cmd", jsonStrings(m_request.argv)}};
    QStringList env = m_request.env;
    if (!m_isReaper) {
        m_tag = execreaper::newTag();
        env << execreaper::tagEntry(m_tag);
    }
    if (!env.isEmpty())
        body["Env"] = jsonStrings(env);
    if (!m_request.workingDir.isEmpty())
        body["WorkingDir"] = m_request.workingDir.toStdString();
    if (!m_request.user.isEmpty())
        body["User"] = m_request.user.toStdString();
    m_api->createExec(
        m_containerId, jsonBytes(body), Callback<QString>(this, [this](Result<QString> id) {
            // Cancelled while the exec was being made: it is never started.
            if (m_done || m_ending)
                return;
            if (!id)
                return finish(id.error());
            m_execId = *id;
            m_startSent = true;
            auto req = m_api->request("POST", "/exec/" + DockerApi::enc(m_execId) + "/start",
                                      R"({"Detach":false,"Tty":false})");
            req.upgrade = true;
            req.idleTimeout = m_idle;
            m_exchange = m_api->exchange(req, this);
            connect(m_exchange, &net::HttpExchange::headersReceived, this, [this] {
                if (m_exchange->isUpgraded())
                    onUpgraded();
            });
            connect(m_exchange, &net::HttpExchange::bodyData, this,
                    [this](const QByteArray &b) { m_errorBody += b.left(4096); });
            connect(m_exchange, &net::HttpExchange::rawData, this, [this](const QByteArray &b) {
                auto chunks = m_demux.feed(b);
                if (!chunks) {
                    // The stream's own error, not the abort's "cancelled".
                    m_exchange->disconnect(this);
                    m_exchange->abort();
                    return endProcesses(chunks.error());
                }
                for (const auto &c : *chunks) {
                    if (c.stream == 2)
                        Q_EMIT stderrData(c.data);
                    else
                        Q_EMIT stdoutData(c.data);
                }
            });
            connect(m_exchange, &net::HttpExchange::bytesWritten, this, [this] { pumpStdin(); });
            connect(m_exchange, &net::HttpExchange::finished, this, [this](const VoidResult &r) {
                if (m_done || m_ending)
                    return;
                if (!m_exchange->isUpgraded()) {
                    if (!r)
                        return finish(r.error());
                    return finish(startError(m_exchange->response().status, m_errorBody, m_containerId));
                }
                // The idle timeout or a broken connection: the command may run on.
                if (!r)
                    return endProcesses(r.error());
                if (m_demux.midFrame())
                    return endProcesses(
                        makeError(ErrorCode::Unavailable, tr("The command's output ended in the middle of a frame.")));
                m_api->execExitCode(m_execId, Callback<int>(this, [this](Result<int> code) { finish(code); }));
            });
            m_exchange->start();
        }));
}

void DockerExecJob::onUpgraded()
{
    if (m_stdinDevice) {
        connect(m_stdinDevice, &QIODevice::readyRead, this, &DockerExecJob::pumpStdin);
        connect(m_stdinDevice, &QIODevice::readChannelFinished, this, &DockerExecJob::pumpStdin);
        pumpStdin();
    } else if (!m_request.stdinData.isEmpty()) {
        m_exchange->write(m_request.stdinData);
        m_stdinWritten = m_request.stdinData.size();
        m_exchange->closeWrite();
        m_stdinClosed = true;
    }
}

void DockerExecJob::pumpStdin()
{
    if (!m_stdinDevice || m_stdinClosed || m_done || !m_exchange || !m_exchange->isUpgraded())
        return;
    while (m_exchange->bytesToWrite() < kStdinHighWater) {
        const QByteArray chunk = m_stdinDevice->read(kStdinChunk);
        if (!chunk.isEmpty()) {
            m_exchange->write(chunk);
            m_stdinWritten += chunk.size();
            Q_EMIT stdinProgress(m_stdinWritten);
            continue;
        }
        // At the end (or on a read error, which the device's owner reports) the command
        // gets EOF; otherwise more comes with the device's readyRead.
        if (m_stdinDevice->atEnd() || !m_stdinDevice->isOpen()) {
            m_exchange->closeWrite();
            m_stdinClosed = true;
        }
        return;
    }
}

void DockerExecJob::cancel()
{
    if (m_done || m_ending)
        return;
    if (m_exchange) {
        m_exchange->disconnect(this);
        m_exchange->abort();
    }
    endProcesses(makeError(ErrorCode::Cancelled, tr("The command was cancelled.")));
}

void DockerExecJob::endProcesses(const Error &why)
{
    if (m_done || m_ending)
        return;
    if (!m_startSent || !m_api || m_isReaper)
        return finish(why);
    m_ending = true;
    if (m_exchange) {
        m_exchange->disconnect(this);
        m_exchange->abort();
    }
    reap(m_api, m_containerId, m_request.user, m_tag, Callback<int>(this, [this, why](Result<int> signalled) {
             QString what;
             if (signalled && *signalled > 0)
                 what = tr("Its processes in the session were killed.");
             else if (signalled)
                 what = tr("None of its processes was still running in the session.");
             else
                 what = tr("Its processes could not be killed and may still run: %1").arg(signalled.message());
             m_ending = false;
             finish(makeError(why.code, why.message + QLatin1Char(' ') + what));
         }));
}

void DockerExecJob::reap(DockerApi *api, const QString &containerId, const QString &user, const QString &tag,
                         Callback<int> done)
{
    ExecRequest req;
    req.argv = execreaper::argv(tag);
    // As the command's user: reading another user's /proc/PID/environ takes CAP_SYS_PTRACE,
    // which containers do not have by default.
    req.user = user;
    auto *job = new DockerExecJob(api, containerId, req, api);
    job->m_isReaper = true;
    // Its own bound: 5 s of signals plus the round trips; a wedged engine must not keep it.
    job->setIdleTimeout(std::chrono::seconds(30));
    auto out = std::make_shared<QByteArray>();
    connect(job, &ExecJob::stdoutData, job, [out](const QByteArray &b) { out->append(b.left(4096)); });
    connect(job, &ExecJob::stderrData, job, [out](const QByteArray &b) { out->append(b.left(4096)); });
    connect(job, &ExecJob::finished, job, [job, out, done](const Result<int> &code) {
        job->deleteLater();
        // A container that is gone has no process of the command left either. One that is not
        // running (Conflict) may be paused with the command frozen in it: that is said as is.
        if (!code && code.code() == ErrorCode::NotFound)
            return done(0);
        if (!code)
            return done(code.error());
        const Result<int> n = execreaper::outcome(*code, QString::fromUtf8(out->left(4096)));
        if (!n)
            return done(n.error());
        done(n.value());
    });
    job->start();
}

void DockerExecJob::finish(Result<int> result)
{
    if (m_done)
        return;
    m_done = true;
    Q_EMIT finished(result);
}

void runExec(DockerApi *api, const QString &containerId, const ExecRequest &request, Callback<ExecOutput> done,
             RunExecLimits limits)
{
    auto *job = new DockerExecJob(api, containerId, request, done.context());
    if (limits.idle.count() > 0)
        job->setIdleTimeout(limits.idle);
    auto out = std::make_shared<ExecOutput>();
    auto tooMuch = std::make_shared<bool>(false);
    const auto keep = [job, out, tooMuch, max = limits.maxOutputBytes](QByteArray *into, const QByteArray &b) {
        if (*tooMuch)
            return;
        into->append(b);
        if (max > 0 && out->stdoutData.size() + out->stderrData.size() > max) {
            *tooMuch = true;
            job->cancel();
        }
    };
    QObject::connect(job, &ExecJob::stdoutData, job, [keep, out](const QByteArray &b) { keep(&out->stdoutData, b); });
    QObject::connect(job, &ExecJob::stderrData, job, [keep, out](const QByteArray &b) { keep(&out->stderrData, b); });
    QObject::connect(
        job, &ExecJob::finished, job,
        [job, out, tooMuch, done, limits, name = request.argv.value(0)](const Result<int> &code) {
            job->deleteLater();
            if (*tooMuch)
                return done(makeError(ErrorCode::Internal,
                                      DockerExecJob::tr("The command `%1` answered more than %2 bytes; it was ended.")
                                          .arg(name)
                                          .arg(limits.maxOutputBytes)));
            if (!code)
                return done(code.error());
            out->exitCode = *code;
            done(*out);
        });
    job->start();
}

// ---- PTY -----------------------------------------------------------------------------------

DockerPtyChannel::DockerPtyChannel(DockerApi *api, QString containerId, PtyOptions options, QObject *parent)
    : PtyChannel(parent)
    , m_api(api)
    , m_containerId(std::move(containerId))
    , m_options(std::move(options))
    , m_cols(m_options.cols)
    , m_rows(m_options.rows)
{
}

DockerPtyChannel::~DockerPtyChannel() = default;

void DockerPtyChannel::fail(const Error &error)
{
    if (m_ended)
        return;
    m_ended = true;
    m_open = false;
    Q_EMIT errorOccurred(error);
}

void DockerPtyChannel::start()
{
    if (!m_api)
        return fail(makeError(ErrorCode::Unavailable, tr("The provider is gone.")));
    m_api->ensureReady(Callback<EngineInfo>(this, [this](Result<EngineInfo> engine) {
        if (!engine)
            return fail(engine.error());
        const bool consoleSize = engine->api >= ApiVersion{1, 42};
        const QStringList argv = m_options.argv.isEmpty() ? QStringList{QStringLiteral("/bin/sh")} : m_options.argv;
        json body{{"AttachStdin", true},
                  {"AttachStdout", true},
                  {"AttachStderr", true},
                  {"Tty", true},
                  {"Cmd", jsonStrings(argv)},
                  {"Env", jsonStrings(QStringList{QStringLiteral("TERM=xterm-256color")} + m_options.env)}};
        if (!m_options.workingDir.isEmpty())
            body["WorkingDir"] = m_options.workingDir.toStdString();
        if (consoleSize)
            body["ConsoleSize"] = {m_rows, m_cols};
        m_api->createExec(
            m_containerId, jsonBytes(body), Callback<QString>(this, [this, consoleSize](Result<QString> id) {
                if (!id)
                    return fail(id.error());
                m_execId = *id;
                json start{{"Detach", false}, {"Tty", true}};
                if (consoleSize)
                    start["ConsoleSize"] = {m_rows, m_cols};
                auto req = m_api->request("POST", "/exec/" + DockerApi::enc(m_execId) + "/start", jsonBytes(start));
                req.upgrade = true;
                m_exchange = m_api->exchange(req, this);
                m_exchange->setReadingPaused(m_readingPaused);
                connect(m_exchange, &net::HttpExchange::headersReceived, this, [this, consoleSize] {
                    if (!m_exchange->isUpgraded())
                        return;
                    m_open = true;
                    Q_EMIT started();
                    if (!consoleSize)
                        sendResize(0);
                });
                connect(m_exchange, &net::HttpExchange::bodyData, this,
                        [this](const QByteArray &b) { m_errorBody += b.left(4096); });
                connect(m_exchange, &net::HttpExchange::rawData, this, [this](const QByteArray &b) {
                    if (!m_ended)
                        Q_EMIT dataReceived(b);
                });
                connect(m_exchange, &net::HttpExchange::finished, this, [this](const VoidResult &r) {
                    if (m_ended)
                        return;
                    m_open = false;
                    if (!m_exchange->isUpgraded())
                        return fail(r ? startError(m_exchange->response().status, m_errorBody, m_containerId)
                                      : r.error());
                    if (!r && r.code() == ErrorCode::Cancelled)
                        return fail(makeError(ErrorCode::Cancelled,
                                              tr("The terminal was closed; its program did not end on hang-up.")));
                    if (!r)
                        return fail(r.error());
                    m_api->execExitCode(m_execId, Callback<int>(this, [this](Result<int> code) {
                                            if (!code)
                                                return fail(code.error());
                                            m_exitCode = *code;
                                            m_ended = true;
                                            Q_EMIT finished(*code);
                                        }));
                });
                m_exchange->start();
            }));
    }));
}

void DockerPtyChannel::setReadingPaused(bool paused)
{
    // A flood the terminal cannot parse fast enough stays in the engine (and the program
    // blocks on its full PTY) instead of in this process.
    m_readingPaused = paused;
    if (m_exchange)
        m_exchange->setReadingPaused(paused);
}

void DockerPtyChannel::write(const QByteArray &bytes)
{
    if (m_open && m_exchange)
        m_exchange->write(bytes);
}

void DockerPtyChannel::resize(int cols, int rows)
{
    if (cols <= 0 || rows <= 0)
        return;
    m_cols = cols;
    m_rows = rows;
    ++m_resizeGeneration;
    if (m_open)
        sendResize(0);
}

void DockerPtyChannel::sendResize(int attempt)
{
    if (!m_api || m_execId.isEmpty() || m_ended)
        return;
    // One resize on the wire at a time: an engine serves each request on its own connection
    // and may apply two in either order (Podman does under load), so an older size could
    // land last and stay. The reply of the one in flight sends the newest size if it moved.
    if (m_resizeInFlight)
        return;
    m_resizeInFlight = true;
    const int generation = m_resizeGeneration;
    const QByteArray path = "/exec/" + DockerApi::enc(m_execId) + "/resize?h=" + QByteArray::number(m_rows) +
                            "&w=" + QByteArray::number(m_cols);
    m_api->call("POST", path, {},
                Callback<net::HttpResponse>(this, [this, attempt, generation](Result<net::HttpResponse> r) {
                    m_resizeInFlight = false;
                    if (m_ended)
                        return;
                    if (generation != m_resizeGeneration)
                        return sendResize(0);
                    if (r && r->isSuccess())
                        return;
                    // Right after start the engine may not have wired the TTY yet (docker CLI retries
                    // too), and a busy engine may fail a call: tries for about 5 s, backing off.
                    if (attempt < 9)
                        QTimer::singleShot(10 << attempt, this, [this, attempt] { sendResize(attempt + 1); });
                }));
}

void DockerPtyChannel::close()
{
    if (!m_exchange || m_ended)
        return;
    // EOF on the terminal's input ends an interactive shell; a program that ignores it is
    // cut off when the connection goes.
    m_exchange->write(QByteArray("\x04", 1));
    m_exchange->closeWrite();
    QTimer::singleShot(2000, this, [this] {
        if (!m_ended && m_exchange)
            m_exchange->abort();
    });
}

} // namespace sandbar::docker
