#include "Multipart.h"

namespace contract {

QByteArray MultipartPart::header(QByteArrayView name) const
{
    for (const auto &h : headers) {
        if (QByteArrayView(h.first).compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

namespace {

constexpr qint64 kChunk = 256 * 1024;

QString dispositionParam(const QByteArray &disposition, const QByteArray &key)
{
    for (const QByteArray &raw : disposition.split(';')) {
        const QByteArray item = raw.trimmed();
        const int eq = item.indexOf('=');
        if (eq < 0 || item.left(eq).trimmed().toLower() != key)
            continue;
        QByteArray value = item.mid(eq + 1).trimmed();
        if (value.size() >= 2 && value.startsWith('"') && value.endsWith('"'))
            value = value.mid(1, value.size() - 2);
        return QString::fromUtf8(value);
    }
    return {};
}

// Reads more of `in` into `buffer`; false at end of input.
bool fill(QIODevice &in, QByteArray &buffer)
{
    const QByteArray more = in.read(kChunk);
    if (more.isEmpty())
        return false;
    buffer.append(more);
    return true;
}

} // namespace

bool MultipartReader::read(QIODevice &in, const QByteArray &boundary, const SinkFor &sink, const PartDone &done,
                           QString *error)
{
    auto fail = [error](const char *why) {
        if (error)
            *error = QString::fromLatin1(why);
        return false;
    };
    if (boundary.isEmpty() || boundary.size() > 200)
        return fail("missing or invalid multipart boundary");
    const QByteArray first = "--" + boundary;
    const QByteArray delimiter = "\r\n--" + boundary;
    QByteArray buffer;
    // The first delimiter may come without a preceding CRLF.
    for (;;) {
        const int at = buffer.indexOf(first);
        if (at >= 0) {
            buffer.remove(0, at + first.size());
            break;
        }
        if (buffer.size() > first.size())
            buffer.remove(0, buffer.size() - first.size());
        if (!fill(in, buffer))
            return fail("no multipart boundary in the body");
    }
    for (;;) {
        // After a delimiter: "--" closes the body, CRLF starts a part.
        while (buffer.size() < 2) {
            if (!fill(in, buffer))
                return fail("truncated multipart body");
        }
        if (buffer.startsWith("--"))
            return true;
        // Transport padding then CRLF.
        int eol;
        while ((eol = buffer.indexOf("\r\n")) < 0) {
            if (!fill(in, buffer))
                return fail("truncated multipart body");
        }
        buffer.remove(0, eol + 2);
        int headEnd;
        while ((headEnd = buffer.indexOf("\r\n\r\n")) < 0 && !buffer.startsWith("\r\n")) {
            if (buffer.size() > 16 * 1024)
                return fail("multipart part head too large");
            if (!fill(in, buffer))
                return fail("truncated multipart part head");
        }
        MultipartPart part;
        if (buffer.startsWith("\r\n")) {
            buffer.remove(0, 2);
        } else {
            for (const QByteArray &line : buffer.left(headEnd).split('\n')) {
                const QByteArray clean = line.trimmed();
                const int colon = clean.indexOf(':');
                if (colon > 0)
                    part.headers.emplaceBack(clean.left(colon).trimmed(), clean.mid(colon + 1).trimmed());
            }
            buffer.remove(0, headEnd + 4);
        }
        const QByteArray disposition = part.header("content-disposition");
        part.name = dispositionParam(disposition, "name");
        part.fileName = dispositionParam(disposition, "filename");
        QIODevice *out = sink ? sink(part) : nullptr;
        qint64 size = 0;
        for (;;) {
            const int at = buffer.indexOf(delimiter);
            if (at >= 0) {
                if (out && at > 0 && out->write(buffer.constData(), at) != at)
                    return fail("cannot write a multipart part");
                size += at;
                buffer.remove(0, at + delimiter.size());
                break;
            }
            // Keep a tail that could be the start of the delimiter.
            const qint64 safe = buffer.size() - (delimiter.size() - 1);
            if (safe > 0) {
                if (out && out->write(buffer.constData(), safe) != safe)
                    return fail("cannot write a multipart part");
                size += safe;
                buffer.remove(0, safe);
            }
            if (!fill(in, buffer))
                return fail("truncated multipart part");
        }
        if (done && !done(part, size))
            return fail("multipart part rejected");
    }
}

} // namespace contract
