#pragma once

#include "common/Callback.h"
#include "common/Result.h"
#include "net/Endpoint.h"
#include "net/HttpTypes.h"

#include <QObject>
#include <functional>
#include <memory>

namespace sandbar::net {

// One HTTP/1.1 request on a connection of its own (local sockets are cheap), over
// QLocalSocket, QTcpSocket or QSslSocket. Streams the request body from a device with
// back-pressure, decodes chunked or length-delimited bodies as they arrive, and, for an
// upgrade request, turns into a raw duplex pipe after a 101 or 200 answer (bytes that
// came with the headers belong to the stream).
//
// Signals: headersReceived once, then bodyData* (de-chunked) or rawData* (upgraded), then
// finished exactly once. finished carries an Error for connection failures, timeouts,
// malformed replies and a connection dropped before the body was complete.
// Brings an endpoint back when connecting to it failed before anything was sent: a socket
// forwarded over SSH whose master connection ended (sshd restarted, the laptop slept). An
// exchange whose connection fails that way asks once and connects again after a success;
// restore's error is what it reports otherwise. done runs on context's thread, never after
// context is gone.
class ConnectRecovery
{
public:
    virtual ~ConnectRecovery() = default;
    virtual void restore(QObject *context, std::function<void(const VoidResult &)> done) = 0;
};

class HttpExchange : public QObject
{
    Q_OBJECT
public:
    HttpExchange(Endpoint endpoint, HttpRequest request, QObject *parent = nullptr);
    ~HttpExchange() override;

    void start();
    void abort(); // finished(Cancelled) unless already finished
    // Before start(): who to ask when the connection fails before anything was sent.
    void setConnectRecovery(std::shared_ptr<ConnectRecovery> recovery);

    // Upgraded exchanges only.
    void write(const QByteArray &bytes);
    void closeWrite(); // half-close (shutdown SHUT_WR) so the far side sees EOF on stdin
    bool isUpgraded() const;
    qint64 bytesToWrite() const;

    // Back-pressure for a reader that falls behind (a terminal's parser): while paused, no
    // body or raw data is taken from the socket, whose buffer then holds at most a chunk, so
    // TCP holds the sender back. Bytes that came with the connection's close are still read.
    void setReadingPaused(bool paused);
    // Reads and hands on now what the socket has (a poll that does not wait), for a terminal
    // waiting for its echo; false when nothing came or reading is paused.
    bool pollNow();

    const HttpResponse &response() const; // status and headers once headersReceived

    // Where a failed exchange stopped, for callers that word their own errors: before any
    // connection (nothing reached the server), in the TLS handshake, or after the request
    // went out (the server may have acted on it); and the socket's own words for it.
    enum class Stage { Connecting, Handshaking, Exchanging };
    Stage failedStage() const;
    QString failureDetail() const;

Q_SIGNALS:
    void headersReceived(const sandbar::net::HttpResponse &head);
    void bodyData(const QByteArray &bytes);
    void rawData(const QByteArray &bytes);
    void uploadProgress(qint64 sent, qint64 total);
    void bytesWritten(qint64 n); // upgraded: raw bytes accepted by the socket
    void finished(const sandbar::VoidResult &result);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

// An exchange's body kept whole, up to a limit: a declared length or a body over it aborts
// the exchange (finished(Cancelled)) with overflow set and nothing kept.
struct CappedBody {
    QByteArray body;
    bool overflow = false;
};
std::shared_ptr<CappedBody> collectBody(HttpExchange *exchange, qint64 limit);

// Convenience over HttpExchange for plain request/response calls.
class HttpClient
{
public:
    explicit HttpClient(Endpoint endpoint)
        : m_endpoint(std::move(endpoint))
    {
    }

    const Endpoint &endpoint() const { return m_endpoint; }

    // Buffers the whole body (up to request.maxBufferedBody). An HTTP error status is
    // NOT an Error here: callers map status codes themselves.
    void request(HttpRequest request, Callback<HttpResponse> done) const;

    // An unstarted exchange owned by parent, for streams and upgrades.
    HttpExchange *exchange(HttpRequest request, QObject *parent) const;

    // Every exchange this client makes gets it (HttpExchange::setConnectRecovery).
    void setConnectRecovery(std::shared_ptr<ConnectRecovery> recovery) { m_recovery = std::move(recovery); }

private:
    Endpoint m_endpoint;
    std::shared_ptr<ConnectRecovery> m_recovery;
};

} // namespace sandbar::net
