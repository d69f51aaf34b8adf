#include "net/ConnectEnvelope.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtEndian>

namespace sandbar::net::connect {

namespace {
constexpr qsizetype kHeaderBytes = 5;
} // namespace

QByteArray encodeEnvelope(const QByteArray &message, quint8 flags)
{
    QByteArray out(kHeaderBytes, Qt::Uninitialized);
    out[0] = char(flags);
    qToBigEndian(quint32(message.size()), out.data() + 1);
    out += message;
    return out;
}

void EnvelopeDecoder::feed(const QByteArray &bytes)
{
    if (m_error)
        return;
    // Drop what was consumed once it is most of the buffer, so a long stream stays small.
    if (m_pos > 0 && m_pos >= m_buffer.size() / 2) {
        m_buffer.remove(0, m_pos);
        m_pos = 0;
    }
    m_buffer += bytes;
}

std::optional<Result<Envelope>> EnvelopeDecoder::next()
{
    if (m_error)
        return Result<Envelope>(*m_error);
    if (m_buffer.size() - m_pos < kHeaderBytes)
        return std::nullopt;
    const auto *head = reinterpret_cast<const uchar *>(m_buffer.constData() + m_pos);
    const quint8 flags = head[0];
    const quint32 length = qFromBigEndian<quint32>(head + 1);
    if (flags & ~m_rules.knownFlags) {
        m_error =
            makeError(ErrorCode::Internal,
                      QCoreApplication::translate("sandbar::net::connect",
                                                  "The service sent a malformed stream (unknown envelope flags 0x%1).")
                          .arg(flags, 2, 16, QLatin1Char('0')));
        return Result<Envelope>(*m_error);
    }
    if (flags & kFlagCompressed) {
        m_error = makeError(
            ErrorCode::Unsupported,
            QCoreApplication::translate("sandbar::net::connect",
                                        "The service sent a compressed message, which Sandbar did not ask for."));
        return Result<Envelope>(*m_error);
    }
    if (qint64(length) > m_rules.maxMessageBytes) {
        m_error = makeError(ErrorCode::Internal,
                            QCoreApplication::translate("sandbar::net::connect",
                                                        "The service sent a malformed stream (a message of %1 bytes).")
                                .arg(length));
        return Result<Envelope>(*m_error);
    }
    if (m_buffer.size() - m_pos - kHeaderBytes < qsizetype(length))
        return std::nullopt;
    Envelope e;
    e.flags = flags;
    e.message = m_buffer.mid(m_pos + kHeaderBytes, qsizetype(length));
    m_pos += kHeaderBytes + qsizetype(length);
    return Result<Envelope>(std::move(e));
}

VoidResult EnvelopeDecoder::finish() const
{
    if (m_error)
        return *m_error;
    if (buffered() > 0)
        return makeError(
            ErrorCode::Unavailable,
            QCoreApplication::translate("sandbar::net::connect",
                                        "The stream was cut off in the middle of a message (%1 bytes left over).")
                .arg(buffered()));
    return {};
}

ErrorCode errorCodeFromConnect(const QString &code)
{
    if (code == QLatin1String("unauthenticated") || code == QLatin1String("permission_denied"))
        return ErrorCode::Unauthorized;
    if (code == QLatin1String("not_found"))
        return ErrorCode::NotFound;
    if (code == QLatin1String("resource_exhausted"))
        return ErrorCode::LimitReached;
    if (code == QLatin1String("unavailable"))
        return ErrorCode::Unavailable;
    if (code == QLatin1String("deadline_exceeded"))
        return ErrorCode::Timeout;
    if (code == QLatin1String("invalid_argument") || code == QLatin1String("out_of_range") ||
        code == QLatin1String("failed_precondition"))
        return ErrorCode::InvalidArgument;
    if (code == QLatin1String("already_exists") || code == QLatin1String("aborted"))
        return ErrorCode::Conflict;
    if (code == QLatin1String("unimplemented"))
        return ErrorCode::Unsupported;
    if (code == QLatin1String("canceled"))
        return ErrorCode::Cancelled;
    return ErrorCode::Internal;
}

VoidResult parseEndStream(const QByteArray &json)
{
    if (json.trimmed().isEmpty())
        return {}; // an empty end-of-stream message is a clean end
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(ErrorCode::Internal,
                         QCoreApplication::translate("sandbar::net::connect",
                                                     "The service ended the stream with a malformed message: %1")
                             .arg(pe.errorString()));
    const QJsonValue error = doc.object().value(QLatin1String("error"));
    if (error.isUndefined() || error.isNull())
        return {};
    if (!error.isObject())
        return makeError(ErrorCode::Internal,
                         QCoreApplication::translate("sandbar::net::connect",
                                                     "The service ended the stream with a malformed error."));
    const QJsonObject e = error.toObject();
    const QString code = e.value(QLatin1String("code")).toString();
    QString message = e.value(QLatin1String("message")).toString();
    if (message.isEmpty())
        message = code.isEmpty() ? QCoreApplication::translate("sandbar::net::connect",
                                                               "The service ended the stream with an error.")
                                 : code;
    return makeError(errorCodeFromConnect(code), message);
}

} // namespace sandbar::net::connect
