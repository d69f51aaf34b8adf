#include "costs/Budget.h"

namespace sandbar::costs {

BudgetDecision evaluateBudget(const Budget &budget, double monthSpendUsd, const QList<int> &alreadyFired)
{
    BudgetDecision d;
    if (!(budget.monthlyUsd > 0) || !(monthSpendUsd >= 0))
        return d;
    d.percent = monthSpendUsd / budget.monthlyUsd * 100.0;
    // Spend is a sum of doubles: 79.99999999 of an 80 % line is on the line.
    constexpr double epsilon = 1e-9;
    for (int level : BudgetLevels) {
        if (d.percent + epsilon >= level && !alreadyFired.contains(level))
            d.crossed << level;
    }
    d.overLimit = d.percent + epsilon >= 100.0;
    d.stop = budget.stopAtLimit && d.crossed.contains(100);
    return d;
}

QString monthKey(const QDate &anyDayInMonth)
{
    return anyDayInMonth.toString(QStringLiteral("yyyy-MM"));
}

} // namespace sandbar::costs
