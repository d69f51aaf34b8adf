#pragma once

#include "files/TransferQueue.h"
#include "providers/Provider.h"

#include <QHash>
#include <QPointer>
#include <QUrl>
#include <QWidget>
#include <memory>

class QAction;
class QLabel;
class QLineEdit;
class QMimeData;
class QTemporaryDir;
class QTimer;
class QToolButton;
class QTreeView;
class QVBoxLayout;

namespace sandbar::ui {

class FilesModel;
class FilesSortModel;
class PathBar;
class TransferPanel;

// A session's Files tab: a remote folder's listing with breadcrumbs, navigation, upload,
// download (Save As, drag out), delete and new folder, over a TransferQueue and its panel.
// Degrades by capability: without Files it says why; with Files but no FileList it shows
// no listing and still takes drops into the working folder.
class FilesPane : public QWidget
{
    Q_OBJECT
public:
    FilesPane(Provider *provider, const SessionInfo &session, QWidget *parent = nullptr);
    ~FilesPane() override;

    void setSession(const SessionInfo &session);
    QString currentDir() const { return m_currentDir; }
    void setCurrentDir(const QString &path);
    // Queues the local files and folders for upload into remoteDir (each under its own name).
    void uploadLocalPaths(const QStringList &localPaths, const QString &remoteDir);
    TransferQueue *queue() const { return m_queue; }

    // What Save As does once a destination is chosen: one item to localDest (the copy rules
    // decide: an existing folder receives it, else it is saved under that name), or several
    // into the folder localDest. Returns the queue's ids.
    QList<int> downloadTo(const QStringList &remotePaths, const QString &localDest);
    // Asks (QMessageBox, opened) before deleting; requestDelete({}) deletes the selection.
    void requestDelete(const QStringList &remotePaths = {});
    void createFolder(const QString &name);
    // Rename and permissions (FilesPaneEdit.cpp): request* asks about the single selected row
    // in a dialog (opened, not exec'd); the others act at once.
    void requestRename();
    void renamePath(const QString &from, const QString &newName);
    void requestPermissions();
    void setPathMode(const QString &path, quint32 mode);
    void refresh();
    // Downloads the paths into the pane's temporary folder for dragging out; dragReady
    // carries their file URLs once all are there.
    void prepareDrag(const QStringList &remotePaths);

    QStringList selectedPaths() const;
    const FilesModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    // Why the listing is empty or missing (capability, state, an error); empty when fine.
    QString noticeText() const;
    bool canUpload() const;
    bool canList() const;

Q_SIGNALS:
    void listed(const QString &dir);
    void listingFailed(const QString &dir, const QString &error);
    void dragReady(const QList<QUrl> &urls);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    // The parts of the pane, built by the constructor in this order.
    void createActions();
    void connectActions();
    void buildToolbar(QVBoxLayout *layout);
    void buildNewFolderBar(QVBoxLayout *layout);
    void buildNotice(QVBoxLayout *layout);
    void buildView(QVBoxLayout *layout);
    // The path bar, the queue, the refresh timer and the provider's session updates.
    void connectSources(Provider *provider);
    QToolButton *addButton(QAction *action, const char *objectName);
    void updateAvailability();
    void updateActions();
    void goTo(const QString &path, bool remember);
    void activate(const QModelIndex &index);
    void showMenu(const QPoint &pos);
    void saveAs();
    void chooseUploads();
    void askConflict(int id, const QString &name, bool existingIsDir, bool incomingIsDir);
    void removePaths(const QStringList &paths);
    void showNotice(const QString &text);
    void startDragOut();
    void onItemFinished(int id);
    QString dropTarget(const QPoint &pos) const;
    static QStringList localPathsOf(const QMimeData *mime);

    QPointer<Provider> m_provider;
    SessionInfo m_session;
    TransferQueue *m_queue;
    QString m_currentDir;
    QStringList m_history;
    int m_generation = 0;

    PathBar *m_pathBar;
    QTreeView *m_view;
    FilesModel *m_model;
    FilesSortModel *m_proxy;
    QLabel *m_notice;
    QWidget *m_newFolderBar;
    QLineEdit *m_newFolderName;
    TransferPanel *m_panel;
    QTimer *m_refreshTimer;
    QString m_error;

    QAction *m_back;
    QAction *m_up;
    QAction *m_refresh;
    QAction *m_upload;
    QAction *m_download;
    QAction *m_newFolder;
    QAction *m_delete;
    QAction *m_rename;
    QAction *m_permissions;

    // Drag out: copies made for dragging, by remote path, and the downloads under way.
    std::unique_ptr<QTemporaryDir> m_dragDir;
    QHash<QString, QString> m_dragCopies;
    QHash<int, QString> m_dragJobs; // queue id -> remote path
    QStringList m_dragWanted;
    int m_dragSerial = 0;

    friend class FilesView;
};

} // namespace sandbar::ui
