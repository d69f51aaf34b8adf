#include "files/FilesModel.h"

#include <QApplication>
#include <QLocale>
#include <QStyle>

namespace sandbar::ui {

void FilesModel::setEntries(const QList<FileEntry> &entries)
{
    beginResetModel();
    m_entries.clear();
    for (const FileEntry &e : entries) {
        if (e.name != QLatin1String(".") && e.name != QLatin1String(".."))
            m_entries << e;
    }
    endResetModel();
}

int FilesModel::rowOf(const QString &name) const
{
    for (int i = 0; i < m_entries.size(); ++i) {
        if (m_entries.at(i).name == name)
            return i;
    }
    return -1;
}

int FilesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int FilesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString FilesModel::permissionText(const FileEntry &entry)
{
    QString out = entry.isLink ? QStringLiteral("l") : entry.isDir ? QStringLiteral("d") : QStringLiteral("-");
    static const char kLetters[] = "rwxrwxrwx";
    for (int i = 0; i < 9; ++i)
        out += (entry.mode & (0400u >> i)) ? QLatin1Char(kLetters[i]) : QLatin1Char('-');
    return out;
}

QVariant FilesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const FileEntry &e = m_entries.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name: return e.isLink && !e.linkTarget.isEmpty() ? tr("%1 → %2").arg(e.name, e.linkTarget) : e.name;
        case Size: return e.isDir ? QString() : QLocale().formattedDataSize(e.size);
        case Modified:
            return e.modified.isValid() ? QLocale().toString(e.modified.toLocalTime(), QLocale::ShortFormat)
                                        : QString();
        case Permissions: return permissionText(e);
        }
        break;
    case Qt::DecorationRole:
        if (index.column() == Name)
            return QApplication::style()->standardIcon(e.isDir ? QStyle::SP_DirIcon : QStyle::SP_FileIcon);
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == Size)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case Qt::ToolTipRole: return e.path;
    case Qt::AccessibleTextRole:
        if (index.column() == Name)
            return e.isDir ? tr("Folder %1").arg(e.name) : tr("File %1").arg(e.name);
        break;
    case IsDirRole: return e.isDir;
    case PathRole: return e.path;
    case EntryNameRole: return e.name;
    case SortRole:
        switch (index.column()) {
        case Name: return e.name;
        case Size: return e.size;
        case Modified: return e.modified;
        case Permissions: return e.mode;
        }
        break;
    }
    return {};
}

QVariant FilesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Name");
    case Size: return tr("Size");
    case Modified: return tr("Modified");
    case Permissions: return tr("Permissions");
    }
    return {};
}

Qt::ItemFlags FilesModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled;
}

bool FilesSortModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const bool leftDir = left.data(FilesModel::IsDirRole).toBool();
    const bool rightDir = right.data(FilesModel::IsDirRole).toBool();
    if (leftDir != rightDir) {
        // The view reverses lessThan for a descending sort; folders stay first regardless.
        return sortOrder() == Qt::AscendingOrder ? leftDir : rightDir;
    }
    const QVariant l = left.data(FilesModel::SortRole);
    const QVariant r = right.data(FilesModel::SortRole);
    if (left.column() == FilesModel::Name)
        return QString::localeAwareCompare(l.toString(), r.toString()) < 0;
    return QVariant::compare(l, r) == QPartialOrdering::Less;
}

} // namespace sandbar::ui
