#include "mcp/McpServer.h"

#include <QJsonDocument>
#include <algorithm>

namespace sandbar::mcp {

namespace {

bool hasType(const QJsonValue &v, const QString &type)
{
    if (type == QLatin1String("string"))
        return v.isString();
    if (type == QLatin1String("boolean"))
        return v.isBool();
    if (type == QLatin1String("number"))
        return v.isDouble();
    if (type == QLatin1String("integer"))
        return v.isDouble() && isValidId(v);
    if (type == QLatin1String("array"))
        return v.isArray();
    if (type == QLatin1String("object"))
        return v.isObject();
    if (type == QLatin1String("null"))
        return v.isNull();
    return true;
}

QString typeError(const QString &where, const QJsonObject &schema, const QJsonValue &v)
{
    const QJsonValue type = schema.value(QLatin1String("type"));
    QStringList types;
    if (type.isString())
        types << type.toString();
    for (const auto &t : type.toArray())
        types << t.toString();
    if (!types.isEmpty() && std::none_of(types.cbegin(), types.cend(), [&](const QString &t) { return hasType(v, t); }))
        return QStringLiteral("%1 must be of type %2.").arg(where, types.join(QStringLiteral(" or ")));
    const QJsonArray choices = schema.value(QLatin1String("enum")).toArray();
    if (!choices.isEmpty() && !choices.contains(v)) {
        QStringList names;
        for (const auto &c : choices)
            names << QString::fromUtf8(QJsonDocument(QJsonArray{c}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
        return QStringLiteral("%1 must be one of %2.").arg(where, names.join(QStringLiteral(", ")));
    }
    if (v.isDouble()) {
        const QJsonValue min = schema.value(QLatin1String("minimum"));
        const QJsonValue max = schema.value(QLatin1String("maximum"));
        if (min.isDouble() && v.toDouble() < min.toDouble())
            return QStringLiteral("%1 must be at least %2.").arg(where).arg(min.toDouble());
        if (max.isDouble() && v.toDouble() > max.toDouble())
            return QStringLiteral("%1 must be at most %2.").arg(where).arg(max.toDouble());
    }
    if (v.isArray() && schema.value(QLatin1String("items")).isObject()) {
        const QJsonObject items = schema.value(QLatin1String("items")).toObject();
        const QJsonArray arr = v.toArray();
        for (qsizetype i = 0; i < arr.size(); ++i) {
            const QString e = typeError(QStringLiteral("%1[%2]").arg(where).arg(i), items, arr.at(i));
            if (!e.isEmpty())
                return e;
        }
    }
    return {};
}

} // namespace

QString checkArguments(const QJsonObject &schema, const QJsonObject &arguments)
{
    const QJsonObject props = schema.value(QLatin1String("properties")).toObject();
    for (const auto &r : schema.value(QLatin1String("required")).toArray()) {
        if (!arguments.contains(r.toString()))
            return QStringLiteral("Missing required argument \"%1\".").arg(r.toString());
    }
    const bool closed = schema.value(QLatin1String("additionalProperties")) == QJsonValue(false);
    for (auto it = arguments.constBegin(); it != arguments.constEnd(); ++it) {
        if (!props.contains(it.key())) {
            if (closed)
                return QStringLiteral("Unknown argument \"%1\"; this tool takes: %2.")
                    .arg(it.key(), props.keys().join(QStringLiteral(", ")));
            continue;
        }
        const QString e =
            typeError(QStringLiteral("Argument \"%1\"").arg(it.key()), props.value(it.key()).toObject(), it.value());
        if (!e.isEmpty())
            return e;
    }
    return {};
}

QStringList supportedProtocolVersions()
{
    return {QLatin1String(kLatestProtocolVersion), QStringLiteral("2025-06-18"), QStringLiteral("2025-03-26"),
            QStringLiteral("2024-11-05")};
}

QString negotiateProtocolVersion(const QString &requested)
{
    return supportedProtocolVersions().contains(requested) ? requested : QLatin1String(kLatestProtocolVersion);
}

ToolResult ToolResult::failure(const QString &message, ErrorCode code)
{
    ToolResult r;
    r.text = message;
    r.isError = true;
    r.code = code;
    return r;
}

ToolResult ToolResult::ok(const QJsonObject &structured)
{
    ToolResult r;
    r.structured = structured;
    r.text = QString::fromUtf8(QJsonDocument(structured).toJson(QJsonDocument::Compact));
    return r;
}

QJsonObject ToolResult::toJson() const
{
    QJsonObject o{{QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                                     {QStringLiteral("text"), text}}}}};
    if (!isError)
        o[QStringLiteral("structuredContent")] = structured;
    if (isError)
        o[QStringLiteral("isError")] = true;
    return o;
}

QJsonObject Tool::toJson() const
{
    QJsonObject o{{QStringLiteral("name"), name},
                  {QStringLiteral("description"), description},
                  {QStringLiteral("inputSchema"), inputSchema}};
    if (!title.isEmpty())
        o[QStringLiteral("title")] = title;
    if (!outputSchema.isEmpty())
        o[QStringLiteral("outputSchema")] = outputSchema;
    QJsonObject notes = annotations;
    if (!title.isEmpty())
        notes[QStringLiteral("title")] = title; // 2025-03-26 clients read the title here
    o[QStringLiteral("annotations")] = notes;
    return o;
}

ToolCall::ToolCall(const QJsonValue &id, QJsonObject arguments, QObject *parent)
    : QObject(parent)
    , m_id(id)
    , m_arguments(std::move(arguments))
{
}

void ToolCall::finish(const ToolResult &result)
{
    if (m_done)
        return;
    m_done = true;
    Q_EMIT finished(result);
}

void ToolCall::reportProgress(double progress, double total, const QString &message)
{
    if (m_done || m_progressToken.isUndefined() || progress <= m_lastProgress)
        return;
    m_lastProgress = progress;
    QJsonObject params{{QStringLiteral("progressToken"), m_progressToken}, {QStringLiteral("progress"), progress}};
    if (total > 0)
        params[QStringLiteral("total")] = total;
    if (!message.isEmpty())
        params[QStringLiteral("message")] = message;
    Q_EMIT this->progress(params);
}

void ToolCall::cancel()
{
    if (m_done)
        return;
    m_done = true;
    Q_EMIT cancelled();
}

McpServer::McpServer(QString serverName, QString serverVersion, QObject *parent)
    : QObject(parent)
    , m_name(std::move(serverName))
    , m_version(std::move(serverVersion))
{
}

void McpServer::addTool(Tool tool)
{
    m_tools.append(std::move(tool));
}

const Tool *McpServer::tool(const QString &name) const
{
    for (const auto &t : m_tools) {
        if (t.name == name)
            return &t;
    }
    return nullptr;
}

void McpServer::handleLine(QByteArrayView line)
{
    const RpcMessage m = decodeMessage(line);
    switch (m.kind) {
    case RpcMessage::Kind::Empty: return;
    case RpcMessage::Kind::Invalid: Q_EMIT send(encodeError(m.id, m.error)); return;
    case RpcMessage::Kind::Response: return; // this stage asks the client nothing
    case RpcMessage::Kind::Notification: handleNotification(m); return;
    case RpcMessage::Kind::Request: handleRequest(m); return;
    }
}

void McpServer::handleOversizedLine(qsizetype size, qsizetype limit, const QJsonValue &id)
{
    if (isValidId(id))
        return replyError(id, rpc::InvalidRequest,
                          QStringLiteral("A message of %1 bytes is over the limit of %2 bytes; send less at once "
                                         "(write_file takes at most 8 MiB).")
                              .arg(size)
                              .arg(limit));
    replyError(
        QJsonValue::Null, rpc::ParseError,
        QStringLiteral("Parse error: a message of %1 bytes is over the limit of %2 bytes.").arg(size).arg(limit));
}

void McpServer::handleRequest(const RpcMessage &m)
{
    if (m.params.isArray())
        return replyError(m.id, rpc::InvalidParams, QStringLiteral("MCP takes \"params\" as an object."));
    const QJsonObject params = m.params.toObject();
    if (m.method == QLatin1String("initialize")) {
        const QJsonValue asked = params.value(QLatin1String("protocolVersion"));
        if (!asked.isString())
            return replyError(m.id, rpc::InvalidParams, QStringLiteral("initialize needs \"protocolVersion\"."));
        const QJsonObject info = params.value(QLatin1String("clientInfo")).toObject();
        m_client.name = info.value(QLatin1String("name")).toString();
        m_client.version = info.value(QLatin1String("version")).toString();
        m_client.protocolVersion = negotiateProtocolVersion(asked.toString());
        Q_EMIT clientNamed();
        return reply(m.id, QJsonObject{
                               {QStringLiteral("protocolVersion"), m_client.protocolVersion},
                               {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("tools"), QJsonObject{}}}},
                               {QStringLiteral("serverInfo"),
                                QJsonObject{{QStringLiteral("name"), m_name}, {QStringLiteral("version"), m_version}}},
                           });
    }
    if (m.method == QLatin1String("ping"))
        return reply(m.id, {});
    if (m.method == QLatin1String("tools/list")) {
        QJsonArray list;
        for (const auto &t : std::as_const(m_tools)) {
            if (!m_toolFilter || m_toolFilter(t.name))
                list.append(t.toJson());
        }
        // Every tool fits on one page: no nextCursor.
        return reply(m.id, QJsonObject{{QStringLiteral("tools"), list}});
    }
    if (m.method == QLatin1String("tools/call"))
        return callTool(m.id, params);
    replyError(m.id, rpc::MethodNotFound, QStringLiteral("Method not found: %1").arg(m.method));
}

