#pragma once

#include "Preferences.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFontComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;

namespace sandbar::ui {

class PreferencesStore;

// Edits the store's preferences on five tabs (Appearance, Terminal, Sessions, Tray, Agents).
// Apply and OK write them to the store (which saves and emits changed()); Cancel drops
// the edits. Open it with open(), never exec().
class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    explicit PreferencesDialog(PreferencesStore &store, QWidget *parent = nullptr);

    // Without a tray, close-to-tray cannot be chosen (and says why).
    void setTrayAvailable(bool available);

    // What the Agents page shows of the running MCP endpoint: its URL while it serves, the
    // bearer token (hidden until asked), and why it does not serve when it should.
    void setMcpEndpoint(const QString &url, const QString &token, const QString &problem);

    // What the widgets say now.
    Preferences edited() const;
    // Puts prefs into the widgets (the dialog does this with the store's at construction).
    void setPreferences(const Preferences &prefs);

    QTabWidget *tabs() const { return m_tabs; }

Q_SIGNALS:
    // The person asked for a new token (the old one stops working).
    void newMcpTokenRequested();

public Q_SLOTS:
    // Hands the edits to the store; false (and a line saying so) when they could not be saved.
    bool apply();

private:
    QWidget *makeAppearanceTab();
    QWidget *makeTerminalTab();
    QWidget *makeSessionsTab();
    QWidget *makeTrayTab();
    QWidget *makeAgentsTab();
    void updateApply();

    PreferencesStore &m_store;
    QString m_defaultFamily; // the system fixed font's family: stored as "" (follow the system)
    QTabWidget *m_tabs = nullptr;
    QComboBox *m_theme = nullptr;
    QFontComboBox *m_fontFamily = nullptr;
    QSpinBox *m_fontSize = nullptr;
    QSpinBox *m_scrollback = nullptr;
    QCheckBox *m_copyOnSelect = nullptr;
    QComboBox *m_ttl = nullptr;
    QSpinBox *m_listPeriod = nullptr;
    QSpinBox *m_detailPeriod = nullptr;
    QCheckBox *m_closeToTray = nullptr;
    QCheckBox *m_mcpHttp = nullptr;
    QSpinBox *m_mcpPort = nullptr;
    QLabel *m_mcpUrl = nullptr;
    QLineEdit *m_mcpToken = nullptr;
    QPushButton *m_mcpShow = nullptr;
    QLabel *m_mcpProblem = nullptr;
    QCheckBox *m_notifications = nullptr;
    QLabel *m_trayNote = nullptr;
    QLabel *m_error = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QString m_familyShown;
    Preferences m_shown; // what setPreferences put in, the base of edited()
};

} // namespace sandbar::ui
