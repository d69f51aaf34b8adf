#include "providers/daytona/DaytonaJobs.h"

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
    // The toolbox has no way to stop a process/execute call; the answer is dropped.
    if (m_done)
        return;
    m_done = true;
    Q_EMIT finished(makeError(ErrorCode::Cancelled, tr("Cancelled")));
}

} // namespace sandbar::daytona
