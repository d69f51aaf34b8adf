#include "cloud/PortForward.h"

#include "cloud/WebSocketPtyChannel.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>
#include <QWebSocket>

namespace sandbar::cloud {

namespace {

// Bytes read from the local side and not yet written to the service: past this the local
// socket is left unread, so a fast sender waits instead of filling this process's memory.
constexpr qint64 kMaxInFlight = 4 * 1024 * 1024;
constexpr qint64 kChunk = 64 * 1024;
// The other way round: what the service sent and the local program has not read yet. A
// WebSocket cannot be told to wait, so past this the connection is closed, and says why,
// rather than hold whatever a stalled reader leaves behind.
constexpr qint64 kMaxUnread = 32 * 1024 * 1024;
// A cold sprite wakes before it answers.
constexpr int kHandshakeMs = 60000;

// One local connection and its WebSocket; deletes itself once both are closed.
class Relay : public QObject
{
public:
    Relay(QTcpSocket *local, const QString &service, WebSocketPortForward::Dial dial, WebSocketPortForward *forward)
        : QObject(forward)
        , m_local(local)
        , m_forward(forward)
        , m_service(service)
        , m_init(dial.init)
    {
        local->setParent(this);
        local->setReadBufferSize(kMaxInFlight);
        auto made = makeServiceWebSocket(dial.request, service, this);
        if (!made) {
            fail(made.message());
            return;
        }
        m_ws = *made;
        collectSslErrors(m_ws, this, &m_sslErrors);
        connect(m_ws, &QWebSocket::connected, this, [this] { m_ws->sendTextMessage(QString::fromUtf8(m_init)); });
        connect(m_ws, &QWebSocket::textMessageReceived, this, &Relay::onText);
        connect(m_ws, &QWebSocket::binaryMessageReceived, this, [this](const QByteArray &bytes) {
            if (!m_local)
                return;
            m_local->write(bytes);
            if (m_local->bytesToWrite() > kMaxUnread)
                fail(WebSocketPortForward::tr("the program on this computer stopped reading what %1 sent "
                                              "(%2 MiB waiting): the connection was closed")
                         .arg(m_service)
                         .arg(kMaxUnread >> 20));
        });
        connect(m_ws, &QWebSocket::bytesWritten, this, [this](qint64 n) {
            m_inFlight = qMax<qint64>(0, m_inFlight - n);
            pump();
        });
        connect(m_ws, &QWebSocket::disconnected, this, [this] {
            if (!m_connected)
                return fail(
                    webSocketOpenError(m_ws, m_sslErrors, m_service, WebSocketPortForward::tr("the port"))
                        .value_or(makeError(ErrorCode::Unavailable, WebSocketPortForward::tr("the connection closed")))
                        .message);
            // What the service sent is written out before the local side closes.
            m_local->disconnectFromHost();
        });
        connect(m_local, &QTcpSocket::readyRead, this, &Relay::pump);
        connect(m_local, &QTcpSocket::disconnected, this, [this] {
            if (m_ws && m_ws->state() != QAbstractSocket::UnconnectedState)
                m_ws->close();
            deleteLater();
        });
        QTimer::singleShot(kHandshakeMs, this, [this] {
            if (!m_connected)
                fail(WebSocketPortForward::tr("%1 did not open the port within %2 s")
                         .arg(m_service)
                         .arg(kHandshakeMs / 1000));
        });
        m_ws->open(dial.request);
    }

    bool carrying() const { return m_connected; }

private:
    void onText(const QString &text)
    {
        if (m_connected)
            return; // notices on the way; the bytes are binary
        const QJsonObject reply = QJsonDocument::fromJson(text.toUtf8()).object();
        const QString status = reply.value(QLatin1String("status")).toString();
        if (status != QLatin1String("connected")) {
            const QString why = reply.value(QLatin1String("error")).toString();
            return fail(WebSocketPortForward::tr("%1 did not connect the port: %2")
                            .arg(m_service, why.isEmpty() ? (status.isEmpty() ? text.left(200) : status) : why));
        }
        m_connected = true;
        pump();
    }

    void pump()
    {
        while (m_connected && m_ws && m_local && m_inFlight < kMaxInFlight && m_local->bytesAvailable() > 0) {
            const QByteArray chunk = m_local->read(kChunk);
            m_inFlight += chunk.size();
            m_ws->sendBinaryMessage(chunk);
        }
    }

    void fail(const QString &why)
    {
        if (m_failed)
            return;
        m_failed = true;
        if (m_forward)
            Q_EMIT m_forward->connectionFailed(why);
        if (m_ws)
            m_ws->abort();
        m_local->abort();
        deleteLater();
    }

    QTcpSocket *m_local;
    QPointer<WebSocketPortForward> m_forward;
    QString m_service;
    QByteArray m_init;
    QWebSocket *m_ws = nullptr;
    QString m_sslErrors;
    qint64 m_inFlight = 0;
    bool m_connected = false;
    bool m_failed = false;
};

} // namespace

WebSocketPortForward::WebSocketPortForward(QString service, std::function<Dial()> dial, QObject *parent)
    : QObject(parent)
    , m_service(std::move(service))
    , m_dial(std::move(dial))
{
    connect(&m_server, &QTcpServer::newConnection, this, &WebSocketPortForward::accept);
}

WebSocketPortForward::~WebSocketPortForward() = default;

Result<quint16> WebSocketPortForward::listen()
{
    if (m_server.isListening())
        return m_server.serverPort();
    if (!m_server.listen(QHostAddress::LocalHost, 0))
        return makeError(ErrorCode::Unavailable,
                         WebSocketPortForward::tr("No local port for forwarding: %1").arg(m_server.errorString()));
    return m_server.serverPort();
}

int WebSocketPortForward::activeConnections() const
{
    int n = 0;
    for (const QObject *child : children()) {
        if (const auto *relay = dynamic_cast<const Relay *>(child); relay && relay->carrying())
            ++n;
    }
    return n;
}

void WebSocketPortForward::accept()
{
    while (QTcpSocket *local = m_server.nextPendingConnection())
        new Relay(local, m_service, m_dial(), this);
}

} // namespace sandbar::cloud
