#pragma once

#include "mcp/AgentHub.h"

#include <QAbstractTableModel>

namespace sandbar::ui {

// The hub's recent calls as a table, newest first, following the hub as calls start and end.
class AgentCallsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, ClientColumn, ToolColumn, ArgumentsColumn, OutcomeColumn, DurationColumn, ColumnCount };
    // Arguments are shown as compact JSON cut to this many characters (the tooltip has them all).
    static constexpr int ArgumentsChars = 160;

    explicit AgentCallsModel(mcp::AgentHub &hub, QObject *parent = nullptr);

    const mcp::CallRecord &record(int row) const { return m_rows.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString outcomeText(const mcp::CallRecord &r);
    static QString durationText(qint64 ms);

private:
    void added(const mcp::CallRecord &r);
    void updated(const mcp::CallRecord &r);

    QList<mcp::CallRecord> m_rows; // newest first
};

// Compact JSON of arguments, cut at maxChars with an ellipsis; and the full, indented form for
// a tooltip (itself cut at a few thousand characters).
QString compactArguments(const QJsonObject &arguments, int maxChars);
QString fullArguments(const QJsonObject &arguments);
// "claude-code 1.2.3", or "unnamed client".
QString clientLabel(const mcp::AgentClient &client);

} // namespace sandbar::ui
