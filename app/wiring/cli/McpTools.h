#pragma once

#include "mcp/McpServer.h"
#include "wiring/AppServices.h"

#include <QJsonArray>
#include <QJsonObject>
#include <functional>

// The tools `sandbarctl mcp` offers, over the same services as the other commands.
namespace sandbar::cli {

class McpAgent;

// The families, each in its own file (addMcpTools in McpAgent.h adds them all).
void addMcpSessionTools(mcp::McpServer &server, McpAgent &agent);  // McpSessionTools.cpp
void addMcpExecTools(mcp::McpServer &server, McpAgent &agent);     // McpExecTools.cpp
void addMcpSnapshotTools(mcp::McpServer &server, McpAgent &agent); // McpSnapshotTools.cpp
void addMcpCommandTools(mcp::McpServer &server, McpAgent &agent);  // McpCommandTools.cpp

namespace mcpschema {

// {"type": type, "description": description}
QJsonObject prop(const QString &type, const QString &description);
QJsonObject prop(const QStringList &types, const QString &description);
// {"type": "array", "items": {"type": itemType}}
QJsonObject array(const QString &itemType, const QString &description);
// {"type": "object", "properties": ..., "required": ..., "additionalProperties": false}
QJsonObject object(const QJsonObject &properties, const QStringList &required = {}, bool closed = true);
// {"type": "array", "items": item}; by default a list of objects of any shape.
QJsonObject listOf(const QJsonObject &item = object({}, {}, false));
} // namespace mcpschema

// The `session` argument every per-session tool takes, and a session in a result.
QJsonObject mcpSessionProp();
QJsonObject mcpSessionSchema();

// create_session (McpCreateTool.cpp): options from every provider's descriptors, the agent
// policy's limits and approvals, the agent's label on the session.
mcp::Tool mcpCreateSessionTool(McpAgent &agent);
// fork_session (McpCreateTool.cpp): a copy of a session, under the same limits as a create.
mcp::Tool mcpForkSessionTool(McpAgent &agent);

// What to run from a tool's arguments: argv (run as is) or command (run by sh -c), one of them.
Result<QStringList> mcpArgv(const QJsonObject &args);

// A tool with its name, title and description; the caller adds schemas and run.
mcp::Tool newTool(const QString &name, const QString &title, const QString &description);

// Resolves the session named by the call's `session` argument and calls next, or answers the
// call with why it could not be found, or that the agent policy does not allow its account.
// Bound to the call: a cancelled call goes no further.
void withMcpSession(AppServices &services, mcp::ToolCall *call,
                    std::function<void(Provider *provider, const SessionInfo &session)> next);

} // namespace sandbar::cli
