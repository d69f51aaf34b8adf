#include "files/FilesPane.h"

#include "files/ConflictDialog.h"
#include "files/FilesModel.h"
#include "files/PathBar.h"
#include "files/RemotePaths.h"
#include "files/TransferPanel.h"

#include <QAction>
#include <QDir>
#include <QDrag>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <memory>

namespace sandbar::ui {

namespace {
// Where a provider without listing puts drops, as the terminal does.
const QString kWorkDir = QStringLiteral("/workspace");
} // namespace

// Dragging rows out: the copies are made first (the pane's temporary folder), then the drag
// starts (see FilesPane::startDragOut).
class FilesView : public QTreeView
{
public:
    explicit FilesView(FilesPane *pane)
        : QTreeView(pane)
        , m_pane(pane)
    {
    }

protected:
    void startDrag(Qt::DropActions) override { m_pane->startDragOut(); }

private:
    FilesPane *m_pane;
};

FilesPane::FilesPane(Provider *provider, const SessionInfo &session, QWidget *parent)
    : QWidget(parent)
    , m_provider(provider)
    , m_session(session)
    , m_queue(new TransferQueue(provider, session.id, this))
    , m_pathBar(new PathBar(this))
    , m_view(new FilesView(this))
    , m_model(new FilesModel(this))
    , m_proxy(new FilesSortModel(this))
    , m_notice(new QLabel(this))
    , m_newFolderBar(new QWidget(this))
    , m_newFolderName(new QLineEdit(m_newFolderBar))
    , m_panel(new TransferPanel(m_queue, this))
    , m_refreshTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("filesPane"));
    setAccessibleName(tr("Files"));
    setAcceptDrops(true);

    createActions();
    connectActions();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    buildToolbar(layout);
    buildNewFolderBar(layout);
    buildNotice(layout);
    buildView(layout);
    connectSources(provider);

    m_currentDir = kWorkDir;
    m_pathBar->setPath(m_currentDir);
    updateAvailability();
    if (canList())
        refresh();
}

FilesPane::~FilesPane() = default;

void FilesPane::createActions()
{
    const auto makeAction = [this](const QString &text, QStyle::StandardPixmap icon, const QString &tip) {
        auto *a = new QAction(style()->standardIcon(icon), text, this);
        a->setToolTip(tip);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
        return a;
    };
    m_back = makeAction(tr("Back"), QStyle::SP_ArrowBack, tr("Back to the previous folder"));
    m_back->setShortcut(QKeySequence::Back);
    m_up = makeAction(tr("Up"), QStyle::SP_FileDialogToParent, tr("The folder above"));
    m_up->setShortcut(QKeySequence(Qt::Key_Backspace));
    // No F5 of its own: the window's Refresh (F5) lists this folder again when it is shown.
    m_refresh = makeAction(tr("Refresh"), QStyle::SP_BrowserReload, tr("List this folder again"));
    m_upload = makeAction(tr("Upload files…"), QStyle::SP_ArrowUp, tr("Upload files into this folder"));
    m_download = makeAction(tr("Download…"), QStyle::SP_DialogSaveButton, tr("Save the selection on this computer"));
    m_newFolder = makeAction(tr("New folder"), QStyle::SP_FileDialogNewFolder, tr("Make a folder here"));
    m_delete = makeAction(tr("Delete"), QStyle::SP_TrashIcon, tr("Delete the selection"));
    m_delete->setShortcut(QKeySequence::Delete);
    m_rename = makeAction(tr("Rename…"), QStyle::SP_FileDialogDetailedView, tr("Give the selected item a new name"));
    m_rename->setShortcut(QKeySequence(Qt::Key_F2));
    m_rename->setObjectName(QStringLiteral("filesRename"));
    m_permissions =
        makeAction(tr("Permissions…"), QStyle::SP_FileDialogInfoView, tr("Change who may read, write or run it"));
    m_permissions->setObjectName(QStringLiteral("filesPermissions"));
}

