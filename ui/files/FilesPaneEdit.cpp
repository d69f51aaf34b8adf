// FilesPane's rename and permissions: each asks in a non-modal dialog (a person can look at
// the listing while typing), then calls the provider's FilesFacet; a refusal (a taken name,
// a mode the session does not allow) is said in the pane's notice and nothing is changed.
#include "files/FilesModel.h"
#include "files/FilesPane.h"
#include "files/RemotePaths.h"

#include <QAction>
#include <QInputDialog>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTreeView>
#include <optional>

namespace sandbar::ui {

namespace {

// The selected row's entry, when exactly one is selected.
std::optional<FileEntry> singleSelection(const QTreeView *view, const FilesModel *model)
{
    const QModelIndexList rows = view->selectionModel()->selectedRows(FilesModel::Name);
    if (rows.size() != 1)
        return std::nullopt;
    const QString name = rows.first().data(FilesModel::EntryNameRole).toString();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->entry(row).name == name)
            return model->entry(row);
    }
    return std::nullopt;
}

} // namespace

void FilesPane::requestRename()
{
    const auto entry = singleSelection(m_view, m_model);
    if (!entry)
        return;
    auto *ask = new QInputDialog(this);
    ask->setObjectName(QStringLiteral("filesRenameDialog"));
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->setWindowTitle(tr("Rename"));
    ask->setLabelText(tr("New name of “%1”:").arg(entry->name));
    ask->setTextValue(entry->name);
    const QString from = joinRemote(m_currentDir, entry->name);
    connect(ask, &QInputDialog::textValueSelected, this,
            [this, from](const QString &name) { renamePath(from, name.trimmed()); });
    ask->open();
}

void FilesPane::renamePath(const QString &from, const QString &newName)
{
    if (newName.isEmpty() || newName.contains(QLatin1Char('/')) || newName == QLatin1String(".") ||
        newName == QLatin1String("..")) {
        showNotice(tr("“%1” is not a file name.").arg(newName));
        return;
    }
    FilesFacet *files = m_provider ? m_provider->files() : nullptr;
    if (!files)
        return;
    const QString to = joinRemote(cleanRemote(from + QStringLiteral("/..")), newName);
    if (to == from)
        return;
    files->movePath(m_session.id, from, to, Callback<void>(this, [this](VoidResult r) {
                        if (!r)
                            return showNotice(tr("Not renamed: %1").arg(r.message()));
                        refresh();
                    }));
}

void FilesPane::requestPermissions()
{
    const auto entry = singleSelection(m_view, m_model);
    if (!entry)
        return;
    auto *ask = new QInputDialog(this);
    ask->setObjectName(QStringLiteral("filesModeDialog"));
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->setWindowTitle(tr("Permissions"));
    ask->setLabelText(tr("Permissions of “%1” as octal digits:\n644: the owner reads and writes, everyone else reads; "
                         "755: and everyone may also run it or enter it.")
                          .arg(entry->name));
    ask->setTextValue(QString::number(entry->mode & 07777, 8));
    const QString path = joinRemote(m_currentDir, entry->name);
    connect(ask, &QInputDialog::textValueSelected, this, [this, path](const QString &text) {
        static const QRegularExpression octal(QStringLiteral("^[0-7]{1,4}$"));
        if (!octal.match(text.trimmed()).hasMatch())
            return showNotice(tr("“%1” is not a mode: give one to four octal digits, such as 644.").arg(text));
        setPathMode(path, text.trimmed().toUInt(nullptr, 8));
    });
    ask->open();
}

void FilesPane::setPathMode(const QString &path, quint32 mode)
{
    FilesFacet *files = m_provider ? m_provider->files() : nullptr;
    if (!files)
        return;
    files->setMode(m_session.id, path, mode, Callback<void>(this, [this](VoidResult r) {
                       if (!r)
                           return showNotice(tr("Permissions not changed: %1").arg(r.message()));
                       refresh();
                   }));
}

} // namespace sandbar::ui
