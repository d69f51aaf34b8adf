#pragma once

#include "providers/Provider.h"

#include <QPointer>
#include <QWidget>
#include <memory>

class QLabel;
class QProgressBar;

namespace sandbar {
class TerminalScreen;
class TerminalView;
class PtyChannel;
} // namespace sandbar

namespace sandbar::ui {

// A terminal tab on one session: the screen and its scrollback live as long as the tab,
// channels come and go (Reconnect opens a new one on the same screen). Files dropped on
// the terminal are uploaded into the session's working folder.
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

Q_SIGNALS:
    void titleChanged(const QString &title);

private:
    void connectChannel();
    void uploadFiles(const QStringList &paths);
    void uploadNext();

    QPointer<Provider> m_provider;
    SessionInfo m_session;
    QString m_attachId;
    TerminalScreen *m_screen;
    TerminalView *m_view;
    std::unique_ptr<PtyChannel> m_channel;
    QWidget *m_uploadBar;
    QLabel *m_uploadLabel;
    QProgressBar *m_uploadProgress;
    QStringList m_uploadQueue;
    std::unique_ptr<TransferJob> m_upload;
};

} // namespace sandbar::ui
