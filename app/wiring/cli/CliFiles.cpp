#include "providers/Provider.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/CliTr.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryFile>
#include <cstdio>
#include <unistd.h>

namespace sandbar::cli {

namespace {

struct RemotePath {
    QString ref;
    QString path;
};

// REF:PATH. A local path that contains ':' can be written ./a:b to keep it local.
std::optional<RemotePath> splitRemote(const QString &arg)
{
    if (arg.startsWith(QLatin1Char('/')) || arg.startsWith(QLatin1String("./")) || arg.startsWith(QLatin1String("../")))
        return std::nullopt;
    const auto colon = arg.indexOf(QLatin1Char(':'));
    if (colon <= 0)
        return std::nullopt;
    return RemotePath{arg.left(colon), arg.mid(colon + 1)};
}

void runTransfer(Command &cmd, TransferJob *job)
{
    job->setParent(&cmd);
    const bool showProgress = ::isatty(STDERR_FILENO) && !cmd.json();
    if (showProgress) {
        QObject::connect(job, &TransferJob::progress, &cmd, [&cmd](qint64 done, qint64 total) {
            const QString line = total > 0 ? QStringLiteral("\r%1 / %2 (%3%)")
                                                 .arg(formatBytes(done), formatBytes(total))
                                                 .arg(done * 100 / total)
                                           : QStringLiteral("\r%1").arg(formatBytes(done));
            cmd.errRaw(line.toUtf8());
        });
    }
    QObject::connect(job, &TransferJob::finished, &cmd, [&cmd, showProgress](const VoidResult &r) {
        if (showProgress)
            cmd.errRaw("\n");
        if (!r.ok())
            return cmd.fail(r.error());
        cmd.finish(ExitOk);
    });
    job->start();
}

} // namespace

// As `docker cp`: the copy rules (files/CopyRules.h) run in the provider's copy job, so only
// the local side's "relative to here" is made absolute here, keeping a trailing "/" or "/.".
void runCp(Command &cmd, const QStringList &args)
{
    if (args.size() != 2)
        return cmd.usage(tr("usage: cp SRC REF:DEST | cp REF:SRC DEST (as docker cp; - is a tar on stdin or stdout)"));
    const QString dash = QStringLiteral("-");
    const auto src = args.at(0) == dash ? std::nullopt : splitRemote(args.at(0));
    const auto dst = args.at(1) == dash ? std::nullopt : splitRemote(args.at(1));
    if (src && dst)
        return cmd.usage(tr("cp copies between this machine and a session; both sides name a session"));
    if (!src && !dst)
        return cmd.usage(tr("cp needs one side written REF:PATH"));
    const auto absoluteLocal = [](const QString &arg) {
        return QDir::isAbsolutePath(arg) ? arg : QDir::currentPath() + QLatin1Char('/') + arg;
    };
    if (dst) {
        const QString remoteDest = dst->path.isEmpty() ? QStringLiteral("/workspace/") : dst->path;
        if (args.at(0) == dash) {
            // The tar is spooled first: a pipe cannot tell the engine how long it is, and
            // what is uploaded is then exactly what was read.
            auto *spool = new QTemporaryFile(&cmd);
            QFile in;
            if (!spool->open() || !in.open(stdin, QIODevice::ReadOnly))
                return cmd.fail(makeError(ErrorCode::Internal, tr("Cannot read the tar from stdin.")));
            for (QByteArray chunk; !(chunk = in.read(256 * 1024)).isEmpty();) {
                if (spool->write(chunk) != chunk.size())
                    return cmd.fail(makeError(ErrorCode::Internal,
                                              tr("Cannot keep the tar from stdin: %1").arg(spool->errorString())));
            }
            spool->seek(0);
            return cmd.withSession(dst->ref, [&cmd, spool, remoteDest](const SessionHandle &h) {
                if (!h.provider->capabilities().testFlag(Capability::Files))
                    return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::Files));
                runTransfer(cmd, h.provider->files()->uploadTar(h.session.id, spool, remoteDest).release());
            });
        }
        const QString localPath = absoluteLocal(args.at(0));
        return cmd.withSession(dst->ref, [&cmd, localPath, remoteDest](const SessionHandle &h) {
            if (!h.provider->capabilities().testFlag(Capability::Files))
                return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::Files));
            runTransfer(cmd, h.provider->files()->upload(h.session.id, localPath, remoteDest).release());
        });
    }
    const QString remote = src->path;
    if (remote.isEmpty())
        return cmd.usage(tr("cp REF:SRC needs a path in the session"));
    if (args.at(1) == dash) {
        auto *out = new QFile(&cmd);
        if (!out->open(stdout, QIODevice::WriteOnly))
            return cmd.fail(makeError(ErrorCode::Internal, tr("Cannot write to stdout.")));
        return cmd.withSession(src->ref, [&cmd, out, remote](const SessionHandle &h) {
            if (!h.provider->capabilities().testFlag(Capability::Files))
                return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::Files));
            auto job = h.provider->files()->downloadTar(h.session.id, remote, out);
            QObject::connect(job.get(), &TransferJob::finished, out, [out] { out->flush(); });
            runTransfer(cmd, job.release());
        });
    }
    const QString localDest = absoluteLocal(args.at(1));
    cmd.withSession(src->ref, [&cmd, remote, localDest](const SessionHandle &h) {
        if (!h.provider->capabilities().testFlag(Capability::Files))
            return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::Files));
        runTransfer(cmd, h.provider->files()->download(h.session.id, remote, localDest).release());
    });
}

