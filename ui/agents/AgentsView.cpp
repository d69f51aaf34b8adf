#include "agents/AgentsView.h"

#include "agents/AgentCallsModel.h"
#include "agents/AgentPolicyDialog.h"

#include <QFontDatabase>
#include <QFrame>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {

// One line of text cut with an ellipsis to the width it is given (QLabel only wraps).
class ElidedLabel : public QLabel
{
public:
    ElidedLabel(const QString &text, QWidget *parent)
        : QLabel(text, parent)
    {
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    }
    QSize minimumSizeHint() const override { return QSize(40, fontMetrics().height()); }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setPen(palette().color(QPalette::WindowText));
        const QRect r = contentsRect();
        p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, fontMetrics().elidedText(text(), Qt::ElideRight, r.width()));
    }
};

QString deniedMessage(const QString &reason)
{
    const QString r = reason.trimmed();
    return r.isEmpty() ? AgentsView::tr("Denied in the Sandbar window.")
                       : AgentsView::tr("Denied in the Sandbar window: %1").arg(r);
}

} // namespace

AgentsView::AgentsView(mcp::AgentHub &hub, QString configDir, QStringList accountNames, QStringList toolNames,
                       QWidget *parent)
    : QWidget(parent)
    , m_hub(hub)
    , m_configDir(std::move(configDir))
    , m_accounts(std::move(accountNames))
    , m_tools(std::move(toolNames))
{
    setObjectName(QStringLiteral("agentsView"));
    setWindowTitle(tr("Agents"));

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("agentsStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_forget = new QPushButton(tr("Forget “always”"), this);
    m_forget->setObjectName(QStringLiteral("forgetAlwaysButton"));
    m_forget->setToolTip(tr("Ask again for every call that was approved with “Always for this client”"));
    connect(m_forget, &QPushButton::clicked, this, [this]() { m_hub.forgetAlways(); });
    auto *policy = new QPushButton(tr("&Policy…"), this);
    policy->setObjectName(QStringLiteral("agentPolicyButton"));
    policy->setToolTip(tr("Which accounts, limits and tools agents may use, and which calls need your approval"));
    connect(policy, &QPushButton::clicked, this, &AgentsView::openPolicy);
    auto *top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_forget, 0, Qt::AlignTop);
    top->addWidget(policy, 0, Qt::AlignTop);

    // The queue: one card per waiting call, in the order asked.
    m_queueBox = new QGroupBox(this);
    m_queueBox->setObjectName(QStringLiteral("approvalQueue"));
    m_scroll = new QScrollArea(m_queueBox);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    auto *cards = new QWidget(m_scroll);
    m_cardsWidget = cards;
    m_cardsLayout = new QVBoxLayout(cards);
    m_cardsLayout->setContentsMargins(0, 0, 0, 0);
    m_emptyQueue = new QLabel(tr("No calls are waiting for your approval."), cards);
    m_emptyQueue->setObjectName(QStringLiteral("emptyQueue"));
    m_emptyQueue->setAlignment(Qt::AlignCenter);
    m_emptyQueue->setEnabled(false);
    m_cardsLayout->addWidget(m_emptyQueue);
    m_cardsLayout->addStretch(1);
    m_scroll->setWidget(cards);
    auto *queueLayout = new QVBoxLayout(m_queueBox);
    queueLayout->addWidget(m_scroll);

    auto *callsBox = new QGroupBox(tr("Recent calls"), this);
    m_calls = new AgentCallsModel(hub, this);
    m_table = new QTableView(callsBox);
    m_table->setObjectName(QStringLiteral("agentCalls"));
    m_table->setAccessibleName(tr("Recent agent calls"));
    m_table->setModel(m_calls);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(AgentCallsModel::ArgumentsColumn, QHeaderView::Stretch);
    const int digit = m_table->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_table->setColumnWidth(AgentCallsModel::TimeColumn, digit * 10);
    m_table->setColumnWidth(AgentCallsModel::ClientColumn, digit * 18);
    m_table->setColumnWidth(AgentCallsModel::ToolColumn, digit * 17);
    m_table->setColumnWidth(AgentCallsModel::OutcomeColumn, digit * 26);
    m_table->setColumnWidth(AgentCallsModel::DurationColumn, digit * 10);
    auto *callsLayout = new QVBoxLayout(callsBox);
    callsLayout->addWidget(m_table);

    m_split = new QSplitter(Qt::Vertical, this);
    m_split->setObjectName(QStringLiteral("agentsSplitter"));
    m_split->setChildrenCollapsible(false);
    m_split->addWidget(m_queueBox);
    m_split->addWidget(callsBox);
    m_split->setStretchFactor(0, 0);
    m_split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_split, 1);

    connect(&m_hub, &mcp::AgentHub::approvalsChanged, this, [this]() {
        syncApprovals();
        updateStatus();
        fitQueue();
    });
    connect(&m_hub, &mcp::AgentHub::clientsChanged, this, &AgentsView::updateStatus);
    syncApprovals();
    updateStatus();
}

