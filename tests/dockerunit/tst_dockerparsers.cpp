// Pure parsers of the Docker/Podman provider: no engine needed.
#include "TestSupport.h"
#include "files/FileListing.h"
#include "providers/docker/DockerFactory.h"
#include "providers/docker/DockerParsers.h"
#include "providers/docker/DockerUsage.h"

#include <QTest>
#include <QTimeZone>

using namespace sandbar;
using namespace sandbar::docker;

namespace {
QByteArray frame(int stream, const QByteArray &payload)
{
    QByteArray h(8, '\0');
    h[0] = char(stream);
    const quint32 n = quint32(payload.size());
    h[4] = char(n >> 24);
    h[5] = char(n >> 16);
    h[6] = char(n >> 8);
    h[7] = char(n);
    return h + payload;
}

struct Demuxed {
    QByteArray out, err;
    std::optional<Error> error;
    bool midFrame = false;
};

Demuxed demux(const QList<QByteArray> &pieces)
{
    StreamDemuxer d;
    Demuxed r;
    for (const auto &p : pieces) {
        auto chunks = d.feed(p);
        if (!chunks) {
            r.error = chunks.error();
            return r;
        }
        for (const auto &c : *chunks)
            (c.stream == 2 ? r.err : r.out) += c.data;
    }
    r.midFrame = d.midFrame();
    return r;
}

#ifndef Q_MOC_RUN // moc's tokenizer trips over multi-line raw strings
// Realistic bodies (Docker 20.10 cgroup v2, and Podman 4.3 compat).
const QByteArray kDockerStats = R"({"read":"2026-11-29T20:50:01.500000000Z","preread":"2026-11-29T20:50:00.500000000Z",
 "pids_stats":{"current":3,"limit":512},
 "blkio_stats":{"io_service_bytes_recursive":[{"major":8,"minor":0,"op":"read","value":4096},{"major":8,"minor":0,"op":"write","value":8192},{"major":8,"minor":16,"op":"Read","value":100}]},
 "cpu_stats":{"cpu_usage":{"total_usage":3000000000,"usage_in_kernelmode":1,"usage_in_usermode":2},"system_cpu_usage":20000000000,"online_cpus":2,"throttling_data":{}},
 "precpu_stats":{"cpu_usage":{"total_usage":2500000000},"system_cpu_usage":18000000000,"online_cpus":2},
 "memory_stats":{"usage":10485760,"stats":{"inactive_file":2097152,"anon":123},"limit":268435456},
 "name":"/x","id":"abc"})";
const QByteArray kDockerV1Stats =
    R"({"read":"2026-11-29T20:50:01Z","cpu_stats":{"cpu_usage":{"total_usage":10,"percpu_usage":[5,5,0,0]},"system_cpu_usage":100},
 "precpu_stats":{"cpu_usage":{"total_usage":0},"system_cpu_usage":0},
 "memory_stats":{"usage":1000,"limit":5000,"stats":{"total_inactive_file":300,"inactive_file":100}},
 "networks":{"eth0":{"rx_bytes":10,"tx_bytes":20},"eth1":{"rx_bytes":1,"tx_bytes":2}}})";
const QByteArray kPodmanStats = R"({"read":"2026-11-29T20:50:02.000000000Z","preread":"0001-01-01T00:00:00Z",
 "pids_stats":{"current":2},
 "blkio_stats":{"io_service_bytes_recursive":[{"op":"read","value":1},{"op":"rios","value":99},{"op":"wios","value":99},{"op":"write","value":2},{"op":"dbytes","value":7}]},
 "cpu_stats":{"cpu_usage":{"total_usage":1500000000},"system_cpu_usage":999,"online_cpus":0,"cpu":12.5},
 "precpu_stats":{"cpu_usage":{"total_usage":0},"system_cpu_usage":0},
 "memory_stats":{"usage":4096,"limit":8192},"name":"x","id":"y"})";

// Recorded shapes with networks and block devices (the test engines run without a bridge,
// so their own replies carry no network counters). Docker 24, cgroup v2, bridge network:
const QByteArray kDockerV2Bridge =
    R"({"name":"/agent","id":"5f1c","read":"2026-11-29T20:50:03.250000000Z","preread":"2026-11-29T20:50:02.250000000Z",
 "pids_stats":{"current":7,"limit":4915},
 "blkio_stats":{"io_service_bytes_recursive":[{"major":259,"minor":0,"op":"read","value":11063296},{"major":259,"minor":0,"op":"write","value":20480},{"major":253,"minor":1,"op":"read","value":4096},{"major":253,"minor":1,"op":"write","value":0}],"io_serviced_recursive":null,"io_queue_recursive":null,"io_service_time_recursive":null,"io_wait_time_recursive":null,"io_merged_recursive":null,"io_time_recursive":null,"sectors_recursive":null},
 "num_procs":0,"storage_stats":{},
 "cpu_stats":{"cpu_usage":{"total_usage":812000000,"usage_in_kernelmode":312000000,"usage_in_usermode":500000000},"system_cpu_usage":4403840000000,"online_cpus":4,"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}},
 "precpu_stats":{"cpu_usage":{"total_usage":612000000,"usage_in_kernelmode":212000000,"usage_in_usermode":400000000},"system_cpu_usage":4399840000000,"online_cpus":4,"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}},
 "memory_stats":{"usage":24870912,"stats":{"active_anon":8192,"active_file":4096000,"anon":15728640,"anon_thp":0,"file":8699904,"file_dirty":0,"file_mapped":4505600,"file_writeback":0,"inactive_anon":15720448,"inactive_file":4603904,"kernel_stack":114688,"pgfault":8383,"pgmajfault":0,"shmem":0,"slab":1061656,"sock":0,"unevictable":0},"limit":8232873984},
 "networks":{"eth0":{"rx_bytes":5338,"rx_packets":53,"rx_errors":0,"rx_dropped":0,"tx_bytes":1036,"tx_packets":14,"tx_errors":0,"tx_dropped":0}}})";
