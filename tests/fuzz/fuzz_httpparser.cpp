// libFuzzer target: HTTP/1.1 replies from an engine or server into HttpResponseParser.
//
// Input: byte 0 holds the options (bit 0 HEAD request, bit 1 upgrade requested, bit 2 the
// peer closes at the end), byte 1 the header budget (255: the default), bytes 2-3 seed the
// piece sizes, byte 4 caps them (0: one feed). The rest is the reply. The same reply is also
// parsed in one feed: an incremental parser must not depend on where its input was cut.
#include "FuzzInput.h"
#include "net/HttpParser.h"

using namespace sandbar::net;

namespace {

struct Outcome {
    bool failed = false;
    bool headersComplete = false;
    bool upgraded = false;
    bool complete = false;
    int status = 0;
    HeaderList headers;
    QByteArray body;
    QByteArray raw;
};

Outcome parse(const HttpResponseParser::Options &options, const QByteArray &reply, fuzz::Splitter splitter, bool close)
{
    HttpResponseParser parser(options);
    Outcome o;
    splitter.run(reply, [&](const QByteArray &piece) {
        HttpParseEvents ev;
        const bool ok = parser.feed(piece, ev);
        FUZZ_CHECK(ok == !parser.failed());
        if (ev.headersComplete) {
            FUZZ_CHECK(!o.headersComplete); // the head comes once
            o.headersComplete = true;
            o.status = ev.head.status;
            o.headers = ev.head.headers;
            FUZZ_CHECK(o.status >= 100 && o.status <= 999);
        }
        FUZZ_CHECK(ev.body.isEmpty() || o.headersComplete);
        FUZZ_CHECK(ev.raw.isEmpty() || parser.isUpgraded());
        o.body += ev.body;
        o.raw += ev.raw;
        o.upgraded |= ev.upgraded;
        o.complete |= ev.messageComplete;
    });
    if (close) {
        HttpParseEvents ev;
        const bool ok = parser.finishInput(ev);
        FUZZ_CHECK(ok == !parser.failed());
        FUZZ_CHECK(!ok || parser.isComplete());
        o.complete |= ev.messageComplete;
        FUZZ_CHECK(ev.body.isEmpty() && ev.raw.isEmpty() && !ev.headersComplete);
    }
    o.failed = parser.failed();
    FUZZ_CHECK(o.failed == (parser.failure() != HttpResponseParser::Failure::None));
    FUZZ_CHECK(o.failed == !parser.errorString().isEmpty());
    // Once failed it stays failed.
    if (o.failed) {
        HttpParseEvents ev;
        FUZZ_CHECK(!parser.feed("HTTP/1.1 200 OK\r\n\r\n", ev) && !ev.headersComplete);
    }
    return o;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    const uint8_t flags = in.byte();
    const uint8_t budget = in.byte();
    const uint32_t seed = uint32_t(in.byte()) << 8 | in.byte();
    const size_t maxPiece = in.byte();
    const QByteArray reply = in.rest();

    HttpResponseParser::Options options;
    options.headRequest = flags & 1;
    options.upgradeRequested = flags & 2;
    if (budget != 255)
        options.maxHeaderBytes = 16 + qsizetype(budget) * 8;
    const bool close = flags & 4;

    const Outcome split = parse(options, reply, fuzz::Splitter(seed, maxPiece), close);
    const Outcome whole = parse(options, reply, fuzz::Splitter(0, 0), close);
    FUZZ_CHECK(split.failed == whole.failed);
    if (!whole.failed) {
        FUZZ_CHECK(split.headersComplete == whole.headersComplete);
        FUZZ_CHECK(split.status == whole.status && split.headers == whole.headers);
        FUZZ_CHECK(split.body == whole.body);
        FUZZ_CHECK(split.raw == whole.raw);
        FUZZ_CHECK(split.upgraded == whole.upgraded && split.complete == whole.complete);
    }
    return 0;
}
