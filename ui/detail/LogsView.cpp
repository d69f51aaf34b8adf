#include "detail/LogsView.h"

#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QToolButton>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {
int slot(int stream)
{
    return stream == 1 || stream == 2 ? stream : 0;
}
} // namespace

LogsView::LogsView(Provider *provider, const SessionInfo &session, QWidget *parent)
    : QWidget(parent)
    , m_provider(provider)
    , m_session(session)
{
    setObjectName(QStringLiteral("logsView"));
    setAccessibleName(tr("Log of %1").arg(session.name.isEmpty() ? session.id : session.name));
    for (auto &d : m_decoders)
        d = QStringDecoder(QStringDecoder::Utf8);

    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("logFilter"));
    m_filter->setPlaceholderText(tr("Filter lines"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Filter log lines"));
    m_follow = new QToolButton(this);
    m_follow->setObjectName(QStringLiteral("followButton"));
    m_follow->setText(tr("Follow"));
    m_follow->setCheckable(true);
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Keep the newest line in view"));
    m_follow->setAccessibleName(tr("Follow the log"));
    m_timestamps = new QToolButton(this);
    m_timestamps->setObjectName(QStringLiteral("timestampsButton"));
    m_timestamps->setText(tr("Timestamps"));
    m_timestamps->setCheckable(true);
    m_timestamps->setToolTip(tr("Show when each line was written (reloads the log)"));
    m_timestamps->setAccessibleName(tr("Show timestamps"));
    m_clear = new QPushButton(tr("Clear"), this);
    m_clear->setObjectName(QStringLiteral("clearButton"));
    m_clear->setAccessibleName(tr("Clear the log view"));
    m_save = new QPushButton(tr("Save…"), this);
    m_save->setObjectName(QStringLiteral("saveButton"));
    m_save->setAccessibleName(tr("Save the log to a file"));

    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("logText"));
    m_text->setReadOnly(true);
    m_text->setMaximumBlockCount(kMaxLines);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setAccessibleName(tr("Session log"));
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("logStatus"));
    m_status->setAccessibleName(tr("Log status"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_follow);
    bar->addWidget(m_timestamps);
    bar->addWidget(m_clear);
    bar->addWidget(m_save);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_status);

    m_partialTimer.setSingleShot(true);
    m_partialTimer.setInterval(std::chrono::milliseconds(300));
    connect(&m_partialTimer, &QTimer::timeout, this, &LogsView::flushPartials);
    m_reconnect.setSingleShot(true);
    connect(&m_reconnect, &QTimer::timeout, this, [this] {
        m_status->setText(tr("Reconnecting…"));
        addLines({Line{tr("— reconnected; lines written while disconnected may be missing —"), -1}});
        startStream(0);
    });
    connect(m_filter, &QLineEdit::textChanged, this, &LogsView::rebuild);
    connect(m_follow, &QToolButton::toggled, this, [this](bool on) {
        if (on)
            m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
    });
    connect(m_timestamps, &QToolButton::toggled, this, [this] {
        clearAll();
        startStream(kInitialTail);
    });
    connect(m_clear, &QPushButton::clicked, this, &LogsView::clearAll);
    connect(m_save, &QPushButton::clicked, this, &LogsView::save);

    if (!m_provider || !m_provider->capabilities().testFlag(Capability::Logs)) {
        m_status->setText(tr("This provider does not keep a log for its sessions."));
        m_filter->setEnabled(false);
        m_timestamps->setEnabled(false);
        return;
    }
    startStream(kInitialTail);
}

LogsView::~LogsView()
{
    if (m_stream) {
        m_stream->disconnect(this);
        m_stream->stop();
    }
}

void LogsView::setSessionState(SessionState state)
{
    const bool wasRunning = m_session.state == SessionState::Running;
    m_session.state = state;
    if (state != SessionState::Running)
        m_reconnect.stop();
    else if (!wasRunning && !m_stream && m_provider)
        startStream(0); // it runs again (resumed, restarted): follow what it writes now
}

void LogsView::setReconnectBackoff(std::chrono::milliseconds first, std::chrono::milliseconds max)
{
    m_backoffFirst = m_backoff = first;
    m_backoffMax = max;
}

void LogsView::setPartialLineDelay(std::chrono::milliseconds delay)
{
    m_partialTimer.setInterval(delay);
}

QColor LogsView::stderrColor()
{
    return QColor(0xc6, 0x28, 0x28);
}

QString LogsView::cleanLine(QString line)
{
    // CSI (colours, cursor), OSC (titles, links) and lone two-byte escapes.
    static const QRegularExpression ansi(
        QStringLiteral("\\x1b\\[[0-?]*[ -/]*[@-~]|\\x1b\\][^\\x07\\x1b]*(\\x07|\\x1b\\\\)?|\\x1b[@-Z\\\\-_]"));
    line.remove(ansi);
    while (line.endsWith(QLatin1Char('\r')))
        line.chop(1);
    // A progress bar redraws its line after \r: what stayed on screen is the last drawing.
    if (const auto cr = line.lastIndexOf(QLatin1Char('\r')); cr >= 0)
        line = line.mid(cr + 1);
    return line;
}

