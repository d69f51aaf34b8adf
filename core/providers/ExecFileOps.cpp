#include "providers/ExecFileOps.h"

#include "providers/Provider.h"

#include <QCoreApplication>

namespace sandbar {

namespace {

// Runs argv in the session and answers ok on exit 0, else the command's stderr as the error.
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
        done(makeError(ErrorCode::Internal,
                       text.isEmpty() ? QCoreApplication::translate("sandbar::Provider", "%1 exited with status %2")
                                            .arg(argv.join(QLatin1Char(' ')))
                                            .arg(code.value())
                                      : text));
    });
    job->start();
}

} // namespace

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

} // namespace sandbar
