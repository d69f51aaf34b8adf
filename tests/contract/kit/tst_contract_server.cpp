// The kit on the wire: a real sandbar-contract-server (admin API, faults, protocol
// edge cases, a streamed 64 MiB upload) and an in-process Server (stream faults,
// WebSocket routes over plain TCP and TLS).

#include "ServerProcess.h"
#include "TestSupport.h"
#include "kit/Connect.h"
#include "kit/Faults.h"
#include "kit/Server.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QWebSocket>

using namespace contract;

namespace {

// One blocking exchange on a fresh connection; returns the raw response.
QByteArray exchange(quint16 port, const QByteArray &bytes, int timeoutMs = 10000)
{
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!socket.waitForConnected(5000))
        return {};
    socket.write(bytes);
    QByteArray reply;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        if (!socket.waitForReadyRead(100) && socket.state() != QAbstractSocket::ConnectedState)
            break;
        reply += socket.readAll();
        if (reply.contains("\r\n\r\n") && reply.contains("Connection: keep-alive")) {
            const int end = reply.indexOf("\r\n\r\n");
            const int cl = reply.indexOf("Content-Length: ");
            if (cl >= 0 && cl < end &&
                reply.size() - end - 4 >= reply.mid(cl + 16, reply.indexOf('\r', cl) - cl - 16).toInt())
                break;
        }
    }
    return reply + socket.readAll();
}

int statusOf(const QByteArray &response)
{
    return response.startsWith("HTTP/1.1 ") ? response.mid(9, 3).toInt() : 0;
}

QByteArray bodyOf(const QByteArray &response)
{
    const int end = response.indexOf("\r\n\r\n");
    return end < 0 ? QByteArray() : response.mid(end + 4);
}

QByteArray createRequest(const QByteArray &key = "e2b_contract_test_key")
{
    const QByteArray body = R"({"templateID":"base","timeout":60})";
    return "POST /v2/sandboxes HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: " + key +
           "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) +
           "\r\nConnection: close\r\n\r\n" + body;
}

qint64 peakRssKiB(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

} // namespace

class TestContractServer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void serverFaultsAndAdmin();
    void serverProtocol();
    void largeUploadIsStreamed();
    void streamFaults();
    void webSocketAndTls_data();
    void webSocketAndTls();
    void lifecycleRules();
    void tlsServerProcess();
};

