#include "FakeServer.h"
#include "TestSupport.h"
#include "net/HttpClient.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace sandbar;
using namespace sandbar::net;
using sandbar::test::FakeConn;
using sandbar::test::FakeServer;

Q_DECLARE_METATYPE(FakeServer::Kind)
Q_DECLARE_METATYPE(sandbar::ErrorCode)

namespace {

// A sequential device that makes `total` bytes of a known pattern on demand, so a huge
// upload needs no memory and the test can see how far reading ran ahead of the server.
class PatternDevice : public QIODevice
{
public:
    explicit PatternDevice(qint64 total)
        : m_total(total)
    {
        open(QIODevice::ReadOnly);
    }
    bool isSequential() const override { return true; }
    qint64 bytesAvailable() const override { return m_total - m_pos + QIODevice::bytesAvailable(); }
    qint64 produced() const { return m_pos; }
    static char at(qint64 i) { return char(i % 251); }

protected:
    qint64 readData(char *data, qint64 max) override
    {
        if (m_pos >= m_total)
            return -1;
        const qint64 n = qMin(max, m_total - m_pos);
        for (qint64 i = 0; i < n; ++i)
            data[i] = at(m_pos + i);
        m_pos += n;
        return n;
    }
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    qint64 m_total;
    qint64 m_pos = 0;
};

Result<HttpResponse> call(const Endpoint &ep, const HttpRequest &req)
{
    HttpClient client(ep);
    return sandbar::test::await<HttpResponse>([&](Callback<HttpResponse> cb) { client.request(req, cb); });
}

// Starts an exchange and waits for its finished signal.
struct Watched {
    QList<QByteArray> body;
    QByteArray raw;
    int heads = 0;
    int finishedCount = 0;
    std::optional<VoidResult> result;
};

void watch(HttpExchange *ex, Watched &w, QObject *context)
{
    QObject::connect(ex, &HttpExchange::headersReceived, context, [&w] { ++w.heads; });
    QObject::connect(ex, &HttpExchange::bodyData, context, [&w](const QByteArray &b) { w.body << b; });
    QObject::connect(ex, &HttpExchange::rawData, context, [&w](const QByteArray &b) { w.raw += b; });
    QObject::connect(ex, &HttpExchange::finished, context, [&w](const VoidResult &r) {
        ++w.finishedCount;
        w.result = r;
    });
}

const QByteArray kUpgradeHead = "HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.raw-stream\r\n"
                                "Connection: Upgrade\r\nUpgrade: tcp\r\n\r\n";

} // namespace

class TestHttpClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bufferedGet_data();
    void bufferedGet();
    void headAndNoContent();
    void chunkedStreamingInPieces();
    void streamedUpload64MiB();
    void chunkedUpload();
    void upgrade101WithHalfClose();
    void upgrade200WithBytesInHeaderPacket();
    void upgradeRefused();
    void responseTimeout();
    void idleTimeout();
    void droppedMidBody();
    void malformedReply();
    void missingSocket();
    void refusedTcp();
    void bufferLimit();
    void abortMidFlight();
    void deleteMidFlight_data();
    void deleteMidFlight();
    void contextGoneCancelsRequest();
    void unsafeRequestRefused();
    void connectTimeout();
    void permissionDenied();
    void tls_data();
    void tls();
};

void TestHttpClient::bufferedGet_data()
{
    QTest::addColumn<FakeServer::Kind>("kind");
    QTest::newRow("unix") << FakeServer::Kind::Local;
    QTest::newRow("tcp") << FakeServer::Kind::Tcp;
}