void AgentsView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    fitQueue();
}

void AgentsView::fitQueue()
{
    const QList<int> sizes = m_split->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    if (total <= 0 || !isVisible())
        return;
    // The box's own frame and title, plus every card (hidden ones, being deleted, excluded).
    m_cardsLayout->activate();
    const int chrome = m_queueBox->height() - m_scroll->viewport()->height();
    const int needed = chrome + m_cardsWidget->sizeHint().height();
    const int most = total * 3 / 5;
    int queue = sizes.value(0);
    if (m_cards.isEmpty())
        queue = qMin(needed, most);
    else if (queue < needed)
        queue = qMin(needed, most); // grows to show what arrived; never shrinks under the person's drag
    if (queue != sizes.value(0))
        m_split->setSizes({queue, total - queue});
}

void AgentsView::setListenError(const QString &error)
{
    m_listenError = error;
    updateStatus();
}

void AgentsView::updateStatus()
{
    QStringList lines;
    if (m_hub.isListening()) {
        const QList<mcp::ConnectedClient> clients = m_hub.clients();
        QStringList names;
        for (const mcp::ConnectedClient &c : clients)
            names << clientLabel(c.client).toHtmlEscaped();
        lines << (clients.isEmpty()
                      ? tr("Listening for <code>sandbarctl mcp</code>; no agent is connected.")
                      : tr("Listening for <code>sandbarctl mcp</code>; %n connected: %1.", nullptr, int(clients.size()))
                            .arg(names.join(QStringLiteral(", "))));
    } else if (!m_listenError.isEmpty()) {
        lines << tr("<b>Not listening for <code>sandbarctl mcp</code>:</b> %1 Its calls that need approval are "
                    "denied.")
                     .arg(m_listenError.toHtmlEscaped());
    }
    const QList<QPair<QString, QString>> always = m_hub.alwaysAllowed();
    if (!always.isEmpty()) {
        QStringList pairs;
        for (const auto &p : always)
            pairs << tr("%1 → %2", "client → tool")
                         .arg(p.first == mcp::AgentHub::httpAlwaysKey() ? tr("HTTP clients holding the token")
                                                                        : p.first.toHtmlEscaped(),
                              p.second.toHtmlEscaped());
        lines << tr("Approved without asking until Sandbar quits: %1").arg(pairs.join(QStringLiteral(", ")));
    }
    m_status->setText(lines.join(QStringLiteral("<br>")));
    m_forget->setVisible(!always.isEmpty());
    m_queueBox->setTitle(m_cards.isEmpty() ? tr("Waiting for approval")
                                           : tr("Waiting for approval (%1)").arg(m_cards.size()));
}

void AgentsView::syncApprovals()
{
    const QList<mcp::PendingApproval> pending = m_hub.pendingApprovals();
    QSet<QString> ids;
    for (const mcp::PendingApproval &p : pending)
        ids.insert(p.id);
    // Cards already shown stay as they are (a reason being typed is kept).
    for (auto it = m_cards.begin(); it != m_cards.end();) {
        if (!ids.contains(it.key())) {
            // Gone at once for anyone looking (the click that decided it may still be on the stack).
            it.value()->hide();
            it.value()->setObjectName(QString());
            it.value()->deleteLater();
            it = m_cards.erase(it);
        } else {
            ++it;
        }
    }
    for (const mcp::PendingApproval &p : pending) {
        if (m_cards.contains(p.id))
            continue;
        QWidget *card = makeCard(p);
        // Before the stretch that keeps the cards at the top.
        m_cardsLayout->insertWidget(m_cardsLayout->count() - 1, card);
        m_cards.insert(p.id, card);
    }
    m_emptyQueue->setVisible(m_cards.isEmpty());
}