void runLs(Command &cmd, const QStringList &args)
{
    const auto remote = args.size() == 1 ? splitRemote(args.first()) : std::nullopt;
    if (!remote)
        return cmd.usage(tr("usage: ls REF:PATH"));
    const QString path = remote->path.isEmpty() ? QStringLiteral("/workspace") : remote->path;
    cmd.withSession(remote->ref, [&cmd, path](const SessionHandle &h) {
        if (!h.provider->capabilities().testFlag(Capability::FileList))
            return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::FileList));
        h.provider->files()->listFiles(
            h.session.id, path, Callback<QList<FileEntry>>(&cmd, [&cmd](Result<QList<FileEntry>> r) {
                if (!r.ok())
                    return cmd.fail(r.error());
                if (cmd.json()) {
                    QJsonArray arr;
                    for (const auto &e : r.value())
                        arr.append(fileEntryToJson(e));
                    cmd.printJson(arr);
                    return cmd.finish(ExitOk);
                }
                for (const auto &e : r.value()) {
                    QString name = e.name;
                    if (e.isDir)
                        name += QLatin1Char('/');
                    if (e.isLink)
                        name += QStringLiteral(" -> ") + e.linkTarget;
                    cmd.out(QStringLiteral("%1  %2  %3  %4")
                                .arg(QString::number(e.mode & 07777, 8).rightJustified(4, QLatin1Char('0')))
                                .arg(QString::number(e.size).rightJustified(12))
                                .arg(e.modified.isValid()
                                         ? e.modified.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                                         : QStringLiteral("-"))
                                .arg(name));
                }
                cmd.finish(ExitOk);
            }));
    });
}

void runMv(Command &cmd, const QStringList &args)
{
    const auto from = args.size() == 2 ? splitRemote(args.first()) : std::nullopt;
    if (!from || from->path.isEmpty())
        return cmd.usage(tr("usage: mv REF:PATH TO"));
    const QString path = QDir::cleanPath(from->path);
    const QString target = args.at(1);
    // A bare name renames in place; anything else is a path in the session.
    const QString to = target.contains(QLatin1Char('/'))
                           ? QDir::cleanPath(target)
                           : QDir::cleanPath(QFileInfo(path).path() + QLatin1Char('/') + target);
    cmd.withSession(from->ref, [&cmd, path, to](const SessionHandle &h) {
        if (!h.provider->capabilities().testFlag(Capability::Files))
            return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::Files));
        h.provider->files()->movePath(h.session.id, path, to, Callback<void>(&cmd, [&cmd](VoidResult r) {
                                          if (!r)
                                              return cmd.fail(r.error());
                                          cmd.finish(ExitOk);
                                      }));
    });
}

void runChmod(Command &cmd, const QStringList &args)
{
    const auto at = args.size() == 2 ? splitRemote(args.at(1)) : std::nullopt;
    bool octal = false;
    const uint mode = args.value(0).toUInt(&octal, 8);
    if (!at || at->path.isEmpty() || !octal || args.value(0).size() > 4)
        return cmd.usage(tr("usage: chmod MODE REF:PATH (MODE: one to four octal digits, such as 644)"));
    const QString path = QDir::cleanPath(at->path);
    cmd.withSession(at->ref, [&cmd, path, mode](const SessionHandle &h) {
        if (!h.provider->capabilities().testFlag(Capability::Files))
            return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::Files));
        h.provider->files()->setMode(h.session.id, path, mode, Callback<void>(&cmd, [&cmd](VoidResult r) {
                                         if (!r)
                                             return cmd.fail(r.error());
                                         cmd.finish(ExitOk);
                                     }));
    });
}

} // namespace sandbar::cli
