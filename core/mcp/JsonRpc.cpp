#include "mcp/JsonRpc.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <cctype>
#include <cmath>

namespace sandbar::mcp {

namespace {

RpcMessage invalid(int code, const QString &message, const QJsonValue &id = QJsonValue::Null)
{
    RpcMessage m;
    m.kind = RpcMessage::Kind::Invalid;
    m.id = id;
    m.error = RpcError{code, message, QJsonValue::Undefined};
    return m;
}

bool isBlank(QByteArrayView line)
{
    for (const char c : line) {
        if (c != ' ' && c != '\t' && c != '\r')
            return false;
    }
    return true;
}

} // namespace

QByteArray jsonLine(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

QString idKey(const QJsonValue &id)
{
    return id.isString() ? QStringLiteral("s:") + id.toString()
                         : QStringLiteral("n:") + QString::number(id.toDouble(), 'f', 0);
}

bool isValidId(const QJsonValue &id)
{
    if (id.isString())
        return true;
    if (!id.isDouble())
        return false;
    // An integer that a double holds exactly (what every JSON parser agrees on).
    const double d = id.toDouble();
    return std::isfinite(d) && std::floor(d) == d && std::abs(d) <= 9007199254740991.0;
}

RpcMessage decodeMessage(QByteArrayView text)
{
    if (isBlank(text))
        return {};
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(text.toByteArray(), &err);
    if (err.error != QJsonParseError::NoError) {
        // Qt reads only an object or an array at the top; a bare value (42, "x") is valid
        // JSON that is not a request, which JSON-RPC answers with -32600, not -32700.
        QJsonParseError wrapped{};
        QJsonDocument::fromJson(QByteArray("[") + text.toByteArray() + ']', &wrapped);
        if (wrapped.error == QJsonParseError::NoError)
            return invalid(rpc::InvalidRequest, QStringLiteral("A message must be a JSON object."));
        return invalid(rpc::ParseError,
                       QStringLiteral("Parse error: %1 at offset %2").arg(err.errorString()).arg(err.offset));
    }
    if (doc.isArray())
        return invalid(rpc::InvalidRequest, QStringLiteral("Batches are not supported (MCP 2025-06-18 removed them); "
                                                           "send one message per line."));
    const QJsonObject o = doc.object();
    const QJsonValue id = o.value(QLatin1String("id"));
    const bool hasId = !id.isUndefined();
    const QJsonValue replyId = hasId && isValidId(id) ? id : QJsonValue(QJsonValue::Null);
    if (o.value(QLatin1String("jsonrpc")) != QLatin1String("2.0"))
        return invalid(rpc::InvalidRequest, QStringLiteral("\"jsonrpc\" must be \"2.0\"."), replyId);

    if (o.contains(QLatin1String("method"))) {
        const QJsonValue method = o.value(QLatin1String("method"));
        if (!method.isString() || method.toString().isEmpty())
            return invalid(rpc::InvalidRequest, QStringLiteral("\"method\" must be a non-empty string."), replyId);
        if (hasId && !isValidId(id))
            return invalid(rpc::InvalidRequest, QStringLiteral("\"id\" must be a string or an integer."));
        const QJsonValue params = o.value(QLatin1String("params"));
        if (!params.isUndefined() && !params.isObject() && !params.isArray())
            return invalid(rpc::InvalidRequest, QStringLiteral("\"params\" must be an object."), replyId);
        RpcMessage m;
        m.kind = hasId ? RpcMessage::Kind::Request : RpcMessage::Kind::Notification;
        m.id = hasId ? id : QJsonValue(QJsonValue::Null);
        m.method = method.toString();
        m.params = params;
        return m;
    }

    const bool hasResult = o.contains(QLatin1String("result"));
    const bool hasError = o.contains(QLatin1String("error"));
    if (hasResult == hasError)
        return invalid(rpc::InvalidRequest,
                       QStringLiteral("A message needs \"method\" (a request) or one of \"result\" and \"error\"."),
                       replyId);
    if (!hasId || !isValidId(id))
        return invalid(rpc::InvalidRequest, QStringLiteral("A response needs a string or integer \"id\"."));
    if (hasError && !o.value(QLatin1String("error")).isObject())
        return invalid(rpc::InvalidRequest, QStringLiteral("\"error\" must be an object."), id);
    RpcMessage m;
    m.kind = RpcMessage::Kind::Response;
    m.id = id;
    m.result = o.value(QLatin1String("result"));
    m.responseError = o.value(QLatin1String("error")).toObject();
    return m;
}

QByteArray encodeResult(const QJsonValue &id, const QJsonObject &result)
{
    return jsonLine(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                {QStringLiteral("id"), id},
                                {QStringLiteral("result"), result}});
}

QByteArray encodeError(const QJsonValue &id, const RpcError &error)
{
    QJsonObject e{{QStringLiteral("code"), error.code}, {QStringLiteral("message"), error.message}};
    if (!error.data.isUndefined())
        e[QStringLiteral("data")] = error.data;
    return jsonLine(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                {QStringLiteral("id"), id.isUndefined() ? QJsonValue(QJsonValue::Null) : id},
                                {QStringLiteral("error"), e}});
}

