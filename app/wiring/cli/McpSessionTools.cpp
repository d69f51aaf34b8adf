#include "catalog/Catalog.h"
#include "catalog/CostModel.h"
#include "providers/Provider.h"
#include "wiring/cli/CliCreateOptions.h"
#include "wiring/cli/CliSupport.h"
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
QString tr(const char *s)
{
    return QCoreApplication::translate("sandbar::cli", s);
}

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
    services.registry->resolve(ref, Callback<SessionHandle>(call, [call, next](Result<SessionHandle> h) {
                                   if (!h.ok())
                                       return call->fail(h.message() +
                                                         tr(" (list_sessions shows the sessions there are)"));
                                   // Cancelled but not yet deleted: start nothing more for it.
                                   if (call->isDone())
                                       return;
                                   next(h->provider, h->session);
                               }));
}

namespace {

using namespace mcpschema;

QJsonObject sessionSchema()
{
    return object({{QStringLiteral("ref"), prop(QStringLiteral("string"), tr("ACCOUNT/ID, for the other tools"))},
                   {QStringLiteral("id"), prop(QStringLiteral("string"), tr("the provider's id"))},
                   {QStringLiteral("account"), prop(QStringLiteral("string"), tr("the account"))},
                   {QStringLiteral("state"), prop(QStringLiteral("string"), tr("Running, Stopped, ..."))}},
                  {QStringLiteral("ref")}, false);
}

QJsonObject readOnly()
{
    return {{QStringLiteral("readOnlyHint"), true}, {QStringLiteral("openWorldHint"), false}};
}

// Host folders in a session reach outside its sandbox: they wait for the policy that decides
// which an agent may ask for (issue 14, part 2), so agents are not offered them yet.
bool offeredToAgents(const FieldDescriptor &f)
{
    return f.type != FieldType::Mounts && f.key != QLatin1String(createkeys::ReadOnlyMounts);
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
        QJsonArray list;
        for (const auto &a : services.accounts->accounts()) {
            QJsonObject o{{QStringLiteral("name"), a.name}, {QStringLiteral("provider"), a.provider}};
            if (const ProviderFactory *f = services.factories.find(a.provider)) {
                o[QStringLiteral("provider_name")] = f->descriptor().displayName;
                o[QStringLiteral("capabilities")] =
                    QJsonArray::fromStringList(capabilityNames(f->descriptor().capabilities));
                QStringList keys;
                for (const auto &field : createOptionsCli(f->descriptor()).fields) {
                    if (offeredToAgents(field))
                        keys << field.key;
                }
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
        object({{QStringLiteral("sessions"), listOf(sessionSchema())}, {QStringLiteral("errors"), listOf()}},
               {QStringLiteral("sessions"), QStringLiteral("errors")}, false);
    t.annotations = readOnly();
    t.run = [&services](ToolCall *call) {
        QStringList accounts;
        const QString only = call->arguments().value(QLatin1String("account")).toString();
        if (!only.isEmpty()) {
            if (!services.accounts->find(only))
                return call->fail(tr("No account named '%1' (list_accounts shows them).").arg(only));
            accounts << only;
        } else {
            for (const auto &a : services.accounts->accounts())
                accounts << a.name;
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
    case FieldType::Ports: return array(QStringLiteral("string"), help + tr("; [HOST:]SESSION[/tcp|/udp] entries"));
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

// The time limit of a session an agent creates without one: a forgotten session must not
// run, and bill, for long.
constexpr qint64 kAgentTtlSeconds = 1800;

Tool createSession(AppServices &services)
{
    Tool t = newTool(QStringLiteral("create_session"), tr("Create a session"),
                     tr("Starts a new sandbox session in an account and answers once it runs. Options depend on "
                        "the account's provider (list_accounts names them); without ttl it ends after 30 minutes "
                        "(ttl 0: no limit). Network is off unless asked for."));
    // Every provider's options in one schema: an option another provider offers is refused
    // with a message naming what this account's provider takes.
    QJsonObject props{{QStringLiteral("account"), prop(QStringLiteral("string"), tr("The account to create in"))}};
    QMap<QString, QStringList> providersOf;
    QMap<QString, FieldDescriptor> allFields;
    for (const auto &factory : services.factories.all()) {
        for (const auto &f : createOptionsCli(factory->descriptor()).fields) {
            if (!offeredToAgents(f))
                continue;
            providersOf[f.key] << factory->descriptor().id;
            if (!allFields.contains(f.key) || (allFields[f.key].help.isEmpty() && !f.help.isEmpty()))
                allFields.insert(f.key, f);
        }
    }
    for (auto it = allFields.cbegin(); it != allFields.cend(); ++it)
        props[it.key()] = optionSchema(it.value(), providersOf.value(it.key()));
    t.inputSchema = object(props, {QStringLiteral("account")});
    t.outputSchema = object({{QStringLiteral("session"), sessionSchema()}}, {QStringLiteral("session")}, false);
    t.annotations = {{QStringLiteral("readOnlyHint"), false},
                     {QStringLiteral("destructiveHint"), false},
                     {QStringLiteral("openWorldHint"), true}};
    t.run = [&services](ToolCall *call) {
        QJsonObject args = call->arguments();
        const QString account = args.take(QLatin1String("account")).toString();
        const auto acct = services.accounts->find(account);
        if (!acct)
            return call->fail(tr("No account named '%1' (list_accounts shows them).").arg(account));
        const ProviderFactory *factory = services.factories.find(acct->provider);
        if (!factory)
            return call->fail(
                tr("Account '%1' uses provider '%2', which this build does not have.").arg(account, acct->provider));
        QList<FieldDescriptor> fields;
        for (auto f : createOptionsCli(factory->descriptor()).fields) {
            if (!offeredToAgents(f))
                continue;
            f.label = f.key; // errors name the argument as the agent wrote it
            fields << f;
        }
        QMap<QString, QStringList> texts;
        for (auto it = args.constBegin(); it != args.constEnd(); ++it) {
            const bool known = std::any_of(fields.cbegin(), fields.cend(),
                                           [&](const FieldDescriptor &f) { return f.key == it.key(); });
            if (!known) {
                QStringList keys;
                for (const auto &f : fields)
                    keys << f.key;
                return call->fail(tr("Provider '%1' (account '%2') has no create option '%3'; it takes: %4.")
                                      .arg(acct->provider, account, it.key(), keys.join(QStringLiteral(", "))));
            }
            texts.insert(it.key(), optionTexts(it.value()));
        }
        const bool hasTtl = std::any_of(fields.cbegin(), fields.cend(), [](const FieldDescriptor &f) {
            return f.key == QLatin1String(createkeys::Ttl);
        });
        if (hasTtl && !texts.contains(QLatin1String(createkeys::Ttl)))
            texts.insert(QLatin1String(createkeys::Ttl), {QString::number(kAgentTtlSeconds)});
        auto values = parseFieldValues(fields, texts);
        if (!values)
            return call->fail(values.message());
        const CreateSpec spec = createSpecFromOptions(*values);
        services.registry->provider(
            account, Callback<Provider *>(call, [call, spec, account](Result<Provider *> p) {
                if (!p.ok())
                    return call->fail(p.message());
                p.value()->create(spec, Callback<SessionInfo>(call, [call, account](Result<SessionInfo> r) {
                                      if (!r.ok())
                                          return call->fail(r.message());
                                      SessionInfo s = r.value();
                                      s.account = account;
                                      call->finish(ToolResult::ok({{QStringLiteral("session"), sessionToJson(s)}}));
                                  }));
            }));
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
            p->stats(s.id, Callback<StatsSample>(call, [call, p, id = s.id, answer](Result<StatsSample> r) {
                         if (!r.ok())
                             return call->fail(r.message());
                         if (r->cpuPercent)
                             return answer(r.value());
                         QTimer::singleShot(500, call, [call, p, id, answer, first = r.value()] {
                             p->stats(id, Callback<StatsSample>(call, [answer, first](Result<StatsSample> r2) {
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
        double catalog::Workload::*field;
        const char *help;
    };
    static const NumberArg kNumbers[] = {
        {"vcpus", &catalog::Workload::vcpus, QT_TRANSLATE_NOOP("sandbar::cli", "vCPUs of one session")},
        {"memory_gib", &catalog::Workload::memoryGib, QT_TRANSLATE_NOOP("sandbar::cli", "memory of one session, GiB")},
        {"hours", &catalog::Workload::activeHours, QT_TRANSLATE_NOOP("sandbar::cli", "running hours a month")},
        {"cpu_busy", &catalog::Workload::cpuBusy,
         QT_TRANSLATE_NOOP("sandbar::cli", "share of running time the CPU is busy, 0..1 (default 1)")},
        {"session_hours", &catalog::Workload::sessionHours,
         QT_TRANSLATE_NOOP("sandbar::cli", "length of one session in hours")},
        {"storage_gib", &catalog::Workload::storageGib, QT_TRANSLATE_NOOP("sandbar::cli", "storage kept, GiB")},
        {"idle_hours", &catalog::Workload::idleHours,
         QT_TRANSLATE_NOOP("sandbar::cli", "hours a month a sandbox exists unused")},
        {"sessions", &catalog::Workload::sessionsPerMonth, QT_TRANSLATE_NOOP("sandbar::cli", "sessions a month")},
        {"egress_gb", &catalog::Workload::egressGb, QT_TRANSLATE_NOOP("sandbar::cli", "network egress a month, GB")},
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
        catalog::Workload w;
        for (const auto &n : kNumbers) {
            if (args.contains(QLatin1String(n.key)))
                w.*(n.field) = args.value(QLatin1String(n.key)).toDouble();
        }
        w.gpuType = args.value(QLatin1String("gpu")).toString();
        w.gpuCount = w.gpuType.isEmpty() ? 0 : args.value(QLatin1String("gpus")).toInt(1);
        if (w.gpuCount < 0 || (w.gpuType.isEmpty() && args.contains(QLatin1String("gpus"))))
            return call->fail(tr("gpus needs gpu (a GPU type) and a count of at least 1."));
        w.applyFreeCredit = args.value(QLatin1String("free_credit")).toBool();
        if (auto valid = catalog::validateWorkload(w); !valid.ok())
            return call->fail(valid.message());
        std::optional<Error> overrideError;
        const catalog::Catalog c = catalog::Catalog::load(services.configDir, &overrideError);
        QJsonObject out{{QStringLiteral("estimates"), catalog::estimatesToJson(catalog::estimate(c, w))}};
        if (overrideError)
            out[QStringLiteral("catalog_warning")] = overrideError->message;
        call->finish(ToolResult::ok(out));
    };
    return t;
}

} // namespace

void addMcpSessionTools(mcp::McpServer &server, AppServices &services)
{
    server.addTool(listAccounts(services));
    server.addTool(listSessions(services));
    server.addTool(createSession(services));
    server.addTool(sessionStats(services));
    server.addTool(sessionAction(services, QStringLiteral("stop_session"), tr("Stop a session"),
                                 tr("Stops a session; its files stay until remove_session."), &Provider::stop,
                                 QStringLiteral("stopped")));
    server.addTool(sessionAction(services, QStringLiteral("remove_session"), tr("Remove a session"),
                                 tr("Removes a session and everything in it."), &Provider::remove,
                                 QStringLiteral("removed")));
    server.addTool(compareProviders(services));
}

void addMcpTools(mcp::McpServer &server, AppServices &services)
{
    addMcpSessionTools(server, services);
    addMcpExecTools(server, services);
}

} // namespace sandbar::cli
