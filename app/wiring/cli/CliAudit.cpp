#include "wiring/cli/CliAudit.h"

#include "audit/AuditLog.h"
#include "audit/TimeSpec.h"
#include "costs/BudgetWatcher.h"
#include "costs/CostLedger.h"
#include "wiring/cli/CliTr.h"

#include <QJsonArray>
#include <QJsonObject>
#include <cmath>

namespace sandbar::cli {

namespace {

QString usageLine()
{
    return tr("usage: audit [--since TIME] [--account NAME] [--session ID] [--action NAME] [--grep TEXT] [--limit N]");
}

} // namespace

void runAuditWithLog(Command &cmd, const QStringList &args, audit::AuditLog &log)
{
    auto parsed = parseArgs(args, optionSpecFor(u"audit"));
    if (!parsed.ok())
        return cmd.usage(parsed.message());
    if (!parsed->positional.isEmpty())
        return cmd.usage(usageLine());

    audit::AuditQuery q;
    if (parsed->has(QStringLiteral("--since"))) {
        auto since = audit::parseTimeSpec(parsed->value(QStringLiteral("--since")), QDateTime::currentDateTimeUtc());
        if (!since.ok())
            return cmd.usage(since.message());
        q.since = since.value();
    }
    q.account = parsed->value(QStringLiteral("--account"));
    q.sessionId = parsed->value(QStringLiteral("--session"));
    q.action = parsed->value(QStringLiteral("--action"));
    if (!q.action.isEmpty() && !audit::actionFromName(q.action)) {
        QStringList names;
        for (auto a : audit::allActions())
            names << audit::actionName(a);
        return cmd.usage(tr("unknown action '%1' (one of: %2)").arg(q.action, names.join(QStringLiteral(", "))));
    }
    q.text = parsed->value(QStringLiteral("--grep"));
    if (parsed->has(QStringLiteral("--limit"))) {
        bool ok = false;
        q.limit = parsed->value(QStringLiteral("--limit")).toInt(&ok);
        if (!ok || q.limit <= 0)
            return cmd.usage(tr("--limit needs a positive number"));
    }

    auto rows = log.query(q);
    if (!rows.ok())
        return cmd.fail(rows.error());

    if (cmd.json()) {
        QJsonArray arr;
        for (const auto &e : rows.value())
            arr.append(audit::entryToJson(e));
        cmd.printJson(arr);
        return cmd.finish(ExitOk);
    }
    QList<QStringList> table;
    table.reserve(rows->size());
    for (const auto &e : rows.value()) {
        table << QStringList{e.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                             e.account.isEmpty() ? QStringLiteral("-") : e.account,
                             e.sessionId.isEmpty() ? QStringLiteral("-") : e.sessionId.left(12),
                             e.action,
                             e.ok ? QStringLiteral("ok") : e.errorCode,
                             audit::entrySummary(e)};
    }
    cmd.printTable({tr("TIME"), tr("ACCOUNT"), tr("SESSION"), tr("ACTION"), tr("OUTCOME"), tr("DETAIL")}, table);
    cmd.finish(ExitOk);
}

namespace {

QJsonObject budgetToJson(const costs::Budget &b, double spend)
{
    return QJsonObject{{QStringLiteral("account"), b.account},
                       {QStringLiteral("monthly_usd"), b.monthlyUsd},
                       {QStringLiteral("stop_at_limit"), b.stopAtLimit},
                       {QStringLiteral("month_spend_usd"), spend},
                       {QStringLiteral("percent"), b.monthlyUsd > 0 ? 100.0 * spend / b.monthlyUsd : 0.0}};
}

void printBudgets(Command &cmd, costs::CostLedger &ledger, const QList<costs::Budget> &budgets)
{
    QJsonArray arr;
    QList<QStringList> rows;
    for (const auto &b : budgets) {
        const auto spend = ledger.spend(b.account, QDate::currentDate());
        if (!spend.ok())
            return cmd.fail(spend.error());
        arr.append(budgetToJson(b, spend.value()));
        rows << QStringList{
            b.account, QStringLiteral("$%1").arg(b.monthlyUsd, 0, 'f', 2),
            QStringLiteral("$%1").arg(spend.value(), 0, 'f', 2),
            QStringLiteral("%1 %").arg(b.monthlyUsd > 0 ? 100.0 * spend.value() / b.monthlyUsd : 0.0, 0, 'f', 0),
            b.stopAtLimit ? tr("stop sessions") : tr("warn")};
    }
    if (cmd.json())
        cmd.printJson(arr);
    else
        cmd.printTable({tr("ACCOUNT"), tr("MONTHLY"), tr("SPENT"), tr("USED"), tr("AT 100 %")}, rows);
    cmd.finish(ExitOk);
}

} // namespace

void runBudget(Command &cmd, const QStringList &args)
{
    auto parsed = parseArgs(args, optionSpecFor(u"budget"));
    if (!parsed.ok())
        return cmd.usage(parsed.message());
    const QStringList &pos = parsed->positional;
    if (pos.size() > 2 || (parsed->has(QStringLiteral("--stop")) && parsed->has(QStringLiteral("--no-stop"))))
        return cmd.usage(tr("usage: budget [ACCOUNT [USD|none] [--stop|--no-stop]]"));
    costs::CostLedger ledger(cmd.services().configDir);
    if (!ledger.isOpen())
        return cmd.fail(ledger.openError());
    if (pos.isEmpty()) {
        auto all = ledger.budgets();
        if (!all.ok())
            return cmd.fail(all.error());
        return printBudgets(cmd, ledger, all.value());
    }
    const QString account = pos.at(0);
    if (!cmd.services().accounts->find(account))
        return cmd.fail(makeError(ErrorCode::NotFound, tr("No account named '%1'").arg(account)));
    auto current = ledger.budget(account);
    if (!current.ok())
        return cmd.fail(current.error());
    if (pos.size() == 1) {
        if (!current->has_value())
            return cmd.fail(makeError(ErrorCode::NotFound, tr("Account '%1' has no budget").arg(account)));
        return printBudgets(cmd, ledger, {**current});
    }
    if (pos.at(1) == QLatin1String("none")) {
        if (auto r = ledger.removeBudget(account); !r.ok())
            return cmd.fail(r.error());
        return cmd.finish(ExitOk);
    }
    bool ok = false;
    const double usd = pos.at(1).toDouble(&ok);
    if (!ok || usd <= 0 || !std::isfinite(usd))
        return cmd.usage(tr("a budget is a positive amount of USD a month, or 'none'"));
    costs::Budget b{account, usd, current->has_value() && (*current)->stopAtLimit};
    if (parsed->has(QStringLiteral("--stop")))
        b.stopAtLimit = true;
    if (parsed->has(QStringLiteral("--no-stop")))
        b.stopAtLimit = false;
    costs::BudgetWatcher watcher(ledger);
    if (auto r = watcher.setBudget(b); !r.ok())
        return cmd.fail(r.error());
    printBudgets(cmd, ledger, {b});
}

} // namespace sandbar::cli
