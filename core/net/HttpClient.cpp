#include "net/HttpClient.h"

#include "net/HttpParser.h"
#include "net/SocketSupport.h"

#include <QIODevice>
#include <QLocalSocket>
#include <QPointer>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTimer>

namespace sandbar::net {

namespace {

// The socket's write queue is kept below this while a request body streams in, so a
// 256 MiB upload holds a few MiB at most.
constexpr qint64 kMaxQueued = 1024 * 1024;
constexpr qint64 kReadChunk = 256 * 1024;

bool isReserved(const QByteArray &name)
{
    static const char *const reserved[] = {"host", "content-length", "connection", "transfer-encoding", "upgrade"};
    for (const char *r : reserved) {
        if (name.compare(r, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

} // namespace

struct HttpExchange::Private {
    HttpExchange *q;
    Endpoint endpoint;
    HttpRequest request;
    HttpResponseParser parser;
    HttpResponse head;

    QIODevice *socket = nullptr; // child of q
    QTimer connectTimer;
    QTimer responseTimer;
    QTimer idleTimer;

    enum class Phase { Idle, Connecting, Sending, Receiving, Finished };
    Phase phase = Phase::Idle;
    bool inStart = false;
    bool upgraded = false;
    bool writeClosePending = false;
    bool writeClosed = false;
    bool tcpConnected = false;
    bool readingPaused = false;
    Stage failedStage = Stage::Exchanging;
    QString failureDetail;
    std::shared_ptr<ConnectRecovery> recovery;
    bool recoveryAsked = false;
    QString sslErrors;

    // Request body streaming.
    QPointer<QIODevice> body;
    QList<QMetaObject::Connection> bodyConnections;
    qint64 bodySent = 0;
    qint64 bodyTotal = -1;
    bool bodyDone = true;
    bool chunked = false;
    bool deviceFinished = false; // a sequential device signalled the end of its data
    bool pumping = false;

    Private(HttpExchange *owner, Endpoint ep, HttpRequest req)
        : q(owner)
        , endpoint(std::move(ep))
        , request(std::move(req))
        , parser(HttpResponseParser::Options{request.method == "HEAD", request.upgrade, 256 * 1024})
    {
    }

    QByteArray serializeHead() const;
    bool requestIsSafe() const;
    void connectSocket();
    void onConnected();
    void onReadyRead(bool evenWhenPaused = false);
    void applyReadLimit();
    void onDisconnected();
    void onSocketError(const Error &error);
    void onBytesWritten(qint64 n);
    void pumpBody();
    QByteArray readBuffer;
    void finishBody();
    void doCloseWrite();
    void finish(VoidResult result);
    qint64 queued() const;
    void dropSocket();
};

QByteArray HttpExchange::Private::serializeHead() const
{
    QByteArray out;
    out.reserve(256);
    out += request.method + ' ' + (request.target.isEmpty() ? QByteArray("/") : request.target) + " HTTP/1.1\r\n";
    out += "Host: ";
    if (endpoint.kind == Endpoint::Kind::Tcp) {
        const bool v6 = endpoint.host.contains(QLatin1Char(':'));
        out += (v6 ? "[" : "") + endpoint.host.toLatin1() + (v6 ? "]" : "");
        // The scheme's own port goes unsaid, as browsers do: some front ends route on the name.
        if (endpoint.port != (endpoint.tls ? 443 : 80))
            out += ':' + QByteArray::number(endpoint.port);
    } else {
        out += "docker";
    }
    out += "\r\n";
    for (const auto &h : request.headers) {
        if (!isReserved(h.first))
            out += h.first + ": " + h.second + "\r\n";
    }
    if (request.bodyDevice) {
        if (request.bodyLength >= 0)
            out += "Content-Length: " + QByteArray::number(request.bodyLength) + "\r\n";
        else
            out += "Transfer-Encoding: chunked\r\n";
    } else if (!request.body.isEmpty() || request.method == "POST" || request.method == "PUT" ||
               request.method == "PATCH") {
        out += "Content-Length: " + QByteArray::number(request.body.size()) + "\r\n";
    }
    if (request.upgrade)
        out += "Connection: Upgrade\r\nUpgrade: tcp\r\n";
    else
        out += "Connection: close\r\n";
    out += "\r\n";
    return out;
}

// CR, LF or a space in the request line or a header would let a caller-supplied value (a
// container name, an image tag) smuggle in headers of its own.
bool HttpExchange::Private::requestIsSafe() const
{
    auto clean = [](const QByteArray &b, bool allowSpace) {
        for (char c : b) {
            if (c == '\r' || c == '\n' || c == '\0' || (!allowSpace && c == ' '))
                return false;
        }
        return true;
    };
    if (request.method.isEmpty() || !clean(request.method, false) || !clean(request.target, false))
        return false;
    for (const auto &h : request.headers) {
        if (h.first.isEmpty() || !clean(h.first, false) || h.first.contains(':') || !clean(h.second, true))
            return false;
    }
    return true;
}

void HttpExchange::Private::connectSocket()
{
    if (!requestIsSafe()) {
        finish(
            makeError(ErrorCode::InvalidArgument,
                      tr("Refusing to send a request to %1 whose method, path or headers contain line breaks or "
                         "spaces: %2")
                          .arg(endpoint.display(), QString::fromLatin1(request.target.left(80).toPercentEncoding()))));
        return;
    }
    auto onError = [this](const Error &e) { onSocketError(e); };
    if (endpoint.kind == Endpoint::Kind::Tcp) {
        QTcpSocket *tcp = nullptr;
        if (endpoint.tls) {
            auto ssl = makeSslSocket(endpoint, q);
            if (!ssl) {
                finish(ssl.error());
                return;
            }
            tcp = *ssl;
        } else {
            tcp = new QTcpSocket(q);
        }
        if (endpoint.proxy)
            tcp->setProxy(*endpoint.proxy);
        QObject::connect(tcp, &QAbstractSocket::connected, q, [this] { tcpConnected = true; });
        if (auto *ssl = qobject_cast<QSslSocket *>(tcp))
            QObject::connect(ssl, &QSslSocket::sslErrors, q, [this](const QList<QSslError> &errors) {
                QStringList texts;
                for (const QSslError &e : errors)
                    texts << e.errorString();
                sslErrors = texts.join(QStringLiteral("; "));
            });
        socket = tcp;
        connectTcpSignals(
            tcp, endpoint, q, [this] { onConnected(); }, onError);
    } else {
        auto *local = new QLocalSocket(q);
        socket = local;
        connectLocalSignals(
            local, endpoint, q, [this] { onConnected(); }, onError);
    }
    applyReadLimit();
    QObject::connect(socket, &QIODevice::readyRead, q, [this] { onReadyRead(); });
    QObject::connect(socket, &QIODevice::bytesWritten, q, [this](qint64 n) { onBytesWritten(n); });
    QObject::connect(socket, &QIODevice::readChannelFinished, q, [this] { onReadyRead(); });
    if (auto *tcp = qobject_cast<QAbstractSocket *>(socket))
        QObject::connect(tcp, &QAbstractSocket::disconnected, q, [this] { onDisconnected(); });
    else if (auto *local = qobject_cast<QLocalSocket *>(socket))
        QObject::connect(local, &QLocalSocket::disconnected, q, [this] { onDisconnected(); });

    phase = Phase::Connecting;
    if (request.connectTimeout.count() > 0)
        connectTimer.start(request.connectTimeout);
    startConnecting(socket, endpoint);
}

void HttpExchange::Private::onConnected()
{
    if (phase != Phase::Connecting)
        return;
    connectTimer.stop();
    phase = Phase::Sending;
    if (request.responseTimeout.count() > 0)
        responseTimer.start(request.responseTimeout);
    socket->write(serializeHead());
    if (request.bodyDevice) {
        body = request.bodyDevice;
        bodyTotal = request.bodyLength;
        chunked = request.bodyLength < 0;
        bodyDone = false;
        if (!body->isOpen() || !body->isReadable()) {
            finish(makeError(
                ErrorCode::InvalidArgument,
                tr("The request body for %1 cannot be read: the device is not open.").arg(endpoint.display())));
            return;
        }
        bodyConnections << QObject::connect(body, &QIODevice::readyRead, q, [this] { pumpBody(); });
        bodyConnections << QObject::connect(body, &QIODevice::readChannelFinished, q, [this] {
            deviceFinished = true;
            pumpBody();
        });
        bodyConnections << QObject::connect(body, &QObject::destroyed, q, [this] {
            if (!bodyDone)
                finish(makeError(
                    ErrorCode::Internal,
                    tr("The request body for %1 was deleted while it was being sent.").arg(endpoint.display())));
        });
        pumpBody();
    } else {
        phase = Phase::Receiving;
        if (!request.body.isEmpty()) {
            socket->write(request.body);
            Q_EMIT q->uploadProgress(request.body.size(), request.body.size()); // may delete q: nothing after
        }
    }
}

qint64 HttpExchange::Private::queued() const
{
    qint64 n = socket->bytesToWrite();
    if (auto *ssl = qobject_cast<QSslSocket *>(socket))
        n += ssl->encryptedBytesToWrite();
    return n;
}

void HttpExchange::Private::pumpBody()
{
    if (bodyDone || pumping || phase == Phase::Finished || !socket || !body)
        return;
    pumping = true;
    QPointer<HttpExchange> self(q);
    bool progressed = false;
    bool ended = false;
    while (queued() < kMaxQueued) {
        qint64 want = kReadChunk;
        if (bodyTotal >= 0)
            want = qMin(want, bodyTotal - bodySent);
        if (want == 0) {
            ended = true;
            break;
        }
        // One buffer for the whole upload: a fresh 256 KiB allocation per piece costs a
        // page-zeroing mmap each time, which showed in profiles of 256 MiB uploads.
        if (readBuffer.size() < want)
            readBuffer.resize(want);
        const qint64 got = body->read(readBuffer.data(), want);
        if (got < 0) {
            ended = true;
            break;
        }
        if (got == 0) {
            if (!body->isSequential() ? body->atEnd() : (deviceFinished || !body->isReadable()))
                ended = true;
            break;
        }
        if (chunked) {
            socket->write(QByteArray::number(got, 16) + "\r\n");
            socket->write(readBuffer.constData(), got);
            socket->write("\r\n", 2);
        } else {
            socket->write(readBuffer.constData(), got);
        }
        bodySent += got;
        progressed = true;
    }
    pumping = false;
    if (progressed) {
        Q_EMIT q->uploadProgress(bodySent, bodyTotal);
        if (!self || phase == Phase::Finished)
            return;
    }
    if (ended)
        finishBody();
}

void HttpExchange::Private::finishBody()
{
    bodyDone = true;
    for (const auto &c : std::as_const(bodyConnections))
        QObject::disconnect(c);
    bodyConnections.clear();
    if (bodyTotal >= 0 && bodySent < bodyTotal) {
        finish(makeError(ErrorCode::InvalidArgument, tr("The request body for %1 ended after %2 of %3 bytes.")
                                                         .arg(endpoint.display())
                                                         .arg(bodySent)
                                                         .arg(bodyTotal)));
        return;
    }
    if (chunked)
        socket->write("0\r\n\r\n");
    if (phase == Phase::Sending)
        phase = Phase::Receiving;
}

void HttpExchange::Private::onBytesWritten(qint64 n)
{
    if (phase == Phase::Finished)
        return;
    if (upgraded) {
        QPointer<HttpExchange> self(q);
        Q_EMIT q->bytesWritten(n);
        if (!self || phase == Phase::Finished)
            return;
        if (writeClosePending && queued() == 0)
            doCloseWrite();
        return;
    }
    // A slow upload is progress too: the response clock starts over while bytes move.
    if (!head.status && responseTimer.isActive())
        responseTimer.start();
    if (!bodyDone)
        pumpBody();
}

void HttpExchange::Private::applyReadLimit()
{
    const qint64 limit = readingPaused ? kReadChunk : 0; // 0: unlimited, drained at once
    if (auto *tcp = qobject_cast<QAbstractSocket *>(socket))
        tcp->setReadBufferSize(limit);
    else if (auto *local = qobject_cast<QLocalSocket *>(socket))
        local->setReadBufferSize(limit);
}

void HttpExchange::Private::onReadyRead(bool evenWhenPaused)
{
    if (phase == Phase::Finished || !socket)
        return;
    // The headers are always taken in (they are small and bounded by the parser).
    if (readingPaused && !evenWhenPaused && head.status != 0)
        return;
    const QByteArray data = socket->readAll();
    if (data.isEmpty())
        return;
    if (idleTimer.isActive())
        idleTimer.start();

    HttpParseEvents ev;
    const bool ok = parser.feed(data, ev);
    QPointer<HttpExchange> self(q);
    if (ev.headersComplete) {
        responseTimer.stop();
        head = ev.head;
        if (ev.upgraded)
            upgraded = true;
        if (request.idleTimeout.count() > 0)
            idleTimer.start(request.idleTimeout);
        Q_EMIT q->headersReceived(head);
        if (!self || phase == Phase::Finished)
            return;
        if (upgraded && !bodyDone) {
            // The engine switched protocols before the body was sent; the stream owns the socket now.
            bodyDone = true;
            for (const auto &c : std::as_const(bodyConnections))
                QObject::disconnect(c);
            bodyConnections.clear();
        }
    }
    if (!ev.body.isEmpty()) {
        Q_EMIT q->bodyData(ev.body);
        if (!self || phase == Phase::Finished)
            return;
    }
    if (!ev.raw.isEmpty()) {
        Q_EMIT q->rawData(ev.raw);
        if (!self || phase == Phase::Finished)
            return;
    }
    if (!ok) {
        const ErrorCode code =
            parser.failure() == HttpResponseParser::Failure::TooLarge ? ErrorCode::LimitReached : ErrorCode::Internal;
        finish(makeError(code, tr("Malformed reply from %1: %2").arg(endpoint.display(), parser.errorString())));
        return;
    }
    if (ev.messageComplete)
        finish(VoidResult{});
}

void HttpExchange::Private::onDisconnected()
{
    if (phase == Phase::Finished)
        return;
    if (phase == Phase::Connecting) {
        finish(makeError(ErrorCode::Unavailable,
                         endpoint.tls ? tr("Cannot reach the engine at %1: it closed the connection during the TLS "
                                           "handshake. Does it want a client certificate (DOCKER_CERT_PATH)?")
                                            .arg(endpoint.display())
                                      : tr("Cannot reach the engine at %1: the connection closed while connecting.")
                                            .arg(endpoint.display())));
        return;
    }
    QPointer<HttpExchange> self(q);
    onReadyRead(true); // bytes that arrived together with the close
    if (!self || phase == Phase::Finished)
        return;
    HttpParseEvents ev;
    if (!parser.finishInput(ev)) {
        finish(
            makeError(ErrorCode::Unavailable,
                      tr("The engine at %1 dropped the connection: %2").arg(endpoint.display(), parser.errorString())));
        return;
    }
    finish(VoidResult{});
}

void HttpExchange::Private::onSocketError(const Error &error)
{
    if (phase == Phase::Finished)
        return;
    // Nothing was sent yet: once the endpoint is back, connecting again repeats nothing.
    if (phase == Phase::Connecting && error.code == ErrorCode::Unavailable && recovery && !recoveryAsked) {
        recoveryAsked = true;
        connectTimer.stop();
        dropSocket();
        recovery->restore(q, [this](const VoidResult &r) {
            if (phase != Phase::Connecting)
                return; // aborted meanwhile
            if (!r.ok())
                return finish(r.error());
            connectSocket();
        });
        return;
    }
    finish(error);
}

void HttpExchange::Private::doCloseWrite()
{
    writeClosePending = false;
    if (writeClosed || !socket)
        return;
    writeClosed = true;
    shutdownWrite(socket);
}

void HttpExchange::Private::dropSocket()
{
    if (!socket)
        return;
    QIODevice *s = socket;
    socket = nullptr;
    QObject::disconnect(s, nullptr, q, nullptr);
    abortSocket(s);
    s->deleteLater();
}

void HttpExchange::Private::finish(VoidResult result)
{
    if (phase == Phase::Finished)
        return;
    if (!result.ok()) {
        failedStage = phase != Phase::Connecting     ? Stage::Exchanging
                      : tcpConnected && endpoint.tls ? Stage::Handshaking
                                                     : Stage::Connecting;
        failureDetail = sslErrors;
        if (auto *tcp = qobject_cast<QAbstractSocket *>(socket);
            failureDetail.isEmpty() && tcp && tcp->error() != QAbstractSocket::UnknownSocketError)
            failureDetail = tcp->errorString();
    }
    phase = Phase::Finished;
    connectTimer.stop();
    responseTimer.stop();
    idleTimer.stop();
    for (const auto &c : std::as_const(bodyConnections))
        QObject::disconnect(c);
    bodyConnections.clear();
    bodyDone = true;
    dropSocket();
    if (inStart) {
        // Errors found inside start() (a missing socket) are reported from the event loop so
        // that callers may connect to finished after start() too.
        QMetaObject::invokeMethod(
            q, [qq = q, r = std::move(result)] { Q_EMIT qq->finished(r); }, Qt::QueuedConnection);
        return;
    }
    Q_EMIT q->finished(result);
}

HttpExchange::HttpExchange(Endpoint endpoint, HttpRequest request, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this, std::move(endpoint), std::move(request)))
{
    for (QTimer *t : {&d->connectTimer, &d->responseTimer, &d->idleTimer})
        t->setSingleShot(true);
    connect(&d->connectTimer, &QTimer::timeout, this, [this] {
        d->finish(makeError(ErrorCode::Timeout, tr("Timed out after %1 ms connecting to the engine at %2.")
                                                    .arg(d->request.connectTimeout.count())
                                                    .arg(d->endpoint.display())));
    });
    connect(&d->responseTimer, &QTimer::timeout, this, [this] {
        d->finish(makeError(ErrorCode::Timeout, tr("The engine at %1 did not answer %2 %3 within %4 ms.")
                                                    .arg(d->endpoint.display(), QString::fromLatin1(d->request.method),
                                                         QString::fromLatin1(d->request.target))
                                                    .arg(d->request.responseTimeout.count())));
    });
    connect(&d->idleTimer, &QTimer::timeout, this, [this] {
        d->finish(makeError(ErrorCode::Timeout, tr("The engine at %1 sent nothing for %2 ms.")
                                                    .arg(d->endpoint.display())
                                                    .arg(d->request.idleTimeout.count())));
    });
}

HttpExchange::~HttpExchange()
{
    // No signal may reach a half-destroyed exchange: cut every connection first.
    d->phase = Private::Phase::Finished;
    for (const auto &c : std::as_const(d->bodyConnections))
        QObject::disconnect(c);
    d->bodyConnections.clear();
    if (d->socket) {
        QIODevice *s = d->socket;
        d->socket = nullptr;
        QObject::disconnect(s, nullptr, this, nullptr);
        abortSocket(s);
        // Not deleted here: the exchange may be destroyed from inside one of the socket's signals.
        s->setParent(nullptr);
        s->deleteLater();
    }
}

void HttpExchange::start()
{
    if (d->phase != Private::Phase::Idle)
        return;
    d->inStart = true;
    d->connectSocket();
    d->inStart = false;
}

void HttpExchange::setConnectRecovery(std::shared_ptr<ConnectRecovery> recovery)
{
    d->recovery = std::move(recovery);
}

void HttpExchange::abort()
{
    if (d->phase == Private::Phase::Finished)
        return;
    d->finish(makeError(ErrorCode::Cancelled, tr("The request to %1 was cancelled.").arg(d->endpoint.display())));
}

void HttpExchange::write(const QByteArray &bytes)
{
    if (!d->upgraded || !d->socket || d->writeClosed || d->writeClosePending || d->phase == Private::Phase::Finished)
        return;
    d->socket->write(bytes);
}

void HttpExchange::closeWrite()
{
    if (!d->upgraded || !d->socket || d->writeClosed || d->phase == Private::Phase::Finished)
        return;
    if (d->queued() > 0) {
        // Queued stdin must reach the engine before the EOF does.
        d->writeClosePending = true;
        return;
    }
    d->doCloseWrite();
}

bool HttpExchange::isUpgraded() const
{
    return d->upgraded;
}

qint64 HttpExchange::bytesToWrite() const
{
    return d->socket ? d->queued() : 0;
}

bool HttpExchange::pollNow()
{
    if (d->readingPaused || d->phase == Private::Phase::Finished || !d->socket)
        return false;
    // With no wait: readyRead, and so onReadyRead, runs now if the kernel has bytes.
    if (auto *tcp = qobject_cast<QAbstractSocket *>(d->socket))
        return tcp->state() == QAbstractSocket::ConnectedState && tcp->waitForReadyRead(0);
    if (auto *local = qobject_cast<QLocalSocket *>(d->socket))
        return local->state() == QLocalSocket::ConnectedState && local->waitForReadyRead(0);
    return false;
}

void HttpExchange::setReadingPaused(bool paused)
{
    if (d->readingPaused == paused)
        return;
    d->readingPaused = paused;
    d->applyReadLimit();
    // What the socket buffered meanwhile raises no new readyRead.
    if (!paused)
        QMetaObject::invokeMethod(
            this, [this] { d->onReadyRead(); }, Qt::QueuedConnection);
}

const HttpResponse &HttpExchange::response() const
{
    return d->head;
}

std::shared_ptr<CappedBody> collectBody(HttpExchange *ex, qint64 limit)
{
    auto state = std::make_shared<CappedBody>();
    QObject::connect(ex, &HttpExchange::headersReceived, ex, [ex, state, limit](const HttpResponse &head) {
        // A declared length over the limit fails before any of it is read.
        bool ok = false;
        const qint64 declared = head.header("Content-Length").toLongLong(&ok);
        if (ok && declared > limit && !ex->isUpgraded()) {
            state->overflow = true;
            ex->abort();
        }
    });
    QObject::connect(ex, &HttpExchange::bodyData, ex, [ex, state, limit](const QByteArray &bytes) {
        if (state->overflow)
            return;
        if (state->body.size() + bytes.size() > limit) {
            state->overflow = true;
            state->body.clear();
            ex->abort();
            return;
        }
        state->body += bytes;
    });
    return state;
}

void HttpClient::request(HttpRequest request, Callback<HttpResponse> done) const
{
    const qint64 limit = request.maxBufferedBody;
    auto *ex = new HttpExchange(m_endpoint, std::move(request), done.context());
    ex->setConnectRecovery(m_recovery);
    auto state = collectBody(ex, limit);
    const Endpoint ep = m_endpoint;
    QObject::connect(ex, &HttpExchange::finished, ex, [ex, state, done, limit, ep](const VoidResult &r) {
        ex->deleteLater();
        if (state->overflow) {
            done(makeError(
                ErrorCode::LimitReached,
                QCoreApplication::translate("sandbar::net::HttpClient", "The reply from %1 is larger than %2 bytes.")
                    .arg(ep.display())
                    .arg(limit)));
            return;
        }
        if (!r.ok()) {
            done(r.error());
            return;
        }
        HttpResponse resp = ex->response();
        resp.body = std::move(state->body);
        done(std::move(resp));
    });
    ex->start();
}

HttpExchange::Stage HttpExchange::failedStage() const
{
    return d->failedStage;
}

QString HttpExchange::failureDetail() const
{
    return d->failureDetail;
}

HttpExchange *HttpClient::exchange(HttpRequest request, QObject *parent) const
{
    auto *ex = new HttpExchange(m_endpoint, std::move(request), parent);
    ex->setConnectRecovery(m_recovery);
    return ex;
}

} // namespace sandbar::net
