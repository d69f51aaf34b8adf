// cloud::WebSocketPtyChannel against an in-process QWebSocketServer: queued and ordered
// writes, control frames, close codes, paused output, failures before the socket opens.
#include "TestSupport.h"
#include "cloud/WebSocketPtyChannel.h"

#include <QWebSocket>
#include <QWebSocketServer>

using namespace sandbar;
using cloud::WebSocketPtyChannel;
using sandbar::test::waitUntil;

namespace {
struct Observed {
    QByteArray out;
    bool started = false;
    std::optional<int> exit;
    std::optional<Error> error;
    bool ended() const { return exit || error; }
};

void observe(WebSocketPtyChannel *c, Observed *o, QObject *context)
{
    QObject::connect(c, &PtyChannel::started, context, [o] { o->started = true; });
    QObject::connect(c, &PtyChannel::dataReceived, context, [o](const QByteArray &b) { o->out += b; });
    QObject::connect(c, &PtyChannel::finished, context, [o](int code) { o->exit = code; });
    QObject::connect(c, &PtyChannel::errorOccurred, context, [o](const Error &e) { o->error = e; });
}
} // namespace

class TestWebSocketPty : public QObject
{
    Q_OBJECT
private:
    QWebSocketServer *m_server = nullptr;
    QWebSocket *m_peer = nullptr; // the server's side of the last connection
    QByteArray m_received;

    QNetworkRequest request() const
    {
        return QNetworkRequest(QUrl(QStringLiteral("http://127.0.0.1:%1/pty").arg(m_server->serverPort())));
    }

private Q_SLOTS:
    void init()
    {
        m_server = new QWebSocketServer(QStringLiteral("t"), QWebSocketServer::NonSecureMode, this);
        QVERIFY(m_server->listen(QHostAddress::LocalHost, 0));
        m_peer = nullptr;
        m_received.clear();
        connect(m_server, &QWebSocketServer::newConnection, this, [this] {
            m_peer = m_server->nextPendingConnection();
            m_peer->setParent(this);
            connect(m_peer, &QWebSocket::binaryMessageReceived, this, [this](const QByteArray &b) { m_received += b; });
        });
    }
    void cleanup()
    {
        delete m_peer;
        delete m_server;
        m_server = nullptr;
        m_peer = nullptr;
    }

    void orderedWritesAndControlFrame()
    {
        WebSocketPtyChannel::Hooks hooks;
        hooks.waitForReady = true;
        hooks.textFrame = [](const QString &text) -> Result<WebSocketPtyChannel::TextFrame> {
            WebSocketPtyChannel::TextFrame f;
            f.ready = text == QLatin1String("ready");
            if (text.startsWith(QLatin1String("out:")))
                f.output = text.mid(4).toUtf8();
            return f;
        };
        WebSocketPtyChannel c(WebSocketPtyChannel::fixedRequest(request()), hooks);
        Observed o;
        observe(&c, &o, this);
        c.write("early-");
        c.start();
        QVERIFY(waitUntil([&] { return m_peer != nullptr; }, 5000));
        QVERIFY(!o.started);
        QByteArray expect = "early-";
        for (int i = 0; i < 500; ++i) // before the control frame: queued
            c.write(QByteArray::number(i) + ',');
        m_peer->sendTextMessage(QStringLiteral("ready"));
        QVERIFY(waitUntil([&] { return o.started; }, 5000));
        for (int i = 0; i < 500; ++i)
            expect += QByteArray::number(i) + ',';
        for (int i = 500; i < 1000; ++i) {
            c.write(QByteArray::number(i) + ',');
            expect += QByteArray::number(i) + ',';
        }
        QVERIFY(waitUntil([&] { return m_received.size() >= expect.size(); }, 5000));
        QCOMPARE(m_received, expect);

        m_peer->sendBinaryMessage("bin");
        m_peer->sendTextMessage(QStringLiteral("out:txt"));
        QVERIFY(waitUntil([&] { return o.out == "bintxt"; }, 5000));
        QVERIFY(c.isOpen());
        m_peer->close(QWebSocketProtocol::CloseCodeNormal);
        QVERIFY(waitUntil([&] { return o.ended(); }, 5000));
        QCOMPARE(o.exit.value_or(-1), 0);
        QCOMPARE(c.exitCode().value_or(-1), 0);
        QVERIFY(!c.isOpen());
    }

