#include "mcp/McpHttpRequest.h"

#include "net/HttpSyntax.h"

#include <cstring>

namespace sandbar::mcp::http {

namespace {

using namespace net::syntax;

// A chunk-size line is a hex number plus optional extensions; nobody sends kilobytes.
constexpr qsizetype kMaxChunkLine = 4096;
// 15 hex digits stay below 2^60 and cannot overflow qint64.
constexpr int kMaxChunkDigits = 15;

} // namespace

QByteArray Request::header(QByteArrayView name) const
{
    for (const auto &[n, v] : headers) {
        if (QByteArrayView(n).compare(name, Qt::CaseInsensitive) == 0)
            return v;
    }
    return {};
}

int Request::headerCount(QByteArrayView name) const
{
    int count = 0;
    for (const auto &h : headers)
        count += QByteArrayView(h.first).compare(name, Qt::CaseInsensitive) == 0 ? 1 : 0;
    return count;
}

QByteArray Request::path() const
{
    const qsizetype q = target.indexOf('?');
    return q < 0 ? target : target.left(q);
}

bool Request::keepAlive() const
{
    bool close = false;
    bool keep = false;
    for (const auto &[n, v] : headers) {
        if (QByteArrayView(n).compare("connection", Qt::CaseInsensitive) != 0)
            continue;
        for (const QByteArray &option : v.split(',')) {
            const QByteArray o = option.trimmed().toLower();
            close = close || o == "close";
            keep = keep || o == "keep-alive";
        }
    }
    return !close && (minorVersion >= 1 || keep);
}

bool Request::expectsContinue() const
{
    return header("expect").trimmed().toLower() == "100-continue";
}

RequestParser::RequestParser(Limits limits)
    : m_limits(limits)
{
}

int RequestParser::failureStatus() const
{
    switch (m_failure) {
    case Failure::None: return 0;
    case Failure::Malformed: return 400;
    case Failure::HeadersTooLarge: return 431;
    case Failure::BodyTooLarge: return 413;
    case Failure::NotImplemented: return 501;
    case Failure::VersionNotSupported: return 505;
    }
    return 400;
}

bool RequestParser::fail(Failure failure, QString why)
{
    m_state = State::Failed;
    m_failure = failure;
    m_error = std::move(why);
    m_buffer.clear();
    m_pos = 0;
    return false;
}

bool RequestParser::feed(QByteArrayView data)
{
    if (m_state == State::Failed)
        return false;
    m_buffer.append(data.data(), data.size());
    parse();
    return m_state != State::Failed;
}

Request RequestParser::take()
{
    Request r = std::move(m_request);
    m_request = {};
    if (m_state != State::Complete)
        return r;
    m_state = State::Head;
    m_headStart = m_pos;
    parse();
    return r;
}

bool RequestParser::nextLine(QByteArrayView &line)
{
    const auto *start = m_buffer.constData() + m_pos;
    const auto *nl = static_cast<const char *>(std::memchr(start, '\n', size_t(m_buffer.size() - m_pos)));
    if (!nl)
        return false;
    line = QByteArrayView(start, nl - start);
    if (line.endsWith('\r'))
        line.chop(1);
    m_pos = (nl - m_buffer.constData()) + 1;
    return true;
}

void RequestParser::parse()
{
    for (;;) {
        switch (m_state) {
        case State::Complete:
        case State::Failed: compact(); return;
        case State::Head:
            if (!parseHead()) {
                compact();
                return;
            }
            break;
        case State::BodyLength:
        case State::ChunkData: {
            const qsizetype n = qsizetype(qMin<qint64>(m_remaining, buffered()));
            m_request.body.append(m_buffer.constData() + m_pos, n);
            m_pos += n;
            m_remaining -= n;
            if (m_remaining > 0) {
                compact();
                return;
            }
            m_state = m_state == State::BodyLength ? State::Complete : State::ChunkDataEnd;
            break;
        }
        case State::ChunkDataEnd: {
            // The CR LF that closes a chunk's data, nothing else.
            if (buffered() == 0 || (buffered() == 1 && m_buffer.at(m_pos) == '\r'))
                return;
            QByteArrayView line;
            if (!nextLine(line) || !line.isEmpty()) {
                fail(Failure::Malformed, QStringLiteral("A chunk's data is longer than its size says."));
                return;
            }
            m_state = State::ChunkSize;
            break;
        }
        case State::ChunkSize: {
            QByteArrayView line;
            if (!nextLine(line)) {
                if (buffered() > kMaxChunkLine)
                    fail(Failure::Malformed, QStringLiteral("A chunk-size line is too long."));
                return;
            }
            if (!parseChunkSize(line))
                return;
            break;
        }
        case State::Trailers: {
            QByteArrayView line;
            const bool complete = nextLine(line);
            if ((complete ? m_pos : m_buffer.size()) - m_headStart > m_limits.maxHeaderBytes) {
                fail(Failure::HeadersTooLarge,
                     QStringLiteral("The trailers are over %1 bytes.").arg(m_limits.maxHeaderBytes));
                return;
            }
            if (!complete)
                return;
            if (line.isEmpty()) {
                m_state = State::Complete;
                break;
            }
            // Nothing here reads trailers: checked for form, then dropped.
            HeaderList dropped;
            if (!parseHeaderLine(line, dropped))
                return;
            break;
        }
        }
    }
}

bool RequestParser::parseHead()
{
    // Empty lines before a request line are skipped (RFC 9112 2.2): some clients send a CR LF
    // after a body.
    for (;;) {
        if (m_pos >= m_buffer.size())
            return false;
        const char c = m_buffer.at(m_pos);
        if (c == '\n') {
            ++m_pos;
        } else if (c == '\r' && m_pos + 1 < m_buffer.size() && m_buffer.at(m_pos + 1) == '\n') {
            m_pos += 2;
        } else if (c == '\r' && m_pos + 1 == m_buffer.size()) {
            return false;
        } else {
            break;
        }
    }
    m_headStart = m_pos;
    // Whole lines up to the empty one that ends the head. An unfinished head is scanned again on
    // the next feed: at most maxHeaderBytes with memchr, cheaper than keeping the lines found.
    QList<QByteArrayView> lines;
    const qsizetype start = m_pos;
    QByteArrayView line;
    for (;;) {
        const bool complete = nextLine(line);
        if ((complete ? m_pos : m_buffer.size()) - m_headStart > m_limits.maxHeaderBytes)
            return fail(Failure::HeadersTooLarge,
                        QStringLiteral("The request line and headers are over %1 bytes.").arg(m_limits.maxHeaderBytes));
        if (!complete) {
            m_pos = start;
            return false;
        }
        if (line.isEmpty())
            break;
        lines.append(line);
    }
    if (!parseRequestLine(lines.first()))
        return false;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        if (!parseHeaderLine(lines.at(i), m_request.headers))
            return false;
    }
    return chooseFraming();
}

