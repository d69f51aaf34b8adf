#pragma once

#include "common/Result.h"
#include "costs/Budget.h"

#include <QDate>
#include <QObject>
#include <QSet>
#include <QString>

namespace sandbar::costs {

class CostLedger;

// Turns this month's spend into alerts: threshold(account, 80) and (account, 100) once
// per account per month (remembered in the ledger, so a restart does not repeat them),
// and stopRequested(account) when 100 % is reached and the budget says to stop there.
// stopRequested is also emitted on the first check of a run that finds the account
// already over its limit, so sessions that outlived a restart are stopped too.
class BudgetWatcher : public QObject
{
    Q_OBJECT
public:
    explicit BudgetWatcher(CostLedger &ledger, QObject *parent = nullptr);

    // Evaluates account with monthSpendUsd as its spend in today's month. The watcher reads
    // no clock: today is the caller's (the cost meter's clock), so a test names the month.
    VoidResult update(const QString &account, double monthSpendUsd, const QDate &today);
    // The same, reading the month's spend from the ledger.
    VoidResult check(const QString &account, const QDate &today);
    // Every account with a budget.
    VoidResult checkAll(const QDate &today);

    // Stores budget and announces it afresh.
    VoidResult setBudget(const Budget &budget);

Q_SIGNALS:
    void threshold(const QString &account, int percent);
    void stopRequested(const QString &account);

private:
    CostLedger &m_ledger;
    QSet<QString> m_stopped; // "account|yyyy-MM" stopped during this run
};

} // namespace sandbar::costs
