#pragma once

#include "main/Notifier.h"
#include "prefs/Preferences.h"
#include "sessions/StopAll.h"

#include <QObject>
#include <QPointer>
#include <functional>

class QAction;
class QMenu;
class QSystemTrayIcon;
class QWidget;

namespace sandbar {
class CostMeter;
class SessionRegistry;
} // namespace sandbar

namespace sandbar::ui {

// The system tray entry: a tooltip and a menu line with the running-session count and the
// hourly cost, "Show Sandbar", "Stop all sessions…" (confirmed, then every running session
// is stopped through its provider and one summary is shown) and "Quit". Builds nothing when
// the desktop has no tray (isAvailable() false): the object still exists and does nothing.
class TrayIcon : public QObject
{
    Q_OBJECT
public:
    // window: the main window it shows and parents its confirmation to. costs may be null.
    TrayIcon(SessionRegistry &registry, CostMeter *costs, QWidget *window, QObject *parent = nullptr);
    ~TrayIcon() override;

    static bool isSystemTrayAvailable();
    bool isAvailable() const { return m_tray != nullptr; }

    QString statusText() const;
    // The tray's balloon; false (nothing shown) without a tray.
    bool showMessage(const Notification &n);
    // A sink for Notifier: the tray when there is one, else fallback (a status bar, a log).
    Notifier::Sink notificationSink(std::function<void(const QString &text)> fallback);

    // Opens the confirmation (not modal to the app's loop); tests and the menu call it.
    void requestStopAll();

    QMenu *menu() const { return m_menu; }

Q_SIGNALS:
    void showRequested();
    void quitRequested();
    void stopAllFinished(const sandbar::ui::StopAllSummary &summary);

private:
    void updateStatus();
    void showWindow();

    SessionRegistry &m_registry;
    QPointer<CostMeter> m_costs;
    QPointer<QWidget> m_window;
    QSystemTrayIcon *m_tray = nullptr;
    QMenu *m_menu = nullptr;
    QAction *m_status = nullptr;
    QAction *m_stopAll = nullptr;
    bool m_stopping = false;
};

// Hides the main window instead of closing it while shouldHide() holds, so Sandbar keeps
// running in the tray; a quit (QEvent::Quit, or setQuitting) closes as usual. It installs
// itself on the window (its parent) and on the application, for the quit:
//   new CloseToTrayFilter(window, [store] { return shouldHideOnClose(store->preferences(), ...); });
class CloseToTrayFilter : public QObject
{
    Q_OBJECT
public:
    CloseToTrayFilter(QWidget *window, std::function<bool()> shouldHide);
    void setQuitting(bool on) { m_quitting = on; }

Q_SIGNALS:
    // The window was hidden instead of closed (the first time: tell the user where it went).
    void hiddenToTray(bool firstTime);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *m_window;
    std::function<bool()> m_shouldHide;
    bool m_quitting = false;
    bool m_toldOnce = false;
};

} // namespace sandbar::ui
