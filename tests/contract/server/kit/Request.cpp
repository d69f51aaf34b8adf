#include "Request.h"

#include <QFile>
#include <QJsonParseError>

namespace contract {

QByteArray Request::header(QByteArrayView name) const
{
    for (const auto &h : headers) {
        if (QByteArrayView(h.first).compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

bool Request::hasHeader(QByteArrayView name) const
{
    for (const auto &h : headers) {
        if (QByteArrayView(h.first).compare(name, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

QString Request::queryValue(const QString &key) const
{
    return query.queryItemValue(key, QUrl::FullyDecoded);
}

QByteArray Request::mediaType() const
{
    QByteArray type = header("content-type");
    const int semi = type.indexOf(';');
    if (semi >= 0)
        type.truncate(semi);
    return type.trimmed().toLower();
}

QByteArray Request::contentTypeParam(QByteArrayView name) const
{
    const QList<QByteArray> parts = header("content-type").split(';');
    for (int i = 1; i < parts.size(); ++i) {
        const QByteArray part = parts.at(i).trimmed();
        const int eq = part.indexOf('=');
        if (eq < 0 || QByteArrayView(part.left(eq).trimmed()).compare(name, Qt::CaseInsensitive) != 0)
            continue;
        QByteArray value = part.mid(eq + 1).trimmed();
        if (value.size() >= 2 && value.startsWith('"') && value.endsWith('"'))
            value = value.mid(1, value.size() - 2);
        return value;
    }
    return {};
}

QByteArray Request::readBody() const
{
    if (bodyFile.isEmpty())
        return body;
    QFile file(bodyFile);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

bool Request::json(QJsonDocument *out, QString *error) const
{
    QJsonParseError parseError;
    *out = QJsonDocument::fromJson(readBody(), &parseError);
    if (parseError.error != QJsonParseError::NoError || out->isNull()) {
        if (error)
            *error = parseError.errorString();
        return false;
    }
    return true;
}

} // namespace contract
