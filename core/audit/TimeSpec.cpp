#include "audit/TimeSpec.h"

#include <QRegularExpression>

namespace sandbar::audit {

namespace {

Error invalid(const QString &text)
{
    return makeError(ErrorCode::InvalidArgument,
                     QCoreApplication::translate("sandbar", "'%1' is not a time: use ISO-8601 (2026-11-29T10:00Z) or "
                                                            "an age such as 30m, 2h or 7d")
                         .arg(text));
}

} // namespace

Result<QDateTime> parseTimeSpec(const QString &rawText, const QDateTime &now)
{
    const QString text = rawText.trimmed();
    if (text.isEmpty())
        return invalid(rawText);

    static const QRegularExpression relative(QStringLiteral("^(\\d{1,9})\\s*([smhdw])$"),
                                             QRegularExpression::CaseInsensitiveOption);
    if (const auto m = relative.match(text); m.hasMatch()) {
        const qint64 n = m.captured(1).toLongLong();
        const QChar unit = m.captured(2).at(0).toLower();
        qint64 seconds = n;
        if (unit == QLatin1Char('m'))
            seconds = n * 60;
        else if (unit == QLatin1Char('h'))
            seconds = n * 3600;
        else if (unit == QLatin1Char('d'))
            seconds = n * 86400;
        else if (unit == QLatin1Char('w'))
            seconds = n * 7 * 86400;
        return now.toUTC().addSecs(-seconds);
    }

    // Qt's ISO parser accepts a lot of near misses ("2026-1-1"); insist on the shape first.
    static const QRegularExpression iso(QStringLiteral(
        "^\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,3})?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?$"));
    if (!iso.match(text).hasMatch())
        return invalid(rawText);
    if (text.size() == 10) {
        const QDate d = QDate::fromString(text, Qt::ISODate);
        if (!d.isValid())
            return invalid(rawText);
        return QDateTime(d, QTime(0, 0), Qt::LocalTime).toUTC();
    }
    QString normalized = text;
    normalized[10] = QLatin1Char('T');
    const QDateTime t = QDateTime::fromString(normalized, Qt::ISODateWithMs);
    if (!t.isValid())
        return invalid(rawText);
    return t.toUTC();
}

} // namespace sandbar::audit
