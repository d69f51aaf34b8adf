#pragma once

#include "mcp/AgentWire.h"
#include "mcp/Approval.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <optional>

class QLocalSocket;

namespace sandbar::mcp {

// sandbarctl mcp's end of the approval channel: a local socket to the running window's
// AgentHub (agentSocketPath(configDir)). It connects at start() and again whenever it is not
// connected and something must be asked, so a window started after sandbarctl mcp is found
// on the next call that needs it. Nothing here waits: an ask is answered when the decision
// line arrives, which may be much later (the person may be away).
class AgentLink : public QObject, public AgentSink
{
    Q_OBJECT
public:
    explicit AgentLink(QString configDir, QObject *parent = nullptr);
    ~AgentLink() override;

    // Tries to connect now (no waiting: the outcome is known at once or on the event loop).
    void start();
    // Who is calling, from initialize's clientInfo: sent now when connected, and on every
    // later connection.
    void setClient(const AgentClient &client);
    bool isConnected() const;
    QString socketPath() const { return m_path; }

    void ask(const ApprovalRequest &request, QObject *context, std::function<void(ApprovalAnswer)> done) override;
    void withdraw(const QString &requestId) override;
    void report(const CallEvent &event) override;

    // What an ask is answered with when no window listens, and when it closes mid-ask.
    static QString notRunningMessage();
    static QString windowClosedMessage();
    static QString withdrawnMessage();

Q_SIGNALS:
    void connectedChanged(bool connected);

private:
    struct Pending {
        ApprovalRequest request;
        QPointer<QObject> context;
        bool hasContext = false;
        std::function<void(ApprovalAnswer)> done;
        bool sent = false; // the window has it (else it waits for the connection)
    };

    void tryConnect();
    void onConnected();
    void onDisconnected();
    void onReadyRead();
    void send(const QByteArray &line);
    void answer(const QString &id, ApprovalAnswer answer, bool queued);
    void answerAll(const QString &message, bool sentOnly);

    QString m_path;
    QLocalSocket *m_socket = nullptr;
    std::optional<AgentClient> m_client;
    wire::LineBuffer m_lines;
    QHash<QString, Pending> m_pending;
    QList<QString> m_order; // pending ids in the order asked, for sending after a connect
    QElapsedTimer m_lastAttempt;
    bool m_wasConnected = false;
};

} // namespace sandbar::mcp
