// The in-sandbox toolbox (Daytona's daemon behind its proxy): one-shot commands and files,
// served under {toolboxProxyUrl}/{sandboxId}/..., every operation on the sandbox's real folder.
#include "DaytonaContext.h"
#include "DaytonaFiles.h"
#include "kit/Multipart.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <csignal>
#include <memory>
#include <optional>

namespace contract::daytona {

namespace {

constexpr int kDefaultExecTimeoutS = 10; // ExecuteRequest.timeout's documented default
constexpr qsizetype kMaxExecOutput = 16 * 1024 * 1024;

void execute(Context &ctx, const Request &request, Responder *responder)
{
    Sandbox *sandbox = ctx.toolboxSandbox(request, responder);
    if (!sandbox)
        return;
    QJsonDocument doc;
    if (!request.json(&doc) || !doc.isObject() || !doc.object().value(QStringLiteral("command")).isString()) {
        Context::error(responder, 400, QStringLiteral("command is required"));
        return;
    }
    const QJsonObject body = doc.object();
    ProcessSpec spec;
    spec.cmd = QStringLiteral("sh");
    spec.args = {QStringLiteral("-c"), body.value(QStringLiteral("command")).toString()};
    spec.stdinOpen = false;
    const QString cwd = body.value(QStringLiteral("cwd")).toString();
    if (!cwd.isEmpty()) {
        const auto mapped = mapApiPath(sandbox, cwd);
        if (!mapped.ok() || !QFileInfo(mapped.value()).isDir()) {
            Context::error(responder, 400, QStringLiteral("invalid working directory: %1").arg(cwd));
            return;
        }
        spec.cwd = sandbox->apiPath(mapped.value());
    }
    const QJsonObject envs = body.value(QStringLiteral("envs")).toObject();
    for (auto it = envs.begin(); it != envs.end(); ++it)
        spec.envs.insert(it.key(), it.value().toString());
    QString error;
    SandboxProcess *process = sandbox->start(spec, &error);
    if (!process) {
        Context::error(responder, 400, error);
        return;
    }
    struct Run {
        QByteArray output;
        bool timedOut = false;
    };
    auto run = std::make_shared<Run>();
    QPointer<Responder> reply(responder);
    QObject::connect(process, &SandboxProcess::output, responder,
                     [run](SandboxProcess::Channel, const QByteArray &bytes) {
                         if (run->output.size() < kMaxExecOutput)
                             run->output.append(bytes.left(kMaxExecOutput - run->output.size()));
                     });
    QObject::connect(process, &SandboxProcess::finished, responder, [run, reply](int code, const QString &) {
        if (!reply || reply->isFinished())
            return;
        if (run->timedOut) {
            Context::error(reply, 408, QStringLiteral("command execution timeout"));
            return;
        }
        reply->sendJson(200, QJsonObject{{QStringLiteral("exitCode"), code},
                                         {QStringLiteral("result"), QString::fromUtf8(run->output)}});
    });
    const int timeout = body.value(QStringLiteral("timeout")).toInt(kDefaultExecTimeoutS);
    if (timeout > 0) {
        QPointer<SandboxProcess> guard(process);
        QTimer::singleShot(timeout * 1000, responder, [run, guard] {
            if (guard && guard->isRunning()) {
                run->timedOut = true;
                guard->sendSignal(SIGKILL);
            }
        });
    }
    // A client that hangs up stops its command, as the daemon's request context does.
    QObject::connect(responder, &Responder::clientGone, process, [process] {
        if (process->isRunning())
            process->sendSignal(SIGKILL);
    });
}

// The sandbox path named by ?path= (or `fallback`), mapped into its folder; nullopt after
// answering 400.
std::optional<QString> queryPath(Sandbox *sandbox, const Request &request, Responder *responder,
                                 const QString &fallback = {})
{
    QString path = request.queryValue(QStringLiteral("path"));
    if (path.isEmpty())
        path = fallback;
    if (path.isEmpty()) {
        Context::error(responder, 400, QStringLiteral("path is required"));
        return std::nullopt;
    }
    const auto mapped = mapApiPath(sandbox, path);
    if (!mapped.ok()) {
        Context::error(responder, 400, mapped.message());
        return std::nullopt;
    }
    return mapped.value();
}

void listFiles(Context &ctx, const Request &request, Responder *responder)
{
    Sandbox *sandbox = ctx.toolboxSandbox(request, responder);
    if (!sandbox)
        return;
    const auto dir = queryPath(sandbox, request, responder, QStringLiteral("."));
    if (!dir)
        return;
    const QFileInfo info(*dir);
    if (!info.exists()) {
        Context::error(responder, 404, QStringLiteral("directory not found"));
        return;
    }
    if (!info.isDir()) {
        Context::error(responder, 400, QStringLiteral("path is not a directory"));
        return;
    }
    QJsonArray out;
    const QFileInfoList entries =
        QDir(*dir).entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
    for (const QFileInfo &entry : entries)
        out.append(fileInfoJson(entry.absoluteFilePath()));
    responder->sendJson(200, out);
}

void fileInfo(Context &ctx, const Request &request, Responder *responder)
{
    Sandbox *sandbox = ctx.toolboxSandbox(request, responder);
    if (!sandbox)
        return;
    const auto path = queryPath(sandbox, request, responder);
    if (!path)
        return;
    if (!QFileInfo::exists(*path)) {
        Context::error(responder, 404, QStringLiteral("file not found"));
        return;
    }
    responder->sendJson(200, fileInfoJson(*path));
}

void createFolder(Context &ctx, const Request &request, Responder *responder)
{
    Sandbox *sandbox = ctx.toolboxSandbox(request, responder);
    if (!sandbox)
        return;
    const auto path = queryPath(sandbox, request, responder);
    if (!path)
        return;
    const QString modeText = request.queryValue(QStringLiteral("mode"));
    bool ok = true;
    const uint mode = modeText.isEmpty() ? 0755 : modeText.toUInt(&ok, 8);
    if (!ok || mode > 07777) {
        Context::error(responder, 400, QStringLiteral("invalid mode: %1").arg(modeText));
        return;
    }
    if (!QDir().mkpath(*path)) {
        Context::error(responder, 400, QStringLiteral("cannot create folder"));
        return;
    }
    setPosixMode(*path, mode);
    responder->send(201, {}, {});
}

void deleteFile(Context &ctx, const Request &request, Responder *responder)
{
    Sandbox *sandbox = ctx.toolboxSandbox(request, responder);
    if (!sandbox)
        return;
    const auto path = queryPath(sandbox, request, responder);
    if (!path)
        return;
    const QFileInfo info(*path);
    if (!info.exists() && !info.isSymLink()) {
        Context::error(responder, 404, QStringLiteral("file not found"));
        return;
    }
    if (*path == sandbox->homeDir() || *path == sandbox->tmpDir()) {
        Context::error(responder, 400, QStringLiteral("refusing to delete %1").arg(sandbox->apiPath(*path)));
        return;
    }
    bool ok = false;
    if (info.isDir() && !info.isSymLink()) {
        // Without the flag the old daemon removed trees; recursive=false asks for a plain rmdir.
        const bool recursive = request.queryValue(QStringLiteral("recursive")) != QLatin1String("false");
        ok = recursive ? QDir(*path).removeRecursively() : QDir().rmdir(*path);
        if (!ok && !recursive) {
            Context::error(responder, 400, QStringLiteral("directory is not empty; use recursive=true"));
            return;
        }
    } else {
        ok = QFile::remove(*path);
    }
    if (!ok) {
        Context::error(responder, 400, QStringLiteral("cannot delete %1").arg(sandbox->apiPath(*path)));
        return;
    }
    responder->send(204, {}, {});
}

void download(Context &ctx, const Request &request, Responder *responder)
{
    Sandbox *sandbox = ctx.toolboxSandbox(request, responder);
    if (!sandbox)
        return;
    const auto path = queryPath(sandbox, request, responder);
    if (!path)
        return;
    const QFileInfo info(*path);
    if (!info.exists()) {
        Context::error(responder, 404, QStringLiteral("file not found"));
        return;
    }
    if (info.isDir()) {
        Context::error(responder, 400, QStringLiteral("path is a directory"));
        return;
    }
    const QByteArray disposition = "attachment; filename=\"" + info.fileName().toUtf8() + '"';
    responder->sendFile(*path, "application/octet-stream", {{"Content-Disposition", disposition}});
}

void bulkDownload(Context &ctx, const Request &request, Responder *responder)
{
    Sandbox *sandbox = ctx.toolboxSandbox(request, responder);
    if (!sandbox)
        return;
    QJsonDocument doc;
    if (!request.json(&doc) || !doc.isObject() || !doc.object().value(QStringLiteral("paths")).isArray()) {
        Context::error(responder, 400, QStringLiteral("paths is required"));
        return;
    }
    QList<QPair<QString, QString>> files; // as asked, mapped ("" when refused)
    const QJsonArray paths = doc.object().value(QStringLiteral("paths")).toArray();
    for (const QJsonValue &v : paths) {
        const auto mapped = mapApiPath(sandbox, v.toString());
        files.append({v.toString(), mapped.ok() ? mapped.value() : QString()});
    }
    streamMultipartDownload(responder, files);
}

// Writes multipart parts into the sandbox: `pathFor` names the destination of a file part.
class UploadSink
{
public:
    explicit UploadSink(Sandbox *sandbox)
        : m_sandbox(sandbox)
    {
    }

