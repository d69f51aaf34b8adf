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
    if (m_account == account)
        return;
    beginResetModel();
    m_account = account;
    m_sessions.clear();
    endResetModel();
    reload();
}

void SessionsModel::reload()
{
    // Update in place: a periodic refresh must not reset the view (selection, scroll).
    QList<SessionInfo> fresh;
    for (const auto &s : m_registry.sessions()) {
        if (m_account.isEmpty() || s.account == m_account)
            fresh << s;
    }
    for (auto s : m_registry.orphans()) {
        if (m_account.isEmpty() || s.account == m_account) {
            s.errorMessage = tr("Orphan: made by an account (%1) that this Sandbar does not have")
                                 .arg(s.labels.value(QLatin1String(labels::Account)));
            s.owned = false;
            m_orphanRefs.insert(s.ref());
            fresh << s;
        }
    }
    const auto indexOf = [](const QList<SessionInfo> &list, const QString &ref) {
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (list.at(i).ref() == ref)
                return i;
        }
        return qsizetype(-1);
    };
    for (qsizetype i = m_sessions.size() - 1; i >= 0; --i) {
        if (indexOf(fresh, m_sessions.at(i).ref()) < 0) {
            beginRemoveRows({}, int(i), int(i));
            m_sessions.removeAt(i);
            endRemoveRows();
        }
    }
    for (const auto &s : fresh) {
        const qsizetype at = indexOf(m_sessions, s.ref());
        if (at >= 0) {
            m_sessions[at] = s;
            Q_EMIT dataChanged(index(int(at), 0), index(int(at), ColumnCount - 1));
        } else {
            beginInsertRows({}, int(m_sessions.size()), int(m_sessions.size()));
            m_sessions << s;
            endInsertRows();
        }
    }
}

void SessionsModel::setCostMeter(const CostMeter *meter)
{
    m_meter = meter;
    if (!meter)
        return;
    connect(meter, &CostMeter::updated, this, [this]() {
        if (!m_sessions.isEmpty())
            Q_EMIT dataChanged(index(0, Cost), index(int(m_sessions.size()) - 1, Cost));
    });
}

QString SessionsModel::costText(const SessionCost &c)
{
    if (!c.known)
        return c.reason.isEmpty() ? QString() : QStringLiteral("—"); // the reason is the tooltip
    const QLocale locale;
    if (c.selfHosted)
        return tr("$0 · self-hosted");
    const QString soFar = QStringLiteral("$") + locale.toString(c.costSoFarUsd, 'f', c.costSoFarUsd < 10 ? 3 : 2);
    if (!c.running)
        return soFar;
    return tr("%1 · $%2/h").arg(soFar, locale.toString(c.usdPerHour, 'f', 3));
}

bool SessionsModel::isOrphan(int row) const
{
    return row >= 0 && row < m_sessions.size() && m_orphanRefs.contains(m_sessions.at(row).ref());
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
    if (role == Qt::ToolTipRole && index.column() == Cost && m_meter) {
        const SessionCost c = m_meter->cost(s.ref());
        return c.reason.isEmpty() ? tr("Billed for %1 minutes so far").arg(qRound(c.billedSeconds / 60)) : c.reason;
    }
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
    case State:
        return m_orphanRefs.contains(s.ref()) ? tr("%1 (orphan)").arg(sessionStateName(s.state))
                                              : sessionStateName(s.state);
    case Cost: return m_meter ? costText(m_meter->cost(s.ref())) : QString();
    case Image: return s.image;
    case Created:
        return s.created.isValid() ? locale.toString(s.created.toLocalTime(), QLocale::ShortFormat) : QString();
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
    case Cpu: return tr("CPU");
    case Memory: return tr("Memory");
    case Cost: return tr("Cost");
    case Image: return tr("Image");
    case Created: return tr("Created");
    case Expires: return tr("Expires");
    default: return {};
    }
}

} // namespace sandbar::ui
