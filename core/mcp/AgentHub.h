#pragma once

#include "common/Result.h"
#include "mcp/Approval.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>

class QLocalServer;

namespace sandbar::mcp {

// A call that waits for the person, as the Agents view lists it.
struct PendingApproval {
    QString id;              // the hub's own key, for decide(); unique for the hub's life
    ApprovalRequest request; // as asked (request.id is the asker's id)
    QDateTime askedAt;
};

// One line of the Agents view's call table.
struct CallRecord {
    quint64 seq = 0; // increases with every new call, for models to find a row
    CallEvent event;
    QDateTime startedAt;
    QDateTime finishedAt;      // invalid while it runs
    bool disconnected = false; // the client went away before it reported the end
};

struct ConnectedClient {
    quint64 connection = 0;
    AgentClient client; // empty name until its hello
    QDateTime connectedAt;
};

// The window's end of the approval channel: it listens on agentSocketPath(configDir) for
// sandbarctl mcp processes (AgentLink) and is itself the AgentSink of the window's own HTTP
// endpoint. It keeps the queue of calls that wait for the person, the recent calls and the
// clients, and answers each asker once the person decides. "Always" is remembered per client
// name and tool while the hub lives: a convenience, since any local process can claim a name.
class AgentHub : public QObject, public AgentSink
{
    Q_OBJECT
public:
    static constexpr int kMaxCalls = 500;
    // More waiting requests from one connection are denied at once (a runaway client).
    static constexpr int kMaxPendingPerConnection = 256;

    explicit AgentHub(QString configDir, QObject *parent = nullptr);
    ~AgentHub() override;

    // Listens, owner-only. A socket file left by a window that crashed is removed; one that
    // another window still answers on is not (the error says so).
    VoidResult listen();
    void close();
    bool isListening() const;
    QString socketPath() const { return m_path; }

    QList<PendingApproval> pendingApprovals() const { return m_pending; }
    QList<CallRecord> calls() const { return m_calls; }
    QList<ConnectedClient> clients() const;
    // Whom an "always" answers for: the name a stdio client gives itself, or, over HTTP, whoever
    // holds the endpoint's bearer token (one key for all of them, forgotten with the token).
    static QString alwaysKey(const AgentClient &client);
    static QString httpAlwaysKey() { return QStringLiteral("HTTP endpoint (bearer token)"); }
    // Whether a call of tool by this client (alwaysKey) is answered Always without asking.
    bool isAlwaysAllowed(const QString &clientName, const QString &tool) const;
    // The (client name, tool) pairs answered Always without asking, sorted.
    QList<QPair<QString, QString>> alwaysAllowed() const;
    // Forgets every "always" (the Agents view offers it); approvalsChanged follows.
    void forgetAlways();
    // Forgets the "always" answers of one key (the HTTP token's, when it is replaced).
    void forgetAlways(const QString &key);

    // Answers the asker of a pending request and takes it off the queue; false when there is
    // no such request (already decided, withdrawn, or its client left). Always also answers
    // the other waiting requests of the same client and tool.
    bool decide(const QString &id, ApprovalDecision decision, const QString &message = QString());

    // AgentSink, for callers in this process (the HTTP endpoint): done runs queued, on
    // context's thread. Request and call ids must be unique among this process's callers.
    void ask(const ApprovalRequest &request, QObject *context, std::function<void(ApprovalAnswer)> done) override;
    void withdraw(const QString &requestId) override;
    void report(const CallEvent &event) override;

    static QString hubClosedMessage();

Q_SIGNALS:
    void approvalRequested(const sandbar::mcp::PendingApproval &approval);
    // The queue changed, or the "always" pairs did.
    void approvalsChanged();
    // A new row (appended; the oldest may have been dropped to stay under kMaxCalls), and a
    // row whose call ended; callsChanged follows either.
    void callAdded(const sandbar::mcp::CallRecord &record);
    void callUpdated(const sandbar::mcp::CallRecord &record);
    void callsChanged();
    void clientsChanged();

private:
    struct Connection;
    struct Waiting {
        quint64 origin = 0; // the connection; 0: this process
        QString askerId;
        QPointer<QObject> context; // this process's asker
        bool hasContext = false;
        std::function<void(ApprovalAnswer)> done;
    };

    void onNewConnection();
    void onReadable(Connection *c);
    void dropConnection(quint64 id);
    void handleLine(Connection *c, const QByteArray &line);

    void enqueue(ApprovalRequest request, Waiting waiting);
    void answerWaiting(Waiting &w, const ApprovalAnswer &answer);
    void removeRequest(quint64 origin, const QString &askerId, const ApprovalAnswer &answer);
    void recordCall(quint64 origin, const CallEvent &event);

    QString m_path;
    QLocalServer *m_server = nullptr;
    QHash<quint64, Connection *> m_connections;
    quint64 m_nextConnection = 1;
    quint64 m_nextRequest = 1;
    quint64 m_nextSeq = 1;
    QList<PendingApproval> m_pending;
    QHash<QString, Waiting> m_waiting; // by PendingApproval::id
    QList<CallRecord> m_calls;
    QHash<QString, quint64> m_callIndex;                // "origin/client/id" -> seq
    QHash<quint64, QPair<quint64, QString>> m_callMeta; // seq -> origin, its m_callIndex key
    QSet<QPair<QString, QString>> m_always;             // client name, tool
};

} // namespace sandbar::mcp

Q_DECLARE_METATYPE(sandbar::mcp::PendingApproval)
Q_DECLARE_METATYPE(sandbar::mcp::CallRecord)
