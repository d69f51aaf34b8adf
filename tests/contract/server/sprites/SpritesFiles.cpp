// The files API (/v1/sprites/{name}/fs/...): read, write, list, delete, rename, copy and chmod,
// as filesystem.js of @fly/sprites calls them. Paths are absolute or relative to `workingDir`
// (default "/"); only /home/sprite (the kit's home) and /tmp exist here, ".." and links out
// of the sprite are refused. Errors are {"error":"<message>","code":"ENOENT","path":"..."}.
#include "SpritesContext.h"
#include "kit/FolderCopy.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <cerrno>
#include <cstdio>
#include <sys/stat.h>

namespace contract::sprites {

namespace {

// The request's fields, from the query (what the SDK sends for read, write, list and delete)
// or the JSON body (rename, copy, chmod; the published spec's delete).
struct FsArgs {
    QJsonObject body;
    QString value(const Request &request, const QString &key, const QString &fallback = {}) const
    {
        if (body.contains(key))
            return body.value(key).isBool() ? (body.value(key).toBool() ? QStringLiteral("true") : QString())
                                            : body.value(key).toString();
        return Context::queryValue(request, key, fallback);
    }
    bool flag(const Request &request, const QString &key) const
    {
        const QString v = value(request, key);
        return v == QLatin1String("true") || v == QLatin1String("1");
    }
};

QString octal(uint mode)
{
    return QStringLiteral("%1").arg(mode & 07777, 4, 8, QLatin1Char('0'));
}

uint modeOf(const QString &path)
{
    struct stat st {
    };
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? uint(st.st_mode) : 0;
}

QJsonObject entryJson(const Context &ctx, const SpriteRecord &record, const QFileInfo &info)
{
    const bool link = info.isSymLink();
    const bool dir = !link && info.isDir();
    return QJsonObject{{QStringLiteral("name"), info.fileName()},
                       {QStringLiteral("path"), ctx.apiPath(record, info.absoluteFilePath())},
                       {QStringLiteral("type"), link  ? QStringLiteral("symlink")
                                                : dir ? QStringLiteral("directory")
                                                      : QStringLiteral("file")},
                       {QStringLiteral("size"), dir ? 0 : info.size()},
                       {QStringLiteral("mode"), octal(modeOf(info.absoluteFilePath()))},
                       {QStringLiteral("modTime"), Context::iso(info.lastModified())},
                       {QStringLiteral("isDir"), dir}};
}

// The sprite and the host path of one API path; nullptr after an error answer.
SpritePtr resolve(Context &ctx, const Request &request, Responder *responder, const QString &path,
                  const QString &workingDir, QString *host)
{
    const SpritePtr record = ctx.spriteFor(request, responder);
    if (!record)
        return nullptr;
    if (path.isEmpty()) {
        Context::fsError(responder, 400, QStringLiteral("EINVAL"), QStringLiteral("path is required"), path);
        return nullptr;
    }
    const auto mapped = ctx.hostPath(*record, path, workingDir);
    if (!mapped) {
        Context::fsError(responder, 403, QStringLiteral("EACCES"), mapped.message(), path);
        return nullptr;
    }
    ctx.touch(*record);
    *host = *mapped;
    return record;
}

bool exists(const QString &host)
{
    return QFileInfo::exists(host) || QFileInfo(host).isSymLink();
}

void notFound(Responder *responder, const QString &path, const QString &op)
{
    Context::fsError(responder, 404, QStringLiteral("ENOENT"),
                     QStringLiteral("ENOENT: no such file or directory, %1 '%2'").arg(op, path), path);
}

void readFile(Context &ctx, const Request &request, Responder *responder)
{
    const QString path = Context::queryValue(request, QStringLiteral("path"));
    QString host;
    if (!resolve(ctx, request, responder, path, Context::queryValue(request, QStringLiteral("workingDir")), &host))
        return;
    if (!QFileInfo::exists(host))
        notFound(responder, path, QStringLiteral("open"));
    else if (QFileInfo(host).isDir())
        Context::fsError(responder, 400, QStringLiteral("EISDIR"),
                         QStringLiteral("EISDIR: illegal operation on a directory, read '%1'").arg(path), path);
    else
        responder->sendFile(host);
}

void writeFile(Context &ctx, const Request &request, Responder *responder)
{
    const QString path = Context::queryValue(request, QStringLiteral("path"));
    QString host;
    const SpritePtr record =
        resolve(ctx, request, responder, path, Context::queryValue(request, QStringLiteral("workingDir")), &host);
    if (!record)
        return;
    const QString modeText = Context::queryValue(request, QStringLiteral("mode"), QStringLiteral("0644"));
    bool ok = false;
    const uint mode = modeText.toUInt(&ok, 8);
    if (!ok || mode > 07777) {
        Context::fsError(responder, 400, QStringLiteral("EINVAL"), QStringLiteral("mode must be octal"), path);
        return;
    }
    const QString parent = QFileInfo(host).absolutePath();
    const bool mkdir = Context::queryValue(request, QStringLiteral("mkdirParents")) == QLatin1String("true") ||
                       Context::queryValue(request, QStringLiteral("mkdir")) == QLatin1String("true");
    if (mkdir && !QFileInfo(parent).exists())
        QDir().mkpath(parent);
    if (!QFileInfo(parent).exists()) {
        notFound(responder, path, QStringLiteral("open"));
        return;
    }
    if (!QFileInfo(parent).isDir() || QFileInfo(host).isDir()) {
        Context::fsError(responder, 400, QFileInfo(host).isDir() ? QStringLiteral("EISDIR") : QStringLiteral("ENOTDIR"),
                         QStringLiteral("cannot write '%1'").arg(path), path);
        return;
    }
    QFile::remove(host);
    const bool written = request.bodyFile.isEmpty() ? [&] {
        QFile file(host);
        return file.open(QIODevice::WriteOnly) && file.write(request.body) == request.body.size();
    }()
                                                    : QFile::copy(request.bodyFile, host);
    if (!written) {
        Context::fsError(responder, 500, QStringLiteral("EIO"), QStringLiteral("cannot write '%1'").arg(path), path);
        return;
    }
    ::chmod(QFile::encodeName(host).constData(), mode);
    responder->sendJson(200, QJsonObject{{QStringLiteral("path"), ctx.apiPath(*record, host)},
                                         {QStringLiteral("size"), request.bodySize},
                                         {QStringLiteral("mode"), octal(mode)}});
}

void listFiles(Context &ctx, const Request &request, Responder *responder)
{
    const QString path = Context::queryValue(request, QStringLiteral("path"));
    QString host;
    const SpritePtr record =
        resolve(ctx, request, responder, path, Context::queryValue(request, QStringLiteral("workingDir")), &host);
    if (!record)
        return;
    if (!exists(host)) {
        notFound(responder, path, QStringLiteral("stat"));
        return;
    }
    QJsonArray entries;
    const QFileInfo info(host);
    if (!info.isDir() || info.isSymLink()) {
        entries.append(entryJson(ctx, *record, info)); // a file lists itself (the SDK's stat reads it)
    } else {
        const bool recursive = Context::queryValue(request, QStringLiteral("recursive")) == QLatin1String("true");
        QDirIterator it(host, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                        recursive ? QDirIterator::Subdirectories : QDirIterator::NoIteratorFlags);
        QList<QFileInfo> found;
        while (it.hasNext()) {
            it.next();
            found.append(it.fileInfo());
        }
        std::sort(found.begin(), found.end(),
                  [](const QFileInfo &a, const QFileInfo &b) { return a.absoluteFilePath() < b.absoluteFilePath(); });
        for (const QFileInfo &entry : std::as_const(found))
            entries.append(entryJson(ctx, *record, entry));
    }
    responder->sendJson(200, QJsonObject{{QStringLiteral("path"), ctx.apiPath(*record, host)},
                                         {QStringLiteral("entries"), entries},
                                         {QStringLiteral("count"), entries.size()}});
}

void deleteFile(Context &ctx, const Request &request, Responder *responder)
{
    FsArgs args;
    if (request.mediaType() == "application/json" && !Context::jsonBody(request, responder, &args.body))
        return;
    const QString path = args.value(request, QStringLiteral("path"));
    QString host;
    const SpritePtr record =
        resolve(ctx, request, responder, path, args.value(request, QStringLiteral("workingDir")), &host);
    if (!record)
        return;
    Sandbox *kit = ctx.kit(*record);
    if (!exists(host)) {
        notFound(responder, path, QStringLiteral("unlink"));
        return;
    }
    if (kit && (host == kit->homeDir() || host == kit->tmpDir())) {
        Context::fsError(responder, 403, QStringLiteral("EPERM"), QStringLiteral("cannot delete '%1'").arg(path), path);
        return;
    }
    const QFileInfo info(host);
    const QString api = ctx.apiPath(*record, host);
    if (info.isDir() && !info.isSymLink()) {
        if (!args.flag(request, QStringLiteral("recursive")) &&
            !QDir(host).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot)) {
            Context::fsError(responder, 400, QStringLiteral("ENOTEMPTY"),
                             QStringLiteral("ENOTEMPTY: directory not empty, rmdir '%1'").arg(path), path);
            return;
        }
        QDir(host).removeRecursively();
    } else {
        QFile::remove(host);
    }
    responder->sendJson(200, QJsonObject{{QStringLiteral("deleted"), QJsonArray{api}}, {QStringLiteral("count"), 1}});
}

// rename, copy and chmod: a JSON body naming `source` and `dest`, or `path` and `mode`.
void moveOrCopy(Context &ctx, const Request &request, Responder *responder, bool copy)
{
    FsArgs args;
    if (!Context::jsonBody(request, responder, &args.body))
        return;
    const QString workingDir = args.value(request, QStringLiteral("workingDir"));
    const QString source = args.value(request, QStringLiteral("source"));
    const QString dest = args.value(request, QStringLiteral("dest"));
    QString from;
    QString to;
    const SpritePtr record = resolve(ctx, request, responder, source, workingDir, &from);
    if (!record || !resolve(ctx, request, responder, dest, workingDir, &to))
        return;
    if (!exists(from)) {
        notFound(responder, source, copy ? QStringLiteral("copyfile") : QStringLiteral("rename"));
        return;
    }
    if (!QFileInfo(QFileInfo(to).absolutePath()).isDir()) {
        notFound(responder, dest, copy ? QStringLiteral("copyfile") : QStringLiteral("rename"));
        return;
    }
    const QJsonObject pair{{QStringLiteral("source"), ctx.apiPath(*record, from)},
                           {QStringLiteral("dest"), ctx.apiPath(*record, to)}};
    if (!copy) {
        if (std::rename(QFile::encodeName(from).constData(), QFile::encodeName(to).constData()) != 0) {
            Context::fsError(responder, 400,
                             errno == ENOTEMPTY ? QStringLiteral("ENOTEMPTY") : QStringLiteral("EINVAL"),
                             QStringLiteral("cannot rename '%1' to '%2'").arg(source, dest), source);
            return;
        }
        responder->sendJson(200, pair);
        return;
    }
    qint64 bytes = 0;
    if (QFileInfo(from).isDir()) {
        if (!args.body.value(QStringLiteral("recursive")).toBool()) {
            Context::fsError(responder, 400, QStringLiteral("EISDIR"),
                             QStringLiteral("'%1' is a directory (recursive is not set)").arg(source), source);
            return;
        }
        bytes = copyTree(from, to);
    } else {
        QFile::remove(to);
        QFile::copy(from, to);
        ::chmod(QFile::encodeName(to).constData(), modeOf(from) & 07777);
        bytes = QFileInfo(to).size();
    }
    responder->sendJson(200, QJsonObject{{QStringLiteral("copied"), QJsonArray{pair}},
                                         {QStringLiteral("count"), 1},
                                         {QStringLiteral("totalBytes"), bytes}});
}

void chmodFile(Context &ctx, const Request &request, Responder *responder)
{
    FsArgs args;
    if (!Context::jsonBody(request, responder, &args.body))
        return;
    const QString path = args.value(request, QStringLiteral("path"));
    QString host;
    const SpritePtr record =
        resolve(ctx, request, responder, path, args.value(request, QStringLiteral("workingDir")), &host);
    if (!record)
        return;
    bool ok = false;
    const uint mode = args.value(request, QStringLiteral("mode")).toUInt(&ok, 8);
    if (!ok || mode > 07777) {
        Context::fsError(responder, 400, QStringLiteral("EINVAL"), QStringLiteral("mode must be octal"), path);
        return;
    }
    if (!exists(host)) {
        notFound(responder, path, QStringLiteral("chmod"));
        return;
    }
    QStringList targets{host};
    if (args.body.value(QStringLiteral("recursive")).toBool() && QFileInfo(host).isDir()) {
        QDirIterator it(host, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        while (it.hasNext())
            targets.append(it.next());
    }
    QJsonArray affected;
    for (const QString &target : std::as_const(targets)) {
        if (QFileInfo(target).isSymLink())
            continue;
        ::chmod(QFile::encodeName(target).constData(), mode);
        affected.append(
            QJsonObject{{QStringLiteral("path"), ctx.apiPath(*record, target)}, {QStringLiteral("mode"), octal(mode)}});
    }
    responder->sendJson(
        200, QJsonObject{{QStringLiteral("affected"), affected}, {QStringLiteral("count"), affected.size()}});
}

} // namespace

void installFiles(Context &context)
{
    Context *ctx = &context;
    Server &s = context.server;
    s.route("GET", QStringLiteral("/v1/sprites/{name}/fs/read"),
            [ctx](const Request &r, Responder *out) { readFile(*ctx, r, out); });
    s.route("PUT", QStringLiteral("/v1/sprites/{name}/fs/write"),
            [ctx](const Request &r, Responder *out) { writeFile(*ctx, r, out); });
    s.route("GET", QStringLiteral("/v1/sprites/{name}/fs/list"),
            [ctx](const Request &r, Responder *out) { listFiles(*ctx, r, out); });
    s.route("DELETE", QStringLiteral("/v1/sprites/{name}/fs/delete"),
            [ctx](const Request &r, Responder *out) { deleteFile(*ctx, r, out); });
    s.route("POST", QStringLiteral("/v1/sprites/{name}/fs/rename"),
            [ctx](const Request &r, Responder *out) { moveOrCopy(*ctx, r, out, false); });
    s.route("POST", QStringLiteral("/v1/sprites/{name}/fs/copy"),
            [ctx](const Request &r, Responder *out) { moveOrCopy(*ctx, r, out, true); });
    s.route("POST", QStringLiteral("/v1/sprites/{name}/fs/chmod"),
            [ctx](const Request &r, Responder *out) { chmodFile(*ctx, r, out); });
}

} // namespace contract::sprites