QWidget *AgentsView::makeCard(const mcp::PendingApproval &p)
{
    auto *card = new QFrame;
    card->setObjectName(QStringLiteral("approvalCard"));
    card->setProperty("approvalId", p.id);
    card->setFrameShape(QFrame::StyledPanel);
    card->setAccessibleName(tr("%1 asks to call %2").arg(clientLabel(p.request.client), p.request.tool));

    auto *title = new QLabel(card);
    title->setTextFormat(Qt::RichText);
    title->setText(tr("<b>%1</b> wants to call <b><code>%2</code></b>")
                       .arg(clientLabel(p.request.client).toHtmlEscaped(), p.request.tool.toHtmlEscaped()));
    QString origin = p.request.client.transport.isEmpty() ? QString() : p.request.client.transport;
    if (p.request.client.pid > 0)
        origin = tr("%1, process %2").arg(origin).arg(p.request.client.pid);
    auto *when = new QLabel(
        origin.isEmpty()
            ? tr("asked at %1").arg(QLocale().toString(p.askedAt.time(), QStringLiteral("HH:mm:ss")))
            : tr("%1 · asked at %2").arg(origin, QLocale().toString(p.askedAt.time(), QStringLiteral("HH:mm:ss"))),
        card);
    when->setEnabled(false);
    auto *head = new QHBoxLayout;
    head->addWidget(title, 1);
    head->addWidget(when);

    auto *layout = new QVBoxLayout(card);
    layout->addLayout(head);
    if (!p.request.reasons.isEmpty()) {
        QStringList items;
        for (const QString &r : p.request.reasons)
            items << QStringLiteral("<li>%1</li>").arg(r.toHtmlEscaped());
        auto *reasons =
            new QLabel(QStringLiteral("<ul style=\"margin-left:-24px\">%1</ul>").arg(items.join(QString())), card);
        reasons->setObjectName(QStringLiteral("approvalReasons"));
        reasons->setWordWrap(true);
        layout->addWidget(reasons);
    }
    const QString args = compactArguments(p.request.arguments, 2000);
    auto *arguments = new ElidedLabel(args.isEmpty() ? tr("(no arguments)") : args, card);
    arguments->setObjectName(QStringLiteral("approvalArguments"));
    arguments->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    arguments->setToolTip(fullArguments(p.request.arguments));
    layout->addWidget(arguments);

    auto *reason = new QLineEdit(card);
    reason->setObjectName(QStringLiteral("denyReason"));
    reason->setPlaceholderText(tr("Reason for the agent, if you deny (optional)"));
    reason->setAccessibleName(tr("Reason for denying"));
    reason->setClearButtonEnabled(true);
    auto *once = new QPushButton(tr("Approve once"), card);
    once->setObjectName(QStringLiteral("approveOnceButton"));
    once->setToolTip(tr("Let this call run; the next one asks again"));
    auto *always = new QPushButton(tr("Always for this client"), card);
    always->setObjectName(QStringLiteral("approveAlwaysButton"));
    always->setToolTip(
        tr("Let this call and every later %1 call from clients named “%2” run without asking, until Sandbar quits.\n"
           "Any program on this computer can give itself that name: this is a convenience, not a security "
           "boundary.")
            .arg(p.request.tool, p.request.client.name));
    auto *deny = new QPushButton(tr("Deny"), card);
    deny->setObjectName(QStringLiteral("denyButton"));
    deny->setToolTip(tr("Refuse this call; the agent is told why (the reason, when you give one)"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(reason, 1);
    buttons->addWidget(once);
    buttons->addWidget(always);
    buttons->addWidget(deny);
    layout->addLayout(buttons);

    const QString id = p.id;
    connect(once, &QPushButton::clicked, this, [this, id]() { m_hub.decide(id, mcp::ApprovalDecision::Once); });
    connect(always, &QPushButton::clicked, this, [this, id]() { m_hub.decide(id, mcp::ApprovalDecision::Always); });
    connect(deny, &QPushButton::clicked, this,
            [this, id, reason]() { m_hub.decide(id, mcp::ApprovalDecision::Deny, deniedMessage(reason->text())); });
    connect(reason, &QLineEdit::returnPressed, deny, &QPushButton::click);
    return card;
}

void AgentsView::openPolicy()
{
    if (!m_policy) {
        m_policy = new AgentPolicyDialog(m_configDir, m_accounts, m_tools, this);
        m_policy->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_policy->open();
    m_policy->raise();
    m_policy->activateWindow();
}

} // namespace sandbar::ui
