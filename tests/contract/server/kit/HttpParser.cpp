#include "HttpParser.h"

#include <QDir>
#include <QTemporaryFile>
#include <QUrl>

namespace contract {

namespace {

bool isToken(const QByteArray &s)
{
    if (s.isEmpty())
        return false;
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 32 || u >= 127 || QByteArrayView("()<>@,;:\\\"/[]?={}").contains(c))
            return false;
    }
    return true;
}

} // namespace

bool HttpParser::parseHead(const QByteArray &head, Request *out, int *errorStatus, QByteArray *message)
{
    const QList<QByteArray> lines = head.split('\n');
    auto fail = [&](int status, const char *why) {
        *errorStatus = status;
        *message = why;
        return false;
    };
    if (lines.isEmpty())
        return fail(400, "empty request");
    const QByteArray requestLine = lines.first().endsWith('\r') ? lines.first().chopped(1) : lines.first();
    const QList<QByteArray> parts = requestLine.split(' ');
    if (parts.size() != 3 || !isToken(parts.at(0)) || parts.at(1).isEmpty())
        return fail(400, "malformed request line");
    if (parts.at(2) != "HTTP/1.1" && parts.at(2) != "HTTP/1.0")
        return fail(505, "HTTP version not supported");
    Request request;
    request.method = parts.at(0);
    request.target = parts.at(1);
    if (!request.target.startsWith('/'))
        return fail(400, "request target must be a path");
    const int q = request.target.indexOf('?');
    const QByteArray rawPath = q >= 0 ? request.target.left(q) : request.target;
    request.path = QUrl::fromPercentEncoding(rawPath);
    if (q >= 0)
        request.query.setQuery(QString::fromLatin1(request.target.mid(q + 1)));
    for (int i = 1; i < lines.size(); ++i) {
        QByteArray line = lines.at(i);
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.isEmpty())
            continue;
        if (line.startsWith(' ') || line.startsWith('\t'))
            return fail(400, "obsolete header folding");
        const int colon = line.indexOf(':');
        if (colon <= 0 || !isToken(line.left(colon)))
            return fail(400, "malformed header line");
        request.headers.emplaceBack(line.left(colon), line.mid(colon + 1).trimmed());
    }
    if (parts.at(2) == "HTTP/1.1" && !request.hasHeader("host"))
        return fail(400, "missing Host header");
    *out = std::move(request);
    return true;
}

HttpParser::State HttpParser::fail(int status, QByteArray message)
{
    m_errorStatus = status;
    m_errorMessage = std::move(message);
    m_state = State::Error;
    return m_state;
}

void HttpParser::reset()
{
    m_state = State::Head;
    m_request = Request();
    m_version.clear();
    m_chunked = false;
    m_remaining = 0;
    m_chunkPhase = 0;
    m_spool.reset();
    m_errorStatus = 0;
    m_errorMessage.clear();
}

bool HttpParser::wantsContinue() const
{
    return m_state == State::Body && m_request.header("expect").toLower() == "100-continue";
}

bool HttpParser::keepAlive() const
{
    const QByteArray connection = m_request.header("connection").toLower();
    if (m_version == "HTTP/1.0")
        return connection.contains("keep-alive");
    return !connection.contains("close");
}

bool HttpParser::appendBody(const char *data, qint64 size)
{
    m_request.bodySize += size;
    if (!m_spool && m_request.body.size() + size > Request::kMemoryLimit) {
        // Larger than we keep in memory: move what we have to a spool file.
        auto spool = std::make_unique<QTemporaryFile>(QDir::tempPath() + QStringLiteral("/contract-body-XXXXXX"));
        if (!spool->open())
            return false;
        spool->write(m_request.body);
        m_request.body.clear();
        m_request.bodyFile = spool->fileName();
        m_spool = std::move(spool);
    }
    if (m_spool)
        return m_spool->write(data, size) == size;
    m_request.body.append(data, size);
    return true;
}

HttpParser::State HttpParser::finishBody()
{
    if (m_spool)
        m_spool->flush();
    m_state = State::Complete;
    return m_state;
}

HttpParser::State HttpParser::feed(QByteArray &data)
{
    if (m_state == State::Head) {
        // Tolerate stray CRLFs between keep-alive requests.
        while (data.startsWith("\r\n"))
            data.remove(0, 2);
        const int end = data.indexOf("\r\n\r\n");
        if (end < 0) {
            if (data.size() > kMaxHeadSize)
                return fail(431, "request header fields too large");
            return m_state;
        }
        if (end > kMaxHeadSize)
            return fail(431, "request header fields too large");
        const QByteArray head = data.left(end);
        data.remove(0, end + 4);
        int status = 0;
        if (!parseHead(head, &m_request, &status, &m_errorMessage))
            return fail(status, m_errorMessage);
        m_version = head.left(head.indexOf('\r')).split(' ').value(2);
        const QByteArray te = m_request.header("transfer-encoding").toLower();
        const QByteArray cl = m_request.header("content-length");
        if (!te.isEmpty()) {
            if (te != "chunked")
                return fail(501, "unsupported transfer-encoding");
            if (!cl.isEmpty())
                return fail(400, "both content-length and transfer-encoding");
            m_chunked = true;
        } else if (!cl.isEmpty()) {
            bool ok = false;
            m_remaining = cl.toLongLong(&ok);
            if (!ok || m_remaining < 0)
                return fail(400, "invalid content-length");
        }
        m_state = State::Body;
        if (!m_chunked && m_remaining == 0)
            return finishBody();
    }
    while (m_state == State::Body && !data.isEmpty()) {
        if (!m_chunked) {
            const qint64 take = qMin<qint64>(m_remaining, data.size());
            if (!appendBody(data.constData(), take))
                return fail(507, "cannot spool the body");
            data.remove(0, take);
            m_remaining -= take;
            if (m_remaining == 0)
                return finishBody();
            continue;
        }
        if (m_chunkPhase == 0 || m_chunkPhase == 2 || m_chunkPhase == 3) {
            const int eol = data.indexOf("\r\n");
            if (eol < 0) {
                if (data.size() > 4096)
                    return fail(400, "chunk line too long");
                return m_state;
            }
            const QByteArray line = data.left(eol);
            data.remove(0, eol + 2);
            if (m_chunkPhase == 2) {
                if (!line.isEmpty())
                    return fail(400, "missing CRLF after chunk");
                m_chunkPhase = 0;
                continue;
            }
            if (m_chunkPhase == 3) {
                if (line.isEmpty())
                    return finishBody();
                continue; // a trailer field: ignored
            }
            QByteArray sizeText = line;
            const int ext = sizeText.indexOf(';');
            if (ext >= 0)
                sizeText.truncate(ext);
            bool ok = false;
            m_remaining = sizeText.trimmed().toLongLong(&ok, 16);
            if (!ok || m_remaining < 0 || sizeText.trimmed().isEmpty())
                return fail(400, "invalid chunk size");
            m_chunkPhase = m_remaining == 0 ? 3 : 1;
            continue;
        }
        const qint64 take = qMin<qint64>(m_remaining, data.size());
        if (!appendBody(data.constData(), take))
            return fail(507, "cannot spool the body");
        data.remove(0, take);
        m_remaining -= take;
        if (m_remaining == 0)
            m_chunkPhase = 2;
    }
    return m_state;
}

} // namespace contract
