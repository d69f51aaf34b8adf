#include "mcp/AgentWire.h"

#include "mcp/JsonRpc.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <cmath>

namespace sandbar::mcp::wire {

namespace {

QJsonObject clientJson(const AgentClient &c)
{
    return QJsonObject{{QStringLiteral("name"), c.name},
                       {QStringLiteral("version"), c.version},
                       {QStringLiteral("transport"), c.transport},
                       {QStringLiteral("pid"), c.pid}};
}

Error bad(const QString &what)
{
    return makeError(ErrorCode::InvalidArgument, what);
}

// Field readers: absent is fine (the default stays) unless required; present with the wrong
// type is an error naming the key.
class Reader
{
public:
    explicit Reader(const QJsonObject &o, QString where)
        : m_o(o)
        , m_where(std::move(where))
    {
    }

    bool string(const char *key, QString *out, bool required = false)
    {
        const QJsonValue v = m_o.value(QLatin1String(key));
        if (v.isUndefined())
            return missing(key, required);
        if (!v.isString())
            return fail(key, QStringLiteral("a string"));
        *out = v.toString();
        if (required && out->isEmpty())
            return fail(key, QStringLiteral("a non-empty string"));
        return true;
    }
    bool boolean(const char *key, bool *out)
    {
        const QJsonValue v = m_o.value(QLatin1String(key));
        if (v.isUndefined())
            return true;
        if (!v.isBool())
            return fail(key, QStringLiteral("true or false"));
        *out = v.toBool();
        return true;
    }
    bool integer(const char *key, qint64 *out)
    {
        const QJsonValue v = m_o.value(QLatin1String(key));
        if (v.isUndefined())
            return true;
        const double d = v.toDouble(-1);
        // 2^53: the largest integer a double holds exactly.
        if (!v.isDouble() || d < 0 || d > 9007199254740992.0 || std::floor(d) != d)
            return fail(key, QStringLiteral("a whole number of at least 0"));
        *out = static_cast<qint64>(d);
        return true;
    }
    bool object(const char *key, QJsonObject *out, bool required = false)
    {
        const QJsonValue v = m_o.value(QLatin1String(key));
        if (v.isUndefined())
            return missing(key, required);
        if (!v.isObject())
            return fail(key, QStringLiteral("an object"));
        *out = v.toObject();
        return true;
    }
    bool strings(const char *key, QStringList *out)
    {
        const QJsonValue v = m_o.value(QLatin1String(key));
        if (v.isUndefined())
            return true;
        if (!v.isArray())
            return fail(key, QStringLiteral("a list of strings"));
        QStringList list;
        for (const QJsonValue &item : v.toArray()) {
            if (!item.isString())
                return fail(key, QStringLiteral("a list of strings"));
            list << item.toString();
        }
        *out = list;
        return true;
    }
    bool client(const char *key, AgentClient *out, bool required = false)
    {
        QJsonObject o;
        if (!object(key, &o, required))
            return false;
        if (o.isEmpty() && !required)
            return true;
        Reader r(o, m_where + QLatin1Char('.') + QLatin1String(key));
        const bool ok = r.string("name", &out->name, true) && r.string("version", &out->version) &&
                        r.string("transport", &out->transport) && r.integer("pid", &out->pid);
        if (!ok)
            m_error = r.error();
        return ok;
    }

    const QString &error() const { return m_error; }

private:
    bool missing(const char *key, bool required)
    {
        if (!required)
            return true;
        m_error = QStringLiteral("%1: \"%2\" is missing").arg(m_where, QLatin1String(key));
        return false;
    }
    bool fail(const char *key, const QString &expected)
    {
        m_error = QStringLiteral("%1: \"%2\" must be %3").arg(m_where, QLatin1String(key), expected);
        return false;
    }

