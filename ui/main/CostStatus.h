#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

class QLabel;
class QSystemTrayIcon;
class QWidget;

namespace sandbar {
class CostMeter;
namespace costs {
class BudgetWatcher;
class CostLedger;
} // namespace costs
} // namespace sandbar

namespace sandbar::ui {

// The window's side of the live cost meter: a status-bar label with what runs now costs
// an hour, budget alerts as tray notifications (or in the label where no tray exists),
// and the per-account budget dialog.
class CostStatus : public QObject
{
    Q_OBJECT
public:
    CostStatus(CostMeter &meter, costs::CostLedger &ledger, costs::BudgetWatcher &watcher, QWidget *window);

    QLabel *label() const { return m_label; }
    // Opens the budget dialog for account (non-modal).
    void editBudget(const QString &account);

Q_SIGNALS:
    // Every alert shown, tray or not.
    void notified(const QString &title, const QString &text);

private:
    void refresh();
    void notify(const QString &title, const QString &text);

    CostMeter &m_meter;
    costs::CostLedger &m_ledger;
    costs::BudgetWatcher &m_watcher;
    QWidget *m_window;
    QLabel *m_label;
    QSystemTrayIcon *m_tray = nullptr;
    QString m_alert; // the last budget alert, kept in the label
};

} // namespace sandbar::ui
