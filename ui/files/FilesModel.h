#pragma once

#include "providers/Session.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

namespace sandbar::ui {

// One remote folder's entries, as listFiles gave them.
class FilesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Size, Modified, Permissions, ColumnCount };
    enum Role { IsDirRole = Qt::UserRole + 1, PathRole, SortRole, EntryNameRole };

    using QAbstractTableModel::QAbstractTableModel;

    void setEntries(const QList<FileEntry> &entries);
    const QList<FileEntry> &entries() const { return m_entries; }
    FileEntry entry(int row) const { return m_entries.value(row); }
    int rowOf(const QString &name) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    // "drwxr-xr-x" from the kind and the permission bits.
    static QString permissionText(const FileEntry &entry);

private:
    QList<FileEntry> m_entries;
};

// Sorts by the column asked, folders always before files whichever the direction.
class FilesSortModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
};

} // namespace sandbar::ui
