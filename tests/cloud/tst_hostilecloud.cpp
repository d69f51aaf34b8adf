// The cloud layer against a hostile server: replies too large, bodies that never end,
// status lines that are not HTTP, and WebSocket terminals sending text where binary is
// expected, oversized messages and odd close codes. Each case must end in one clear error
// within its timeout, with memory bounded.

#include "FakeServer.h"
#include "TestSupport.h"
#include "cloud/CloudClient.h"
#include "cloud/WebSocketPtyChannel.h"
#include "net/HttpClient.h"

#include <QElapsedTimer>
#include <QFile>
#include <QPointer>
#include <QTest>
#include <QThread>
#include <QWebSocket>
#include <QWebSocketServer>
#include <atomic>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

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
    o.authHeaders = {{QByteArray("X-API-Key"), QByteArray("sbtest-secret-hostilecloud-123")}};
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

// An HTTP server on a thread of its own (plain sockets), so that it keeps sending while the
// test's thread is busy: it answers one request with a chunked body that never ends, until
// the client hangs up, `limit` bytes went out or `seconds` passed.
class EndlessServer
{
public:
    EndlessServer(qint64 limit, int seconds)
        : m_limit(limit)
        , m_seconds(seconds)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (m_fd < 0 || ::bind(m_fd, reinterpret_cast<sockaddr *>(&a), len) != 0 || ::listen(m_fd, 1) != 0 ||
            ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&a), &len) != 0)
            return;
        port = ntohs(a.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    ~EndlessServer()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        if (m_fd >= 0)
            ::close(m_fd);
    }

    quint16 port = 0;
    std::atomic<qint64> sent{0};
    std::atomic<bool> headSent{false};

