#pragma once

// gRPC's wire format above HTTP/2, pure: the length-prefixed messages of a call's body, the
// status a call ends with (grpc-status and grpc-message in the trailers, or in the headers of
// a trailers-only reply) and the grpc-timeout header. Messages are framed as Connect's
// envelopes are (1 flag byte, 4-byte big-endian length), with one flag, "compressed", which
// Sandbar never negotiates and so refuses. Modal's API is gRPC (issue 31); the HTTP/2 layer
// and its contract server are built on this.

#include "common/Result.h"
#include "net/ConnectEnvelope.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <chrono>
#include <optional>
#include <utility>

namespace sandbar::net::grpc {

// gRPC's own default limit for a received message.
inline constexpr qint64 kDefaultMaxMessageBytes = 4 * 1024 * 1024;

// A decoder of a call's messages, any split of the bytes; compressed or oversized messages
// and unknown flags are errors that end the stream.
connect::EnvelopeDecoder messageDecoder(qint64 maxMessageBytes = kDefaultMaxMessageBytes);
QByteArray encodeMessage(const QByteArray &message);

// The status codes of the gRPC specification (statuscodes.md).
enum class StatusCode {
    Ok = 0,
    Cancelled = 1,
    Unknown = 2,
    InvalidArgument = 3,
    DeadlineExceeded = 4,
    NotFound = 5,
    AlreadyExists = 6,
    PermissionDenied = 7,
    ResourceExhausted = 8,
    FailedPrecondition = 9,
    Aborted = 10,
    OutOfRange = 11,
    Unimplemented = 12,
    Internal = 13,
    Unavailable = 14,
    DataLoss = 15,
    Unauthenticated = 16
};

// "NOT_FOUND" and the like; "CODE_17" for a number outside the specification.
QString statusName(int code);
// Sandbar's code for a gRPC status (the mapping Connect's codes have: the same names).
ErrorCode errorCodeFromStatus(int code);

struct Status {
    int code = int(StatusCode::Ok);
    QString message; // grpc-message, percent-decoded
    bool ok() const { return code == int(StatusCode::Ok); }
};

using Headers = QList<std::pair<QByteArray, QByteArray>>; // lower-case names, as HTTP/2 has them

// The status in a call's trailers (or a trailers-only reply's headers); none when grpc-status
// is absent. A grpc-status that is not a number is the call's failure (UNKNOWN, saying so).
std::optional<Status> statusFromHeaders(const Headers &headers);
// The call's outcome for a caller: ok, or an error with Sandbar's code whose message is the
// service's (or, without one, names the status and the method).
VoidResult outcome(const Status &status, const QString &method);

// grpc-message's encoding: UTF-8, percent-encoded outside printable ASCII (and '%' itself).
// Decoding is lenient as the specification asks: a bad escape is kept as it is.
QByteArray encodeStatusMessage(const QString &message);
QString decodeStatusMessage(const QByteArray &value);

// grpc-timeout: at most eight digits and a unit (H, M, S, m, u, n), the finest unit that fits;
// parsing refuses anything else.
QByteArray encodeTimeout(std::chrono::milliseconds timeout);
std::optional<std::chrono::nanoseconds> parseTimeout(const QByteArray &value);

} // namespace sandbar::net::grpc
