#include "net/HttpParser.h"

#include "net/HttpSyntax.h"

#include <cstring>

namespace sandbar::net {

namespace {

using namespace syntax;

// A chunk-size line is a hex number plus optional extensions; nobody sends kilobytes.
constexpr qsizetype kMaxChunkLine = 4096;
// 15 hex digits stay below 2^60 and cannot overflow qint64.
constexpr int kMaxChunkDigits = 15;

} // namespace

HttpResponseParser::HttpResponseParser(Options options)
    : m_options(options)
    , m_lineBudget(options.maxHeaderBytes)
{
}

bool HttpResponseParser::fail(Failure failure, QString why)
{
    m_state = State::Failed;
    m_failure = failure;
    m_error = std::move(why);
    m_line.clear();
    return false;
}

qsizetype HttpResponseParser::takeLine(QByteArrayView data, bool &complete)
{
    const auto *nl = static_cast<const char *>(std::memchr(data.data(), '\n', size_t(data.size())));
    const qsizetype take = nl ? (nl - data.data()) + 1 : data.size();
    complete = nl != nullptr;
    m_lineBudget -= take;
    if (m_lineBudget < 0)
        return take;
    m_line.append(data.data(), complete ? take - 1 : take);
    if (complete && m_line.endsWith('\r'))
        m_line.chop(1);
    return take;
}

bool HttpResponseParser::feed(QByteArrayView data, HttpParseEvents &out)
{
    while (!data.isEmpty()) {
        switch (m_state) {
        case State::Failed: return false;
        case State::Done:
            // One exchange per connection: anything after the message is ignored.
            return true;
        case State::Upgraded: out.raw.append(data.data(), data.size()); return true;
        case State::BodyUntilClose: out.body.append(data.data(), data.size()); return true;
        case State::BodyLength:
        case State::ChunkData: {
            const qsizetype n = qsizetype(qMin<qint64>(m_remaining, data.size()));
            out.body.append(data.data(), n);
            data = data.sliced(n);
            m_remaining -= n;
            if (m_remaining == 0) {
                if (m_state == State::BodyLength) {
                    m_state = State::Done;
                    out.messageComplete = true;
                } else {
                    m_state = State::ChunkDataEnd;
                }
            }
            break;
        }
        case State::StatusLine:
        case State::Headers:
        case State::ChunkSize:
        case State::ChunkDataEnd:
        case State::Trailers: {
            bool complete = false;
            data = data.sliced(takeLine(data, complete));
            if (m_lineBudget < 0) {
                if (m_state == State::ChunkSize)
                    return fail(Failure::Malformed, QStringLiteral("chunk size line too long"));
                if (m_state == State::ChunkDataEnd)
                    return fail(Failure::Malformed, QStringLiteral("chunk data longer than its size"));
                return fail(Failure::TooLarge,
                            QStringLiteral("header block larger than %1 bytes").arg(m_options.maxHeaderBytes));
            }
            if (m_state == State::StatusLine && !complete) {
                // Fail early on something that is not HTTP at all instead of waiting for a newline.
                const qsizetype n = qMin<qsizetype>(m_line.size(), 5);
                if (QByteArrayView(m_line).first(n) != QByteArrayView("HTTP/").first(n))
                    return fail(Failure::Malformed,
                                QStringLiteral("not an HTTP response: \"%1\"").arg(printable(m_line)));
            }
            if (!complete)
                return true;
            bool ok = true;
            switch (m_state) {
            case State::StatusLine: ok = handleStatusLine(out); break;
            case State::Headers: ok = handleHeaderLine(out); break;
            case State::ChunkSize: ok = handleChunkSize(); break;
            case State::ChunkDataEnd:
                if (!m_line.isEmpty())
                    return fail(Failure::Malformed, QStringLiteral("chunk data longer than its size"));
                m_state = State::ChunkSize;
                m_lineBudget = kMaxChunkLine;
                break;
            case State::Trailers: ok = handleTrailerLine(out); break;
            default: break;
            }
            m_line.clear();
            if (!ok)
                return false;
            break;
        }
        }
    }
    return m_state != State::Failed;
}

bool HttpResponseParser::handleStatusLine(HttpParseEvents &)
{
    // HTTP/1.1 200 OK  (the reason phrase may be empty or missing)
    const QByteArray &line = m_line;
    if (line.size() < 12 || !line.startsWith("HTTP/1.") || line.at(8) != ' ')
        return fail(Failure::Malformed, QStringLiteral("malformed status line \"%1\"").arg(printable(line)));
    if (line.at(7) != '0' && line.at(7) != '1')
        return fail(Failure::Malformed, QStringLiteral("unsupported HTTP version in \"%1\"").arg(printable(line)));
    int status = 0;
    for (int i = 9; i < 12; ++i) {
        const char c = line.at(i);
        if (c < '0' || c > '9')
            return fail(Failure::Malformed, QStringLiteral("malformed status code in \"%1\"").arg(printable(line)));
        status = status * 10 + (c - '0');
    }
    if (status < 100 || (line.size() > 12 && line.at(12) != ' '))
        return fail(Failure::Malformed, QStringLiteral("malformed status line \"%1\"").arg(printable(line)));
    m_head = HttpResponse{};
    m_head.status = status;
    m_head.reason = line.size() > 13 ? line.mid(13) : QByteArray();
    m_state = State::Headers;
    return true;
}

bool HttpResponseParser::handleHeaderLine(HttpParseEvents &out)
{
    const QByteArray &line = m_line;
    if (line.isEmpty())
        return headersDone(out);
    if (line.at(0) == ' ' || line.at(0) == '\t')
        return fail(Failure::Malformed, QStringLiteral("folded header line \"%1\"").arg(printable(line)));
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0)
        return fail(Failure::Malformed, QStringLiteral("malformed header line \"%1\"").arg(printable(line)));
    for (qsizetype i = 0; i < colon; ++i) {
        if (!isTokenChar(line.at(i)))
            return fail(Failure::Malformed,
                        QStringLiteral("malformed header name \"%1\"").arg(printable(line.left(colon))));
    }
    m_head.headers.append({line.left(colon), line.mid(colon + 1).trimmed()});
    return true;
}

