#pragma once

#include "net/HttpTypes.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace sandbar::net {

// What one feed() produced, in this order: the head (at most once), de-chunked body bytes,
// then, for an upgraded exchange, raw stream bytes.
struct HttpParseEvents {
    bool headersComplete = false;
    HttpResponse head;     // valid when headersComplete
    QByteArray body;       // de-chunked / length-delimited body bytes
    bool upgraded = false; // the head switched the connection to a raw stream
    QByteArray raw;        // stream bytes after an upgrade (including those that came with the head)
    bool messageComplete = false;
};

// A pure, incremental HTTP/1.1 response parser: no sockets, no timers. Input may be split
// at any byte boundary. Once it fails it stays failed.
class HttpResponseParser
{
public:
    struct Options {
        bool headRequest = false;              // responses to HEAD carry no body
        bool upgradeRequested = false;         // 101, or 200, switches to a raw stream
        qsizetype maxHeaderBytes = 256 * 1024; // status line + headers, and again for trailers
    };

    enum class Failure { None, Malformed, Truncated, TooLarge };

    HttpResponseParser()
        : HttpResponseParser(Options{})
    {
    }
    explicit HttpResponseParser(Options options);

    // Consumes all of data; false on a protocol error (see failure()/errorString()).
    bool feed(QByteArrayView data, HttpParseEvents &out);
    // The peer closed its side: completes a close-delimited body; false when the message
    // was cut short (Failure::Truncated) or already failed.
    bool finishInput(HttpParseEvents &out);

    bool headersComplete() const { return m_state > State::Headers && m_state != State::Failed; }
    bool isComplete() const { return m_state == State::Done; }
    bool isUpgraded() const { return m_state == State::Upgraded; }
    bool failed() const { return m_state == State::Failed; }
    Failure failure() const { return m_failure; }
    // Plain English (not translated): what was wrong with the reply.
    const QString &errorString() const { return m_error; }

private:
    enum class State {
        StatusLine,
        Headers,
        BodyLength,
        BodyUntilClose,
        ChunkSize,
        ChunkData,
        ChunkDataEnd,
        Trailers,
        Done,
        Upgraded,
        Failed,
    };

    bool fail(Failure failure, QString why);
    // Collects one line (without CR LF) into m_line; returns bytes consumed, and whether
    // the line is complete. Counts against m_lineBudget.
    qsizetype takeLine(QByteArrayView data, bool &complete);
    bool handleStatusLine(HttpParseEvents &out);
    bool handleHeaderLine(HttpParseEvents &out);
    bool headersDone(HttpParseEvents &out);
    bool chooseFraming(HttpParseEvents &out);
    bool handleChunkSize();
    bool handleTrailerLine(HttpParseEvents &out);

    Options m_options;
    State m_state = State::StatusLine;
    Failure m_failure = Failure::None;
    QString m_error;
    QByteArray m_line;
    qsizetype m_lineBudget = 0; // bytes still allowed in the current header/trailer block
    HttpResponse m_head;
    qint64 m_remaining = 0; // body or chunk bytes still expected
};

} // namespace sandbar::net
