#pragma once

#include "mcp/AgentHub.h"

#include <QHash>
#include <QPointer>
#include <QStringList>
#include <QWidget>

class QGroupBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QSplitter;
class QTableView;
class QVBoxLayout;

namespace sandbar::ui {

class AgentCallsModel;
class AgentPolicyDialog;

// What agents do through Sandbar's MCP server, live: the calls that wait for the person's yes
// (client, tool, arguments, why), each with Approve once, Always for this client and Deny; the
// recent calls with their outcome and duration; the connected clients; and the policy editor.
// The hub must outlive the view.
class AgentsView : public QWidget
{
    Q_OBJECT
public:
    AgentsView(mcp::AgentHub &hub, QString configDir, QStringList accountNames, QStringList toolNames,
               QWidget *parent = nullptr);

    // The accounts the policy dialog offers (they change while the view is open).
    void setAccountNames(const QStringList &names) { m_accounts = names; }
    // Why the hub is not listening (empty: it is, or nobody said).
    void setListenError(const QString &error);

    AgentCallsModel *callsModel() const { return m_calls; }
    // The card of a pending request (by PendingApproval::id), for tests and focus.
    QWidget *approvalCard(const QString &id) const { return m_cards.value(id); }
    int approvalCount() const { return int(m_cards.size()); }

public Q_SLOTS:
    // Opens the policy editor over the view (not modal to the event loop).
    void openPolicy();

protected:
    void showEvent(QShowEvent *event) override;

private:
    // Gives the queue the height its cards need (up to 60 % of the view), or little when empty.
    void fitQueue();
    QWidget *makeCard(const mcp::PendingApproval &p);
    void syncApprovals();
    void updateStatus();

    mcp::AgentHub &m_hub;
    QString m_configDir;
    QStringList m_accounts;
    QStringList m_tools;
    QString m_listenError;

    QLabel *m_status = nullptr;
    QPushButton *m_forget = nullptr;
    QGroupBox *m_queueBox = nullptr;
    QScrollArea *m_scroll = nullptr;
    QWidget *m_cardsWidget = nullptr;
    QVBoxLayout *m_cardsLayout = nullptr;
    QSplitter *m_split = nullptr;
    QLabel *m_emptyQueue = nullptr;
    QHash<QString, QWidget *> m_cards;
    AgentCallsModel *m_calls = nullptr;
    QTableView *m_table = nullptr;
    QPointer<AgentPolicyDialog> m_policy;
};

} // namespace sandbar::ui