    QJsonObject m_o;
    QString m_where;
    QString m_error;
};

} // namespace

bool LineBuffer::feed(QByteArrayView bytes, QList<QByteArray> *lines)
{
    while (!bytes.isEmpty()) {
        const qsizetype nl = bytes.indexOf('\n');
        const QByteArrayView head = nl < 0 ? bytes : bytes.first(nl);
        if (m_buffer.size() + head.size() > m_maxLine) {
            m_buffer.clear();
            return false;
        }
        m_buffer.append(head);
        if (nl < 0)
            break;
        lines->append(std::exchange(m_buffer, QByteArray()));
        bytes = bytes.sliced(nl + 1);
    }
    return true;
}

QByteArray encodeHello(const AgentClient &client)
{
    return jsonLine(
        QJsonObject{{QStringLiteral("type"), QStringLiteral("hello")}, {QStringLiteral("client"), clientJson(client)}});
}

QByteArray encodeCall(const CallEvent &event)
{
    QJsonObject o{{QStringLiteral("type"), QStringLiteral("call")},
                  {QStringLiteral("id"), event.id},
                  {QStringLiteral("tool"), event.tool},
                  {QStringLiteral("arguments"), event.arguments},
                  {QStringLiteral("finished"), event.finished},
                  {QStringLiteral("ok"), event.ok},
                  {QStringLiteral("message"), event.message},
                  {QStringLiteral("durationMs"), event.durationMs}};
    if (!event.client.name.isEmpty())
        o.insert(QStringLiteral("client"), clientJson(event.client));
    return jsonLine(o);
}

QByteArray encodeApprove(const ApprovalRequest &request)
{
    QJsonObject o{{QStringLiteral("type"), QStringLiteral("approve")},
                  {QStringLiteral("id"), request.id},
                  {QStringLiteral("tool"), request.tool},
                  {QStringLiteral("arguments"), request.arguments},
                  {QStringLiteral("reasons"), QJsonArray::fromStringList(request.reasons)}};
    if (!request.client.name.isEmpty())
        o.insert(QStringLiteral("client"), clientJson(request.client));
    return jsonLine(o);
}

QByteArray encodeWithdraw(const QString &requestId)
{
    return jsonLine(
        QJsonObject{{QStringLiteral("type"), QStringLiteral("withdraw")}, {QStringLiteral("id"), requestId}});
}

QByteArray encodeDecision(const QString &requestId, const ApprovalAnswer &answer)
{
    return jsonLine(QJsonObject{{QStringLiteral("type"), QStringLiteral("decision")},
                                {QStringLiteral("id"), requestId},
                                {QStringLiteral("decision"), approvalDecisionName(answer.decision)},
                                {QStringLiteral("message"), answer.message}});
}

Result<Message> decode(QByteArrayView bytes)
{
    if (bytes.endsWith('\r'))
        bytes.chop(1);
    if (bytes.trimmed().isEmpty())
        return bad(QStringLiteral("an empty line"));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes.toByteArray(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return bad(QStringLiteral("not JSON: %1 at byte %2").arg(parseError.errorString()).arg(parseError.offset));
    if (!doc.isObject())
        return bad(QStringLiteral("not a JSON object"));
    const QJsonObject o = doc.object();
    const QJsonValue type = o.value(QLatin1String("type"));
    if (!type.isString())
        return bad(QStringLiteral("\"type\" is missing or not a string"));
    const QString t = type.toString();

    Message m;
    if (t == QLatin1String("hello")) {
        m.type = Message::Type::Hello;
        Reader r(o, t);
        if (!r.client("client", &m.client, true))
            return bad(r.error());
    } else if (t == QLatin1String("call")) {
        m.type = Message::Type::Call;
        Reader r(o, t);
        CallEvent &c = m.call;
        if (!(r.string("id", &c.id, true) && r.client("client", &c.client) && r.string("tool", &c.tool, true) &&
              r.object("arguments", &c.arguments) && r.boolean("finished", &c.finished) && r.boolean("ok", &c.ok) &&
              r.string("message", &c.message) && r.integer("durationMs", &c.durationMs)))
            return bad(r.error());
        m.id = c.id;
        m.client = c.client;
    } else if (t == QLatin1String("approve")) {
        m.type = Message::Type::Approve;
        Reader r(o, t);
        ApprovalRequest &a = m.request;
        if (!(r.string("id", &a.id, true) && r.client("client", &a.client) && r.string("tool", &a.tool, true) &&
              r.object("arguments", &a.arguments) && r.strings("reasons", &a.reasons)))
            return bad(r.error());
        m.id = a.id;
        m.client = a.client;
    } else if (t == QLatin1String("withdraw")) {
        m.type = Message::Type::Withdraw;
        Reader r(o, t);
        if (!r.string("id", &m.id, true))
            return bad(r.error());
    } else if (t == QLatin1String("decision")) {
        m.type = Message::Type::Decision;
        Reader r(o, t);
        QString decision;
        if (!(r.string("id", &m.id, true) && r.string("decision", &decision, true) &&
              r.string("message", &m.answer.message)))
            return bad(r.error());
        if (!approvalDecisionFromName(decision, &m.answer.decision))
            return bad(QStringLiteral("decision: \"decision\" must be once, always or deny, not \"%1\"").arg(decision));
    } else {
        return makeError(ErrorCode::Unsupported, QStringLiteral("unknown message type \"%1\"").arg(t));
    }
    return m;
}

} // namespace sandbar::mcp::wire
