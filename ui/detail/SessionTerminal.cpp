#include "detail/SessionTerminal.h"

#include "terminal/PtyChannel.h"
#include "terminal/TerminalFindBar.h"
#include "terminal/TerminalScreen.h"
#include "terminal/TerminalView.h"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QTimer>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {
// A folder (trailing "/"): a drop lands inside it under its own name (the copy rules).
const QString kUploadDir = QStringLiteral("/workspace/");
constexpr int kNoticeMs = 10000;
constexpr int kFirstRetryMs = 1000;
constexpr int kMaxRetryMs = 30000;
} // namespace

SessionTerminal::SessionTerminal(Provider *provider, const SessionInfo &session, const QString &attachId,
                                 QWidget *parent)
    : QWidget(parent)
    , m_provider(provider)
    , m_session(session)
    , m_attachId(attachId)
    , m_screen(new TerminalScreen(80, 24, this))
    , m_view(new TerminalView(m_screen, this))
    , m_uploadBar(new QWidget(this))
    , m_uploadLabel(new QLabel(m_uploadBar))
    , m_uploadProgress(new QProgressBar(m_uploadBar))
    , m_noticeTimer(new QTimer(this))
    , m_retry(new QTimer(this))
    , m_retryMs(kFirstRetryMs)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_view, 1);
    layout->addWidget(new TerminalFindBar(m_view, this));
    auto *bar = new QHBoxLayout(m_uploadBar);
    bar->setContentsMargins(6, 2, 6, 2);
    bar->addWidget(m_uploadLabel, 1);
    bar->addWidget(m_uploadProgress);
    layout->addWidget(m_uploadBar);
    m_uploadBar->hide();
    m_uploadLabel->setObjectName(QStringLiteral("terminalNotice"));
    m_uploadLabel->setWordWrap(true);
    m_noticeTimer->setSingleShot(true);
    m_noticeTimer->setInterval(kNoticeMs);
    connect(m_noticeTimer, &QTimer::timeout, this, [this]() {
        if (!m_upload)
            m_uploadBar->hide();
    });
    m_retry->setSingleShot(true);
    connect(m_retry, &QTimer::timeout, this, [this] { connectChannel(); });
    setFocusProxy(m_view);
    m_view->setColors(terminalColorsFor(m_settings.scheme, palette()));
    updateTitle();

    connect(m_view, &TerminalView::reconnectRequested, this, &SessionTerminal::onBannerAction);
    connect(m_view, &TerminalView::filesDropped, this, &SessionTerminal::uploadFiles);
    connect(m_screen, &TerminalScreen::titleChanged, this, [this](const QString &title) {
        m_programTitle = title.trimmed();
        updateTitle();
    });
    connectChannel();
}

SessionTerminal::~SessionTerminal()
{
    // Closing ends the program, and what it reports then must not reach a view that is
    // going away with this widget (the banner would be made during the parent's teardown).
    if (m_channel) {
        m_view->setChannel(nullptr);
        m_channel->disconnect(this);
        m_channel->close();
    }
}

void SessionTerminal::setSettings(const TerminalSettings &settings)
{
    m_settings = settings;
    applyTerminalSettings(m_view, m_settings, this);
}

QString SessionTerminal::noticeText() const
{
    return m_uploadLabel->text();
}

bool SessionTerminal::isNoticeVisible() const
{
    return !m_uploadBar->isHidden();
}

void SessionTerminal::changeEvent(QEvent *e)
{
    QWidget::changeEvent(e);
    // Light or dark follows the desktop when it switches while the tab is open.
    if (e->type() == QEvent::PaletteChange && m_settings.scheme == TerminalSettings::Scheme::FollowPalette)
        m_view->setColors(terminalColorsFor(m_settings.scheme, palette()));
}

void SessionTerminal::setSessionState(const SessionInfo &session)
{
    const SessionState was = m_session.state;
    m_session = session;
    if (session.state == was)
        return;
    if (session.state != SessionState::Running)
        m_retry->stop();
    const bool canResume = m_provider && m_provider->capabilities().testFlag(Capability::PauseResume);
    switch (session.state) {
    case SessionState::Paused:
        m_view->showEndState(tr("The session is paused: it keeps its memory but runs nothing."),
                             canResume ? tr("Resume") : QString());
        break;
    case SessionState::Stopped:
    case SessionState::Error:
        m_view->showEndState(tr("The session is stopped. What the terminal showed stays here."), QString());
        break;
    case SessionState::Running:
        // Back from a pause the shell is still there; after a stop it needs a new one.
        if (was == SessionState::Paused && m_channel)
            m_view->setChannel(m_channel.get());
        else if (m_view->isDisconnected())
            m_view->showEndState(tr("The session is running again."), tr("Open a new shell"));
        break;
    default: break;
    }
}

void SessionTerminal::setSessionRemoved()
{
    m_session.state = SessionState::Unknown;
    m_view->showEndState(tr("The session was removed. What the terminal showed stays here."), QString());
}

QString SessionTerminal::endStateText() const
{
    return m_view->bannerMessage();
}

