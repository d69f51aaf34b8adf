#include "sessions/SessionsModel.h"

#include "metrics/SessionStats.h"
#include "sessions/SessionRegistry.h"

#include <QColor>
#include <QLocale>
#include <QPainter>
#include <QPixmap>
#include <QPixmapCache>
#include <limits>

namespace sandbar::ui {

namespace {

// Marks a session an agent created, in the name column: a small "AI" tag, drawn once (kept in
// QPixmapCache rather than a static, which would outlive the application).
QPixmap agentBadge()
{
    const QString key = QStringLiteral("sandbar-agent-badge");
    QPixmap cached;
    if (QPixmapCache::find(key, &cached))
        return cached;
    const QPixmap badge = [] {
        QPixmap pm(22, 14);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0x6a, 0x4c, 0x93));
        p.drawRoundedRect(QRectF(0.5, 0.5, 21, 13), 3, 3);
        QFont f = p.font();
        f.setPixelSize(9);
        f.setBold(true);
        p.setFont(f);
        p.setPen(Qt::white);
        p.drawText(QRectF(0, 0, 22, 14), Qt::AlignCenter, QStringLiteral("AI"));
        return pm;
    }();
    QPixmapCache::insert(key, badge);
    return badge;
}

constexpr qint64 kTtlWarnSeconds = 5 * 60;

// What the table shows of a session; rawJson and endpoints change without showing.
bool sameShown(const SessionInfo &a, const SessionInfo &b)
{
    return a.name == b.name && a.state == b.state && a.asleep == b.asleep && a.statusText == b.statusText &&
           a.errorMessage == b.errorMessage && a.image == b.image && a.created == b.created &&
           a.expiresAt == b.expiresAt && a.ttlSeconds == b.ttlSeconds && a.cpus == b.cpus &&
           a.memoryBytes == b.memoryBytes && a.gpus == b.gpus && a.provider == b.provider && a.owned == b.owned;
}

bool hasUptime(const SessionInfo &s)
{
    return s.created.isValid() && (s.state == SessionState::Running || s.state == SessionState::Paused);
}

template <typename T>
int order(const T &a, const T &b)
{
    return a < b ? -1 : (b < a ? 1 : 0);
}

} // namespace

SessionsModel::SessionsModel(SessionRegistry &registry, QObject *parent)
    : QAbstractTableModel(parent)
    , m_registry(registry)
    , m_clock(&registry.clock())
{
    connect(&m_registry, &SessionRegistry::sessionsChanged, this, &SessionsModel::reload);
    connect(&m_registry, &SessionRegistry::accountStatusChanged, this, &SessionsModel::accountStatusChanged);
    reload();
}