QByteArray encodeNotification(const QString &method, const QJsonObject &params)
{
    QJsonObject o{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        o[QStringLiteral("params")] = params;
    return jsonLine(o);
}

void LineSplitter::drop(QByteArrayView bytes)
{
    m_dropped += bytes.size();
    if (m_head.size() < kEdgeBytes)
        m_head.append(bytes.first(std::min(bytes.size(), kEdgeBytes - m_head.size())));
    m_tail.append(bytes.last(std::min(bytes.size(), kEdgeBytes)));
    if (m_tail.size() > kEdgeBytes)
        m_tail.remove(0, m_tail.size() - kEdgeBytes);
}

LineSplitter::Line LineSplitter::droppedLine()
{
    Line l{QByteArray(), true, m_dropped, std::exchange(m_head, QByteArray()), std::exchange(m_tail, QByteArray())};
    m_dropping = false;
    m_dropped = 0;
    return l;
}

QList<LineSplitter::Line> LineSplitter::feed(QByteArrayView bytes)
{
    QList<Line> out;
    while (!bytes.isEmpty()) {
        const qsizetype nl = bytes.indexOf('\n');
        const QByteArrayView head = nl < 0 ? bytes : bytes.first(nl);
        if (m_dropping) {
            drop(head);
        } else if (m_buffer.size() + head.size() > m_maxLine) {
            // Over the limit: forget what was kept (but its edges) and count the rest until
            // the line ends.
            m_dropping = true;
            m_dropped = 0;
            drop(std::exchange(m_buffer, QByteArray()));
            drop(head);
        } else {
            m_buffer.append(head);
        }
        if (nl < 0)
            break;
        if (m_dropping) {
            out.append(droppedLine());
        } else {
            out.append(Line{std::exchange(m_buffer, QByteArray()), false, 0, {}, {}});
            out.last().size = out.last().bytes.size();
        }
        bytes = bytes.sliced(nl + 1);
    }
    return out;
}

QList<LineSplitter::Line> LineSplitter::finish()
{
    QList<Line> out;
    if (m_dropping)
        out.append(droppedLine());
    else if (!m_buffer.isEmpty())
        out.append(Line{m_buffer, false, m_buffer.size(), {}, {}});
    m_buffer = QByteArray();
    return out;
}

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// An id's JSON text (a number or a string without escapes) parsed as a value; undefined when
// it is neither.
QJsonValue idValue(QByteArrayView text)
{
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + text.toByteArray() + QByteArray("]"));
    const QJsonValue v = doc.isArray() && doc.array().size() == 1 ? doc.array().at(0) : QJsonValue();
    return isValidId(v) ? v : QJsonValue(QJsonValue::Undefined);
}