    void closeCodes_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<bool>("withHook");
        QTest::addColumn<int>("exit"); // -1: an error
        QTest::newRow("normal, default") << 1000 << QString() << false << 0;
        QTest::newRow("1011, default") << 1011 << QString() << false << -1;
        QTest::newRow("hook exit 5") << 1000 << QStringLiteral("5") << true << 5;
        QTest::newRow("hook error") << 1011 << QString() << true << -1;
    }
    void closeCodes()
    {
        QFETCH(int, code);
        QFETCH(QString, reason);
        QFETCH(bool, withHook);
        QFETCH(int, exit);
        WebSocketPtyChannel::Hooks hooks;
        hooks.service = QStringLiteral("Test");
        if (withHook)
            hooks.closed = [](QWebSocketProtocol::CloseCode, const QString &why) -> Result<int> {
                bool ok = false;
                const int n = why.toInt(&ok);
                if (ok)
                    return n;
                return makeError(ErrorCode::Unavailable, QStringLiteral("dropped"));
            };
        WebSocketPtyChannel c(WebSocketPtyChannel::fixedRequest(request()), hooks);
        Observed o;
        observe(&c, &o, this);
        c.start();
        QVERIFY(waitUntil([&] { return o.started && m_peer; }, 5000));
        m_peer->close(QWebSocketProtocol::CloseCode(code), reason);
        QVERIFY(waitUntil([&] { return o.ended(); }, 5000));
        if (exit >= 0) {
            QCOMPARE(o.exit.value_or(-1), exit);
        } else {
            QVERIFY(o.error.has_value());
            QCOMPARE(o.error->code, ErrorCode::Unavailable);
            QVERIFY(!c.exitCode().has_value());
        }
    }

    void pausedOutputWaitsInOrder()
    {
        WebSocketPtyChannel c(WebSocketPtyChannel::fixedRequest(request()), {});
        Observed o;
        observe(&c, &o, this);
        c.start();
        QVERIFY(waitUntil([&] { return o.started && m_peer; }, 5000));
        c.setReadingPaused(true);
        m_peer->sendBinaryMessage("a");
        m_peer->sendBinaryMessage("b");
        // Nothing is delivered while paused (the frames wait in the connection) ...
        QVERIFY(!waitUntil([&] { return !o.out.isEmpty(); }, 500));
        c.setReadingPaused(false);
        // ... and all of it, in order, once resumed.
        QVERIFY(waitUntil([&] { return o.out == QByteArray("ab"); }, 5000));
        QCOMPARE(c.pendingOutputBytes(), 0);
        // A resize with no hook is ignored; close() sends a normal close frame.
        c.resize(100, 40);
        c.close();
        QVERIFY(waitUntil([&] { return o.ended(); }, 5000));
        QCOMPARE(o.exit.value_or(-1), 0);
    }

    void failuresBeforeOpen()
    {
        {
            WebSocketPtyChannel c(
                [](Callback<QNetworkRequest> ready) {
                    ready(makeError(ErrorCode::NotFound, QStringLiteral("no such sandbox")));
                },
                {});
            Observed o;
            observe(&c, &o, this);
            c.start();
            QVERIFY(o.error.has_value());
            QCOMPARE(o.error->code, ErrorCode::NotFound);
        }
        {
            // Plain ws:// leaves this machine only encrypted.
            WebSocketPtyChannel c(
                WebSocketPtyChannel::fixedRequest(QNetworkRequest(QUrl(QStringLiteral("http://example.com/x")))), {});
            Observed o;
            observe(&c, &o, this);
            c.start();
            QVERIFY(o.error.has_value());
            QCOMPARE(o.error->code, ErrorCode::InvalidArgument);
        }
        {
            const quint16 port = m_server->serverPort();
            m_server->close(); // nothing listens there now
            WebSocketPtyChannel c(WebSocketPtyChannel::fixedRequest(
                                      QNetworkRequest(QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(port)))),
                                  {});
            Observed o;
            observe(&c, &o, this);
            c.start();
            QVERIFY(waitUntil([&] { return o.ended(); }, 10000));
            QVERIFY(o.error.has_value());
            QCOMPARE(o.error->code, ErrorCode::Unavailable);
        }
    }
};

QTEST_GUILESS_MAIN(TestWebSocketPty)
#include "tst_websocket_pty.moc"
