#pragma once

#include "audit/AuditLog.h"

#include <QTimer>
#include <QWidget>

class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace sandbar::ui {

class AuditModel;

// Browses the audit log: a text search and filters (account, session, action, outcome,
// time range) above a sortable table, the selected entry's full JSON below, and an
// export of the rows shown to CSV. Entries the log writes while it is open appear by
// themselves. Owns nothing of the log; log must outlive it.
class AuditView : public QWidget
{
    Q_OBJECT
public:
    enum class Range { LastHour, LastDay, LastWeek, All, Custom };
    enum class Outcome { All, Ok, Failed };

    explicit AuditView(audit::AuditLog *log, QWidget *parent = nullptr);

    AuditModel *model() const { return m_model; }
    // The filter the widgets describe now, with time bounds computed against now.
    audit::AuditQuery currentQuery(const QDateTime &now = QDateTime::currentDateTimeUtc()) const;
    QString statusText() const;
    // True while typed text waits out the debounce before it becomes the model's query.
    bool isFilterPending() const { return m_debounce.isActive(); }

public Q_SLOTS:
    // Asks where to save (a dialog opened with open()), then calls exportCsv().
    void chooseExportFile();
    // Writes the rows shown, in the order shown, to path off the UI thread; answers
    // through exportFinished().
    void exportCsv(const QString &path);

Q_SIGNALS:
    // error is empty on success.
    void exportFinished(const QString &path, const QString &error);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    // The parts of the view, built by the constructor in this order.
    void buildFilters();
    void buildTable();
    void layOut();
    void connectFilters();
    void connectModel();
    void applyFilter();
    void updateAccounts(const QStringList &accounts);
    void updateRangeEditors();
    void showSelected();
    void updateStatus();

    AuditModel *m_model;
    QLineEdit *m_search;
    QComboBox *m_account;
    QLineEdit *m_session;
    QComboBox *m_action;
    QComboBox *m_outcome;
    QComboBox *m_range;
    QDateTimeEdit *m_from;
    QDateTimeEdit *m_to;
    QPushButton *m_export;
    QTableView *m_table;
    QPlainTextEdit *m_detail;
    QLabel *m_status;
    QTimer m_debounce;
    qint64 m_selectedId = -1;
    QString m_exportNote;
};

} // namespace sandbar::ui
