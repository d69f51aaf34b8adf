#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace contract {

// Fault injection rules.
//
// Command line (--faults LIST), rules separated by ',' or ';':
//   RULE   := FAULT ['x' TIMES] '@' [METHOD ':'] PATH
//   FAULT  := 500 | 503 | 429 | 401 | malformed | reset[:BYTES] | truncate | ws-close[:MS]
//           | lost-reply | slow:MS
//   PATH   := an exact path ("/sandboxes"), or a prefix ending in '*' ("/sandboxes/*"), or "*"
//   TIMES  := how many matching requests get the fault (default: every one)
//   e.g.  --faults 'lost-reply x1@POST:/sandboxes,429@GET:/v2/sandboxes,slow:800@*'
//         (spaces are ignored)
// Admin API (same port, no auth, never faulted):
//   POST   /_contract/faults  {"rules":[{"method":"POST","path":"/sandboxes","fault":"lost-reply",
//                                        "times":1}]}      adds rules ("method" optional, "times"
//                                        optional; "fault" uses the FAULT words above)
//   DELETE /_contract/faults  removes every rule;  GET /_contract/faults lists them
//   GET    /_contract/state   counters and sandboxes (see Server::stateJson)
// What each fault does:
//   500/503/401   answer that status with a JSON error body; the operation is not performed
//   429           answer 429 with Retry-After: 1; not performed
//   slow:MS       wait MS milliseconds, then handle normally
//   malformed     answer 200 with a broken JSON body; not performed
//   reset[:N]     plain routes: drop the connection without performing the operation;
//                 streaming routes: perform it, drop the connection after N body bytes
//                 (default 64)
//   truncate      streams: end the response cleanly but in the middle of a Connect
//                 envelope; plain routes: send half of the body
//   ws-close[:MS] WebSocket routes: close the socket (code 1011) MS ms after the upgrade
//                 (default 300)
//   lost-reply    perform the operation, then drop the connection without any reply
enum class FaultKind {
    Status500,
    Status503,
    Status429,
    Status401,
    Slow,
    Malformed,
    Reset,
    Truncate,
    WsClose,
    LostReply
};

struct FaultRule {
    QByteArray method; // empty: any
    QString path;      // exact, or prefix when `prefix`; "*" alone matches everything
    bool prefix = false;
    FaultKind kind = FaultKind::Status500;
    int argument = 0; // slow:MS, reset:BYTES, ws-close:MS
    int times = -1;   // -1: unlimited
    int hits = 0;

    bool matches(const QByteArray &method, const QString &path) const;
    QJsonObject toJson() const;
};

class Faults
{
public:
    static sandbar::Result<FaultKind> parseKind(const QString &word, int *argument);
    static QString kindName(FaultKind kind, int argument);
    static sandbar::Result<QList<FaultRule>> parseList(const QString &spec);
    static sandbar::Result<QList<FaultRule>> parseJson(const QJsonObject &body);

    void add(const QList<FaultRule> &rules) { m_rules.append(rules); }
    void clear() { m_rules.clear(); }
    // The first rule matching, consuming one of its `times`; nullopt when none.
    std::optional<FaultRule> take(const QByteArray &method, const QString &path);
    QJsonArray toJson() const;
    bool isEmpty() const { return m_rules.isEmpty(); }

private:
    QList<FaultRule> m_rules;
};

} // namespace contract
