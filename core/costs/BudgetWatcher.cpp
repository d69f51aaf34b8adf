#include "costs/BudgetWatcher.h"

#include "costs/CostLedger.h"

namespace sandbar::costs {

BudgetWatcher::BudgetWatcher(CostLedger &ledger, QObject *parent)
    : QObject(parent)
    , m_ledger(ledger)
{
}

VoidResult BudgetWatcher::update(const QString &account, double monthSpendUsd, const QDate &today)
{
    auto budget = m_ledger.budget(account);
    if (!budget.ok())
        return budget.error();
    if (!budget->has_value())
        return {};
    auto fired = m_ledger.firedLevels(account, today);
    if (!fired.ok())
        return fired.error();
    const BudgetDecision d = evaluateBudget(**budget, monthSpendUsd, fired.value());
    // Remember before telling: a slot that re-enters update() must not hear it twice.
    for (int level : d.crossed) {
        if (auto r = m_ledger.markFired(account, today, level); !r.ok())
            return r;
    }
    const QString key = account + QLatin1Char('|') + monthKey(today);
    const bool stop = (*budget)->stopAtLimit && d.overLimit && !m_stopped.contains(key);
    if (stop)
        m_stopped.insert(key);
    for (int level : d.crossed)
        Q_EMIT threshold(account, level);
    if (stop)
        Q_EMIT stopRequested(account);
    return {};
}

VoidResult BudgetWatcher::check(const QString &account, const QDate &today)
{
    auto spend = m_ledger.spend(account, today);
    if (!spend.ok())
        return spend.error();
    return update(account, spend.value(), today);
}

VoidResult BudgetWatcher::checkAll(const QDate &today)
{
    auto all = m_ledger.budgets();
    if (!all.ok())
        return all.error();
    for (const auto &b : all.value()) {
        if (auto r = check(b.account, today); !r.ok())
            return r;
    }
    return {};
}

VoidResult BudgetWatcher::setBudget(const Budget &budget)
{
    auto r = m_ledger.setBudget(budget);
    if (!r.ok())
        return r;
    const QString prefix = budget.account + QLatin1Char('|');
    for (auto it = m_stopped.begin(); it != m_stopped.end();) {
        if (it->startsWith(prefix))
            it = m_stopped.erase(it);
        else
            ++it;
    }
    return {};
}

} // namespace sandbar::costs
