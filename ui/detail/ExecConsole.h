#pragma once

#include "providers/Provider.h"

#include <QPointer>
#include <QStringDecoder>
#include <QStringList>
#include <QWidget>
#include <memory>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace sandbar::ui {

// The console of a session whose provider runs commands but has no interactive terminal
// (Exec without Pty): a command line whose each entry runs on its own through
// Provider::exec as `sh -c LINE`, its stdout and stderr (in another colour) streamed into
// the output and its exit status written after it. One command at a time; Cancel (or
// Ctrl+C) stops it, Up/Down walk the history. A line at the top says that this is not a
// terminal, so programs that want one (editors, pagers, prompts) are not expected to work.
class ExecConsole : public QWidget
{
    Q_OBJECT
public:
    ExecConsole(Provider *provider, const SessionInfo &session, QWidget *parent = nullptr);
    ~ExecConsole() override;

    // Runs a command line as if typed and entered (ignored while one runs).
    void run(const QString &commandLine);
    void cancel();
    bool isRunning() const { return m_job != nullptr; }
    QString outputText() const;
    QStringList history() const { return m_history; }

    QLineEdit *input() const { return m_input; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPlainTextEdit *output() const { return m_output; }

Q_SIGNALS:
    // A command ended: its exit code, or -1 when it failed to run or was cancelled.
    void commandFinished(int exitCode);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    enum class Kind { Command, Stdout, Stderr, Status, Error };
    void append(const QString &text, Kind kind);
    void onFinished(const Result<int> &result);
    void historyStep(int delta);
    void updateButtons();

    QPointer<Provider> m_provider;
    SessionInfo m_session;
    QLabel *m_notice;
    QPlainTextEdit *m_output;
    QLineEdit *m_input;
    QPushButton *m_run;
    QPushButton *m_cancel;
    std::unique_ptr<ExecJob> m_job;
    QStringDecoder m_stdoutDecoder{QStringDecoder::Utf8};
    QStringDecoder m_stderrDecoder{QStringDecoder::Utf8};
    bool m_atLineStart = true;
    QStringList m_history;
    int m_historyPos = 0; // m_history.size(): the line being edited
    QString m_editedLine; // kept while walking the history
};

} // namespace sandbar::ui