void TestHttpClient::bufferedGet()
{
    QFETCH(FakeServer::Kind, kind);
    FakeServer server(kind);
    QVERIFY(server.listening());
    QByteArray head;
    server.onConnection = [&](FakeConn &c) {
        c.onHead = [&](FakeConn &conn) {
            head = conn.requestHead;
            conn.send("HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\nContent-Length: 5\r\n\r\nhello");
        };
    };
    HttpRequest req;
    req.target = "/v1.41/_ping?x=%20y";
    req.headers << qMakePair(QByteArray("Accept"), QByteArray("application/json"));
    auto r = call(server.endpoint(), req);
    QVERIFY_RESULT(r);
    QCOMPARE(r->status, 200);
    QCOMPARE(r->body, QByteArray("hello"));
    QCOMPARE(r->header("api-version"), QByteArray("1.41"));
    QVERIFY(head.startsWith("GET /v1.41/_ping?x=%20y HTTP/1.1\r\n"));
    const QByteArray host = kind == FakeServer::Kind::Local
                                ? QByteArray("Host: docker\r\n")
                                : "Host: 127.0.0.1:" + QByteArray::number(server.endpoint().port) + "\r\n";
    QVERIFY2(head.contains(host), head.constData());
    QVERIFY(head.contains("Accept: application/json\r\n"));
    QVERIFY(head.contains("Connection: close\r\n"));
}

void TestHttpClient::headAndNoContent()
{
    // Neither reply has a body; both must complete without the server closing.
    FakeServer server(FakeServer::Kind::Local);
    server.onConnection = [](FakeConn &c) {
        c.onHead = [](FakeConn &conn) {
            if (conn.requestHead.startsWith("HEAD"))
                conn.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n");
            else
                conn.send("HTTP/1.1 204 No Content\r\n\r\n");
        };
    };
    HttpRequest req;
    req.method = "HEAD";
    req.target = "/x";
    req.responseTimeout = std::chrono::milliseconds(20000);
    auto r = call(server.endpoint(), req);
    QVERIFY_RESULT(r);
    QCOMPARE(r->status, 200);
    req.method = "POST";
    auto r2 = call(server.endpoint(), req);
    QVERIFY_RESULT(r2);
    QCOMPARE(r2->status, 204);
    QVERIFY(server.connections.last()->requestHead.contains("Content-Length: 0\r\n"));
}

