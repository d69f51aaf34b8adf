#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <chrono>

class QIODevice;

namespace sandbar::net {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

struct HttpRequest {
    QByteArray method = "GET";
    QByteArray target;               // origin-form: path plus percent-encoded query
    HeaderList headers;              // Host, Content-Length and Connection are added by the client
    QByteArray body;                 // small bodies
    QIODevice *bodyDevice = nullptr; // large bodies, streamed with back-pressure; not owned
    qint64 bodyLength = -1;          // with bodyDevice: Content-Length, or -1 for chunked
    bool upgrade = false;            // send Connection: Upgrade / Upgrade: tcp and hijack on 101 or 200
    // Timeouts are injectable so tests need not wait for wall-clock time.
    std::chrono::milliseconds connectTimeout{5000};
    std::chrono::milliseconds responseTimeout{30000}; // until the status line and headers arrived
    std::chrono::milliseconds idleTimeout{0};         // between body bytes; 0 = none (streams)
    qint64 maxBufferedBody = 64 * 1024 * 1024;        // HttpClient::request only
};

struct HttpResponse {
    int status = 0;
    QByteArray reason;
    HeaderList headers;
    QByteArray body; // empty for streamed exchanges

    // Case-insensitive; first match.
    QByteArray header(const QByteArray &name) const;
    bool isSuccess() const { return status >= 200 && status < 300; }
};

} // namespace sandbar::net