// Walks the head's top-level members: {"key": value, ...}, skipping nested values and
// strings; stops where the head ends.
QJsonValue idFromHead(QByteArrayView h)
{
    qsizetype i = 0;
    const auto skipSpace = [&] {
        while (i < h.size() && isSpace(h[i]))
            ++i;
    };
    const auto skipString = [&] { // at '"'; returns past the closing quote
        for (++i; i < h.size(); ++i) {
            if (h[i] == '\\')
                ++i;
            else if (h[i] == '"')
                return ++i, true;
        }
        return false;
    };
    skipSpace();
    if (i >= h.size() || h[i] != '{')
        return QJsonValue::Null;
    ++i;
    for (;;) {
        skipSpace();
        if (i >= h.size() || h[i] != '"')
            return QJsonValue::Null;
        const qsizetype keyStart = i;
        if (!skipString())
            return QJsonValue::Null;
        const QByteArrayView key = h.sliced(keyStart, i - keyStart);
        skipSpace();
        if (i >= h.size() || h[i] != ':')
            return QJsonValue::Null;
        ++i;
        skipSpace();
        const qsizetype valueStart = i;
        int depth = 0;
        for (; i < h.size(); ++i) {
            const char c = h[i];
            if (c == '"') {
                if (!skipString())
                    return QJsonValue::Null;
                --i;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (depth-- == 0)
                    break;
            } else if (c == ',' && depth == 0) {
                break;
            }
        }
        if (i >= h.size())
            return QJsonValue::Null;
        if (key == QByteArrayView("\"id\""))
            return idValue(h.sliced(valueStart, i - valueStart).trimmed());
        if (h[i] == '}')
            return QJsonValue::Null;
        ++i; // past ','
    }
}

// The object's last member, read backwards from its closing brace: ..., "id": 5}
QJsonValue idFromTail(QByteArrayView t)
{
    qsizetype end = t.size();
    while (end > 0 && isSpace(t[end - 1]))
        --end;
    if (end == 0 || t[end - 1] != '}')
        return QJsonValue::Null;
    --end;
    while (end > 0 && isSpace(t[end - 1]))
        --end;
    qsizetype start = end;
    if (start > 0 && t[start - 1] == '"') {
        // A string id: back to its opening quote (ids with escaped quotes are not found).
        --start;
        while (start > 0 && t[start - 1] != '"')
            --start;
        if (start == 0)
            return QJsonValue::Null;
        --start;
    } else {
        while (start > 0 && (std::isdigit(static_cast<unsigned char>(t[start - 1])) || t[start - 1] == '-' ||
                             t[start - 1] == '.' || t[start - 1] == 'e' || t[start - 1] == 'E' || t[start - 1] == '+'))
            --start;
    }
    if (start == end)
        return QJsonValue::Null;
    const QByteArrayView value = t.sliced(start, end - start);
    qsizetype k = start;
    while (k > 0 && isSpace(t[k - 1]))
        --k;
    if (k == 0 || t[k - 1] != ':')
        return QJsonValue::Null;
    --k;
    while (k > 0 && isSpace(t[k - 1]))
        --k;
    static constexpr QByteArrayView kKey("\"id\"");
    if (k < kKey.size() || t.sliced(k - kKey.size(), kKey.size()) != kKey)
        return QJsonValue::Null;
    k -= kKey.size();
    while (k > 0 && isSpace(t[k - 1]))
        --k;
    // "id" must be a member of the top-level object, not the end of a longer key.
    if (k == 0 || (t[k - 1] != ',' && t[k - 1] != '{'))
        return QJsonValue::Null;
    const QJsonValue v = idValue(value);
    return v.isUndefined() ? QJsonValue(QJsonValue::Null) : v;
}

} // namespace

QJsonValue idOfOversized(QByteArrayView head, QByteArrayView tail)
{
    const QJsonValue fromHead = idFromHead(head);
    if (!fromHead.isNull() && !fromHead.isUndefined())
        return fromHead;
    return idFromTail(tail);
}

} // namespace sandbar::mcp