void FilesPane::connectActions()
{
    connect(m_back, &QAction::triggered, this, [this]() {
        if (!m_history.isEmpty())
            goTo(m_history.takeLast(), false);
    });
    connect(m_up, &QAction::triggered, this, [this]() {
        if (m_currentDir != QLatin1String("/"))
            goTo(cleanRemote(m_currentDir + QStringLiteral("/..")), true);
    });
    connect(m_refresh, &QAction::triggered, this, &FilesPane::refresh);
    connect(m_upload, &QAction::triggered, this, &FilesPane::chooseUploads);
    connect(m_download, &QAction::triggered, this, &FilesPane::saveAs);
    connect(m_newFolder, &QAction::triggered, this, [this]() {
        m_newFolderBar->show();
        m_newFolderName->setText(tr("New folder"));
        m_newFolderName->setFocus();
        m_newFolderName->selectAll();
    });
    connect(m_delete, &QAction::triggered, this, [this]() { requestDelete(); });
    connect(m_rename, &QAction::triggered, this, &FilesPane::requestRename);
    connect(m_permissions, &QAction::triggered, this, &FilesPane::requestPermissions);
}

void FilesPane::buildToolbar(QVBoxLayout *layout)
{
    auto *bar = new QHBoxLayout;
    bar->setSpacing(2);
    bar->addWidget(addButton(m_back, "filesBack"));
    bar->addWidget(addButton(m_up, "filesUp"));
    bar->addWidget(addButton(m_refresh, "filesRefresh"));
    bar->addWidget(m_pathBar, 1);
    bar->addWidget(addButton(m_upload, "filesUpload"));
    bar->addWidget(addButton(m_download, "filesDownload"));
    bar->addWidget(addButton(m_newFolder, "filesNewFolder"));
    bar->addWidget(addButton(m_delete, "filesDelete"));
    layout->addLayout(bar);
}

void FilesPane::buildNewFolderBar(QVBoxLayout *layout)
{
    auto *nf = new QHBoxLayout(m_newFolderBar);
    nf->setContentsMargins(0, 0, 0, 0);
    auto *nfLabel = new QLabel(tr("Folder name:"), m_newFolderBar);
    m_newFolderName->setObjectName(QStringLiteral("filesNewFolderName"));
    m_newFolderName->setAccessibleName(tr("New folder name"));
    nfLabel->setBuddy(m_newFolderName);
    auto *create = new QPushButton(tr("Create"), m_newFolderBar);
    create->setObjectName(QStringLiteral("filesNewFolderCreate"));
    create->setAccessibleName(tr("Create folder"));
    auto *cancel = new QPushButton(tr("Cancel"), m_newFolderBar);
    cancel->setObjectName(QStringLiteral("filesNewFolderCancel"));
    cancel->setAccessibleName(tr("Cancel new folder"));
    nf->addWidget(nfLabel);
    nf->addWidget(m_newFolderName, 1);
    nf->addWidget(create);
    nf->addWidget(cancel);
    m_newFolderBar->hide();
    const auto commitFolder = [this]() {
        const QString name = m_newFolderName->text().trimmed();
        m_newFolderBar->hide();
        createFolder(name);
    };
    connect(m_newFolderName, &QLineEdit::returnPressed, this, commitFolder);
    connect(create, &QPushButton::clicked, this, commitFolder);
    connect(cancel, &QPushButton::clicked, m_newFolderBar, &QWidget::hide);
    layout->addWidget(m_newFolderBar);
}

void FilesPane::buildNotice(QVBoxLayout *layout)
{
    m_notice->setObjectName(QStringLiteral("filesNotice"));
    m_notice->setAccessibleName(tr("Files notice"));
    m_notice->setWordWrap(true);
    m_notice->setTextFormat(Qt::PlainText);
    m_notice->hide();
    layout->addWidget(m_notice);
}

void FilesPane::buildView(QVBoxLayout *layout)
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(FilesModel::SortRole);
    m_view->setObjectName(QStringLiteral("filesView"));
    m_view->setAccessibleName(tr("Files in the session"));
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(FilesModel::Name, Qt::AscendingOrder);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // DragOnly leaves the viewport without drops, so they reach the pane.
    m_view->setDragDropMode(QAbstractItemView::DragOnly);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->header()->setSectionResizeMode(FilesModel::Name, QHeaderView::Stretch);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setAccessibleName(tr("Columns: click to sort"));
    for (int c : {FilesModel::Size, FilesModel::Modified, FilesModel::Permissions})
        m_view->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    connect(m_view, &QTreeView::activated, this, &FilesPane::activate);
    connect(m_view, &QTreeView::customContextMenuRequested, this, &FilesPane::showMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &FilesPane::updateActions);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(m_panel);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
}

