#include "agents/AgentCallsModel.h"

#include <QBrush>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QLocale>
#include <QPalette>

namespace sandbar::ui {

namespace {

constexpr int TooltipChars = 4000;

QString cut(const QString &text, int maxChars)
{
    if (text.size() <= maxChars)
        return text;
    return text.left(qMax(0, maxChars - 1)) + QChar(0x2026);
}

} // namespace

QString compactArguments(const QJsonObject &arguments, int maxChars)
{
    if (arguments.isEmpty())
        return QString();
    return cut(QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact)), maxChars);
}

QString fullArguments(const QJsonObject &arguments)
{
    if (arguments.isEmpty())
        return QString();
    return cut(QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Indented)).trimmed(), TooltipChars);
}

QString clientLabel(const mcp::AgentClient &client)
{
    if (client.name.isEmpty())
        return AgentCallsModel::tr("unnamed client");
    if (client.version.isEmpty())
        return client.name;
    return AgentCallsModel::tr("%1 %2", "client name, version").arg(client.name, client.version);
}

AgentCallsModel::AgentCallsModel(mcp::AgentHub &hub, QObject *parent)
    : QAbstractTableModel(parent)
{
    const QList<mcp::CallRecord> calls = hub.calls();
    m_rows.reserve(calls.size());
    for (auto it = calls.crbegin(); it != calls.crend(); ++it)
        m_rows.append(*it);
    connect(&hub, &mcp::AgentHub::callAdded, this, &AgentCallsModel::added);
    connect(&hub, &mcp::AgentHub::callUpdated, this, &AgentCallsModel::updated);
}

void AgentCallsModel::added(const mcp::CallRecord &r)
{
    beginInsertRows({}, 0, 0);
    m_rows.prepend(r);
    endInsertRows();
    if (m_rows.size() > mcp::AgentHub::kMaxCalls) {
        const int from = mcp::AgentHub::kMaxCalls;
        beginRemoveRows({}, from, int(m_rows.size()) - 1);
        m_rows.resize(from);
        endRemoveRows();
    }
}

void AgentCallsModel::updated(const mcp::CallRecord &r)
{
    // Calls end soon after they start: the row is near the top.
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows.at(row).seq == r.seq) {
            m_rows[row] = r;
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
            return;
        }
    }
}

int AgentCallsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int AgentCallsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString AgentCallsModel::outcomeText(const mcp::CallRecord &r)
{
    if (r.event.finished) {
        if (r.event.ok)
            return tr("OK");
        return r.event.message.isEmpty() ? tr("Failed") : tr("Failed: %1").arg(r.event.message);
    }
    if (r.disconnected)
        return tr("Client left before it ended");
    return tr("Running…");
}

QString AgentCallsModel::durationText(qint64 ms)
{
    if (ms < 1000)
        return tr("%1 ms").arg(ms);
    if (ms < 60000)
        return tr("%1 s").arg(QLocale().toString(double(ms) / 1000.0, 'f', ms < 10000 ? 2 : 1));
    return tr("%1 min %2 s").arg(ms / 60000).arg((ms / 1000) % 60);
}

QVariant AgentCallsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const mcp::CallRecord &r = m_rows.at(index.row());
    const int column = index.column();
    if (role == Qt::DisplayRole) {
        switch (column) {
        case TimeColumn: return QLocale().toString(r.startedAt.time(), QStringLiteral("HH:mm:ss"));
        case ClientColumn: return clientLabel(r.event.client);
        case ToolColumn: return r.event.tool;
        case ArgumentsColumn: return compactArguments(r.event.arguments, ArgumentsChars);
        case OutcomeColumn: return outcomeText(r);
        case DurationColumn: return r.event.finished ? durationText(r.event.durationMs) : QString();
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (column) {
        case TimeColumn: return QLocale().toString(r.startedAt, QLocale::LongFormat);
        case ClientColumn:
            return r.event.client.pid > 0 ? tr("%1 over %2, process %3")
                                                .arg(clientLabel(r.event.client), r.event.client.transport)
                                                .arg(r.event.client.pid)
                                          : tr("%1 over %2").arg(clientLabel(r.event.client), r.event.client.transport);
        case ArgumentsColumn: return fullArguments(r.event.arguments);
        case OutcomeColumn: return outcomeText(r);
        default: return {};
        }
    }
    if (role == Qt::FontRole && column == ArgumentsColumn)
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (role == Qt::ForegroundRole && column == OutcomeColumn && r.event.finished && !r.event.ok)
        return QBrush(QColor(0xc6, 0x28, 0x28));
    if (role == Qt::TextAlignmentRole && column == DurationColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant AgentCallsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn: return tr("Time");
    case ClientColumn: return tr("Client");
    case ToolColumn: return tr("Tool");
    case ArgumentsColumn: return tr("Arguments");
    case OutcomeColumn: return tr("Outcome");
    case DurationColumn: return tr("Duration");
    default: return {};
    }
}

} // namespace sandbar::ui
