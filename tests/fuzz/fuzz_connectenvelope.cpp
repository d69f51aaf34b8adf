// libFuzzer target: Connect-RPC streams from a cloud server into EnvelopeDecoder, and every
// end-of-stream message into parseEndStream.
//
// Input: bytes 0-1 seed the piece sizes, byte 2 caps them (0: one feed); the rest is the
// stream. Every envelope decoded is encoded again, and the re-encoded stream decodes to the
// same messages; a stream that decoded cleanly re-encodes to exactly its own bytes.
#include "FuzzInput.h"
#include "net/ConnectEnvelope.h"

using namespace sandbar::net::connect;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    const uint32_t seed = uint32_t(in.byte()) << 8 | in.byte();
    const size_t maxPiece = in.byte();
    const QByteArray stream = in.rest();

    EnvelopeDecoder decoder;
    QList<Envelope> got;
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
            const Envelope &e = r->value();
            FUZZ_CHECK(e.message.size() <= kMaxMessageBytes);
            FUZZ_CHECK(!(e.flags & kFlagCompressed));
            if (e.isEndStream())
                (void)parseEndStream(e.message);
            reencoded += encodeEnvelope(e.message, e.flags);
            got.append(e);
        }
    });
    FUZZ_CHECK(failed == decoder.failed());
    const auto end = decoder.finish();
    FUZZ_CHECK(end.ok() == (!failed && decoder.buffered() == 0));
    if (end.ok())
        FUZZ_CHECK(reencoded == stream);
    else
        FUZZ_CHECK(stream.startsWith(reencoded));

    // The envelopes decoded go through encode -> decode unchanged.
    EnvelopeDecoder again;
    again.feed(reencoded);
    for (const Envelope &e : got) {
        auto r = again.next();
        FUZZ_CHECK(r && r->ok() && r->value().flags == e.flags && r->value().message == e.message);
    }
    FUZZ_CHECK(!again.next() && again.finish().ok());

    // Whatever the stream held, also as a whole message and as an end-of-stream body.
    const QByteArray one = encodeEnvelope(stream, kFlagEndStream);
    EnvelopeDecoder single;
    single.feed(one);
    auto r = single.next();
    if (stream.size() <= kMaxMessageBytes)
        FUZZ_CHECK(r && r->ok() && r->value().message == stream && r->value().isEndStream());
    (void)parseEndStream(stream);
    return 0;
}
