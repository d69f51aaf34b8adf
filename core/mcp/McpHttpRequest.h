#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QPair>
#include <QString>

// The server side of HTTP/1.1 as MCP's Streamable HTTP transport needs it: a pure, incremental
// request parser (no sockets, no timers; input may be split at any byte) and the few header
// helpers the endpoint's checks use. core/net's parser reads responses only.
namespace sandbar::mcp::http {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

struct Request {
    QByteArray method;
    QByteArray target; // as sent: origin-form, path plus query
    int minorVersion = 1;
    HeaderList headers; // names as sent; values trimmed
    QByteArray body;    // de-chunked

    // Case-insensitive; the first one, or a null array.
    QByteArray header(QByteArrayView name) const;
    int headerCount(QByteArrayView name) const;
    QByteArray path() const; // the target without its query
    // HTTP/1.1 unless "Connection: close"; HTTP/1.0 only with "Connection: keep-alive".
    bool keepAlive() const;
    bool expectsContinue() const;
};

class RequestParser
{
public:
    struct Limits {
        qsizetype maxHeaderBytes = 64 * 1024; // request line and headers, and again for trailers
        qint64 maxBodyBytes = 16 * 1024 * 1024;
    };

    enum class Failure {
        None,
        Malformed,           // 400
        HeadersTooLarge,     // 431
        BodyTooLarge,        // 413
        NotImplemented,      // 501: a transfer coding other than chunked
        VersionNotSupported, // 505
    };

    RequestParser()
        : RequestParser(Limits{})
    {
    }
    explicit RequestParser(Limits limits);

    // Takes all of data and parses up to the end of the current request (what follows it waits
    // for take()). False once the input failed; it stays failed.
    bool feed(QByteArrayView data);

    // The current request's line and headers arrived (its body may still be coming).
    bool headComplete() const { return m_state > State::Head && m_state != State::Failed; }
    bool requestComplete() const { return m_state == State::Complete; }
    // The head (and, once complete, the body) of the current request.
    const Request &current() const { return m_request; }
    // The complete request; parsing goes on with the bytes that followed it.
    Request take();

    // Some bytes of a request that is not complete yet have arrived.
    bool midRequest() const
    {
        return m_state != State::Complete && (m_state != State::Head || m_pos < m_buffer.size());
    }
    qsizetype buffered() const { return m_buffer.size() - m_pos; }

    bool failed() const { return m_state == State::Failed; }
    Failure failure() const { return m_failure; }
    int failureStatus() const;
    // Plain English, not translated: what was wrong with the request.
    const QString &errorString() const { return m_error; }

private:
    enum class State { Head, BodyLength, ChunkSize, ChunkData, ChunkDataEnd, Trailers, Complete, Failed };

    void parse();
    bool fail(Failure failure, QString why);
    // The next line (without CR LF) from m_pos, or false when it has not fully arrived.
    bool nextLine(QByteArrayView &line);
    bool parseHead();
    bool parseRequestLine(QByteArrayView line);
    bool parseHeaderLine(QByteArrayView line, HeaderList &into);
    bool chooseFraming();
    bool parseChunkSize(QByteArrayView line);
    void compact();

    Limits m_limits;
    State m_state = State::Head;
    Failure m_failure = Failure::None;
    QString m_error;
    QByteArray m_buffer;
    qsizetype m_pos = 0;       // first byte not consumed
    qsizetype m_headStart = 0; // where the current head or trailer block started
    Request m_request;
    qint64 m_remaining = 0; // body or chunk bytes still expected
};

// The media types of an Accept header that are not refused with q=0, lowercased, without
// parameters. Empty when the header is absent.
QList<QByteArray> acceptedMediaTypes(QByteArrayView accept);
// Whether a list from acceptedMediaTypes takes `type` (exactly, or through "type/*" or "*/*").
bool acceptsMediaType(const QList<QByteArray> &accepted, QByteArrayView type);
// "application/json; charset=utf-8" -> "application/json".
QByteArray mediaTypeEssence(QByteArrayView contentType);

// A response head: status line, the given headers, then Content-Length (contentLength >= 0) or
// Transfer-Encoding: chunked (contentLength < 0 and chunked) or neither.
QByteArray responseHead(int status, const HeaderList &headers, qint64 contentLength, bool chunked = false);
QByteArray reasonPhrase(int status);
// One chunk of a chunked body; an empty `data` is the last chunk.
QByteArray chunk(QByteArrayView data);

} // namespace sandbar::mcp::http
