#include "costs/CostLedger.h"
#include "costs/CostMeter.h"
#include "costs/CostModel.h"
#include "providers/Provider.h"
#include "wiring/cli/CliCreateOptions.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/CliTr.h"
#include "wiring/cli/McpAgent.h"
#include "wiring/cli/McpTools.h"

#include <QTimer>
#include <algorithm>
#include <memory>

namespace sandbar::cli {

using mcp::Tool;
using mcp::ToolCall;
using mcp::ToolResult;
using namespace mcpschema;

namespace {

// How long create waits for the accounts' session lists before counting what it has (an
// unreachable cloud account must not hold every create up).
constexpr int kCountDeadlineMs = 10000;

// A create option's JSON Schema type, from its descriptor type.
QJsonObject optionSchema(const FieldDescriptor &f, const QStringList &providers)
{
    QString help = f.help.isEmpty() ? f.label : f.help;
    if (!providers.isEmpty())
        help += tr(" (providers: %1)").arg(providers.join(QStringLiteral(", ")));
    switch (f.type) {
    case FieldType::Boolean: return prop(QStringLiteral("boolean"), help);
    case FieldType::Integer: return prop(QStringLiteral("integer"), help);
    case FieldType::Number: return prop(QStringLiteral("number"), help);
    case FieldType::Bytes:
        return prop(QStringList{QStringLiteral("string"), QStringLiteral("integer")},
                    help + tr("; bytes, or a size such as 512M or 2G"));
    case FieldType::Duration:
        return prop(QStringList{QStringLiteral("integer"), QStringLiteral("string")},
                    help + tr("; seconds, or 30m, 2h, 1d"));
    case FieldType::Gpus:
        return prop(QStringList{QStringLiteral("string"), QStringLiteral("integer")},
                    help + tr("; \"all\", a count, or GPU UUIDs or indices separated by commas"));
    case FieldType::Env: return array(QStringLiteral("string"), help + tr("; KEY=VALUE entries"));
    case FieldType::Labels: return array(QStringLiteral("string"), help + tr("; KEY=VALUE or KEY entries"));
    case FieldType::Ports: return array(QStringLiteral("string"), help + tr("; [HOST:]SESSION[/tcp|/udp] entries"));
    case FieldType::Mounts: return array(QStringLiteral("string"), help);
    case FieldType::Choice: {
        QJsonObject o = prop(QStringLiteral("string"), help);
        o[QStringLiteral("enum")] = QJsonArray::fromStringList(f.choices);
        return o;
    }
    default: return prop(QStringLiteral("string"), help);
    }
}

// What a JSON argument says, as the text the descriptors' parser reads (a list for Env, Ports).
QStringList optionTexts(const QJsonValue &v)
{
    if (v.isBool())
        return {v.toBool() ? QStringLiteral("true") : QStringLiteral("false")};
    if (v.isDouble())
        return {QString::number(v.toDouble(), 'g', 17)};
    if (v.isArray()) {
        QStringList out;
        for (const auto &x : v.toArray())
            out << optionTexts(x);
        return out;
    }
    return {v.toString()};
}

// The price of an hour of a session with these resources, when the catalog knows it (0 for a
// self-hosted provider).
std::optional<double> usdPerHour(AppServices &services, const QString &provider, std::optional<double> cpus,
                                 std::optional<qint64> memoryBytes, int gpus)
{
    const catalog::ProviderEntry *entry = services.costs ? services.costs->entryFor(provider) : nullptr;
    if (!entry)
        return std::nullopt;
    if (entry->selfHosted)
        return 0.0;
    if (!cpus || !memoryBytes)
        return std::nullopt;
    costs::LiveResources r;
    r.vcpus = *cpus;
    r.memoryGib = double(*memoryBytes) / (1024.0 * 1024 * 1024);
    r.gpuCount = std::max(gpus, 0);
    const costs::LiveCost live = costs::liveCost(*entry, r, 0);
    return live.known ? std::optional<double>(live.usdPerHour) : std::nullopt;
}

// Non-empty when account's monthly budget is spent: what to tell the agent.
QString budgetReached(AppServices &services, const QString &account)
{
    if (!services.ledger)
        return {};
    const auto budget = services.ledger->budget(account);
    if (!budget.ok() || !budget.value() || budget.value()->monthlyUsd <= 0)
        return {};
    const auto spend = services.ledger->spend(account, services.clock->currentDate());
    if (!spend.ok() || spend.value() < budget.value()->monthlyUsd)
        return {};
    return tr("The monthly budget of $%1 for '%2' is reached ($%3 spent this month); no new sessions there until "
              "next month or until the budget is raised.")
        .arg(budget.value()->monthlyUsd, 0, 'f', 2)
        .arg(account)
        .arg(spend.value(), 0, 'f', 2);
}

// Refreshes the accounts agents may use, then counts the sessions agents made that still run
// (or are starting or paused) and their price an hour.
void countAgentSessions(AppServices &services, const mcp::AgentPolicy &policy, ToolCall *call,
                        std::function<void(int count, double usdPerHour)> done)
{
    struct State {
        int pending = 0;
        bool answered = false;
    };
    auto state = std::make_shared<State>();
    const auto answer = [&services, state, done] {
        if (state->answered)
            return;
        state->answered = true;
        int count = 0;
        double usd = 0;
        for (const auto &s : services.registry->sessions()) {
            if (!s.labels.contains(QLatin1String(labels::Agent)) || s.state == SessionState::Stopped ||
                s.state == SessionState::Error)
                continue;
            ++count;
            if (s.state == SessionState::Running)
                usd += usdPerHour(services, s.provider, s.cpus, s.memoryBytes, s.gpus).value_or(0);
        }
        done(count, usd);
    };
    QStringList accounts;
    for (const auto &a : services.accounts->accounts()) {
        if (policy.allowsAccount(a.name))
            accounts << a.name;
    }
    state->pending = int(accounts.size());
    if (accounts.isEmpty())
        return answer();
    QTimer::singleShot(kCountDeadlineMs, call, answer);
    for (const auto &a : accounts) {
        services.registry->refreshAccount(a, Callback<QList<SessionInfo>>(call, [state, answer](auto) {
                                              if (--state->pending == 0)
                                                  answer();
                                          }));
    }
}

} // namespace

QList<FieldDescriptor> mcpCreateFields(const ProviderDescriptor &descriptor)
{
    QList<FieldDescriptor> fields = createOptionsCli(descriptor).fields;
    for (auto &f : fields) {
        if (f.type == FieldType::Mounts)
            f.help = tr("Folders of this computer in the session, HOST:PATH[:ro] entries; only where the agent "
                        "policy allows host paths, and by default after the person approves");
    }
    return fields;
}

namespace {

// Every provider's options in one schema: an option another provider offers is refused
// with a message naming what this account's provider takes.
QJsonObject createInputSchema(AppServices &services)
{
    QJsonObject props{{QStringLiteral("account"), prop(QStringLiteral("string"), tr("The account to create in"))}};
    QMap<QString, QStringList> providersOf;
    QMap<QString, FieldDescriptor> allFields;
    for (const auto &factory : services.factories.all()) {
        for (const auto &f : mcpCreateFields(factory->descriptor())) {
            providersOf[f.key] << factory->descriptor().id;
            if (!allFields.contains(f.key) || (allFields[f.key].help.isEmpty() && !f.help.isEmpty()))
                allFields.insert(f.key, f);
        }
    }
    for (auto it = allFields.cbegin(); it != allFields.cend(); ++it)
        props[it.key()] = optionSchema(it.value(), providersOf.value(it.key()));
    return object(props, {QStringLiteral("account")});
}

// The provider's create options, each labelled with its key.
QList<FieldDescriptor> agentCreateFields(const ProviderDescriptor &descriptor)
{
    QList<FieldDescriptor> fields;
    for (auto f : mcpCreateFields(descriptor)) {
        f.label = f.key; // errors name the argument as the agent wrote it
        fields << f;
    }
    return fields;
}

// Fills texts from the call's arguments; non-empty when one is no option of the provider:
// what to tell the agent.
QString argumentTexts(const QJsonObject &args, const QList<FieldDescriptor> &fields, const QString &provider,
                      const QString &account, QMap<QString, QStringList> &texts)
{
    for (auto it = args.constBegin(); it != args.constEnd(); ++it) {
        const bool known =
            std::any_of(fields.cbegin(), fields.cend(), [&](const FieldDescriptor &f) { return f.key == it.key(); });
        if (!known) {
            QStringList keys;
            for (const auto &f : fields)
                keys << f.key;
            return tr("Provider '%1' (account '%2') has no create option '%3'; it takes: %4.")
                .arg(provider, account, it.key(), keys.join(QStringLiteral(", ")));
        }
        texts.insert(it.key(), optionTexts(it.value()));
    }
    return {};
}

mcp::CreateFacts createFacts(AppServices &svc, const QString &account, const QString &provider, bool selfHosted,
                             const CreateSpec &spec, bool hasTtl)
{
    mcp::CreateFacts facts;
    facts.account = account;
    facts.paid = !selfHosted;
    facts.network = spec.network;
    facts.hostPaths = !spec.mounts.isEmpty();
    facts.hasTtl = hasTtl;
    facts.ttlSeconds = spec.ttlSeconds;
    facts.usdPerHour = usdPerHour(svc, provider, spec.cpus, spec.memoryBytes, spec.gpus);
    facts.budgetReached = budgetReached(svc, account);
    return facts;
}

// The policy said yes: creates the session and answers the call with it.
// The answer to a create or a fork: the new session, counted as the agent's.
// filesFrom: a fork's origin of its files (ForkFacet::forkOrigin), answered as files_from.
Callback<SessionInfo> agentsNewSession(McpAgent &agent, ToolCall *call, const QString &account,
                                       const QString &filesFrom = {})
{
    return Callback<SessionInfo>(call, [&agent, call, account, filesFrom](Result<SessionInfo> r) {
        if (!r.ok())
            return call->fail(r.error());
        SessionInfo s = r.value();
        s.account = account;
        agent.sessionCreated(account, s.id);
        QJsonObject answer{{QStringLiteral("session"), sessionToJson(s)}};
        if (!filesFrom.isEmpty())
            answer.insert(QStringLiteral("files_from"), filesFrom);
        call->finish(ToolResult::ok(answer));
    });
}

void createApproved(McpAgent &agent, ToolCall *call, const CreateSpec &spec, const QString &account)
{
    agent.services().registry->provider(account,
                                        Callback<Provider *>(call, [&agent, call, spec, account](Result<Provider *> p) {
                                            if (!p.ok())
                                                return call->fail(p.error());
                                            p.value()->create(spec, agentsNewSession(agent, call, account));
                                        }));
}

void runCreateSession(McpAgent &agent, ToolCall *call)
{
    AppServices &svc = agent.services();
    const auto policy = agent.policy();
    if (!policy.ok())
        return call->fail(policy.error());
    QJsonObject args = call->arguments();
    const QString account = args.take(QLatin1String("account")).toString();
    const auto acct = svc.accounts->find(account);
    if (!acct)
        return call->fail(tr("No account named '%1' (list_accounts shows them).").arg(account));
    const ProviderFactory *factory = svc.factories.find(acct->provider);
    if (!factory)
        return call->fail(
            tr("Account '%1' uses provider '%2', which this build does not have.").arg(account, acct->provider));
    const QList<FieldDescriptor> fields = agentCreateFields(factory->descriptor());
    QMap<QString, QStringList> texts;
    if (const QString unknown = argumentTexts(args, fields, acct->provider, account, texts); !unknown.isEmpty())
        return call->fail(unknown);
    const bool hasTtl = std::any_of(fields.cbegin(), fields.cend(),
                                    [](const FieldDescriptor &f) { return f.key == QLatin1String(createkeys::Ttl); });
    if (hasTtl && !texts.contains(QLatin1String(createkeys::Ttl)))
        texts.insert(QLatin1String(createkeys::Ttl), {QString::number(policy->defaultTtlSeconds)});
    auto values = parseFieldValues(fields, texts);
    if (!values)
        return call->fail(makeError(ErrorCode::InvalidArgument, values.message()));
    CreateSpec spec = createSpecFromOptions(*values);
    spec.labels.insert(QLatin1String(labels::Agent), agent.agentLabel());

    const mcp::CreateFacts facts =
        createFacts(svc, account, acct->provider, factory->descriptor().selfHosted, spec, hasTtl);
    // Refused without asking anyone when a limit that needs no count says no.
    if (const auto early = mcp::evaluateCreate(*policy, facts); early.kind == mcp::PolicyVerdict::Kind::Deny)
        return call->fail(makeError(ErrorCode::Unauthorized, early.message));
    countAgentSessions(svc, *policy, call,
                       [&agent, call, policy = *policy, facts, spec, account](int count, double usd) {
                           mcp::CreateFacts counted = facts;
                           counted.agentSessions = count;
                           counted.agentUsdPerHour = usd;
                           agent.decide(call, mcp::evaluateCreate(policy, counted),
                                        [&agent, call, spec, account] { createApproved(agent, call, spec, account); });
                       });
}

// The facts and the fork of a copy of source: the copy runs with the source's resources, as
// the agent's, with the time limit the call gives or the policy's default.
struct ForkPlan {
    mcp::CreateFacts facts;
    ForkSpec spec;
};

Result<ForkPlan> forkPlan(McpAgent &agent, const mcp::AgentPolicy &policy, const ProviderDescriptor &descriptor,
                          const SessionInfo &source, const QJsonObject &args)
{
    const QList<FieldDescriptor> fields = agentCreateFields(descriptor);
    const auto ttlField = std::find_if(fields.cbegin(), fields.cend(), [](const FieldDescriptor &f) {
        return f.key == QLatin1String(createkeys::Ttl);
    });
    const bool hasTtl = ttlField != fields.cend();
    const QJsonValue ttlArg = args.value(QLatin1String(createkeys::Ttl));
    if (!hasTtl && !ttlArg.isUndefined())
        return makeError(ErrorCode::InvalidArgument,
                         tr("Provider '%1' takes no time limit; call again without ttl.").arg(descriptor.id));
    CreateSpec copy; // what the policy weighs: the source's resources, the copy's time limit
    if (hasTtl) {
        const QStringList text =
            ttlArg.isUndefined() ? QStringList{QString::number(policy.defaultTtlSeconds)} : optionTexts(ttlArg);
        const auto values = parseFieldValues({*ttlField}, {{QLatin1String(createkeys::Ttl), text}});
        if (!values)
            return makeError(ErrorCode::InvalidArgument, values.message());
        copy.ttlSeconds = createSpecFromOptions(*values).ttlSeconds;
    }
    copy.network = source.network;
    copy.mounts = source.mounts;
    copy.cpus = source.cpus;
    copy.memoryBytes = source.memoryBytes;
    copy.gpus = source.gpus;
    ForkPlan plan;
    plan.facts = createFacts(agent.services(), source.account, source.provider, descriptor.selfHosted, copy, hasTtl);
    plan.spec.name = args.value(QLatin1String("name")).toString().trimmed();
    plan.spec.labels.insert(QLatin1String(labels::Agent), agent.agentLabel());
    if (copy.ttlSeconds > 0)
        plan.spec.labels.insert(QLatin1String(labels::Ttl), QString::number(copy.ttlSeconds));
    return plan;
}

// The policy said yes: forks and answers the call with the copy.
void forkApproved(McpAgent &agent, ToolCall *call, const QString &account, const QString &sourceId,
                  const ForkSpec &spec)
{
    agent.services().registry->provider(
        account, Callback<Provider *>(call, [&agent, call, account, sourceId, spec](Result<Provider *> p) {
            if (!p.ok())
                return call->fail(p.error());
            ForkFacet *fork = p.value()->forking();
            if (!fork)
                return call->fail(unsupportedError(p.value()->descriptor(), Capability::Fork).message);
            fork->forkOrigin(
                sourceId,
                Callback<QString>(call, [&agent, call, account, sourceId, spec, fork](Result<QString> origin) {
                    fork->fork(sourceId, spec, agentsNewSession(agent, call, account, origin.valueOr(QString())));
                }));
        }));
}

// fork_session: the copy is a new session, so it passes the limits create_session passes
// (sessions at once, spend an hour, the time limit, the budget, the approvals) or an agent
// could grow past them one fork at a time.
void runForkSession(McpAgent &agent, ToolCall *call)
{
    const auto policy = agent.policy();
    if (!policy.ok())
        return call->fail(policy.error());
    withMcpSession(agent.services(), call, [&agent, call, policy = *policy](Provider *p, const SessionInfo &s) {
        if (!p->forking())
            return call->fail(unsupportedError(p->descriptor(), Capability::Fork).message);
        const auto plan = forkPlan(agent, policy, p->descriptor(), s, call->arguments());
        if (!plan)
            return call->fail(plan.error());
        if (const auto early = mcp::evaluateCreate(policy, plan->facts); early.kind == mcp::PolicyVerdict::Kind::Deny)
            return call->fail(makeError(ErrorCode::Unauthorized, early.message));
        countAgentSessions(agent.services(), policy, call,
                           [&agent, call, policy, plan = *plan, account = s.account, id = s.id](int count, double usd) {
                               mcp::CreateFacts counted = plan.facts;
                               counted.agentSessions = count;
                               counted.agentUsdPerHour = usd;
                               agent.decide(call, mcp::evaluateCreate(policy, counted),
                                            [&agent, call, spec = plan.spec, account, id] {
                                                forkApproved(agent, call, account, id, spec);
                                            });
                           });
    });
}

} // namespace

Tool mcpCreateSessionTool(McpAgent &agent)
{
    AppServices &services = agent.services();
    Tool t = newTool(QStringLiteral("create_session"), tr("Create a session"),
                     tr("Starts a new sandbox session in an account and answers once it runs. Options depend on "
                        "the account's provider (list_accounts names them); without ttl it ends after the agent "
                        "policy's default (30 minutes unless the person changed it). Network is off unless asked "
                        "for. The person's agent policy may refuse the call or ask them to approve it first."));
    t.inputSchema = createInputSchema(services);
    t.outputSchema = object({{QStringLiteral("session"), mcpSessionSchema()}}, {QStringLiteral("session")}, false);
    t.annotations = {{QStringLiteral("readOnlyHint"), false},
                     {QStringLiteral("destructiveHint"), false},
                     {QStringLiteral("openWorldHint"), true}};
    t.run = [&agent](ToolCall *call) { runCreateSession(agent, call); };
    return t;
}

Tool mcpForkSessionTool(McpAgent &agent)
{
    Tool t = newTool(QStringLiteral("fork_session"), tr("Fork a session"),
                     tr("Starts a copy of a session (its files and settings, as the provider keeps them: Vercel's "
                        "from the sandbox's current snapshot) and answers once it runs; providers that fork: "
                        "list_accounts says which. The copy is a new session of the agent's: the agent policy's "
                        "limits and approvals apply as to create_session, and without ttl it ends after the "
                        "policy's default."));
    t.inputSchema =
        object({{QStringLiteral("session"), mcpSessionProp()},
                {QStringLiteral("name"), prop(QStringLiteral("string"), tr("the copy's name"))},
                {QLatin1String(createkeys::Ttl), prop(QStringList{QStringLiteral("integer"), QStringLiteral("string")},
                                                      tr("the copy's time limit: seconds, or 30m, 2h, 1d"))}},
               {QStringLiteral("session")});
    t.outputSchema = object({{QStringLiteral("session"), mcpSessionSchema()},
                             {QStringLiteral("files_from"),
                              prop(QStringLiteral("string"), tr("where the copy's files came from, where the provider "
                                                                "says (a snapshot's lack what changed since)"))}},
                            {QStringLiteral("session")}, false);
    t.annotations = {{QStringLiteral("readOnlyHint"), false},
                     {QStringLiteral("destructiveHint"), false},
                     {QStringLiteral("openWorldHint"), true}};
    t.run = [&agent](ToolCall *call) { runForkSession(agent, call); };
    return t;
}

} // namespace sandbar::cli
