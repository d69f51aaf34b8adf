#pragma once

#include "mcp/AgentPolicy.h"
#include "mcp/Approval.h"
#include "mcp/McpServer.h"
#include "wiring/AppServices.h"

#include <QElapsedTimer>
#include <QObject>
#include <functional>

// One agent connection's side of the tools: the person's policy, the window's approval, the
// audit row and the live report of every call, and the sessions this client made.
namespace sandbar::cli {

class McpAgent : public QObject
{
    Q_OBJECT
public:
    // sink: the window (an AgentLink from sandbarctl, the AgentHub inside the window); null
    // where nobody can be asked (calls that need approval are then denied).
    McpAgent(AppServices &services, mcp::McpServer &server, mcp::AgentSink *sink, QString transport,
             QObject *parent = nullptr);

    AppServices &services() { return m_services; }
    // Read on every call, so an edit in the window applies to the next call.
    Result<mcp::AgentPolicy> policy() const;
    mcp::AgentClient client() const;

    // The server's call gate: policy (tool enabled, accounts), approval of tools the policy
    // names, then the tool; an audit row and a report to the window when the call ends.
    void gate(const mcp::Tool &tool, mcp::ToolCall *call);

    // Runs next when verdict allows the call, after asking the person when it must; else
    // answers the call with the reason.
    void decide(mcp::ToolCall *call, const mcp::PolicyVerdict &verdict, std::function<void()> next);

    // A session this client created (removed on disconnect when the policy says so).
    void sessionCreated(const QString &account, const QString &id);
    // The label value that marks a session as this client's.
    QString agentLabel() const;
    // The client went away: removes its sessions when the policy asks, then calls done.
    void clientGone(std::function<void()> done);

private:
    // shown: the redacted arguments the window was given when the call started.
    void record(mcp::ToolCall *call, const QString &eventId, const QJsonObject &shown, qint64 durationMs, bool ok,
                const QString &message);

    AppServices &m_services;
    mcp::McpServer &m_server;
    mcp::AgentSink *m_sink;
    QString m_transport;
    quint64 m_nextId = 1;
    QList<QPair<QString, QString>> m_created; // account, id
};

// Every tool, gated by agent's policy. Shared by sandbarctl mcp and the window's HTTP endpoint.
void addMcpTools(mcp::McpServer &server, McpAgent &agent);

} // namespace sandbar::cli
