#include "wiring/cli/McpAgent.h"

#include "audit/AuditLog.h"
#include "audit/Sanitizer.h"
#include "providers/Provider.h"

#include <QCoreApplication>
#include <QTimer>
#include <memory>

namespace sandbar::cli {

using mcp::PolicyVerdict;
using mcp::ToolCall;
using mcp::ToolResult;

namespace {

// While a call waits for the person, a client that asked for progress hears that it is
// alive this often (the SDK's request timeout is 60 s unless progress resets it).
constexpr int kWaitingProgressMs = 10000;
// Removing a gone client's sessions must not keep sandbarctl alive for ever.
constexpr int kCleanupDeadlineMs = 120000;

// The account a call's arguments name, directly or as the ACCOUNT/ID of a session.
QString accountOf(const QJsonObject &args)
{
    if (args.contains(QLatin1String("account")))
        return args.value(QLatin1String("account")).toString();
    const QString ref = args.value(QLatin1String("session")).toString();
    const qsizetype slash = ref.indexOf(QLatin1Char('/'));
    return slash > 0 ? ref.left(slash) : QString();
}

} // namespace

McpAgent::McpAgent(AppServices &services, mcp::McpServer &server, mcp::AgentSink *sink, QString transport,
                   QObject *parent)
    : QObject(parent)
    , m_services(services)
    , m_server(server)
    , m_sink(sink)
    , m_transport(std::move(transport))
{
    server.setCallGate([this](const mcp::Tool &tool, ToolCall *call) { gate(tool, call); });
    server.setToolFilter([this](const QString &tool) {
        const auto p = policy();
        return p.ok() && p->toolEnabled(tool);
    });
}

Result<mcp::AgentPolicy> McpAgent::policy() const
{
    return mcp::loadAgentPolicy(m_services.configDir);
}

mcp::AgentClient McpAgent::client() const
{
    mcp::AgentClient c;
    c.name = m_server.client().name;
    c.version = m_server.client().version;
    c.transport = m_transport;
    c.pid = m_transport == QLatin1String("stdio") ? QCoreApplication::applicationPid() : 0;
    return c;
}

QString McpAgent::agentLabel() const
{
    const auto c = client();
    const QString name = c.name.isEmpty() ? tr("unnamed client") : c.name;
    return (c.version.isEmpty() ? name : name + QLatin1Char(' ') + c.version).left(200);
}

void McpAgent::gate(const mcp::Tool &tool, ToolCall *call)
{
    const QString eventId = QString::number(m_nextId++);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    // Redacted once: the window sees the same arguments when the call starts and ends.
    const QJsonObject shown = m_sink ? audit::agentArgumentsDetail(call->arguments()) : QJsonObject();
    if (m_sink) {
        mcp::CallEvent started;
        started.id = eventId;
        started.client = client();
        started.tool = tool.name;
        started.arguments = shown;
        m_sink->report(started);
    }
    connect(call, &ToolCall::finished, this, [this, call, eventId, shown, clock](const ToolResult &r) {
        record(call, eventId, shown, clock->elapsed(), !r.isError, r.isError ? r.text : QString());
    });
    connect(call, &ToolCall::cancelled, this, [this, call, eventId, shown, clock] {
        record(call, eventId, shown, clock->elapsed(), false, tr("Cancelled by the client."));
    });

    const auto p = policy();
    if (!p.ok())
        return call->fail(p.error());
    const QString account = call->arguments().value(QLatin1String("account")).toString();
    if (!account.isEmpty() && !p->allowsAccount(account))
        return call->fail(
            makeError(ErrorCode::Unauthorized, tr("Account '%1' is not allowed by the agent policy.").arg(account)));
    decide(call, mcp::evaluateTool(*p, tool.name), [run = tool.run, call] { run(call); });
}

void McpAgent::decide(ToolCall *call, const PolicyVerdict &verdict, std::function<void()> next)
{
    switch (verdict.kind) {
    case PolicyVerdict::Kind::Allow: return next();
    case PolicyVerdict::Kind::Deny: return call->fail(makeError(ErrorCode::Unauthorized, verdict.message));
    case PolicyVerdict::Kind::NeedsApproval: break;
    }
    const QString why = verdict.reasons.join(QStringLiteral("; "));
    if (!m_sink)
        return call->fail(makeError(
            ErrorCode::Unauthorized,
            tr("This call needs the person's approval (%1), and there is no Sandbar window to ask.").arg(why)));
    mcp::ApprovalRequest request;
    request.id = QStringLiteral("a") + QString::number(m_nextId++);
    request.client = client();
    request.tool = call->toolName();
    request.arguments = audit::agentArgumentsDetail(call->arguments());
    request.reasons = verdict.reasons;

    auto *waiting = new QTimer(call);
    auto ticks = std::make_shared<int>(0);
    connect(waiting, &QTimer::timeout, call, [call, ticks] {
        ++*ticks;
        call->reportProgress(*ticks, 0, tr("Waiting for approval in the Sandbar window"));
    });
    waiting->start(kWaitingProgressMs);
    connect(call, &ToolCall::cancelled, this, [sink = m_sink, id = request.id] { sink->withdraw(id); });
    m_sink->ask(request, call, [call, waiting, next, why](mcp::ApprovalAnswer answer) {
        waiting->stop();
        if (call->isDone())
            return;
        if (!answer.approved())
            return call->fail(makeError(ErrorCode::Unauthorized,
                                        answer.message.isEmpty()
                                            ? tr("The person denied this call in the Sandbar window (%1).").arg(why)
                                            : answer.message));
        next();
    });
}

void McpAgent::record(ToolCall *call, const QString &eventId, const QJsonObject &shown, qint64 durationMs, bool ok,
                      const QString &message)
{
    const QJsonObject args = call->arguments();
    if (m_sink) {
        mcp::CallEvent done;
        done.id = eventId;
        done.client = client();
        done.tool = call->toolName();
        done.arguments = shown;
        done.finished = true;
        done.ok = ok;
        done.message = message;
        done.durationMs = durationMs;
        m_sink->report(done);
    }
    if (!m_services.audit)
        return;
    const QString account = accountOf(args);
    const auto acct = m_services.accounts->find(account);
    const QString ref = args.value(QLatin1String("session")).toString();
    const QString sessionId = ref.contains(QLatin1Char('/')) ? ref.section(QLatin1Char('/'), 1) : ref;
    const auto c = client();
    audit::AuditEntry e =
        audit::makeEntry(audit::Action::AgentCall, account, acct ? acct->provider : QString(), sessionId,
                         audit::agentCallDetail(c.name, c.version, c.transport, call->toolName(), args, durationMs));
    if (!ok)
        e.setError(makeError(ErrorCode::Internal, message.left(2000)));
    // A log that cannot be written is the window's to report; the agent's call has its answer.
    (void)m_services.audit->append(std::move(e));
}

void McpAgent::sessionCreated(const QString &account, const QString &id)
{
    m_created.append({account, id});
}

void McpAgent::clientGone(std::function<void()> done)
{
    const auto current = policy();
    if (!current.ok() || !current->removeOnDisconnect || m_created.isEmpty())
        return done();
    auto pending = std::make_shared<int>(int(m_created.size()));
    auto finished = std::make_shared<bool>(false);
    const auto finishOnce = [done, finished] {
        if (*finished)
            return;
        *finished = true;
        done();
    };
    // Bound to the registry, not to this agent: over HTTP the agent goes with its session,
    // which may be before the removals answer.
    QObject *context = m_services.registry.get();
    QTimer::singleShot(kCleanupDeadlineMs, context, finishOnce);
    const auto created = std::exchange(m_created, {});
    for (const auto &entry : created) {
        // Plain variables, not a structured binding: capturing a binding in a lambda is
        // C++20 (P1091), which Clang accepts only from version 16.
        const QString &account = entry.first;
        const QString id = entry.second;
        m_services.registry->provider(
            account, Callback<Provider *>(context, [context, id, pending, finishOnce](Result<Provider *> p) {
                const auto one = [pending, finishOnce] {
                    if (--*pending == 0)
                        finishOnce();
                };
                if (!p.ok())
                    return one();
                p.value()->remove(id, Callback<void>(context, [one](VoidResult) { one(); }));
            }));
    }
}

} // namespace sandbar::cli
