// Forwarded ports as the Engine API describes them (inspect and list), the inspect JSON kept
// for the Info tab, and the log framing a logs stream meets (no parser of its own: the
// exec/attach StreamDemuxer).
#include "TestSupport.h"
#include "providers/docker/DockerLogs.h"
#include "providers/docker/DockerParsers.h"

#include <QLocalServer>
#include <QLocalSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;
using namespace sandbar::docker;

namespace {
const MapContext kCtx{QStringLiteral("acct"), QStringLiteral("docker")};

QByteArray inspectWithPorts(const QByteArray &ports)
{
    return R"({"Id":"abc123","Name":"/box","Config":{"Image":"busybox","Labels":{}},"HostConfig":{"NetworkMode":"bridge"},)"
           R"("State":{"Status":"running"},"NetworkSettings":{"Ports":)" +
           ports + "}}";
}

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
} // namespace

// Just enough of an engine for a logs stream: ping, version, inspect, then a logs body that
// `logsReply` writes (and the connection closes, as a dying engine's would).
class FakeEngine : public QObject
{
public:
    explicit FakeEngine(const QString &path)
    {
        QLocalServer::removeServer(path);
        m_server.listen(path);
        connect(&m_server, &QLocalServer::newConnection, this, [this] {
            while (QLocalSocket *s = m_server.nextPendingConnection()) {
                auto request = std::make_shared<QByteArray>();
                connect(s, &QLocalSocket::readyRead, s, [this, s, request] {
                    *request += s->readAll();
                    if (!request->contains("\r\n\r\n"))
                        return;
                    const QByteArray target = request->split(' ').value(1);
                    s->write(answer(target));
                    s->disconnectFromServer();
                });
            }
        });
    }
    QString url() const { return QStringLiteral("unix://") + m_server.fullServerName(); }
    QByteArray logsReply;
    QList<QByteArray> targets;

private:
    QByteArray answer(const QByteArray &target)
    {
        targets << target;
        const auto json = [](const QByteArray &body) -> QByteArray {
            return "HTTP/1.1 200 OK\r\nApi-Version: 1.45\r\nContent-Type: application/json\r\nContent-Length: " +
                   QByteArray::number(body.size()) + "\r\n\r\n" + body;
        };
        if (target.startsWith("/_ping"))
            return json("OK");
        if (target.endsWith("/version"))
            return json(R"({"Version":"27.0","Os":"linux"})");
        if (target.contains("/logs"))
            return logsReply;
        if (target.contains("/containers/"))
            return json(R"({"Id":"abc","Config":{"Tty":false}})");
        return "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
    }
    QLocalServer m_server;
};

QByteArray chunked(const QByteArray &payload)
{
    return QByteArray::number(payload.size(), 16) + "\r\n" + payload + "\r\n";
}

