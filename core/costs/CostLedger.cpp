#include "costs/CostLedger.h"

#include <QDir>
#include <QSqlError>
#include <QSqlQuery>

namespace sandbar::costs {

using audit::execSql;

namespace {

constexpr int BusyTimeoutMs = 1000;
constexpr double Noise = 1e-9; // an increase below this is rounding, not spend

QStringList ledgerSchema()
{
    return {
        QStringLiteral("CREATE TABLE IF NOT EXISTS spend (account TEXT NOT NULL, day TEXT NOT NULL, "
                       "source TEXT NOT NULL, usd REAL NOT NULL, PRIMARY KEY (account, day, source))"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS meter (account TEXT NOT NULL, session TEXT NOT NULL, "
                       "usd_max REAL NOT NULL, PRIMARY KEY (account, session))"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS budget (account TEXT PRIMARY KEY, monthly_usd REAL NOT NULL, "
                       "stop_at_limit INTEGER NOT NULL)"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS budget_alert (account TEXT NOT NULL, month TEXT NOT NULL, "
                       "level INTEGER NOT NULL, PRIMARY KEY (account, month, level))"),
    };
}

QString dayKey(const QDate &d)
{
    return d.toString(Qt::ISODate);
}

Error failed(const QSqlQuery &q)
{
    return makeError(ErrorCode::Unavailable,
                     QCoreApplication::translate("sandbar", "Cost ledger: %1").arg(q.lastError().text()));
}

Error badArgument(const QString &what)
{
    return makeError(ErrorCode::InvalidArgument, what);
}

// Prepares and runs sql with binds; the caller reads rows from the returned query.
Result<QSqlQuery> run(QSqlDatabase &db, const QString &sql, const QVariantList &binds)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.prepare(sql))
        return failed(q);
    for (const auto &b : binds)
        q.addBindValue(b);
    if (!q.exec())
        return failed(q);
    return q;
}

} // namespace

CostLedger::CostLedger(const QString &configDir)
    : m_path(QDir(configDir).filePath(fileName()))
{
    if (auto r = m_file.open(m_path, ledgerSchema(), BusyTimeoutMs); !r.ok())
        m_openError = r.error();
}

VoidResult CostLedger::ensureOpen()
{
    if (m_file.isOpen())
        return {};
    // The first open can lose a race with the other process creating the same file, or
    // meet a full disk; each later call tries again rather than giving up for the run.
    if (auto r = m_file.open(m_path, ledgerSchema(), BusyTimeoutMs); !r.ok()) {
        m_openError = r.error();
        return r;
    }
    return {};
}

VoidResult CostLedger::addSpend(const QString &account, const QDate &day, double usd)
{
    if (auto o = ensureOpen(); !o.ok())
        return o.error();
    if (account.isEmpty() || !day.isValid() || !(usd >= 0))
        return badArgument(QStringLiteral("addSpend: account, a valid day and usd >= 0 are needed"));
    auto r = run(m_file.db(),
                 QStringLiteral("INSERT INTO spend (account, day, source, usd) VALUES (?, ?, '', ?) "
                                "ON CONFLICT (account, day, source) DO UPDATE SET usd = usd + excluded.usd"),
                 {account, dayKey(day), usd});
    if (!r.ok())
        return r.error();
    return {};
}

VoidResult CostLedger::recordRunning(const QString &account, const QString &sessionId, double usdSoFar,
                                     const QDate &day)
{
    if (auto o = ensureOpen(); !o.ok())
        return o.error();
    if (account.isEmpty() || sessionId.isEmpty() || !day.isValid() || !(usdSoFar >= 0))
        return badArgument(QStringLiteral("recordRunning: account, session, a valid day and usd >= 0 are needed"));
    QSqlDatabase &db = m_file.db();
    // IMMEDIATE: read-then-write must hold the write lock from the start, or two
    // processes could both book the same increase.
    if (auto r = execSql(db, QStringLiteral("BEGIN IMMEDIATE")); !r.ok())
        return r;
    const auto rollback = [&db](const Error &e) -> VoidResult {
        (void)execSql(db, QStringLiteral("ROLLBACK"));
        return e;
    };
    double previous = 0;
    {
        auto q = run(db, QStringLiteral("SELECT usd_max FROM meter WHERE account = ? AND session = ?"),
                     {account, sessionId});
        if (!q.ok())
            return rollback(q.error());
        if (q->next())
            previous = q->value(0).toDouble();
    }
    const double delta = usdSoFar - previous;
    if (delta > Noise) {
        auto m = run(db,
                     QStringLiteral("INSERT INTO meter (account, session, usd_max) VALUES (?, ?, ?) "
                                    "ON CONFLICT (account, session) DO UPDATE SET usd_max = excluded.usd_max"),
                     {account, sessionId, usdSoFar});
        if (!m.ok())
            return rollback(m.error());
        auto s = run(db,
                     QStringLiteral("INSERT INTO spend (account, day, source, usd) VALUES (?, ?, ?, ?) "
                                    "ON CONFLICT (account, day, source) DO UPDATE SET usd = usd + excluded.usd"),
                     {account, dayKey(day), QString(QStringLiteral("session:") + sessionId), delta});
        if (!s.ok())
            return rollback(s.error());
    }
    if (auto r = execSql(db, QStringLiteral("COMMIT")); !r.ok())
        return rollback(r.error());
    return {};
}

Result<double> CostLedger::spend(const QString &account, const QDate &anyDayInMonth)
{
    if (auto o = ensureOpen(); !o.ok())
        return o.error();
    if (!anyDayInMonth.isValid())
        return badArgument(QStringLiteral("spend: invalid month"));
    const QDate first(anyDayInMonth.year(), anyDayInMonth.month(), 1);
    const QDate last = first.addMonths(1).addDays(-1);
    auto q = run(m_file.db(),
                 QStringLiteral("SELECT coalesce(sum(usd), 0) FROM spend WHERE account = ? AND day BETWEEN ? AND ?"),
                 {account, dayKey(first), dayKey(last)});
    if (!q.ok())
        return q.error();
    return q->next() ? q->value(0).toDouble() : 0.0;
}

Result<QMap<QDate, double>> CostLedger::spendByDay(const QString &account, const QDate &from, const QDate &to)
{
    if (auto o = ensureOpen(); !o.ok())
        return o.error();
    if (!from.isValid() || !to.isValid())
        return badArgument(QStringLiteral("spendByDay: invalid range"));
    auto q =
        run(m_file.db(),
            QStringLiteral(
                "SELECT day, sum(usd) FROM spend WHERE account = ? AND day BETWEEN ? AND ? GROUP BY day ORDER BY day"),
            {account, dayKey(from), dayKey(to)});
    if (!q.ok())
        return q.error();
    QMap<QDate, double> out;
    while (q->next())
        out.insert(QDate::fromString(q->value(0).toString(), Qt::ISODate), q->value(1).toDouble());
    return out;
}

VoidResult CostLedger::setBudget(const Budget &b)
{
    if (auto o = ensureOpen(); !o.ok())
        return o.error();
    if (b.account.isEmpty() || !(b.monthlyUsd >= 0))
        return badArgument(QStringLiteral("setBudget: account and an amount >= 0 are needed"));
    QSqlDatabase &db = m_file.db();
    if (auto r = execSql(db, QStringLiteral("BEGIN IMMEDIATE")); !r.ok())
        return r;
    auto a = run(db,
                 QStringLiteral("INSERT INTO budget (account, monthly_usd, stop_at_limit) VALUES (?, ?, ?) "
                                "ON CONFLICT (account) DO UPDATE SET monthly_usd = excluded.monthly_usd, "
                                "stop_at_limit = excluded.stop_at_limit"),
                 {b.account, b.monthlyUsd, b.stopAtLimit ? 1 : 0});
    auto c = a.ok() ? run(db, QStringLiteral("DELETE FROM budget_alert WHERE account = ?"), {b.account}) : a;
    if (!c.ok()) {
        (void)execSql(db, QStringLiteral("ROLLBACK"));
        return c.error();
    }
    return execSql(db, QStringLiteral("COMMIT"));
}

VoidResult CostLedger::removeBudget(const QString &account)
{
    if (auto o = ensureOpen(); !o.ok())
        return o.error();
    auto q = run(m_file.db(), QStringLiteral("DELETE FROM budget WHERE account = ?"), {account});
    if (!q.ok())
        return q.error();
    return {};
}

Result<std::optional<Budget>> CostLedger::budget(const QString &account)
{
    auto all = budgets();
    if (!all.ok())
        return all.error();
    for (const auto &b : all.value()) {
        if (b.account == account)
            return std::optional<Budget>(b);
    }
    return std::optional<Budget>();
}

Result<QList<Budget>> CostLedger::budgets()
{
    if (auto o = ensureOpen(); !o.ok())
        return o.error();
    auto q =
        run(m_file.db(), QStringLiteral("SELECT account, monthly_usd, stop_at_limit FROM budget ORDER BY account"), {});
    if (!q.ok())
        return q.error();
    QList<Budget> out;
    while (q->next())
        out << Budget{q->value(0).toString(), q->value(1).toDouble(), q->value(2).toInt() != 0};
    return out;
}

Result<QList<int>> CostLedger::firedLevels(const QString &account, const QDate &anyDayInMonth)
{
    if (auto o = ensureOpen(); !o.ok())
        return o.error();
    auto q = run(m_file.db(),
                 QStringLiteral("SELECT level FROM budget_alert WHERE account = ? AND month = ? ORDER BY level"),
                 {account, monthKey(anyDayInMonth)});
    if (!q.ok())
        return q.error();
    QList<int> out;
    while (q->next())
        out << q->value(0).toInt();
    return out;
}

VoidResult CostLedger::markFired(const QString &account, const QDate &anyDayInMonth, int level)
{
    if (auto o = ensureOpen(); !o.ok())
        return o.error();
    auto q =
        run(m_file.db(), QStringLiteral("INSERT OR IGNORE INTO budget_alert (account, month, level) VALUES (?, ?, ?)"),
            {account, monthKey(anyDayInMonth), level});
    if (!q.ok())
        return q.error();
    return {};
}

} // namespace sandbar::costs