void McpServer::handleNotification(const RpcMessage &m)
{
    if (m.method == QLatin1String("notifications/initialized")) {
        m_initialized = true;
        return;
    }
    if (m.method == QLatin1String("notifications/cancelled")) {
        const QJsonValue id = m.params.toObject().value(QLatin1String("requestId"));
        if (!isValidId(id))
            return;
        // A call that already answered (the notification crossed the result) is not found.
        ToolCall *call = m_calls.value(idKey(id));
        if (!call)
            return;
        forget(idKey(id));
        call->cancel();
        call->deleteLater();
        if (m_calls.isEmpty())
            Q_EMIT idle();
    }
    // Other notifications (roots/list_changed, progress, ...) need nothing from this stage.
}

void McpServer::callTool(const QJsonValue &id, const QJsonObject &params)
{
    const QJsonValue name = params.value(QLatin1String("name"));
    if (!name.isString())
        return replyError(id, rpc::InvalidParams, QStringLiteral("tools/call needs \"name\"."));
    const Tool *t = tool(name.toString());
    if (!t)
        return replyError(id, rpc::InvalidParams, QStringLiteral("Unknown tool: %1").arg(name.toString()));
    const QJsonValue args = params.value(QLatin1String("arguments"));
    if (!args.isUndefined() && !args.isNull() && !args.isObject())
        return replyError(id, rpc::InvalidParams, QStringLiteral("\"arguments\" must be an object."));
    const QString key = idKey(id);
    if (m_calls.contains(key))
        return replyError(id, rpc::InvalidRequest, QStringLiteral("A request with this id is still in flight."));
    // Arguments that do not fit the schema are the agent's to correct: a tool result, not a
    // protocol error (MCP 2025-11-25, "input validation errors").
    if (const QString bad = checkArguments(t->inputSchema, args.toObject()); !bad.isEmpty())
        return reply(id, ToolResult::failure(bad, ErrorCode::InvalidArgument).toJson());
    auto *call = new ToolCall(id, args.toObject(), this);
    call->setCancelOnDisconnect(t->cancelOnDisconnect);
    call->setToolName(t->name);
    const QJsonValue token = params.value(QLatin1String("_meta")).toObject().value(QLatin1String("progressToken"));
    if (token.isString() || (token.isDouble() && isValidId(token)))
        call->setProgressToken(token);
    m_calls.insert(key, call);
    connect(call, &ToolCall::progress, this, [this](const QJsonObject &p) {
        Q_EMIT send(encodeNotification(QStringLiteral("notifications/progress"), p));
    });
    connect(call, &ToolCall::finished, this, [this, call, key](const ToolResult &result) {
        reply(call->id(), result.toJson());
        forget(key);
        call->deleteLater();
        if (m_calls.isEmpty())
            Q_EMIT idle();
    });
    if (m_gate)
        m_gate(*t, call);
    else
        t->run(call);
}

void McpServer::forget(const QString &key)
{
    m_calls.remove(key);
}

void McpServer::inputClosed()
{
    const auto calls = m_calls;
    for (auto it = calls.cbegin(); it != calls.cend(); ++it) {
        if (!it.value()->cancelOnDisconnect())
            continue;
        forget(it.key());
        it.value()->cancel();
        it.value()->deleteLater();
    }
    if (m_calls.isEmpty())
        Q_EMIT idle();
}

} // namespace sandbar::mcp
