// The Docker provider against a hostile engine: a compromised or fake engine socket must
// not crash the app, make it hold unbounded memory or hang a request. A FakeServer plays
// the engine on a local socket; each case checks for one clear error, in bounded time.

#include "FakeServer.h"
#include "TestSupport.h"
#include "net/HttpClient.h"
#include "providers/docker/DockerApi.h"
#include "providers/docker/DockerExec.h"
#include "providers/docker/DockerParsers.h"

#include <QFile>
#include <QTest>
#include <QTimer>

using namespace sandbar;
using namespace sandbar::docker;
using namespace sandbar::net;
using sandbar::test::FakeConn;
using sandbar::test::FakeServer;
using sandbar::test::waitUntil;

namespace {

QByteArray muxHeader(quint8 stream, quint32 size, quint8 pad = 0)
{
    QByteArray h(8, '\0');
    h[0] = char(stream);
    h[1] = char(pad);
    for (int i = 0; i < 4; ++i)
        h[4 + i] = char((size >> (24 - 8 * i)) & 0xff);
    return h;
}

QByteArray jsonReply(int status, const QByteArray &body)
{
    return "HTTP/1.1 " + QByteArray::number(status) + " X\r\nApi-Version: 1.47\r\nContent-Type: application/json\r\n" +
           "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

// Answers /_ping and /version like a Docker engine; everything else goes to `rest` with
// the request line.
void fakeEngine(FakeServer &server, std::function<void(FakeConn &, const QByteArray &)> rest,
                QByteArray version = R"({"Version":"27.0","Os":"linux"})")
{
    server.onConnection = [rest, version](FakeConn &c) {
        c.onHead = [rest, version](FakeConn &conn) {
            const QByteArray line = conn.requestHead.left(conn.requestHead.indexOf("\r\n"));
            if (line.contains(" /_ping "))
                conn.send(jsonReply(200, "OK"));
            else if (line.contains("/version "))
                conn.send(jsonReply(200, version));
            else
                rest(conn, line);
        };
    };
}

struct ExecOutcome {
    QByteArray out;
    std::optional<Result<int>> result;
    int finishes = 0;
};

ExecOutcome runExecJob(const Endpoint &ep)
{
    DockerApi api(ep);
    ExecRequest req;
    req.argv = {QStringLiteral("true")};
    DockerExecJob job(&api, QStringLiteral("c1"), req);
    ExecOutcome o;
    QObject::connect(&job, &ExecJob::stdoutData, &job, [&o](const QByteArray &b) { o.out += b; });
    QObject::connect(&job, &ExecJob::finished, &job, [&o](const Result<int> &r) {
        ++o.finishes;
        o.result.emplace(r);
    });
    job.start();
    waitUntil([&o] { return o.result.has_value(); }, 15000);
    QCoreApplication::processEvents();
    return o;
}

} // namespace

class TstHostileDocker : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void demuxerHugeFrame();
    void demuxerUnknownStream_data();
    void demuxerUnknownStream();
    void execStream_data();
    void execStream();
    void wrongJsonTypesInEngineReplies_data();
    void wrongJsonTypesInEngineReplies();
    void hostileHttp_data();
    void hostileHttp();
    void endlessChunkIsCapped();
    void wrongShapes();
    void resizesLandInOrder();
};

void TstHostileDocker::demuxerHugeFrame()
{
    // A header claiming 4 GiB: payload is handed on as it comes, nothing of that size is held.
    test::resetPeakRss();
    const qint64 before = test::statusKb("VmRSS:");
    StreamDemuxer d;
    auto first = d.feed(muxHeader(1, 0xffffffffu));
    QVERIFY_RESULT(first);
    QVERIFY(first->isEmpty());
    qint64 got = 0;
    const QByteArray mib(1 << 20, 'x');
    for (int i = 0; i < 16; ++i) {
        auto r = d.feed(mib);
        QVERIFY_RESULT(r);
        for (const auto &c : *r) {
            QCOMPARE(c.stream, 1);
            got += c.data.size();
        }
    }
    QCOMPARE(got, qint64(16) << 20);
    QVERIFY(d.midFrame());
    QVERIFY2(test::statusKb("VmHWM:") - before < 16 * 1024, "the demuxer held the claimed size");
}

