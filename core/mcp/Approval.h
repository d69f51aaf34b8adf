#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>

// What the MCP tools ask of the person at the window, and what they tell it. sandbarctl mcp
// reaches the window through AgentLink (a local socket); the window's own HTTP endpoint talks
// to its AgentHub directly. Both implement AgentSink, so the tools do not know which.
namespace sandbar::mcp {

// <configDir>/agents.sock: the window's listening socket. The config folder is the person's
// own (0700), the socket itself is made for the owner only, and the hub checks the peer's uid.
QString agentSocketPath(const QString &configDir);

struct AgentClient {
    QString name; // from initialize's clientInfo; any local process can claim any name
    QString version;
    QString transport; // "stdio" or "http"
    qint64 pid = 0;    // sandbarctl mcp's process id (stdio); 0 over HTTP
};

// A call that needs the person's yes.
struct ApprovalRequest {
    QString id; // unique for the connection
    AgentClient client;
    QString tool;
    QJsonObject arguments; // already redacted (secrets, env values)
    QStringList reasons;   // why it needs approval, one sentence each ("creates a session on the paid account 'e2b'")
};

enum class ApprovalDecision {
    Once,   // this call only
    Always, // this call and every later call of this tool by this client (while the window runs)
    Deny,
};

QString approvalDecisionName(ApprovalDecision d); // "once", "always", "deny"
bool approvalDecisionFromName(const QString &name, ApprovalDecision *out);

struct ApprovalAnswer {
    ApprovalDecision decision = ApprovalDecision::Deny;
    QString message; // a denial's reason, for the agent
    bool approved() const { return decision != ApprovalDecision::Deny; }
};

// One tool call, as the Agents view lists it.
struct CallEvent {
    QString id; // unique for the connection
    AgentClient client;
    QString tool;
    QJsonObject arguments; // redacted
    bool finished = false;
    bool ok = false;       // when finished
    QString message;       // a failure's message, when finished
    qint64 durationMs = 0; // when finished
};

// Where the tools send approval requests and call events.
class AgentSink
{
public:
    virtual ~AgentSink() = default;
    // Asks the person. done runs exactly once, on context's thread, unless context is gone
    // first. With nobody to ask (no window), the answer is a Deny whose message says so.
    virtual void ask(const ApprovalRequest &request, QObject *context, std::function<void(ApprovalAnswer)> done) = 0;
    // The request's call was cancelled: the window takes it off its queue.
    virtual void withdraw(const QString &requestId) = 0;
    // A call started (finished false) or ended. Never blocks; dropped when nobody listens.
    virtual void report(const CallEvent &event) = 0;
};

} // namespace sandbar::mcp
