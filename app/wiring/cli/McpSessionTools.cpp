#include "catalog/Catalog.h"
#include "costs/CostModel.h"
#include "providers/Provider.h"
#include "wiring/cli/CliCreateOptions.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/CliTr.h"
#include "wiring/cli/McpAgent.h"
#include "wiring/cli/McpTools.h"

#include <QTimer>
#include <cmath>
#include <memory>

namespace sandbar::cli {

using mcp::Tool;
using mcp::ToolCall;
using mcp::ToolResult;

namespace {

// Text for agents and people; lupdate gives tr() here the context "sandbar::cli".
} // namespace

namespace mcpschema {

QJsonObject prop(const QString &type, const QString &description)
{
    return QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("description"), description}};
}

QJsonObject prop(const QStringList &types, const QString &description)
{
    return QJsonObject{{QStringLiteral("type"), QJsonArray::fromStringList(types)},
                       {QStringLiteral("description"), description}};
}

QJsonObject array(const QString &itemType, const QString &description)
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                       {QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), itemType}}},
                       {QStringLiteral("description"), description}};
}

QJsonObject object(const QJsonObject &properties, const QStringList &required, bool closed)
{
    QJsonObject o{{QStringLiteral("type"), QStringLiteral("object")}, {QStringLiteral("properties"), properties}};
    if (!required.isEmpty())
        o[QStringLiteral("required")] = QJsonArray::fromStringList(required);
    if (closed)
        o[QStringLiteral("additionalProperties")] = false;
    return o;
}

QJsonObject listOf(const QJsonObject &item)
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("array")}, {QStringLiteral("items"), item}};
}

} // namespace mcpschema

QJsonObject mcpSessionProp()
{
    return mcpschema::prop(
        QStringLiteral("string"),
        tr("The session: ACCOUNT/ID as create_session and list_sessions return it (\"ref\"), or an ID "
           "prefix or session name that only one account has."));
}

Tool newTool(const QString &name, const QString &title, const QString &description)
{
    Tool t;
    t.name = name;
    t.title = title;
    t.description = description;
    return t;
}

void withMcpSession(AppServices &services, ToolCall *call,
                    std::function<void(Provider *provider, const SessionInfo &session)> next)
{
    const QString ref = call->arguments().value(QLatin1String("session")).toString();
    services.registry->resolve(
        ref, Callback<SessionHandle>(call, [call, next, ref, configDir = services.configDir](Result<SessionHandle> h) {
            if (!h.ok())
                return call->fail(h.message() + tr(" (list_sessions shows the sessions there are)"));
            // Cancelled but not yet deleted: start nothing more for it.
            if (call->isDone())
                return;
            const auto policy = mcp::loadAgentPolicy(configDir);
            if (!policy.ok())
                return call->fail(policy.error());
            if (!policy->allowsAccount(h->session.account))
                return call->fail(makeError(ErrorCode::Unauthorized,
                                            tr("Session '%1' is in account '%2', which the agent policy does not "
                                               "allow.")
                                                .arg(ref, h->session.account)));
            next(h->provider, h->session);
        }));
}

QJsonObject mcpSessionSchema()
{
    using namespace mcpschema;
    return object({{QStringLiteral("ref"), prop(QStringLiteral("string"), tr("ACCOUNT/ID, for the other tools"))},
                   {QStringLiteral("id"), prop(QStringLiteral("string"), tr("the provider's id"))},
                   {QStringLiteral("account"), prop(QStringLiteral("string"), tr("the account"))},
                   {QStringLiteral("state"), prop(QStringLiteral("string"), tr("Running, Stopped, ..."))}},
                  {QStringLiteral("ref")}, false);
}

