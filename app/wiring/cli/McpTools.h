#pragma once

#include "mcp/McpServer.h"
#include "wiring/AppServices.h"

#include <QJsonArray>
#include <QJsonObject>
#include <functional>

// The tools `sandbarctl mcp` offers, over the same services as the other commands.
namespace sandbar::cli {

// Every tool of this stage: accounts, sessions, create, exec, files, stats, stop, remove, compare.
void addMcpTools(mcp::McpServer &server, AppServices &services);

// The families, each in its own file.
void addMcpSessionTools(mcp::McpServer &server, AppServices &services); // McpSessionTools.cpp
void addMcpExecTools(mcp::McpServer &server, AppServices &services);    // McpExecTools.cpp

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

// The `session` argument every per-session tool takes.
QJsonObject mcpSessionProp();

// A tool with its name, title and description; the caller adds schemas and run.
mcp::Tool newTool(const QString &name, const QString &title, const QString &description);

// Resolves the session named by the call's `session` argument and calls next, or answers the
// call with why it could not be found. Bound to the call: a cancelled call goes no further.
void withMcpSession(AppServices &services, mcp::ToolCall *call,
                    std::function<void(Provider *provider, const SessionInfo &session)> next);

} // namespace sandbar::cli
