#include "audit/AuditModel.h"

#include "common/OffThread.h"

#include <QColor>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocale>
#include <algorithm>
#include <numeric>

namespace sandbar::ui {

namespace {

QString compactJson(const QJsonObject &o)
{
    return o.isEmpty() ? QString() : QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

// Sort key of a column for anything but time, which compares as a time.
QString sortText(const audit::AuditEntry &e, int column)
{
    switch (column) {
    case AuditModel::AccountColumn: return e.account;
    case AuditModel::ProviderColumn: return e.provider;
    case AuditModel::SessionColumn: return e.sessionId;
    case AuditModel::ActionColumn: return e.action;
    case AuditModel::OutcomeColumn: return AuditModel::outcomeText(e);
    case AuditModel::DetailColumn: return compactJson(e.detail);
    default: return {};
    }
}

} // namespace

AuditModel::AuditModel(audit::AuditLog *log, QObject *parent)
    : QAbstractTableModel(parent)
    , m_path(log ? log->path() : QString())
{
    m_query.limit = RowLimit;
    m_live.setSingleShot(true);
    m_live.setInterval(1000);
    connect(&m_live, &QTimer::timeout, this, &AuditModel::refresh);
    if (log)
        connect(log, &audit::AuditLog::entriesWritten, this, &AuditModel::scheduleLiveRefresh);
    // sandbarctl writes from another process; every commit there changes the WAL file.
    // inotify also reports a reader closing the file (this model's own queries), so
    // only a change of size or time counts.
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, [this] {
        const QString stamp = fileStamp();
        if (stamp != m_fileStamp)
            scheduleLiveRefresh();
    });
    watchFiles();
}

void AuditModel::setLive(bool on)
{
    m_liveOn = on;
    if (on && m_stale)
        refresh();
}

void AuditModel::scheduleLiveRefresh()
{
    if (!m_liveOn) {
        m_stale = true;
        return;
    }
    // A burst of appends (a script running exec in a loop) reloads once per interval,
    // not once per commit.
    if (!m_live.isActive())
        m_live.start();
}

QString AuditModel::fileStamp() const
{
    QString stamp;
    for (const QString &f : QStringList{m_path, m_path + QStringLiteral("-wal")}) {
        const QFileInfo info(f);
        stamp += QStringLiteral("%1@%2;").arg(info.size()).arg(info.lastModified().toMSecsSinceEpoch());
    }
    return stamp;
}

void AuditModel::watchFiles()
{
    // The WAL file appears with the first write and a watch ends when a file is
    // replaced, so this is retried after every load.
    if (m_path.isEmpty())
        return;
    const QStringList wanted{m_path, m_path + QStringLiteral("-wal")};
    const QStringList watched = m_watcher.files();
    for (const QString &f : wanted) {
        if (!watched.contains(f) && QFileInfo::exists(f))
            m_watcher.addPath(f);
    }
}

void AuditModel::setQuery(const audit::AuditQuery &query)
{
    m_query = query;
    m_query.limit = RowLimit;
    refresh();
}

void AuditModel::refresh()
{
    m_fileStamp = fileStamp();
    m_live.stop();
    m_stale = false;
    const quint64 generation = ++m_generation;
    if (!m_loading) {
        m_loading = true;
        Q_EMIT loadingChanged(true);
    }
    // The worker gets copies only: this model may be gone by the time it finishes.
    const QString path = m_path;
    const audit::AuditQuery query = m_query;
    runOffThread<Result<audit::AuditPage>>(
        this, [path, query] { return audit::readAuditFile(path, query); },
        [this, generation](Result<audit::AuditPage> page) { apply(generation, page); });
}

void AuditModel::apply(quint64 generation, const Result<audit::AuditPage> &page)
{
    if (generation != m_generation)
        return; // a newer query is on its way; this answer is for a filter no longer shown
    m_loading = false;
    beginResetModel();
    if (page.ok()) {
        m_rows = page->entries;
        m_total = page->total;
        m_error.clear();
        sortRows();
    } else {
        m_rows.clear();
        m_total = 0;
        m_error = page.message();
    }
    endResetModel();
    if (page.ok() && page->accounts != m_accounts) {
        m_accounts = page->accounts;
        Q_EMIT accountsChanged(m_accounts);
    }
    watchFiles();
    Q_EMIT loadingChanged(false);
    Q_EMIT loaded(generation);
}

QString AuditModel::statusText() const
{
    if (!m_error.isEmpty())
        return m_error;
    const QLocale locale;
    if (m_total > m_rows.size())
        return tr("showing the newest %1 of %2").arg(locale.toString(m_rows.size()), locale.toString(m_total));
    if (m_rows.isEmpty())
        return tr("no matching entries");
    return tr("%n entry(s)", nullptr, int(m_rows.size()));
}

int AuditModel::rowOfId(qint64 id) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).id == id)
            return i;
    }
    return -1;
}

int AuditModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int AuditModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString AuditModel::outcomeText(const audit::AuditEntry &e)
{
    if (e.ok)
        return tr("ok");
    if (e.errorMessage.isEmpty())
        return e.errorCode;
    return tr("%1: %2").arg(e.errorCode, e.errorMessage);
}

QVariant AuditModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const audit::AuditEntry &e = m_rows.at(index.row());
    if (role == IdRole)
        return e.id;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TimeColumn: return e.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        case OutcomeColumn: {
            QString text = outcomeText(e);
            text.replace(QLatin1Char('\n'), QLatin1Char(' '));
            return text;
        }
        default: return sortText(e, index.column());
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case TimeColumn: return e.time.toUTC().toString(Qt::ISODateWithMs);
        case OutcomeColumn: return e.ok ? QVariant() : QVariant(outcomeText(e));
        case DetailColumn:
            return e.detail.isEmpty() ? QVariant() : QVariant(QString::fromUtf8(QJsonDocument(e.detail).toJson()));
        default: return {};
        }
    }
    if (role == Qt::ForegroundRole && index.column() == OutcomeColumn && !e.ok)
        return QColor(Qt::red).darker(130);
    return {};
}

QVariant AuditModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn: return tr("Time");
    case AccountColumn: return tr("Account");
    case ProviderColumn: return tr("Provider");
    case SessionColumn: return tr("Session");
    case ActionColumn: return tr("Action");
    case OutcomeColumn: return tr("Outcome");
    case DetailColumn: return tr("Detail");
    default: return {};
    }
}

void AuditModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    QList<qint64> ids;
    for (const auto &i : before)
        ids << m_rows.at(i.row()).id;
    sortRows();
    QModelIndexList after;
    for (int i = 0; i < before.size(); ++i)
        after << index(rowOfId(ids.at(i)), before.at(i).column());
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void AuditModel::sortRows()
{
    const int column = m_sortColumn;
    const bool descending = m_sortOrder == Qt::DescendingOrder;
    // Keys once per row, not once per comparison (the detail column is JSON to write).
    QList<QString> keys;
    if (column != TimeColumn) {
        keys.reserve(m_rows.size());
        for (const auto &e : std::as_const(m_rows))
            keys << sortText(e, column);
    }
    QList<int> order(m_rows.size());
    std::iota(order.begin(), order.end(), 0);
    // Ties fall back to time then id, so equal cells keep the log's order.
    const auto byTime = [this](int a, int b) {
        const auto &x = m_rows.at(a), &y = m_rows.at(b);
        return x.time != y.time ? x.time < y.time : x.id < y.id;
    };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        if (!keys.isEmpty()) {
            const int c = QString::localeAwareCompare(keys.at(a), keys.at(b));
            if (c != 0)
                return descending ? c > 0 : c < 0;
        }
        return descending ? byTime(b, a) : byTime(a, b);
    });
    QList<audit::AuditEntry> sorted;
    sorted.reserve(m_rows.size());
    for (int i : std::as_const(order))
        sorted << std::move(m_rows[i]);
    m_rows = std::move(sorted);
}

} // namespace sandbar::ui