// Docker 20.10, cgroup v1, two networks; blkio lists Sync/Async/Discard/Total besides Read/Write.
const QByteArray kDockerV1TwoNets =
    R"({"name":"/agent","id":"77aa","read":"2026-11-29T20:50:05.000000000Z","preread":"2026-11-29T20:50:04.000000000Z",
 "pids_stats":{"current":3},
 "blkio_stats":{"io_service_bytes_recursive":[{"major":8,"minor":0,"op":"Read","value":4096000},{"major":8,"minor":0,"op":"Write","value":8192},{"major":8,"minor":0,"op":"Sync","value":4104192},{"major":8,"minor":0,"op":"Async","value":0},{"major":8,"minor":0,"op":"Discard","value":0},{"major":8,"minor":0,"op":"Total","value":4104192}],"io_serviced_recursive":[{"major":8,"minor":0,"op":"Read","value":100},{"major":8,"minor":0,"op":"Write","value":2},{"major":8,"minor":0,"op":"Total","value":102}],"io_queue_recursive":[],"io_service_time_recursive":[],"io_wait_time_recursive":[],"io_merged_recursive":[],"io_time_recursive":[],"sectors_recursive":[]},
 "num_procs":0,"storage_stats":{},
 "cpu_stats":{"cpu_usage":{"total_usage":3000000000,"percpu_usage":[2000000000,1000000000],"usage_in_kernelmode":1000000000,"usage_in_usermode":2000000000},"system_cpu_usage":100000000000,"online_cpus":2,"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}},
 "precpu_stats":{"cpu_usage":{"total_usage":2000000000,"percpu_usage":[1500000000,500000000],"usage_in_kernelmode":700000000,"usage_in_usermode":1300000000},"system_cpu_usage":98000000000,"online_cpus":2,"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}},
 "memory_stats":{"usage":52428800,"max_usage":60000000,"stats":{"active_anon":10000000,"active_file":5000000,"cache":20000000,"inactive_file":12000000,"total_inactive_file":15000000,"total_cache":20000000,"rss":30000000,"total_rss":30000000,"hierarchical_memory_limit":268435456},"failcnt":0,"limit":268435456},
 "networks":{"eth0":{"rx_bytes":1000,"rx_packets":10,"rx_errors":0,"rx_dropped":0,"tx_bytes":2000,"tx_packets":20,"tx_errors":0,"tx_dropped":0},"eth1":{"rx_bytes":300,"rx_packets":3,"rx_errors":0,"rx_dropped":0,"tx_bytes":400,"tx_packets":4,"tx_errors":0,"tx_dropped":0}}})";
// Podman 4, cgroup v2, slirp network: extra blkio ops, a "cpu" percentage, no precpu.
const QByteArray kPodmanNet = R"({"read":"2026-11-29T20:50:04.000000000Z","preread":"0001-01-01T00:00:00Z",
 "pids_stats":{"current":5},
 "blkio_stats":{"io_service_bytes_recursive":[{"major":8,"minor":0,"op":"read","value":1048576},{"major":8,"minor":0,"op":"write","value":524288},{"major":8,"minor":0,"op":"rios","value":64},{"major":8,"minor":0,"op":"wios","value":32},{"major":8,"minor":0,"op":"dbytes","value":4096},{"major":8,"minor":0,"op":"dios","value":1}],"io_serviced_recursive":null,"io_queue_recursive":null,"io_service_time_recursive":null,"io_wait_time_recursive":null,"io_merged_recursive":null,"io_time_recursive":null,"sectors_recursive":null},
 "num_procs":0,"storage_stats":{},
 "cpu_stats":{"cpu_usage":{"total_usage":2500000000,"usage_in_kernelmode":500000000,"usage_in_usermode":2000000000},"system_cpu_usage":7777,"online_cpus":4,"cpu":37.5,"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}},
 "precpu_stats":{"cpu_usage":{"total_usage":0,"usage_in_kernelmode":0,"usage_in_usermode":0},"cpu":0,"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}},
 "memory_stats":{"usage":8388608,"limit":2147483648},"name":"agent","Id":"92679c",
 "networks":{"eth0":{"rx_bytes":70000,"rx_packets":50,"rx_errors":0,"rx_dropped":0,"tx_bytes":9000,"tx_packets":40,"tx_errors":0,"tx_dropped":0}}})";
// Podman 4.3 with NetworkMode none, as recorded from the test engine: a zeroed "network".
const QByteArray kPodmanNone =
    R"({"read":"2026-12-01T19:02:46.535731244Z","preread":"0001-01-01T00:00:00Z","pids_stats":{"current":1},"blkio_stats":{"io_service_bytes_recursive":[],"io_serviced_recursive":null,"io_queue_recursive":null,"io_service_time_recursive":null,"io_wait_time_recursive":null,"io_merged_recursive":null,"io_time_recursive":null,"sectors_recursive":null},"num_procs":0,"storage_stats":{},"cpu_stats":{"cpu_usage":{"total_usage":87088825,"percpu_usage":[70695597,16393228],"usage_in_kernelmode":47870951,"usage_in_usermode":39217874},"system_cpu_usage":578510071616,"online_cpus":2,"cpu":0,"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}},"precpu_stats":{"cpu_usage":{"total_usage":0,"usage_in_kernelmode":0,"usage_in_usermode":0},"cpu":0,"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}},"memory_stats":{"usage":454656,"limit":33554432},"name":"unruffled_wilbur","Id":"92679c24","networks":{"network":{"rx_bytes":0,"rx_packets":0,"rx_errors":0,"rx_dropped":0,"tx_bytes":0,"tx_packets":0,"tx_errors":0,"tx_dropped":0}}})";
// Docker 20.10, cgroup v1, NetworkMode none, as recorded from the test engine: no
// "networks", empty blkio lists (nothing read from disk yet).
const QByteArray kDockerV1None =
    R"({"read":"2026-12-01T19:02:02.6545761Z","preread":"0001-01-01T00:00:00Z","pids_stats":{"current":1},"blkio_stats":{"io_service_bytes_recursive":[],"io_serviced_recursive":[],"io_queue_recursive":[],"io_service_time_recursive":[],"io_wait_time_recursive":[],"io_merged_recursive":[],"io_time_recursive":[],"sectors_recursive":[]},"num_procs":0,"storage_stats":{},"cpu_stats":{"cpu_usage":{"total_usage":82198388,"percpu_usage":[64437295,17761093],"usage_in_kernelmode":40000000,"usage_in_usermode":40000000},"system_cpu_usage":599060000000,"online_cpus":2,"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}},"precpu_stats":{"cpu_usage":{"total_usage":0,"usage_in_kernelmode":0,"usage_in_usermode":0},"throttling_data":{"periods":0,"throttled_periods":0,"throttled_time":0}},"memory_stats":{"usage":499712,"max_usage":33554432,"stats":{"active_anon":4096,"active_file":0,"cache":0,"hierarchical_memory_limit":33554432,"inactive_anon":53248,"inactive_file":0,"rss":57344,"total_inactive_file":0,"total_rss":57344},"limit":33554432},"name":"/pensive_mendeleev","id":"f02d3201"})";
