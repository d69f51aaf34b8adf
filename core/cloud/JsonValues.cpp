#include "cloud/JsonValues.h"

#include "cloud/CloudTr.h"

#include <algorithm>
#include <limits>

namespace sandbar::cloud {

QDateTime parseTime(const QString &text)
{
    if (text.isEmpty())
        return {};
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid())
        t = QDateTime::fromString(text, Qt::ISODate);
    if (!t.isValid())
        t = QDateTime::fromString(QString(text).replace(QLatin1Char(' '), QLatin1Char('T')), Qt::ISODate);
    return t.isValid() ? t.toUTC() : QDateTime();
}

qint64 saturated(double d)
{
    if (!(d == d))
        return 0;
    return d >= 9.2e18    ? std::numeric_limits<qint64>::max()
           : d <= -9.2e18 ? std::numeric_limits<qint64>::min()
                          : qint64(d);
}

int saturatedInt(double d)
{
    return int(std::clamp<qint64>(saturated(d), std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

std::optional<double> number(const QJsonValue &v)
{
    if (v.isDouble())
        return v.toDouble();
    if (v.isString()) {
        bool ok = false;
        const double d = v.toString().toDouble(&ok);
        if (ok)
            return d;
    }
    return std::nullopt;
}

qint64 int64Of(const QJsonValue &v)
{
    if (v.isString()) {
        bool ok = false;
        const qint64 exact = v.toString().toLongLong(&ok);
        if (ok)
            return exact;
    }
    return saturated(number(v).value_or(0));
}

Error malformedReply(const QString &service, const QString &what, const QString &why)
{
    return makeError(ErrorCode::Unavailable, tr("%1 sent a malformed %2: %3").arg(service, what, why));
}

Result<QJsonDocument> parseReply(const QByteArray &json, const QString &service, const QString &what)
{
    if (json.trimmed().isEmpty())
        return malformedReply(service, what, tr("the reply is empty"));
    QJsonParseError err{};
    QJsonDocument doc = QJsonDocument::fromJson(json, &err);
    if (err.error != QJsonParseError::NoError || doc.isNull())
        return malformedReply(service, what,
                              err.error != QJsonParseError::NoError ? err.errorString() : tr("it is not JSON"));
    return doc;
}

QList<QByteArray> takeLines(QByteArray *buffer)
{
    QList<QByteArray> lines;
    qsizetype from = 0;
    for (qsizetype nl = buffer->indexOf('\n'); nl >= 0; nl = buffer->indexOf('\n', from)) {
        const QByteArray line = buffer->mid(from, nl - from).trimmed();
        if (!line.isEmpty())
            lines.append(line);
        from = nl + 1;
    }
    buffer->remove(0, from);
    return lines;
}

} // namespace sandbar::cloud
