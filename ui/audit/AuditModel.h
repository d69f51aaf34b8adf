#pragma once

#include "audit/AuditLog.h"

#include <QAbstractTableModel>
#include <QFileSystemWatcher>
#include <QTimer>

namespace sandbar::ui {

// The audit log as a table: the newest RowLimit rows matching a filter. Every query runs
// on a worker with its own SQLite connection (readAuditFile), so a slow filter never
// stalls the UI; a generation counter drops an answer that a newer query overtook.
// Entries written later arrive by themselves, at most once per live interval: this
// process's from AuditLog::entriesWritten, sandbarctl's from a watch on the WAL file.
class AuditModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        TimeColumn,
        AccountColumn,
        ProviderColumn,
        SessionColumn,
        ActionColumn,
        OutcomeColumn,
        DetailColumn,
        ColumnCount
    };
    static constexpr int RowLimit = 5000;
    // Qt::UserRole on any column: the row's entry id (qint64), to find it again after a reload.
    static constexpr int IdRole = Qt::UserRole;

    explicit AuditModel(audit::AuditLog *log, QObject *parent = nullptr);

    // Replaces the filter and loads it; the limit is always RowLimit.
    void setQuery(const audit::AuditQuery &query);
    const audit::AuditQuery &query() const { return m_query; }
    // Runs the current filter again.
    void refresh();
    // 1000 ms by default; tests shorten it.
    void setLiveInterval(int ms) { m_live.setInterval(ms); }
    // Off: news of entries only marks the rows stale (a hidden view need not scan the log
    // every second); on again: a stale model reloads at once. On by default.
    void setLive(bool on);

    bool isLoading() const { return m_loading; }
    // Bumped by every query started; loaded() carries the one it answers.
    quint64 generation() const { return m_generation; }
    qint64 totalMatching() const { return m_total; }
    // "12 entries", "showing the newest 5,000 of 12,345", or the last error.
    QString statusText() const;
    QStringList accounts() const { return m_accounts; }

    const audit::AuditEntry &entry(int row) const { return m_rows.at(row); }
    // The rows in the order shown (after sort()).
    const QList<audit::AuditEntry> &entries() const { return m_rows; }
    int rowOfId(qint64 id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    static QString outcomeText(const audit::AuditEntry &e);

Q_SIGNALS:
    void loaded(quint64 generation);
    void accountsChanged(const QStringList &accounts);
    void loadingChanged(bool loading);

private:
    void apply(quint64 generation, const Result<audit::AuditPage> &page);
    void scheduleLiveRefresh();
    void watchFiles();
    QString fileStamp() const;
    void sortRows();

    QString m_path;
    audit::AuditQuery m_query;
    QList<audit::AuditEntry> m_rows;
    QStringList m_accounts;
    QString m_error;
    qint64 m_total = 0;
    quint64 m_generation = 0;
    bool m_loading = false;
    bool m_liveOn = true;
    bool m_stale = false;
    int m_sortColumn = TimeColumn;
    Qt::SortOrder m_sortOrder = Qt::DescendingOrder;
    QTimer m_live;
    QFileSystemWatcher m_watcher;
    QString m_fileStamp; // of the files when the last query started
};

} // namespace sandbar::ui
