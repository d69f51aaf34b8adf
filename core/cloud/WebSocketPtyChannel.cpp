#include "cloud/WebSocketPtyChannel.h"

#include "cloud/ServiceUrl.h"

#include <QAbstractSocket>
#include <QCoreApplication>
#include <QNetworkProxy>
#include <QSslConfiguration>
#include <QSslError>
#include <QTimer>
#include <QWebSocket>

namespace sandbar::cloud {

namespace {
constexpr quint64 kMaxMessageBytes = 4 * 1024 * 1024;
// What the socket may take in while held (see holdTransport).
constexpr qint64 kHeldReadBufferBytes = 64 * 1024;
// Decoded output held for a paused consumer. Back-pressure keeps it near one socket buffer
// plus one message; this is the backstop should that ever fail.
constexpr qint64 kMaxHeldOutputBytes = 16 * 1024 * 1024;

// QWebSocket's connection: the socket it made as its direct child (QTcpSocket or QSslSocket).
QAbstractSocket *transportOf(QWebSocket *ws)
{
    return ws ? ws->findChild<QAbstractSocket *>(QString(), Qt::FindDirectChildrenOnly) : nullptr;
}
} // namespace

Result<QWebSocket *> makeServiceWebSocket(QNetworkRequest &request, const QString &service, QObject *parent)
{
    QUrl url = request.url();
    if (url.scheme() == QLatin1String("http"))
        url.setScheme(QStringLiteral("ws"));
    else if (url.scheme() == QLatin1String("https"))
        url.setScheme(QStringLiteral("wss"));
    if (url.scheme() == QLatin1String("ws") && !isLoopbackHost(url.host()))
        return makeError(ErrorCode::InvalidArgument,
                         WebSocketPtyChannel::tr("%1 offered an unencrypted address (%2); only https is accepted")
                             .arg(service, url.host()));
    request.setUrl(url);
    auto *socket = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, parent);
    // Output comes in small frames; without a cap QWebSocket assembles a message of whatever
    // size a server announces. Over it, the socket closes with 1009.
    socket->setMaxAllowedIncomingFrameSize(kMaxMessageBytes);
    socket->setMaxAllowedIncomingMessageSize(kMaxMessageBytes);
    // A socket to this machine (a contract server, a tunnel) must never go through a proxy.
    if (isLoopbackHost(url.host()))
        socket->setProxy(QNetworkProxy::NoProxy);
    if (url.scheme() == QLatin1String("wss"))
        socket->setSslConfiguration(request.sslConfiguration());
    return socket;
}

void collectSslErrors(QWebSocket *socket, QObject *context, QString *into)
{
    QObject::connect(socket, &QWebSocket::sslErrors, context, [into](const QList<QSslError> &errors) {
        QStringList texts;
        for (const QSslError &e : errors)
            texts << e.errorString();
        *into = texts.join(QLatin1String("; "));
    });
}

std::optional<Error> webSocketOpenError(QWebSocket *socket, const QString &sslErrors, const QString &service,
                                        const QString &what)
{
    const QString where = socket->requestUrl().host();
    if (!sslErrors.isEmpty())
        return makeError(
            ErrorCode::Unavailable,
            WebSocketPtyChannel::tr("The certificate of %1 was refused: %2. A self-hosted service with its "
                                    "own certificate authority needs the account's CA file.")
                .arg(where, sslErrors));
    const QString text = socket->errorString();
    if (text.contains(QLatin1String("401")) || text.contains(QLatin1String("403")))
        return makeError(
            ErrorCode::Unauthorized,
            WebSocketPtyChannel::tr("%1 refused %2: the key was not accepted (%3)").arg(service, what, text));
    if (!socket->isValid())
        return makeError(ErrorCode::Unavailable,
                         WebSocketPtyChannel::tr("The connection to %1 for %2 failed: %3").arg(service, what, text));
    return std::nullopt;
}

WebSocketPtyChannel::WebSocketPtyChannel(Opener opener, Hooks hooks, QObject *parent)
    : PtyChannel(parent)
    , m_opener(std::move(opener))
    , m_hooks(std::move(hooks))
{
}

WebSocketPtyChannel::~WebSocketPtyChannel()
{
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
}

WebSocketPtyChannel::Opener WebSocketPtyChannel::fixedRequest(QNetworkRequest request)
{
    return [request](Callback<QNetworkRequest> ready) { ready(request); };
}

QString WebSocketPtyChannel::service() const
{
    return m_hooks.service.isEmpty() ? tr("The service") : m_hooks.service;
}