void FilesPane::connectSources(Provider *provider)
{
    connect(m_pathBar, &PathBar::pathActivated, this, [this](const QString &p) { goTo(p, true); });
    connect(m_queue, &TransferQueue::conflict, this, &FilesPane::askConflict);
    connect(m_queue, &TransferQueue::itemFinished, this, &FilesPane::onItemFinished);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(150);
    connect(m_refreshTimer, &QTimer::timeout, this, &FilesPane::refresh);
    if (provider)
        connect(provider, &Provider::sessionChanged, this, [this](const SessionInfo &s) {
            if (s.id == m_session.id)
                setSession(s);
        });
}

QToolButton *FilesPane::addButton(QAction *action, const char *objectName)
{
    auto *b = new QToolButton(this);
    b->setDefaultAction(action);
    b->setObjectName(QLatin1String(objectName));
    b->setAccessibleName(action->text().remove(QStringLiteral("…")));
    b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    b->setAutoRaise(true);
    return b;
}

bool FilesPane::canUpload() const
{
    return m_provider && m_provider->capabilities().testFlag(Capability::Files) &&
           m_session.state == SessionState::Running;
}

bool FilesPane::canList() const
{
    return m_provider && m_provider->capabilities().testFlag(Capability::FileList) &&
           m_session.state == SessionState::Running;
}

QString FilesPane::noticeText() const
{
    return m_notice->isHidden() ? QString() : m_notice->text();
}

void FilesPane::showNotice(const QString &text)
{
    m_notice->setText(text);
    m_notice->setVisible(!text.isEmpty());
}

void FilesPane::updateAvailability()
{
    const Capabilities caps = m_provider ? m_provider->capabilities() : Capabilities();
    const QString provider = m_provider ? m_provider->descriptor().displayName : QString();
    QString why;
    if (!m_provider)
        why = tr("This session's account is not connected.");
    else if (!caps.testFlag(Capability::Files) && !caps.testFlag(Capability::FileList))
        why = tr("%1 sessions offer no file access: files cannot be listed or copied.").arg(provider);
    else if (m_session.state == SessionState::Paused)
        why = tr("The session is paused. Resume it to see its files.");
    else if (m_session.state != SessionState::Running)
        why = tr("The session is not running. Start it to see its files.");
    else if (!caps.testFlag(Capability::FileList))
        why =
            tr("%1 cannot list a session's files. Drop files here to upload them into %2.").arg(provider, m_currentDir);
    else if (!caps.testFlag(Capability::Files))
        why = tr("%1 can list this session's files but not copy them.").arg(provider);
    showNotice(m_error.isEmpty() ? why : m_error);
    const bool list = canList();
    m_view->setVisible(list);
    m_pathBar->setEnabled(list);
    if (!list)
        m_model->setEntries({});
    updateActions();
}

void FilesPane::updateActions()
{
    const bool list = canList();
    const bool selected = list && m_view->selectionModel()->hasSelection();
    m_back->setEnabled(list && !m_history.isEmpty());
    m_up->setEnabled(list && m_currentDir != QLatin1String("/"));
    m_refresh->setEnabled(list);
    m_upload->setEnabled(canUpload());
    m_download->setEnabled(selected && canUpload());
    m_newFolder->setEnabled(list);
    m_delete->setEnabled(selected);
    const bool one = list && m_view->selectionModel()->selectedRows().size() == 1;
    m_rename->setEnabled(one);
    m_permissions->setEnabled(one);
}

void FilesPane::setSession(const SessionInfo &session)
{
    const bool wasListing = canList();
    m_session = session;
    m_queue->setSessionId(session.id);
    m_error.clear();
    updateAvailability();
    if (canList() && !wasListing)
        refresh();
}

