#include "audit/AuditCsv.h"

#include <QJsonDocument>

namespace sandbar::ui {

QByteArray csvField(const QString &value)
{
    QString v = value;
    // Spreadsheets run a cell that starts with one of these as a formula, and the log
    // holds text an agent chose (commands, paths, error messages): a leading ' makes
    // the cell plain text (OWASP's advice against CSV formula injection).
    static const QString formulaStarts = QStringLiteral("=+-@\t\r");
    if (!v.isEmpty() && formulaStarts.contains(v.front()))
        v.prepend(QLatin1Char('\''));
    const bool quote = v.contains(QLatin1Char(',')) || v.contains(QLatin1Char('"')) || v.contains(QLatin1Char('\n')) ||
                       v.contains(QLatin1Char('\r'));
    QByteArray out = v.toUtf8();
    if (quote) {
        out.replace('"', "\"\"");
        out.prepend('"');
        out.append('"');
    }
    return out;
}

QByteArray auditCsv(const QList<audit::AuditEntry> &rows)
{
    QByteArray out = "time,os_user,host,account,provider,session,action,outcome,error_code,error_message,detail\r\n";
    for (const auto &e : rows) {
        const QStringList fields{
            e.time.toUTC().toString(Qt::ISODateWithMs),
            e.osUser,
            e.host,
            e.account,
            e.provider,
            e.sessionId,
            e.action,
            e.ok ? QStringLiteral("ok") : QStringLiteral("error"),
            e.errorCode,
            e.errorMessage,
            e.detail.isEmpty() ? QString() : QString::fromUtf8(QJsonDocument(e.detail).toJson(QJsonDocument::Compact)),
        };
        for (qsizetype i = 0; i < fields.size(); ++i) {
            if (i > 0)
                out += ',';
            out += csvField(fields.at(i));
        }
        out += "\r\n";
    }
    return out;
}

} // namespace sandbar::ui