void WebSocketPtyChannel::start()
{
    if (m_started)
        return;
    m_started = true;
    if (!m_opener)
        return fail(makeError(ErrorCode::Internal, tr("The terminal has no address")));
    m_opener(Callback<QNetworkRequest>(this, [this](Result<QNetworkRequest> r) {
        if (m_ended)
            return;
        if (!r)
            return fail(r.error());
        openSocket(r.value());
    }));
}

void WebSocketPtyChannel::openSocket(QNetworkRequest request)
{
    auto socket = makeServiceWebSocket(request, service(), this);
    if (!socket)
        return fail(socket.error());
    m_socket = socket.value();
    connect(m_socket, &QWebSocket::connected, this, &WebSocketPtyChannel::onConnected);
    connect(m_socket, &QWebSocket::binaryMessageReceived, this, &WebSocketPtyChannel::onBinary);
    connect(m_socket, &QWebSocket::textMessageReceived, this, &WebSocketPtyChannel::onText);
    connect(m_socket, &QWebSocket::disconnected, this, &WebSocketPtyChannel::onDisconnected);
    collectSslErrors(m_socket, this, &m_sslErrors);
    connect(m_socket, QOverload<QAbstractSocket::SocketError>::of(&QWebSocket::error), this,
            [this](QAbstractSocket::SocketError) {
                // Once the terminal is open, disconnected() tells the end from the close frame.
                if (m_ended || !m_socket || m_ready)
                    return;
                if (const auto why = webSocketOpenError(m_socket, m_sslErrors, service(), tr("the terminal")))
                    fail(*why);
            });

    m_connectTimer = new QTimer(this);
    m_connectTimer->setSingleShot(true);
    connect(m_connectTimer, &QTimer::timeout, this, [this] {
        if (!m_ready)
            fail(makeError(ErrorCode::Timeout, tr("%1 did not open the terminal in time").arg(service())));
    });
    m_connectTimer->start(m_hooks.connectTimeoutMs);
    m_socket->open(request);
}

void WebSocketPtyChannel::onConnected()
{
    if (m_hooks.openingText && m_socket)
        m_socket->sendTextMessage(m_hooks.openingText());
    if (!m_hooks.waitForReady)
        becomeReady();
}

void WebSocketPtyChannel::becomeReady()
{
    if (m_ready || m_ended)
        return;
    m_ready = true;
    if (m_connectTimer)
        m_connectTimer->stop();
    if (m_paused) // paused before the terminal was there
        holdTransport(true);
    Q_EMIT started();
    if (m_pendingSize) {
        const auto [cols, rows] = *m_pendingSize;
        m_pendingSize.reset();
        resize(cols, rows);
    }
    const QByteArrayList queued = std::exchange(m_queuedWrites, {});
    for (const QByteArray &b : queued)
        write(b);
    if (m_closing)
        close();
}

void WebSocketPtyChannel::onBinary(const QByteArray &bytes)
{
    if (m_ended)
        return;
    // Output before the control frame means the service sends none: the terminal is there.
    if (!m_ready)
        becomeReady();
    deliver(bytes);
}

void WebSocketPtyChannel::onText(const QString &text)
{
    if (m_ended)
        return;
    if (!m_hooks.textFrame) {
        if (!m_ready)
            becomeReady();
        return deliver(text.toUtf8());
    }
    auto r = m_hooks.textFrame(text);
    if (!r)
        return fail(r.error());
    if (r->ready)
        becomeReady();
    if (!r->output.isEmpty())
        deliver(r->output);
}

void WebSocketPtyChannel::deliver(const QByteArray &bytes)
{
    if (bytes.isEmpty())
        return;
    if (m_paused || !m_pausedOutput.isEmpty()) {
        m_pausedOutput.append(bytes);
        m_pendingBytes += bytes.size();
        if (m_pendingBytes > kMaxHeldOutputBytes)
            fail(makeError(ErrorCode::Unavailable,
                           tr("%1 kept sending terminal output faster than it could be shown (over %2 MiB waiting); "
                              "the terminal was disconnected so that Sandbar's memory stays bounded.")
                               .arg(service())
                               .arg(kMaxHeldOutputBytes >> 20)));
        return;
    }
    Q_EMIT dataReceived(bytes);
}