// GET /containers/{id}/json?size=true (Docker 20.10, trimmed) after a kill inside it.
const QByteArray kInspectSized =
    R"({"Id":"f02d320178406ad9","Created":"2026-12-01T19:02:00.5Z","Path":"sleep","Args":["300"],
 "State":{"Status":"running","Running":true,"Paused":false,"Restarting":false,"OOMKilled":false,"Dead":false,"Pid":9248,"ExitCode":0,"Error":"","StartedAt":"2026-12-01T19:02:00.710708243Z","FinishedAt":"0001-01-01T00:00:00Z"},
 "Name":"/pensive_mendeleev","SizeRw":1048588,"SizeRootFs":3032890,"HostConfig":{"NetworkMode":"none","Memory":33554432}})";
#endif
} // namespace

class TestDockerParsers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void remoteChoicesByFlavour();
    void accountHostNamesTheMachine();
    void demuxWhole();
    void demuxSplitAtEveryByte();
    void demuxTruncatedAndZero();
    void demuxUnknownStream();

    void apiVersion_data();
    void apiVersion();

    void errorBodies_data();
    void errorBodies();

    void stateMapping_data();
    void stateMapping();

    void inspect();

    void list();

    void statsDocker();
    void statsCgroupV1();
    void statsPodman();
    void statsFormulas();
    void statsBad_data();
    void statsBad();
    void statsRecorded_data();
    void statsRecorded();
    void statsPodmanCpuFieldIgnored();
    void usageInspect_data();
    void usageInspect();
    void usageRecordCounting();
    void oomBacklogQuery();

    void fileList();

    void events();

    void procMounts();
    void descriptors();
    void endpointSettings();

    void numericUsers_data();
    void numericUsers();
    void folderModes_data();
    void folderModes();
};

#ifndef Q_MOC_RUN
void TestDockerParsers::demuxWhole()
{
    const auto r = demux({frame(1, "hello ") + frame(2, "oops") + frame(1, "world") + frame(0, "echo")});
    QVERIFY(!r.error);
    QCOMPARE(r.out, QByteArray("hello worldecho"));
    QCOMPARE(r.err, QByteArray("oops"));
    QVERIFY(!r.midFrame);
}

void TestDockerParsers::demuxSplitAtEveryByte()
{
    const QByteArray all = frame(1, "abc") + frame(2, QByteArray()) + frame(2, "E") + frame(1, QByteArray(300, 'x'));
    for (int cut = 0; cut <= all.size(); ++cut) {
        const auto r = demux({all.left(cut), all.mid(cut)});
        QVERIFY2(!r.error, qPrintable(QString::number(cut)));
        QCOMPARE(r.out, QByteArray("abc") + QByteArray(300, 'x'));
        QCOMPARE(r.err, QByteArray("E"));
    }
    QList<QByteArray> bytes;
    for (char c : all)
        bytes << QByteArray(1, c);
    const auto r = demux(bytes);
    QCOMPARE(r.out.size(), 303);
}

void TestDockerParsers::demuxTruncatedAndZero()
{
    QVERIFY(demux({frame(1, "abc").left(5)}).midFrame);
    QVERIFY(demux({frame(1, "abc").left(9)}).midFrame);
    const auto zero = demux({frame(1, QByteArray()), frame(2, QByteArray())});
    QVERIFY(zero.out.isEmpty() && zero.err.isEmpty() && !zero.midFrame);
    QVERIFY(!demux({}).midFrame);
}

void TestDockerParsers::demuxUnknownStream()
{
    const auto r = demux({frame(7, "x")});
    QVERIFY(r.error);
    QVERIFY(r.error->message.contains(QLatin1String("7")));
    // garbage: padding bytes not zero
    QByteArray bad = frame(1, "x");
    bad[2] = 'z';
    QVERIFY(demux({bad}).error);
    QVERIFY(demux({"HTTP/1.1 200 OK\r\n"}).error);
}

void TestDockerParsers::apiVersion_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QString>("expect"); // version or "!" + error fragment
    QTest::newRow("1.41") << QByteArray("1.41") << QStringLiteral("1.41");
    QTest::newRow("1.45") << QByteArray("1.45") << QStringLiteral("1.45");
    QTest::newRow("newer") << QByteArray("1.52") << QStringLiteral("1.47");
    QTest::newRow("old") << QByteArray("1.38")
                         << QStringLiteral("!engine speaks API 1.38; Sandbar needs 1.41 or newer");
    QTest::newRow("empty") << QByteArray() << QStringLiteral("!did not say");
    QTest::newRow("garbage") << QByteArray("abc") << QStringLiteral("!did not say");
    QTest::newRow("truncated") << QByteArray("1.") << QStringLiteral("!did not say");
}

void TestDockerParsers::apiVersion()
{
    QFETCH(QByteArray, header);
    QFETCH(QString, expect);
    const auto r = negotiateApiVersion(header);
    if (expect.startsWith(QLatin1Char('!'))) {
        QVERIFY(!r);
        QCOMPARE(r.code(), ErrorCode::Unsupported);
        QVERIFY2(r.message().contains(expect.mid(1)), qPrintable(r.message()));
    } else {
        QVERIFY_RESULT(r);
        QCOMPARE(r->toString(), expect);
    }
}

void TestDockerParsers::errorBodies_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("404") << 404 << QByteArray(R"({"message":"No such container: abc"})") << int(ErrorCode::NotFound)
                         << QStringLiteral("No such container: abc");
    QTest::newRow("409") << 409 << QByteArray(R"({"message":"Container x is not running"})") << int(ErrorCode::Conflict)
                         << QStringLiteral("is not running");
    QTest::newRow("400 ro") << 400 << QByteArray(R"({"message":"mounted volume is marked read-only"})")
                            << int(ErrorCode::InvalidArgument) << QStringLiteral("read-only");
    QTest::newRow("403") << 403 << QByteArray(R"({"message":"denied"})") << int(ErrorCode::Unauthorized)
                         << QStringLiteral("denied");
    QTest::newRow("500 text") << 500 << QByteArray("plain text\n") << int(ErrorCode::Internal)
                              << QStringLiteral("plain text");
    QTest::newRow("empty") << 503 << QByteArray() << int(ErrorCode::Unavailable) << QStringLiteral("503");
    QTest::newRow("truncated json") << 500 << QByteArray(R"({"message":"abc)") << int(ErrorCode::Internal)
                                    << QStringLiteral("{\"message\"");
}