void TestHttpClient::chunkedStreamingInPieces()
{
    FakeServer server(FakeServer::Kind::Local);
    QPointer<FakeConn> conn;
    server.onConnection = [&](FakeConn &c) {
        conn = &c;
        c.onHead = [](FakeConn &cc) { cc.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel"); };
    };
    // Each piece is sent only after the previous one was delivered, so delivery is
    // provably incremental (a chunk size is split across two reads, too).
    QList<QByteArray> pieces = {"lo\r\n1", "0;ext=1\r\n0123456789abcdef\r\n", "0\r\nTrailer: x\r\n\r\n"};
    QObject ctx;
    auto *ex = HttpClient(server.endpoint()).exchange(HttpRequest{}, &ctx);
    Watched w;
    watch(ex, w, &ctx);
    connect(ex, &HttpExchange::bodyData, &ctx, [&] {
        if (!pieces.isEmpty() && conn)
            conn->send(pieces.takeFirst());
    });
    ex->start();
    QTRY_VERIFY_WITH_TIMEOUT(w.result.has_value(), 20000);
    QVERIFY_RESULT(*w.result);
    QCOMPARE(w.body, (QList<QByteArray>{"hel", "lo", "0123456789abcdef"}));
    QCOMPARE(w.heads, 1);
    QCOMPARE(ex->response().status, 200);
    QCOMPARE(w.finishedCount, 1);
}

void TestHttpClient::streamedUpload64MiB()
{
    constexpr qint64 total = 64 * 1024 * 1024;
    FakeServer server(FakeServer::Kind::Local);
    PatternDevice device(total);
    qint64 bodySeen = 0;
    qint64 maxAhead = 0;
    bool patternOk = true;
    server.onConnection = [&](FakeConn &c) {
        c.onData = [&](FakeConn &conn) {
            if (conn.requestHead.isEmpty())
                return;
            for (char ch : std::as_const(conn.received)) {
                if (ch != PatternDevice::at(bodySeen++))
                    patternOk = false;
            }
            conn.received.clear();
            maxAhead = qMax(maxAhead, device.produced() - bodySeen);
            if (bodySeen == total)
                conn.send("HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok");
        };
    };
    HttpRequest req;
    req.method = "PUT";
    req.target = "/containers/x/archive?path=/workspace";
    req.bodyDevice = &device;
    req.bodyLength = total;
    QObject ctx;
    auto *ex = HttpClient(server.endpoint()).exchange(req, &ctx);
    qint64 lastSent = 0;
    int progressCount = 0;
    connect(ex, &HttpExchange::uploadProgress, &ctx, [&](qint64 sent, qint64 of) {
        QCOMPARE(of, total);
        lastSent = sent;
        ++progressCount;
    });
    Watched w;
    watch(ex, w, &ctx);
    ex->start();
    QTRY_VERIFY_WITH_TIMEOUT(w.result.has_value(), 60000);
    QVERIFY_RESULT(*w.result);
    QCOMPARE(ex->response().status, 201);
    QCOMPARE(bodySeen, total);
    QVERIFY(patternOk);
    QCOMPARE(lastSent, total);
    QVERIFY(progressCount > 10);
    QVERIFY(server.connections.first()->requestHead.contains("Content-Length: 67108864\r\n"));
    // Back-pressure: the device is never read far ahead of what the server took in
    // (1 MiB queue + one read + kernel socket buffers).
    QVERIFY2(maxAhead < 8 * 1024 * 1024, qPrintable(QString::number(maxAhead)));
}

void TestHttpClient::chunkedUpload()
{
    QByteArray payload(3 * 1024 * 1024 + 17, Qt::Uninitialized);
    for (qsizetype i = 0; i < payload.size(); ++i)
        payload[i] = char(i * 7);
    QBuffer buffer(&payload);
    buffer.open(QIODevice::ReadOnly);
    FakeServer server(FakeServer::Kind::Tcp);
    QByteArray decoded;
    server.onConnection = [&](FakeConn &c) {
        c.onData = [&](FakeConn &conn) {
            if (conn.received.endsWith("0\r\n\r\n") && sandbar::test::dechunk(conn.received, decoded))
                conn.send("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        };
    };
    HttpRequest req;
    req.method = "POST";
    req.bodyDevice = &buffer;
    req.bodyLength = -1;
    auto r = call(server.endpoint(), req);
    QVERIFY_RESULT(r);
    QVERIFY(server.connections.first()->requestHead.contains("Transfer-Encoding: chunked\r\n"));
    QVERIFY(!server.connections.first()->requestHead.contains("Content-Length"));
    QCOMPARE(decoded.size(), payload.size());
    QVERIFY(decoded == payload);
}

void TestHttpClient::upgrade101WithHalfClose()
{
    sandbar::test::RawUnixServer server;
    QVERIFY(server.listening());
    bool answered = false;
    server.onData = [&](sandbar::test::RawUnixServer &srv) {
        if (!answered && srv.received.contains("\r\n\r\n{\"Detach\":false}")) {
            answered = true;
            QVERIFY(srv.received.contains("Connection: Upgrade\r\nUpgrade: tcp\r\n"));
            srv.received.clear();
            srv.send(kUpgradeHead + "hello");
        } else if (answered && srv.received.contains("ping")) {
            srv.received.clear();
            srv.send("pong");
        }
    };
    server.onEof = [](sandbar::test::RawUnixServer &srv) {
        // Still writable: the client closed only its sending side.
        srv.send("bye");
        srv.closeConnection();
    };
    HttpRequest req;
    req.method = "POST";
    req.target = "/exec/1/start";
    req.body = "{\"Detach\":false}";
    req.upgrade = true;
    QObject ctx;
    auto *ex = HttpClient(server.endpoint()).exchange(req, &ctx);
    Watched w;
    watch(ex, w, &ctx);
    qint64 written = 0;
    connect(ex, &HttpExchange::bytesWritten, &ctx, [&](qint64 n) { written += n; });
    connect(ex, &HttpExchange::rawData, &ctx, [&] {
        if (w.raw == "hello") {
            ex->write("ping");
        } else if (w.raw == "hellopong") {
            ex->closeWrite();
            ex->write("ignored after closeWrite");
        }
    });
    ex->start();
    QTRY_VERIFY_WITH_TIMEOUT(w.result.has_value(), 20000);
    QVERIFY_RESULT(*w.result);
    QVERIFY(ex->isUpgraded());
    QCOMPARE(ex->response().status, 101);
    QVERIFY(server.eof);
    QCOMPARE(w.raw, QByteArray("hellopongbye"));
    QCOMPARE(written, 4);
    QVERIFY(w.body.isEmpty());
    QCOMPARE(w.finishedCount, 1);
}

void TestHttpClient::upgrade200WithBytesInHeaderPacket()
{
    const QByteArray frame("\x01\x00\x00\x00\x00\x00\x00\x03"
                           "abc",
                           11);
    FakeServer server(FakeServer::Kind::Tcp);
    server.onConnection = [&](FakeConn &c) {
        c.onHead = [&](FakeConn &conn) {
            conn.send("HTTP/1.1 200 OK\r\nContent-Type: application/vnd.docker.raw-stream\r\n\r\n" + frame);
            conn.close();
        };
    };
    HttpRequest req;
    req.method = "POST";
    req.upgrade = true;
    QObject ctx;
    auto *ex = HttpClient(server.endpoint()).exchange(req, &ctx);
    Watched w;
    watch(ex, w, &ctx);
    ex->start();
    QTRY_VERIFY_WITH_TIMEOUT(w.result.has_value(), 20000);
    QVERIFY_RESULT(*w.result);
    QVERIFY(ex->isUpgraded());
    QCOMPARE(w.raw, frame);
    QCOMPARE(w.heads, 1);
}

void TestHttpClient::upgradeRefused()
{
    FakeServer server(FakeServer::Kind::Local);
    server.onConnection = [](FakeConn &c) {
        c.onHead = [](FakeConn &conn) {
            conn.send("HTTP/1.1 409 Conflict\r\nContent-Length: 29\r\n\r\n{\"message\":\"is not running\"}\n");
        };
    };
    HttpRequest req;
    req.upgrade = true;
    auto r = call(server.endpoint(), req);
    QVERIFY_RESULT(r);
    QCOMPARE(r->status, 409);
    QCOMPARE(r->body, QByteArray("{\"message\":\"is not running\"}\n"));
}

void TestHttpClient::responseTimeout()
{
    FakeServer server(FakeServer::Kind::Local); // accepts and never answers
    HttpRequest req;
    req.responseTimeout = std::chrono::milliseconds(100);
    QElapsedTimer t;
    t.start();
    auto r = call(server.endpoint(), req);
    QVERIFY(!r.ok());
    QCOMPARE(r.code(), ErrorCode::Timeout);
    QVERIFY(t.elapsed() >= 90);
    QVERIFY2(r.message().contains(server.endpoint().display()), qPrintable(r.message()));
}

void TestHttpClient::idleTimeout()
{
    FakeServer server(FakeServer::Kind::Local);
    server.onConnection = [](FakeConn &c) {
        c.onHead = [](FakeConn &conn) {
            conn.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n");
        };
    };
    HttpRequest req;
    req.idleTimeout = std::chrono::milliseconds(100);
    auto r = call(server.endpoint(), req);
    QVERIFY(!r.ok());
    QCOMPARE(r.code(), ErrorCode::Timeout);
}

void TestHttpClient::droppedMidBody()
{
    FakeServer server(FakeServer::Kind::Local);
    server.onConnection = [](FakeConn &c) {
        c.onHead = [](FakeConn &conn) {
            conn.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789");
            conn.close();
        };
    };
    auto r = call(server.endpoint(), HttpRequest{});
    QVERIFY(!r.ok());
    QCOMPARE(r.code(), ErrorCode::Unavailable);
    QVERIFY2(r.message().contains(server.endpoint().display()), qPrintable(r.message()));
}

void TestHttpClient::malformedReply()
{
    FakeServer server(FakeServer::Kind::Local);
    server.onConnection = [](FakeConn &c) { c.onHead = [](FakeConn &conn) { conn.send("SSH-2.0-OpenSSH_9.2\r\n"); }; };
    auto r = call(server.endpoint(), HttpRequest{});
    QVERIFY(!r.ok());
    QCOMPARE(r.code(), ErrorCode::Internal);
    QVERIFY2(r.message().startsWith(QStringLiteral("Malformed reply from unix://")), qPrintable(r.message()));
}

void TestHttpClient::missingSocket()
{
    FakeServer server(FakeServer::Kind::Local);
    Endpoint ep;
    ep.path = server.missingPath();
    auto r = call(ep, HttpRequest{});
    QVERIFY(!r.ok());
    QCOMPARE(r.code(), ErrorCode::Unavailable);
    QVERIFY2(r.message().contains(QStringLiteral("unix://") + ep.path), qPrintable(r.message()));
    QVERIFY2(r.message().contains(QStringLiteral("no such socket")), qPrintable(r.message()));
}

void TestHttpClient::refusedTcp()
{
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        port = probe.serverPort();
    }
    auto ep = Endpoint::parse(QStringLiteral("tcp://127.0.0.1:%1").arg(port));
    QVERIFY_RESULT(ep);
    auto r = call(*ep, HttpRequest{});
    QVERIFY(!r.ok());
    QCOMPARE(r.code(), ErrorCode::Unavailable);
    QVERIFY2(r.message().contains(QStringLiteral("connection refused")), qPrintable(r.message()));
}

void TestHttpClient::bufferLimit()
{
    FakeServer server(FakeServer::Kind::Local);
    server.onConnection = [](FakeConn &c) {
        c.onHead = [](FakeConn &conn) {
            conn.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + QByteArray(100, 'x'));
        };
    };
    HttpRequest req;
    req.maxBufferedBody = 10;
    auto r = call(server.endpoint(), req);
    QVERIFY(!r.ok());
    QCOMPARE(r.code(), ErrorCode::LimitReached);
}

void TestHttpClient::abortMidFlight()
{
    FakeServer server(FakeServer::Kind::Local);
    QPointer<FakeConn> conn;
    server.onConnection = [&](FakeConn &c) {
        conn = &c;
        c.onHead = [](FakeConn &cc) { cc.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n"); };
    };
    QObject ctx;
    auto *ex = HttpClient(server.endpoint()).exchange(HttpRequest{}, &ctx);
    Watched w;
    watch(ex, w, &ctx);
    connect(ex, &HttpExchange::bodyData, &ctx, [&] {
        ex->abort();
        ex->abort();
        if (conn)
            conn->send("3\r\ndef\r\n");
    });
    ex->start();
    QTRY_VERIFY_WITH_TIMEOUT(conn && conn->eof, 20000);
    QCOMPARE(w.finishedCount, 1);
    QCOMPARE(w.result->code(), ErrorCode::Cancelled);
    QCOMPARE(w.body, QList<QByteArray>{"abc"});
}

void TestHttpClient::deleteMidFlight_data()
{
    QTest::addColumn<QString>("when");
    QTest::newRow("while connecting to a missing socket") << QStringLiteral("start");
    QTest::newRow("in headersReceived") << QStringLiteral("head");
    QTest::newRow("in bodyData") << QStringLiteral("body");
    QTest::newRow("in finished") << QStringLiteral("finished");
}

void TestHttpClient::deleteMidFlight()
{
    QFETCH(QString, when);
    FakeServer server(FakeServer::Kind::Local);
    QPointer<FakeConn> conn;
    server.onConnection = [&](FakeConn &c) {
        conn = &c;
        c.onHead = [](FakeConn &cc) {
            cc.send("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nabc");
            cc.send("def");
        };
    };
    Endpoint ep = server.endpoint();
    if (when == QLatin1String("start"))
        ep.path = server.missingPath();
    QObject ctx;
    QPointer<HttpExchange> ex = HttpClient(ep).exchange(HttpRequest{}, &ctx);
    int signalsAfterDelete = 0;
    bool deleted = false;
    auto maybeDelete = [&](const QString &here) {
        if (deleted) {
            ++signalsAfterDelete;
            return;
        }
        if (here == when) {
            deleted = true;
            delete ex.data();
        }
    };
    connect(ex, &HttpExchange::headersReceived, &ctx, [&] { maybeDelete(QStringLiteral("head")); });
    connect(ex, &HttpExchange::bodyData, &ctx, [&] { maybeDelete(QStringLiteral("body")); });
    connect(ex, &HttpExchange::finished, &ctx, [&] { maybeDelete(QStringLiteral("finished")); });
    ex->start();
    if (when == QLatin1String("start")) {
        deleted = true;
        delete ex.data();
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
    } else {
        QTRY_VERIFY_WITH_TIMEOUT(deleted, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(conn && conn->eof, 20000);
    }
    QVERIFY(ex.isNull());
    QCOMPARE(signalsAfterDelete, 0);
}

void TestHttpClient::contextGoneCancelsRequest()
{
    FakeServer server(FakeServer::Kind::Local);
    QPointer<FakeConn> conn;
    server.onConnection = [&](FakeConn &c) { conn = &c; };
    auto ctx = std::make_unique<QObject>();
    bool called = false;
    HttpClient(server.endpoint()).request(HttpRequest{}, Callback<HttpResponse>(ctx.get(), [&](Result<HttpResponse>) {
                                              called = true;
                                          }));
    QTRY_VERIFY_WITH_TIMEOUT(conn, 20000);
    ctx.reset();
    QTRY_VERIFY_WITH_TIMEOUT(conn->eof, 20000);
    QVERIFY(!called);
}

void TestHttpClient::connectTimeout()
{
    // A listening socket that never accepts, its backlog filled up: a new connect waits.
    QTemporaryDir dir;
    const QByteArray path = QFile::encodeName(dir.filePath(QStringLiteral("full.sock")));
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    QVERIFY(size_t(path.size()) < sizeof(addr.sun_path));
    std::memcpy(addr.sun_path, path.constData(), size_t(path.size()));
    const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
    QVERIFY(listener >= 0);
    QVERIFY(::bind(listener, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) == 0);
    QVERIFY(::listen(listener, 0) == 0);
    QList<int> fillers;
    // Through a pointer, so scripts/check-connects.sh does not take it for QObject::connect.
    int (*const posixConnect)(int, const sockaddr *, socklen_t) = &::connect;
    for (int i = 0; i < 64; ++i) {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
        fillers << fd;
        if (posixConnect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) != 0)
            break; // EAGAIN: the backlog is full
    }
    Endpoint ep;
    ep.path = QFile::decodeName(path);
    HttpRequest req;
    req.connectTimeout = std::chrono::milliseconds(100);
    auto r = call(ep, req);
    for (int fd : std::as_const(fillers))
        ::close(fd);
    ::close(listener);
    QVERIFY(!r.ok());
    QCOMPARE(r.code(), ErrorCode::Timeout);
    QVERIFY2(r.message().contains(ep.toUrl()), qPrintable(r.message()));
}

void TestHttpClient::permissionDenied()
{
    if (::geteuid() == 0) {
        // Root opens any socket whatever its mode, so the check runs again in a copy of this
        // test as nobody (65534), outside every group, like a user outside the docker group.
        const QString setpriv = QStandardPaths::findExecutable(QStringLiteral("setpriv"));
        SANDBAR_REQUIRE(!setpriv.isEmpty(), QStringLiteral("setpriv (util-linux) is needed to drop root"));
        QProcess child;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), QDir::tempPath());
        env.insert(QStringLiteral("TMPDIR"), QDir::tempPath());
        env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::MergedChannels);
        child.start(setpriv,
                    {QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"), QStringLiteral("--clear-groups"),
                     QCoreApplication::applicationFilePath(), QStringLiteral("permissionDenied")});
        QVERIFY2(child.waitForStarted(30000), qPrintable(child.errorString()));
        if (!child.waitForFinished(60000))
            child.kill();
        child.waitForFinished();
        const QByteArray out = child.readAll();
        QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, out.constData());
        // Passed, not skipped: the unprivileged run really met the closed socket.
        QVERIFY2(out.contains("PASS   : TestHttpClient::permissionDenied()"), out.constData());
        return;
    }
    FakeServer server(FakeServer::Kind::Local);
    const Endpoint ep = server.endpoint();
    QVERIFY(QFile::setPermissions(ep.path, QFileDevice::Permissions{}));
    auto r = call(ep, HttpRequest{});
    QVERIFY(!r.ok());
    QCOMPARE(r.code(), ErrorCode::Unauthorized);
    QVERIFY2(r.message().contains(QStringLiteral("Permission denied on ") + ep.path), qPrintable(r.message()));
    QVERIFY(r.message().contains(QStringLiteral("docker group")));
}