void TstHostileDocker::demuxerUnknownStream_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::newRow("stream 3") << muxHeader(3, 4);
    QTest::newRow("stream 255") << muxHeader(255, 4);
    QTest::newRow("padding set") << muxHeader(1, 4, 7);
    QTest::newRow("http text") << QByteArray("HTTP/1.1");
}

void TstHostileDocker::demuxerUnknownStream()
{
    QFETCH(QByteArray, header);
    StreamDemuxer d;
    QVERIFY_RESULT(d.feed(muxHeader(1, 2) + "ok"));
    auto r = d.feed(header + "abcd");
    QVERIFY(!r.ok());
    QVERIFY2(r.message().contains(QLatin1String("unknown type")), qPrintable(r.message()));
    QVERIFY(!d.feed(muxHeader(1, 2) + "ok").ok()); // framing is lost for good
}

void TstHostileDocker::execStream_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QString>("error"); // empty: success
    QTest::newRow("control") << QByteArray(muxHeader(1, 2) + "hi") << QString();
    QTest::newRow("4 GiB frame, then close")
        << QByteArray(muxHeader(1, 0xffffffffu) + "hi") << QStringLiteral("middle of a frame");
    QTest::newRow("truncated header") << QByteArray(muxHeader(1, 2) + "hi" + muxHeader(1, 9).left(5))
                                      << QStringLiteral("middle of a frame");
    QTest::newRow("unknown stream") << QByteArray(muxHeader(1, 2) + "hi" + muxHeader(9, 3) + "abc")
                                    << QStringLiteral("unknown type 9");
}

void TstHostileDocker::execStream()
{
    QFETCH(QByteArray, stream);
    QFETCH(QString, error);
    FakeServer server(FakeServer::Kind::Local);
    QVERIFY(server.listening());
    fakeEngine(server, [stream](FakeConn &conn, const QByteArray &line) {
        if (line.contains("/containers/c1/exec")) {
            conn.send(jsonReply(201, R"({"Id":"e1"})"));
        } else if (line.contains("/exec/e1/start")) {
            conn.send("HTTP/1.1 101 UPGRADED\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n" + stream);
            conn.close();
        } else if (line.contains("/exec/e1/json")) {
            conn.send(jsonReply(200, R"({"ExitCode":0,"Running":false})"));
        } else {
            conn.send(jsonReply(404, R"({"message":"no"})"));
        }
    });
    const ExecOutcome o = runExecJob(server.endpoint());
    QVERIFY(o.result.has_value());
    QCOMPARE(o.finishes, 1);
    // What came in the same read as a bad header is dropped with it.
    QVERIFY(o.out == QByteArray("hi") || (o.out.isEmpty() && error.contains(QLatin1String("unknown"))));
    if (error.isEmpty()) {
        QVERIFY_RESULT(*o.result);
        QCOMPARE(o.result->value(), 0);
    } else {
        QVERIFY(!o.result->ok());
        QVERIFY2(o.result->message().contains(error), qPrintable(o.result->message()));
    }
}