void FilesPane::setCurrentDir(const QString &path)
{
    goTo(path, true);
}

void FilesPane::goTo(const QString &path, bool remember)
{
    const QString clean = cleanRemote(path);
    if (remember && clean != m_currentDir)
        m_history << m_currentDir;
    m_currentDir = clean;
    m_pathBar->setPath(clean);
    m_newFolderBar->hide();
    if (canList())
        refresh();
    else
        updateAvailability();
}

void FilesPane::refresh()
{
    m_refreshTimer->stop();
    if (!canList() || !m_provider || !m_provider->files())
        return updateAvailability();
    const int generation = ++m_generation;
    const QString dir = m_currentDir;
    m_provider->files()->listFiles(
        m_session.id, dir, Callback<QList<FileEntry>>(this, [this, generation, dir](Result<QList<FileEntry>> r) {
            // Only the answer for the folder shown now counts (the user may have moved on).
            if (generation != m_generation)
                return;
            const QStringList keep = selectedPaths();
            if (!r) {
                m_error = tr("Cannot list %1: %2").arg(dir, r.message());
                m_model->setEntries({});
                updateAvailability();
                Q_EMIT listingFailed(dir, r.message());
                return;
            }
            m_error.clear();
            m_model->setEntries(*r);
            for (const QString &path : keep) {
                const int row = m_model->rowOf(path.section(QLatin1Char('/'), -1));
                if (row >= 0)
                    m_view->selectionModel()->select(m_proxy->mapFromSource(m_model->index(row, 0)),
                                                     QItemSelectionModel::Select | QItemSelectionModel::Rows);
            }
            updateAvailability();
            Q_EMIT listed(dir);
        }));
}

QStringList FilesPane::selectedPaths() const
{
    QStringList out;
    for (const QModelIndex &i : m_view->selectionModel()->selectedRows(FilesModel::Name))
        out << joinRemote(m_currentDir, i.data(FilesModel::EntryNameRole).toString());
    return out;
}

void FilesPane::activate(const QModelIndex &index)
{
    const QModelIndex source = m_proxy->mapToSource(index);
    const FileEntry e = m_model->entry(source.row());
    // A link may lead to a folder; listing it tells.
    if (e.isDir || e.isLink)
        goTo(joinRemote(m_currentDir, e.name), true);
}

void FilesPane::showMenu(const QPoint &pos)
{
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    const QModelIndex at = m_view->indexAt(pos);
    if (at.isValid() && at.data(FilesModel::IsDirRole).toBool() && m_view->selectionModel()->selectedRows().size() == 1)
        menu->addAction(tr("Open"), this, [this, at]() { activate(at); });
    menu->addAction(m_download);
    menu->addAction(m_rename);
    menu->addAction(m_permissions);
    menu->addAction(m_delete);
    menu->addSeparator();
    menu->addAction(m_newFolder);
    menu->addAction(m_upload);
    menu->addAction(m_refresh);
    menu->popup(m_view->viewport()->mapToGlobal(pos));
}

void FilesPane::uploadLocalPaths(const QStringList &localPaths, const QString &remoteDir)
{
    if (!canUpload()) {
        showNotice(m_notice->text().isEmpty() ? tr("Files cannot be uploaded to this session.") : m_notice->text());
        return;
    }
    const QString dir = remoteDir.isEmpty() ? m_currentDir : remoteDir;
    for (const QString &p : localPaths)
        m_queue->enqueueUpload(p, dir);
}

QList<int> FilesPane::downloadTo(const QStringList &remotePaths, const QString &localDest)
{
    QList<int> ids;
    if (remotePaths.size() == 1) {
        ids << m_queue->enqueueDownload(remotePaths.first(), localDest);
        return ids;
    }
    // Several: each into the folder under its own name (a trailing '/' demands the folder).
    const QString dir = localDest.endsWith(QLatin1Char('/')) ? localDest : localDest + QLatin1Char('/');
    for (const QString &p : remotePaths)
        ids << m_queue->enqueueDownload(p, dir);
    return ids;
}

