#include "main/SessionsModel.h"

#include "sessions/SessionRegistry.h"

#include <QColor>
#include <QLocale>

namespace sandbar::ui {

SessionsModel::SessionsModel(SessionRegistry &registry, QObject *parent)
    : QAbstractTableModel(parent)
    , m_registry(registry)
{
    connect(&m_registry, &SessionRegistry::sessionsChanged, this, &SessionsModel::reload);
    reload();
}

void SessionsModel::setAccountFilter(const QString &account)
{
    m_account = account;
    reload();
}

void SessionsModel::reload()
{
    beginResetModel();
    m_sessions.clear();
    for (const auto &s : m_registry.sessions()) {
        if (m_account.isEmpty() || s.account == m_account)
            m_sessions << s;
    }
    for (auto s : m_registry.orphans()) {
        if (m_account.isEmpty() || s.account == m_account) {
            s.statusText = tr("orphan: its account is not in this Sandbar");
            m_sessions << s;
        }
    }
    endResetModel();
}

int SessionsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sessions.size());
}

int SessionsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SessionsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_sessions.size())
        return {};
    const SessionInfo &s = m_sessions.at(index.row());
    if (role == SessionRole)
        return QVariant::fromValue(s);
    if (role == Qt::ToolTipRole)
        return s.errorMessage.isEmpty() ? s.statusText : s.errorMessage;
    if (role == Qt::ForegroundRole && index.column() == State) {
        switch (s.state) {
        case SessionState::Running: return QColor(0x2e, 0x8b, 0x57);
        case SessionState::Error: return QColor(0xc0, 0x39, 0x2b);
        case SessionState::Paused: return QColor(0xb9, 0x77, 0x0e);
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    const QLocale locale;
    switch (index.column()) {
    case Ref: return s.ref();
    case Name: return s.name;
    case State: return sessionStateName(s.state);
    case Image: return s.image;
    case Created: return s.created.isValid() ? locale.toString(s.created.toLocalTime(), QLocale::ShortFormat) : QString();
    case Expires:
        return s.expiresAt.isValid() ? locale.toString(s.expiresAt.toLocalTime(), QLocale::ShortFormat) : tr("never");
    default: return {};
    }
}

QVariant SessionsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Ref: return tr("Session");
    case Name: return tr("Name");
    case State: return tr("State");
    case Image: return tr("Image");
    case Created: return tr("Created");
    case Expires: return tr("Expires");
    default: return {};
    }
}

} // namespace sandbar::ui
