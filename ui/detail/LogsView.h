#pragma once

// The Logs tab: a session's log (Provider::logs), followed live. Lines are kept (the last
// kMaxLines) so that the filter can show a subset and Save… writes them all; stderr is drawn
// in its own colour; a stream that breaks while the session runs is reopened with back-off.

#include "providers/Provider.h"

#include <QPointer>
#include <QStringDecoder>
#include <QTimer>
#include <QWidget>
#include <chrono>
#include <deque>
#include <memory>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QToolButton;

namespace sandbar::ui {

class LogsView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMaxLines = 10000;
    static constexpr int kInitialTail = 1000;

    LogsView(Provider *provider, const SessionInfo &session, QWidget *parent = nullptr);
    ~LogsView() override;

    // A stream that ends with an error is reopened only while the session runs.
    void setSessionState(SessionState state);
    // Tests shorten the reconnect back-off and the wait before an unfinished line is shown.
    void setReconnectBackoff(std::chrono::milliseconds first, std::chrono::milliseconds max);
    void setPartialLineDelay(std::chrono::milliseconds delay);

    // Every kept line (not only those the filter shows), newline-terminated.
    QString keptText() const;
    int keptLines() const { return int(m_lines.size()); }
    static QColor stderrColor();
    // Colour codes and cursor movement out, a carriage return's overwrite applied.
    static QString cleanLine(QString line);

private:
    struct Line {
        QString text;
        int stream = 1; // 0 combined, 1 stdout, 2 stderr, -1 a note of ours
    };
    void startStream(int tail);
    void onData(const QByteArray &bytes, int stream);
    void onFinished(const VoidResult &result);
    void flushPartials();
    void addLines(const QList<Line> &lines);
    void appendToView(const QList<Line> &lines);
    bool matches(const Line &line) const;
    void rebuild();
    void clearAll();
    void save();
    void writeTo(const QString &path);

    QPointer<Provider> m_provider;
    SessionInfo m_session;
    std::unique_ptr<LogStream> m_stream;
    QPlainTextEdit *m_text = nullptr;
    QLineEdit *m_filter = nullptr;
    QToolButton *m_follow = nullptr;
    QToolButton *m_timestamps = nullptr;
    QPushButton *m_clear = nullptr;
    QPushButton *m_save = nullptr;
    QLabel *m_status = nullptr;
    std::deque<Line> m_lines;
    QStringDecoder m_decoders[3];
    QString m_partial[3];
    QTimer m_partialTimer;
    QTimer m_reconnect;
    std::chrono::milliseconds m_backoffFirst{1000}, m_backoffMax{30000}, m_backoff{1000};
    bool m_viewHasText = false;
};

} // namespace sandbar::ui
