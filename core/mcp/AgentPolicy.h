#pragma once

#include "common/Result.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

// What agents may do through Sandbar's MCP server: <configDir>/agent-policy.json, edited in
// the window's Agents view or by hand. Pure data and pure decisions; the tools in app/wiring
// gather the facts and ask.
namespace sandbar::mcp {

struct AgentPolicy {
    // Accounts agents may use; "*" (the default) allows every account.
    QStringList accounts{QStringLiteral("*")};
    // Sessions created by agents that may exist at once (in any state but removed).
    int maxSessions = 5;
    // The time limit of a session an agent creates without one.
    qint64 defaultTtlSeconds = 1800;
    // The longest time limit an agent may ask for; 0: no maximum (ttl 0, no limit, is then allowed).
    qint64 maxTtlSeconds = 86400;
    // The estimated price of the agent sessions running at once, new one included; 0: no limit.
    double maxUsdPerHour = 5.0;
    bool allowNetwork = true;   // network on may be asked for (approval below still applies)
    bool allowHostPaths = true; // host folders (mounts, upload) may be asked for
    QStringList disabledTools;  // tools agents neither see nor may call
    // Which calls wait for the person's yes in the window.
    bool approvePaidCreate = true; // a create on an account whose provider bills
    bool approveNetwork = true;    // a create with network on
    bool approveHostPaths = true;  // a mount or an upload from the host
    QStringList approveTools;      // every call of these tools
    // Remove the sessions a client created when it disconnects, so leftovers do not bill.
    bool removeOnDisconnect = false;

    bool allowsAccount(const QString &account) const;
    bool toolEnabled(const QString &tool) const { return !disabledTools.contains(tool); }
};

inline constexpr char kAgentPolicyFile[] = "agent-policy.json";

// Every key, with its default; unknown keys and wrong types are errors that name the key.
QJsonObject agentPolicyToJson(const AgentPolicy &policy);
Result<AgentPolicy> agentPolicyFromJson(const QJsonObject &json);

// No file: the defaults. A file that does not parse: an error naming the file and the
// problem (the tools then refuse every call rather than guess a looser policy).
Result<AgentPolicy> loadAgentPolicy(const QString &configDir);
// Written whole (QSaveFile), owner-only.
VoidResult saveAgentPolicy(const QString &configDir, const AgentPolicy &policy);

// Facts about one create_session call, gathered by the tool.
struct CreateFacts {
    QString account;
    bool paid = false; // the provider bills (not self-hosted)
    bool network = false;
    bool hostPaths = false;           // any mount from the host
    bool hasTtl = true;               // the provider takes a time limit (else ttlSeconds is not checked)
    qint64 ttlSeconds = 0;            // after the default was applied; 0: none
    std::optional<double> usdPerHour; // the new session's estimated price, when the catalog knows it
    int agentSessions = 0;            // agent-created sessions that exist now
    double agentUsdPerHour = 0;       // their estimated price now (running ones)
    QString budgetReached;            // non-empty: the account's monthly budget is spent (the message)
};

struct PolicyVerdict {
    enum class Kind { Allow, NeedsApproval, Deny } kind = Kind::Allow;
    QString message;     // Deny: one sentence an agent can act on
    QStringList reasons; // NeedsApproval: each reason the person is asked
};

// Whether the tool may be called at all, and whether approveTools names it.
PolicyVerdict evaluateTool(const AgentPolicy &policy, const QString &tool);
// A create: denied by a limit, or allowed with the approvals it needs.
PolicyVerdict evaluateCreate(const AgentPolicy &policy, const CreateFacts &facts);
// An upload or any other use of host paths.
PolicyVerdict evaluateHostPath(const AgentPolicy &policy, const QString &tool, const QString &hostPath);

} // namespace sandbar::mcp