private:
    bool waitFor(int fd, short events)
    {
        pollfd p{fd, events, 0};
        while (!m_stop) {
            const int n = ::poll(&p, 1, 50);
            if (n > 0)
                return (p.revents & (POLLERR | POLLNVAL)) == 0;
            if (n < 0 && errno != EINTR)
                return false;
        }
        return false;
    }

    void serve()
    {
        if (!waitFor(m_fd, POLLIN))
            return;
        const int conn = ::accept4(m_fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (conn < 0)
            return;
        QByteArray head;
        char buf[4096];
        while (!head.contains("\r\n\r\n") && waitFor(conn, POLLIN)) {
            const ssize_t n = ::recv(conn, buf, sizeof buf, 0);
            if (n <= 0)
                break;
            head.append(buf, n);
        }
        const QByteArray start(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
        // One 64 KiB chunk, sent over and over: the stream is a repetition of it.
        const QByteArray frame = "10000\r\n" + QByteArray(0x10000, ' ') + "\r\n";
        ::send(conn, start.constData(), size_t(start.size()), MSG_NOSIGNAL);
        headSent = true;
        QElapsedTimer t;
        t.start();
        qsizetype offset = 0;
        while (sent < m_limit && t.elapsed() < m_seconds * 1000 && waitFor(conn, POLLOUT)) {
            const ssize_t n =
                ::send(conn, frame.constData() + offset, size_t(frame.size() - offset), MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (n <= 0)
                break; // the client hung up
            sent += n;
            offset = (offset + n) % frame.size();
        }
        ::close(conn);
    }

    int m_fd = -1;
    qint64 m_limit;
    int m_seconds;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

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
        m_onPeer = nullptr;
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
        // The server gets little past the cap before the client hangs up.
        QVERIFY2(sent < qint64(16) << 20, qPrintable(QString::number(sent)));
        // The 2 MiB body (doubled while growing), Qt's buffers and the kernel's: far below 100 MiB.
        QVERIFY2(growthKb < 24 * 1024, qPrintable(QString::number(growthKb)));
    }

    void endlessChunkedWhileBusy()
    {
        // A server on another thread streams a chunked body that never ends (up to 1 GiB or
        // 10 s) while this thread is busy, as a GUI thread painting or in a slow slot can be.
        // Nothing of the client runs meanwhile. The call must still end with the size error,
        // once, within its deadline, having held little more than the cap: the client reads
        // the socket only as it takes the reply in, so the kernel's buffers and TCP hold the
        // server back. (On QNAM, whose network thread reads ahead of a busy reader and, in
        // Qt 6.4.2, ignores the reply's read buffer size, this grew by 420 MiB to 1.1 GiB.)
        EndlessServer server(qint64(1) << 30, 10);
        QVERIFY(server.port != 0);
        CloudClient::Options o;
        o.service = QStringLiteral("Hostile service");
        o.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:%1/api").arg(server.port));
        o.retry.maxAttempts = 1;
        CloudClient client(o);
        ApiCall call;
        call.path = QStringLiteral("/sandboxes");
        call.maxReplyBytes = 8 * 1024 * 1024;
        QCoreApplication::processEvents();
        test::resetPeakRss();
        const qint64 before = test::statusKb("VmRSS:");
        QElapsedTimer t;
        t.start();
        const auto r = test::await<ApiReply>(
            [&](Callback<ApiReply> done) {
                client.call(call, done);
                // Mid-transfer: the client has seen the headers and the first data.
                if (!waitUntil([&] { return server.sent.load() > (qint64(1) << 20); }, 10000))
                    return;
                // Busy on purpose (not a wait for a condition): nothing runs on this thread.
                QThread::msleep(1500);
            },
            30000);
        const qint64 growthKb = test::statusKb("VmHWM:") - before;
        qInfo("endless chunked reply: %lld MiB sent in %lld ms, peak RSS growth %lld KiB", server.sent.load() >> 20,
              t.elapsed(), growthKb);
        QVERIFY(server.headSent);
        QVERIFY(!r.ok());
        QVERIFY2(r.message().contains(QLatin1String("too large")), qPrintable(r.message()));
        // The cap, the kernel's socket buffers and one read of them: far below the 1 GiB the
        // server would send.
        QVERIFY2(growthKb < 64 * 1024, qPrintable(QString::number(growthKb)));
        QVERIFY2(server.sent.load() < qint64(128) << 20, qPrintable(QString::number(server.sent.load())));
    }

    void pausedStreamHoldsServerBack_data()
    {
        QTest::addColumn<bool>("midStream");
        QTest::newRow("paused before it opens") << false;
        QTest::newRow("paused mid-stream") << true;
    }
    void pausedStreamHoldsServerBack()
    {
        QFETCH(bool, midStream);
        // A stream (E2B's process output, a download) whose reader pauses: a server sending
        // 128 MiB of numbered 64 KiB chunks, never more than 4 MiB queued on its side, must be
        // held back by TCP instead of this side buffering the flood, and on resume every
        // chunk arrives, in order. (On QNAM a paused reader could not stop the network
        // thread from reading ahead.)
        constexpr int kChunks = 2048;
        constexpr qsizetype kSize = 64 * 1024;
        FakeServer server(FakeServer::Kind::Tcp);
        int queued = 0;
        QPointer<QIODevice> peer;
        const auto pump = [&] {
            while (peer && peer->isOpen() && queued < kChunks && peer->bytesToWrite() < 4 * 1024 * 1024) {
                QByteArray m(kSize, 'x');
                const QByteArray n = QByteArray::number(queued).rightJustified(8, '0');
                m.replace(0, n.size(), n);
                peer->write("10000\r\n" + m + "\r\n");
                if (++queued == kChunks)
                    peer->write("0\r\n\r\n");
            }
        };
        QObject frame; // the pump captures this frame: its connection dies with it
        server.onConnection = [&](FakeConn &c) {
            c.onHead = [&](FakeConn &conn) {
                conn.send("HTTP/1.1 200 OK\r\nContent-Type: application/connect+json\r\n"
                          "Transfer-Encoding: chunked\r\n\r\n");
                peer = conn.io();
                connect(conn.io(), &QIODevice::bytesWritten, &frame, pump, Qt::QueuedConnection);
                pump();
            };
        };
        CloudClient client(optionsFor(server));
        net::HttpRequest req;
        req.method = "POST";
        req.body = "{}";
        auto *ex = client.exchange(HttpTarget{client.url(QStringLiteral("/stream"))}, std::move(req), &frame);
        QByteArray got;
        std::optional<VoidResult> end;
        bool pausing = true;
        connect(ex, &net::HttpExchange::bodyData, &frame, [&](const QByteArray &bytes) {
            got += bytes;
            // As a terminal does: from inside the delivery of output it cannot keep up with.
            if (midStream && pausing && got.size() >= 4 * kSize)
                ex->setReadingPaused(true);
        });
        connect(ex, &net::HttpExchange::finished, &frame, [&](const VoidResult &r) { end = r; });
        if (!midStream)
            ex->setReadingPaused(true);
        ex->start();
        QVERIFY(waitUntil([&] { return peer && (!midStream || got.size() >= 4 * kSize); }, 10000));
        // The flood must stall: all of it queued would mean nothing held it back.
        QVERIFY2(!waitUntil([&] { return queued == kChunks; }, 3000), "the server was never held back");
        const qint64 held = got.size();
        qInfo("paused: server queued %d of %d chunks, %lld KiB taken in", queued, kChunks, held / 1024);
        // What came before the pause, and one socket buffer's worth after it.
        QVERIFY2(held < 8 * 1024 * 1024, qPrintable(QString::number(held)));
        QVERIFY(!end);

        pausing = false;
        ex->setReadingPaused(false);
        QVERIFY(waitUntil([&] { return end.has_value(); }, 60000));
        QVERIFY2(end->ok(), qPrintable(end->message()));
        QCOMPARE(got.size(), kChunks * kSize);
        for (int i = 0; i < kChunks; ++i) {
            if (got.mid(i * kSize, 8) != QByteArray::number(i).rightJustified(8, '0'))
                QFAIL(qPrintable(QStringLiteral("chunk %1 lost or out of order").arg(i)));
        }
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
        QVERIFY2(!r.message().contains(QLatin1String("sbtest-secret-hostilecloud-123")),
                 "the key leaked into an error");
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

    void pausedTerminalHoldsServerBack_data()
    {
        QTest::addColumn<bool>("midStream");
        QTest::newRow("paused before it opens") << false;
        QTest::newRow("paused mid-stream") << true;
    }
    void pausedTerminalHoldsServerBack()
    {
        QFETCH(bool, midStream);
        // A server floods numbered 64 KiB messages (128 MiB in all, never more than 4 MiB
        // queued on its side) at a terminal whose consumer has paused: the channel must stop
        // reading, so the server is held back instead of this side holding the flood, and on
        // resume every message arrives, in order.
        constexpr int kMessages = 2048;
        constexpr qsizetype kSize = 64 * 1024;
        int queued = 0;
        QPointer<QWebSocket> server;
        const auto pump = [&] {
            while (server && queued < kMessages && server->bytesToWrite() < 4 * 1024 * 1024) {
                QByteArray m(kSize, 'x');
                const QByteArray n = QByteArray::number(queued).rightJustified(8, '0');
                m.replace(0, n.size(), n);
                server->sendBinaryMessage(m);
                ++queued;
            }
        };
        // The server's socket outlives this function; the pump it drives captures this
        // frame, so its connection (and any queued call) dies with the frame.
        QObject frame;
        m_onPeer = [&](QWebSocket *peer) {
            server = peer;
            connect(peer, &QWebSocket::bytesWritten, &frame, pump, Qt::QueuedConnection);
        };
        WebSocketPtyChannel::Hooks hooks;
        hooks.service = QStringLiteral("Hostile");
        WebSocketPtyChannel c(WebSocketPtyChannel::fixedRequest(wsRequest()), hooks);
        Observed o;
        observe(&c, &o, this);
        bool pausing = true;
        if (midStream) {
            // As TerminalScreen does: from inside the delivery of output it cannot keep up with.
            connect(&c, &PtyChannel::dataReceived, this, [&] {
                if (pausing && o.out.size() >= 4 * kSize)
                    c.setReadingPaused(true);
            });
        } else {
            c.setReadingPaused(true);
        }
        c.start();
        QVERIFY(waitUntil([&] { return o.started && server; }, 10000));
        pump();
        // The flood must stall: the whole of it arriving would mean nothing held it back.
        QVERIFY2(!waitUntil([&] { return queued == kMessages; }, 3000), "the server was never held back");
        const qint64 held = c.pendingOutputBytes();
        qInfo("paused: server queued %d of %d messages, %lld KiB held by the channel", queued, kMessages, held / 1024);
        QVERIFY2(held < 8 * 1024 * 1024, qPrintable(QString::number(held)));
        QVERIFY(!o.error);

        pausing = false;
        c.setReadingPaused(false);
        QVERIFY(waitUntil([&] { return o.out.size() >= kMessages * kSize || o.ends > 0; }, 60000));
        QVERIFY2(!o.error, qPrintable(o.error ? o.error->message : QString()));
        QCOMPARE(o.out.size(), kMessages * kSize);
        for (int i = 0; i < kMessages; ++i) {
            if (o.out.mid(i * kSize, 8) != QByteArray::number(i).rightJustified(8, '0'))
                QFAIL(qPrintable(QStringLiteral("message %1 lost or out of order").arg(i)));
        }
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
