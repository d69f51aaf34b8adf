#pragma once

#include "providers/Provider.h"
#include "terminal/TerminalSettings.h"

#include <QPointer>
#include <QWidget>
#include <memory>

class QLabel;
class QProgressBar;
class QTimer;

namespace sandbar {
class TerminalScreen;
class TerminalView;
class PtyChannel;
} // namespace sandbar

namespace sandbar::ui {

// A terminal tab on one session: the screen and its scrollback live as long as the tab,
// channels come and go (Reconnect opens a new one on the same screen). Files dropped on
// the terminal are uploaded into the session's working folder; where the provider has no
// file access the drop is answered with a notice under the terminal. The widget's window
// title is the program's title (OSC 0/2), or the session's name while it has none.
class SessionTerminal : public QWidget
{
    Q_OBJECT
public:
    // attachId: a terminal the provider kept alive (Reattach), or empty for a new shell.
    SessionTerminal(Provider *provider, const SessionInfo &session, const QString &attachId = {},
                    QWidget *parent = nullptr);
    ~SessionTerminal() override;

    TerminalView *view() const { return m_view; }
    TerminalScreen *screen() const { return m_screen; }
    // Colours, copy-on-select, paste confirmation and the link opener.
    void setSettings(const TerminalSettings &settings);
    // The session changed state or went away: a stopped, paused or removed session's terminal
    // keeps its content under a banner saying so, offering what can be done (Resume where the
    // provider pauses, Reconnect once it runs again).
    void setSessionState(const SessionInfo &session);
    void setSessionRemoved();
    QString endStateText() const;
    // The line under the terminal: upload progress, or why a drop was not taken.
    QString noticeText() const;
    bool isNoticeVisible() const;

Q_SIGNALS:
    // The tab's title changed (also the widget's windowTitle).
    void titleChanged(const QString &title);

protected:
    void changeEvent(QEvent *e) override;

private:
    void updateTitle();
    void onBannerAction();
    void showNotice(const QString &text);
    void connectChannel();
    // The channel broke while the session runs (the network, an SSH master, the engine): a
    // new one is tried with a back-off (1 s doubling to 30 s), the banner saying so and
    // offering to try now; once one starts, a line in the terminal marks what was lost.
    void scheduleReconnect(const QString &why);
    void markReconnected();
    void uploadFiles(const QStringList &paths);
    void uploadNext();

    QPointer<Provider> m_provider;
    SessionInfo m_session;
    QString m_attachId;
    QString m_programTitle;
    TerminalSettings m_settings;
    TerminalScreen *m_screen;
    TerminalView *m_view;
    std::unique_ptr<PtyChannel> m_channel;
    QWidget *m_uploadBar;
    QLabel *m_uploadLabel;
    QProgressBar *m_uploadProgress;
    QStringList m_uploadQueue;
    std::unique_ptr<TransferJob> m_upload;
    QTimer *m_noticeTimer;
    QTimer *m_retry;
    int m_retryMs;
    bool m_reconnecting = false;
};

} // namespace sandbar::ui
