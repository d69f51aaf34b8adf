// The MCP tools for a session's snapshots (SnapshotFacet): list, take and restore, so that an
// agent can save its work before something risky and go back to it. Which of them need the
// person's approval is the agent policy's, as for every tool.
#include "providers/Provider.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/CliTr.h"
#include "wiring/cli/McpAgent.h"
#include "wiring/cli/McpTools.h"

namespace sandbar::cli {

using mcp::Tool;
using mcp::ToolCall;
using mcp::ToolResult;
using namespace mcpschema;

namespace {

// The session's snapshots facet, or the call answered with why there is none.
void withSnapshots(AppServices &services, ToolCall *call,
                   std::function<void(SnapshotFacet *snapshots, const SessionInfo &session)> next)
{
    withMcpSession(services, call, [call, next](Provider *p, const SessionInfo &s) {
        if (!p->snapshots())
            return call->fail(unsupportedError(p->descriptor(), Capability::Snapshots).message);
        next(p->snapshots(), s);
    });
}

QJsonObject snapshotSchema()
{
    return object({{QStringLiteral("id"), prop(QStringLiteral("string"), tr("the snapshot's id"))},
                   {QStringLiteral("created"), prop(QStringLiteral("string"), tr("when, ISO-8601 UTC"))},
                   {QStringLiteral("comment"), prop(QStringLiteral("string"), tr("the comment, or the "
                                                                                 "service's own words"))}},
                  {QStringLiteral("id")}, false);
}

Tool listSnapshotsTool(AppServices &services)
{
    Tool t = newTool(QStringLiteral("list_snapshots"), tr("List snapshots"),
                     tr("A session's snapshots, newest first (providers with snapshots: list_accounts says which)."));
    t.inputSchema = object({{QStringLiteral("session"), mcpSessionProp()}}, {QStringLiteral("session")});
    t.outputSchema = object({{QStringLiteral("session"), prop(QStringLiteral("string"), tr("ACCOUNT/ID"))},
                             {QStringLiteral("snapshots"), listOf(snapshotSchema())}},
                            {QStringLiteral("session"), QStringLiteral("snapshots")}, false);
    t.annotations = {{QStringLiteral("readOnlyHint"), true}, {QStringLiteral("openWorldHint"), false}};
    t.run = [&services](ToolCall *call) {
        withSnapshots(services, call, [call](SnapshotFacet *snapshots, const SessionInfo &s) {
            snapshots->listSnapshots(
                s.id, Callback<QList<SnapshotEntry>>(call, [call, ref = s.ref()](Result<QList<SnapshotEntry>> r) {
                    if (!r.ok())
                        return call->fail(r.message());
                    QJsonArray list;
                    for (const SnapshotEntry &e : r.value())
                        list.append(snapshotToJson(e));
                    call->finish(
                        ToolResult::ok({{QStringLiteral("session"), ref}, {QStringLiteral("snapshots"), list}}));
                }));
        });
    };
    return t;
}

Tool createSnapshotTool(AppServices &services)
{
    Tool t = newTool(QStringLiteral("create_snapshot"), tr("Take a snapshot"),
                     tr("Saves the session's files as they are now (on some providers the session stops while "
                        "it saves: Vercel). A comment is kept where the provider keeps one."));
    t.inputSchema = object({{QStringLiteral("session"), mcpSessionProp()},
                            {QStringLiteral("comment"), prop(QStringLiteral("string"), tr("what it is for"))}},
                           {QStringLiteral("session")});
    t.outputSchema = object({{QStringLiteral("session"), prop(QStringLiteral("string"), tr("ACCOUNT/ID"))},
                             {QStringLiteral("snapshot"), snapshotSchema()}},
                            {QStringLiteral("session"), QStringLiteral("snapshot")}, false);
    t.annotations = {{QStringLiteral("readOnlyHint"), false},
                     {QStringLiteral("destructiveHint"), false},
                     {QStringLiteral("openWorldHint"), false}};
    t.run = [&services](ToolCall *call) {
        const QString comment = call->arguments().value(QLatin1String("comment")).toString();
        withSnapshots(services, call, [call, comment](SnapshotFacet *snapshots, const SessionInfo &s) {
            snapshots->createSnapshot(
                s.id, comment, Callback<SnapshotEntry>(call, [call, ref = s.ref()](Result<SnapshotEntry> r) {
                    if (!r.ok())
                        return call->fail(r.message());
                    call->finish(ToolResult::ok(
                        {{QStringLiteral("session"), ref}, {QStringLiteral("snapshot"), snapshotToJson(r.value())}}));
                }));
        });
    };
    return t;
}

Tool restoreSnapshotTool(AppServices &services)
{
    Tool t = newTool(QStringLiteral("restore_snapshot"), tr("Restore a snapshot"),
                     tr("Puts the session's files back as a snapshot has them; what runs in the session ends."));
    t.inputSchema = object({{QStringLiteral("session"), mcpSessionProp()},
                            {QStringLiteral("snapshot"), prop(QStringLiteral("string"), tr("the snapshot's id"))}},
                           {QStringLiteral("session"), QStringLiteral("snapshot")});
    t.outputSchema = object({{QStringLiteral("session"), prop(QStringLiteral("string"), tr("ACCOUNT/ID"))},
                             {QStringLiteral("restored"), prop(QStringLiteral("string"), tr("the snapshot's id"))}},
                            {QStringLiteral("session"), QStringLiteral("restored")}, false);
    t.annotations = {{QStringLiteral("readOnlyHint"), false},
                     {QStringLiteral("destructiveHint"), true},
                     {QStringLiteral("idempotentHint"), true},
                     {QStringLiteral("openWorldHint"), false}};
    t.run = [&services](ToolCall *call) {
        const QString id = call->arguments().value(QLatin1String("snapshot")).toString().trimmed();
        if (id.isEmpty())
            return call->fail(tr("Name the snapshot to restore (list_snapshots shows them)."));
        withSnapshots(services, call, [call, id](SnapshotFacet *snapshots, const SessionInfo &s) {
            snapshots->restoreSnapshot(
                s.id, id, Callback<void>(call, [call, id, ref = s.ref()](VoidResult r) {
                    if (!r.ok())
                        return call->fail(r.message());
                    call->finish(ToolResult::ok({{QStringLiteral("session"), ref}, {QStringLiteral("restored"), id}}));
                }));
        });
    };
    return t;
}

} // namespace

void addMcpSnapshotTools(mcp::McpServer &server, McpAgent &agent)
{
    AppServices &services = agent.services();
    server.addTool(listSnapshotsTool(services));
    server.addTool(createSnapshotTool(services));
    server.addTool(restoreSnapshotTool(services));
}

} // namespace sandbar::cli