void LogsView::startStream(int tail)
{
    if (m_stream) {
        m_stream->disconnect(this);
        m_stream->stop();
        m_stream.reset();
    }
    flushPartials();
    for (auto &d : m_decoders)
        d.resetState();
    if (!m_provider)
        return;
    if (!m_provider->logReader()) {
        onFinished(unsupportedError(m_provider->descriptor(), Capability::Logs));
        return;
    }
    LogOptions options;
    options.follow = true;
    options.tail = tail;
    options.timestamps = m_timestamps->isChecked();
    m_stream = m_provider->logReader()->logs(m_session.id, options);
    connect(m_stream.get(), &LogStream::data, this, &LogsView::onData);
    connect(m_stream.get(), &LogStream::finished, this, &LogsView::onFinished);
    m_status->setText(tr("Following the log…"));
    m_stream->start();
}

void LogsView::onData(const QByteArray &bytes, int stream)
{
    const int s = slot(stream);
    m_backoff = m_backoffFirst; // it flows again
    QString &partial = m_partial[s];
    partial += m_decoders[s].decode(bytes);
    QList<Line> complete;
    qsizetype from = 0;
    for (qsizetype nl = partial.indexOf(QLatin1Char('\n')); nl >= 0; nl = partial.indexOf(QLatin1Char('\n'), from)) {
        complete << Line{cleanLine(partial.mid(from, nl - from)), stream};
        from = nl + 1;
    }
    partial.remove(0, from);
    addLines(complete);
    // A prompt or a progress line without its newline yet still shows after a moment.
    if (!partial.isEmpty())
        m_partialTimer.start();
}

void LogsView::flushPartials()
{
    m_partialTimer.stop();
    QList<Line> lines;
    for (int s = 0; s < 3; ++s) {
        if (!m_partial[s].isEmpty())
            lines << Line{cleanLine(std::exchange(m_partial[s], QString())), s};
    }
    addLines(lines);
}

void LogsView::onFinished(const VoidResult &result)
{
    flushPartials();
    if (m_stream) {
        m_stream->disconnect(this);
        m_stream.release()->deleteLater(); // we are inside its signal
    }
    if (result.ok()) {
        m_status->setText(tr("The log ended (the session stopped)."));
        return;
    }
    const bool retry = m_session.state == SessionState::Running && result.code() != ErrorCode::NotFound &&
                       result.code() != ErrorCode::Unsupported && result.code() != ErrorCode::Cancelled;
    if (!retry) {
        m_status->setText(tr("The log could not be read: %1").arg(result.message()));
        return;
    }
    m_status->setText(tr("The log stream broke (%1); reconnecting in %2 s…")
                          .arg(result.message())
                          .arg(double(m_backoff.count()) / 1000.0, 0, 'g', 2));
    m_reconnect.start(m_backoff);
    m_backoff = std::min(m_backoff * 2, m_backoffMax);
}

void LogsView::addLines(const QList<Line> &lines)
{
    if (lines.isEmpty())
        return;
    QList<Line> shown;
    for (const Line &l : lines) {
        m_lines.push_back(l);
        if (matches(l))
            shown << l;
    }
    while (m_lines.size() > size_t(kMaxLines))
        m_lines.pop_front();
    appendToView(shown);
}

bool LogsView::matches(const Line &line) const
{
    const QString f = m_filter->text();
    return f.isEmpty() || line.text.contains(f, Qt::CaseInsensitive);
}

void LogsView::appendToView(const QList<Line> &lines)
{
    if (lines.isEmpty())
        return;
    QTextCharFormat plain;
    QTextCharFormat err;
    err.setForeground(stderrColor());
    QTextCharFormat note;
    note.setForeground(palette().color(QPalette::Disabled, QPalette::Text));
    note.setFontItalic(true);
    QTextCursor c(m_text->document());
    c.movePosition(QTextCursor::End);
    c.beginEditBlock();
    for (const Line &l : lines) {
        if (m_viewHasText)
            c.insertBlock();
        m_viewHasText = true;
        c.block().setUserState(l.stream);
        c.insertText(l.text, l.stream == 2 ? err : l.stream < 0 ? note : plain);
    }
    c.endEditBlock();
    if (m_follow->isChecked())
        m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
}

void LogsView::rebuild()
{
    m_text->clear();
    m_viewHasText = false;
    QList<Line> shown;
    for (const Line &l : m_lines) {
        if (matches(l))
            shown << l;
    }
    appendToView(shown);
}

void LogsView::clearAll()
{
    m_lines.clear();
    m_text->clear();
    m_viewHasText = false;
}

QString LogsView::keptText() const
{
    QString out;
    for (const Line &l : m_lines)
        out += l.text + QLatin1Char('\n');
    return out;
}

void LogsView::save()
{
    const QString base = m_session.name.isEmpty() ? m_session.id.left(12) : m_session.name;
    auto *dlg = new QFileDialog(this, tr("Save the log"), base + QStringLiteral(".log"));
    dlg->setAcceptMode(QFileDialog::AcceptSave);
    dlg->setDefaultSuffix(QStringLiteral("log"));
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &QFileDialog::fileSelected, this, &LogsView::writeTo);
    dlg->open();
}

void LogsView::writeTo(const QString &path)
{
    QSaveFile f(path);
    const QByteArray bytes = keptText().toUtf8();
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        m_status->setText(tr("Could not save the log to %1: %2").arg(path, f.errorString()));
        return;
    }
    m_status->setText(tr("Saved %n line(s) to %1.", nullptr, int(m_lines.size())).arg(path));
}

} // namespace sandbar::ui
