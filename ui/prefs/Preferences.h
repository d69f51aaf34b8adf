#pragma once

#include "terminal/TerminalSettings.h"

#include <QObject>
#include <QSettings>
#include <QString>

namespace sandbar {
class TerminalView;
}

namespace sandbar::ui {

// What the user chose for the look of the app; System follows the desktop.
enum class ThemeMode { System, Light, Dark };

// Everything the preferences dialog edits, kept in sandbar.ini next to what the rest of
// the app already reads there ([terminal], [stats]), under the same keys, so a value set
// here is the value the composition root reads at the next start.
struct Preferences {
    static constexpr int MinPeriodMs = 250;
    static constexpr int MaxPeriodMs = 60000;
    static constexpr int MinFontSize = 6;
    static constexpr int MaxFontSize = 72;
    static constexpr int MinScrollback = 100;
    static constexpr int MaxScrollback = 1000000;
    static constexpr qint64 MaxTtlSeconds = 30LL * 24 * 3600;
    static constexpr int MinPort = 1024;
    static constexpr int MaxPort = 65535;

    ThemeMode theme = ThemeMode::System;
    QString terminalFontFamily; // empty: the system's fixed-pitch font
    int terminalFontSize = 0;   // 0: the system's fixed-pitch size
    int scrollbackLines = 10000;
    bool copyOnSelect = false;
    int statsListPeriodMs = 2000;
    int statsDetailPeriodMs = 1000;
    qint64 defaultTtlSeconds = 3600; // 0: no limit
    bool closeToTray = false;
    bool notifications = true;
    // The window's MCP endpoint over HTTP on 127.0.0.1 (off until the person turns it on).
    bool mcpHttp = false;
    int mcpHttpPort = 47321;

    // Reads every key; a missing, unparsable or out-of-range value keeps its default.
    static Preferences load(const QSettings &settings);
    void save(QSettings &settings) const;

    bool operator==(const Preferences &) const = default;
};

QString themeModeName(ThemeMode mode);

// True when closing the main window should hide it to the tray instead of quitting.
bool shouldHideOnClose(const Preferences &prefs, bool trayAvailable);

// The terminal settings the preferences imply, on top of what the app already read from
// [terminal] (link opening, paste confirmation, colorScheme). base.scheme stays: its default,
// FollowPalette, follows the palette the theme sets, so a forced Light/Dark reaches the
// terminals through it; a colorScheme set by hand in sandbar.ini still wins.
TerminalSettings terminalSettingsFrom(const Preferences &prefs, TerminalSettings base = {});
// Font, size and scrollback limit of one view (TerminalSettings has no room for them).
void applyTerminalPreferences(TerminalView *view, const Preferences &prefs);

// The preferences of one run, loaded from and saved to one settings file.
class PreferencesStore : public QObject
{
    Q_OBJECT
public:
    // path: <configDir>/sandbar.ini (IniFormat), the file app/wiring reads.
    explicit PreferencesStore(const QString &iniPath, QObject *parent = nullptr);

    const Preferences &preferences() const { return m_prefs; }
    QString iniPath() const { return m_path; }
    // Saves and emits changed() when anything differs; returns the settings' status.
    QSettings::Status set(const Preferences &prefs);
    // Re-reads the file (for a file edited by hand while running).
    void reload();

Q_SIGNALS:
    void changed(const sandbar::ui::Preferences &now, const sandbar::ui::Preferences &before);

private:
    QString m_path;
    Preferences m_prefs;
};

} // namespace sandbar::ui