void TestContractServer::serverFaultsAndAdmin()
{
    ServerProcess server(QStringLiteral("e2b"),
                         {QStringLiteral("--faults"), QStringLiteral("503x1@POST:/v2/sandboxes")});
    QVERIFY2(server.start(), qPrintable(server.error()));
    QVERIFY(server.baseUrl().startsWith(QLatin1String("http://127.0.0.1:")));
    // From the command line: the first create fails, the second works.
    QCOMPARE(statusOf(exchange(server.port(), createRequest())), 503);
    QCOMPARE(statusOf(exchange(server.port(), createRequest())), 201);
    QCOMPARE(statusOf(exchange(server.port(), createRequest("wrong"))), 401);
    // lost-reply: the sandbox is made, the client gets nothing.
    QVERIFY(server.addFault(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"), QStringLiteral("lost-reply"), 1));
    QCOMPARE(exchange(server.port(), createRequest()), QByteArray());
    QJsonObject state = server.state();
    QCOMPARE(state.value(QStringLiteral("sandboxesCreated")).toInt(), 2);
    QCOMPARE(state.value(QStringLiteral("sandboxes")).toArray().size(), 2);
    QCOMPARE(state.value(QStringLiteral("requests")).toObject().value(QStringLiteral("POST /v2/sandboxes")).toInt(), 4);
    // 429 with Retry-After, malformed JSON, slow.
    QVERIFY(server.addFault(QString(), QStringLiteral("/v2/sandboxes*"), QStringLiteral("429"), 1));
    const QByteArray limited = exchange(server.port(), createRequest());
    QCOMPARE(statusOf(limited), 429);
    QVERIFY(limited.contains("Retry-After: 1\r\n"));
    QVERIFY(server.addFault(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"), QStringLiteral("malformed"), 1));
    const QByteArray broken = exchange(server.port(), createRequest());
    QCOMPARE(statusOf(broken), 200);
    QVERIFY(QJsonDocument::fromJson(bodyOf(broken)).isNull());
    QVERIFY(server.addFault(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"), QStringLiteral("slow:300"), 1));
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(statusOf(exchange(server.port(), createRequest())), 201);
    QVERIFY(timer.elapsed() >= 300);
    QVERIFY(server.addFault(QStringLiteral("POST"), QStringLiteral("/v2/sandboxes"), QStringLiteral("reset"), 1));
    QCOMPARE(exchange(server.port(), createRequest()), QByteArray());
    QCOMPARE(server.state().value(QStringLiteral("sandboxesCreated")).toInt(), 3); // reset performs nothing
    QVERIFY(!server.addFault(QStringLiteral("POST"), QStringLiteral("/x"), QStringLiteral("explode"), 1));
    QVERIFY(server.clearFaults());
    QCOMPARE(server.state().value(QStringLiteral("faults")).toArray().size(), 0);
}

void TestContractServer::serverProtocol()
{
    ServerProcess server(QStringLiteral("e2b"));
    QVERIFY2(server.start(), qPrintable(server.error()));
    // Keep-alive: two requests on one connection, the second chunked.
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), server.port());
    QVERIFY(socket.waitForConnected(5000));
    socket.write("GET /v2/sandboxes HTTP/1.1\r\nHost: a\r\nX-API-Key: e2b_contract_test_key\r\n\r\n");
    QVERIFY(sandbar::test::waitUntil([&] { return socket.waitForReadyRead(10) || socket.bytesAvailable(); }, 5000));
    QByteArray first;
    QVERIFY(sandbar::test::waitUntil(
        [&] {
            first += socket.readAll();
            return first.endsWith("[]");
        },
        5000));
    QCOMPARE(statusOf(first), 200);
    socket.write("POST /v2/sandboxes HTTP/1.1\r\nHost: a\r\nX-API-Key: e2b_contract_test_key\r\n"
                 "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n");
    QByteArray interim;
    QVERIFY(sandbar::test::waitUntil(
        [&] {
            socket.waitForReadyRead(10);
            interim += socket.readAll();
            return interim.contains("\r\n\r\n");
        },
        5000));
    QVERIFY(interim.startsWith("HTTP/1.1 100 Continue\r\n\r\n"));
    socket.write("d\r\n{\"templateID\"\r\n8\r\n:\"base\"}\r\n0\r\n\r\n");
    QByteArray second;
    QVERIFY(sandbar::test::waitUntil(
        [&] {
            socket.waitForReadyRead(10);
            second += socket.readAll();
            return second.endsWith("}");
        },
        5000));
    QCOMPARE(statusOf(second), 201);
    // Wrong content type, malformed JSON, missing templateID, huge header, garbage.
    auto post = [&](const QByteArray &type, const QByteArray &body) {
        return statusOf(
            exchange(server.port(), "POST /v2/sandboxes HTTP/1.1\r\nHost: a\r\nX-API-Key: e2b_contract_test_key\r\n"
                                    "Content-Type: " +
                                        type + "\r\nContent-Length: " + QByteArray::number(body.size()) +
                                        "\r\nConnection: close\r\n\r\n" + body));
    };
    QCOMPARE(post("text/plain", "{}"), 415);
    QCOMPARE(post("application/json", "{oops"), 400);
    QCOMPARE(post("application/json", "{}"), 400);
    QCOMPARE(
        statusOf(exchange(server.port(), "GET / HTTP/1.1\r\nHost: a\r\nX: " + QByteArray(70000, 'x') + "\r\n\r\n")),
        431);
    QCOMPARE(statusOf(exchange(server.port(), "BLAH\r\n\r\n")), 400);
    QCOMPARE(statusOf(exchange(server.port(), "GET /sandboxes/nope HTTP/1.1\r\nHost: a\r\nX-API-Key: "
                                              "e2b_contract_test_key\r\nConnection: close\r\n\r\n")),
             404);
    // envd of an unknown sandbox: the proxy's 502.
    QCOMPARE(statusOf(exchange(server.port(),
                               "GET /health HTTP/1.1\r\nHost: a\r\nE2b-Sandbox-Id: nope\r\nConnection: close\r\n\r\n")),
             502);
}

void TestContractServer::largeUploadIsStreamed()
{
    ServerProcess server(QStringLiteral("e2b"));
    QVERIFY2(server.start(), qPrintable(server.error()));
    const QByteArray created = exchange(server.port(), createRequest());
    QCOMPARE(statusOf(created), 201);
    const QByteArray id =
        QJsonDocument::fromJson(bodyOf(created)).object().value(QStringLiteral("sandboxID")).toString().toUtf8();
    const qint64 size = 64 * 1024 * 1024;
    const QByteArray head = "--BOUND\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n\r\n";
    const QByteArray tail = "\r\n--BOUND--\r\n";
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), server.port());
    QVERIFY(socket.waitForConnected(5000));
    socket.write("POST /files?path=/home/user/big.bin HTTP/1.1\r\nHost: a\r\nE2b-Sandbox-Id: " + id +
                 "\r\nContent-Type: multipart/form-data; boundary=BOUND\r\nConnection: close\r\nContent-Length: " +
                 QByteArray::number(head.size() + size + tail.size()) + "\r\n\r\n" + head);
    const QByteArray chunk(1024 * 1024, 'q');
    for (qint64 sent = 0; sent < size; sent += chunk.size()) {
        socket.write(chunk);
        while (socket.bytesToWrite() > 4 * 1024 * 1024)
            socket.waitForBytesWritten(1000);
    }
    socket.write(tail);
    QByteArray reply;
    QVERIFY(sandbar::test::waitUntil(
        [&] {
            socket.waitForReadyRead(20);
            reply += socket.readAll();
            return socket.state() != QAbstractSocket::ConnectedState || reply.endsWith("]");
        },
        60000));
    QCOMPARE(statusOf(reply), 200);
    const QString folder = server.state()
                               .value(QStringLiteral("sandboxes"))
                               .toArray()
                               .at(0)
                               .toObject()
                               .value(QStringLiteral("folder"))
                               .toString();
    QCOMPARE(QFileInfo(folder + QStringLiteral("/home/big.bin")).size(), size);
    const qint64 peak = peakRssKiB(server.pid());
    qInfo("server peak RSS after a 64 MiB upload: %lld KiB", peak);
    QVERIFY2(peak > 0 && peak < 48 * 1024, "the upload was held in memory");
}

void TestContractServer::streamFaults()
{
    // An in-process server with a Connect stream of three envelopes.
    Server server;
    server
        .route("POST", QStringLiteral("/stream"),
               [](const Request &, Responder *res) {
                   connectrpc::beginStream(res);
                   for (int i = 0; i < 3; ++i)
                       connectrpc::writeMessage(res,
                                                QJsonObject{{QStringLiteral("n"), i},
                                                            {QStringLiteral("pad"), QString(40, QLatin1Char('p'))}});
                   connectrpc::endStream(res);
               })
        .streams();
    QVERIFY(server.listen(0).ok());
    auto fetch = [&] {
        QTcpSocket socket;
        socket.connectToHost(QStringLiteral("127.0.0.1"), server.port());
        socket.write("POST /stream HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        QByteArray reply;
        bool closed = false;
        sandbar::test::waitUntil(
            [&] {
                reply += socket.readAll();
                closed = socket.state() == QAbstractSocket::UnconnectedState;
                return closed;
            },
            5000);
        return reply + socket.readAll();
    };
    const QByteArray whole = fetch();
    QVERIFY(whole.endsWith("0\r\n\r\n"));
    QVERIFY(whole.contains("\"n\":2"));
    server.faults().add(*Faults::parseList(QStringLiteral("truncatex1@/stream")));
    const QByteArray truncated = fetch();
    QVERIFY2(truncated.endsWith("0\r\n\r\n"), truncated.constData()); // the HTTP stream ends cleanly...
    QVERIFY(truncated.contains("\"n\":0"));
    QCOMPARE(truncated.count("pp\"}"), 1); // ...in the middle of the second envelope
    QVERIFY(!truncated.contains("\"n\":2"));
    // reset:N on a real Process.Start stream: the first N body bytes, then the connection drops.
    ServerProcess e2b(QStringLiteral("e2b"),
                      {QStringLiteral("--faults"), QStringLiteral("reset:40@POST:/process.Process/Start")});
    QVERIFY2(e2b.start(), qPrintable(e2b.error()));
    const QByteArray created = exchange(e2b.port(), createRequest());
    const QByteArray id =
        QJsonDocument::fromJson(bodyOf(created)).object().value(QStringLiteral("sandboxID")).toString().toUtf8();
    const QByteArray message = connectrpc::envelope(
        QJsonObject{{QStringLiteral("process"),
                     QJsonObject{{QStringLiteral("cmd"), QStringLiteral("/bin/sh")},
                                 {QStringLiteral("args"),
                                  QJsonArray{QStringLiteral("-c"), QStringLiteral("echo hi; sleep 0.2; echo there")}}}},
                    {QStringLiteral("stdin"), false}});
    const QByteArray reset =
        exchange(e2b.port(), "POST /process.Process/Start HTTP/1.1\r\nHost: a\r\nE2b-Sandbox-Id: " + id +
                                 "\r\nContent-Type: application/connect+json\r\nContent-Length: " +
                                 QByteArray::number(message.size()) + "\r\n\r\n" + message);
    QVERIFY2(reset.startsWith("HTTP/1.1 200"), reset.toHex().constData());
    QVERIFY(reset.contains("{\"event\":{\"start\""));
    QVERIFY(!reset.contains("aGkK")); // "hi\n" never came
    QVERIFY(!reset.endsWith("0\r\n\r\n"));
}

void TestContractServer::webSocketAndTls_data()
{
    QTest::addColumn<bool>("tls");
    QTest::newRow("plain") << false;
    QTest::newRow("tls") << true;
}

void TestContractServer::webSocketAndTls()
{
    QFETCH(bool, tls);
    Server server;
    QTemporaryDir dir;
    if (tls) {
        if (!QSslSocket::supportsSsl())
            QSKIP("no TLS backend");
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"),
                      {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                       QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-days"),
                       QStringLiteral("1"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"),
                       QStringLiteral("-keyout"), dir.filePath(QStringLiteral("key.pem")), QStringLiteral("-out"),
                       dir.filePath(QStringLiteral("cert.pem"))});
        if (!openssl.waitForFinished(30000) || openssl.exitCode() != 0) {
            if (sandbar::test::inCi())
                QFAIL("openssl is needed to make a test certificate");
            QSKIP("openssl not available");
        }
        QVERIFY(server.setTls(dir.filePath(QStringLiteral("cert.pem")), dir.filePath(QStringLiteral("key.pem"))).ok());
    }
    QString seenParam;
    server.webSocket(QStringLiteral("/ws/{id}"), [&seenParam](const Request &request, QWebSocket *socket) {
        seenParam =
            request.param(QStringLiteral("id")) + QLatin1Char('/') + QString::fromUtf8(request.header("x-token"));
        QObject::connect(socket, &QWebSocket::binaryMessageReceived, socket,
                         [socket](const QByteArray &m) { socket->sendBinaryMessage("echo:" + m); });
    });
    server.route("GET", QStringLiteral("/plain"), [](const Request &, Responder *res) { res->sendText(200, "plain"); });
    QVERIFY(server.listen(0).ok());
    QVERIFY(server.baseUrl().startsWith(tls ? QLatin1String("https://") : QLatin1String("http://")));

    QWebSocket client;
    if (tls) {
        QSslConfiguration config = client.sslConfiguration();
        config.setPeerVerifyMode(QSslSocket::VerifyNone);
        client.setSslConfiguration(config);
    }
    QByteArray received;
    QObject::connect(&client, &QWebSocket::binaryMessageReceived, &client, [&](const QByteArray &m) { received = m; });
    QNetworkRequest request(QUrl(QStringLiteral("%1://127.0.0.1:%2/ws/s1")
                                     .arg(tls ? QStringLiteral("wss") : QStringLiteral("ws"))
                                     .arg(server.port())));
    request.setRawHeader("X-Token", "t0k");
    client.open(request);
    QVERIFY(sandbar::test::waitUntil([&] { return client.state() == QAbstractSocket::ConnectedState; }, 10000));
    client.sendBinaryMessage("hi");
    QVERIFY(sandbar::test::waitUntil([&] { return received == "echo:hi"; }, 5000));
    QCOMPARE(seenParam, QStringLiteral("s1/t0k"));

    // ws-close: the server drops the session shortly after the upgrade.
    server.faults().add(*Faults::parseList(QStringLiteral("ws-close:100x1@/ws/s2")));
    QWebSocket second;
    second.setSslConfiguration(client.sslConfiguration());
    bool closed = false;
    QObject::connect(&second, &QWebSocket::disconnected, &second, [&] { closed = true; });
    request.setUrl(QUrl(QStringLiteral("%1://127.0.0.1:%2/ws/s2")
                            .arg(tls ? QStringLiteral("wss") : QStringLiteral("ws"))
                            .arg(server.port())));
    second.open(request);
    QVERIFY(sandbar::test::waitUntil([&] { return closed; }, 10000));
}

namespace {

QByteArray call(quint16 port, const QByteArray &method, const QByteArray &path, const QByteArray &headers,
                const QByteArray &body = {})
{
    return exchange(port, method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "Content-Length: " +
                              QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
}

const QByteArray kAuth = "X-API-Key: e2b_contract_test_key\r\nContent-Type: application/json\r\n";

} // namespace

void TestContractServer::lifecycleRules()
{
    ServerProcess server(QStringLiteral("e2b"));
    QVERIFY2(server.start(), qPrintable(server.error()));
    const quint16 port = server.port();
    // The timeout is enforced: kill by default, pause with autoPause.
    const QByteArray shortLived = call(port, "POST", "/v2/sandboxes", kAuth, R"({"templateID":"base","timeout":1})");
    const QByteArray pausing =
        call(port, "POST", "/v2/sandboxes", kAuth, R"({"templateID":"base","timeout":1,"autoPause":true})");
    const QByteArray secure = call(port, "POST", "/v2/sandboxes", kAuth, R"({"templateID":"base","secure":true})");
    const QJsonObject killed = QJsonDocument::fromJson(bodyOf(shortLived)).object();
    const QJsonObject paused = QJsonDocument::fromJson(bodyOf(pausing)).object();
    const QJsonObject guarded = QJsonDocument::fromJson(bodyOf(secure)).object();
    const QByteArray killedId = killed.value(QStringLiteral("sandboxID")).toString().toUtf8();
    const QByteArray pausedId = paused.value(QStringLiteral("sandboxID")).toString().toUtf8();
    QVERIFY(sandbar::test::waitUntil(
        [&] { return statusOf(call(port, "GET", "/sandboxes/" + killedId, kAuth)) == 404; }, 5000));
    QVERIFY(sandbar::test::waitUntil(
        [&] { return bodyOf(call(port, "GET", "/sandboxes/" + pausedId, kAuth)).contains("\"state\":\"paused\""); },
        5000));
    // envd of a paused sandbox is unreachable; connect resumes it (201), then 200.
    QCOMPARE(statusOf(call(port, "GET", "/health", "E2b-Sandbox-Id: " + pausedId + "\r\n")), 502);
    QCOMPARE(statusOf(call(port, "POST", "/v2/sandboxes/" + pausedId + "/connect", kAuth, R"({"timeout":30})")), 201);
    QCOMPARE(statusOf(call(port, "POST", "/v2/sandboxes/" + pausedId + "/connect", kAuth, R"({"timeout":30})")), 200);
    QCOMPARE(statusOf(call(port, "GET", "/health", "E2b-Sandbox-Id: " + pausedId + "\r\n")), 204);
    // The per-sandbox host form reaches envd too.
    QCOMPARE(statusOf(call(port, "GET", "/health", "X-Host-Unused: 1\r\n")), 200); // control plane
    QCOMPARE(statusOf(exchange(port, "GET /health HTTP/1.1\r\nHost: 49983-" + pausedId +
                                         ".localhost:" + QByteArray::number(port) + "\r\nConnection: close\r\n\r\n")),
             204);
    // A secure sandbox wants its envd access token.
    QVERIFY(!guarded.value(QStringLiteral("envdAccessToken")).toString().isEmpty());
    const QByteArray secureId = guarded.value(QStringLiteral("sandboxID")).toString().toUtf8();
    QCOMPARE(statusOf(call(port, "GET", "/health", "E2b-Sandbox-Id: " + secureId + "\r\n")), 401);
    QCOMPARE(statusOf(call(port, "GET", "/health",
                           "E2b-Sandbox-Id: " + secureId + "\r\nX-Access-Token: " +
                               guarded.value(QStringLiteral("envdAccessToken")).toString().toUtf8() + "\r\n")),
             204);
    // Pagination: limit and X-Next-Token.
    const QByteArray page = call(port, "GET", "/v2/sandboxes?limit=1", kAuth);
    QCOMPARE(statusOf(page), 200);
    QVERIFY(page.contains("X-Next-Token: "));
    const int at = page.indexOf("X-Next-Token: ") + 14;
    const QByteArray token = page.mid(at, page.indexOf('\r', at) - at);
    const QByteArray next = call(port, "GET", "/v2/sandboxes?limit=1&nextToken=" + token, kAuth);
    QCOMPARE(QJsonDocument::fromJson(bodyOf(next)).array().size(), 1);
    QVERIFY(!next.contains("X-Next-Token: "));
    QCOMPARE(server.state().value(QStringLiteral("sandboxesCreated")).toInt(), 3);
}

void TestContractServer::tlsServerProcess()
{
    QTemporaryDir dir;
    QProcess openssl;
    openssl.start(QStringLiteral("openssl"),
                  {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                   QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-days"), QStringLiteral("1"),
                   QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-keyout"),
                   dir.filePath(QStringLiteral("key.pem")), QStringLiteral("-out"),
                   dir.filePath(QStringLiteral("cert.pem"))});
    if (!openssl.waitForFinished(30000) || openssl.exitCode() != 0) {
        if (sandbar::test::inCi())
            QFAIL("openssl is needed to make a test certificate");
        QSKIP("openssl not available");
    }
    ServerProcess server(QStringLiteral("e2b"), {QStringLiteral("--tls"), dir.filePath(QStringLiteral("cert.pem")),
                                                 dir.filePath(QStringLiteral("key.pem"))});
    QVERIFY2(server.start(), qPrintable(server.error()));
    QVERIFY(server.baseUrl().startsWith(QLatin1String("https://127.0.0.1:")));
    QVERIFY(server.addFault(QString(), QStringLiteral("*"), QStringLiteral("500"), 1));
    const QJsonObject state = server.state();
    QCOMPARE(state.value(QStringLiteral("faults")).toArray().size(), 1);
    QCOMPARE(state.value(QStringLiteral("sandboxesCreated")).toInt(), 0);
}

QTEST_GUILESS_MAIN(TestContractServer)
#include "tst_contract_server.moc"
