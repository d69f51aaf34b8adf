// Files of a session: POST .../fs/write (a gzip'd tar, extracted into the sandbox's folder),
// POST .../fs/read (the raw bytes, 404 file_not_found) and POST .../fs/mkdir (not recursive).
#include "VercelContext.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <memory>
#include <sys/stat.h>

namespace contract::vercel {

namespace {

constexpr qint64 kBlock = 512;
constexpr qint64 kCopyChunk = 256 * 1024;

QString badRequest()
{
    return QStringLiteral("bad_request");
}

struct TarEntry {
    QString name;
    char type = '0';
    uint mode = 0;
    qint64 offset = 0; // of the data in the archive
    qint64 size = 0;
};

// A NUL-terminated field of a tar header.
QByteArray field(const QByteArray &header, int offset, int length)
{
    const QByteArray raw = header.mid(offset, length);
    const qsizetype nul = raw.indexOf('\0');
    return nul >= 0 ? raw.left(nul) : raw;
}

// A number field: octal text, or base-256 (GNU) when the high bit of its first byte is set.
std::optional<qint64> number(const QByteArray &header, int offset, int length)
{
    if (static_cast<unsigned char>(header.at(offset)) & 0x80) {
        qint64 value = 0;
        for (int i = 1; i < length; ++i)
            value = (value << 8) | static_cast<unsigned char>(header.at(offset + i));
        return value;
    }
    bool ok = false;
    const QByteArray text = field(header, offset, length).trimmed();
    const qint64 value = text.isEmpty() ? 0 : text.toLongLong(&ok, 8);
    if (!text.isEmpty() && (!ok || value < 0))
        return std::nullopt;
    return value;
}

bool checksumMatches(const QByteArray &header)
{
    const std::optional<qint64> stored = number(header, 148, 8);
    qint64 sum = 0;
    for (int i = 0; i < kBlock; ++i)
        sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(header.at(i));
    return stored && *stored == sum;
}

// The "path" record of a pax extended header ("LEN key=value\n" records).
QString paxPath(const QByteArray &data)
{
    QString path;
    qsizetype pos = 0;
    while (pos < data.size()) {
        const qsizetype space = data.indexOf(' ', pos);
        bool ok = false;
        const qsizetype length = space > pos ? data.mid(pos, space - pos).toLongLong(&ok) : 0;
        if (!ok || length <= space - pos || pos + length > data.size())
            break;
        const QByteArray record = data.mid(space + 1, length - (space - pos) - 2); // without "\n"
        if (record.startsWith("path="))
            path = QString::fromUtf8(record.mid(5));
        pos += length;
    }
    return path;
}

// Reads every header of a tar archive (ustar, pax and GNU long names), skipping the data.
sandbar::Result<QList<TarEntry>> parseTar(QIODevice &in)
{
    using sandbar::ErrorCode;
    QList<TarEntry> entries;
    QString longName;
    QString extendedPath;
    while (true) {
        const QByteArray header = in.read(kBlock);
        if (header.isEmpty() || header.count('\0') == kBlock)
            break; // the end blocks (or none)
        if (header.size() < kBlock || !checksumMatches(header))
            return sandbar::makeError(ErrorCode::InvalidArgument, QStringLiteral("the tar archive is corrupt"));
        TarEntry entry;
        entry.name = QString::fromUtf8(field(header, 0, 100));
        if (header.mid(257, 5) == "ustar" && !field(header, 345, 155).isEmpty())
            entry.name = QString::fromUtf8(field(header, 345, 155)) + QLatin1Char('/') + entry.name;
        const std::optional<qint64> mode = number(header, 100, 8);
        const std::optional<qint64> size = number(header, 124, 12);
        if (!mode || !size)
            return sandbar::makeError(ErrorCode::InvalidArgument, QStringLiteral("bad number in a tar header"));
        entry.mode = uint(*mode);
        entry.size = *size;
        entry.type = header.at(156);
        entry.offset = in.pos();
        const qint64 next = entry.offset + (entry.size + kBlock - 1) / kBlock * kBlock;
        if (entry.type == 'x' || entry.type == 'L') {
            const QByteArray data = in.read(qMin<qint64>(entry.size, 1024 * 1024));
            if (entry.type == 'x')
                extendedPath = paxPath(data);
            else
                longName = QString::fromUtf8(field(data, 0, int(data.size())));
        } else if (entry.type != 'g') {
            if (!extendedPath.isEmpty())
                entry.name = extendedPath;
            if (!longName.isEmpty())
                entry.name = longName;
            extendedPath.clear();
            longName.clear();
            entries.append(entry);
        }
        if (next > in.size() || !in.seek(next))
            return sandbar::makeError(ErrorCode::InvalidArgument, QStringLiteral("the tar archive is truncated"));
    }
    return entries;
}

// The API path of an entry: relative to x-cwd; leading "/" and "./" go, ".." is refused.
sandbar::Result<QString> entryPath(const QString &extractDir, QString name)
{
    while (name.startsWith(QLatin1Char('/')) || name.startsWith(QLatin1String("./")))
        name.remove(0, name.startsWith(QLatin1Char('/')) ? 1 : 2);
    if (name.isEmpty() || name == QLatin1String("."))
        return QString(); // the folder itself
    if (name.split(QLatin1Char('/')).contains(QLatin1String("..")))
        return sandbar::makeError(sandbar::ErrorCode::Unauthorized,
                                  QStringLiteral("the entry %1 leaves the extraction folder").arg(name));
    return QDir::cleanPath(QString(extractDir + QLatin1Char('/') + name));
}

bool writeEntry(QIODevice &archive, const TarEntry &entry, const QString &host)
{
    QDir().mkpath(QFileInfo(host).absolutePath());
    // Written beside the target and renamed over it: a link in its place is replaced, never
    // followed, and a broken write leaves the old file.
    QFile out(host + QStringLiteral(".vercel-upload"));
    if (!archive.seek(entry.offset) || !out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    qint64 left = entry.size;
    while (left > 0) {
        const QByteArray chunk = archive.read(qMin(left, kCopyChunk));
        if (chunk.isEmpty() || out.write(chunk) != chunk.size()) {
            out.remove();
            return false;
        }
        left -= chunk.size();
    }
    out.close();
    QFile::remove(host);
    if (!out.rename(host)) {
        out.remove();
        return false;
    }
    return ::chmod(QFile::encodeName(host).constData(), (entry.mode ? entry.mode : 0644) & 0777) == 0;
}

// Extracts a whole archive, or nothing when an entry is unsafe; empty on success.
QString extract(Context &ctx, const SessionRecord &session, QIODevice &archive, const QString &extractDir)
{
    const auto entries = parseTar(archive);
    if (!entries)
        return entries.message();
    QList<QPair<TarEntry, QString>> planned;
    for (const TarEntry &entry : *entries) {
        if (entry.type != '0' && entry.type != '\0' && entry.type != '7' && entry.type != '5')
            return QStringLiteral("the entry %1 is not a file or a folder (links are not accepted)").arg(entry.name);
        const auto path = entryPath(extractDir, entry.name);
        if (!path)
            return path.message();
        if (path->isEmpty())
            continue; // "./": the extraction folder itself
        const auto host = ctx.hostPath(session, *path, QStringLiteral("/"));
        if (!host)
            return host.message();
        if (entry.type != '5' && QFileInfo(*host).isDir())
            return QStringLiteral("%1 is a directory").arg(*path);
        planned.append({entry, *host});
    }
    for (const auto &[entry, host] : std::as_const(planned)) {
        if (entry.type == '5') {
            if (!QDir().mkpath(host) ||
                ::chmod(QFile::encodeName(host).constData(), (entry.mode ? entry.mode : 0755) & 0777) != 0)
                return QStringLiteral("cannot create the folder %1").arg(entry.name);
        } else if (!writeEntry(archive, entry, host)) {
            return QStringLiteral("cannot write %1").arg(entry.name);
        }
    }
    return {};
}

// POST .../fs/write: Content-Type application/gzip (or a plain application/x-tar), x-cwd the
// folder the entries are relative to (the SDK sends "/" and names relative to it).
void writeFiles(Context &ctx, const Request &request, Responder *responder)
{
    const SessionPtr session = ctx.runningSession(request, responder);
    if (!session)
        return;
    const QByteArray type = request.mediaType();
    const bool gzip = type == "application/gzip" || type == "application/x-gzip";
    if (!gzip && type != "application/x-tar") {
        Context::error(responder, 400, badRequest(), QStringLiteral("Content-Type must be application/gzip"));
        return;
    }
    const QString extractDir = Context::absolutePath(QString::fromUtf8(request.header("x-cwd")).isEmpty()
                                                         ? QStringLiteral("/")
                                                         : QString::fromUtf8(request.header("x-cwd")));
    session->ingress += request.bodySize;
    const std::weak_ptr<SessionRecord> weak = session;
    const QPointer<Responder> reply(responder);
    const QPointer<Context> context(&ctx);
    const auto finish = [weak, reply, context, extractDir](QIODevice &archive) {
        const SessionPtr s = weak.lock();
        if (!reply || !context)
            return;
        const QString problem = s ? extract(*context, *s, archive, extractDir) : QStringLiteral("the session is gone");
        if (problem.isEmpty())
            reply->sendJson(200, QJsonObject{});
        else
            Context::error(reply, 400, badRequest(), problem);
    };
    if (!gzip) {
        std::unique_ptr<QIODevice> body;
        if (!request.bodyFile.isEmpty())
            body = std::make_unique<QFile>(request.bodyFile);
        else
            body = std::make_unique<QBuffer>();
        if (auto *buffer = qobject_cast<QBuffer *>(body.get()))
            buffer->setData(request.body);
        body->open(QIODevice::ReadOnly);
        finish(*body);
        return;
    }
    // gzip(1) inflates into a file beside the sandboxes; the archive is then read from there.
    const QString gunzip = QStandardPaths::findExecutable(QStringLiteral("gzip"));
    if (gunzip.isEmpty()) {
        Context::error(responder, 500, QStringLiteral("internal_server_error"),
                       QStringLiteral("gzip is not installed"));
        return;
    }
    const QString tarFile =
        ctx.host.baseDir() + QLatin1Char('/') + Context::newId(QStringLiteral("upload")) + QStringLiteral(".tar");
    auto *process = new QProcess(responder);
    process->setStandardOutputFile(tarFile);
    if (!request.bodyFile.isEmpty())
        process->setStandardInputFile(request.bodyFile);
    QObject::connect(process, &QProcess::finished, responder,
                     [process, tarFile, finish, reply](int code, QProcess::ExitStatus status) {
                         QFile archive(tarFile);
                         if (code != 0 || status != QProcess::NormalExit || !archive.open(QIODevice::ReadOnly)) {
                             if (reply)
                                 Context::error(reply, 400, QStringLiteral("bad_request"),
                                                QStringLiteral("the body is not gzip data: %1")
                                                    .arg(QString::fromUtf8(process->readAllStandardError().trimmed())));
                         } else {
                             finish(archive);
                         }
                         archive.remove();
                         process->deleteLater();
                     });
    process->start(gunzip, {QStringLiteral("-dc")});
    if (request.bodyFile.isEmpty()) {
        process->write(request.body);
        process->closeWriteChannel();
    }
}

struct PathBody {
    QString apiPath;
    QString host;
};

// {path, cwd?} of fs/read and fs/mkdir, mapped into the sandbox; nullopt after answering.
std::optional<PathBody> pathBody(Context &ctx, const SessionRecord &session, const Request &request,
                                 Responder *responder)
{
    QJsonObject body;
    if (!Context::jsonBody(request, responder, &body))
        return std::nullopt;
    const QJsonValue path = body.value(QStringLiteral("path"));
    const QJsonValue cwd = body.value(QStringLiteral("cwd"));
    if (!path.isString() || path.toString().isEmpty() || (!cwd.isUndefined() && !cwd.isString())) {
        Context::error(responder, 400, badRequest(), QStringLiteral("path must be a non-empty string"));
        return std::nullopt;
    }
    const QString base = cwd.toString(QLatin1String(kCwd));
    const auto host = ctx.hostPath(session, path.toString(), base);
    if (!host) {
        Context::error(responder, 400, badRequest(), host.message());
        return std::nullopt;
    }
    return PathBody{Context::absolutePath(path.toString(), base), *host};
}

void readFile(Context &ctx, const Request &request, Responder *responder)
{
    const SessionPtr session = ctx.runningSession(request, responder);
    if (!session)
        return;
    const std::optional<PathBody> target = pathBody(ctx, *session, request, responder);
    if (!target)
        return;
    const QFileInfo info(target->host);
    if (!info.exists()) {
        Context::error(responder, 404, QStringLiteral("file_not_found"),
                       QStringLiteral("File not found: %1").arg(target->apiPath));
        return;
    }
    if (info.isDir()) {
        Context::error(responder, 400, badRequest(), QStringLiteral("%1 is a directory").arg(target->apiPath));
        return;
    }
    session->egress += info.size();
    responder->sendFile(target->host, "application/octet-stream");
}

void makeDir(Context &ctx, const Request &request, Responder *responder)
{
    const SessionPtr session = ctx.runningSession(request, responder);
    if (!session)
        return;
    const std::optional<PathBody> target = pathBody(ctx, *session, request, responder);
    if (!target)
        return;
    // As mkdir(2): the parent must exist and the path must not.
    QString problem;
    if (QFileInfo::exists(target->host) || QFileInfo(target->host).isSymLink())
        problem = QStringLiteral("mkdir %1: file exists").arg(target->apiPath);
    else if (!QFileInfo(QFileInfo(target->host).absolutePath()).isDir())
        problem = QStringLiteral("mkdir %1: no such file or directory").arg(target->apiPath);
    else if (!QDir().mkdir(target->host))
        problem = QStringLiteral("mkdir %1: cannot create it").arg(target->apiPath);
    if (!problem.isEmpty()) {
        Context::error(responder, 400, badRequest(), problem);
        return;
    }
    responder->sendJson(200, QJsonObject{});
}

} // namespace

void installFiles(Context &context)
{
    const QString base = QStringLiteral("/v2/sandboxes/sessions/{sessionId}/fs");
    routeBoth(context, "POST", base + QStringLiteral("/write"), writeFiles);
    routeBoth(context, "POST", base + QStringLiteral("/read"), readFile, true);
    routeBoth(context, "POST", base + QStringLiteral("/mkdir"), makeDir);
}

} // namespace contract::vercel