namespace {

using namespace mcpschema;

QJsonObject readOnly()
{
    return {{QStringLiteral("readOnlyHint"), true}, {QStringLiteral("openWorldHint"), false}};
}

// list_accounts: what an agent may pick from, with each provider's abilities and create options.
Tool listAccounts(AppServices &services)
{
    Tool t = newTool(QStringLiteral("list_accounts"), tr("List accounts"),
                     tr("The provider accounts configured in Sandbar (a local sandbox, Docker/Podman engines, "
                        "cloud services), with what each can do and the create options its provider takes."));
    t.inputSchema = object({});
    t.outputSchema = object({{QStringLiteral("accounts"), listOf()}}, {QStringLiteral("accounts")}, false);
    t.annotations = readOnly();
    t.run = [&services](ToolCall *call) {
        const auto policy = mcp::loadAgentPolicy(services.configDir);
        if (!policy.ok())
            return call->fail(policy.error());
        QJsonArray list;
        for (const auto &a : services.accounts->accounts()) {
            if (!policy->allowsAccount(a.name))
                continue;
            QJsonObject o{{QStringLiteral("name"), a.name}, {QStringLiteral("provider"), a.provider}};
            if (const ProviderFactory *f = services.factories.find(a.provider)) {
                o[QStringLiteral("provider_name")] = f->descriptor().displayName;
                o[QStringLiteral("capabilities")] =
                    QJsonArray::fromStringList(capabilityNames(f->descriptor().capabilities));
                QStringList keys;
                for (const auto &field : createOptionsCli(f->descriptor()).fields)
                    keys << field.key;
                o[QStringLiteral("create_options")] = QJsonArray::fromStringList(keys);
                o[QStringLiteral("self_hosted")] = f->descriptor().selfHosted;
            }
            list.append(o);
        }
        call->finish(ToolResult::ok({{QStringLiteral("accounts"), list}}));
    };
    return t;
}

Tool listSessions(AppServices &services)
{
    Tool t = newTool(QStringLiteral("list_sessions"), tr("List sessions"),
                     tr("The sessions Sandbar manages, asked of every account (or one), with their state, image, "
                        "resources and time limit. An account that cannot be reached is named under errors."));
    t.inputSchema = object({{QStringLiteral("account"), prop(QStringLiteral("string"), tr("Only this account"))}});
    t.outputSchema =
        object({{QStringLiteral("sessions"), listOf(mcpSessionSchema())}, {QStringLiteral("errors"), listOf()}},
               {QStringLiteral("sessions"), QStringLiteral("errors")}, false);
    t.annotations = readOnly();
    t.run = [&services](ToolCall *call) {
        const auto policy = mcp::loadAgentPolicy(services.configDir);
        if (!policy.ok())
            return call->fail(policy.error());
        QStringList accounts;
        const QString only = call->arguments().value(QLatin1String("account")).toString();
        if (!only.isEmpty()) {
            if (!services.accounts->find(only))
                return call->fail(tr("No account named '%1' (list_accounts shows them).").arg(only));
            accounts << only;
        } else {
            for (const auto &a : services.accounts->accounts()) {
                if (policy->allowsAccount(a.name))
                    accounts << a.name;
            }
        }
        struct State {
            int pending = 0;
            QJsonArray errors;
        };
        auto state = std::make_shared<State>();
        state->pending = int(accounts.size());
        const auto answer = [&services, call, accounts, state] {
            QJsonArray list;
            for (const auto &s : services.registry->sessions()) {
                if (accounts.contains(s.account))
                    list.append(sessionToJson(s));
            }
            call->finish(
                ToolResult::ok({{QStringLiteral("sessions"), list}, {QStringLiteral("errors"), state->errors}}));
        };
        if (accounts.isEmpty())
            return answer();
        for (const auto &a : accounts) {
            services.registry->refreshAccount(
                a, Callback<QList<SessionInfo>>(call, [a, state, answer](Result<QList<SessionInfo>> r) {
                    if (!r.ok())
                        state->errors.append(
                            QJsonObject{{QStringLiteral("account"), a}, {QStringLiteral("message"), r.message()}});
                    if (--state->pending == 0)
                        answer();
                }));
        }
    };
    return t;
}

Tool sessionStats(AppServices &services)
{
    Tool t = newTool(QStringLiteral("session_stats"), tr("Session statistics"),
                     tr("One reading of a session's CPU, memory, network, block I/O, process count and storage. "
                        "Counters are cumulative; a figure the provider cannot tell is left out."));
    t.inputSchema = object({{QStringLiteral("session"), mcpSessionProp()}}, {QStringLiteral("session")});
    t.outputSchema = object({{QStringLiteral("session"), prop(QStringLiteral("string"), tr("ACCOUNT/ID"))},
                             {QStringLiteral("sample"), object({}, {}, false)}},
                            {QStringLiteral("session"), QStringLiteral("sample")}, false);
    t.annotations = readOnly();
    t.run = [&services](ToolCall *call) {
        withMcpSession(services, call, [call](Provider *p, const SessionInfo &s) {
            if (!p->capabilities().testFlag(Capability::StatsCpu) &&
                !p->capabilities().testFlag(Capability::StatsMemory))
                return call->fail(unsupportedError(p->descriptor(), Capability::StatsCpu).message);
            const auto answer = [call, ref = s.ref()](const StatsSample &sample) {
                call->finish(ToolResult::ok(
                    {{QStringLiteral("session"), ref}, {QStringLiteral("sample"), statsSampleToJson(sample)}}));
            };
            // CPU % is a rate: without an earlier sample of its own the provider needs a second.
            p->statistics()->stats(
                s.id, Callback<StatsSample>(call, [call, p, id = s.id, answer](Result<StatsSample> r) {
                    if (!r.ok())
                        return call->fail(r.message());
                    if (r->cpuPercent)
                        return answer(r.value());
                    QTimer::singleShot(500, call, [call, p, id, answer, first = r.value()] {
                        p->statistics()->stats(id, Callback<StatsSample>(call, [answer, first](Result<StatsSample> r2) {
                                                   answer(r2.ok() ? r2.value() : first);
                                               }));
                    });
                }));
        });
    };
    return t;
}

using Action = void (Provider::*)(const QString &, Callback<void>);

Tool sessionAction(AppServices &services, const QString &name, const QString &title, const QString &description,
                   Action action, const QString &doneKey)
{
    Tool t = newTool(name, title, description);
    t.inputSchema = object({{QStringLiteral("session"), mcpSessionProp()}}, {QStringLiteral("session")});
    t.outputSchema = object({{QStringLiteral("session"), prop(QStringLiteral("string"), tr("ACCOUNT/ID"))},
                             {doneKey, prop(QStringLiteral("boolean"), tr("always true"))}},
                            {QStringLiteral("session"), doneKey}, false);
    t.annotations = {{QStringLiteral("readOnlyHint"), false},
                     {QStringLiteral("destructiveHint"), true},
                     {QStringLiteral("idempotentHint"), true},
                     {QStringLiteral("openWorldHint"), false}};
    t.run = [&services, action, doneKey](ToolCall *call) {
        withMcpSession(services, call, [call, action, doneKey](Provider *p, const SessionInfo &s) {
            (p->*action)(s.id, Callback<void>(call, [call, doneKey, ref = s.ref()](VoidResult r) {
                             if (!r.ok())
                                 return call->fail(r.message());
                             call->finish(ToolResult::ok({{QStringLiteral("session"), ref}, {doneKey, true}}));
                         }));
        });
    };
    return t;
}

Tool compareProviders(AppServices &services)
{
    struct NumberArg {
        const char *key;
        double costs::Workload::*field;
        const char *help;
    };
    static const NumberArg kNumbers[] = {
        {"vcpus", &costs::Workload::vcpus, QT_TRANSLATE_NOOP("sandbar::cli", "vCPUs of one session")},
        {"memory_gib", &costs::Workload::memoryGib, QT_TRANSLATE_NOOP("sandbar::cli", "memory of one session, GiB")},
        {"hours", &costs::Workload::activeHours, QT_TRANSLATE_NOOP("sandbar::cli", "running hours a month")},
        {"cpu_busy", &costs::Workload::cpuBusy,
         QT_TRANSLATE_NOOP("sandbar::cli", "share of running time the CPU is busy, 0..1 (default 1)")},
        {"session_hours", &costs::Workload::sessionHours,
         QT_TRANSLATE_NOOP("sandbar::cli", "length of one session in hours")},
        {"storage_gib", &costs::Workload::storageGib, QT_TRANSLATE_NOOP("sandbar::cli", "storage kept, GiB")},
        {"idle_hours", &costs::Workload::idleHours,
         QT_TRANSLATE_NOOP("sandbar::cli", "hours a month a sandbox exists unused")},
        {"sessions", &costs::Workload::sessionsPerMonth, QT_TRANSLATE_NOOP("sandbar::cli", "sessions a month")},
        {"egress_gb", &costs::Workload::egressGb, QT_TRANSLATE_NOOP("sandbar::cli", "network egress a month, GB")},
    };
    Tool t = newTool(QStringLiteral("compare_providers"), tr("Compare providers"),
                     tr("Prices a month of a workload at every provider in Sandbar's catalog, cheapest first, "
                        "with the providers that cannot run it and why (the same table as sandbarctl compare)."));
    QJsonObject props;
    for (const auto &n : kNumbers) {
        QJsonObject p = prop(QStringLiteral("number"), tr(n.help));
        p[QStringLiteral("minimum")] = 0;
        props[QLatin1String(n.key)] = p;
    }
    props[QStringLiteral("gpu")] = prop(QStringLiteral("string"), tr("GPU type, e.g. A100 (none: no GPU)"));
    props[QStringLiteral("gpus")] = prop(QStringLiteral("integer"), tr("GPUs per session (with gpu; default 1)"));
    props[QStringLiteral("free_credit")] =
        prop(QStringLiteral("boolean"), tr("subtract each provider's free monthly credit"));
    t.inputSchema = object(props, {QStringLiteral("vcpus"), QStringLiteral("memory_gib"), QStringLiteral("hours")});
    t.outputSchema =
        object({{QStringLiteral("estimates"), listOf()},
                {QStringLiteral("catalog_warning"), prop(QStringLiteral("string"), tr("a broken catalog.json"))}},
               {QStringLiteral("estimates")}, false);
    t.annotations = readOnly();
    t.run = [&services](ToolCall *call) {
        const QJsonObject args = call->arguments();
        costs::Workload w;
        for (const auto &n : kNumbers) {
            if (args.contains(QLatin1String(n.key)))
                w.*(n.field) = args.value(QLatin1String(n.key)).toDouble();
        }
        w.gpuType = args.value(QLatin1String("gpu")).toString();
        w.gpuCount = w.gpuType.isEmpty() ? 0 : args.value(QLatin1String("gpus")).toInt(1);
        if (w.gpuCount < 0 || (w.gpuType.isEmpty() && args.contains(QLatin1String("gpus"))))
            return call->fail(tr("gpus needs gpu (a GPU type) and a count of at least 1."));
        w.applyFreeCredit = args.value(QLatin1String("free_credit")).toBool();
        if (auto valid = costs::validateWorkload(w); !valid.ok())
            return call->fail(valid.message());
        std::optional<Error> overrideError;
        const catalog::Catalog c = catalog::Catalog::load(services.configDir, &overrideError);
        QJsonObject out{{QStringLiteral("estimates"), costs::estimatesToJson(costs::estimate(c, w))}};
        if (overrideError)
            out[QStringLiteral("catalog_warning")] = overrideError->message;
        call->finish(ToolResult::ok(out));
    };
    return t;
}

} // namespace

void addMcpSessionTools(mcp::McpServer &server, McpAgent &agent)
{
    AppServices &services = agent.services();
    server.addTool(listAccounts(services));
    server.addTool(listSessions(services));
    server.addTool(mcpCreateSessionTool(agent));
    server.addTool(mcpForkSessionTool(agent));
    server.addTool(sessionStats(services));
    server.addTool(sessionAction(services, QStringLiteral("stop_session"), tr("Stop a session"),
                                 tr("Stops a session; its files stay until remove_session."), &Provider::stop,
                                 QStringLiteral("stopped")));
    server.addTool(sessionAction(services, QStringLiteral("remove_session"), tr("Remove a session"),
                                 tr("Removes a session and everything in it."), &Provider::remove,
                                 QStringLiteral("removed")));
    server.addTool(compareProviders(services));
}

void addMcpTools(mcp::McpServer &server, McpAgent &agent)
{
    addMcpSessionTools(server, agent);
    addMcpExecTools(server, agent);
    addMcpSnapshotTools(server, agent);
    addMcpCommandTools(server, agent);
}

} // namespace sandbar::cli
