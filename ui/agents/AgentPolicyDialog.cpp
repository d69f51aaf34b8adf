#include "agents/AgentPolicyDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {

const QString AllAccounts = QStringLiteral("*");
constexpr int NameRole = Qt::UserRole;
enum ToolColumn { ToolName, ToolEnabled, ToolAsk, ToolColumns };

int minutesOf(qint64 seconds)
{
    if (seconds <= 0)
        return 0;
    return int(qMax<qint64>(1, (seconds + 30) / 60));
}

// The minute field's value, unless it still shows what was loaded: then the loaded seconds
// (a hand-written 90 s stays 90 s, not 120).
qint64 secondsFrom(const QSpinBox *minutes, qint64 loadedSeconds)
{
    if (minutes->value() == minutesOf(loadedSeconds))
        return loadedSeconds;
    return qint64(minutes->value()) * 60;
}

QCheckBox *check(const QString &text, const QString &objectName, const QString &tip, QWidget *parent)
{
    auto *box = new QCheckBox(text, parent);
    box->setObjectName(objectName);
    box->setToolTip(tip);
    return box;
}

QTableWidgetItem *checkItem(bool on, const QString &accessible)
{
    auto *item = new QTableWidgetItem;
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
    item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    item->setData(Qt::AccessibleTextRole, accessible);
    return item;
}

} // namespace

AgentPolicyDialog::AgentPolicyDialog(QString configDir, QStringList accountNames, QStringList toolNames,
                                     QWidget *parent)
    : QDialog(parent)
    , m_configDir(std::move(configDir))
    , m_accountNames(std::move(accountNames))
    , m_toolNames(std::move(toolNames))
{
    setObjectName(QStringLiteral("agentPolicyDialog"));
    setWindowTitle(tr("Agent policy"));

    QLabel *intro = buildIntro();
    buildBanner();
    QGroupBox *accountsBox = buildAccountsBox();
    QGroupBox *limitsBox = buildLimitsBox();
    QGroupBox *allowBox = buildAllowBox();
    QGroupBox *approveBox = buildApproveBox();
    QGroupBox *toolsBox = buildToolsBox();

    m_removeOnDisconnect = check(
        tr("Remove an agent's sessions when it disconnects"), QStringLiteral("policyRemoveOnDisconnect"),
        tr("So that an agent's leftovers do not run up a bill; their files inside the sandbox are deleted"), this);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("policySaveError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c62828"));
    m_error->hide();

    QDialogButtonBox *buttons = buildButtons();

    auto *left = new QVBoxLayout;
    left->addWidget(accountsBox, 1);
    left->addWidget(limitsBox);
    left->addWidget(m_removeOnDisconnect);
    auto *right = new QVBoxLayout;
    right->addWidget(allowBox);
    right->addWidget(approveBox);
    right->addWidget(toolsBox, 1);
    auto *columns = new QHBoxLayout;
    columns->addLayout(left, 1);
    columns->addLayout(right, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_banner);
    layout->addLayout(columns, 1);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    loadPolicy();
    resize(880, 720);
}

QLabel *AgentPolicyDialog::buildIntro()
{
    const QString file = QDir(m_configDir).filePath(QLatin1String(mcp::kAgentPolicyFile));

    auto *intro = new QLabel(tr("What agents may do through Sandbar's MCP server (<code>sandbarctl mcp</code> and the "
                                "window's endpoint). Saved in <code>%1</code>; every call reads it again.")
                                 .arg(file.toHtmlEscaped()),
                             this);
    intro->setWordWrap(true);
    intro->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return intro;
}

