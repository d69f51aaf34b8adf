#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

// JSON-RPC 2.0 as the Model Context Protocol's stdio transport uses it: one message per line,
// UTF-8, no batches (MCP 2025-06-18 removed them). Pure functions, no I/O.
namespace sandbar::mcp {

namespace rpc {
inline constexpr int ParseError = -32700;
inline constexpr int InvalidRequest = -32600;
inline constexpr int MethodNotFound = -32601;
inline constexpr int InvalidParams = -32602;
inline constexpr int InternalError = -32603;
} // namespace rpc

struct RpcError {
    int code = rpc::InternalError;
    QString message;
    QJsonValue data; // undefined: none
};

// What one line held.
struct RpcMessage {
    enum class Kind {
        Empty,        // a blank line: nothing to answer
        Request,      // method and id: answer exactly once
        Notification, // method, no id: never answered
        Response,     // result or error and an id: an answer to something the server asked
        Invalid,      // answer `error` to `id` (null when the id could not be read)
    };
    Kind kind = Kind::Empty;
    QJsonValue id; // string or integer; null for an Invalid message whose id could not be read
    QString method;
    QJsonValue params; // object, array, or undefined when absent
    QJsonValue result; // a Response's result
    QJsonObject responseError;
    RpcError error; // Invalid: what to answer
};

// Decodes one line (without its '\n'; a trailing '\r' is allowed). Never throws, never fails:
// what cannot be understood is an Invalid message carrying the error to send back.
RpcMessage decodeMessage(QByteArrayView line);

// Whether a value may be a request id: a string or an integer (MCP: "MUST NOT be null").
bool isValidId(const QJsonValue &id);
// An object as one line of compact JSON, '\n' included: the framing of JSON-RPC over stdio
// and of the agent wire.
QByteArray jsonLine(const QJsonObject &o);
// A request id as a key of a table of requests: 7 and "7" are different requests.
QString idKey(const QJsonValue &id);

// One line each, '\n' included, compact JSON in UTF-8 (a newline inside a string is escaped,
// so a message never spans lines).
QByteArray encodeResult(const QJsonValue &id, const QJsonObject &result);
QByteArray encodeError(const QJsonValue &id, const RpcError &error);
QByteArray encodeNotification(const QString &method, const QJsonObject &params);

// Splits a byte stream into lines and holds at most maxLine bytes of an unfinished one: a
// longer line is dropped as it arrives (its bytes are not kept) and reported once, when its
// end is seen, as an oversized line, so that a client sending one huge message gets a parse
// error instead of growing this process without bound.
class LineSplitter
{
public:
    explicit LineSplitter(qsizetype maxLine)
        : m_maxLine(maxLine)
    {
    }

    struct Line {
        QByteArray bytes;       // without '\n'; empty when oversized
        bool oversized = false; // over maxLine: answer a parse error
        qsizetype size = 0;     // the line's true length
        // An oversized line's first and last kEdgeBytes, where its "id" is (idOfOversized).
        QByteArray head;
        QByteArray tail;
    };
    static constexpr qsizetype kEdgeBytes = 4096;

    QList<Line> feed(QByteArrayView bytes);
    // At end of input: what was left without a final '\n', as one more line (or none).
    QList<Line> finish();
    qsizetype buffered() const { return m_buffer.size(); }

private:
    qsizetype m_maxLine;
    QByteArray m_buffer;
    bool m_dropping = false;
    qsizetype m_dropped = 0;
    QByteArray m_head;
    QByteArray m_tail;

    void drop(QByteArrayView bytes);
    Line droppedLine();
};

// The "id" of a request too long to keep, from its first and last bytes: a top-level "id"
// member seen in the head, or the object's last member when it is "id" (the TypeScript SDK
// writes it last, after the params). Null when neither shows it: the answer then carries a
// null id, as JSON-RPC says for a message that could not be read.
QJsonValue idOfOversized(QByteArrayView head, QByteArrayView tail);

} // namespace sandbar::mcp
