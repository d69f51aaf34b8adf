#include "wiring/cli/CliAudit.h"

#include "audit/AuditLog.h"
#include "audit/TimeSpec.h"

#include <QJsonArray>

namespace sandbar::cli {

namespace {

QString tr(const char *s)
{
    return QCoreApplication::translate("sandbarctl", s);
}

QString usageLine()
{
    return tr("usage: audit [--since TIME] [--account NAME] [--session ID] [--action NAME] [--grep TEXT] [--limit N]");
}

} // namespace

void runAudit(Command &cmd, const QStringList &args)
{
    audit::AuditLog log(cmd.services().configDir);
    if (!log.openWarning().isEmpty())
        cmd.err(tr("sandbarctl: warning: %1").arg(log.openWarning()));
    if (!log.isOpen())
        return cmd.fail(log.openError());
    runAuditWithLog(cmd, args, log);
}

void runAuditWithLog(Command &cmd, const QStringList &args, audit::AuditLog &log)
{
    const OptionSpec spec{{},
                          {QStringLiteral("--since"), QStringLiteral("--account"), QStringLiteral("--session"),
                           QStringLiteral("--action"), QStringLiteral("--grep"), QStringLiteral("--limit")}};
    auto parsed = parseArgs(args, spec);
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

} // namespace sandbar::cli