    QIODevice *open(const QString &apiPath, QString *error)
    {
        const auto mapped = mapApiPath(m_sandbox, apiPath);
        if (!mapped.ok()) {
            *error = mapped.message();
            return nullptr;
        }
        const QFileInfo target(mapped.value());
        if (target.isDir()) {
            *error = QStringLiteral("%1 is a directory").arg(apiPath);
            return nullptr;
        }
        QDir().mkpath(target.absolutePath());
        m_target = mapped.value();
        // Written beside the target and renamed at the end, so a broken upload never
        // leaves half a file under the real name.
        m_file = std::make_unique<QFile>(m_target + QStringLiteral(".daytona-upload"));
        if (!m_file->open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            *error = m_file->errorString();
            m_file.reset();
            return nullptr;
        }
        return m_file.get();
    }

    bool finish()
    {
        if (!m_file)
            return false;
        const bool ok = m_file->flush();
        m_file->close();
        QFile::remove(m_target);
        const bool renamed = ok && m_file->rename(m_target);
        if (!renamed)
            m_file->remove();
        m_file.reset();
        return renamed;
    }

    void abandon()
    {
        if (m_file) {
            m_file->close();
            m_file->remove();
            m_file.reset();
        }
    }

private:
    Sandbox *m_sandbox;
    QString m_target;
    std::unique_ptr<QFile> m_file;
};

std::unique_ptr<QIODevice> bodyDevice(const Request &request)
{
    if (!request.bodyFile.isEmpty()) {
        auto file = std::make_unique<QFile>(request.bodyFile);
        if (!file->open(QIODevice::ReadOnly))
            return nullptr;
        return file;
    }
    auto buffer = std::make_unique<QBuffer>();
    buffer->setData(request.body);
    buffer->open(QIODevice::ReadOnly);
    return buffer;
}

// POST /files/upload?path= (field "file") and POST /files/bulk-upload
// (files[i].path + files[i].file), both read part by part from the spooled body.
void upload(Context &ctx, const Request &request, Responder *responder, bool bulk)
{
    Sandbox *sandbox = ctx.toolboxSandbox(request, responder);
    if (!sandbox)
        return;
    if (request.mediaType() != "multipart/form-data" || request.contentTypeParam("boundary").isEmpty()) {
        Context::error(responder, 400, QStringLiteral("request Content-Type isn't multipart/form-data"));
        return;
    }
    const QString singlePath = request.queryValue(QStringLiteral("path"));
    if (!bulk && singlePath.isEmpty()) {
        Context::error(responder, 400, QStringLiteral("path is required"));
        return;
    }
    std::unique_ptr<QIODevice> in = bodyDevice(request);
    if (!in) {
        Context::error(responder, 500, QStringLiteral("cannot read the request body"));
        return;
    }
    static const QRegularExpression field(QStringLiteral("^files\\[(\\d+)\\]\\.(path|file)$"));
    QHash<QString, QByteArray> destinations; // index -> path
    QBuffer pathBuffer;
    UploadSink sink(sandbox);
    QString failure;
    int written = 0;
    const auto sinkFor = [&](const MultipartPart &part) -> QIODevice * {
        if (!failure.isEmpty())
            return nullptr;
        if (!bulk) {
            if (part.name != QLatin1String("file"))
                return nullptr;
            return sink.open(singlePath, &failure);
        }
        const auto match = field.match(part.name);
        if (!match.hasMatch())
            return nullptr;
        if (match.captured(2) == QLatin1String("path")) {
            pathBuffer.close();
            pathBuffer.setData(QByteArray());
            pathBuffer.open(QIODevice::WriteOnly);
            return &pathBuffer;
        }
        const QString path = QString::fromUtf8(destinations.value(match.captured(1)));
        const QString target = path.isEmpty() ? part.fileName : path;
        if (target.isEmpty()) {
            failure = QStringLiteral("missing destination for %1").arg(part.name);
            return nullptr;
        }
        return sink.open(target, &failure);
    };
    const auto partDone = [&](const MultipartPart &part, qint64) -> bool {
        const auto match = field.match(part.name);
        if (bulk && match.hasMatch() && match.captured(2) == QLatin1String("path")) {
            destinations.insert(match.captured(1), pathBuffer.data());
            return true;
        }
        if ((!bulk && part.name == QLatin1String("file")) ||
            (match.hasMatch() && match.captured(2) == QLatin1String("file"))) {
            if (!failure.isEmpty())
                return false;
            if (!sink.finish()) {
                failure = QStringLiteral("cannot write %1").arg(part.fileName);
                return false;
            }
            ++written;
        }
        return true;
    };
    QString parseError;
    const bool parsed =
        MultipartReader::read(*in, request.contentTypeParam("boundary"), sinkFor, partDone, &parseError);
    sink.abandon();
    if (!failure.isEmpty()) {
        Context::error(responder, 400, failure);
        return;
    }
    if (!parsed) {
        Context::error(responder, 400, parseError);
        return;
    }
    if (written == 0) {
        Context::error(responder, 400, QStringLiteral("no file in the request"));
        return;
    }
    responder->send(200, {}, {});
}

} // namespace

void installToolbox(Context &context)
{
    Server &server = context.server;
    Context *ctx = &context;
    const QString base = QStringLiteral("/toolbox/{sandboxId}");
    auto on = [ctx](void (*handler)(Context &, const Request &, Responder *)) {
        return [ctx, handler](const Request &request, Responder *responder) { handler(*ctx, request, responder); };
    };
    server.route("POST", base + QStringLiteral("/process/execute"), on(execute));
    server.route("GET", base + QStringLiteral("/files"), on(listFiles));
    server.route("DELETE", base + QStringLiteral("/files"), on(deleteFile));
    server.route("GET", base + QStringLiteral("/files/info"), on(fileInfo));
    server.route("POST", base + QStringLiteral("/files/folder"), on(createFolder));
    server.route("GET", base + QStringLiteral("/files/download"), on(download)).streams();
    server.route("POST", base + QStringLiteral("/files/bulk-download"), on(bulkDownload)).streams();
    server.route("POST", base + QStringLiteral("/files/upload"),
                 [ctx](const Request &r, Responder *s) { upload(*ctx, r, s, false); });
    server.route("POST", base + QStringLiteral("/files/bulk-upload"),
                 [ctx](const Request &r, Responder *s) { upload(*ctx, r, s, true); });
    for (const QString &what : {QStringLiteral("/user-home-dir"), QStringLiteral("/work-dir")}) {
        server.route("GET", base + what, [ctx](const Request &r, Responder *s) {
            if (ctx->toolboxSandbox(r, s))
                s->sendJson(200, QJsonObject{{QStringLiteral("dir"), QStringLiteral("/home/user")}});
        });
    }
    server.route("GET", base + QStringLiteral("/version"), [ctx](const Request &r, Responder *s) {
        if (ctx->toolboxSandbox(r, s))
            s->sendJson(200, QJsonObject{{QStringLiteral("version"), QStringLiteral("0.218.0")}});
    });
    server.route("GET", base + QStringLiteral("/system/metrics"), [ctx](const Request &r, Responder *s) {
        if (Sandbox *sandbox = ctx->toolboxSandbox(r, s))
            s->sendJson(200, systemMetricsJson(sandbox));
    });
}

} // namespace contract::daytona
