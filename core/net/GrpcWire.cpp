#include "net/GrpcWire.h"

#include "net/HttpSyntax.h"

#include <QCoreApplication>
#include <algorithm>

namespace sandbar::net::grpc {

namespace {

const char *const kStatusNames[] = {
    "OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
    "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
    "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
    "DATA_LOSS", "UNAUTHENTICATED"};
constexpr int kStatusCount = int(sizeof(kStatusNames) / sizeof(kStatusNames[0]));

} // namespace

connect::EnvelopeDecoder messageDecoder(qint64 maxMessageBytes)
{
    return connect::EnvelopeDecoder(connect::EnvelopeRules{connect::kFlagCompressed, maxMessageBytes});
}

QByteArray encodeMessage(const QByteArray &message)
{
    return connect::encodeEnvelope(message, 0);
}

QString statusName(int code)
{
    if (code >= 0 && code < kStatusCount)
        return QLatin1String(kStatusNames[code]);
    return QStringLiteral("CODE_%1").arg(code);
}

ErrorCode errorCodeFromStatus(int code)
{
    // Connect's codes are gRPC's names in lower case (and "canceled" for CANCELLED).
    if (code == int(StatusCode::Cancelled))
        return ErrorCode::Cancelled;
    return connect::errorCodeFromConnect(statusName(code).toLower());
}

std::optional<Status> statusFromHeaders(const Headers &headers)
{
    std::optional<QByteArray> code;
    QByteArray message;
    for (const auto &[name, value] : headers) {
        if (name == "grpc-status")
            code = value.trimmed();
        else if (name == "grpc-message")
            message = value;
    }
    if (!code)
        return std::nullopt;
    Status s;
    s.message = decodeStatusMessage(message);
    // Digits only (toInt alone takes "+5" and " 5"); ok is false past int's range.
    bool ok =
        !code->isEmpty() && std::all_of(code->cbegin(), code->cend(), [](char c) { return c >= '0' && c <= '9'; });
    const int n = ok ? code->toInt(&ok) : 0;
    if (!ok) {
        s.code = int(StatusCode::Unknown);
        s.message = QCoreApplication::translate("sandbar::net::grpc", "the service sent a malformed status '%1'")
                        .arg(QString::fromLatin1(code->left(32)));
        return s;
    }
    s.code = n;
    return s;
}

VoidResult outcome(const Status &status, const QString &method)
{
    if (status.ok())
        return {};
    const QString message =
        status.message.isEmpty()
            ? QCoreApplication::translate("sandbar::net::grpc", "%1 failed: %2").arg(method, statusName(status.code))
            : status.message;
    return makeError(errorCodeFromStatus(status.code), message);
}

QByteArray encodeStatusMessage(const QString &message)
{
    const QByteArray utf8 = message.toUtf8();
    QByteArray out;
    out.reserve(utf8.size());
    for (const char c : utf8) {
        const auto u = uchar(c);
        if (u >= 0x20 && u <= 0x7e && u != '%') {
            out += c;
        } else {
            static const char kHex[] = "0123456789ABCDEF";
            out += '%';
            out += kHex[u >> 4];
            out += kHex[u & 0xf];
        }
    }
    return out;
}

QString decodeStatusMessage(const QByteArray &value)
{
    QByteArray out;
    out.reserve(value.size());
    for (qsizetype i = 0; i < value.size(); ++i) {
        if (value.at(i) == '%' && i + 2 < value.size() && syntax::hexValue(value.at(i + 1)) >= 0 &&
            syntax::hexValue(value.at(i + 2)) >= 0) {
            out += char(syntax::hexValue(value.at(i + 1)) << 4 | syntax::hexValue(value.at(i + 2)));
            i += 2;
        } else {
            out += value.at(i);
        }
    }
    return QString::fromUtf8(out);
}

QByteArray encodeTimeout(std::chrono::milliseconds timeout)
{
    constexpr qint64 kMaxDigits = 99999999;
    const qint64 ms = qMax<qint64>(0, timeout.count());
    if (ms <= kMaxDigits)
        return QByteArray::number(ms) + 'm';
    // Rounded up: a deadline is never made shorter than asked.
    const qint64 s = (ms + 999) / 1000;
    if (s <= kMaxDigits)
        return QByteArray::number(s) + 'S';
    const qint64 minutes = (s + 59) / 60;
    if (minutes <= kMaxDigits)
        return QByteArray::number(minutes) + 'M';
    return QByteArray::number(qMin(kMaxDigits, (minutes + 59) / 60)) + 'H';
}

std::optional<std::chrono::nanoseconds> parseTimeout(const QByteArray &value)
{
    if (value.size() < 2 || value.size() > 9)
        return std::nullopt;
    qint64 n = 0;
    for (qsizetype i = 0; i + 1 < value.size(); ++i) {
        const char c = value.at(i);
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + (c - '0');
    }
    qint64 unit = 0; // nanoseconds
    switch (value.back()) {
    case 'H': unit = 3600LL * 1000 * 1000 * 1000; break;
    case 'M': unit = 60LL * 1000 * 1000 * 1000; break;
    case 'S': unit = 1000LL * 1000 * 1000; break;
    case 'm': unit = 1000LL * 1000; break;
    case 'u': unit = 1000; break;
    case 'n': unit = 1; break;
    default: return std::nullopt;
    }
    // 99999999 hours do not fit in nanoseconds: as good as no deadline.
    if (n > std::chrono::nanoseconds::max().count() / unit)
        return std::chrono::nanoseconds::max();
    return std::chrono::nanoseconds(n * unit);
}

} // namespace sandbar::net::grpc