void TestDockerParsers::errorBodies()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(int, code);
    QFETCH(QString, fragment);
    const Error e = errorFromStatus(status, body, QStringLiteral("Doing"));
    QCOMPARE(int(e.code), code);
    QVERIFY2(e.message.contains(fragment), qPrintable(e.message));
    QVERIFY(e.message.startsWith(QLatin1String("Doing")));
}

void TestDockerParsers::stateMapping_data()
{
    QTest::addColumn<QString>("status");
    QTest::addColumn<bool>("failed");
    QTest::addColumn<int>("state");
    QTest::newRow("running") << QStringLiteral("running") << false << int(SessionState::Running);
    QTest::newRow("paused") << QStringLiteral("paused") << false << int(SessionState::Paused);
    QTest::newRow("created") << QStringLiteral("created") << false << int(SessionState::Stopped);
    QTest::newRow("restarting") << QStringLiteral("restarting") << false << int(SessionState::Creating);
    QTest::newRow("removing") << QStringLiteral("removing") << false << int(SessionState::Stopping);
    QTest::newRow("exited") << QStringLiteral("exited") << false << int(SessionState::Stopped);
    QTest::newRow("exited failed") << QStringLiteral("exited") << true << int(SessionState::Error);
    QTest::newRow("dead") << QStringLiteral("dead") << false << int(SessionState::Error);
    QTest::newRow("garbage") << QStringLiteral("zzz") << false << int(SessionState::Unknown);
    QTest::newRow("empty") << QString() << false << int(SessionState::Unknown);
}

void TestDockerParsers::stateMapping()
{
    QFETCH(QString, status);
    QFETCH(bool, failed);
    QFETCH(int, state);
    QCOMPARE(int(stateFromDocker(status, 0, failed)), state);
}

void TestDockerParsers::inspect()
{
    const QByteArray body = R"({"Id":"0123456789abcdef","Created":"2026-11-29T20:00:00.123456789Z","Name":"/sbx-1",
      "State":{"Status":"exited","Running":false,"ExitCode":2,"Error":"","OOMKilled":false},
      "Config":{"Image":"busybox:latest","User":"1000:1000","Labels":{"dev.sandbar.app":"sandbar","dev.sandbar.name":"My box",
        "dev.sandbar.created":"2026-11-29T20:00:00Z","dev.sandbar.ttl":"600","extra":"1"}},
      "HostConfig":{"NanoCpus":1500000000,"Memory":268435456,"NetworkMode":"none","Tmpfs":{"/scratch":"rw"},
        "DeviceRequests":[{"Driver":"","Count":-1,"Capabilities":[["gpu"]]}]},
      "Mounts":[{"Type":"bind","Source":"/host/a","Destination":"/a","RW":false},{"Type":"volume","Source":"v","Destination":"/v","RW":true}]})";
    auto s = sessionFromInspect(body, {QStringLiteral("acct"), QStringLiteral("docker")});
    QVERIFY_RESULT(s);
    QCOMPARE(s->id, QStringLiteral("0123456789abcdef"));
    QCOMPARE(s->name, QStringLiteral("My box"));
    QCOMPARE(s->account, QStringLiteral("acct"));
    QCOMPARE(s->state, SessionState::Stopped);
    QVERIFY(s->errorMessage.contains(QLatin1String("2")));
    QVERIFY(s->owned);
    QCOMPARE(s->ttlSeconds, 600);
    QCOMPARE(s->expiresAt, QDateTime(QDate(2026, 11, 29), QTime(20, 10), QTimeZone::utc()));
    QCOMPARE(*s->cpus, 1.5);
    QCOMPARE(*s->memoryBytes, 268435456);
    QCOMPARE(s->gpus, -1);
    QVERIFY(!s->network);
    QCOMPARE(s->mounts.size(), 1);
    QVERIFY(s->mounts.at(0).readOnly);
    QCOMPARE(tmpfsMountsFromInspect(body).valueOr({}), QStringList{QStringLiteral("/scratch")});

    const QByteArray foreign =
        R"({"Id":"ff","Name":"/other","State":{"Status":"running"},"Config":{"Image":"x","Labels":null},"HostConfig":{"NetworkMode":"bridge"},"Created":"2026-11-29T20:00:00Z"})";
    auto f = sessionFromInspect(foreign, {});
    QVERIFY_RESULT(f);
    QVERIFY(!f->owned);
    QCOMPARE(f->name, QStringLiteral("other"));
    QVERIFY(f->network);
    QCOMPARE(f->state, SessionState::Running);
    QVERIFY(!f->expiresAt.isValid());

    for (const QByteArray &bad :
         {QByteArray(), QByteArray("{"), QByteArray("[]"), QByteArray("garbage"), QByteArray(R"({"Id":)")})
        QVERIFY(!sessionFromInspect(bad, {}));
}

void TestDockerParsers::list()
{
    const QByteArray body =
        R"([{"Id":"a1","Names":["/one"],"Image":"img","State":"running","Status":"Up 3 minutes","Created":1796000000,
        "Labels":{"dev.sandbar.app":"sandbar"},"HostConfig":{"NetworkMode":"none"}},
      {"Id":"b2","Names":["/two"],"State":"exited","Status":"Exited (1) 2 seconds ago","Labels":{}},
      {"Id":"c3","Names":["/three"],"State":"exited","Status":"Exited (137) 2 seconds ago"},
      {"Names":["/noid"]}])";
    auto l = sessionsFromList(body, {QStringLiteral("a"), QStringLiteral("podman")});
    QVERIFY_RESULT(l);
    QCOMPARE(l->size(), 3);
    QCOMPARE(l->at(0).state, SessionState::Running);
    QVERIFY(l->at(0).owned);
    QCOMPARE(l->at(0).provider, QStringLiteral("podman"));
    QCOMPARE(l->at(1).state, SessionState::Error);
    QCOMPARE(l->at(2).state, SessionState::Stopped);
    QVERIFY(!l->at(1).owned);
    QCOMPARE(sessionsFromList("[]", {})->size(), 0);
    QVERIFY(!sessionsFromList("", {}));
    QVERIFY(!sessionsFromList("[{", {}));
    QVERIFY(!sessionsFromList("{}", {}));
}