void TestHttpClient::unsafeRequestRefused()
{
    FakeServer server(FakeServer::Kind::Local);
    HttpRequest req;
    req.target = "/containers/x\r\nX-Injected: 1/json";
    auto r = call(server.endpoint(), req);
    QVERIFY(!r.ok());
    QCOMPARE(r.code(), ErrorCode::InvalidArgument);
    HttpRequest req2;
    req2.headers.append(qMakePair(QByteArray("X-Registry-Auth"), QByteArray("a\nb")));
    auto r2 = call(server.endpoint(), req2);
    QCOMPARE(r2.code(), ErrorCode::InvalidArgument);
    QVERIFY(server.connections.isEmpty());
}

void TestHttpClient::tls_data()
{
    QTest::addColumn<bool>("requireClientCert");
    QTest::addColumn<QString>("ca");
    QTest::addColumn<bool>("verify");
    QTest::addColumn<QString>("cert");
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<ErrorCode>("code");
    QTest::addColumn<QString>("inMessage");

    const QString ca = QStringLiteral("tls/ca.pem");
    const QString other = QStringLiteral("tls/other-ca.pem");
    const QString cert = QStringLiteral("tls/client.pem");
    const QString key = QStringLiteral("tls/client-key.pem");
    QTest::newRow("verified with its CA")
        << false << ca << true << QString() << QString() << true << ErrorCode::Internal << QString();
    QTest::newRow("unverified, no CA") << false << QString() << false << QString() << QString() << true
                                       << ErrorCode::Internal << QString();
    QTest::newRow("wrong CA") << false << other << true << QString() << QString() << false << ErrorCode::Unavailable
                              << QStringLiteral("TLS handshake");
    QTest::newRow("client certificate (EC, PKCS#8)")
        << true << ca << true << cert << key << true << ErrorCode::Internal << QString();
    QTest::newRow("client certificate required, none given")
        << true << ca << true << QString() << QString() << false << ErrorCode::Unavailable << QString();
    QTest::newRow("key file missing") << false << ca << true << cert << QStringLiteral("tls/nope.pem") << false
                                      << ErrorCode::InvalidArgument << QStringLiteral("nope.pem");
    QTest::newRow("CA file is not PEM") << false << QStringLiteral("tls/README.md") << true << QString() << QString()
                                        << false << ErrorCode::InvalidArgument << QStringLiteral("README.md");
}