void TstHostileDocker::wrongJsonTypesInEngineReplies_data()
{
    // Fields of the wrong JSON type in the small replies the provider reads itself: each
    // must be a clear error, never an exception thrown through the event loop.
    QTest::addColumn<QByteArray>("version");
    QTest::addColumn<QByteArray>("created");
    QTest::addColumn<QByteArray>("inspect");
    QTest::addColumn<QString>("error");
    const QByteArray goodVersion = R"({"Version":"27.0"})";
    const QByteArray goodCreated = R"({"Id":"e1"})";
    const QByteArray goodInspect = R"({"ExitCode":0,"Running":false})";
    QTest::newRow("version as number") << QByteArray(R"({"Version":27,"Os":[1],"Components":[{"Name":5}]})")
                                       << goodCreated << goodInspect << QString();
    QTest::newRow("exec id as number") << goodVersion << QByteArray(R"({"Id":42})") << goodInspect
                                       << QStringLiteral("did not return an exec id");
    QTest::newRow("exec id as array") << goodVersion << QByteArray("[\"e1\"]") << goodInspect
                                      << QStringLiteral("did not return an exec id");
    QTest::newRow("running as string") << goodVersion << goodCreated << QByteArray(R"({"ExitCode":3,"Running":"yes"})")
                                       << QString();
}

void TstHostileDocker::wrongJsonTypesInEngineReplies()
{
    QFETCH(QByteArray, version);
    QFETCH(QByteArray, created);
    QFETCH(QByteArray, inspect);
    QFETCH(QString, error);
    FakeServer server(FakeServer::Kind::Local);
    fakeEngine(
        server,
        [created, inspect](FakeConn &conn, const QByteArray &line) {
            if (line.contains("/containers/c1/exec"))
                conn.send(jsonReply(201, created));
            else if (line.contains("/exec/e1/start"))
                conn.send("HTTP/1.1 101 UPGRADED\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n" + muxHeader(1, 2) +
                          "hi");
            else if (line.contains("/exec/e1/json"))
                conn.send(jsonReply(200, inspect));
            if (line.contains("/exec/e1/start"))
                conn.close();
        },
        version);
    const ExecOutcome o = runExecJob(server.endpoint());
    QVERIFY(o.result.has_value());
    QCOMPARE(o.finishes, 1);
    if (error.isEmpty()) {
        QVERIFY_RESULT(*o.result);
        QCOMPARE(o.result->value(), inspect.contains("3") ? 3 : 0);
    } else {
        QVERIFY(!o.result->ok());
        QVERIFY2(o.result->message().contains(error), qPrintable(o.result->message()));
    }
}

void TstHostileDocker::hostileHttp_data()
{
    QTest::addColumn<QByteArray>("reply");
    QTest::addColumn<bool>("closeAfter");
    QTest::addColumn<QString>("error");
    const QByteArray chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    QTest::newRow("bad chunk size") << QByteArray(chunked + "zz\r\nabc") << false << QStringLiteral("chunk");
    QTest::newRow("chunk size overflow") << QByteArray(chunked + "fffffffffffffffffff\r\n") << false
                                         << QStringLiteral("chunk");
    QTest::newRow("endless chunk, stalled")
        << QByteArray(chunked + "7fffffff\r\nsome bytes") << false << QStringLiteral("Timeout");
    QTest::newRow("headers never end") << QByteArray("HTTP/1.1 200 OK\r\nX-A: 1\r\n") << false
                                       << QStringLiteral("Timeout");
    QTest::newRow("10 MB header line") << QByteArray("HTTP/1.1 200 OK\r\nX-Big: " + QByteArray(10 << 20, 'h')) << false
                                       << QStringLiteral("header block larger");
    QTest::newRow("garbage status line") << QByteArray("SSH-2.0-OpenSSH_9.6\r\n\r\n") << false
                                         << QStringLiteral("Malformed");
    QTest::newRow("truncated body") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort") << true
                                    << QStringLiteral("");
}