void TestDockerParsers::statsDocker()
{
    auto s = statsSample(kDockerStats, std::nullopt, false);
    QVERIFY_RESULT(s);
    // 0.5e9 / 2e9 * 2 cpus * 100
    QCOMPARE(*s->cpuPercent, 50.0);
    QCOMPARE(*s->memoryUsedBytes, 10485760 - 2097152);
    QCOMPARE(*s->memoryLimitBytes, 268435456);
    QCOMPARE(*s->networkRxBytes, 0); // NetworkMode none: no "networks"
    QCOMPARE(*s->blockReadBytes, 4196);
    QCOMPARE(*s->blockWriteBytes, 8192);
    QCOMPARE(*s->pids, 3);
}

void TestDockerParsers::statsCgroupV1()
{
    auto s = statsSample(kDockerV1Stats, std::nullopt, false);
    QVERIFY_RESULT(s);
    QVERIFY(!s->cpuPercent);            // zeroed precpu and no local sample: cannot tell
    QCOMPARE(*s->memoryUsedBytes, 700); // total_inactive_file wins on v1
    QCOMPARE(*s->networkRxBytes, 11);
    QCOMPARE(*s->networkTxBytes, 22);
    CpuReading prev;
    prev.totalUsage = 5;
    prev.systemUsage = 50;
    auto s2 = statsSample(kDockerV1Stats, prev, false);
    // 5/50 * 4 (len percpu) * 100
    QCOMPARE(*s2->cpuPercent, 40.0);
}

void TestDockerParsers::statsPodman()
{
    CpuReading prev;
    prev.time = QDateTime(QDate(2026, 11, 29), QTime(20, 50, 0), QTimeZone::utc());
    prev.totalUsage = 500000000;
    prev.systemUsage = 1;
    CpuReading now;
    auto s = statsSample(kPodmanStats, prev, true, &now);
    QVERIFY_RESULT(s);
    // 1e9 ns of CPU over 2 s of wall clock = 50 %
    QCOMPARE(*s->cpuPercent, 50.0);
    QCOMPARE(now.totalUsage, quint64(1500000000));
    QCOMPARE(*s->blockReadBytes, 1); // rios/wios/dbytes are not read/write
    QCOMPARE(*s->blockWriteBytes, 2);
    QCOMPARE(*s->memoryUsedBytes, 4096);
    QCOMPARE(*s->pids, 2);
}

void TestDockerParsers::statsFormulas()
{
    CpuReading a, b;
    a.totalUsage = 100;
    a.systemUsage = 1000;
    b.totalUsage = 100;
    b.systemUsage = 2000;
    b.onlineCpus = 4;
    QCOMPARE(*cpuPercent(b, a, false), 0.0); // idle
    b.totalUsage = 50;
    QVERIFY(!cpuPercent(b, a, false)); // counter reset
    b.totalUsage = 350;
    QCOMPARE(*cpuPercent(b, a, false), 100.0);
    b.systemUsage = 1000; // no system delta, no times: unknown
    QVERIFY(!cpuPercent(b, a, false));
}

void TestDockerParsers::statsBad_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("spaces") << QByteArray("  \n");
    QTest::newRow("truncated") << kDockerStats.left(kDockerStats.size() / 2);
    QTest::newRow("garbage") << QByteArray("\x01\x02garbage");
    QTest::newRow("array") << QByteArray("[1,2]");
    QTest::newRow("no cpu") << QByteArray(R"({"memory_stats":{}})");
}

void TestDockerParsers::statsBad()
{
    QFETCH(QByteArray, body);
    QVERIFY(!statsSample(body, std::nullopt, false));
}

void TestDockerParsers::fileList()
{
    QByteArray out;
    out += QByteArray("a file") + '\0' + "81a4 12 1796000000\n" + '\0';
    out += QByteArray("-dash") + '\0' + "41ed 4096 1796000001\n" + '\0';
    out += QByteArray("new\nline") + '\0' + "81a4 0 0\n" + '\0';
    out += QByteArray("link") + '\0' + "a1ff 4 1796000000\n" + QByteArray("../t x") + '\0';
    out += QString::fromUtf8("ünï😀").toUtf8() + '\0' + "81ed 1 1\n" + '\0';
    auto l = files::parseFileList(out, QStringLiteral("/workspace"));
    QVERIFY_RESULT(l);
    QCOMPARE(l->size(), 5);
    QCOMPARE(l->at(0).name, QStringLiteral("a file"));
    QCOMPARE(l->at(0).path, QStringLiteral("/workspace/a file"));
    QCOMPARE(l->at(0).size, 12);
    QCOMPARE(l->at(0).mode, 0644u);
    QVERIFY(l->at(1).isDir);
    QCOMPARE(l->at(1).name, QStringLiteral("-dash"));
    QCOMPARE(l->at(2).name, QStringLiteral("new\nline"));
    QVERIFY(l->at(3).isLink);
    QCOMPARE(l->at(3).linkTarget, QStringLiteral("../t x"));
    QCOMPARE(l->at(4).name, QString::fromUtf8("ünï😀"));
    QCOMPARE(l->at(4).mode, 0755u);
    QCOMPARE(files::parseFileList({}, QStringLiteral("/"))->size(), 0);
    QVERIFY(!files::parseFileList(out.left(out.size() - 1), QStringLiteral("/")));                   // truncated
    QVERIFY(!files::parseFileList(QByteArray("x") + '\0' + "zz 1 1\n" + '\0', QStringLiteral("/"))); // garbage
    QVERIFY(!files::parseFileList("garbage", QStringLiteral("/")));
}

void TestDockerParsers::events()
{
    QByteArray buf = "\x1e{\"Type\":\"container\",\"Action\":\"die\",\"Actor\":{\"ID\":\"abc\",\"Attributes\":{"
                     "\"exitCode\":\"137\"}},\"time\":5}\n"
                     "garbage\n{\"status\":\"start\",\"id\":\"old\"}\n{\"Type\":\"cont";
    const auto ev = takeEvents(&buf);
    QCOMPARE(ev.size(), 2);
    QCOMPARE(ev.at(0).action, QStringLiteral("die"));
    QCOMPARE(ev.at(0).id, QStringLiteral("abc"));
    QCOMPARE(ev.at(0).attributes.value(QStringLiteral("exitCode")), QStringLiteral("137"));
    QCOMPARE(ev.at(0).time, 5);
    QCOMPARE(ev.at(1).id, QStringLiteral("old"));
    QCOMPARE(buf, QByteArray("{\"Type\":\"cont"));
    buf += "ainer\",\"Action\":\"destroy\",\"Actor\":{\"ID\":\"z\"}}\n";
    QCOMPARE(takeEvents(&buf).value(0).action, QStringLiteral("destroy"));
    QVERIFY(buf.isEmpty());
}

