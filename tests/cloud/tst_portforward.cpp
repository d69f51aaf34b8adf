// The kit's WebSocket port forward against an in-process WebSocket server that plays the
// service's side of Sprites' /proxy: a connection is carried byte for byte both ways (8 MiB
// each way, with at most a bounded amount read ahead from the local side), a refusal closes
// the local connection and says why, and a connection the local side closes closes the
// WebSocket.
#include "TestSupport.h"
#include "cloud/PortForward.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTcpSocket>
#include <QTest>
#include <QWebSocket>
#include <QWebSocketServer>

using namespace sandbar;
using sandbar::test::waitUntil;

namespace {

// The service: answers the init frame (connected, or a refusal) and echoes binary frames; a
// flooding one also sends floodBytes of its own once connected.
class FakeProxy : public QObject
{
public:
    explicit FakeProxy(bool refuse, qint64 floodBytes = 0)
        : m_server(QStringLiteral("proxy"), QWebSocketServer::NonSecureMode)
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QWebSocketServer::newConnection, this, [this, refuse, floodBytes] {
            QWebSocket *ws = m_server.nextPendingConnection();
            ws->setParent(this);
            ++opened;
            connect(ws, &QWebSocket::disconnected, this, [this] { ++closed; });
            connect(ws, &QWebSocket::textMessageReceived, this, [this, ws, refuse, floodBytes](const QString &text) {
                init = QJsonDocument::fromJson(text.toUtf8()).object();
                const QJsonObject answer =
                    refuse ? QJsonObject{{QStringLiteral("status"), QStringLiteral("error")},
                                         {QStringLiteral("error"), QStringLiteral("nothing listens on port 5432")}}
                           : QJsonObject{{QStringLiteral("status"), QStringLiteral("connected")},
                                         {QStringLiteral("target"), QStringLiteral("localhost:5432")}};
                ws->sendTextMessage(QString::fromUtf8(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
                if (refuse)
                    ws->close();
                const QByteArray frame(1 << 20, 'f');
                for (qint64 sent = 0; sent < floodBytes; sent += frame.size())
                    ws->sendBinaryMessage(frame);
            });
            connect(ws, &QWebSocket::binaryMessageReceived, this, [this, ws](const QByteArray &bytes) {
                received += bytes.size();
                ws->sendBinaryMessage(bytes);
            });
        });
    }
    QUrl url() const { return QUrl(QStringLiteral("ws://127.0.0.1:%1/proxy").arg(m_server.serverPort())); }

    QJsonObject init;
    qint64 received = 0;
    int opened = 0;
    int closed = 0;

private:
    QWebSocketServer m_server;
};

// A forward to proxy; why, where given, gets the reason of the last connection that failed.
std::unique_ptr<cloud::WebSocketPortForward> forwardTo(const FakeProxy &proxy, QString *why = nullptr)
{
    auto forward = std::make_unique<cloud::WebSocketPortForward>(QStringLiteral("Test"), [url = proxy.url()] {
        cloud::WebSocketPortForward::Dial dial;
        dial.request = QNetworkRequest(url);
        dial.init = R"({"host":"localhost","port":5432})";
        return dial;
    });
    if (why)
        QObject::connect(forward.get(), &cloud::WebSocketPortForward::connectionFailed, forward.get(),
                         [why](const QString &text) { *why = text; });
    return forward;
}

} // namespace

class TestPortForward : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void carriesBothWays()
    {
        FakeProxy proxy(false);
        auto forward = forwardTo(proxy);
        const auto port = forward->listen();
        QVERIFY_RESULT(port);
        QTcpSocket local;
        local.connectToHost(QHostAddress::LocalHost, *port);
        QVERIFY(local.waitForConnected(5000));
        QByteArray data(8 << 20, Qt::Uninitialized);
        QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(data.data()), data.size() / 4);
        local.write(data);
        QByteArray back;
        QVERIFY2(waitUntil(
                     [&] {
                         back += local.readAll();
                         return back.size() >= data.size();
                     },
                     60000),
                 qPrintable(QStringLiteral("%1 of %2 bytes back").arg(back.size()).arg(data.size())));
        QCOMPARE(QCryptographicHash::hash(back, QCryptographicHash::Sha256),
                 QCryptographicHash::hash(data, QCryptographicHash::Sha256));
        QCOMPARE(proxy.init.value(QStringLiteral("port")).toInt(), 5432);
        QCOMPARE(forward->activeConnections(), 1);
        // The local side closes: so does the WebSocket.
        local.disconnectFromHost();
        QVERIFY(waitUntil([&] { return proxy.closed == 1; }, 10000));
        QVERIFY(waitUntil([&] { return forward->activeConnections() == 0; }, 10000));
    }

    void refusalClosesTheLocalConnection()
    {
        FakeProxy proxy(true);
        QString why;
        auto forward = forwardTo(proxy, &why);
        const auto port = forward->listen();
        QVERIFY_RESULT(port);
        QTcpSocket local;
        local.connectToHost(QHostAddress::LocalHost, *port);
        QVERIFY(local.waitForConnected(5000));
        local.write("early bytes wait for the connection");
        QVERIFY(waitUntil([&] { return local.state() == QAbstractSocket::UnconnectedState; }, 10000));
        QVERIFY2(why.contains(QLatin1String("nothing listens on port 5432")), qPrintable(why));
        QCOMPARE(proxy.received, 0); // nothing was sent before the service said connected
    }

    // A local program that stops reading while the service sends: the relay holds at most its
    // bound (32 MiB), then closes the connection and says why, instead of growing.
    void aStalledReaderIsCutOff()
    {
        FakeProxy proxy(false, 64 << 20);
        QString why;
        auto forward = forwardTo(proxy, &why);
        const auto port = forward->listen();
        QVERIFY_RESULT(port);
        QTcpSocket local;
        local.setReadBufferSize(64 * 1024); // reads that much, then leaves the rest in the kernel
        local.connectToHost(QHostAddress::LocalHost, *port);
        QVERIFY(local.waitForConnected(5000));
        QVERIFY(waitUntil([&] { return !why.isEmpty(); }, 60000));
        QVERIFY2(why.contains(QLatin1String("stopped reading")), qPrintable(why));
        QVERIFY(waitUntil([&] { return forward->activeConnections() == 0; }, 10000));
        QVERIFY(waitUntil([&] { return proxy.closed == 1; }, 10000));
    }
};

QTEST_GUILESS_MAIN(TestPortForward)
#include "tst_portforward.moc"
