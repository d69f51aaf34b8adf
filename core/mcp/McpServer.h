#pragma once

#include "common/Result.h"
#include "mcp/JsonRpc.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <functional>

// The Model Context Protocol's server side over any line transport: initialize, ping,
// tools/list, tools/call and notifications/cancelled. What the tools do is given from outside
// (app/wiring); this knows only the protocol.
namespace sandbar::mcp {

inline constexpr char kLatestProtocolVersion[] = "2025-11-25";
// Newest first; an initialize asking for one of these is answered with it.
QStringList supportedProtocolVersions();
// The client's version when this server speaks it, else the latest (the client then decides
// whether it can go on, as the specification says).
QString negotiateProtocolVersion(const QString &requested);

// Checks a call's arguments against the top level of a tool's inputSchema: required
// properties, unknown ones (where additionalProperties is false), each property's "type"
// (a name or a list of names), "enum", "minimum"/"maximum", and an array's item type. Returns
// an empty string when they fit, else one sentence naming the argument.
QString checkArguments(const QJsonObject &schema, const QJsonObject &arguments);

// What a tool call answers: always a result (a failure is isError with a message an agent can
// act on), never a JSON-RPC error.
struct ToolResult {
    QString text;           // the text item of `content`
    QJsonObject structured; // structuredContent; left out of a failure
    bool isError = false;
    ErrorCode code = ErrorCode::Internal; // a failure's kind, for the audit log (agents read the text)

    static ToolResult failure(const QString &message, ErrorCode code = ErrorCode::Internal);
    // The structured value with its compact JSON as the text (what clients without
    // structuredContent read).
    static ToolResult ok(const QJsonObject &structured);
    QJsonObject toJson() const;
};

// One tools/call in flight. Tools bind their asynchronous work to it (it is the context of
// their Callbacks and the parent of their jobs): when the client cancels, `cancelled` is
// emitted and the object is deleted, so nothing answers for it later.
class ToolCall : public QObject
{
    Q_OBJECT
public:
    ToolCall(const QJsonValue &id, QJsonObject arguments, QObject *parent);

    const QJsonValue &id() const { return m_id; }
    const QJsonObject &arguments() const { return m_arguments; }
    // The tool's name, and the client's progressToken (_meta.progressToken; undefined when none).
    const QString &toolName() const { return m_toolName; }
    void setToolName(const QString &name) { m_toolName = name; }
    const QJsonValue &progressToken() const { return m_progressToken; }
    void setProgressToken(const QJsonValue &token) { m_progressToken = token; }
    // Tells a client that asked for progress how far the call is (progress must grow from one
    // report to the next; total 0: unknown). Without a token it does nothing.
    void reportProgress(double progress, double total, const QString &message);
    bool isDone() const { return m_done; }
    bool cancelOnDisconnect() const { return m_cancelOnDisconnect; }
    void setCancelOnDisconnect(bool on) { m_cancelOnDisconnect = on; }

    // Answers the call; later calls are ignored.
    void finish(const ToolResult &result);
    void fail(const QString &message) { finish(ToolResult::failure(message)); }
    void fail(const Error &error) { finish(ToolResult::failure(error.message, error.code)); }

    // Used by the server: marks the call done without an answer and tells the tool.
    void cancel();

Q_SIGNALS:
    void cancelled();
    void finished(const sandbar::mcp::ToolResult &result);
    void progress(const QJsonObject &notificationParams);

private:
    QJsonValue m_id;
    QJsonObject m_arguments;
    QString m_toolName;
    QJsonValue m_progressToken = QJsonValue::Undefined;
    double m_lastProgress = -1;
    bool m_done = false;
    bool m_cancelOnDisconnect = false;
};

struct Tool {
    QString name;
    QString title;
    QString description;
    QJsonObject inputSchema;  // JSON Schema (draft 2020-12) of `arguments`, type "object"
    QJsonObject outputSchema; // of structuredContent, type "object"; may be empty
    QJsonObject annotations;  // readOnlyHint, destructiveHint, ... (hints, not guarantees)
    // When the client goes away (its input ends): true cancels the call (an exec's process is
    // killed), false lets it finish (a create whose session would otherwise be lost).
    bool cancelOnDisconnect = false;
    std::function<void(ToolCall *call)> run;

    QJsonObject toJson() const;
};

struct ClientInfo {
    QString name;
    QString version;
    QString protocolVersion; // as negotiated
};

class McpServer : public QObject
{
    Q_OBJECT
public:
    McpServer(QString serverName, QString serverVersion, QObject *parent = nullptr);

    void addTool(Tool tool);
    const Tool *tool(const QString &name) const;
    QList<Tool> tools() const { return m_tools; }

    // Decides which tools tools/list shows (the agent policy's enabled tools); all by default.
    void setToolFilter(std::function<bool(const QString &tool)> shown) { m_toolFilter = std::move(shown); }
    // Runs every call in place of the tool itself (policy, approval, audit); it calls
    // tool.run(call) when the call may go ahead. By default the tool runs at once.
    using CallGate = std::function<void(const Tool &tool, ToolCall *call)>;
    void setCallGate(CallGate gate) { m_gate = std::move(gate); }

    // One line from the client (without '\n'); answers go out through `send`.
    void handleLine(QByteArrayView line);
    // A line longer than the transport keeps: answered with an error for its request's id when
    // the transport could tell it (so that request is not left waiting), else a null id.
    void handleOversizedLine(qsizetype size, qsizetype limit, const QJsonValue &id = QJsonValue::Null);
    // The client's input ended: calls marked cancelOnDisconnect are cancelled, others run on.
    void inputClosed();

    bool initialized() const { return m_initialized; }
    const ClientInfo &client() const { return m_client; }
    int callsInFlight() const { return int(m_calls.size()); }

Q_SIGNALS:
    void send(const QByteArray &line);
    // initialize named the client (client() has it now).
    void clientNamed();
    // No call is in flight any more (after the last one finished or was cancelled).
    void idle();

private:
    void handleRequest(const RpcMessage &m);
    void handleNotification(const RpcMessage &m);
    void callTool(const QJsonValue &id, const QJsonObject &params);
    void reply(const QJsonValue &id, const QJsonObject &result) { Q_EMIT send(encodeResult(id, result)); }
    void replyError(const QJsonValue &id, int code, const QString &message)
    {
        Q_EMIT send(encodeError(id, RpcError{code, message, QJsonValue::Undefined}));
    }
    void forget(const QString &key);

    QString m_name;
    QString m_version;
    QList<Tool> m_tools;
    std::function<bool(const QString &)> m_toolFilter;
    CallGate m_gate;
    bool m_initialized = false;
    ClientInfo m_client;
    // Calls in flight by id ("s:" + a string id, "n:" + a number's text).
    QHash<QString, ToolCall *> m_calls;
};

} // namespace sandbar::mcp
