#pragma once

#include <QByteArray>
#include <QIODevice>
#include <QList>
#include <QPair>
#include <QString>
#include <functional>

namespace contract {

// One part's head in a multipart/form-data body.
struct MultipartPart {
    QString name;     // form field name
    QString fileName; // filename= when given
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray header(QByteArrayView name) const;
};

// Streams a multipart/form-data body from `in` (memory or a spool file) in bounded
// chunks. For each part `sink` is asked for a device to write the part's bytes to
// (return nullptr to skip the part); the device is not owned. `done` runs after each
// part's last byte. Memory use is bounded by the chunk size, whatever the part size.
class MultipartReader
{
public:
    using SinkFor = std::function<QIODevice *(const MultipartPart &part)>;
    using PartDone = std::function<bool(const MultipartPart &part, qint64 size)>;

    // False with *error set for a malformed body (missing boundary, truncated part...).
    static bool read(QIODevice &in, const QByteArray &boundary, const SinkFor &sink, const PartDone &done,
                     QString *error);
};

} // namespace contract
