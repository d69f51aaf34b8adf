#include "Responder.h"

#include "Connection.h"

#include <QFile>
#include <QJsonDocument>
#include <QTcpSocket>

namespace contract {

namespace {
constexpr qint64 kFileChunk = 256 * 1024;
constexpr qint64 kHighWater = 1024 * 1024;
} // namespace

Responder::Responder(Connection *connection, QByteArray method, bool keepAlive)
    : QObject(connection)
    , m_connection(connection)
    , m_method(std::move(method))
    , m_keepAlive(keepAlive)
{
}

Responder::~Responder()
{
    delete m_file;
}

QByteArray Responder::reasonPhrase(int status)
{
    switch (status) {
    case 100: return "Continue";
    case 101: return "Switching Protocols";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 206: return "Partial Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Entity";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    case 507: return "Insufficient Storage";
    default: return "Status";
    }
}

void Responder::setMode(Mode mode, qint64 afterBytes)
{
    m_mode = mode;
    m_faultAfter = afterBytes;
}

qint64 Responder::pendingBytes() const
{
    return m_connection ? m_connection->pendingBytes() : 0;
}

QByteArray Responder::head(int status, Headers headers, qint64 contentLength, bool chunked) const
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    for (const auto &h : headers)
        out += h.first + ": " + h.second + "\r\n";
    if (chunked)
        out += "Transfer-Encoding: chunked\r\n";
    else if (status != 204 && status != 304 && !(status >= 100 && status < 200))
        out += "Content-Length: " + QByteArray::number(contentLength) + "\r\n";
    out += m_keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    out += "\r\n";
    return out;
}

void Responder::writeRaw(const QByteArray &bytes)
{
    if (m_connection && !m_gone)
        m_connection->write(bytes);
}

void Responder::finish(bool close)
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_connection)
        m_connection->responseDone(close || !m_keepAlive);
    deleteLater();
}

void Responder::reset()
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_connection)
        m_connection->abort();
    deleteLater();
}

void Responder::send(int status, const Headers &headers, const QByteArray &body)
{
    if (m_finished || m_streaming)
        return;
    if (m_mode == Mode::LostReply) {
        reset();
        return;
    }
    QByteArray payload = body;
    if (m_mode == Mode::Truncate || m_mode == Mode::Reset)
        payload.truncate(m_mode == Mode::Reset ? qMin<qint64>(m_faultAfter, body.size() / 2) : body.size() / 2);
    const bool noBody = m_method == "HEAD" || status == 204 || status == 304;
    writeRaw(head(status, headers, m_mode == Mode::Reset ? body.size() : payload.size(), false));
    if (!noBody)
        writeRaw(payload);
    if (m_mode == Mode::Reset) {
        reset();
        return;
    }
    finish(false);
}

void Responder::sendJson(int status, const QJsonObject &body, const Headers &headers)
{
    Headers all = headers;
    all.emplaceBack("Content-Type", "application/json");
    send(status, all, QJsonDocument(body).toJson(QJsonDocument::Compact));
}

void Responder::sendJson(int status, const QJsonArray &body, const Headers &headers)
{
    Headers all = headers;
    all.emplaceBack("Content-Type", "application/json");
    send(status, all, QJsonDocument(body).toJson(QJsonDocument::Compact));
}

void Responder::sendText(int status, const QByteArray &text)
{
    send(status, {{"Content-Type", "text/plain; charset=utf-8"}}, text);
}

void Responder::sendFile(const QString &path, const QByteArray &contentType, const Headers &headers)
{
    if (m_finished || m_streaming)
        return;
    auto *file = new QFile(path);
    if (!file->open(QIODevice::ReadOnly)) {
        delete file;
        sendJson(404, QJsonObject{{QStringLiteral("code"), 404},
                                  {QStringLiteral("message"), QStringLiteral("file not found")}});
        return;
    }
    if (m_mode == Mode::LostReply) {
        delete file;
        reset();
        return;
    }
    m_file = file;
    m_streaming = true;
    Headers all = headers;
    all.emplaceBack("Content-Type", contentType);
    writeRaw(head(200, all, file->size(), false));
    if (m_method == "HEAD") {
        finish(false);
        return;
    }
    pumpFile();
}

void Responder::pumpFile()
{
    while (m_file && !m_finished && !m_gone && pendingBytes() < kHighWater) {
        const QByteArray chunk = m_file->read(kFileChunk);
        if (chunk.isEmpty()) {
            finish(false);
            return;
        }
        m_bodyWritten += chunk.size();
        writeRaw(chunk);
        if (m_mode == Mode::Reset && m_bodyWritten >= m_faultAfter) {
            reset();
            return;
        }
    }
}

void Responder::onBytesWritten()
{
    if (m_file)
        pumpFile();
    if (!m_finished && pendingBytes() == 0)
        Q_EMIT drained();
}

void Responder::begin(int status, const Headers &headers)
{
    if (m_finished || m_streaming)
        return;
    if (m_mode == Mode::LostReply) {
        reset();
        return;
    }
    m_streaming = true;
    writeRaw(head(status, headers, 0, true));
}

void Responder::write(const QByteArray &chunk)
{
    if (m_finished || !m_streaming || chunk.isEmpty())
        return;
    QByteArray data = chunk;
    bool cut = false;
    if (m_mode == Mode::Reset && m_bodyWritten + data.size() > m_faultAfter) {
        data.truncate(qMax<qint64>(1, m_faultAfter - m_bodyWritten));
        cut = true;
    } else if (m_mode == Mode::Truncate && m_bodyWritten > 0) {
        // Everything after the first chunk is cut in the middle, then the HTTP stream
        // ends cleanly: a Connect stream broken mid-envelope.
        data.truncate(qMax<qsizetype>(1, data.size() / 2));
        cut = true;
    }
    m_bodyWritten += data.size();
    writeRaw(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
    if (cut && m_mode == Mode::Reset) {
        reset();
    } else if (cut) {
        writeRaw("0\r\n\r\n");
        finish(false);
    }
}

void Responder::end()
{
    if (m_finished || !m_streaming)
        return;
    writeRaw("0\r\n\r\n");
    finish(false);
}

void Responder::markGone()
{
    if (m_gone)
        return;
    m_gone = true;
    const bool wasFinished = m_finished;
    m_finished = true;
    if (!wasFinished)
        Q_EMIT clientGone();
    deleteLater();
}

} // namespace contract
