#pragma once

// Connect-RPC streaming envelopes (connectrpc.com protocol): every message of a streamed
// request or reply is 1 flag byte, a 4-byte big-endian length and the message (JSON here).
// Flag 0x01 marks a compressed message (never negotiated by Sandbar, so refused), flag
// 0x02 the end of the stream, whose message is {"error":{"code","message"},"metadata":{}}.
// Pure: bytes in, messages out; the cloud providers' PTY and file streams use it.

#include "common/Result.h"

#include <QByteArray>
#include <QList>
#include <optional>

namespace sandbar::net::connect {

inline constexpr quint8 kFlagCompressed = 0x01;
inline constexpr quint8 kFlagEndStream = 0x02;
// A reply message larger than this is treated as garbage (a PTY chunk is a few KiB; a file
// listing a few hundred).
inline constexpr qint64 kMaxMessageBytes = 16 * 1024 * 1024;

struct Envelope {
    quint8 flags = 0;
    QByteArray message;
    bool isEndStream() const { return flags & kFlagEndStream; }
};

QByteArray encodeEnvelope(const QByteArray &message, quint8 flags = 0);

// What a stream may carry: the flags its protocol defines (others are garbage) and the
// largest message. gRPC's messages share the frame with flags {compressed} only (GrpcWire.h).
struct EnvelopeRules {
    quint8 knownFlags = kFlagCompressed | kFlagEndStream;
    qint64 maxMessageBytes = kMaxMessageBytes;
};

// Takes bytes as they arrive (any split) and hands out whole envelopes. After an error it
// stays failed: the stream cannot be resynchronised.
class EnvelopeDecoder
{
public:
    explicit EnvelopeDecoder(EnvelopeRules rules = {})
        : m_rules(rules)
    {
    }
    void feed(const QByteArray &bytes);
    // The next whole envelope, nothing while one is still incomplete, or the error.
    std::optional<Result<Envelope>> next();
    // The stream ended (the reply finished): bytes left over are a truncated envelope.
    VoidResult finish() const;
    bool failed() const { return m_error.has_value(); }
    qint64 buffered() const { return m_buffer.size() - m_pos; }

private:
    EnvelopeRules m_rules;
    QByteArray m_buffer;
    qsizetype m_pos = 0;
    std::optional<Error> m_error;
};

// The end-of-stream message: ok when it carries no error, else the error with its code
// mapped (unauthenticated -> Unauthorized, not_found -> NotFound, ...).
VoidResult parseEndStream(const QByteArray &json);
// A Connect error code ("not_found", "resource_exhausted", ...) as Sandbar's.
ErrorCode errorCodeFromConnect(const QString &code);

} // namespace sandbar::net::connect
