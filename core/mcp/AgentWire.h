#pragma once

#include "common/Result.h"
#include "mcp/Approval.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

// The line protocol between sandbarctl mcp (AgentLink) and the window (AgentHub) on the local
// socket: one compact JSON object per line, UTF-8, with a "type". Pure functions, no I/O.
//   link -> hub  {"type":"hello","client":{"name","version","transport","pid"}}
//                {"type":"call","id","client"?,"tool","arguments","finished","ok","message","durationMs"}
//                {"type":"approve","id","client"?,"tool","arguments","reasons":[...]}
//                {"type":"withdraw","id"}
//   hub -> link  {"type":"decision","id","decision":"once|always|deny","message"}
// Keys a message does not know are ignored, so either side may grow fields.
namespace sandbar::mcp::wire {

// A longer line drops the connection: both ends are this user's processes, so one is only
// this long by mistake (a 10 MiB argument is redacted long before it gets here).
inline constexpr qsizetype kMaxLine = 4 * 1024 * 1024;

struct Message {
    enum class Type { Hello, Call, Approve, Withdraw, Decision };
    Type type = Type::Hello;
    AgentClient client;      // Hello; Call and Approve when they carry one
    CallEvent call;          // Call
    ApprovalRequest request; // Approve
    QString id;              // Withdraw and Decision (also the id of a Call or Approve)
    ApprovalAnswer answer;   // Decision
};

// Splits a stream into lines (without '\n'). feed() returns false as soon as a line, finished
// or not, is longer than maxLine: the peer is then dropped, before its line is all read.
class LineBuffer
{
public:
    explicit LineBuffer(qsizetype maxLine = kMaxLine)
        : m_maxLine(maxLine)
    {
    }
    bool feed(QByteArrayView bytes, QList<QByteArray> *lines);
    qsizetype buffered() const { return m_buffer.size(); }

private:
    qsizetype m_maxLine;
    QByteArray m_buffer;
};

// One line each, '\n' included.
QByteArray encodeHello(const AgentClient &client);
QByteArray encodeCall(const CallEvent &event);
QByteArray encodeApprove(const ApprovalRequest &request);
QByteArray encodeWithdraw(const QString &requestId);
QByteArray encodeDecision(const QString &requestId, const ApprovalAnswer &answer);

// One line, without its '\n' (a trailing '\r' is allowed). An error names what is wrong:
// InvalidArgument for an empty line, bad JSON or a field of the wrong type, Unsupported for a
// type this side does not know (skip the line; the peer may be newer).
Result<Message> decode(QByteArrayView line);

} // namespace sandbar::mcp::wire
