#pragma once

#include "providers/Session.h"

#include <QAbstractTableModel>
#include <QSet>

namespace sandbar {
class SessionRegistry;
}

namespace sandbar::ui {

// Every account's sessions, as the registry knows them, for the main table.
class SessionsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Ref, Name, State, Image, Created, Expires, ColumnCount };
    enum Role { SessionRole = Qt::UserRole + 1 };

    explicit SessionsModel(SessionRegistry &registry, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    SessionInfo sessionAt(int row) const { return m_sessions.value(row); }
    bool isOrphan(int row) const;
    void setAccountFilter(const QString &account);

private:
    void reload();

    SessionRegistry &m_registry;
    QString m_account;
    QList<SessionInfo> m_sessions;
    QSet<QString> m_orphanRefs;
};

} // namespace sandbar::ui