// QWebSocket has no way to stop reading: it decodes whatever its socket signals. While
// held, the socket's signals are held back and its read buffer bounded, so it fills, the
// kernel stops acknowledging and the server has to wait. (Not bounded for good: QWebSocket
// reads a frame only once it is all there, and a socket whose bounded buffer is full stops
// reading, so a frame larger than the buffer would never complete.) On release, the buffer
// is unbounded again, which resumes reading, and what the socket signalled meanwhile (data
// waiting, an end) is signalled again.
void WebSocketPtyChannel::holdTransport(bool hold)
{
    QAbstractSocket *transport = transportOf(m_socket);
    if (!transport || !m_ready || m_ended || transport->signalsBlocked() == hold)
        return;
    transport->setReadBufferSize(hold ? kHeldReadBufferBytes : 0);
    transport->blockSignals(hold);
    // Its frame decoder gives up on a frame left half-read for 5 s: while held, that is no
    // stalled server, so its timer is held too.
    for (QTimer *timer : m_socket->findChildren<QTimer *>()) {
        if (timer->parent() && timer->parent()->inherits("QWebSocketDataProcessor"))
            timer->blockSignals(hold);
    }
    if (hold)
        return;
    QTimer::singleShot(0, this, [this, t = QPointer<QAbstractSocket>(transport)] {
        if (!t || m_ended || m_paused || !m_socket)
            return;
        if (t->bytesAvailable() > 0)
            Q_EMIT t->readyRead();
        if (t->state() != m_socket->state())
            Q_EMIT t->stateChanged(t->state());
    });
}

void WebSocketPtyChannel::setReadingPaused(bool paused)
{
    m_paused = paused;
    holdTransport(paused);
    if (paused)
        return;
    while (!m_paused && !m_pausedOutput.isEmpty()) {
        const QByteArray b = m_pausedOutput.takeFirst();
        m_pendingBytes -= b.size();
        Q_EMIT dataReceived(b);
    }
}

void WebSocketPtyChannel::onDisconnected()
{
    if (m_ended || !m_socket)
        return;
    // Output held for a paused consumer still belongs before the end.
    m_paused = false;
    setReadingPaused(false);
    const QWebSocketProtocol::CloseCode code = m_socket->closeCode();
    const QString reason = m_socket->closeReason();
    if (!m_ready && m_socket->error() != QAbstractSocket::UnknownSocketError && reason.isEmpty())
        return fail(makeError(ErrorCode::Unavailable,
                              tr("The terminal connection to %1 failed: %2").arg(service(), m_socket->errorString())));
    if (m_hooks.closed) {
        auto r = m_hooks.closed(code, reason);
        if (!r)
            return fail(r.error());
        return finishWith(r.value());
    }
    if (code == QWebSocketProtocol::CloseCodeNormal)
        return finishWith(0);
    fail(makeError(
        ErrorCode::Unavailable,
        reason.isEmpty()
            ? tr("%1 ended the terminal connection (code %2)").arg(service()).arg(int(code))
            : tr("%1 ended the terminal connection (code %2): %3").arg(service()).arg(int(code)).arg(reason)));
}

void WebSocketPtyChannel::write(const QByteArray &bytes)
{
    if (m_ended || bytes.isEmpty())
        return;
    if (!m_ready || !m_socket) {
        m_queuedWrites.append(bytes);
        return;
    }
    // One socket, one frame per write: frames leave in the order written.
    m_socket->sendBinaryMessage(bytes);
}

void WebSocketPtyChannel::resize(int cols, int rows)
{
    if (m_ended || cols <= 0 || rows <= 0)
        return;
    if (!m_ready) {
        m_pendingSize = std::make_pair(cols, rows);
        return;
    }
    if (m_hooks.resizeText && m_socket)
        m_socket->sendTextMessage(m_hooks.resizeText(cols, rows));
    else if (m_hooks.resize)
        m_hooks.resize(cols, rows);
}

void WebSocketPtyChannel::close()
{
    if (m_ended)
        return;
    if (!m_ready) {
        // Nothing to hang up yet: once open, the terminal is ended at once.
        m_closing = true;
        if (!m_socket && !m_started)
            finishWith(-1);
        return;
    }
    if (m_hooks.hangup && m_hooks.hangup())
        return;
    if (m_socket)
        m_socket->close(QWebSocketProtocol::CloseCodeNormal);
}

bool WebSocketPtyChannel::isOpen() const
{
    return m_ready && !m_ended;
}

void WebSocketPtyChannel::fail(Error error)
{
    if (m_ended)
        return;
    m_ended = true;
    if (m_connectTimer)
        m_connectTimer->stop();
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
    Q_EMIT errorOccurred(error);
}

void WebSocketPtyChannel::finishWith(int code)
{
    if (m_ended)
        return;
    m_ended = true;
    if (m_connectTimer)
        m_connectTimer->stop();
    m_exitCode = code >= 0 ? std::optional<int>(code) : std::nullopt;
    Q_EMIT finished(code);
}

} // namespace sandbar::cloud
