#include "providers/vercel/VercelJobs.h"

#include "cloud/Transfers.h"
#include "files/TarSource.h"
#include "net/HttpClient.h"
#include "providers/vercel/VercelProvider.h"
#include "providers/vercel/VercelTr.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryFile>
#include <QTimer>
#include <QUuid>

namespace sandbar::vercel {

namespace {
constexpr qsizetype kErrorBodyBytes = 16 * 1024;
constexpr qsizetype kMaxLineBytes = 8 * 1024 * 1024; // one log line; a server past it is broken
constexpr qsizetype kStdinChunk = 96 * 1024;         // base64 characters in one argument
constexpr qsizetype kMaxStdinBytes = 1024 * 1024;
} // namespace

Error accountClosed()
{
    return makeError(ErrorCode::Cancelled, tr("The account was closed"));
}

VercelExecJob::VercelExecJob(VercelProvider *provider, QString sandbox, ExecRequest request, QObject *parent)
    : ExecJob(parent)
    , m_provider(provider)
    , m_sandbox(std::move(sandbox))
    , m_request(std::move(request))
{
}

VercelExecJob::~VercelExecJob()
{
    if (m_exchange)
        m_exchange->disconnect(this);
    if (m_inputUpload)
        m_inputUpload->disconnect(this);
}

QStringList VercelExecJob::withInputFile(const QStringList &argv, const QString &inputPath)
{
    return QStringList{QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                       QStringLiteral("f=$1; shift; exec 3<\"$f\" || exit 126; rm -f -- \"$f\"; exec \"$@\" <&3 3<&-"),
                       QStringLiteral("sandbar-stdin"), inputPath} +
           argv;
}

QByteArray VercelExecJob::commandBody(const ExecRequest &request, bool wait)
{
    QStringList argv = request.argv;
    if (!request.stdinData.isEmpty()) {
        // The input as base64 in N arguments (Linux takes at most 128 KiB in one), decoded into
        // the command's stdin; the subshell drops them and runs the command.
        const QByteArray b64 = request.stdinData.toBase64();
        QStringList chunks;
        for (qsizetype at = 0; at < b64.size(); at += kStdinChunk)
            chunks << QString::fromLatin1(b64.mid(at, kStdinChunk));
        argv = QStringList{QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                           QStringLiteral("n=$1; shift; i=0; for c in \"$@\"; do [ $i -ge $n ] && break; "
                                          "printf '%s' \"$c\"; i=$((i+1)); done | base64 -d | (shift $n; exec \"$@\")"),
                           QStringLiteral("sandbar-stdin"), QString::number(chunks.size())} +
               chunks + request.argv;
    }
    QJsonObject env;
    for (const QString &kv : request.env) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (eq > 0)
            env.insert(kv.left(eq), kv.mid(eq + 1));
    }
    QJsonObject body{
        {QStringLiteral("command"), argv.value(0)},
        {QStringLiteral("args"), QJsonArray::fromStringList(argv.mid(1))},
        {QStringLiteral("env"), env},
        {QStringLiteral("sudo"), request.user == QLatin1String("root") || request.user == QLatin1String("0")}};
    if (wait) {
        body.insert(QStringLiteral("wait"), true);
        body.insert(QStringLiteral("logs"), true);
    }
    if (!request.workingDir.isEmpty())
        body.insert(QStringLiteral("cwd"), request.workingDir);
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

void VercelExecJob::start()
{
    if (m_request.argv.isEmpty() || m_request.argv.first().isEmpty())
        return QTimer::singleShot(0, this,
                                  [this] { finish(makeError(ErrorCode::InvalidArgument, tr("No command to run"))); });
    if (!m_provider)
        return QTimer::singleShot(0, this, [this] { finish(accountClosed()); });
    // All arguments together must stay under Linux's limit for a program's arguments: more
    // input goes as a file.
    if (m_request.stdinData.size() > kMaxStdinBytes)
        return uploadInput();
    run();
}

void VercelExecJob::uploadInput()
{
    m_input = std::make_unique<QTemporaryFile>();
    if (!m_input->open() || m_input->write(m_request.stdinData) != m_request.stdinData.size() || !m_input->flush()) {
        const QString why = m_input->errorString();
        return QTimer::singleShot(0, this, [this, why] {
            finish(makeError(ErrorCode::Unavailable, tr("Could not keep the command's input in a file: %1").arg(why)));
        });
    }
    const QString name = QStringLiteral(".sandbar-stdin-") + QUuid::createUuid().toString(QUuid::Id128);
    m_inputUpload = new VercelUploadJob(m_provider, m_sandbox, m_input->fileName(), QStringLiteral("/tmp"), name, this);
    connect(m_inputUpload, &TransferJob::finished, this, [this, name](const VoidResult &r) {
        m_input.reset();
        if (!r)
            return finish(Error{r.code(), tr("Could not hand the command its input: %1").arg(r.message())});
        m_request.argv = withInputFile(m_request.argv, QStringLiteral("/tmp/") + name);
        m_request.stdinData.clear();
        run();
    });
    m_inputUpload->start();
}

void VercelExecJob::run()
{
    if (m_done)
        return;
    if (!m_provider)
        return finish(accountClosed());
    m_provider->sessionUrl(m_sandbox, QStringLiteral("/cmd"), Callback<QUrl>(this, [this](Result<QUrl> url) {
                               if (!url)
                                   return finish(url.error());
                               begin(url.value());
                           }));
}

void VercelExecJob::begin(const QUrl &url)
{
    if (m_done)
        return;
    if (!m_provider)
        return finish(accountClosed());
    m_url = url;
    net::HttpRequest req;
    req.method = "POST";
    req.body = commandBody(m_request);
    req.connectTimeout = std::chrono::seconds(30);
    req.responseTimeout = std::chrono::seconds(60);
    // The stream is quiet while the command is: no idle limit, the command may think for hours.
    const cloud::HttpTarget target{url, {{QByteArray("Content-Type"), QByteArray("application/json")}}, true};
    m_exchange = m_provider->client()->exchange(target, std::move(req), this);
    connect(m_exchange, &net::HttpExchange::headersReceived, this,
            [this](const net::HttpResponse &head) { m_status = head.status; });
    connect(m_exchange, &net::HttpExchange::bodyData, this, &VercelExecJob::onBody);
    connect(m_exchange, &net::HttpExchange::finished, this, &VercelExecJob::onFinished);
    m_exchange->start();
}

void VercelExecJob::onBody(const QByteArray &bytes)
{
    if (m_done)
        return;
    if (m_status < 200 || m_status >= 300) {
        if (m_errorBody.size() < kErrorBodyBytes)
            m_errorBody.append(bytes.left(kErrorBodyBytes - m_errorBody.size()));
        return;
    }
    m_buffer.append(bytes);
    for (const QByteArray &line : takeLines(&m_buffer)) {
        auto event = parseCommandLine(line);
        if (!event)
            return finish(event.error());
        switch (event->kind) {
        case CommandEvent::Kind::Command:
            m_commandId = event->commandId;
            if (event->exitCode)
                return finish(*event->exitCode);
            break;
        case CommandEvent::Kind::Output:
            if (event->stream == 2)
                Q_EMIT stderrData(event->data);
            else
                Q_EMIT stdoutData(event->data);
            if (m_done) // a listener cancelled
                return;
            break;
        case CommandEvent::Kind::Error:
            return finish(makeError(ErrorCode::Unavailable, tr("Vercel ended the command: %1").arg(event->message)));
        }
    }
    if (m_buffer.size() > kMaxLineBytes)
        finish(makeError(ErrorCode::Unavailable, tr("Vercel sent a command output line of over 8 MiB")));
}

void VercelExecJob::onFinished(const VoidResult &result)
{
    if (m_done)
        return;
    const VoidResult r = cloud::exchangeOutcome(m_provider ? m_provider->client() : nullptr, m_exchange, result,
                                                m_status, m_errorBody, m_url);
    if (!r)
        return finish(r.error());
    if (!m_buffer.trimmed().isEmpty())
        return finish(makeError(ErrorCode::Unavailable, tr("Vercel's command output ended in the middle of a line")));
    finish(makeError(ErrorCode::Unavailable, tr("Vercel closed the command's output before the command ended")));
}

void VercelExecJob::cancel()
{
    if (m_done)
        return;
    if (m_inputUpload) {
        m_inputUpload->disconnect(this);
        m_inputUpload->cancel();
    }

    if (m_provider && !m_commandId.isEmpty()) {
        // Dropping the stream leaves the command running: it is killed (SIGTERM).
        m_provider->sessionCall(m_sandbox, QStringLiteral("/cmd/") + m_commandId + QStringLiteral("/kill"),
                                QByteArrayLiteral("{\"signal\":15}"),
                                Callback<cloud::ApiReply>(m_provider.data(), [](Result<cloud::ApiReply>) {}));
    }
    finish(makeError(ErrorCode::Cancelled, tr("The command was cancelled")));
}

void VercelExecJob::finish(const Result<int> &result)
{
    if (m_done)
        return;
    m_done = true;
    if (m_exchange) {
        m_exchange->disconnect(this);
        m_exchange->abort();
    }
    Q_EMIT finished(result);
}

VercelUploadJob::VercelUploadJob(VercelProvider *provider, QString sandbox, QString localPath, QString remoteDir,
                                 QString name, QObject *parent)
    : TransferJob(parent)
    , m_provider(provider)
    , m_sandbox(std::move(sandbox))
    , m_localPath(std::move(localPath))
    , m_remoteDir(std::move(remoteDir))
    , m_name(std::move(name))
{
}

VercelUploadJob::~VercelUploadJob()
{
    if (m_exchange)
        m_exchange->disconnect(this);
}

void VercelUploadJob::start()
{
    if (!m_provider)
        return QTimer::singleShot(0, this, [this] { finish(accountClosed()); });
    files::TarSourceOptions options;
    options.rootName = m_name;
    options.gzip = true;
    m_tar = std::make_unique<files::TarSource>(m_localPath, options);
    if (auto r = m_tar->prepare(); !r)
        return QTimer::singleShot(0, this, [this, r] { finish(r); });
    m_provider->sessionUrl(m_sandbox, QStringLiteral("/fs/write"), Callback<QUrl>(this, [this](Result<QUrl> url) {
                               if (!url)
                                   return finish(url.error());
                               begin(url.value());
                           }));
}

void VercelUploadJob::begin(const QUrl &url)
{
    if (m_done)
        return;
    if (!m_provider)
        return finish(accountClosed());
    net::HttpRequest req;
    req.method = "POST";
    req.bodyDevice = m_tar.get();
    req.bodyLength = -1; // made while sent: chunked
    req.connectTimeout = std::chrono::seconds(30);
    req.responseTimeout = std::chrono::seconds(120);
    const cloud::HttpTarget target{
        url,
        {{QByteArray("Content-Type"), QByteArray("application/gzip")}, {QByteArray("x-cwd"), m_remoteDir.toUtf8()}},
        true};
    m_exchange = m_provider->client()->exchange(target, std::move(req), this);
    const qint64 total = m_tar->totalFileBytes();
    connect(m_exchange, &net::HttpExchange::uploadProgress, this,
            [this, total](qint64, qint64) { emitProgress(m_tar->fileBytesDone(), total); });
    connect(m_exchange, &net::HttpExchange::headersReceived, this,
            [this](const net::HttpResponse &head) { m_status = head.status; });
    connect(m_exchange, &net::HttpExchange::bodyData, this, [this](const QByteArray &chunk) {
        if (m_errorBody.size() < kErrorBodyBytes)
            m_errorBody.append(chunk.left(kErrorBodyBytes - m_errorBody.size()));
    });
    connect(m_exchange, &net::HttpExchange::finished, this, [this, url, total](const VoidResult &result) {
        VoidResult r = cloud::exchangeOutcome(m_provider ? m_provider->client() : nullptr, m_exchange, result, m_status,
                                              m_errorBody, url);
        if (r && m_tar->failure())
            r = *m_tar->failure();
        if (r)
            emitProgress(total, total);
        finish(r);
    });
    m_exchange->start();
}

void VercelUploadJob::cancel()
{
    finish(makeError(ErrorCode::Cancelled, tr("The upload was cancelled")));
}

void VercelUploadJob::finish(const VoidResult &result)
{
    if (m_done)
        return;
    m_done = true;
    if (m_exchange) {
        m_exchange->disconnect(this);
        m_exchange->abort();
    }
    Q_EMIT finished(result);
}

} // namespace sandbar::vercel
