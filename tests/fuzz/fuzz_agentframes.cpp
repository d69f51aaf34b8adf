// libFuzzer target: what a (possibly replaced) sandbar-agent sends to the Local provider:
// frames into wire::Decoder, and the control payloads into the JSON reader the client uses
// (AgentConnection::parseObject: QJsonDocument::fromJson(...).object()).
//
// Input: bytes 0-1 seed the piece sizes, byte 2 caps them (0: one feed); the rest is the
// stream. Every frame decoded re-encodes to exactly the bytes it came from.
#include "FuzzInput.h"
#include "providers/local/AgentProtocol.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace sandbar::local;

namespace {
bool isRaw(wire::FrameType t)
{
    switch (t) {
    case wire::FrameType::PtyData:
    case wire::FrameType::PtyInput:
    case wire::FrameType::ExecStdin:
    case wire::FrameType::ExecStdout:
    case wire::FrameType::ExecStderr:
    case wire::FrameType::FileData: return true;
    default: return false;
    }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    const uint32_t seed = uint32_t(in.byte()) << 8 | in.byte();
    const size_t maxPiece = in.byte();
    const QByteArray stream = in.rest();

    wire::Decoder decoder;
    std::string reencoded;
    bool failed = false;
    fuzz::Splitter(seed, maxPiece).run(stream, [&](const QByteArray &piece) {
        decoder.feed(piece.constData(), size_t(piece.size()));
        wire::Frame f;
        for (;;) {
            const auto st = decoder.next(f);
            if (st == wire::Decoder::Status::NeedMore)
                break;
            if (st == wire::Decoder::Status::Error) {
                FUZZ_CHECK(!decoder.error().empty());
                failed = true;
                break;
            }
            FUZZ_CHECK(f.payload.size() <= wire::kMaxPayload);
            FUZZ_CHECK(wire::isKnownType(std::uint8_t(f.type)));
            FUZZ_CHECK(std::string(wire::typeName(f.type)) != "unknown");
            reencoded += wire::encode(f);
            if (!isRaw(f.type)) {
                const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(f.payload)).object();
                (void)o.value(QStringLiteral("message")).toString();
                (void)o.value(QStringLiteral("version")).toInt();
            }
        }
    });
    // Decoded frames are a prefix of the stream, byte for byte.
    FUZZ_CHECK(QByteArray::fromStdString(reencoded) == stream.left(qsizetype(reencoded.size())));
    if (!failed)
        FUZZ_CHECK(reencoded.size() + decoder.buffered() == size_t(stream.size()));
    // Errors stick.
    if (failed) {
        decoder.feed(wire::encode(wire::FrameType::Reply, 1, "{}"));
        wire::Frame f;
        FUZZ_CHECK(decoder.next(f) == wire::Decoder::Status::Error);
    }
    return 0;
}
