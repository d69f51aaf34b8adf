// libFuzzer target: what a Docker or Podman engine sends, into the pure parsers of
// DockerParsers and PullProgress.
//
// Input: byte 0 picks the parser (modulo 9), bytes 1-2 seed the piece sizes and byte 3 caps
// them (0: one feed) for the incremental ones; the rest is the engine's bytes:
//   0 multiplexed exec/attach stream   1 GET /containers/json     2 GET /containers/{id}/json
//   3 stats objects                    4 event lines              5 pull progress lines
//   6 file listing output              7 /proc/mounts text        8 error bodies, API versions
#include "FuzzInput.h"
#include "files/FileListing.h"
#include "providers/docker/DockerParsers.h"
#include "providers/docker/PullProgress.h"

using namespace sandbar;
using namespace sandbar::docker;

namespace {

// Demuxes in pieces and in one feed; both must agree on the bytes of every stream.
void demux(const QByteArray &bytes, fuzz::Splitter splitter)
{
    QByteArray split[3], whole[3];
    StreamDemuxer a;
    bool failed = false;
    qsizetype payload = 0;
    splitter.run(bytes, [&](const QByteArray &piece) {
        if (failed)
            return;
        auto r = a.feed(piece);
        if (!r.ok()) {
            failed = true;
            return;
        }
        for (const auto &c : r.value()) {
            FUZZ_CHECK(c.stream >= 0 && c.stream <= 2 && !c.data.isEmpty());
            split[c.stream] += c.data;
            payload += c.data.size();
        }
    });
    FUZZ_CHECK(payload <= bytes.size());
    if (failed) {
        FUZZ_CHECK(!a.feed(QByteArray(8, '\0')).ok()); // errors stick
        return;
    }
    StreamDemuxer b;
    auto r = b.feed(bytes);
    FUZZ_CHECK(r.ok());
    for (const auto &c : r.value())
        whole[c.stream] += c.data;
    for (int i = 0; i < 3; ++i)
        FUZZ_CHECK(split[i] == whole[i]);
    FUZZ_CHECK(a.midFrame() == b.midFrame());
}

void events(const QByteArray &bytes, fuzz::Splitter splitter)
{
    QByteArray buffer;
    int n = 0;
    splitter.run(bytes, [&](const QByteArray &piece) {
        buffer += piece;
        n += int(takeEvents(&buffer).size());
        FUZZ_CHECK(!buffer.contains('\n'));
    });
    FUZZ_CHECK(n <= bytes.count('\n'));
}

void pull(const QByteArray &bytes, fuzz::Splitter splitter)
{
    PullProgress p;
    int last = 0;
    qint64 lastDone = 0;
    splitter.run(bytes, [&](const QByteArray &piece) {
        p.feed(piece);
        FUZZ_CHECK(p.percent() >= last && p.percent() <= 100);
        FUZZ_CHECK(p.done() >= lastDone && p.done() >= 0 && p.total() >= 0);
        last = p.percent();
        lastDone = p.done();
        (void)p.text();
    });
    (void)formatPullBytes(qint64(bytes.size()) * 0x10000000LL);
    (void)formatPullBytes(-qint64(bytes.size()));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    const int which = in.byte() % 9;
    const uint32_t seed = uint32_t(in.byte()) << 8 | in.byte();
    const fuzz::Splitter splitter(seed, in.byte());
    const QByteArray bytes = in.rest();
    const MapContext ctx{QStringLiteral("fuzz"), QStringLiteral("docker")};

    switch (which) {
    case 0: demux(bytes, splitter); break;
    case 1: {
        auto r = sessionsFromList(bytes, ctx);
        if (r.ok())
            for (const auto &s : r.value())
                (void)s.ref();
        break;
    }
    case 2:
        (void)sessionFromInspect(bytes, ctx);
        (void)tmpfsMountsFromInspect(bytes);
        (void)usageFromInspect(bytes);
        break;
    case 3: {
        CpuReading current;
        auto r = statsSample(bytes, std::nullopt, false, &current);
        (void)statsSample(bytes, current, true);
        auto p = parseStats(bytes);
        if (p.ok() && p->pre)
            (void)cpuPercent(p->reading, *p->pre, false);
        break;
    }
    case 4: events(bytes, splitter); break;
    case 5: pull(bytes, splitter); break;
    case 6: (void)files::parseFileList(bytes, QStringLiteral("/work")); break;
    case 7: (void)tmpfsMountsFromProcMounts(bytes); break;
    case 8:
        (void)engineMessage(bytes);
        (void)errorFromStatus(400 + int(bytes.size() % 200), bytes, QStringLiteral("fuzz"));
        (void)ApiVersion::parse(bytes);
        (void)negotiateApiVersion(bytes);
        break;
    }
    return 0;
}