void TestDockerParsers::procMounts()
{
    const QByteArray text =
        "overlay / overlay rw 0 0\ntmpfs /dev tmpfs rw 0 0\ntmpfs /my\\040dir tmpfs rw 0 0\ngarbage\n\n";
    QCOMPARE(tmpfsMountsFromProcMounts(text), (QStringList{QStringLiteral("/dev"), QStringLiteral("/my dir")}));
    QVERIFY(tmpfsMountsFromProcMounts({}).isEmpty());
}
void TestDockerParsers::descriptors()
{
    const ProviderDescriptor d = makeDescriptor(Flavour::Docker);
    const ProviderDescriptor p = makeDescriptor(Flavour::Podman);
    QCOMPARE(d.id, QStringLiteral("docker"));
    QCOMPARE(p.id, QStringLiteral("podman"));
    QVERIFY(d.capabilities.testFlag(Capability::Gpu));
    QVERIFY(!p.capabilities.testFlag(Capability::Gpu));
    QVERIFY(d.createOption(QStringLiteral("gpus")));
    QVERIFY(!p.createOption(QStringLiteral("gpus")));
    for (const ProviderDescriptor *x : {&d, &p}) {
        QVERIFY(x->capabilities.testFlag(Capability::FileList));
        QVERIFY(x->capabilities.testFlag(Capability::SetTimeout));
        QVERIFY(x->accountField(QStringLiteral("endpoint")));
        QCOMPARE(x->accountField(QStringLiteral("endpoint"))->defaultValue.toString(), QString());
        QCOMPARE(x->accountField(QStringLiteral("tlsVerify"))->defaultValue.toBool(), true);
        QVERIFY(x->accountField(QStringLiteral("certPath")));
        for (const char *key : {"image", "cpus", "memory", "pidsLimit", "ttl", "env", "mounts", "readOnlyMounts",
                                "network", "user", "tmpfs"})
            QVERIFY2(x->createOption(QString::fromLatin1(key)), key);
        QVERIFY(x->createOption(QStringLiteral("image"))->required);
    }
}

// Discovery's engines over SSH become account choices of their flavour, with the key the
// setting named; a docker CLI setting without a flavour is Docker's.
void TestDockerParsers::remoteChoicesByFlavour()
{
    const QList<RemoteCandidate> remotes = {
        {QStringLiteral("ssh://core@m:2222/run/user/1000/podman/podman.sock"), QStringLiteral("/keys/m"),
         QStringLiteral("Podman connection \"m\""), QStringLiteral("podman")},
        {QStringLiteral("ssh://me@box"), QString(), QStringLiteral("DOCKER_HOST"), QString()}};
    const QList<AccountChoice> podman = remoteAccountChoices(remotes, Flavour::Podman, makeDescriptor(Flavour::Podman));
    QCOMPARE(podman.size(), 1);
    QCOMPARE(podman.at(0).provider, QStringLiteral("podman"));
    QCOMPARE(podman.at(0).settings.value(QStringLiteral("endpoint")).toString(), remotes.at(0).url);
    QCOMPARE(podman.at(0).settings.value(QStringLiteral("identity")).toString(), QStringLiteral("/keys/m"));
    QVERIFY(podman.at(0).label.contains(QLatin1String("over SSH")) &&
            podman.at(0).label.contains(remotes.at(0).origin));
    const QList<AccountChoice> docker = remoteAccountChoices(remotes, Flavour::Docker, makeDescriptor(Flavour::Docker));
    QCOMPARE(docker.size(), 1);
    QCOMPARE(docker.at(0).settings.value(QStringLiteral("endpoint")).toString(), QStringLiteral("ssh://me@box"));
    QVERIFY(!docker.at(0).settings.contains(QStringLiteral("identity")));
}

// The account list shows the machine a remote engine runs on; a local socket names none.
void TestDockerParsers::accountHostNamesTheMachine()
{
    const DockerFactory factory(Flavour::Docker);
    const auto host = [&](const char *endpoint) {
        return factory.accountHost({{QStringLiteral("endpoint"), QString::fromLatin1(endpoint)}});
    };
    QCOMPARE(host("ssh://core@build1.example:2222/run/docker.sock"), QStringLiteral("build1.example"));
    QCOMPARE(host("ssh://gpu-box"), QStringLiteral("gpu-box"));
    QCOMPARE(host("tcp://engine.example:2376"), QStringLiteral("engine.example"));
    QCOMPARE(host("unix:///var/run/docker.sock"), QString());
    QCOMPARE(host(""), QString());
    QCOMPARE(host("ssh://-oProxyCommand=x"), QString());
}

void TestDockerParsers::endpointSettings()
{
    const QVariantMap tls{{QStringLiteral("endpoint"), QStringLiteral("tcp://engine.example:2376")},
                          {QStringLiteral("certPath"), QStringLiteral("/certs")},
                          {QStringLiteral("tlsVerify"), false}};
    auto ep = endpointFromSettings(Flavour::Docker, tls);
    QVERIFY_RESULT(ep);
    QVERIFY(ep->tls);
    QVERIFY(!ep->verifyPeer);
    QCOMPARE(ep->caFile, QStringLiteral("/certs/ca.pem"));
    QCOMPARE(ep->keyFile, QStringLiteral("/certs/key.pem"));
    auto sock =
        endpointFromSettings(Flavour::Podman, {{QStringLiteral("endpoint"), QStringLiteral("unix:///run/x.sock")}});
    QVERIFY_RESULT(sock);
    QCOMPARE(sock->path, QStringLiteral("/run/x.sock"));
    QVERIFY(!endpointFromSettings(Flavour::Docker, {{QStringLiteral("endpoint"), QStringLiteral("garbage://")}}));
}

