#include "providers/e2b/E2bEnvd.h"

#include "cloud/ServiceUrl.h"
#include "providers/e2b/E2bParsers.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrlQuery>

namespace sandbar::e2b {

namespace {
const QString kEnvdService = QStringLiteral("E2B envd");
} // namespace

QUrl EnvdTarget::url(const QString &path) const
{
    return cloud::joinUrl(base, path);
}

QUrl EnvdTarget::filesUrl(const QString &remotePath) const
{
    QUrl u = url(QStringLiteral("/files"));
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("path"), QString::fromLatin1(QUrl::toPercentEncoding(remotePath)));
    q.addQueryItem(QStringLiteral("username"), QString::fromLatin1(QUrl::toPercentEncoding(user)));
    u.setQuery(q);
    return u;
}

void envdUnary(cloud::CloudClient *client, const EnvdTarget &target, const QString &method, const QJsonObject &body,
               Callback<QByteArray> done, bool idempotent)
{
    cloud::ApiCall call;
    call.method = "POST";
    call.url = target.url(QLatin1Char('/') + method);
    call.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    call.contentType = "application/json";
    call.headers = target.headers;
    call.headers.append({QByteArray("Connect-Protocol-Version"), QByteArray("1")});
    call.authenticate = false; // the account's API key is for the control plane only
    call.idempotent = idempotent;
    // Connect answers errors with a JSON body of its own; map it here rather than by status.
    QList<int> mine;
    for (int s = 400; s < 600; ++s)
        mine << s;
    client->call(std::move(call),
                 Callback<cloud::ApiReply>(client,
                                           [done](Result<cloud::ApiReply> r) {
                                               if (!r.ok())
                                                   return done(r.error());
                                               if (r->status >= 400)
                                                   return done(connectUnaryError(r->status, r->body, kEnvdService));
                                               done(r->body);
                                           }),
                 mine);
}

QJsonObject startRequest(const QStringList &argv, const QStringList &env, const QString &cwd,
                         std::optional<std::pair<int, int>> ptySize)
{
    QJsonObject process;
    if (argv.isEmpty()) {
        process[QStringLiteral("cmd")] = QStringLiteral("/bin/bash");
        process[QStringLiteral("args")] = QJsonArray{QStringLiteral("-i"), QStringLiteral("-l")};
    } else {
        process[QStringLiteral("cmd")] = argv.first();
        process[QStringLiteral("args")] = QJsonArray::fromStringList(argv.mid(1));
    }
    QJsonObject envs;
    if (ptySize) {
        envs[QStringLiteral("TERM")] = QStringLiteral("xterm-256color");
        envs[QStringLiteral("LANG")] = QStringLiteral("C.UTF-8");
    }
    for (const QString &kv : env) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (eq > 0)
            envs[kv.left(eq)] = kv.mid(eq + 1);
    }
    process[QStringLiteral("envs")] = envs;
    if (!cwd.isEmpty())
        process[QStringLiteral("cwd")] = cwd;
    QJsonObject req{{QStringLiteral("process"), process}};
    if (ptySize)
        req[QStringLiteral("pty")] =
            QJsonObject{{QStringLiteral("size"), QJsonObject{{QStringLiteral("cols"), ptySize->first},
                                                             {QStringLiteral("rows"), ptySize->second}}}};
    return req;
}

