#include "DaytonaContext.h"

#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QDateTime>
#include <QJsonArray>
#include <csignal>

namespace contract::daytona {

namespace {

constexpr qint64 kGiB = 1024LL * 1024 * 1024;
constexpr int kSampleEveryMs = 5000;
constexpr int kMaxSamples = 720; // an hour at one sample every 5 s

} // namespace

Context::Context(Server &srv, SandboxHost &sandboxHost, const Options &options, QObject *parent)
    : QObject(parent)
    , server(srv)
    , host(sandboxHost)
    , apiKey(options.apiKey)
    , baseUrl(options.baseUrl)
{
    bool ok = false;
    const qint64 minute = qEnvironmentVariableIntValue("SANDBAR_CONTRACT_DAYTONA_MINUTE_MS", &ok);
    if (ok && minute > 0)
        minuteMs = minute;
    m_timer.setInterval(qMin<qint64>(1000, qMax<qint64>(50, minuteMs / 4)));
    connect(&m_timer, &QTimer::timeout, this, &Context::tick);
    m_timer.start();
    connect(&host, &SandboxHost::sandboxRemoved, this, [this](const QString &id) { forget(id); });
}

QJsonObject Context::errorJson(int status, const QString &message)
{
    return {{QStringLiteral("statusCode"), status},
            {QStringLiteral("message"), message},
            {QStringLiteral("error"), QString::fromLatin1(Responder::reasonPhrase(status))}};
}

void Context::error(Responder *responder, int status, const QString &message)
{
    responder->sendJson(status, errorJson(status, message));
}

QString Context::iso(const QDateTime &time)
{
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QString Context::nowIso()
{
    return iso(QDateTime::currentDateTimeUtc());
}

bool Context::authorized(const Request &request) const
{
    const QByteArray header = request.header("authorization");
    if (!header.startsWith("Bearer "))
        return false;
    return QString::fromUtf8(header.mid(7).trimmed()) == apiKey;
}

bool Context::authorize(const Request &request, Responder *responder) const
{
    if (authorized(request))
        return true;
    const QString message = request.hasHeader("authorization") ? QStringLiteral("Invalid credentials")
                                                               : QStringLiteral("No authorization header provided");
    error(responder, 401, message);
    return false;
}

Sandbox *Context::find(const QString &idOrName) const
{
    if (Sandbox *sandbox = host.find(idOrName))
        return sandbox;
    const QList<Sandbox *> all = host.sandboxes();
    for (Sandbox *sandbox : all) {
        if (sandbox->data.value(QStringLiteral("name")).toString() == idOrName)
            return sandbox;
    }
    return nullptr;
}

void Context::touch(const QString &id)
{
    extra(id).lastActivityMs = QDateTime::currentMSecsSinceEpoch();
}

Sandbox *Context::toolboxSandbox(const Request &request, Responder *responder)
{
    if (!authorize(request, responder))
        return nullptr;
    Sandbox *sandbox = host.find(request.param(QStringLiteral("sandboxId")));
    if (!sandbox) {
        error(responder, 404, QStringLiteral("Sandbox not found"));
        return nullptr;
    }
    if (sandbox->state() != QLatin1String(kStarted)) {
        // The proxy refuses a toolbox call to a sandbox that is not running.
        error(responder, 400,
              QStringLiteral("Sandbox %1 is not started (state: %2)").arg(sandbox->id(), sandbox->state()));
        return nullptr;
    }
    touch(sandbox->id());
    return sandbox;
}

void Context::stopSandbox(Sandbox *sandbox)
{
    if (closeAllPtys)
        closeAllPtys(sandbox);
    const QList<SandboxProcess *> processes = sandbox->processes();
    for (SandboxProcess *process : processes) {
        if (process->isRunning())
            process->sendSignal(SIGKILL);
    }
    changeState(sandbox, QLatin1String(kStopped));
    if (sandbox->data.value(QStringLiteral("autoDeleteInterval")).toInt(-1) == 0)
        deleteSandbox(sandbox);
}

void Context::changeState(Sandbox *sandbox, const QString &state)
{
    const QString old = sandbox->state();
    sandbox->setState(state);
    sandbox->data.insert(QStringLiteral("updatedAt"), nowIso());
    if (old != state) {
        Q_EMIT event(QStringLiteral("sandbox.state.updated"),
                     QJsonObject{{QStringLiteral("sandbox"), sandboxJson(sandbox)},
                                 {QStringLiteral("oldState"), old},
                                 {QStringLiteral("newState"), state}});
    }
}

void Context::deleteSandbox(Sandbox *sandbox)
{
    if (closeAllPtys)
        closeAllPtys(sandbox);
    QJsonObject dto = sandboxJson(sandbox);
    dto.insert(QStringLiteral("state"), QStringLiteral("destroyed"));
    Q_EMIT event(QStringLiteral("sandbox.state.updated"),
                 QJsonObject{{QStringLiteral("sandbox"), dto},
                             {QStringLiteral("oldState"), sandbox->state()},
                             {QStringLiteral("newState"), QStringLiteral("destroyed")}});
    const QString id = sandbox->id();
    host.kill(id);
    forget(id);
}

void Context::sample(Sandbox *sandbox)
{
    if (sandbox->state() != QLatin1String(kStarted))
        return;
    const SandboxMetrics m = sandbox->metrics();
    const double cpus = qMax(1.0, sandbox->data.value(QStringLiteral("cpu")).toDouble(1));
    const double memoryLimit = sandbox->data.value(QStringLiteral("memory")).toDouble(1) * kGiB;
    const double diskTotal = sandbox->data.value(QStringLiteral("disk")).toDouble(3) * kGiB;
    QHash<QString, double> values;
    values.insert(QStringLiteral("daytona.sandbox.cpu.utilization"), m.cpuPercent / cpus);
    values.insert(QStringLiteral("daytona.sandbox.cpu.limit"), cpus);
    values.insert(QStringLiteral("daytona.sandbox.memory.usage"), double(m.memoryBytes));
    values.insert(QStringLiteral("daytona.sandbox.memory.limit"), memoryLimit);
    values.insert(QStringLiteral("daytona.sandbox.memory.utilization"), 100.0 * double(m.memoryBytes) / memoryLimit);
    values.insert(QStringLiteral("daytona.sandbox.filesystem.usage"), double(m.diskBytes));
    values.insert(QStringLiteral("daytona.sandbox.filesystem.total"), diskTotal);
    values.insert(QStringLiteral("daytona.sandbox.filesystem.available"), qMax(0.0, diskTotal - double(m.diskBytes)));
    values.insert(QStringLiteral("daytona.sandbox.filesystem.utilization"), 100.0 * double(m.diskBytes) / diskTotal);
    auto &samples = extra(sandbox->id()).samples;
    samples.append({QDateTime::currentMSecsSinceEpoch(), values});
    while (samples.size() > kMaxSamples)
        samples.removeFirst();
}

void Context::tick()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const bool sampleNow = now - m_lastSampleMs >= kSampleEveryMs;
    if (sampleNow)
        m_lastSampleMs = now;
    const QList<Sandbox *> all = host.sandboxes();
    for (Sandbox *sandbox : all) {
        if (sandbox->state() != QLatin1String(kStarted))
            continue;
        const int autoStop = sandbox->data.value(QStringLiteral("autoStopInterval")).toInt();
        const qint64 last = extra(sandbox->id()).lastActivityMs;
        if (autoStop > 0 && last > 0 && now - last >= autoStop * minuteMs) {
            // Daytona's auto-stop counts idle minutes (no toolbox traffic), not wall-clock time.
            sandbox->log(QStringLiteral("info"), QStringLiteral("auto-stopped after %1 idle minutes").arg(autoStop));
            stopSandbox(sandbox);
            continue;
        }
        if (sampleNow)
            sample(sandbox);
    }
}

QJsonObject Context::sandboxJson(Sandbox *sandbox)
{
    QJsonObject o = sandbox->data;
    o.insert(QStringLiteral("id"), sandbox->id());
    o.insert(QStringLiteral("state"), sandbox->state());
    o.insert(QStringLiteral("desiredState"),
             sandbox->state() == QLatin1String(kArchived) ? QLatin1String(kArchived) : sandbox->state());
    o.insert(QStringLiteral("labels"), sandbox->metadata);
    QJsonObject env;
    for (auto it = sandbox->envVars.cbegin(); it != sandbox->envVars.cend(); ++it)
        env.insert(it.key(), it.value());
    o.insert(QStringLiteral("env"), env);
    o.insert(QStringLiteral("createdAt"), iso(sandbox->createdAt));
    const qint64 last = extra(sandbox->id()).lastActivityMs;
    if (last > 0)
        o.insert(QStringLiteral("lastActivityAt"), iso(QDateTime::fromMSecsSinceEpoch(last, Qt::UTC)));
    o.insert(QStringLiteral("toolboxProxyUrl"), toolboxProxyUrl());
    return o;
}

} // namespace contract::daytona
