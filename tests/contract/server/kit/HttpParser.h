#pragma once

#include "Request.h"

#include <QByteArray>
#include <QFile>
#include <memory>

namespace contract {

// Incremental HTTP/1.1 request parser: feed() bytes as they arrive, one request at a
// time. Handles Content-Length and chunked bodies, spools large bodies to a temp file,
// and reports what the server must answer when the request is unusable.
class HttpParser
{
public:
    enum class State {
        Head,     // waiting for the complete request head
        Body,     // head parsed, reading the body
        Complete, // request() is ready; call reset() for the next one
        Error,    // errorStatus() says what to answer, then close
    };
    static constexpr int kMaxHeadSize = 64 * 1024;

    // Consumes what it can from `data` (removed from the front); returns the new state.
    // Bytes after a complete request stay in `data` (pipelining / keep-alive).
    State feed(QByteArray &data);
    State state() const { return m_state; }
    // True once the head is in and the client asked for `Expect: 100-continue`.
    bool wantsContinue() const;
    bool headParsed() const { return m_state == State::Body || m_state == State::Complete; }
    const Request &request() const { return m_request; }
    Request &request() { return m_request; }
    int errorStatus() const { return m_errorStatus; }
    QByteArray errorMessage() const { return m_errorMessage; }
    bool keepAlive() const; // HTTP/1.1 default unless Connection: close
    void reset();

    // Only the head (for peeking at WebSocket upgrades); nullopt while incomplete.
    static bool parseHead(const QByteArray &head, Request *out, int *errorStatus, QByteArray *message);

private:
    State fail(int status, QByteArray message);
    bool appendBody(const char *data, qint64 size);
    State finishBody();

    State m_state = State::Head;
    Request m_request;
    QByteArray m_version;
    bool m_chunked = false;
    qint64 m_remaining = 0; // Content-Length left, or the current chunk's bytes left
    int m_chunkPhase = 0;   // 0 size line, 1 data, 2 CRLF after data, 3 trailers
    std::unique_ptr<QFile> m_spool;
    int m_errorStatus = 0;
    QByteArray m_errorMessage;
};

} // namespace contract