// Rows of an account that cannot be reached keep what was last seen, but say so: a session
// shown as plainly running while its engine is dead would be a claim nobody checked.
void SessionsModel::accountStatusChanged(const QString &account)
{
    for (int row = 0; row < m_sessions.size(); ++row) {
        if (m_sessions.at(row).account == account)
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
}

bool SessionsModel::unreachable(const SessionInfo &s) const
{
    return !m_orphanRefs.contains(s.ref()) && m_registry.status(s.account).state == AccountStatus::State::Failed;
}

void SessionsModel::setAccountFilter(const QString &account)
{
    if (m_account == account)
        return;
    beginResetModel();
    m_account = account;
    m_sessions.clear();
    m_haystacks.clear();
    m_labelTexts.clear();
    m_rowByRef.clear();
    endResetModel();
    reload();
}

void SessionsModel::reload()
{
    QList<SessionInfo> fresh;
    for (const auto &s : m_registry.sessions()) {
        if (m_account.isEmpty() || s.account == m_account)
            fresh << s;
    }
    m_orphanRefs.clear();
    for (auto s : m_registry.orphans()) {
        if (m_account.isEmpty() || s.account == m_account) {
            s.errorMessage = tr("Orphan: made by an account (%1) that this Sandbar does not have")
                                 .arg(s.labels.value(QLatin1String(labels::Account)));
            s.owned = false;
            m_orphanRefs.insert(s.ref());
            fresh << s;
        }
    }
    apply(std::move(fresh));
}

void SessionsModel::setSessions(const QList<SessionInfo> &list)
{
    m_orphanRefs.clear();
    apply(list);
}

void SessionsModel::reindex()
{
    m_rowByRef.clear();
    m_rowByRef.reserve(m_sessions.size());
    for (int i = 0; i < m_sessions.size(); ++i)
        m_rowByRef.insert(m_sessions.at(i).ref(), i);
}

// Updates in place, in contiguous runs: a periodic refresh must not reset the view
// (selection, scroll), and the filter above maps a run at once rather than row by row.
void SessionsModel::apply(QList<SessionInfo> fresh)
{
    QHash<QString, int> freshRows;
    freshRows.reserve(fresh.size());
    for (int i = 0; i < fresh.size(); ++i)
        freshRows.insert(fresh.at(i).ref(), i);

    for (int last = int(m_sessions.size()) - 1; last >= 0;) {
        if (freshRows.contains(m_sessions.at(last).ref())) {
            --last;
            continue;
        }
        int first = last;
        while (first > 0 && !freshRows.contains(m_sessions.at(first - 1).ref()))
            --first;
        beginRemoveRows({}, first, last);
        m_sessions.remove(first, last - first + 1);
        m_haystacks.remove(first, last - first + 1);
        m_labelTexts.remove(first, last - first + 1);
        endRemoveRows();
        last = first - 1;
    }
    reindex();

    QList<int> added;
    int changedFrom = -1;
    int changedTo = -1;
    const auto flush = [&] {
        if (changedFrom >= 0)
            Q_EMIT dataChanged(index(changedFrom, 0), index(changedTo, ColumnCount - 1));
        changedFrom = changedTo = -1;
    };
    for (int i = 0; i < fresh.size(); ++i) {
        const SessionInfo &s = fresh.at(i);
        const int at = m_rowByRef.value(s.ref(), -1);
        if (at < 0) {
            added << i;
            continue;
        }
        const bool orphan = m_orphanRefs.contains(s.ref());
        if (sameShown(m_sessions.at(at), s)) {
            m_sessions[at] = s; // keeps details such as endpoints current
            continue;
        }
        m_sessions[at] = s;
        m_haystacks[at] = makeHaystack(s, orphan);
        m_labelTexts[at] = labelsText(s);
        if (changedFrom >= 0 && at == changedTo + 1) {
            changedTo = at;
        } else {
            flush();
            changedFrom = changedTo = at;
        }
    }
    flush();
    if (!added.isEmpty()) {
        const int from = int(m_sessions.size());
        beginInsertRows({}, from, from + int(added.size()) - 1);
        for (int i : std::as_const(added)) {
            const SessionInfo &s = fresh.at(i);
            m_haystacks << makeHaystack(s, m_orphanRefs.contains(s.ref()));
            m_labelTexts << labelsText(s);
            m_rowByRef.insert(s.ref(), int(m_sessions.size()));
            m_sessions << s;
        }
        endInsertRows();
    }

    const bool hadGpus = hasData(Gpu);
    const bool hadLabels = hasData(Labels);
    m_gpuRows = 0;
    m_labelRows = 0;
    for (const auto &s : std::as_const(m_sessions)) {
        m_gpuRows += s.gpus != 0 ? 1 : 0;
        m_labelRows += labels::personsOnly(s.labels).isEmpty() ? 0 : 1;
    }
    if (hadGpus != hasData(Gpu) || hadLabels != hasData(Labels))
        Q_EMIT optionalColumnsChanged();
}

bool SessionsModel::hasData(int column) const
{
    if (column == Gpu)
        return m_gpuRows > 0;
    if (column == Labels)
        return m_labelRows > 0;
    return true;
}

QString SessionsModel::labelsText(const SessionInfo &s)
{
    QStringList parts;
    const QMap<QString, QString> mine = labels::personsOnly(s.labels);
    for (auto it = mine.cbegin(); it != mine.cend(); ++it)
        parts << (it.value().isEmpty() ? it.key() : it.key() + QLatin1Char('=') + it.value());
    return parts.join(QLatin1String(", "));
}

QString SessionsModel::stateText(const SessionInfo &s, bool orphan) const
{
    if (orphan)
        return tr("%1 (orphan)").arg(sessionStateName(s.state));
    // A sleeping sprite runs nothing and pays no compute until something wakes it.
    return s.asleep ? tr("%1 (asleep)").arg(sessionStateName(s.state)) : sessionStateName(s.state);
}

QString SessionsModel::makeHaystack(const SessionInfo &s, bool orphan) const
{
    const QLocale locale;
    const QChar sep = QLatin1Char('\n');
    QString h;
    h.reserve(160);
    h += s.name;
    h += sep + s.id + sep + s.account + sep + s.provider + sep + stateText(s, orphan) + sep + s.image;
    if (s.gpus != 0)
        h += sep + QString::number(s.gpus);
    if (s.created.isValid())
        h += sep + locale.toString(s.created.toLocalTime(), QLocale::ShortFormat);
    if (const QString l = labelsText(s); !l.isEmpty())
        h += sep + l;
    return h.toLower();
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
    // A self-hosted session costs its share of the host's price, when the account gives one.
    if (c.selfHosted && c.costSoFarUsd <= 0 && c.usdPerHour <= 0)
        return tr("$0 · self-hosted");
    const QString soFar = QStringLiteral("$") + locale.toString(c.costSoFarUsd, 'f', c.costSoFarUsd < 10 ? 3 : 2);
    if (!c.running)
        return soFar;
    return tr("%1 · $%2/h").arg(soFar, locale.toString(c.usdPerHour, 'f', 3));
}

QString SessionsModel::ttlText(const QDateTime &expiresAt, const QDateTime &now)
{
    if (!expiresAt.isValid())
        return QStringLiteral("—");
    const qint64 left = now.secsTo(expiresAt);
    if (left <= 0)
        return tr("expired");
    if (left < 60)
        return tr("< 1 min");
    return durationText(left);
}

QString SessionsModel::durationText(qint64 seconds)
{
    if (seconds < 60)
        return tr("%1 s").arg(qMax<qint64>(0, seconds));
    const qint64 minutes = seconds / 60;
    if (minutes < 60)
        return tr("%1 min").arg(minutes);
    if (minutes < 24 * 60)
        return tr("%1 h %2 min").arg(minutes / 60).arg(minutes % 60, 2, 10, QLatin1Char('0'));
    return tr("%1 d %2 h").arg(minutes / (24 * 60)).arg((minutes / 60) % 24);
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

double SessionsModel::liveFigure(const SessionInfo &s, int column) const
{
    if (m_stats) {
        const metrics::SessionStats *st = m_stats(s.ref());
        if (!st || !st->history().latest())
            return -1;
        const StatsSample &latest = *st->history().latest();
        if (column == Cpu)
            return latest.cpuPercent.value_or(-1);
        return latest.memoryUsedBytes ? double(*latest.memoryUsedBytes) : -1;
    }
    if (column == Cpu)
        return s.cpus.value_or(-1);
    return s.memoryBytes ? double(*s.memoryBytes) : -1;
}

QVariant SessionsModel::sortValue(const SessionInfo &s, int column) const
{
    switch (column) {
    case Name: return s.name.isEmpty() ? s.id : s.name;
    case Account: return s.account;
    case Provider: return s.provider;
    case State: return int(s.state);
    case Image: return s.image;
    case Cpu:
    case Memory: return liveFigure(s, column);
    case Gpu: return s.gpus < 0 ? std::numeric_limits<int>::max() : s.gpus;
    case Uptime: return hasUptime(s) ? -s.created.toMSecsSinceEpoch() : std::numeric_limits<qint64>::min();
    case TtlLeft: return s.expiresAt.isValid() ? s.expiresAt.toMSecsSinceEpoch() : std::numeric_limits<qint64>::max();
    case Cost: return m_meter ? m_meter->cost(s.ref()).costSoFarUsd : 0.0;
    case Created: return s.created.isValid() ? s.created.toMSecsSinceEpoch() : qint64(0);
    case Ref: return s.ref();
    case Labels: return labelsText(s);
    default: return {};
    }
}

int SessionsModel::compareRows(int a, int b, int column) const
{
    const SessionInfo &x = m_sessions.at(a);
    const SessionInfo &y = m_sessions.at(b);
    switch (column) {
    case Name:
        return QString::compare(x.name.isEmpty() ? x.id : x.name, y.name.isEmpty() ? y.id : y.name,
                                Qt::CaseInsensitive);
    case Account: return QString::compare(x.account, y.account, Qt::CaseInsensitive);
    case Provider: return QString::compare(x.provider, y.provider, Qt::CaseInsensitive);
    case Image: return QString::compare(x.image, y.image, Qt::CaseInsensitive);
    case Labels: return QString::compare(m_labelTexts.at(a), m_labelTexts.at(b), Qt::CaseInsensitive);
    case State: return order(int(x.state), int(y.state));
    case Ref: {
        const int byAccount = QString::compare(x.account, y.account, Qt::CaseInsensitive);
        return byAccount ? byAccount : QString::compare(x.id, y.id, Qt::CaseInsensitive);
    }
    case Cpu:
    case Memory: return order(liveFigure(x, column), liveFigure(y, column));
    case Gpu:
    case Uptime:
    case TtlLeft:
    case Created: return order(sortValue(x, column).toLongLong(), sortValue(y, column).toLongLong());
    case Cost: return order(sortValue(x, column).toDouble(), sortValue(y, column).toDouble());
    default: return 0;
    }
}

QVariant SessionsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_sessions.size())
        return {};
    const SessionInfo &s = m_sessions.at(index.row());
    const int column = index.column();
    switch (role) {
    case SessionRole: return QVariant::fromValue(s);
    case RefRole: return s.ref();
    case SortRole: return sortValue(s, column);
    default: break;
    }
    const bool orphan = m_orphanRefs.contains(s.ref());
    if (role == Qt::ToolTipRole) {
        if (column == Cost && m_meter) {
            const SessionCost c = m_meter->cost(s.ref());
            return c.reason.isEmpty() ? tr("Billed for %1 minutes so far").arg(qRound(c.billedSeconds / 60)) : c.reason;
        }
        if (column == TtlLeft && s.expiresAt.isValid())
            return tr("Expires %1").arg(QLocale().toString(s.expiresAt.toLocalTime(), QLocale::LongFormat));
        QString why = s.errorMessage.isEmpty() ? s.statusText : s.errorMessage;
        if (unreachable(s)) {
            const QString lost =
                tr("Account %1 cannot be reached (%2). Last seen: %3.")
                    .arg(s.account, m_registry.status(s.account).lastError.message, stateText(s, orphan));
            why = why.isEmpty() ? lost : lost + QLatin1Char('\n') + why;
        }
        if (column == Name) {
            QString tip = why.isEmpty() ? s.ref() : s.ref() + QLatin1Char('\n') + why;
            if (const QString agent = s.labels.value(QLatin1String(labels::Agent)); !agent.isEmpty())
                tip += QLatin1Char('\n') + tr("Created by the agent %1 (through Sandbar's MCP server)").arg(agent);
            return tip;
        }
        if (column == Labels && why.isEmpty())
            return m_labelTexts.at(index.row()); // the whole list, which the cell may elide
        return why;
    }
    if (role == Qt::DecorationRole && column == Name && s.labels.contains(QLatin1String(labels::Agent)))
        return agentBadge();
    if (role == Qt::ForegroundRole && column == State) {
        if (unreachable(s))
            return QColor(0x80, 0x80, 0x80);
        switch (s.state) {
        case SessionState::Running: return QColor(0x2e, 0x8b, 0x57);
        case SessionState::Error: return QColor(0xc0, 0x39, 0x2b);
        case SessionState::Paused: return QColor(0xb9, 0x77, 0x0e);
        default: return {};
        }
    }
    if (role == Qt::ForegroundRole && column == TtlLeft && s.expiresAt.isValid() &&
        m_clock->currentDateTimeUtc().secsTo(s.expiresAt) < kTtlWarnSeconds)
        return QColor(0xc0, 0x39, 0x2b);
    if (role == Qt::TextAlignmentRole) {
        if (column == Gpu || column == Uptime || column == TtlLeft || column == Cost)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    const QLocale locale;
    switch (column) {
    case Name: return s.name.isEmpty() ? s.id.left(12) : s.name;
    case Account: return s.account;
    case Provider: return s.provider;
    case State: return unreachable(s) ? tr("unreachable") : stateText(s, orphan);
    case Image: return s.image;
    // Limits, painted when the sparkline has no samples (or no collector is attached).
    case Cpu: return s.cpus ? tr("%1 CPU").arg(locale.toString(*s.cpus)) : QString();
    case Memory: return s.memoryBytes ? locale.formattedDataSize(*s.memoryBytes) : QString();
    case Gpu: return s.gpus < 0 ? tr("all") : (s.gpus > 0 ? QString::number(s.gpus) : QString());
    case Uptime:
        return hasUptime(s) ? durationText(s.created.secsTo(m_clock->currentDateTimeUtc())) : QStringLiteral("—");
    case TtlLeft: return ttlText(s.expiresAt, m_clock->currentDateTimeUtc());
    case Cost: return m_meter ? costText(m_meter->cost(s.ref())) : QString();
    case Created:
        return s.created.isValid() ? locale.toString(s.created.toLocalTime(), QLocale::ShortFormat) : QString();
    case Ref: return s.ref();
    case Labels: return m_labelTexts.at(index.row());
    default: return {};
    }
}

QVariant SessionsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == ColumnKey) {
        static const char *const keys[] = {"name", "account", "provider", "state", "image",   "cpu", "memory",
                                           "gpu",  "uptime",  "ttl",      "cost",  "created", "ref", "labels"};
        return section >= 0 && section < ColumnCount ? QString::fromLatin1(keys[section]) : QString();
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Name");
    case Account: return tr("Account");
    case Provider: return tr("Provider");
    case State: return tr("State");
    case Image: return tr("Image");
    case Cpu: return tr("CPU");
    case Memory: return tr("Memory");
    case Gpu: return tr("GPU");
    case Uptime: return tr("Uptime");
    case TtlLeft: return tr("TTL left");
    case Cost: return tr("Cost");
    case Created: return tr("Created");
    case Ref: return tr("Session");
    case Labels: return tr("Labels");
    default: return {};
    }
}

} // namespace sandbar::ui
