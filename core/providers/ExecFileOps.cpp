#include "providers/ExecFileOps.h"

#include "files/FileListing.h"
#include "providers/Provider.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTimeZone>

namespace sandbar {

namespace {

// Exit status of the move script when its target exists.
constexpr int kTargetExists = 17;

// Runs argv in the session and answers ok on exit 0, else the command's stderr as the error
// (Conflict for exit kTargetExists).
void runSimple(Provider &provider, const QString &sessionId, QStringList argv, Callback<void> done)
{
    ExecFacet *exec = provider.commands();
    if (!exec)
        return done.post(unsupportedError(provider.descriptor(), Capability::Exec));
    ExecRequest request;
    request.argv = argv;
    ExecJob *job = exec->exec(sessionId, request).release();
    if (!job)
        return done.post(unsupportedError(provider.descriptor(), Capability::Exec));
    // Owned by the provider until it finishes, so that it outlives this call.
    job->setParent(&provider);
    auto err = std::make_shared<QByteArray>();
    QObject::connect(job, &ExecJob::stderrData, job, [err](const QByteArray &b) {
        if (err->size() < 4096)
            err->append(b);
    });
    QObject::connect(job, &ExecJob::finished, job, [job, err, done, argv](const Result<int> &code) {
        job->deleteLater();
        if (!code.ok())
            return done(code.error());
        if (code.value() == 0)
            return done(VoidResult{});
        const QString text = QString::fromUtf8(err->trimmed());
        done(makeError(code.value() == kTargetExists ? ErrorCode::Conflict : ErrorCode::Internal,
                       text.isEmpty() ? QCoreApplication::translate("sandbar::Provider", "%1 exited with status %2")
                                            .arg(argv.join(QLatin1Char(' ')))
                                            .arg(code.value())
                                      : text));
    });
    job->start();
}

// Runs argv in the session and hands over its exit code and output (stdout up to 64 MiB,
// stderr's first 4 KiB).
void runCollect(Provider &provider, const QString &sessionId, QStringList argv, Callback<ExecOutput> done)
{
    ExecFacet *exec = provider.commands();
    ExecRequest request;
    request.argv = std::move(argv);
    ExecJob *job = exec ? exec->exec(sessionId, request).release() : nullptr;
    if (!job)
        return done.post(unsupportedError(provider.descriptor(), Capability::Exec));
    job->setParent(&provider);
    auto out = std::make_shared<ExecOutput>();
    QObject::connect(job, &ExecJob::stdoutData, job, [out, job](const QByteArray &b) {
        if (out->stdoutData.size() + b.size() > 64 * 1024 * 1024)
            return job->cancel();
        out->stdoutData.append(b);
    });
    QObject::connect(job, &ExecJob::stderrData, job, [out](const QByteArray &b) {
        if (out->stderrData.size() < 4096)
            out->stderrData.append(b.left(4096 - out->stderrData.size()));
    });
    QObject::connect(job, &ExecJob::finished, job, [job, out, done](const Result<int> &code) {
        job->deleteLater();
        if (!code.ok())
            return done(code.error());
        out->exitCode = code.value();
        done(*out);
    });
    job->start();
}

} // namespace

void listFilesByExec(Provider &provider, const QString &sessionId, const QString &path, bool textOnly,
                     Callback<QList<FileEntry>> done)
{
    QStringList argv{QStringLiteral("/bin/sh"), QStringLiteral("-c"), files::fileListScript(),
                     QStringLiteral("sandbar-ls"), path};
    if (textOnly) {
        // The listing into a file first, so that its exit code survives the armour.
        const QString armoured = QStringLiteral("f=$(mktemp) || exit 4\n"
                                                "sh -c \"$1\" sandbar-ls \"$2\" > \"$f\"; rc=$?\n"
                                                "base64 < \"$f\"; rm -f \"$f\"; exit $rc\n");
        argv = QStringList{QStringLiteral("/bin/sh"),    QStringLiteral("-c"),    armoured,
                           QStringLiteral("sandbar-ls"), files::fileListScript(), path};
    }
    runCollect(
        provider, sessionId, argv, Callback<ExecOutput>(done.context(), [path, textOnly, done](Result<ExecOutput> r) {
            if (!r)
                return done(r.error());
            const QString said = QString::fromUtf8(r->stderrData).trimmed();
            if (r->exitCode == 3)
                return done(makeError(
                    ErrorCode::NotFound,
                    QCoreApplication::translate("sandbar::Provider", "'%1' is not a folder (%2)").arg(path, said)));
            if (r->exitCode != 0)
                return done(makeError(
                    ErrorCode::Internal,
                    QCoreApplication::translate("sandbar::Provider", "Listing '%1' failed: %2").arg(path, said)));
            if (!textOnly)
                return done(files::parseFileList(r->stdoutData, path));
            const auto decoded = QByteArray::fromBase64Encoding(r->stdoutData.simplified().replace(' ', QByteArray()),
                                                                QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded)
                return done(makeError(
                    ErrorCode::Internal,
                    QCoreApplication::translate("sandbar::Provider", "The file listing of '%1' is unreadable.")
                        .arg(path)));
            done(files::parseFileList(decoded.decoded, path));
        }));
}

void statPathByExec(Provider &provider, const QString &sessionId, const QString &path, Callback<PathStat> done)
{
    const QString script = QStringLiteral("if [ -d \"$1\" ]; then exit 0; elif [ -e \"$1\" ] || [ -L \"$1\" ]; "
                                          "then exit 1; else exit 2; fi");
    runCollect(provider, sessionId,
               {QStringLiteral("/bin/sh"), QStringLiteral("-c"), script, QStringLiteral("sandbar-stat"), path},
               Callback<ExecOutput>(done.context(), [path, done](Result<ExecOutput> r) {
                   if (!r)
                       return done(r.error());
                   if (r->exitCode < 0 || r->exitCode > 2)
                       return done(
                           makeError(ErrorCode::Internal,
                                     QCoreApplication::translate("sandbar::Provider", "Looking at '%1' failed: %2")
                                         .arg(path, QString::fromUtf8(r->stderrData).trimmed())));
                   done(PathStat{r->exitCode != 2, r->exitCode == 0});
               }));
}

void removePathByExec(Provider &provider, const QString &sessionId, const QString &path, Callback<void> done)
{
    if (path.isEmpty() || path == QLatin1String("/"))
        return done.post(
            makeError(ErrorCode::InvalidArgument,
                      QCoreApplication::translate("sandbar::Provider", "Refusing to delete '%1'").arg(path)));
    runSimple(provider, sessionId, {QStringLiteral("rm"), QStringLiteral("-rf"), QStringLiteral("--"), path},
              std::move(done));
}

void makeDirByExec(Provider &provider, const QString &sessionId, const QString &path, Callback<void> done)
{
    runSimple(provider, sessionId, {QStringLiteral("mkdir"), QStringLiteral("-p"), QStringLiteral("--"), path},
              std::move(done));
}

std::optional<Error> moveRefusal(const QString &from, const QString &to)
{
    if (!from.startsWith(QLatin1Char('/')) || !to.startsWith(QLatin1Char('/')))
        return makeError(ErrorCode::InvalidArgument,
                         QCoreApplication::translate("sandbar::Provider", "A move needs absolute paths ('%1' to '%2')")
                             .arg(from, to));
    if (from == QLatin1String("/") || to == QLatin1String("/"))
        return makeError(ErrorCode::InvalidArgument,
                         QCoreApplication::translate("sandbar::Provider", "Refusing to move '/'"));
    if (from == to)
        return makeError(
            ErrorCode::InvalidArgument,
            QCoreApplication::translate("sandbar::Provider", "'%1' and its new name are the same").arg(from));
    if (to.startsWith(from + QLatin1Char('/')))
        return makeError(ErrorCode::InvalidArgument,
                         QCoreApplication::translate("sandbar::Provider", "'%1' cannot move into itself").arg(from));
    return std::nullopt;
}

std::optional<Error> modeRefusal(const QString &path, quint32 mode)
{
    if (!path.startsWith(QLatin1Char('/')))
        return makeError(
            ErrorCode::InvalidArgument,
            QCoreApplication::translate("sandbar::Provider", "Permissions need an absolute path ('%1')").arg(path));
    if (mode > 07777)
        return makeError(
            ErrorCode::InvalidArgument,
            QCoreApplication::translate("sandbar::Provider", "%1 is not a file mode (0000 to 7777)").arg(mode, 0, 8));
    return std::nullopt;
}

QString modeText(quint32 mode)
{
    return QStringLiteral("%1").arg(mode & 07777, 4, 8, QLatin1Char('0'));
}

void movePathByExec(Provider &provider, const QString &sessionId, const QString &from, const QString &to,
                    Callback<void> done)
{
    if (const auto refused = moveRefusal(from, to))
        return done.post(*refused);
    // The paths are arguments, never part of the script; test and mv are one step apart, so
    // a file made in between by the session itself could still be replaced.
    const QString script = QStringLiteral("if [ -e \"$2\" ] || [ -L \"$2\" ]; then echo \"'$2' exists already\" >&2; "
                                          "exit %1; fi; exec mv -- \"$1\" \"$2\"")
                               .arg(kTargetExists);
    runSimple(provider, sessionId, {QStringLiteral("sh"), QStringLiteral("-c"), script, QStringLiteral("sh"), from, to},
              std::move(done));
}

void setModeByExec(Provider &provider, const QString &sessionId, const QString &path, quint32 mode, Callback<void> done)
{
    if (const auto refused = modeRefusal(path, mode))
        return done.post(*refused);
    // No "--": the path is absolute, so it cannot be read as an option, and BusyBox's chmod
    // reads "-" arguments as modes.
    runSimple(provider, sessionId, {QStringLiteral("chmod"), modeText(mode), path}, std::move(done));
}

} // namespace sandbar