void TestHttpClient::tls()
{
    SANDBAR_REQUIRE(QSslSocket::supportsSsl(), QStringLiteral("Qt was built without a TLS backend"));
    QFETCH(bool, requireClientCert);
    QFETCH(QString, ca);
    QFETCH(bool, verify);
    QFETCH(QString, cert);
    QFETCH(QString, key);
    QFETCH(bool, ok);
    QFETCH(ErrorCode, code);
    QFETCH(QString, inMessage);

    FakeServer server(FakeServer::Kind::Tls, requireClientCert);
    QVERIFY(server.listening());
    server.onConnection = [](FakeConn &c) {
        c.onHead = [](FakeConn &conn) { conn.send("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecret"); };
    };
    Endpoint ep = server.endpoint();
    QVERIFY(ep.tls);
    ep.verifyPeer = verify;
    auto path = [](const QString &name) { return name.isEmpty() ? QString() : sandbar::test::testData(name); };
    ep.caFile = path(ca);
    ep.certFile = path(cert);
    ep.keyFile = path(key);
    auto r = call(ep, HttpRequest{});
    QCOMPARE(r.ok(), ok);
    if (ok) {
        QCOMPARE(r->body, QByteArray("secret"));
        return;
    }
    QCOMPARE(r.code(), code);
    QVERIFY2(r.message().contains(inMessage), qPrintable(r.message()));
}

QTEST_GUILESS_MAIN(TestHttpClient)
#include "tst_httpclient.moc"
