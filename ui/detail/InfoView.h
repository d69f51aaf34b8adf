#pragma once

// The Info tab: what Sandbar knows of a session (identity, limits, labels, mounts, the ports
// forwarded to this computer) and, folded away, the provider's own description of it.

#include "providers/Capabilities.h"
#include "providers/Session.h"

#include <QWidget>

class QFormLayout;
class QGroupBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QToolButton;
class QVBoxLayout;

namespace sandbar::ui {

class InfoView : public QWidget
{
    Q_OBJECT
public:
    explicit InfoView(QWidget *parent = nullptr);

    void setSession(const SessionInfo &session, Capabilities caps);
    const SessionInfo &session() const { return m_session; }

    void setRawJsonExpanded(bool expanded);
    // A section of the session's own (its snapshots), shown after the tables; not owned before.
    void addSection(QWidget *section);
    // Indented JSON, or the text as it came when it is not JSON.
    static QString prettyJson(const QByteArray &raw);

Q_SIGNALS:
    // An endpoint's Open was pressed (after QDesktopServices::openUrl was asked).
    void endpointOpened(const QString &url);

private:
    struct TableSection {
        QGroupBox *box = nullptr;
        QTableWidget *table = nullptr;
        QLabel *empty = nullptr;
    };
    TableSection makeTable(const QString &title, const QStringList &headers, const QString &objectName);
    static void setFormRows(QFormLayout *form, const QList<QPair<QString, QString>> &rows);
    void fillEndpoints(Capabilities caps);

    SessionInfo m_session;
    QVBoxLayout *m_column = nullptr;
    QFormLayout *m_identity = nullptr;
    QFormLayout *m_resources = nullptr;
    TableSection m_labels;
    TableSection m_mounts;
    TableSection m_endpoints;
    QToolButton *m_rawToggle = nullptr;
    QPushButton *m_copyJson = nullptr;
    QPlainTextEdit *m_raw = nullptr;
    QWidget *m_rawPanel = nullptr;
};

} // namespace sandbar::ui
