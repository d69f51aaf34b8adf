#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <cstring>

// The small pieces of HTTP/1.1 syntax (RFC 9110, 9112) that both the client's response parser
// (net/HttpParser) and the MCP endpoint's request parser (mcp/McpHttpRequest) read with.
// Header-only: the MCP module uses it without linking the network client.
namespace sandbar::net::syntax {

// 18 decimal digits stay below 2^63: a length of that many never overflows qint64.
inline constexpr int kMaxLengthDigits = 18;

// tchar: what a method, a header name or a transfer coding is made of.
inline bool isTokenChar(char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    return c != '\0' && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

inline bool isToken(QByteArrayView s)
{
    if (s.isEmpty())
        return false;
    for (const char c : s) {
        if (!isTokenChar(c))
            return false;
    }
    return true;
}

// -1 for a character that is not a hex digit.
inline int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Up to 60 bytes of what a peer sent, for an error message: control and non-ASCII bytes as '?'.
inline QString printable(QByteArrayView bytes)
{
    QByteArray shown = bytes.first(qMin<qsizetype>(bytes.size(), 60)).toByteArray();
    for (char &c : shown) {
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
            c = '?';
    }
    return QString::fromLatin1(shown) + (bytes.size() > 60 ? QStringLiteral("...") : QString());
}

// Without optional whitespace (SP and HTAB) on either side.
inline QByteArrayView trimmed(QByteArrayView s)
{
    while (!s.isEmpty() && (s.front() == ' ' || s.front() == '\t'))
        s = s.sliced(1);
    while (!s.isEmpty() && (s.back() == ' ' || s.back() == '\t'))
        s.chop(1);
    return s;
}

// Content-Length, allowing a list of identical values (RFC 9110 8.6).
inline bool parseContentLength(QByteArrayView value, qint64 &length)
{
    qint64 found = -1;
    for (const QByteArray &part : value.toByteArray().split(',')) {
        const QByteArrayView digits = trimmed(part);
        if (digits.isEmpty() || digits.size() > kMaxLengthDigits)
            return false;
        qint64 n = 0;
        for (const char c : digits) {
            if (c < '0' || c > '9')
                return false;
            n = n * 10 + (c - '0');
        }
        if (found >= 0 && found != n)
            return false;
        found = n;
    }
    length = found;
    return found >= 0;
}

} // namespace sandbar::net::syntax