void TestDockerParsers::statsRecorded_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("podman");
    QTest::addColumn<double>("cpu"); // -1: cannot tell
    QTest::addColumn<qint64>("memUsed");
    QTest::addColumn<qint64>("memLimit");
    QTest::addColumn<qint64>("rx");
    QTest::addColumn<qint64>("tx");
    QTest::addColumn<qint64>("blkRead");
    QTest::addColumn<qint64>("blkWrite");
    QTest::addColumn<qint64>("pids");
    // 0.2e9 / 4e9 * 4 * 100; usage less inactive_file; both devices; one network.
    QTest::newRow("docker v2 bridge") << kDockerV2Bridge << false << 20.0 << qint64(24870912 - 4603904)
                                      << qint64(8232873984) << qint64(5338) << qint64(1036) << qint64(11067392)
                                      << qint64(20480) << qint64(7);
    // 1e9 / 2e9 * 2 * 100; total_inactive_file; Sync/Async/Total not added; two networks.
    QTest::newRow("docker v1 two networks")
        << kDockerV1TwoNets << false << 100.0 << qint64(52428800 - 15000000) << qint64(268435456) << qint64(1300)
        << qint64(2400) << qint64(4096000) << qint64(8192) << qint64(3);
    // No precpu and no local sample: no CPU%; rios/wios/dbytes/dios are not bytes read/written.
    QTest::newRow("podman network") << kPodmanNet << true << -1.0 << qint64(8388608) << qint64(2147483648)
                                    << qint64(70000) << qint64(9000) << qint64(1048576) << qint64(524288) << qint64(5);
    QTest::newRow("podman network none") << kPodmanNone << true << -1.0 << qint64(454656) << qint64(33554432)
                                         << qint64(0) << qint64(0) << qint64(0) << qint64(0) << qint64(1);
    QTest::newRow("docker v1 network none") << kDockerV1None << false << -1.0 << qint64(499712) << qint64(33554432)
                                            << qint64(0) << qint64(0) << qint64(0) << qint64(0) << qint64(1);
}

void TestDockerParsers::statsRecorded()
{
    QFETCH(QByteArray, body);
    QFETCH(bool, podman);
    QFETCH(double, cpu);
    auto s = statsSample(body, std::nullopt, podman);
    QVERIFY_RESULT(s);
    if (cpu < 0) {
        QVERIFY(!s->cpuPercent);
    } else {
        QVERIFY(s->cpuPercent);
        QCOMPARE(*s->cpuPercent, cpu);
    }
    QTEST(s->memoryUsedBytes.value_or(-1), "memUsed");
    QTEST(s->memoryLimitBytes.value_or(-1), "memLimit");
    QTEST(s->networkRxBytes.value_or(-1), "rx");
    QTEST(s->networkTxBytes.value_or(-1), "tx");
    QTEST(s->blockReadBytes.value_or(-1), "blkRead");
    QTEST(s->blockWriteBytes.value_or(-1), "blkWrite");
    QTEST(s->pids.value_or(-1), "pids");
    // What the engine cannot tell in a stats reply stays absent (the provider adds it).
    QVERIFY(!s->oomKills && !s->filesystemUsedBytes && !s->filesystemTotalBytes);
    // Truncated anywhere, the same reply is refused rather than half read.
    for (qsizetype cut : {qsizetype(1), body.size() / 3, body.size() / 2, body.size() - 1})
        QVERIFY2(!statsSample(body.left(cut), std::nullopt, podman), qPrintable(QString::number(cut)));
}

void TestDockerParsers::statsPodmanCpuFieldIgnored()
{
    // Podman's own "cpu" percentage reads 0 on one-shot replies even for a busy container
    // (4.3, recorded), so it is no figure to show: without a delta, CPU% is unknown.
    auto first = statsSample(kPodmanNet, std::nullopt, true);
    QVERIFY_RESULT(first);
    QVERIFY(!first->cpuPercent);
    // With the previous local sample (1 s earlier, 2e9 ns of CPU less): 0.5e9 / 1e9 s.
    CpuReading prev;
    prev.time = QDateTime(QDate(2026, 11, 29), QTime(20, 50, 3), QTimeZone::utc());
    prev.totalUsage = 2000000000;
    auto next = statsSample(kPodmanNet, prev, true);
    QVERIFY_RESULT(next);
    QCOMPARE(*next->cpuPercent, 50.0);
}

void TestDockerParsers::usageInspect_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<bool>("oomKilled");
    QTest::addColumn<qint64>("sizeRw"); // -1: absent
    QTest::newRow("sized") << kInspectSized << true << false << qint64(1048588);
    QByteArray killed = kInspectSized;
    killed.replace("\"OOMKilled\":false", "\"OOMKilled\":true").replace("\"SizeRw\":1048588,", "");
    QTest::newRow("oom killed, no size") << killed << true << true << qint64(-1);
    QTest::newRow("null size") << QByteArray(R"({"Id":"a","State":{"OOMKilled":false},"SizeRw":null})") << true << false
                               << qint64(-1);
    QTest::newRow("empty") << QByteArray() << false << false << qint64(-1);
    QTest::newRow("truncated") << kInspectSized.left(kInspectSized.size() / 2) << false << false << qint64(-1);
    QTest::newRow("garbage") << QByteArray("\x01\x02 not json") << false << false << qint64(-1);
    QTest::newRow("no state") << QByteArray(R"({"Id":"a"})") << false << false << qint64(-1);
    QTest::newRow("array") << QByteArray("[]") << false << false << qint64(-1);
}

void TestDockerParsers::usageInspect()
{
    QFETCH(QByteArray, body);
    QFETCH(bool, ok);
    const auto u = usageFromInspect(body);
    QCOMPARE(u.ok(), ok);
    if (!ok)
        return;
    QTEST(u->oomKilled, "oomKilled");
    QTEST(u->sizeRw.value_or(-1), "sizeRw");
    if (body == kInspectSized) {
        QCOMPARE(u->id, QStringLiteral("f02d320178406ad9"));
        QCOMPARE(u->startedAt, QDateTime(QDate(2026, 12, 1), QTime(19, 2, 0, 710), QTimeZone::utc()));
    }
}

