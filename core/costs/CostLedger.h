#pragma once

#include "audit/SqliteFile.h"
#include "common/Result.h"
#include "costs/Budget.h"

#include <QDate>
#include <QList>
#include <QMap>
#include <QString>
#include <optional>

namespace sandbar::costs {

// Spend per account per day, monthly budgets and the budget alerts already given, in
// <configDir>/ledger.sqlite (a file of its own: the audit log stays append-only, while
// a meter's row is updated in place). Kept across restarts; shared by the GUI and
// sandbarctl (WAL mode, busy timeout). Days are the caller's calendar days (local).
class CostLedger
{
public:
    static QString fileName() { return QStringLiteral("ledger.sqlite"); }

    explicit CostLedger(const QString &configDir);

    bool isOpen() const { return m_file.isOpen(); }
    const QString &path() const { return m_path; }
    const QString &openWarning() const { return m_file.warning(); }
    const Error &openError() const { return m_openError; }

    // Adds usd to account's spend on day (a one-off charge). Not idempotent: a meter
    // that ticks uses recordRunning.
    VoidResult addSpend(const QString &account, const QDate &day, double usd);

    // A ticking meter: usdSoFar is the session's whole cost since it was created. The
    // ledger keeps the highest value seen per session and books only the increase, on
    // day; the same or a lower value (a restart re-reporting, a second process) adds
    // nothing, so nothing is counted twice.
    VoidResult recordRunning(const QString &account, const QString &sessionId, double usdSoFar, const QDate &day);

    Result<double> spend(const QString &account, const QDate &anyDayInMonth);
    // Days from..to inclusive that have spend; days without spend are absent.
    Result<QMap<QDate, double>> spendByDay(const QString &account, const QDate &from, const QDate &to);

    // Setting a budget forgets the alerts already given for it: the new amount is
    // announced afresh.
    VoidResult setBudget(const Budget &budget);
    VoidResult removeBudget(const QString &account);
    Result<std::optional<Budget>> budget(const QString &account);
    Result<QList<Budget>> budgets();

    // The levels (80, 100) already announced for account in the month of anyDayInMonth.
    Result<QList<int>> firedLevels(const QString &account, const QDate &anyDayInMonth);
    VoidResult markFired(const QString &account, const QDate &anyDayInMonth, int level);

private:
    VoidResult ensureOpen();

    QString m_path;
    audit::SqliteFile m_file;
    Error m_openError;
};

} // namespace sandbar::costs