bool RequestParser::parseRequestLine(QByteArrayView line)
{
    const QList<QByteArray> parts = line.toByteArray().split(' ');
    if (parts.size() != 3 || !isToken(parts.at(0)) || parts.at(1).isEmpty())
        return fail(Failure::Malformed, QStringLiteral("Not an HTTP request line: \"%1\"").arg(printable(line)));
    for (const char c : parts.at(1)) {
        if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f)
            return fail(Failure::Malformed, QStringLiteral("The request target has a character URLs cannot hold."));
    }
    const QByteArray &version = parts.at(2);
    if (version.size() != 8 || !version.startsWith("HTTP/") || version.at(6) != '.' || version.at(5) < '0' ||
        version.at(5) > '9' || version.at(7) < '0' || version.at(7) > '9')
        return fail(Failure::Malformed, QStringLiteral("Not an HTTP version: \"%1\"").arg(printable(version)));
    if (version.at(5) != '1')
        return fail(Failure::VersionNotSupported,
                    QStringLiteral("HTTP/%1 is not spoken here; use HTTP/1.1.").arg(QLatin1String(version.mid(5))));
    m_request.method = parts.at(0);
    m_request.target = parts.at(1);
    m_request.minorVersion = version.at(7) - '0';
    return true;
}

bool RequestParser::parseHeaderLine(QByteArrayView line, HeaderList &into)
{
    if (line.front() == ' ' || line.front() == '\t')
        return fail(Failure::Malformed, QStringLiteral("Folded header lines are not accepted."));
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0 || !isToken(line.first(colon)))
        return fail(Failure::Malformed, QStringLiteral("Not a header line: \"%1\"").arg(printable(line)));
    const QByteArrayView value = trimmed(line.sliced(colon + 1));
    for (const char c : value) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t') || u == 0x7f)
            return fail(Failure::Malformed,
                        QStringLiteral("The header %1 has a control character.").arg(printable(line.first(colon))));
    }
    into.emplaceBack(line.first(colon).toByteArray(), value.toByteArray());
    return true;
}

