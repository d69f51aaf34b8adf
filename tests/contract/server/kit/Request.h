#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonDocument>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrlQuery>

namespace contract {

// One parsed HTTP/1.1 request as a route handler sees it. Bodies up to
// Request::kMemoryLimit stay in `body`; larger ones are spooled to `bodyFile`
// (deleted with the connection) so a 64 MiB upload is never whole in memory.
struct Request {
    static constexpr qint64 kMemoryLimit = 4 * 1024 * 1024;

    QByteArray method;                            // upper case as sent
    QByteArray target;                            // the request target as sent (path + query)
    QString path;                                 // percent-decoded path, no query
    QUrlQuery query;                              // decoded query (QUrl::FullyDecoded on lookup)
    QList<QPair<QByteArray, QByteArray>> headers; // in order, names as sent
    QByteArray body;                              // the body when kept in memory
    QString bodyFile;                             // the spooled body when larger than kMemoryLimit (body empty)
    qint64 bodySize = 0;
    QHash<QString, QString> params; // captured {name} segments of the route pattern
    bool tls = false;
    quint16 localPort = 0;

    // Case-insensitive; the first value, or empty.
    QByteArray header(QByteArrayView name) const;
    bool hasHeader(QByteArrayView name) const;
    QString param(const QString &name) const { return params.value(name); }
    QString queryValue(const QString &key) const;
    QByteArray host() const { return header("host"); }
    // The media type, lower case, without parameters ("application/json").
    QByteArray mediaType() const;
    // A parameter of Content-Type, e.g. contentTypeParam("boundary").
    QByteArray contentTypeParam(QByteArrayView name) const;
    // The whole body, from memory or the spool file (callers only use it for small bodies).
    QByteArray readBody() const;
    // Parses the body as JSON; false on empty/invalid bodies.
    bool json(QJsonDocument *out, QString *error = nullptr) const;
};

} // namespace contract
