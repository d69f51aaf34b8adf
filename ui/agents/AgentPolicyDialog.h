#pragma once

#include "mcp/AgentPolicy.h"

#include <QDialog>
#include <QStringList>

class QCheckBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QListWidget;
class QSpinBox;
class QTableWidget;

namespace sandbar::ui {

// Edits <configDir>/agent-policy.json: every field of AgentPolicy. A file that cannot be read
// is shown as such and left alone; the form then starts from the defaults, and only Save
// replaces the file. Names the file lists that this window does not know (an account removed
// since, a tool of a newer version) are kept.
class AgentPolicyDialog : public QDialog
{
    Q_OBJECT
public:
    AgentPolicyDialog(QString configDir, QStringList accountNames, QStringList toolNames, QWidget *parent = nullptr);

    // What the form says now.
    mcp::AgentPolicy policy() const;
    void setPolicy(const mcp::AgentPolicy &policy);
    // Why the file could not be read when the dialog opened (empty: it could, or there was none).
    QString loadError() const { return m_loadError; }
    // Writes the form to the file; on failure the dialog says why and stays open.
    bool save();

    void accept() override;

private:
    // The parts of the form, built by the constructor in this order.
    QLabel *buildIntro();
    void buildBanner();
    QGroupBox *buildAccountsBox();
    QGroupBox *buildLimitsBox();
    QGroupBox *buildAllowBox();
    QGroupBox *buildApproveBox();
    QGroupBox *buildToolsBox();
    QDialogButtonBox *buildButtons();
    // Fills the form from the file, or from the defaults with the banner saying why.
    void loadPolicy();
    void updateAccountsEnabled();
    void showError(const QString &text);

    QString m_configDir;
    QStringList m_accountNames;
    QStringList m_toolNames;
    QString m_loadError;
    mcp::AgentPolicy m_loaded; // to keep seconds the minute fields cannot show

    QLabel *m_banner = nullptr;
    QListWidget *m_accounts = nullptr;
    QSpinBox *m_maxSessions = nullptr;
    QSpinBox *m_defaultTtl = nullptr; // minutes
    QSpinBox *m_maxTtl = nullptr;     // minutes
    QDoubleSpinBox *m_maxUsd = nullptr;
    QCheckBox *m_allowNetwork = nullptr;
    QCheckBox *m_allowHostPaths = nullptr;
    QCheckBox *m_approvePaid = nullptr;
    QCheckBox *m_approveNetwork = nullptr;
    QCheckBox *m_approveHostPaths = nullptr;
    QTableWidget *m_tools = nullptr;
    QCheckBox *m_removeOnDisconnect = nullptr;
    QLabel *m_error = nullptr;
};

} // namespace sandbar::ui
