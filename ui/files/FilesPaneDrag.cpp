// FilesPane's transfers in and out: finished items (refresh, drag copies), dragging rows out
// to the desktop and drops from it.
//
// Drag out downloads first, then drags: a drop target (a file manager, an editor) reads the
// files the moment it gets the URLs, so a URL of a file still arriving would hand it a
// partial copy. The lazy alternative (QMimeData::retrieveData fetching on drop) would have to
// block the UI thread for the whole download. So the first drag of a selection starts the
// downloads into the pane's QTemporaryDir; when they are there and the button is still held
// the drag starts, else the copies are kept and the next drag is immediate. This works the
// same offscreen (tests drive prepareDrag and read dragReady's URLs) and on real desktops.
#include "files/FilesModel.h"
#include "files/FilesPane.h"
#include "files/RemotePaths.h"

#include <QDir>
#include <QDrag>
#include <QDragEnterEvent>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMimeData>
#include <QStyle>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>

namespace sandbar::ui {

void FilesPane::onItemFinished(int id)
{
    const auto item = m_queue->item(id);
    if (!item)
        return;
    if (item->direction == TransferQueue::Direction::Upload && item->state != TransferQueue::State::Skipped &&
        cleanRemote(item->destination) == m_currentDir && canList())
        m_refreshTimer->start();
    if (!m_dragJobs.contains(id))
        return;
    const QString remote = m_dragJobs.take(id);
    if (item->state == TransferQueue::State::Done)
        m_dragCopies.insert(remote, item->target);
    else
        showNotice(tr("Could not prepare %1 for dragging: %2").arg(remote, item->error));
    const bool waiting = std::any_of(m_dragWanted.begin(), m_dragWanted.end(),
                                     [this](const QString &p) { return !m_dragCopies.contains(p); });
    if (waiting || !m_dragJobs.isEmpty() || m_dragWanted.isEmpty())
        return;
    QList<QUrl> urls;
    for (const QString &p : std::as_const(m_dragWanted))
        urls << QUrl::fromLocalFile(m_dragCopies.value(p));
    Q_EMIT dragReady(urls);
    // Still holding the button: the drag that asked for these starts now.
    if (QGuiApplication::mouseButtons() & Qt::LeftButton)
        startDragOut();
    else
        showNotice(tr("Ready to drag: drag the selection again to drop it."));
}

void FilesPane::prepareDrag(const QStringList &remotePaths)
{
    if (!m_dragDir) {
        m_dragDir = std::make_unique<QTemporaryDir>();
        if (!m_dragDir->isValid())
            return showNotice(tr("No temporary folder for dragging: %1").arg(m_dragDir->errorString()));
    }
    m_dragWanted = remotePaths;
    QList<QUrl> urls;
    for (const QString &p : remotePaths) {
        if (m_dragCopies.contains(p) && QFileInfo::exists(m_dragCopies.value(p))) {
            urls << QUrl::fromLocalFile(m_dragCopies.value(p));
            continue;
        }
        if (std::find(m_dragJobs.cbegin(), m_dragJobs.cend(), p) != m_dragJobs.cend())
            continue;
        // A folder of its own per item: two items of one name from different folders.
        const QString dir = m_dragDir->filePath(QString::number(++m_dragSerial));
        QDir().mkpath(dir);
        const QString local = dir + QLatin1Char('/') + p.section(QLatin1Char('/'), -1);
        m_dragJobs.insert(m_queue->enqueueDownload(p, local), p);
    }
    if (urls.size() == remotePaths.size())
        Q_EMIT dragReady(urls);
}

void FilesPane::startDragOut()
{
    const QStringList paths = selectedPaths();
    if (paths.isEmpty() || !canUpload())
        return;
    QList<QUrl> urls;
    for (const QString &p : paths) {
        const QString local = m_dragCopies.value(p);
        if (local.isEmpty() || !QFileInfo::exists(local)) {
            m_dragCopies.remove(p);
            // Not here yet: fetch them first (a drop target reads the files at once, so a URL
            // of a file still arriving would hand it a partial copy).
            showNotice(tr("Preparing %n item(s) for dragging…", nullptr, int(paths.size())));
            return prepareDrag(paths);
        }
        urls << QUrl::fromLocalFile(local);
    }
    m_dragWanted.clear();
    auto *mime = new QMimeData;
    mime->setUrls(urls);
    auto *drag = new QDrag(this);
    drag->setMimeData(mime);
    drag->setPixmap(style()->standardIcon(QStyle::SP_FileIcon).pixmap(32, 32));
    // Qt's drag runs the platform's drag loop until the drop; nothing else does.
    drag->exec(Qt::CopyAction, Qt::CopyAction);
}

QStringList FilesPane::localPathsOf(const QMimeData *mime)
{
    QStringList out;
    if (!mime || !mime->hasUrls())
        return out;
    for (const QUrl &u : mime->urls()) {
        if (u.isLocalFile() && !u.toLocalFile().isEmpty())
            out << u.toLocalFile();
    }
    return out;
}

QString FilesPane::dropTarget(const QPoint &pos) const
{
    if (canList() && m_view->isVisible()) {
        const QPoint at = m_view->viewport()->mapFrom(this, pos);
        const QModelIndex i = m_view->indexAt(at);
        if (i.isValid() && i.data(FilesModel::IsDirRole).toBool())
            return joinRemote(m_currentDir, i.data(FilesModel::EntryNameRole).toString());
    }
    return m_currentDir;
}

void FilesPane::dragEnterEvent(QDragEnterEvent *event)
{
    // Our own rows dragged back in are not uploads.
    if (event->source() == m_view || !canUpload() || localPathsOf(event->mimeData()).isEmpty())
        return event->ignore();
    event->acceptProposedAction();
}

void FilesPane::dragMoveEvent(QDragMoveEvent *event)
{
    if (event->source() == m_view || !canUpload() || localPathsOf(event->mimeData()).isEmpty())
        return event->ignore();
    event->acceptProposedAction();
}

void FilesPane::dropEvent(QDropEvent *event)
{
    const QStringList paths = localPathsOf(event->mimeData());
    if (paths.isEmpty() || !canUpload())
        return event->ignore();
    event->acceptProposedAction();
    uploadLocalPaths(paths, dropTarget(event->position().toPoint()));
}

} // namespace sandbar::ui
