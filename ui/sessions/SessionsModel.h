#pragma once

#include "common/Clock.h"
#include "costs/CostMeter.h"
#include "providers/Session.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSet>
#include <functional>

namespace sandbar {
class CostMeter;
class SessionRegistry;
namespace metrics {
class SessionStats;
}
} // namespace sandbar

namespace sandbar::ui {

// Every account's sessions, as the registry knows them, for the main table. The sessions
// filter (SessionsFilter) sits between it and the view; it reads the per-row haystack and
// compares rows through compareRows() so that filtering and sorting allocate nothing.
class SessionsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // Cpu and Memory are painted by the sparkline delegates from the collector's history.
    // Ref (the full ACCOUNT/ID) is hidden by the pane: Name's tooltip carries it. Labels (the
    // person's) came later and so come last: saved header states keep their columns.
    enum Column {
        Name,
        Account,
        Provider,
        State,
        Image,
        Cpu,
        Memory,
        Gpu,
        Uptime,
        TtlLeft,
        Cost,
        Created,
        Ref,
        Labels,
        ColumnCount,
        Expires = TtlLeft, // the column's former name
    };
    enum Role {
        SessionRole = Qt::UserRole + 1,
        SortRole,  // numbers for numeric columns, msecs since epoch for times
        RefRole,   // ACCOUNT/ID, without copying the whole SessionInfo
        ColumnKey, // headerData: the column's stable name (saved settings)
    };

    explicit SessionsModel(SessionRegistry &registry, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    SessionInfo sessionAt(int row) const { return m_sessions.value(row); }
    // No copy; row must be valid.
    const SessionInfo &session(int row) const { return m_sessions.at(row); }
    // Source row of ref, or -1.
    int rowOf(const QString &ref) const { return m_rowByRef.value(ref, -1); }
    bool isOrphan(int row) const;
    // Lowercase text of every column that does not change by itself (not Uptime, TTL left,
    // Cost or the live CPU/Memory figures), plus the id; rebuilt when the row changes.
    const QString &haystack(int row) const { return m_haystacks.at(row); }
    // <0, 0, >0 as row a sorts before, with, after row b in column (what SortRole orders).
    int compareRows(int a, int b, int column) const;
    // Whether a column has anything to show: GPU while a listed session has GPUs, Labels while
    // one has labels of the person's (the pane shows them only then); every other column, always.
    bool hasData(int column) const;
    // The person's labels of a session as the Labels column shows them: "team=ml, reviewed".
    static QString labelsText(const SessionInfo &s);

    // The model's own account filter (MainWindow's table without the pane). The pane
    // leaves it empty and filters through SessionsFilter.
    void setAccountFilter(const QString &account);
    // The live meter behind the Cost column (none: the column stays empty).
    void setCostMeter(const CostMeter *meter);
    // The collector's statistics, for sorting the CPU and Memory columns by their newest
    // sample (without it they sort by the session's limits).
    using StatsLookup = std::function<const metrics::SessionStats *(const QString &ref)>;
    void setStatsLookup(StatsLookup lookup) { m_stats = std::move(lookup); }
    // What Uptime, TTL left and its warning colour count on: the registry's clock unless a
    // test sets its own. Not owned; it must outlive the model.
    void setClock(const Clock &clock) { m_clock = &clock; }
    // Replaces the rows with list, as a registry listing would (tests and the bench; the
    // registry's next change replaces them again).
    void setSessions(const QList<SessionInfo> &list);

    // "$1.23 · $0.45/h", "$0 · self-hosted", or "—" when unknown (the reason is the tooltip).
    static QString costText(const SessionCost &cost);
    // "42 min", "2 h 05 min", "< 1 min", "expired"; "—" without a time limit.
    static QString ttlText(const QDateTime &expiresAt, const QDateTime &now);
    // "3 d 4 h", "2 h 05 min", "12 min", "40 s".
    static QString durationText(qint64 seconds);

Q_SIGNALS:
    // hasData() changed for GPU or Labels.
    void optionalColumnsChanged();

private:
    void reload();
    void accountStatusChanged(const QString &account);
    bool unreachable(const SessionInfo &s) const;
    void apply(QList<SessionInfo> fresh);
    QString makeHaystack(const SessionInfo &s, bool orphan) const;
    QString stateText(const SessionInfo &s, bool orphan) const;
    QVariant sortValue(const SessionInfo &s, int column) const;
    double liveFigure(const SessionInfo &s, int column) const;
    void reindex();

    SessionRegistry &m_registry;
    const Clock *m_clock;
    const CostMeter *m_meter = nullptr;
    StatsLookup m_stats;
    QString m_account;
    QList<SessionInfo> m_sessions;
    QList<QString> m_haystacks; // parallel to m_sessions
    QList<QString>
        m_labelTexts; // parallel to m_sessions: labelsText(), made once per change, not per paint or comparison
    QHash<QString, int> m_rowByRef;
    QSet<QString> m_orphanRefs;
    int m_gpuRows = 0;
    int m_labelRows = 0; // rows with labels of the person's
};

} // namespace sandbar::ui
