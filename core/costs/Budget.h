#pragma once

#include <QDate>
#include <QList>
#include <QString>

namespace sandbar::costs {

// A monthly spending limit for one account, in USD.
struct Budget {
    QString account;
    double monthlyUsd = 0;    // <= 0: no budget
    bool stopAtLimit = false; // stop the account's sessions at 100 %
};

// The percentages at which the user is told, lowest first.
inline constexpr int BudgetLevels[] = {80, 100};

struct BudgetDecision {
    QList<int> crossed; // levels newly reached, lowest first
    bool overLimit = false;
    bool stop = false; // 100 % newly crossed and the user asked to stop there
    double percent = 0;
};

// Pure: what crossing means given this month's spend and the levels already announced
// this month. Jumping past several levels at once announces each, lowest first.
BudgetDecision evaluateBudget(const Budget &budget, double monthSpendUsd, const QList<int> &alreadyFired);

// "yyyy-MM": the key of a month in the ledger.
QString monthKey(const QDate &anyDayInMonth);

} // namespace sandbar::costs