class TestDockerPorts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void inspectEndpoints_data()
    {
        QTest::addColumn<QByteArray>("ports");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QStringList>("urls");
        QTest::newRow("none") << QByteArray("{}") << QStringList() << QStringList();
        QTest::newRow("null field") << QByteArray("null") << QStringList() << QStringList();
        QTest::newRow("exposed, not published") << QByteArray(R"({"8080/tcp":null})") << QStringList() << QStringList();
        QTest::newRow("loopback") << QByteArray(R"({"8080/tcp":[{"HostIp":"127.0.0.1","HostPort":"49153"}]})")
                                  << QStringList{QStringLiteral("8080/tcp")}
                                  << QStringList{QStringLiteral("http://127.0.0.1:49153")};
        QTest::newRow("both families, one row")
            << QByteArray(R"({"80/tcp":[{"HostIp":"0.0.0.0","HostPort":"8000"},{"HostIp":"::","HostPort":"8000"}]})")
            << QStringList{QStringLiteral("80/tcp")} << QStringList{QStringLiteral("http://127.0.0.1:8000")};
        QTest::newRow("ipv6 loopback") << QByteArray(R"({"80/tcp":[{"HostIp":"::1","HostPort":"8000"}]})")
                                       << QStringList{QStringLiteral("80/tcp")}
                                       << QStringList{QStringLiteral("http://[::1]:8000")};
        QTest::newRow("udp") << QByteArray(R"({"53/udp":[{"HostIp":"127.0.0.1","HostPort":"5353"}]})")
                             << QStringList{QStringLiteral("53/udp")}
                             << QStringList{QStringLiteral("udp://127.0.0.1:5353")};
        QTest::newRow("garbage entries") << QByteArray(R"({"x":[1],"80/tcp":[{"HostPort":7}],"81/tcp":"no"})")
                                         << QStringList() << QStringList();
    }
    void inspectEndpoints()
    {
        QFETCH(QByteArray, ports);
        QFETCH(QStringList, names);
        QFETCH(QStringList, urls);
        const QByteArray body = inspectWithPorts(ports);
        const auto s = sessionFromInspect(body, kCtx);
        QVERIFY_RESULT(s);
        QStringList gotNames, gotUrls;
        for (const auto &e : s->endpoints) {
            gotNames << e.name;
            gotUrls << e.url;
            QVERIFY(e.hostPort > 0 && e.sessionPort > 0);
        }
        QCOMPARE(gotNames, names);
        QCOMPARE(gotUrls, urls);
        QCOMPARE(s->rawJson, body);
    }

    void listEndpoints()
    {
        const QByteArray body =
            R"([{"Id":"abc","Names":["/box"],"Image":"busybox","Labels":{},"State":"running","Status":"Up",)"
            R"("Ports":[{"IP":"127.0.0.1","PrivatePort":8080,"PublicPort":49153,"Type":"tcp"},)"
            R"({"PrivatePort":9000,"Type":"tcp"},{"IP":"::","PrivatePort":8080,"PublicPort":49153,"Type":"tcp"}]}])";
        const auto list = sessionsFromList(body, kCtx);
        QVERIFY_RESULT(list);
        QCOMPARE(list->size(), 1);
        const auto &e = list->first().endpoints;
        QCOMPARE(e.size(), 1);
        QCOMPARE(e.first().name, QStringLiteral("8080/tcp"));
        QCOMPARE(e.first().url, QStringLiteral("http://127.0.0.1:49153"));
        QCOMPARE(e.first().sessionPort, 8080);
        QCOMPARE(e.first().hostPort, 49153);
    }

    // What a logs body can look like to the demuxer.
    void logFraming_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QByteArray>("out");
        QTest::addColumn<QByteArray>("err");
        QTest::addColumn<bool>("midFrame");
        QTest::newRow("empty") << QByteArray() << true << QByteArray() << QByteArray() << false;
        QTest::newRow("out and err") << frame(1, "out\n") + frame(2, "err\n") << true << QByteArray("out\n")
                                     << QByteArray("err\n") << false;
        QTest::newRow("zero-length frame")
            << frame(1, {}) + frame(1, "x") << true << QByteArray("x") << QByteArray() << false;
        QTest::newRow("truncated header") << frame(1, "abc").left(5) << true << QByteArray() << QByteArray() << true;
        QTest::newRow("truncated payload")
            << frame(2, "abcdef").left(11) << true << QByteArray() << QByteArray("abc") << true;
        QTest::newRow("garbage") << QByteArray("plain text, not framed\n") << false << QByteArray() << QByteArray()
                                 << false;
        QByteArray badPadding = frame(1, "x");
        badPadding[2] = 1;
        QTest::newRow("bad padding") << badPadding << false << QByteArray() << QByteArray() << false;
    }
    void logFraming()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, ok);
        QFETCH(QByteArray, out);
        QFETCH(QByteArray, err);
        QFETCH(bool, midFrame);
        StreamDemuxer d;
        QByteArray gotOut, gotErr;
        bool failed = false;
        // Byte by byte: a logs body arrives in chunks that ignore frame boundaries.
        for (qsizetype i = 0; i < bytes.size() && !failed; ++i) {
            const auto chunks = d.feed(bytes.mid(i, 1));
            if (!chunks) {
                failed = true;
                break;
            }
            for (const auto &c : *chunks)
                (c.stream == 2 ? gotErr : gotOut) += c.data;
        }
        QCOMPARE(!failed, ok);
        if (!ok)
            return;
        QCOMPARE(gotOut, out);
        QCOMPARE(gotErr, err);
        QCOMPARE(d.midFrame(), midFrame);
    }

    // A logs stream over a connection that drops: what came is delivered, then an error.
    void logsOverAFakeEngine_data()
    {
        QTest::addColumn<bool>("dropped");
        QTest::newRow("complete") << false;
        QTest::newRow("dropped mid-stream") << true;
    }
    void logsOverAFakeEngine()
    {
        QFETCH(bool, dropped);
        QTemporaryDir dir;
        // A frame split across two chunks, then the end or a connection cut inside a frame.
        FakeEngine engine(dir.filePath(QStringLiteral("engine.sock")));
        engine.logsReply = "HTTP/1.1 200 OK\r\nApi-Version: 1.45\r\nTransfer-Encoding: chunked\r\n\r\n" +
                           chunked(frame(1, "out\n") + frame(2, "err\n").left(10)) +
                           chunked(frame(2, "err\n").mid(10)) +
                           (dropped ? chunked(frame(1, "cut").left(6)) : chunked({}));
        auto ep = net::Endpoint::parse(engine.url());
        QVERIFY_RESULT(ep);
        DockerApi api(*ep);
        LogOptions options;
        options.follow = true;
        options.tail = 5;
        DockerLogStream stream(&api, QStringLiteral("abc"), options);
        QByteArray out, err;
        std::optional<VoidResult> result;
        connect(&stream, &LogStream::data, this, [&](const QByteArray &b, int s) { (s == 2 ? err : out) += b; });
        connect(&stream, &LogStream::finished, this, [&](const VoidResult &r) { result = r; });
        stream.start();
        QVERIFY(test::waitUntil([&] { return result.has_value(); }, 10000));
        QCOMPARE(out, QByteArray("out\n"));
        QCOMPARE(err, QByteArray("err\n"));
        QCOMPARE(result->ok(), !dropped);
        if (dropped)
            QVERIFY(!result->message().isEmpty());
        const QByteArray logsTarget = engine.targets.last();
        QVERIFY2(logsTarget.contains("/containers/abc/logs?stdout=1&stderr=1&follow=1&tail=5&timestamps=0"),
                 logsTarget.constData());
    }
};

QTEST_GUILESS_MAIN(TestDockerPorts)
#include "tst_dockerports.moc"