bool HttpResponseParser::headersDone(HttpParseEvents &out)
{
    const int status = m_head.status;
    if (status == 101 && !m_options.upgradeRequested)
        return fail(Failure::Malformed,
                    QStringLiteral("101 Switching Protocols to a request that asked for no upgrade"));
    if (status >= 100 && status < 200 && status != 101) {
        // Interim answer (100 Continue, 102, 103): the real one follows.
        m_state = State::StatusLine;
        m_lineBudget = m_options.maxHeaderBytes;
        return true;
    }
    if (!chooseFraming(out))
        return false;
    // Published only once the framing headers were found valid.
    out.headersComplete = true;
    out.head = m_head;
    return true;
}

bool HttpResponseParser::chooseFraming(HttpParseEvents &out)
{
    const int status = m_head.status;
    if (m_options.upgradeRequested && (status == 101 || status == 200)) {
        m_state = State::Upgraded;
        out.upgraded = true;
        return true;
    }
    if (m_options.headRequest || status == 204 || status == 304) {
        m_state = State::Done;
        out.messageComplete = true;
        return true;
    }
    const QByteArray te = m_head.header("Transfer-Encoding").trimmed().toLower();
    if (!te.isEmpty()) {
        // Chunked must be the final coding; otherwise the body runs until close (RFC 9112 6.3).
        const QList<QByteArray> codings = te.split(',');
        if (codings.last().trimmed() == "chunked") {
            m_state = State::ChunkSize;
            m_lineBudget = kMaxChunkLine;
        } else {
            m_state = State::BodyUntilClose;
        }
        return true;
    }
    const QByteArray cl = m_head.header("Content-Length");
    if (!cl.isNull()) {
        qint64 length = 0;
        if (!parseContentLength(cl, length))
            return fail(Failure::Malformed, QStringLiteral("invalid Content-Length \"%1\"").arg(printable(cl)));
        if (length == 0) {
            m_state = State::Done;
            out.messageComplete = true;
        } else {
            m_state = State::BodyLength;
            m_remaining = length;
        }
        return true;
    }
    m_state = State::BodyUntilClose;
    return true;
}

bool HttpResponseParser::handleChunkSize()
{
    // 1a2b;name=value ; extensions are ignored, as RFC 9112 7.1.1 allows.
    qsizetype end = m_line.indexOf(';');
    if (end < 0)
        end = m_line.size();
    QByteArrayView digits = QByteArrayView(m_line).first(end);
    while (!digits.isEmpty() && (digits.back() == ' ' || digits.back() == '\t'))
        digits.chop(1);
    if (digits.isEmpty() || digits.size() > kMaxChunkDigits)
        return fail(Failure::Malformed, QStringLiteral("invalid chunk size \"%1\"").arg(printable(m_line)));
    qint64 size = 0;
    for (char c : digits) {
        const int v = hexValue(c);
        if (v < 0)
            return fail(Failure::Malformed, QStringLiteral("invalid chunk size \"%1\"").arg(printable(m_line)));
        size = size * 16 + v;
    }
    if (size == 0) {
        m_state = State::Trailers;
        m_lineBudget = m_options.maxHeaderBytes;
    } else {
        m_state = State::ChunkData;
        m_remaining = size;
        m_lineBudget = 2 + 1; // CR LF after the data; one spare for a lone LF tolerance
    }
    return true;
}

bool HttpResponseParser::handleTrailerLine(HttpParseEvents &out)
{
    if (m_line.isEmpty()) {
        m_state = State::Done;
        out.messageComplete = true;
        return true;
    }
    if (m_line.indexOf(':') <= 0)
        return fail(Failure::Malformed, QStringLiteral("malformed trailer line \"%1\"").arg(printable(m_line)));
    // Trailers carry nothing the Engine API uses; they are checked and dropped.
    return true;
}

bool HttpResponseParser::finishInput(HttpParseEvents &out)
{
    switch (m_state) {
    case State::Failed: return false;
    case State::Done: return true;
    case State::Upgraded:
    case State::BodyUntilClose:
        m_state = State::Done;
        out.messageComplete = true;
        return true;
    case State::StatusLine:
        if (m_line.isEmpty())
            return fail(Failure::Truncated, QStringLiteral("the connection closed before any reply"));
        return fail(Failure::Truncated, QStringLiteral("the connection closed inside the status line"));
    case State::Headers: return fail(Failure::Truncated, QStringLiteral("the connection closed inside the headers"));
    case State::BodyLength:
        return fail(Failure::Truncated,
                    QStringLiteral("the connection closed with %1 body bytes still expected").arg(m_remaining));
    default: return fail(Failure::Truncated, QStringLiteral("the connection closed inside a chunked body"));
    }
}

} // namespace sandbar::net
