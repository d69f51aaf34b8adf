#pragma once

// The Commands tab, for a provider with BackgroundFacet (Vercel's detached commands): commands
// that keep running on their own (a dev server, a watcher), started from a command line, listed
// with their state, the selected one's output followed as it comes (stderr in its own colour),
// and Stop (TERM) or Kill (KILL) for it. They run on when the window closes.

#include "providers/Provider.h"

#include <QPointer>
#include <QStringDecoder>
#include <QWidget>
#include <memory>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace sandbar::ui {

class CommandsView : public QWidget
{
    Q_OBJECT
public:
    CommandsView(Provider *provider, QString sessionId, QWidget *parent = nullptr);
    ~CommandsView() override;

    // Asks the provider for the list again (done when the tab is first shown).
    void reload();
    // Starts the command line typed (as `sh -c LINE`).
    void startTyped();
    // Sends the selected command a signal (the buttons ask nothing: a command is not data).
    void signalSelected(int signal);
    QLineEdit *input() const { return m_input; }
    QTableWidget *table() const { return m_table; }
    QString outputText() const;
    QString statusText() const;

protected:
    void showEvent(QShowEvent *event) override;

private:
    void fill(const QList<BackgroundCommand> &commands);
    void follow(const QString &commandId);
    void append(const QByteArray &bytes, int stream);
    QString selectedId() const;
    void updateButtons();

    QPointer<Provider> m_provider;
    QString m_sessionId;
    QLineEdit *m_input = nullptr;
    QPushButton *m_start = nullptr;
    QTableWidget *m_table = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_kill = nullptr;
    QPlainTextEdit *m_output = nullptr;
    QLabel *m_status = nullptr;
    std::unique_ptr<LogStream> m_stream;
    QString m_following;
    QStringDecoder m_decoders[2] = {QStringDecoder(QStringDecoder::Utf8), QStringDecoder(QStringDecoder::Utf8)};
    bool m_loaded = false;
};

} // namespace sandbar::ui