void TestDockerParsers::usageRecordCounting()
{
    const auto event = [](const char *action, qint64 time) {
        EngineEvent e;
        e.type = QStringLiteral("container");
        e.action = QString::fromLatin1(action);
        e.id = QStringLiteral("f02d320178406ad9");
        e.time = time;
        return e;
    };
    auto usage = usageFromInspect(kInspectSized);
    QVERIFY_RESULT(usage);
    const qint64 started = usage->startedAt.toSecsSinceEpoch();
    UsageRecord r;
    r.applyEvent(event("oom", started + 1));
    QVERIFY(!r.oomKills()); // not looked at yet: cannot tell
    r.applyInspect(*usage);
    QCOMPARE(r.oomKills(), std::optional<qint64>(1));
    StatsSample s;
    r.fill(&s);
    QCOMPARE(s.oomKills, std::optional<qint64>(1));
    QCOMPARE(s.filesystemUsedBytes, std::optional<qint64>(1048588));
    QVERIFY(!s.filesystemTotalBytes);
    r.applyEvent(event("oom", started + 1)); // replayed after a reconnect: not counted again
    r.applyEvent(event("oom", started + 5));
    r.applyEvent(event("exec_die", started + 6));
    QCOMPARE(r.oomKills(), std::optional<qint64>(2));
    r.applyEvent(event("oom", started - 10)); // before this run
    QCOMPARE(r.oomKills(), std::optional<qint64>(2));
    // A later look without size keeps the last size; OOMKilled alone counts as one.
    ContainerUsage again = *usage;
    again.sizeRw.reset();
    again.oomKilled = true;
    r.applyInspect(again);
    QCOMPARE(r.sizeRw, std::optional<qint64>(1048588));
    QCOMPARE(r.oomKills(), std::optional<qint64>(2));
    // A restart begins a new count, as the cgroup's would.
    r.applyEvent(event("start", started + 60));
    QCOMPARE(r.oomKills(), std::optional<qint64>(1)); // OOMKilled still set until the next look
    again.oomKilled = false;
    again.startedAt = usage->startedAt.addSecs(60);
    r.applyEvent(event("oom", started + 61));
    r.applyInspect(again);
    QCOMPARE(r.oomKills(), std::optional<qint64>(1));
    again.startedAt = usage->startedAt.addSecs(120); // restarted again, seen only by a look
    r.applyInspect(again);
    QCOMPARE(r.oomKills(), std::optional<qint64>(0));
}

void TestDockerParsers::oomBacklogQuery()
{
    const QByteArray path = oomBacklogPath(QStringLiteral("f02d3201"), 100, 200'045);
    QVERIFY2(path.startsWith("/events?since=100&until=200.045&filters="), path.constData());
    const QByteArray filters = QByteArray::fromPercentEncoding(path.mid(path.indexOf("filters=") + 8));
    QCOMPARE(filters, QByteArray(R"({"container":["f02d3201"],"event":["oom"],"type":["container"]})"));
    // The engine's reply: newline-separated events, the last one possibly without a newline.
    QByteArray reply =
        R"({"status":"oom","id":"f02d3201","Type":"container","Action":"oom","Actor":{"ID":"f02d3201","Attributes":{}},"scope":"local","time":150,"timeNano":150000000001})"
        "\n"
        R"({"Type":"container","Action":"oom","Actor":{"ID":"f02d3201"},"time":151})";
    reply += '\n';
    const QList<EngineEvent> events = takeEvents(&reply);
    QCOMPARE(events.size(), 2);
    UsageRecord r;
    ContainerUsage u;
    u.startedAt = QDateTime::fromSecsSinceEpoch(100, QTimeZone::utc());
    r.applyInspect(u);
    for (const auto &e : events)
        r.applyEvent(e);
    QCOMPARE(r.oomKills(), std::optional<qint64>(2));
}

void TestDockerParsers::numericUsers_data()
{
    QTest::addColumn<QString>("user");
    QTest::addColumn<bool>("numeric");
    QTest::addColumn<uint>("uid");
    QTest::addColumn<uint>("gid");
    QTest::newRow("uid and gid") << QStringLiteral("1000:1000") << true << 1000u << 1000u;
    QTest::newRow("uid alone") << QStringLiteral("1001") << true << 1001u << 0u;
    QTest::newRow("root") << QStringLiteral("0:0") << true << 0u << 0u;
    QTest::newRow("name") << QStringLiteral("node") << false << 0u << 0u;
    QTest::newRow("uid and group name") << QStringLiteral("1000:staff") << false << 0u << 0u;
    QTest::newRow("empty") << QString() << false << 0u << 0u;
    QTest::newRow("three parts") << QStringLiteral("1:2:3") << false << 0u << 0u;
    QTest::newRow("signed") << QStringLiteral("+5") << false << 0u << 0u;
    QTest::newRow("negative") << QStringLiteral("-1") << false << 0u << 0u;
    QTest::newRow("too big") << QStringLiteral("99999999999") << false << 0u << 0u;
}

void TestDockerParsers::numericUsers()
{
    QFETCH(QString, user);
    QFETCH(bool, numeric);
    const auto u = numericUser(user);
    QCOMPARE(u.has_value(), numeric);
    if (u) {
        QTEST(u->uid, "uid");
        QTEST(u->gid, "gid");
    }
}

void TestDockerParsers::folderModes_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<int>("mode"); // -1: none
    const auto stat = [](const char *json) { return QByteArray(json).toBase64(); };
    // The engine's answers for `mkdir x`, `chmod 1777 x`, `chmod 2775 x` and a file.
    QTest::newRow("folder 0755") << stat(R"({"name":"workspace","size":4096,"mode":2147484141,"mtime":"x"})") << 0755;
    QTest::newRow("sticky 1777") << stat(R"({"name":"tmp","size":4096,"mode":2148532735})") << 01777;
    QTest::newRow("setgid 2775") << stat(R"({"name":"g","size":4096,"mode":2151678461})") << 02775;
    QTest::newRow("a file") << stat(R"({"name":"f","size":3,"mode":420})") << -1;
    QTest::newRow("no mode") << stat(R"({"name":"f"})") << -1;
    QTest::newRow("negative mode") << stat(R"({"mode":-1})") << -1;
    QTest::newRow("not JSON") << stat("mode 755") << -1;
    QTest::newRow("not base64") << QByteArray("%%%") << -1;
    QTest::newRow("truncated") << stat(R"({"name":"w","mode":2147484141)").left(20) << -1;
    QTest::newRow("empty") << QByteArray() << -1;
}

void TestDockerParsers::folderModes()
{
    QFETCH(QByteArray, header);
    QFETCH(int, mode);
    const auto m = folderModeFromPathStat(header);
    QCOMPARE(m.has_value() ? int(*m) : -1, mode);
}

#endif

QTEST_GUILESS_MAIN(TestDockerParsers)
#include "tst_dockerparsers.moc"
