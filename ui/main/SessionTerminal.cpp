#include "main/SessionTerminal.h"

#include "terminal/PtyChannel.h"
#include "terminal/TerminalFindBar.h"
#include "terminal/TerminalScreen.h"
#include "terminal/TerminalView.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {
const QString kUploadDir = QStringLiteral("/workspace");
}

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
    setFocusProxy(m_view);

    connect(m_view, &TerminalView::reconnectRequested, this, &SessionTerminal::connectChannel);
    connect(m_view, &TerminalView::filesDropped, this, &SessionTerminal::uploadFiles);
    connect(m_screen, &TerminalScreen::titleChanged, this, &SessionTerminal::titleChanged);
    connectChannel();
}

SessionTerminal::~SessionTerminal()
{
    if (m_channel)
        m_channel->close();
}

void SessionTerminal::connectChannel()
{
    if (!m_provider)
        return;
    PtyOptions opts;
    opts.cols = m_screen->cols();
    opts.rows = m_screen->rows();
    opts.env << QStringLiteral("TERM=xterm-256color");
    opts.attachId = m_attachId;
    auto channel = m_provider->openPty(m_session.id, opts);
    // A kept terminal is reattached (its replay restores the screen); remember the id of a
    // new one so that Reconnect returns to the same shell.
    connect(channel.get(), &PtyChannel::started, this, [this, ch = channel.get()]() {
        const QString id = ch->property("attachId").toString();
        if (!id.isEmpty())
            m_attachId = id;
    });

    m_view->setChannel(channel.get());
    channel->start();
    m_channel = std::move(channel); // the old channel (if any) goes only after the new one is attached
}

void SessionTerminal::uploadFiles(const QStringList &paths)
{
    if (!m_provider || !m_provider->capabilities().testFlag(Capability::Files))
        return;
    m_uploadQueue += paths;
    if (!m_upload)
        uploadNext();
}

void SessionTerminal::uploadNext()
{
    if (m_uploadQueue.isEmpty() || !m_provider) {
        m_upload.reset();
        m_uploadBar->hide();
        return;
    }
    const QString path = m_uploadQueue.takeFirst();
    const QString name = QFileInfo(path).fileName();
    m_uploadBar->show();
    m_uploadLabel->setText(tr("Uploading %1 to %2…").arg(name, kUploadDir));
    m_uploadProgress->setRange(0, 0);
    m_upload = m_provider->upload(m_session.id, path, kUploadDir);
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
