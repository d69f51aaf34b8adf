// libFuzzer target: a gRPC call's body from a server into the message decoder, and the same
// bytes as trailers, a status message and a grpc-timeout.
//
// Input: bytes 0-1 seed the piece sizes, byte 2 caps them (0: one feed); the rest is the
// stream. Every message decoded is encoded again and the re-encoded stream decodes to the same
// messages; a stream that decoded cleanly re-encodes to exactly its own bytes. A status message
// survives encode -> decode; a timeout that parses is never negative.
#include "FuzzInput.h"
#include "net/GrpcWire.h"

using namespace sandbar::net;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    const uint32_t seed = uint32_t(in.byte()) << 8 | in.byte();
    const size_t maxPiece = in.byte();
    const QByteArray stream = in.rest();

    auto decoder = grpc::messageDecoder(64 * 1024);
    QByteArrayList got;
    QByteArray reencoded;
    bool failed = false;
    fuzz::Splitter(seed, maxPiece).run(stream, [&](const QByteArray &piece) {
        decoder.feed(piece);
        while (auto r = decoder.next()) {
            if (!r->ok()) {
                failed = true;
                FUZZ_CHECK(decoder.failed());
                break;
            }
            FUZZ_CHECK(r->value().flags == 0);
            FUZZ_CHECK(r->value().message.size() <= 64 * 1024);
            reencoded += grpc::encodeMessage(r->value().message);
            got << r->value().message;
        }
    });
    FUZZ_CHECK(failed == decoder.failed());
    const auto end = decoder.finish();
    FUZZ_CHECK(end.ok() == (!failed && decoder.buffered() == 0));
    if (end.ok())
        FUZZ_CHECK(reencoded == stream);
    else
        FUZZ_CHECK(stream.startsWith(reencoded));
    auto again = grpc::messageDecoder(64 * 1024);
    again.feed(reencoded);
    for (const QByteArray &m : got) {
        auto r = again.next();
        FUZZ_CHECK(r && r->ok() && r->value().message == m);
    }
    FUZZ_CHECK(!again.next() && again.finish().ok());

    // The bytes as trailers: "name: value" lines.
    grpc::Headers headers;
    for (const QByteArray &line : stream.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            headers.append({line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed()});
    }
    if (const auto status = grpc::statusFromHeaders(headers)) {
        const sandbar::VoidResult r = grpc::outcome(*status, QStringLiteral("Fuzz"));
        FUZZ_CHECK(r.ok() == (status->code == 0));
        FUZZ_CHECK(r.ok() || !r.message().isEmpty());
    }
    const QString text = grpc::decodeStatusMessage(stream);
    FUZZ_CHECK(grpc::decodeStatusMessage(grpc::encodeStatusMessage(text)) == text);
    if (const auto t = grpc::parseTimeout(stream.left(12)))
        FUZZ_CHECK(t->count() >= 0);
    return 0;
}
