#pragma once

#include "Theme.h"

#include <QDBusConnection>
#include <QObject>
#include <QPalette>
#include <optional>

class QApplication;
class QDBusPendingCallWatcher;
class QDBusVariant;

namespace sandbar::ui {

class PreferencesStore;

// Follows the desktop's light/dark preference without ever blocking the UI thread.
//   Linux: the XDG desktop portal's org.freedesktop.appearance color-scheme, read
//          asynchronously (ReadOne, else the older Read) and followed through SettingChanged;
//          1 = dark, 2 = light, 0 or no portal = the fallback palette's lightness.
//   Windows: HKCU\...\Themes\Personalize\AppsUseLightTheme, re-read every few seconds.
//   macOS: the application palette, which follows the system appearance while the theme
//          is System (Theme::applyMode leaves it native then).
class ColorSchemeWatcher : public QObject
{
    Q_OBJECT
public:
    enum class Source { Fallback, Portal, Registry, Palette };

    // The platform's own source (on Linux the session bus). Construct it before
    // Theme::apply: the fallback palette is the application palette at construction.
    explicit ColorSchemeWatcher(QObject *parent = nullptr);
    // The portal on bus, whatever the platform (tests use a private bus).
    explicit ColorSchemeWatcher(const QDBusConnection &bus, QObject *parent = nullptr);
    ~ColorSchemeWatcher() override;

    // Asks for the current value; schemeChanged follows once it is known (also when only
    // the fallback is left), and again whenever it changes.
    void start();

    ColorScheme scheme() const { return m_scheme.value_or(colorSchemeOf(m_fallback)); }
    bool isKnown() const { return m_scheme.has_value(); }
    Source source() const { return m_source; }
    // The raw portal value last seen (0, 1, 2); -1 when none.
    int portalValue() const { return m_portalValue; }

    void setFallbackPalette(const QPalette &palette) { m_fallback = palette; }

    // Portal value -> scheme; 0 and anything unknown: no preference.
    static std::optional<ColorScheme> fromPortalValue(int value);

Q_SIGNALS:
    void schemeChanged(sandbar::ui::ColorScheme scheme);

private Q_SLOTS:
    // QtDBus delivers bus signals only to a slot named by signature.
    void onSettingChanged(const QString &ns, const QString &key, const QDBusVariant &value);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void readPortal(bool readOne);
    void onPortalReply(QDBusPendingCallWatcher *call, bool readOne);
    void setPortalValue(int value);
    void readRegistry();
    void readPalette();
    void update(std::optional<ColorScheme> scheme, Source source);

    std::optional<QDBusConnection> m_bus;
    QPalette m_fallback;
    std::optional<ColorScheme> m_scheme;
    Source m_source = Source::Fallback;
    int m_portalValue = -1;
    bool m_started = false;
    bool m_subscribed = false;
};

// Keeps the application's look in line with the preferences and the desktop: applies the
// theme now (the desktop's scheme once the watcher knows it) and again whenever the
// preference or the desktop changes. Starts the watcher. Both must outlive the app's loop.
void followTheme(QApplication &app, PreferencesStore &store, ColorSchemeWatcher &watcher);

} // namespace sandbar::ui