void FilesPane::saveAs()
{
    const QStringList paths = selectedPaths();
    if (paths.isEmpty())
        return;
    auto *dialog = new QFileDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("filesSaveDialog"));
    if (paths.size() == 1) {
        dialog->setWindowTitle(tr("Save As"));
        dialog->setAcceptMode(QFileDialog::AcceptSave);
        dialog->setFileMode(QFileDialog::AnyFile);
        dialog->setDirectory(QDir::homePath());
        dialog->selectFile(paths.first().section(QLatin1Char('/'), -1));
    } else {
        dialog->setWindowTitle(tr("Save %n items into", nullptr, int(paths.size())));
        dialog->setFileMode(QFileDialog::Directory);
        dialog->setOption(QFileDialog::ShowDirsOnly);
        dialog->setDirectory(QDir::homePath());
    }
    connect(dialog, &QFileDialog::fileSelected, this, [this, paths](const QString &dest) { downloadTo(paths, dest); });
    dialog->open();
}

void FilesPane::chooseUploads()
{
    auto *dialog = new QFileDialog(this, tr("Upload to %1").arg(m_currentDir));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("filesUploadDialog"));
    dialog->setFileMode(QFileDialog::ExistingFiles);
    const QString dir = m_currentDir;
    connect(dialog, &QFileDialog::filesSelected, this,
            [this, dir](const QStringList &files) { uploadLocalPaths(files, dir); });
    dialog->open();
}

void FilesPane::askConflict(int id, const QString &name, bool existingIsDir, bool incomingIsDir)
{
    const auto item = m_queue->item(id);
    auto *dialog =
        new ConflictDialog(name, item ? item->destination : m_currentDir, existingIsDir, incomingIsDir, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ConflictDialog::chosen, this,
            [this, id](TransferQueue::ConflictChoice choice, bool all) { m_queue->answerConflict(id, choice, all); });
    dialog->open();
}

void FilesPane::requestDelete(const QStringList &remotePaths)
{
    const QStringList paths = remotePaths.isEmpty() ? selectedPaths() : remotePaths;
    if (paths.isEmpty())
        return;
    const QString text =
        paths.size() == 1
            ? tr("Delete “%1” from the session? A folder is deleted with everything in it.").arg(paths.first())
            : tr("Delete %n items from the session? Folders are deleted with everything in them.", nullptr,
                 int(paths.size()));
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Delete"), text, QMessageBox::Yes | QMessageBox::No, this);
    box->setObjectName(QStringLiteral("filesDeleteConfirm"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setDefaultButton(QMessageBox::No);
    connect(box, &QMessageBox::buttonClicked, this, [this, box, paths](QAbstractButton *b) {
        if (box->standardButton(b) == QMessageBox::Yes)
            removePaths(paths);
    });
    box->open();
}

void FilesPane::removePaths(const QStringList &paths)
{
    FilesFacet *files = m_provider ? m_provider->files() : nullptr;
    if (!files)
        return;
    auto pending = std::make_shared<int>(int(paths.size()));
    auto errors = std::make_shared<QStringList>();
    for (const QString &p : paths) {
        files->removePath(m_session.id, p, Callback<void>(this, [this, pending, errors, p](VoidResult r) {
                              if (!r)
                                  *errors << tr("%1: %2").arg(p, r.message());
                              if (--*pending > 0)
                                  return;
                              refresh();
                              if (!errors->isEmpty())
                                  showNotice(tr("Not deleted: %1").arg(errors->join(QStringLiteral("; "))));
                          }));
    }
}

void FilesPane::createFolder(const QString &name)
{
    if (name.isEmpty() || name.contains(QLatin1Char('/')) || name == QLatin1String(".") ||
        name == QLatin1String("..")) {
        showNotice(tr("“%1” is not a folder name.").arg(name));
        return;
    }
    FilesFacet *files = m_provider ? m_provider->files() : nullptr;
    if (!files)
        return;
    const QString path = joinRemote(m_currentDir, name);
    files->makeDir(m_session.id, path, Callback<void>(this, [this, path](VoidResult r) {
                       if (!r)
                           return showNotice(tr("Cannot make %1: %2").arg(path, r.message()));
                       refresh();
                   }));
}

} // namespace sandbar::ui