void TstHostileDocker::hostileHttp()
{
    QFETCH(QByteArray, reply);
    QFETCH(bool, closeAfter);
    QFETCH(QString, error);
    FakeServer server(FakeServer::Kind::Local);
    server.onConnection = [reply, closeAfter](FakeConn &c) {
        c.onHead = [reply, closeAfter](FakeConn &conn) {
            conn.send(reply);
            if (closeAfter)
                conn.close();
        };
    };
    HttpRequest req;
    req.target = "/v1.47/containers/json";
    req.responseTimeout = std::chrono::milliseconds(500);
    req.idleTimeout = std::chrono::milliseconds(500);
    HttpClient client(server.endpoint());
    QElapsedTimer t;
    t.start();
    const auto r = sandbar::test::await<HttpResponse>([&](Callback<HttpResponse> cb) { client.request(req, cb); });
    QVERIFY(!r.ok());
    QVERIFY2(r.code() != ErrorCode::Timeout || r.message() != QLatin1String("test: no answer within 30000 ms"),
             "the request hung");
    const QString text = errorCodeName(r.code()) + QLatin1String(": ") + r.message();
    QVERIFY2(text.contains(error, Qt::CaseInsensitive), qPrintable(text));
    QVERIFY2(t.elapsed() < 10000, "no timeout fired in time");
}

void TstHostileDocker::endlessChunkIsCapped()
{
    // A chunk that never ends, written as fast as the client reads: the buffered call stops
    // at its body limit instead of growing, and the engine sees the connection dropped.
    FakeServer server(FakeServer::Kind::Local);
    qint64 sent = 0;
    bool dropped = false;
    server.onConnection = [&](FakeConn &c) {
        c.onHead = [&](FakeConn &conn) {
            const QByteArray block(64 * 1024, 'z');
            auto pump = [&conn, block, &sent] {
                while (conn.io()->isOpen() && conn.io()->bytesToWrite() < 256 * 1024) {
                    conn.io()->write(block);
                    sent += block.size();
                }
            };
            QObject::connect(conn.io(), &QIODevice::bytesWritten, &conn, pump);
            conn.onEof = [&dropped](FakeConn &) { dropped = true; };
            conn.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffff\r\n");
            pump();
        };
    };
    test::resetPeakRss();
    const qint64 before = test::statusKb("VmRSS:");
    HttpRequest req;
    req.target = "/v1.47/containers/json";
    req.maxBufferedBody = 8 * 1024 * 1024;
    HttpClient client(server.endpoint());
    const auto r = sandbar::test::await<HttpResponse>([&](Callback<HttpResponse> cb) { client.request(req, cb); });
    QVERIFY(!r.ok());
    QVERIFY2(r.message().contains(QString::number(req.maxBufferedBody)), qPrintable(r.message()));
    QVERIFY(waitUntil([&] { return dropped; }, 5000));
    const qint64 growthKb = test::statusKb("VmHWM:") - before;
    qInfo("endless chunk: %lld KiB sent before the cap, peak RSS growth %lld KiB", sent / 1024, growthKb);
    // The 8 MiB body plus a QByteArray's doubling and the parser's pieces: well under 48 MiB.
    QVERIFY2(growthKb < 48 * 1024, qPrintable(QString::number(growthKb)));
}