ProcessStream::ProcessStream(cloud::CloudClient *client, EnvdResolver resolve, QJsonObject startRequest,
                             qint64 attachPid, bool pty, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_resolve(std::move(resolve))
    , m_startRequest(std::move(startRequest))
    , m_pty(pty)
    , m_pid(attachPid)
{
}

ProcessStream::~ProcessStream()
{
    abort();
}

QJsonObject ProcessStream::selector() const
{
    return QJsonObject{{QStringLiteral("pid"), m_pid}};
}

void ProcessStream::start()
{
    if (!m_client)
        return fail(makeError(ErrorCode::Cancelled, tr("The account was closed")));
    m_resolve(Callback<EnvdTarget>(this, [this](Result<EnvdTarget> target) {
        if (!target.ok())
            return fail(target.error());
        m_target = target.value();
        begin();
    }));
}

void ProcessStream::begin()
{
    if (!m_client || m_ended)
        return;
    const bool attach = m_pid > 0;
    const QJsonObject body = attach ? QJsonObject{{QStringLiteral("process"), selector()}} : m_startRequest;
    cloud::HeaderList headers = m_target.headers;
    headers.append({QByteArray("Content-Type"), QByteArray("application/connect+json")});
    headers.append({QByteArray("Connect-Protocol-Version"), QByteArray("1")});
    // envd sends a keepalive event this often (seconds), so a quiet terminal is not a dead one.
    headers.append({QByteArray("Keepalive-Ping-Interval"), QByteArray("30")});
    net::HttpRequest req;
    req.method = "POST";
    req.body = net::connect::encodeEnvelope(QJsonDocument(body).toJson(QJsonDocument::Compact));
    req.connectTimeout = std::chrono::seconds(30);
    req.responseTimeout = std::chrono::seconds(90);
    // Nothing for 90 s (three keepalives missed) means the connection is gone.
    req.idleTimeout = std::chrono::seconds(90);
    m_url =
        m_target.url(attach ? QStringLiteral("/process.Process/Connect") : QStringLiteral("/process.Process/Start"));
    m_status = 0;
    m_errorBody.clear();
    m_exchange = m_client->exchange(cloud::HttpTarget{m_url, headers, false}, std::move(req), this);
    m_exchange->setReadingPaused(m_readingPaused);
    connect(m_exchange, &net::HttpExchange::headersReceived, this,
            [this](const net::HttpResponse &head) { m_status = head.status; });
    connect(m_exchange, &net::HttpExchange::bodyData, this, &ProcessStream::onBody);
    connect(m_exchange, &net::HttpExchange::finished, this, &ProcessStream::onFinished);
    m_exchange->start();
    if (attach)
        QMetaObject::invokeMethod(
            this, [this] { Q_EMIT started(m_pid); }, Qt::QueuedConnection);
}

void ProcessStream::onBody(const QByteArray &bytes)
{
    if (!m_exchange || m_ended)
        return;
    if (m_status >= 400) {
        // Connect's error body, kept for its words.
        if (m_errorBody.size() < 64 * 1024)
            m_errorBody.append(bytes.left(64 * 1024 - m_errorBody.size()));
        return;
    }
    m_decoder.feed(bytes);
    while (!m_ended) {
        auto next = m_decoder.next();
        if (!next)
            break;
        if (!next->ok())
            return fail(next->error());
        handle(next->value());
    }
}

void ProcessStream::handle(const net::connect::Envelope &envelope)
{
    if (envelope.isEndStream()) {
        const VoidResult r = net::connect::parseEndStream(envelope.message);
        if (!r.ok())
            return fail(makeError(r.code(), tr("E2B ended the process stream: %1").arg(r.message())));
        if (!m_ended)
            fail(makeError(ErrorCode::Unavailable, tr("E2B closed the process stream before the process ended")));
        return;
    }
    auto event = parseProcessEvent(envelope.message);
    if (!event.ok())
        return fail(event.error());
    switch (event->kind) {
    case ProcessEvent::Kind::Start:
        m_pid = event->pid;
        Q_EMIT started(m_pid);
        pumpInput();
        pumpResize();
        break;
    case ProcessEvent::Kind::Data: Q_EMIT output(event->data, event->stream); break;
    case ProcessEvent::Kind::End:
        m_ended = true;
        if (!event->error.isEmpty() && !event->exited)
            return Q_EMIT failed(makeError(ErrorCode::Unavailable, tr("The process failed: %1").arg(event->error)));
        Q_EMIT ended(event->exitCode);
        break;
    case ProcessEvent::Kind::Keepalive:
    case ProcessEvent::Kind::Unknown: break;
    }
}

void ProcessStream::onFinished(const VoidResult &result)
{
    if (!m_exchange)
        return;
    net::HttpExchange *ex = m_exchange;
    m_exchange = nullptr;
    ex->disconnect(this);
    ex->deleteLater();
    if (m_ended)
        return;
    if (m_status >= 400)
        return fail(connectUnaryError(m_status, m_errorBody, kEnvdService));
    if (!result.ok())
        return fail(m_client ? m_client->exchangeError(ex, result, m_url) : result.error());
    const VoidResult tail = m_decoder.finish();
    if (!tail.ok())
        return fail(tail.error());
    fail(makeError(ErrorCode::Unavailable, tr("E2B closed the process stream before the process ended")));
}

void ProcessStream::fail(const Error &error)
{
    if (m_ended)
        return;
    m_ended = true;
    abort();
    Q_EMIT failed(error);
}

void ProcessStream::abort()
{
    if (m_exchange) {
        m_exchange->disconnect(this);
        m_exchange->abort();
        m_exchange->deleteLater();
        m_exchange = nullptr;
    }
}

void ProcessStream::setReadingPaused(bool paused)
{
    m_readingPaused = paused;
    if (m_exchange)
        m_exchange->setReadingPaused(paused);
}

void ProcessStream::sendInput(const QByteArray &bytes)
{
    m_pendingInput += bytes;
    pumpInput();
}

void ProcessStream::closeStdin()
{
    m_closeStdinAfterInput = true;
    pumpInput();
}

void ProcessStream::pumpInput()
{
    if (m_inputInFlight || m_pid <= 0 || !m_client)
        return;
    if (m_pendingInput.isEmpty()) {
        if (!m_closeStdinAfterInput)
            return;
        m_closeStdinAfterInput = false;
        m_inputInFlight = true;
        envdUnary(m_client, m_target, QStringLiteral("process.Process/CloseStdin"),
                  QJsonObject{{QStringLiteral("process"), selector()}},
                  Callback<QByteArray>(this, [this](Result<QByteArray> r) {
                      m_inputInFlight = false;
                      if (!r.ok())
                          fail(r.error());
                  }));
        return;
    }
    const QByteArray chunk = m_pendingInput;
    m_pendingInput.clear();
    m_inputInFlight = true;
    const QString field = m_pty ? QStringLiteral("pty") : QStringLiteral("stdin");
    const QJsonObject body{{QStringLiteral("process"), selector()},
                           {QStringLiteral("input"), QJsonObject{{field, QString::fromLatin1(chunk.toBase64())}}}};
    envdUnary(m_client, m_target, QStringLiteral("process.Process/SendInput"), body,
              Callback<QByteArray>(this, [this](Result<QByteArray> r) {
                  m_inputInFlight = false;
                  if (!r.ok() && !m_ended)
                      return fail(makeError(r.code(), tr("Input could not be sent: %1").arg(r.message())));
                  pumpInput();
              }));
}

void ProcessStream::resize(int cols, int rows)
{
    m_pendingSize = std::make_pair(cols, rows);
    pumpResize();
}

void ProcessStream::pumpResize()
{
    if (m_resizeInFlight || m_pid <= 0 || !m_pendingSize || !m_client)
        return;
    const auto size = *m_pendingSize;
    m_pendingSize.reset();
    m_resizeInFlight = true;
    const QJsonObject body{{QStringLiteral("process"), selector()},
                           {QStringLiteral("pty"),
                            QJsonObject{{QStringLiteral("size"), QJsonObject{{QStringLiteral("cols"), size.first},
                                                                             {QStringLiteral("rows"), size.second}}}}}};
    envdUnary(m_client, m_target, QStringLiteral("process.Process/Update"), body,
              Callback<QByteArray>(this,
                                   [this](Result<QByteArray>) {
                                       // A lost resize is not worth ending a terminal for; the next one corrects it.
                                       m_resizeInFlight = false;
                                       pumpResize();
                                   }),
              true);
}

void ProcessStream::signal(const QString &signalName)
{
    if (m_pid <= 0 || !m_client)
        return;
    envdUnary(m_client, m_target, QStringLiteral("process.Process/SendSignal"),
              QJsonObject{{QStringLiteral("process"), selector()}, {QStringLiteral("signal"), signalName}},
              Callback<QByteArray>(this, [](Result<QByteArray>) {}), true);
}

E2bPtyChannel::E2bPtyChannel(cloud::CloudClient *client, EnvdResolver resolve, const PtyOptions &options,
                             QObject *parent)
    : PtyChannel(parent)
{
    const qint64 attach = options.attachId.toLongLong();
    m_stream = new ProcessStream(
        client, std::move(resolve),
        startRequest(options.argv, options.env, options.workingDir, std::make_pair(options.cols, options.rows)), attach,
        true, this);
    connect(m_stream, &ProcessStream::started, this, [this] { Q_EMIT started(); });
    connect(m_stream, &ProcessStream::output, this,
            [this](const QByteArray &bytes, int) { Q_EMIT dataReceived(bytes); });
    connect(m_stream, &ProcessStream::ended, this, [this](int code) {
        m_exitCode = code;
        Q_EMIT finished(code);
    });
    connect(m_stream, &ProcessStream::failed, this, [this](const Error &e) { Q_EMIT errorOccurred(e); });
}

void E2bPtyChannel::start()
{
    m_stream->start();
}

void E2bPtyChannel::write(const QByteArray &bytes)
{
    m_stream->sendInput(bytes);
}

void E2bPtyChannel::resize(int cols, int rows)
{
    m_stream->resize(cols, rows);
}

void E2bPtyChannel::close()
{
    // envd offers SIGTERM and SIGKILL only, and an interactive shell ignores SIGTERM.
    m_stream->signal(QStringLiteral("SIGNAL_SIGKILL"));
}

bool E2bPtyChannel::isOpen() const
{
    return m_stream->isRunning();
}

E2bExecJob::E2bExecJob(cloud::CloudClient *client, EnvdResolver resolve, const ExecRequest &request, QObject *parent)
    : ExecJob(parent)
    , m_stdin(request.stdinData)
{
    QJsonObject start = startRequest(request.argv, request.env, request.workingDir, std::nullopt);
    if (!m_stdin.isEmpty())
        start[QStringLiteral("stdin")] = true;
    m_stream = new ProcessStream(client, std::move(resolve), start, 0, false, this);
    connect(m_stream, &ProcessStream::started, this, [this] {
        if (!m_stdin.isEmpty()) {
            m_stream->sendInput(m_stdin);
            m_stream->closeStdin();
        }
    });
    connect(m_stream, &ProcessStream::output, this, [this](const QByteArray &bytes, int stream) {
        if (stream == 2)
            Q_EMIT stderrData(bytes);
        else
            Q_EMIT stdoutData(bytes);
    });
    connect(m_stream, &ProcessStream::ended, this, [this](int code) {
        if (m_done)
            return;
        m_done = true;
        Q_EMIT finished(code);
    });
    connect(m_stream, &ProcessStream::failed, this, [this](const Error &e) {
        if (m_done)
            return;
        m_done = true;
        Q_EMIT finished(e);
    });
}

void E2bExecJob::start()
{
    m_stream->start();
}

void E2bExecJob::cancel()
{
    m_stream->signal(QStringLiteral("SIGNAL_SIGKILL"));
    m_stream->abort();
    if (!m_done) {
        m_done = true;
        Q_EMIT finished(makeError(ErrorCode::Cancelled, tr("Cancelled")));
    }
}

} // namespace sandbar::e2b
