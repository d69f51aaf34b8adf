#include "providers/Provider.h"

#include "providers/CopyJob.h"

#include <QCoreApplication>
#include <QPointer>
#include <QTimer>

namespace sandbar {

namespace {

// No Q_OBJECT: it adds no signal, it only reports the error once started.
class FailedLogStream : public LogStream
{
public:
    explicit FailedLogStream(Error error)
        : m_error(std::move(error))
    {
    }
    void start() override
    {
        // Later, so that a caller connecting after start() still hears it.
        QTimer::singleShot(0, this, [this]() {
            if (!m_stopped)
                Q_EMIT finished(m_error);
        });
    }
    void stop() override { m_stopped = true; }

private:
    Error m_error;
    bool m_stopped = false;
};

// Runs argv in the session and answers ok on exit 0, else the command's stderr as the error.
void runSimple(Provider *provider, const QString &sessionId, QStringList argv, Callback<void> done)
{
    if (!provider->capabilities().testFlag(Capability::Exec))
        return done(unsupportedError(provider->descriptor(), Capability::Exec));
    ExecRequest request;
    request.argv = argv;
    ExecJob *job = provider->exec(sessionId, request).release();
    if (!job)
        return done(unsupportedError(provider->descriptor(), Capability::Exec));
    // Owned by the provider until it finishes, so that it outlives this call.
    job->setParent(provider);
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

void Provider::removePath(const QString &sessionId, const QString &path, Callback<void> done)
{
    if (path.isEmpty() || path == QLatin1String("/"))
        return done(makeError(ErrorCode::InvalidArgument,
                              QCoreApplication::translate("sandbar::Provider", "Refusing to delete '%1'").arg(path)));
    runSimple(this, sessionId, {QStringLiteral("rm"), QStringLiteral("-rf"), QStringLiteral("--"), path},
              std::move(done));
}

void Provider::makeDir(const QString &sessionId, const QString &path, Callback<void> done)
{
    runSimple(this, sessionId, {QStringLiteral("mkdir"), QStringLiteral("-p"), QStringLiteral("--"), path},
              std::move(done));
}

std::unique_ptr<LogStream> Provider::logs(const QString &sessionId, const LogOptions &options)
{
    Q_UNUSED(sessionId);
    Q_UNUSED(options);
    return std::make_unique<FailedLogStream>(unsupportedError(descriptor(), Capability::Logs));
}

void Provider::archive(const QString &sessionId, Callback<void> done)
{
    Q_UNUSED(sessionId);
    done.post(unsupportedError(descriptor(), Capability::Archive));
}

void Provider::listImages(Callback<QStringList> done)
{
    done(makeError(
        ErrorCode::Unsupported,
        QCoreApplication::translate("sandbar::Provider", "%1 does not list images").arg(descriptor().displayName)));
}

void Provider::listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done)
{
    Q_UNUSED(sessionId);
    done(unsupportedError(descriptor(), Capability::Reattach));
}

void Provider::adopt(const QString &sessionId, Callback<SessionInfo> done)
{
    Q_UNUSED(sessionId);
    done(unsupportedError(descriptor(), Capability::Adopt));
}

std::unique_ptr<TransferJob> Provider::upload(const QString &sessionId, const QString &localPath,
                                              const QString &remoteDest)
{
    return std::make_unique<CopyJob>(this, sessionId, CopyJob::Direction::Upload, localPath, remoteDest);
}

std::unique_ptr<TransferJob> Provider::download(const QString &sessionId, const QString &remotePath,
                                                const QString &localDest)
{
    return std::make_unique<CopyJob>(this, sessionId, CopyJob::Direction::Download, remotePath, localDest);
}

std::unique_ptr<TransferJob> Provider::uploadTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir)
{
    return std::make_unique<CopyJob>(this, sessionId, CopyJob::Direction::UploadTar, QString(), remoteDir, tar);
}

std::unique_ptr<TransferJob> Provider::downloadTar(const QString &sessionId, const QString &remotePath, QIODevice *out)
{
    return getTar(sessionId, remotePath, out);
}

void Provider::statPath(const QString &sessionId, const QString &path, Callback<PathStat> done)
{
    Q_UNUSED(sessionId);
    Q_UNUSED(path);
    done(unsupportedError(descriptor(), Capability::Files));
}

std::unique_ptr<TransferJob> Provider::putItem(const QString &, const QString &, const QString &, const QString &)
{
    return std::make_unique<FailedTransferJob>(unsupportedError(descriptor(), Capability::Files));
}

std::unique_ptr<TransferJob> Provider::getItem(const QString &, const QString &, const QString &, const QString &)
{
    return std::make_unique<FailedTransferJob>(unsupportedError(descriptor(), Capability::Files));
}

std::unique_ptr<TransferJob> Provider::putTar(const QString &, QIODevice *, const QString &)
{
    return std::make_unique<FailedTransferJob>(unsupportedError(descriptor(), Capability::Files));
}

std::unique_ptr<TransferJob> Provider::getTar(const QString &, const QString &, QIODevice *)
{
    return std::make_unique<FailedTransferJob>(unsupportedError(descriptor(), Capability::Files));
}

Error unsupportedError(const ProviderDescriptor &provider, Capability cap)
{
    return makeError(ErrorCode::Unsupported, QCoreApplication::translate("sandbar::Provider", "%1 does not support %2")
                                                 .arg(provider.displayName, capabilityName(cap)));
}

} // namespace sandbar
