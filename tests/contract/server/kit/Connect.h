#pragma once

#include "Request.h"
#include "Responder.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace contract::connectrpc {

// Connect protocol over HTTP/1.1 with the JSON codec (connectrpc.com/docs/protocol):
// unary calls are plain application/json both ways, errors a non-2xx status with
// {"code","message"}; server streams are application/connect+json, a sequence of
// envelopes (flags byte, 4-byte big-endian length, JSON), the last one flagged 0x02
// carrying {"error":{...}} or {}.
inline constexpr quint8 kEndStream = 0x02;

QByteArray envelope(const QJsonObject &message, quint8 flags = 0);
QByteArray endStreamEnvelope(const QString &code = {}, const QString &message = {});
// The HTTP status a Connect error code maps to (not_found -> 404, ...).
int httpStatus(const QString &code);

// Reads the request message: one envelope for streaming calls, plain JSON for unary.
// Returns false with *error for bodies that are neither.
bool readMessage(const Request &request, QJsonObject *out, QString *error);
bool isStreamingRequest(const Request &request);

void sendUnary(Responder *responder, const QJsonObject &message);
void sendError(Responder *responder, const QString &code, const QString &message);

// Starts a server stream (200, application/connect+json).
void beginStream(Responder *responder);
void writeMessage(Responder *responder, const QJsonObject &message);
// Ends a stream, with an error when `code` is not empty.
void endStream(Responder *responder, const QString &code = {}, const QString &message = {});

} // namespace contract::connectrpc
