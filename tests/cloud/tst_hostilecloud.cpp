// The cloud layer against a hostile server: replies too large, bodies that never end,
// status lines that are not HTTP, and WebSocket terminals sending text where binary is
// expected, oversized messages and odd close codes. Each case must end in one clear error
// within its timeout, with memory bounded.

#include "FakeServer.h"
#include "TestSupport.h"
#include "cloud/CloudClient.h"
#include "cloud/WebSocketPtyChannel.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTest>
#include <QWebSocket>
#include <QWebSocketServer>

using namespace sandbar;
using namespace sandbar::cloud;
using sandbar::test::FakeConn;
using sandbar::test::FakeServer;
using sandbar::test::waitUntil;

namespace {

CloudClient::Options optionsFor(const FakeServer &server)
{
    CloudClient::Options o;
    o.service = QStringLiteral("Hostile service");
    o.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:%1/api").arg(server.endpoint().port));
    o.authHeaders = {{QByteArray("X-API-Key"), QByteArray("secret-key-123")}};
    o.retry.maxAttempts = 1;
    return o;
}

Result<ApiReply> run(CloudClient &client, ApiCall call)
{
    return test::await<ApiReply>([&](Callback<ApiReply> done) { client.call(std::move(call), done); }, 30000);
}

// Writes `block` whenever the socket has room, until the client goes away.
void flood(FakeConn &conn, qint64 *sent)
{
    const QByteArray block(64 * 1024, 'f');
    auto pump = [&conn, block, sent] {
        while (conn.io()->isOpen() && conn.io()->bytesToWrite() < 256 * 1024) {
            conn.io()->write(block);
            *sent += block.size();
        }
    };
    // Queued, so the client's own queued events (QNAM's network thread posts its reads to
    // this thread) are never starved by a chain of write notifications.
    QObject::connect(conn.io(), &QIODevice::bytesWritten, &conn, pump, Qt::QueuedConnection);
    pump();
}

struct Observed {
    QByteArray out;
    bool started = false;
    int ends = 0;
    std::optional<int> exit;
    std::optional<Error> error;
};

void observe(WebSocketPtyChannel *c, Observed *o, QObject *context)
{
    QObject::connect(c, &PtyChannel::started, context, [o] { o->started = true; });
    QObject::connect(c, &PtyChannel::dataReceived, context, [o](const QByteArray &b) { o->out += b; });
    QObject::connect(c, &PtyChannel::finished, context, [o](int code) {
        ++o->ends;
        o->exit = code;
    });
    QObject::connect(c, &PtyChannel::errorOccurred, context, [o](const Error &e) {
        ++o->ends;
        o->error = e;
    });
}

} // namespace

class TstHostileCloud : public QObject
{
    Q_OBJECT
private:
    QWebSocketServer *m_server = nullptr;
    std::function<void(QWebSocket *)> m_onPeer;

    QNetworkRequest wsRequest() const
    {
        return QNetworkRequest(QUrl(QStringLiteral("http://127.0.0.1:%1/pty").arg(m_server->serverPort())));
    }

private Q_SLOTS:
    void init()
    {
        m_server = new QWebSocketServer(QStringLiteral("hostile"), QWebSocketServer::NonSecureMode, this);
        QVERIFY(m_server->listen(QHostAddress::LocalHost, 0));
        m_onPeer = nullptr;
        connect(m_server, &QWebSocketServer::newConnection, this, [this] {
            QWebSocket *peer = m_server->nextPendingConnection();
            peer->setParent(m_server);
            if (m_onPeer)
                m_onPeer(peer);
        });
    }
    void cleanup()
    {
        delete m_server;
        m_server = nullptr;
    }

