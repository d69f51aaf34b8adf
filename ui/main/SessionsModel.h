#pragma once

#include "costs/CostMeter.h"
#include "providers/Session.h"

#include <QAbstractTableModel>
#include <QSet>

namespace sandbar {
class CostMeter;
class SessionRegistry;
} // namespace sandbar

namespace sandbar::ui {

// Every account's sessions, as the registry knows them, for the main table.
class SessionsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // Cpu and Memory are painted by the sparkline delegates from the collector's history.
    enum Column { Ref, Name, State, Cpu, Memory, Cost, Image, Created, Expires, ColumnCount };
    enum Role { SessionRole = Qt::UserRole + 1 };

    explicit SessionsModel(SessionRegistry &registry, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    SessionInfo sessionAt(int row) const { return m_sessions.value(row); }
    bool isOrphan(int row) const;
    void setAccountFilter(const QString &account);
    // The live meter behind the Cost column (none: the column stays empty).
    void setCostMeter(const CostMeter *meter);
    // "$1.23 · $0.45/h", "$0 · self-hosted", or "—" when unknown (the reason is the tooltip).
    static QString costText(const SessionCost &cost);

private:
    void reload();

    SessionRegistry &m_registry;
    const CostMeter *m_meter = nullptr;
    QString m_account;
    QList<SessionInfo> m_sessions;
    QSet<QString> m_orphanRefs;
};

} // namespace sandbar::ui