void AgentPolicyDialog::buildBanner()
{
    m_banner = new QLabel(this);
    m_banner->setObjectName(QStringLiteral("policyLoadError"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setFrameShape(QFrame::StyledPanel);
    m_banner->setMargin(8);
    m_banner->setAutoFillBackground(true);
    QPalette warn = m_banner->palette();
    warn.setColor(QPalette::Window, QColor(0xfd, 0xec, 0xea));
    warn.setColor(QPalette::WindowText, QColor(0x8a, 0x1c, 0x1c));
    m_banner->setPalette(warn);
    m_banner->hide();
}

QGroupBox *AgentPolicyDialog::buildAccountsBox()
{
    // Accounts: "All accounts", then each configured one.
    auto *accountsBox = new QGroupBox(tr("Accounts agents may use"), this);
    m_accounts = new QListWidget(accountsBox);
    m_accounts->setObjectName(QStringLiteral("policyAccounts"));
    m_accounts->setAccessibleName(tr("Accounts agents may use"));
    connect(m_accounts, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        if (item->data(NameRole).toString() == AllAccounts)
            updateAccountsEnabled();
    });
    auto *accountsLayout = new QVBoxLayout(accountsBox);
    accountsLayout->addWidget(m_accounts);
    return accountsBox;
}

QGroupBox *AgentPolicyDialog::buildLimitsBox()
{
    auto *limitsBox = new QGroupBox(tr("Limits"), this);
    m_maxSessions = new QSpinBox(limitsBox);
    m_maxSessions->setObjectName(QStringLiteral("policyMaxSessions"));
    m_maxSessions->setRange(0, 10000);
    m_maxSessions->setToolTip(tr("Sessions created by agents that may exist at once; 0: agents cannot create any"));
    m_defaultTtl = new QSpinBox(limitsBox);
    m_defaultTtl->setObjectName(QStringLiteral("policyDefaultTtl"));
    m_defaultTtl->setRange(0, 100000);
    m_defaultTtl->setSuffix(tr(" min"));
    m_defaultTtl->setSpecialValueText(tr("No time limit"));
    m_defaultTtl->setToolTip(tr("The time limit of a session an agent creates without asking for one"));
    m_maxTtl = new QSpinBox(limitsBox);
    m_maxTtl->setObjectName(QStringLiteral("policyMaxTtl"));
    m_maxTtl->setRange(0, 100000);
    m_maxTtl->setSuffix(tr(" min"));
    m_maxTtl->setSpecialValueText(tr("No maximum"));
    m_maxTtl->setToolTip(tr("The longest time limit an agent may ask for; with no maximum, also none at all"));
    m_maxUsd = new QDoubleSpinBox(limitsBox);
    m_maxUsd->setObjectName(QStringLiteral("policyMaxUsd"));
    m_maxUsd->setRange(0, 100000);
    m_maxUsd->setDecimals(2);
    m_maxUsd->setSingleStep(0.5);
    m_maxUsd->setPrefix(QStringLiteral("$"));
    m_maxUsd->setSuffix(tr(" per hour"));
    m_maxUsd->setSpecialValueText(tr("No limit"));
    m_maxUsd->setToolTip(tr("The estimated price of the agents' running sessions together, the new one included"));
    auto *limits = new QFormLayout(limitsBox);
    limits->addRow(tr("Sessions at once:"), m_maxSessions);
    limits->addRow(tr("Default time limit:"), m_defaultTtl);
    limits->addRow(tr("Longest time limit:"), m_maxTtl);
    limits->addRow(tr("Running cost of agent sessions:"), m_maxUsd);
    return limitsBox;
}

QGroupBox *AgentPolicyDialog::buildAllowBox()
{
    auto *allowBox = new QGroupBox(tr("Agents may ask for"), this);
    m_allowNetwork = check(tr("Network access in their sessions"), QStringLiteral("policyAllowNetwork"),
                           tr("Off: a create with network on is refused"), allowBox);
    m_allowHostPaths = check(tr("Folders of this computer (mounts, uploads)"), QStringLiteral("policyAllowHostPaths"),
                             tr("Off: mounts and uploads from this computer are refused"), allowBox);
    auto *allow = new QVBoxLayout(allowBox);
    allow->addWidget(m_allowNetwork);
    allow->addWidget(m_allowHostPaths);
    return allowBox;
}

QGroupBox *AgentPolicyDialog::buildApproveBox()
{
    auto *approveBox = new QGroupBox(tr("Ask me in this window before"), this);
    m_approvePaid = check(tr("Creating a session on an account that bills"), QStringLiteral("policyApprovePaid"),
                          tr("Cloud providers; a Local, Docker or Podman account never bills"), approveBox);
    m_approveNetwork = check(tr("Creating a session with network access"), QStringLiteral("policyApproveNetwork"),
                             QString(), approveBox);
    m_approveHostPaths =
        check(tr("Using a folder of this computer"), QStringLiteral("policyApproveHostPaths"), QString(), approveBox);
    auto *approve = new QVBoxLayout(approveBox);
    approve->addWidget(m_approvePaid);
    approve->addWidget(m_approveNetwork);
    approve->addWidget(m_approveHostPaths);
    return approveBox;
}

QGroupBox *AgentPolicyDialog::buildToolsBox()
{
    auto *toolsBox = new QGroupBox(tr("Tools"), this);
    m_tools = new QTableWidget(0, ToolColumns, toolsBox);
    m_tools->setObjectName(QStringLiteral("policyTools"));
    m_tools->setAccessibleName(tr("Tools agents see"));
    m_tools->setHorizontalHeaderLabels({tr("Tool"), tr("Enabled"), tr("Ask every call")});
    m_tools->verticalHeader()->hide();
    m_tools->setSelectionMode(QAbstractItemView::NoSelection);
    m_tools->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tools->horizontalHeader()->setSectionResizeMode(ToolName, QHeaderView::Stretch);
    m_tools->horizontalHeader()->setSectionResizeMode(ToolEnabled, QHeaderView::ResizeToContents);
    m_tools->horizontalHeader()->setSectionResizeMode(ToolAsk, QHeaderView::ResizeToContents);
    m_tools->verticalHeader()->setDefaultSectionSize(m_tools->fontMetrics().height() + 8);
    auto *tools = new QVBoxLayout(toolsBox);
    tools->addWidget(m_tools);
    return toolsBox;
}

QDialogButtonBox *AgentPolicyDialog::buildButtons()
{
    auto *buttons = new QDialogButtonBox(
        QDialogButtonBox::Save | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &AgentPolicyDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &AgentPolicyDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            [this]() { setPolicy(mcp::AgentPolicy()); });
    return buttons;
}

void AgentPolicyDialog::loadPolicy()
{
    const Result<mcp::AgentPolicy> loaded = mcp::loadAgentPolicy(m_configDir);
    if (loaded.ok()) {
        setPolicy(*loaded);
    } else {
        m_loadError = loaded.message();
        m_banner->setText(tr("<b>The agent policy could not be read.</b> %1<br>The form shows the defaults. The file "
                             "is left as it is unless you press Save, which replaces it with what the form shows.")
                              .arg(m_loadError.toHtmlEscaped()));
        m_banner->show();
        setPolicy(mcp::AgentPolicy());
    }
}

void AgentPolicyDialog::setPolicy(const mcp::AgentPolicy &p)
{
    m_loaded = p;

    QSignalBlocker block(m_accounts);
    m_accounts->clear();
    auto *all = new QListWidgetItem(tr("All accounts, also ones added later"), m_accounts);
    all->setData(NameRole, AllAccounts);
    all->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    all->setCheckState(p.accounts.contains(AllAccounts) ? Qt::Checked : Qt::Unchecked);
    QStringList names = m_accountNames;
    for (const QString &a : p.accounts)
        if (a != AllAccounts && !names.contains(a))
            names << a;
    for (const QString &name : std::as_const(names)) {
        const bool known = m_accountNames.contains(name);
        auto *item = new QListWidgetItem(known ? name : tr("%1 (not configured here)").arg(name), m_accounts);
        item->setData(NameRole, name);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(p.accounts.contains(name) ? Qt::Checked : Qt::Unchecked);
    }
    updateAccountsEnabled();

    m_maxSessions->setValue(p.maxSessions);
    m_defaultTtl->setValue(minutesOf(p.defaultTtlSeconds));
    m_maxTtl->setValue(minutesOf(p.maxTtlSeconds));
    m_maxUsd->setValue(p.maxUsdPerHour);
    m_allowNetwork->setChecked(p.allowNetwork);
    m_allowHostPaths->setChecked(p.allowHostPaths);
    m_approvePaid->setChecked(p.approvePaidCreate);
    m_approveNetwork->setChecked(p.approveNetwork);
    m_approveHostPaths->setChecked(p.approveHostPaths);
    m_removeOnDisconnect->setChecked(p.removeOnDisconnect);

    QStringList tools = m_toolNames;
    for (const QStringList *extra : {&p.disabledTools, &p.approveTools})
        for (const QString &t : *extra)
            if (!tools.contains(t))
                tools << t;
    m_tools->setRowCount(int(tools.size()));
    for (int row = 0; row < tools.size(); ++row) {
        const QString &t = tools.at(row);
        auto *name = new QTableWidgetItem(t);
        name->setFlags(Qt::ItemIsEnabled);
        name->setData(NameRole, t);
        if (!m_toolNames.isEmpty() && !m_toolNames.contains(t))
            name->setToolTip(tr("Not a tool of this version; kept as the file says"));
        m_tools->setItem(row, ToolName, name);
        m_tools->setItem(row, ToolEnabled, checkItem(p.toolEnabled(t), tr("%1 enabled").arg(t)));
        m_tools->setItem(row, ToolAsk, checkItem(p.approveTools.contains(t), tr("Ask before every %1 call").arg(t)));
    }
    // Every tool in sight when there are not too many.
    const int shown = qMin(int(tools.size()), 14);
    m_tools->setMinimumHeight(shown * m_tools->verticalHeader()->defaultSectionSize() +
                              m_tools->horizontalHeader()->sizeHint().height() + 2 * m_tools->frameWidth() + 2);
}

mcp::AgentPolicy AgentPolicyDialog::policy() const
{
    mcp::AgentPolicy p;
    p.accounts.clear();
    for (int i = 0; i < m_accounts->count(); ++i) {
        const QListWidgetItem *item = m_accounts->item(i);
        if (item->checkState() == Qt::Checked)
            p.accounts << item->data(NameRole).toString();
    }
    // "*" alone says it all: the names ticked under it do not matter while it is on.
    if (p.accounts.contains(AllAccounts))
        p.accounts = QStringList{AllAccounts};
    p.maxSessions = m_maxSessions->value();
    p.defaultTtlSeconds = secondsFrom(m_defaultTtl, m_loaded.defaultTtlSeconds);
    p.maxTtlSeconds = secondsFrom(m_maxTtl, m_loaded.maxTtlSeconds);
    p.maxUsdPerHour =
        qFuzzyCompare(m_maxUsd->value() + 1, m_loaded.maxUsdPerHour + 1) ? m_loaded.maxUsdPerHour : m_maxUsd->value();
    p.allowNetwork = m_allowNetwork->isChecked();
    p.allowHostPaths = m_allowHostPaths->isChecked();
    p.approvePaidCreate = m_approvePaid->isChecked();
    p.approveNetwork = m_approveNetwork->isChecked();
    p.approveHostPaths = m_approveHostPaths->isChecked();
    p.removeOnDisconnect = m_removeOnDisconnect->isChecked();
    p.disabledTools.clear();
    p.approveTools.clear();
    for (int row = 0; row < m_tools->rowCount(); ++row) {
        const QString t = m_tools->item(row, ToolName)->data(NameRole).toString();
        if (m_tools->item(row, ToolEnabled)->checkState() != Qt::Checked)
            p.disabledTools << t;
        if (m_tools->item(row, ToolAsk)->checkState() == Qt::Checked)
            p.approveTools << t;
    }
    return p;
}

void AgentPolicyDialog::updateAccountsEnabled()
{
    const bool all = m_accounts->count() > 0 && m_accounts->item(0)->checkState() == Qt::Checked;
    QSignalBlocker block(m_accounts);
    for (int i = 1; i < m_accounts->count(); ++i) {
        QListWidgetItem *item = m_accounts->item(i);
        item->setFlags(all ? Qt::ItemIsUserCheckable : (Qt::ItemIsEnabled | Qt::ItemIsUserCheckable));
    }
}

void AgentPolicyDialog::showError(const QString &text)
{
    m_error->setText(text);
    m_error->setVisible(!text.isEmpty());
}

bool AgentPolicyDialog::save()
{
    const VoidResult r = mcp::saveAgentPolicy(m_configDir, policy());
    if (!r.ok()) {
        showError(tr("Not saved: %1").arg(r.message()));
        return false;
    }
    showError(QString());
    m_loaded = policy();
    m_loadError.clear();
    m_banner->hide();
    return true;
}

void AgentPolicyDialog::accept()
{
    if (save())
        QDialog::accept();
}

} // namespace sandbar::ui