bool RequestParser::chooseFraming()
{
    const bool hasLength = m_request.headerCount("content-length") > 0;
    QList<QByteArray> codings;
    for (const auto &[n, v] : std::as_const(m_request.headers)) {
        if (QByteArrayView(n).compare("transfer-encoding", Qt::CaseInsensitive) != 0)
            continue;
        for (const QByteArray &c : v.split(','))
            codings.append(c.trimmed().toLower());
    }
    if (!codings.isEmpty()) {
        // Both framings at once is how requests are smuggled past proxies (RFC 9112 6.3).
        if (hasLength)
            return fail(Failure::Malformed,
                        QStringLiteral("A request has Content-Length or Transfer-Encoding, not both."));
        if (codings != QList<QByteArray>{"chunked"})
            return fail(Failure::NotImplemented, QStringLiteral("Only the chunked transfer coding is accepted."));
        m_state = State::ChunkSize;
        return true;
    }
    qint64 length = 0;
    for (const auto &[n, v] : std::as_const(m_request.headers)) {
        if (QByteArrayView(n).compare("content-length", Qt::CaseInsensitive) != 0)
            continue;
        qint64 one = 0;
        if (!parseContentLength(v, one) || (length > 0 && one != length))
            return fail(Failure::Malformed, QStringLiteral("Content-Length is not one whole number."));
        length = one;
    }
    if (length > m_limits.maxBodyBytes)
        return fail(Failure::BodyTooLarge, QStringLiteral("The body of %1 bytes is over the limit of %2 bytes.")
                                               .arg(length)
                                               .arg(m_limits.maxBodyBytes));
    m_remaining = length;
    m_state = length > 0 ? State::BodyLength : State::Complete;
    return true;
}

bool RequestParser::parseChunkSize(QByteArrayView line)
{
    qsizetype digits = 0;
    qint64 size = 0;
    while (digits < line.size() && hexValue(line.at(digits)) >= 0) {
        if (digits == kMaxChunkDigits)
            return fail(Failure::BodyTooLarge, QStringLiteral("A chunk is larger than any body accepted here."));
        size = size * 16 + hexValue(line.at(digits));
        ++digits;
    }
    const QByteArrayView rest = trimmed(line.sliced(digits));
    if (digits == 0 || (!rest.isEmpty() && rest.front() != ';'))
        return fail(Failure::Malformed, QStringLiteral("Not a chunk-size line: \"%1\"").arg(printable(line)));
    if (size == 0) {
        m_state = State::Trailers;
        m_headStart = m_pos;
        return true;
    }
    if (m_request.body.size() + size > m_limits.maxBodyBytes)
        return fail(Failure::BodyTooLarge,
                    QStringLiteral("The body is over the limit of %1 bytes.").arg(m_limits.maxBodyBytes));
    m_remaining = size;
    m_state = State::ChunkData;
    return true;
}

void RequestParser::compact()
{
    // Consumed bytes go once they are most of the buffer, so a long keep-alive connection does
    // not keep every request it carried.
    if (m_pos == 0 || m_pos < m_buffer.size() / 2)
        return;
    m_buffer.remove(0, m_pos);
    m_headStart = qMax<qsizetype>(0, m_headStart - m_pos);
    m_pos = 0;
}

QList<QByteArray> acceptedMediaTypes(QByteArrayView accept)
{
    QList<QByteArray> types;
    for (const QByteArray &range : accept.toByteArray().split(',')) {
        const QList<QByteArray> parts = range.split(';');
        const QByteArray type = parts.first().trimmed().toLower();
        if (type.isEmpty())
            continue;
        bool refused = false;
        for (qsizetype i = 1; i < parts.size(); ++i) {
            const QByteArray p = parts.at(i).trimmed().toLower();
            if (p.startsWith("q=")) {
                bool ok = false;
                const double q = p.mid(2).toDouble(&ok);
                refused = ok && q <= 0.0;
            }
        }
        if (!refused)
            types.append(type);
    }
    return types;
}

bool acceptsMediaType(const QList<QByteArray> &accepted, QByteArrayView type)
{
    const qsizetype slash = type.indexOf('/');
    const QByteArray anySub = type.first(slash + 1).toByteArray() + '*';
    for (const QByteArray &a : accepted) {
        if (a == type || a == anySub || a == "*/*")
            return true;
    }
    return false;
}

QByteArray mediaTypeEssence(QByteArrayView contentType)
{
    const qsizetype semi = contentType.indexOf(';');
    return trimmed(semi < 0 ? contentType : contentType.first(semi)).toByteArray().toLower();
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 415: return "Unsupported Media Type";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
    }
}

QByteArray responseHead(int status, const HeaderList &headers, qint64 contentLength, bool chunked)
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    for (const auto &[n, v] : headers)
        out += n + ": " + v + "\r\n";
    if (contentLength >= 0)
        out += "Content-Length: " + QByteArray::number(contentLength) + "\r\n";
    else if (chunked)
        out += "Transfer-Encoding: chunked\r\n";
    return out + "\r\n";
}

QByteArray chunk(QByteArrayView data)
{
    if (data.isEmpty())
        return "0\r\n\r\n";
    return QByteArray::number(data.size(), 16) + "\r\n" + data.toByteArray() + "\r\n";
}

} // namespace sandbar::mcp::http
