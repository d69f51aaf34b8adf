#pragma once

// Reading the values cloud APIs write in JSON, the same way for every provider: times in the
// spellings their specs use, and numbers that are doubles, numeric strings (protobuf's JSON
// writes 64-bit integers as strings) or out of range. Pure functions; a value that cannot be
// read yields an empty or zero result, never undefined behaviour.

#include "common/Result.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <optional>

namespace sandbar::cloud {

// ISO 8601 with or without milliseconds, and "2024-10-01 12:00:00+00:00" (a space for the T,
// as some specs' examples write it), in UTC; invalid for anything else, empty included.
QDateTime parseTime(const QString &text);

// A double as a qint64, saturating: 1e30 is qint64's maximum and NaN is 0 (converting an
// out-of-range double is undefined behaviour).
qint64 saturated(double d);
// The same into int's range (exit codes, page numbers).
int saturatedInt(double d);

// A number written as a JSON number or as a numeric string; nullopt for anything else.
std::optional<double> number(const QJsonValue &v);

// A 64-bit integer as protobuf's JSON writes it (a string, exactly) or as a JSON number
// (saturated); 0 when it is neither.
qint64 int64Of(const QJsonValue &v);

// A reply's JSON document; Unavailable, naming the service and what the reply should have
// been ("E2B sent a malformed sandbox: the reply is empty"), when it is empty or not JSON.
Result<QJsonDocument> parseReply(const QByteArray &json, const QString &service, const QString &what);
// The error for a reply that is JSON but not what was expected, worded as parseReply's.
Error malformedReply(const QString &service, const QString &what, const QString &why);

// Splits NDJSON kept in *buffer into complete lines (without their '\n', trimmed), leaving a
// partial one; empty lines are dropped.
QList<QByteArray> takeLines(QByteArray *buffer);

} // namespace sandbar::cloud