void SessionTerminal::onBannerAction()
{
    m_retry->stop();
    if (m_session.state != SessionState::Paused || !m_provider || !m_provider->pausing()) {
        connectChannel();
        return;
    }
    m_provider->pausing()->resume(m_session.id, Callback<void>(this, [this](const VoidResult &r) {
                                      if (!r.ok())
                                          return m_view->showEndState(tr("Resuming failed: %1").arg(r.error().message),
                                                                      tr("Resume"));
                                      m_session.state = SessionState::Running;
                                      if (m_channel)
                                          m_view->setChannel(m_channel.get());
                                      else
                                          connectChannel();
                                  }));
}

void SessionTerminal::updateTitle()
{
    const QString fallback = m_session.name.isEmpty() ? m_session.id.left(12) : m_session.name;
    const QString title = m_programTitle.isEmpty() ? fallback : m_programTitle;
    if (title == windowTitle())
        return;
    setWindowTitle(title);
    Q_EMIT titleChanged(title);
}

void SessionTerminal::showNotice(const QString &text)
{
    m_uploadLabel->setText(text);
    m_uploadProgress->hide();
    m_uploadBar->show();
    m_noticeTimer->start();
}

void SessionTerminal::connectChannel()
{
    if (!m_provider || !m_provider->terminals())
        return;
    PtyOptions opts;
    opts.cols = m_screen->cols();
    opts.rows = m_screen->rows();
    opts.env << QStringLiteral("TERM=xterm-256color");
    opts.attachId = m_attachId;
    auto channel = m_provider->terminals()->openPty(m_session.id, opts);
    // A kept terminal is reattached (its replay restores the screen); remember the id of a
    // new one so that Reconnect returns to the same shell.
    connect(channel.get(), &PtyChannel::started, this, [this, ch = channel.get()]() {
        const QString id = ch->property("attachId").toString();
        if (!id.isEmpty())
            m_attachId = id;
        if (m_reconnecting)
            markReconnected();
    });

    m_view->setChannel(channel.get());
    // After the view's own handler, whose banner this one then words.
    connect(channel.get(), &PtyChannel::errorOccurred, this, [this](const Error &e) { scheduleReconnect(e.message); });
    channel->start();
    m_channel = std::move(channel); // the old channel (if any) goes only after the new one is attached
}

void SessionTerminal::scheduleReconnect(const QString &why)
{
    if (m_session.state != SessionState::Running)
        return; // the banner says what the session's state allows
    m_reconnecting = true;
    const int seconds = (m_retryMs + 999) / 1000;
    m_view->showEndState(
        tr("The connection to the session was lost (%1). Reconnecting in %n s…", nullptr, seconds).arg(why),
        tr("Reconnect now"));
    m_retry->start(m_retryMs);
    m_retryMs = std::min(m_retryMs * 2, kMaxRetryMs);
}

void SessionTerminal::markReconnected()
{
    m_reconnecting = false;
    m_retryMs = kFirstRetryMs;
    // Nothing replays what the program wrote meanwhile unless the provider kept the terminal.
    const QString line = m_attachId.isEmpty()
                             ? tr("reconnected: a new shell; what the old one wrote while disconnected is lost")
                             : tr("reconnected; what was written while disconnected may be missing");
    m_screen->feed("\r\n\x1b[7m " + line.toUtf8() + " \x1b[0m\r\n");
}

void SessionTerminal::uploadFiles(const QStringList &paths)
{
    if (paths.isEmpty())
        return;
    if (!m_provider || !m_provider->capabilities().testFlag(Capability::Files)) {
        // Never silent: say why nothing happens. An upload in progress keeps its line.
        if (!m_upload)
            showNotice(tr("This session's provider cannot receive files (no file access): "
                          "%n dropped item(s) not uploaded.",
                          nullptr, int(paths.size())));
        return;
    }
    m_uploadQueue += paths;
    if (!m_upload)
        uploadNext();
}

void SessionTerminal::uploadNext()
{
    if (m_uploadQueue.isEmpty() || !m_provider || !m_provider->files()) {
        m_upload.reset();
        m_uploadBar->hide();
        return;
    }
    const QString path = m_uploadQueue.takeFirst();
    const QString name = QFileInfo(path).fileName();
    m_noticeTimer->stop();
    m_uploadBar->show();
    m_uploadProgress->show();
    m_uploadLabel->setText(tr("Uploading %1 to %2…").arg(name, kUploadDir));
    m_uploadProgress->setRange(0, 0);
    m_upload = m_provider->files()->upload(m_session.id, path, kUploadDir);
    connect(m_upload.get(), &TransferJob::progress, this, [this](qint64 done, qint64 total) {
        if (total > 0) {
            m_uploadProgress->setRange(0, 1000);
            m_uploadProgress->setValue(int(done * 1000 / total));
        }
    });
    connect(m_upload.get(), &TransferJob::finished, this, [this, name](const VoidResult &r) {
        if (!r.ok()) {
            m_uploadLabel->setText(tr("Upload of %1 failed: %2").arg(name, r.message()));
            m_uploadQueue.clear();
            m_upload.release()->deleteLater();
            return;
        }
        m_upload.release()->deleteLater();
        uploadNext();
    });
    m_upload->start();
}

} // namespace sandbar::ui