void TstHostileDocker::wrongShapes()
{
    // JSON of the wrong shape for the container list, inspect and stats: an error or safe
    // values, never a crash, a negative size or a number taken from garbage.
    const MapContext ctx{QStringLiteral("acct"), QStringLiteral("docker")};
    for (const QByteArray &bad : {QByteArray("{}"), QByteArray("null"), QByteArray("\"x\""), QByteArray("[")})
        QVERIFY2(!sessionsFromList(bad, ctx).ok(), bad.constData());
    auto list = sessionsFromList(R"([1,"x",null,[],{"Id":5},{"Id":"ok","Names":"x","Labels":[1],"Created":1e300,)"
                                 R"("State":7,"Ports":{"a":1},"Mounts":"m","HostConfig":[]}])",
                                 ctx);
    QVERIFY_RESULT(list);
    QCOMPARE(list->size(), 1);
    QCOMPARE(list->at(0).id, QStringLiteral("ok"));
    QVERIFY(list->at(0).name.isEmpty());

    for (const QByteArray &bad : {QByteArray("[]"), QByteArray("{\"Id\":7}"), QByteArray("{}"), QByteArray("")})
        QVERIFY2(!sessionFromInspect(bad, ctx).ok(), bad.constData());
    auto inspect = sessionFromInspect(R"({"Id":"c","Name":[],"State":{"Status":1,"ExitCode":1e300,"OOMKilled":"yes"},)"
                                      R"("Config":"x","HostConfig":{"Memory":-1e300,"NanoCpus":"2"}})",
                                      ctx);
    QVERIFY_RESULT(inspect);
    QCOMPARE(inspect->id, QStringLiteral("c"));

    for (const QByteArray &bad : {QByteArray("[]"), QByteArray("{\"cpu_stats\":1}"), QByteArray("")})
        QVERIFY2(!parseStats(bad).ok(), bad.constData());
    auto stats = parseStats(R"({"cpu_stats":{"cpu_usage":{"total_usage":1e300},"online_cpus":1e300,)"
                            R"("system_cpu_usage":-5},"memory_stats":{"usage":1e300,"limit":1e300},)"
                            R"("networks":{"eth0":{"rx_bytes":1e300,"tx_bytes":"9"}},"pids_stats":{"current":1e300}})");
    QVERIFY_RESULT(stats);
    const StatsSample &s = stats->sample;
    QVERIFY(!s.memoryUsedBytes || *s.memoryUsedBytes >= 0);
    QVERIFY(!s.memoryLimitBytes || *s.memoryLimitBytes > 0);
    QVERIFY(!s.networkRxBytes || *s.networkRxBytes >= 0);
    QVERIFY(!s.pids || *s.pids >= 0);
    QVERIFY(stats->reading.onlineCpus >= 0);
}

void TstHostileDocker::resizesLandInOrder()
{
    // An engine that serves each resize on its own connection and applies it when it answers,
    // the first one late (Podman under load): two sizes in flight at once would leave the older
    // one applied. The terminal sends one at a time, so the newest size is the one that stays.
    FakeServer server(FakeServer::Kind::Local);
    QVERIFY(server.listening());
    QStringList applied;
    int resizes = 0;
    QObject ctx;
    fakeEngine(server, [&](FakeConn &conn, const QByteArray &line) {
        if (line.contains("/containers/c1/exec")) {
            conn.send(jsonReply(201, R"({"Id":"e1"})"));
        } else if (line.contains("/exec/e1/start")) {
            conn.send("HTTP/1.1 101 UPGRADED\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n$ ");
        } else if (line.contains("/exec/e1/resize")) {
            const QString size = QString::fromLatin1(line.mid(line.indexOf('?') + 1).split(' ').first());
            QPointer<FakeConn> held(&conn);
            QTimer::singleShot(++resizes == 1 ? 300 : 0, &ctx, [held, size, &applied] {
                if (!held)
                    return;
                applied << size;
                held->send("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            });
        } else {
            conn.send(jsonReply(404, R"({"message":"no"})"));
        }
    });
    DockerApi api(server.endpoint());
    PtyOptions options;
    DockerPtyChannel pty(&api, QStringLiteral("c1"), options);
    bool started = false;
    QObject::connect(&pty, &PtyChannel::started, &ctx, [&started] { started = true; });
    pty.start();
    QVERIFY(waitUntil([&] { return started; }, 15000));
    pty.resize(100, 30);
    pty.resize(120, 40);
    QVERIFY2(waitUntil([&] { return applied.size() >= 2; }, 15000), qPrintable(applied.join(u',')));
    QCOMPARE(applied.last(), QStringLiteral("h=40&w=120"));
    QCOMPARE(applied.first(), QStringLiteral("h=30&w=100"));
}

QTEST_GUILESS_MAIN(TstHostileDocker)
#include "tst_hostiledocker.moc"
