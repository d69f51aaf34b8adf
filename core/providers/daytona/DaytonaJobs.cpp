#include "providers/daytona/DaytonaJobs.h"

#include "providers/ExecReaper.h"
#include "providers/daytona/DaytonaParsers.h"
#include "providers/daytona/DaytonaProvider.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

namespace sandbar::daytona {

DaytonaExecJob::DaytonaExecJob(DaytonaProvider *provider, QString sessionId, ExecRequest request, QObject *parent)
    : ExecJob(parent)
    , m_provider(provider)
    , m_sessionId(std::move(sessionId))
    , m_request(std::move(request))
{
}

QString DaytonaExecJob::commandLine(const ExecRequest &request)
{
    // Daytona's own SDK runs commands through `sh` (the daemon may split the line itself):
    // one quoted `sh -c` works both ways.
    QString inner = shellJoin(request.argv);
    if (!request.stdinData.isEmpty())
        inner = QStringLiteral("printf %s %1 | base64 -d | %2")
                    .arg(QString::fromLatin1(request.stdinData.toBase64()), inner);
    return shellJoin({QStringLiteral("sh"), QStringLiteral("-c"), inner});
}

void DaytonaExecJob::start()
{
    if (!m_provider) {
        m_done = true;
        Q_EMIT finished(makeError(ErrorCode::Cancelled, tr("The account was closed")));
        return;
    }
    if (m_request.argv.isEmpty()) {
        m_done = true;
        Q_EMIT finished(makeError(ErrorCode::InvalidArgument, tr("No command to run")));
        return;
    }
    QJsonObject body{{QStringLiteral("command"), commandLine(m_request)}};
    if (!m_request.workingDir.isEmpty())
        body.insert(QStringLiteral("cwd"), m_request.workingDir);
    QJsonObject envs;
    m_tag = execreaper::newTag();
    envs.insert(QLatin1String(execreaper::kTagVariable), m_tag);
    for (const QString &kv : m_request.env) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (eq > 0)
            envs.insert(kv.left(eq), kv.mid(eq + 1));
    }
    if (!envs.isEmpty())
        body.insert(QStringLiteral("envs"), envs);
    cloud::ApiCall call;
    call.method = "POST";
    call.path = QStringLiteral("/process/execute");
    call.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    call.idempotent = false; // a command may not be run twice
    call.timeoutMs = 15 * 60 * 1000;
    m_provider->toolboxCall(m_sessionId, call, Callback<cloud::ApiReply>(this, [this](Result<cloud::ApiReply> r) {
                                if (m_done)
                                    return;
                                m_done = true;
                                if (!r) {
                                    Q_EMIT finished(r.error());
                                    return;
                                }
                                auto out = parseExecute(r->body);
                                if (!out) {
                                    Q_EMIT finished(out.error());
                                    return;
                                }
                                if (!out->stdoutData.isEmpty())
                                    Q_EMIT stdoutData(out->stdoutData);
                                Q_EMIT finished(out->exitCode);
                            }));
}

void DaytonaExecJob::cancel()
{
    if (m_done)
        return;
    m_done = true;
    if (m_tag.isEmpty() || !m_provider) {
        Q_EMIT finished(makeError(ErrorCode::Cancelled, tr("Cancelled")));
        return;
    }
    ExecRequest reaper;
    reaper.argv = execreaper::argv(m_tag);
    cloud::ApiCall call;
    call.method = "POST";
    call.path = QStringLiteral("/process/execute");
    call.body =
        QJsonDocument(QJsonObject{{QStringLiteral("command"), commandLine(reaper)}}).toJson(QJsonDocument::Compact);
    call.idempotent = false;
    call.timeoutMs = 60 * 1000;
    // Bound to the provider, not the job: a job deleted right after cancel() (an agent's
    // cancelled call) must still have its command killed.
    m_provider->toolboxCall(
        m_sessionId, call,
        Callback<cloud::ApiReply>(m_provider.data(), [self =
                                                          QPointer<DaytonaExecJob>(this)](Result<cloud::ApiReply> r) {
            if (!self)
                return;
            Result<int> signalled = r ? Result<int>(0) : Result<int>(r.error());
            if (r) {
                auto out = parseExecute(r->body);
                signalled = out ? execreaper::outcome(out->exitCode, QString::fromUtf8(out->stdoutData))
                                : Result<int>(out.error());
            }
            const QString what =
                signalled ? DaytonaExecJob::tr("Cancelled; %n process(es) of the command were ended.", nullptr,
                                               signalled.value())
                          : DaytonaExecJob::tr("Cancelled, but its processes could not be killed and may still run: %1")
                                .arg(signalled.message());
            Q_EMIT self->finished(makeError(ErrorCode::Cancelled, what));
        }));
}

} // namespace sandbar::daytona
