#include "detail/ExecConsole.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextCursor>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {
constexpr int kMaxBlocks = 20000; // lines kept in the output
constexpr int kMaxHistory = 500;

// Programs see no terminal (TERM=dumb) and seldom colour their output; what colour or
// cursor sequences still come are dropped rather than shown as garbage.
QString plain(QString text)
{
    static const QRegularExpression csi(QStringLiteral("\x1b\\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\r(?!\n)"));
    text.remove(csi);
    text.remove(QLatin1Char('\r'));
    return text;
}
} // namespace

ExecConsole::ExecConsole(Provider *provider, const SessionInfo &session, QWidget *parent)
    : QWidget(parent)
    , m_provider(provider)
    , m_session(session)
    , m_notice(new QLabel(this))
    , m_output(new QPlainTextEdit(this))
    , m_input(new QLineEdit(this))
    , m_run(new QPushButton(tr("Run"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
{
    m_notice->setObjectName(QStringLiteral("execConsoleNotice"));
    m_notice->setWordWrap(true);
    m_notice->setText(tr("This session's provider has no interactive terminal. Each line runs on its own as "
                         "<tt>sh -c LINE</tt>, without a TTY: programs that need a terminal (editors, pagers, "
                         "password prompts) will not work, and nothing is kept between lines (cd, variables)."));
    m_notice->setFrameShape(QFrame::StyledPanel);
    m_notice->setMargin(6);
    m_notice->setAutoFillBackground(true);
    QPalette np = m_notice->palette();
    np.setColor(QPalette::Window, np.color(QPalette::ToolTipBase));
    np.setColor(QPalette::WindowText, np.color(QPalette::ToolTipText));
    m_notice->setPalette(np);

    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_output->setObjectName(QStringLiteral("execConsoleOutput"));
    m_output->setAccessibleName(tr("Command output"));
    m_output->setReadOnly(true);
    m_output->setFont(mono);
    m_output->setMaximumBlockCount(kMaxBlocks);
    m_output->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_output->setFocusPolicy(Qt::ClickFocus);

    m_input->setObjectName(QStringLiteral("execConsoleInput"));
    m_input->setAccessibleName(tr("Command"));
    m_input->setFont(mono);
    m_input->setPlaceholderText(
        tr("Command to run in %1").arg(session.name.isEmpty() ? session.id.left(12) : session.name));
    m_input->installEventFilter(this);
    m_cancel->setObjectName(QStringLiteral("execConsoleCancel"));
    m_cancel->setToolTip(tr("Stop the running command (Ctrl+C)"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_notice);
    layout->addWidget(m_output, 1);
    auto *line = new QHBoxLayout;
    line->setContentsMargins(6, 4, 6, 4);
    auto *prompt = new QLabel(QStringLiteral("$"), this);
    prompt->setFont(mono);
    line->addWidget(prompt);
    line->addWidget(m_input, 1);
    line->addWidget(m_run);
    line->addWidget(m_cancel);
    layout->addLayout(line);
    setFocusProxy(m_input);
    setWindowTitle(session.name.isEmpty() ? session.id.left(12) : session.name);

    connect(m_input, &QLineEdit::returnPressed, this, [this]() { run(m_input->text()); });
    connect(m_run, &QPushButton::clicked, this, [this]() { run(m_input->text()); });
    connect(m_cancel, &QPushButton::clicked, this, &ExecConsole::cancel);
    updateButtons();
}

ExecConsole::~ExecConsole()
{
    if (m_job) {
        ExecJob *job = m_job.release();
        job->disconnect(this);
        job->cancel();
        job->deleteLater();
    }
}

QString ExecConsole::outputText() const
{
    return m_output->toPlainText();
}

void ExecConsole::run(const QString &commandLine)
{
    const QString command = commandLine.trimmed();
    if (m_job || command.isEmpty())
        return;
    if (m_history.isEmpty() || m_history.constLast() != command)
        m_history << command;
    while (m_history.size() > kMaxHistory)
        m_history.removeFirst();
    m_historyPos = int(m_history.size());
    m_editedLine.clear();
    m_input->clear();

    if (!m_atLineStart)
        append(QStringLiteral("\n"), Kind::Stdout);
    append(QStringLiteral("$ ") + command + QLatin1Char('\n'), Kind::Command);
    if (!m_provider) {
        append(tr("The session's account is gone; nothing was run.") + QLatin1Char('\n'), Kind::Error);
        Q_EMIT commandFinished(-1);
        return;
    }
    if (!m_provider->commands()) {
        append(unsupportedError(m_provider->descriptor(), Capability::Exec).message + QLatin1Char('\n'), Kind::Error);
        Q_EMIT commandFinished(-1);
        return;
    }

    ExecRequest request;
    request.argv = {QStringLiteral("sh"), QStringLiteral("-c"), command};
    request.env << QStringLiteral("TERM=dumb");
    m_stdoutDecoder.resetState();
    m_stderrDecoder.resetState();
    m_job = m_provider->commands()->exec(m_session.id, request);
    connect(m_job.get(), &ExecJob::stdoutData, this,
            [this](const QByteArray &bytes) { append(plain(m_stdoutDecoder.decode(bytes)), Kind::Stdout); });
    connect(m_job.get(), &ExecJob::stderrData, this,
            [this](const QByteArray &bytes) { append(plain(m_stderrDecoder.decode(bytes)), Kind::Stderr); });
    connect(m_job.get(), &ExecJob::finished, this, &ExecConsole::onFinished);
    updateButtons();
    m_job->start();
}

void ExecConsole::cancel()
{
    if (!m_job)
        return;
    m_job->cancel();
    // A provider answers a cancel with finished(Cancelled), at once or later; one that does
    // not must still not leave the console waiting.
    if (m_job)
        onFinished(Result<int>(makeError(ErrorCode::Cancelled, tr("The command was cancelled."))));
}

void ExecConsole::onFinished(const Result<int> &result)
{
    if (!m_job)
        return;
    // The job may be emitting this signal: it goes after it returns.
    ExecJob *job = m_job.release();
    job->disconnect(this);
    job->deleteLater();

    if (!m_atLineStart)
        append(QStringLiteral("\n"), Kind::Stdout);
    int code = -1;
    if (result.ok()) {
        code = result.value();
        append(tr("[exit %1]").arg(code) + QLatin1Char('\n'), code == 0 ? Kind::Status : Kind::Error);
    } else if (result.error().code == ErrorCode::Cancelled) {
        append(tr("[cancelled]") + QLatin1Char('\n'), Kind::Error);
    } else {
        append(tr("[failed: %1]").arg(result.message()) + QLatin1Char('\n'), Kind::Error);
    }
    updateButtons();
    Q_EMIT commandFinished(code);
}

void ExecConsole::append(const QString &text, Kind kind)
{
    if (text.isEmpty())
        return;
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    QTextCharFormat fmt;
    switch (kind) {
    case Kind::Stdout: break;
    case Kind::Stderr: fmt.setForeground(dark ? QColor(0xff, 0x7b, 0x72) : QColor(0xb4, 0x23, 0x18)); break;
    case Kind::Command: fmt.setFontWeight(QFont::Bold); break;
    case Kind::Status:
        fmt.setForeground(dark ? QColor(0x7e, 0xe7, 0x87) : QColor(0x1a, 0x7f, 0x37));
        fmt.setFontItalic(true);
        break;
    case Kind::Error:
        fmt.setForeground(dark ? QColor(0xff, 0xa6, 0x57) : QColor(0xbc, 0x4c, 0x00));
        fmt.setFontItalic(true);
        break;
    }
    QScrollBar *bar = m_output->verticalScrollBar();
    const bool follow = bar->value() == bar->maximum();
    QTextCursor cursor(m_output->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text, fmt);
    m_atLineStart = text.endsWith(QLatin1Char('\n'));
    if (follow)
        bar->setValue(bar->maximum());
}

bool ExecConsole::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_input && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Up) {
            historyStep(-1);
            return true;
        }
        if (key->key() == Qt::Key_Down) {
            historyStep(1);
            return true;
        }
        // Ctrl+C stops a running command unless there is text selected to copy.
        if (key->matches(QKeySequence::Copy) && m_job && !m_input->hasSelectedText()) {
            cancel();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ExecConsole::historyStep(int delta)
{
    const int next = qBound(0, m_historyPos + delta, int(m_history.size()));
    if (next == m_historyPos)
        return;
    if (m_historyPos == m_history.size())
        m_editedLine = m_input->text();
    m_historyPos = next;
    m_input->setText(next == m_history.size() ? m_editedLine : m_history.at(next));
}

void ExecConsole::updateButtons()
{
    m_run->setEnabled(!m_job);
    m_cancel->setEnabled(m_job != nullptr);
}

} // namespace sandbar::ui