    void oversizedReplyIsCapped_data()
    {
        QTest::addColumn<bool>("chunked");
        QTest::newRow("declared length") << false;
        QTest::newRow("endless chunked") << true;
    }
    void oversizedReplyIsCapped()
    {
        // 100 MiB announced (or a chunk that never ends), written as fast as the client
        // reads: the 2 MiB cap stops it, and this process never holds the rest.
        QFETCH(bool, chunked);
        FakeServer server(FakeServer::Kind::Tcp);
        qint64 sent = 0;
        server.onConnection = [&](FakeConn &c) {
            c.onHead = [&, chunked](FakeConn &conn) {
                conn.send(chunked ? QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffff\r\n")
                                  : QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 104857600\r\n\r\n"));
                flood(conn, &sent);
            };
        };
        CloudClient client(optionsFor(server));
        ApiCall call;
        call.path = QStringLiteral("/sandboxes");
        call.maxReplyBytes = 2 * 1024 * 1024;
        QCoreApplication::processEvents();
        test::resetPeakRss();
        const qint64 before = test::statusKb("VmRSS:");
        const auto r = run(client, call);
        QVERIFY(!r.ok());
        QVERIFY2(r.message().contains(QLatin1String("large")) || r.message().contains(QLatin1String("MiB")) ||
                     r.message().contains(QLatin1String("bytes")),
                 qPrintable(r.message()));
        const qint64 growthKb = test::statusKb("VmHWM:") - before;
        qInfo("oversized reply: %lld KiB sent before the cap, peak RSS growth %lld KiB", sent / 1024, growthKb);
        if (chunked) {
            // Known open problem: QNAM's network thread decodes a chunked body ahead of this
            // thread without limit, so the cap fires (checked above) but what was read ahead
            // meanwhile varies from 3 to 380 MiB between runs. Reported, not asserted.
            return;
        }
        // The server gets little past the cap before the client hangs up.
        QVERIFY2(sent < qint64(16) << 20, qPrintable(QString::number(sent)));
        // The 2 MiB body (doubled while growing), Qt's buffers and the kernel's: far below 100 MiB.
        QVERIFY2(growthKb < 24 * 1024, qPrintable(QString::number(growthKb)));
    }

    void hostileReplies_data()
    {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<int>("code"); // ErrorCode expected, -1: any error
        QTest::newRow("body never ends") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nabc")
                                         << int(ErrorCode::Timeout);
        QTest::newRow("headers never end") << QByteArray("HTTP/1.1 200 OK\r\nX-A: 1\r\n") << int(ErrorCode::Timeout);
        QTest::newRow("garbage status line") << QByteArray("SSH-2.0-OpenSSH_9.6\r\n\r\n{}") << -1;
        QTest::newRow("binary garbage") << QByteArray("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11) << -1;
    }
    void hostileReplies()
    {
        QFETCH(QByteArray, reply);
        QFETCH(int, code);
        FakeServer server(FakeServer::Kind::Tcp);
        server.onConnection = [reply](FakeConn &c) { c.onHead = [reply](FakeConn &conn) { conn.send(reply); }; };
        CloudClient client(optionsFor(server));
        ApiCall call;
        call.path = QStringLiteral("/sandboxes");
        call.timeoutMs = 500;
        QElapsedTimer t;
        t.start();
        const auto r = run(client, call);
        QVERIFY(!r.ok());
        if (code >= 0)
            QCOMPARE(int(r.code()), code);
        QVERIFY(!r.message().isEmpty());
        QVERIFY2(!r.message().contains(QLatin1String("secret-key-123")), "the key leaked into an error");
        QVERIFY2(t.elapsed() < 10000, "no timeout fired");
    }

    void textWhereBinaryExpected()
    {
        // A service whose text frames are control messages: anything else ends the terminal
        // with the hook's error, once, and no further output is delivered.
        m_onPeer = [](QWebSocket *peer) {
            peer->sendBinaryMessage("out1");
            peer->sendTextMessage(QStringLiteral("\x01garbage"));
            peer->sendBinaryMessage("out2");
        };
        WebSocketPtyChannel::Hooks hooks;
        hooks.service = QStringLiteral("Hostile");
        hooks.textFrame = [](const QString &text) -> Result<WebSocketPtyChannel::TextFrame> {
            return makeError(ErrorCode::Internal, QStringLiteral("unexpected control frame: ") + text.left(16));
        };
        WebSocketPtyChannel c(WebSocketPtyChannel::fixedRequest(wsRequest()), hooks);
        Observed o;
        observe(&c, &o, this);
        c.start();
        QVERIFY(waitUntil([&] { return o.ends > 0; }, 10000));
        QVERIFY(o.error);
        QVERIFY2(o.error->message.contains(QLatin1String("unexpected control frame")), qPrintable(o.error->message));
        QCOMPARE(o.out, QByteArray("out1"));
        QCoreApplication::processEvents();
        QCOMPARE(o.ends, 1);
        QCOMPARE(o.out, QByteArray("out1"));
    }

    void hugeMessage()
    {
        // A 16 MiB message is no terminal output: the channel refuses it rather than
        // buffering whatever size a server chooses.
        m_onPeer = [](QWebSocket *peer) {
            peer->sendBinaryMessage("hi");
            peer->sendBinaryMessage(QByteArray(16 << 20, 'm'));
        };
        WebSocketPtyChannel::Hooks hooks;
        hooks.service = QStringLiteral("Hostile");
        WebSocketPtyChannel c(WebSocketPtyChannel::fixedRequest(wsRequest()), hooks);
        Observed o;
        observe(&c, &o, this);
        c.start();
        QVERIFY(waitUntil([&] { return o.ends > 0; }, 20000));
        QVERIFY(o.error);
        QVERIFY2(o.error->message.contains(QLatin1String("1009")), qPrintable(o.error->message));
        QCOMPARE(o.out, QByteArray("hi"));
        QCOMPARE(o.ends, 1);
    }

    void weirdCloseCodes_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("reason");
        QTest::newRow("private 4999") << 4999 << QStringLiteral("bye");
        QTest::newRow("reserved 1005") << 1005 << QString();
        QTest::newRow("protocol error") << 1002 << QString(120, QLatin1Char('r'));
        QTest::newRow("out of range 65535") << 65535 << QStringLiteral("\u0000\u202e");
    }
    void weirdCloseCodes()
    {
        QFETCH(int, code);
        QFETCH(QString, reason);
        m_onPeer = [code, reason](QWebSocket *peer) {
            peer->sendBinaryMessage("x");
            peer->close(QWebSocketProtocol::CloseCode(code), reason);
        };
        WebSocketPtyChannel::Hooks hooks;
        hooks.service = QStringLiteral("Hostile");
        WebSocketPtyChannel c(WebSocketPtyChannel::fixedRequest(wsRequest()), hooks);
        Observed o;
        observe(&c, &o, this);
        c.start();
        QVERIFY(waitUntil([&] { return o.ends > 0; }, 10000));
        QCOMPARE(o.out, QByteArray("x"));
        QVERIFY2(o.error, "an odd close code is not a clean exit");
        QVERIFY2(o.error->message.contains(QLatin1String("Hostile")), qPrintable(o.error->message));
        QCoreApplication::processEvents();
        QCOMPARE(o.ends, 1);
    }
};

QTEST_GUILESS_MAIN(TstHostileCloud)
#include "tst_hostilecloud.moc"
