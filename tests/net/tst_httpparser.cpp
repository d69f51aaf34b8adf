#include "net/HttpParser.h"

#include <QRandomGenerator>
#include <QTest>

using namespace sandbar::net;
using Failure = HttpResponseParser::Failure;

Q_DECLARE_METATYPE(Failure)

namespace {

struct Outcome {
    bool ok = true;
    Failure failure = Failure::None;
    int headCount = 0;
    int status = 0;
    QByteArray reason;
    HeaderList headers;
    QByteArray body;
    bool upgraded = false;
    QByteArray raw;
    bool complete = false;
};

void collect(const HttpParseEvents &ev, Outcome &o)
{
    if (ev.headersComplete) {
        ++o.headCount;
        o.status = ev.head.status;
        o.reason = ev.head.reason;
        o.headers = ev.head.headers;
    }
    o.body += ev.body;
    o.raw += ev.raw;
    o.upgraded = o.upgraded || ev.upgraded;
    o.complete = o.complete || ev.messageComplete;
}

// Feeds the pieces in order, then (if close) reports the end of input.
Outcome run(const HttpResponseParser::Options &opts, const QList<QByteArray> &pieces, bool close)
{
    HttpResponseParser p(opts);
    Outcome o;
    for (const QByteArray &piece : pieces) {
        HttpParseEvents ev;
        const bool ok = p.feed(piece, ev);
        collect(ev, o);
        if (!ok)
            break;
    }
    if (close && !p.failed()) {
        HttpParseEvents ev;
        p.finishInput(ev);
        collect(ev, o);
    }
    o.ok = !p.failed();
    o.failure = p.failure();
    if (p.failed())
        Q_ASSERT(!p.errorString().isEmpty());
    return o;
}

QByteArray bigHeaderReply()
{
    return "HTTP/1.1 200 OK\r\nX-Big: " + QByteArray(200, 'a') + "\r\n\r\n";
}

} // namespace

class TestHttpParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data();
    void parse();
    void splitAtEveryBoundary_data() { parse_data(); }
    void splitAtEveryBoundary();
    void byteAtATime_data() { parse_data(); }
    void byteAtATime();
    void headersCaseInsensitive();
    void garbageFailsWithoutNewline();
    void stateAfterFailureIsSticky();
    void bytesAfterCompleteAreIgnored();
    void mutationsGiveTheSameOutcomeAnyWaySplit();
};

void TestHttpParser::parse_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<bool>("head");     // request was HEAD
    QTest::addColumn<bool>("upgrade");  // request asked for an upgrade
    QTest::addColumn<int>("maxHeader"); // 0 = default
    QTest::addColumn<bool>("close");    // the peer closes after the input
    QTest::addColumn<Failure>("failure");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<bool>("complete");

    const QByteArray ok200 = "HTTP/1.1 200 OK\r\n";
    const QByteArray chunkedHead = ok200 + "Transfer-Encoding: chunked\r\n\r\n";

    QTest::newRow("content-length") << ok200 + "Content-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello" << false
                                    << false << 0 << false << Failure::None << 200 << QByteArray("hello")
                                    << QByteArray() << true;
    QTest::newRow("content-length zero") << ok200 + "Content-Length: 0\r\n\r\n"
                                         << false << false << 0 << false << Failure::None << 200 << QByteArray()
                                         << QByteArray() << true;
    QTest::newRow("content-length list of equal values")
        << ok200 + "Content-Length: 3, 3\r\n\r\nabc" << false << false << 0 << false << Failure::None << 200
        << QByteArray("abc") << QByteArray() << true;
    QTest::newRow("chunked") << chunkedHead + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
                             << false << false << 0 << false << Failure::None << 200 << QByteArray("hello world")
                             << QByteArray() << true;
    QTest::newRow("chunked extensions and trailers")
        << chunkedHead +
               "5;name=value\r\nhello\r\n6 ; a=\"b;c\"\r\n world\r\n0;last\r\nX-Checksum: 1\r\nX-Other: 2\r\n\r\n"
        << false << false << 0 << false << Failure::None << 200 << QByteArray("hello world") << QByteArray() << true;
    QTest::newRow("chunked uppercase hex and leading zeros")
        << chunkedHead + "00A\r\n0123456789\r\n0\r\n\r\n"
        << false << false << 0 << false << Failure::None << 200 << QByteArray("0123456789") << QByteArray() << true;
    QTest::newRow("chunked over bare LF")
        << QByteArray("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n3\nabc\n0\n\n") << false << false << 0 << false
        << Failure::None << 200 << QByteArray("abc") << QByteArray() << true;
    QTest::newRow("gzip then chunked") << ok200 + "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\nzz\r\n0\r\n\r\n"
                                       << false << false << 0 << false << Failure::None << 200 << QByteArray("zz")
                                       << QByteArray() << true;
    QTest::newRow("close-delimited") << QByteArray("HTTP/1.0 200 OK\r\n\r\nuntil close") << false << false << 0 << true
                                     << Failure::None << 200 << QByteArray("until close") << QByteArray() << true;
    QTest::newRow("close-delimited not yet closed")
        << QByteArray("HTTP/1.0 200 OK\r\n\r\nmore") << false << false << 0 << false << Failure::None << 200
        << QByteArray("more") << QByteArray() << false;
    QTest::newRow("HEAD has no body") << ok200 + "Content-Length: 100\r\n\r\n"
                                      << true << false << 0 << false << Failure::None << 200 << QByteArray()
                                      << QByteArray() << true;
    QTest::newRow("204") << QByteArray("HTTP/1.1 204 No Content\r\nContent-Length: 7\r\n\r\n") << false << false << 0
                         << false << Failure::None << 204 << QByteArray() << QByteArray() << true;
    QTest::newRow("304") << QByteArray("HTTP/1.1 304 Not Modified\r\n\r\n") << false << false << 0 << false
                         << Failure::None << 304 << QByteArray() << QByteArray() << true;
    QTest::newRow("empty reason") << QByteArray("HTTP/1.1 200\r\nContent-Length: 1\r\n\r\nx") << false << false << 0
                                  << false << Failure::None << 200 << QByteArray("x") << QByteArray() << true;
    QTest::newRow("100 continue then 200")
        << QByteArray("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: x\r\n\r\n") + ok200 +
               "Content-Length: 2\r\n\r\nok"
        << false << false << 0 << false << Failure::None << 200 << QByteArray("ok") << QByteArray() << true;
    QTest::newRow("101 upgrade with stream bytes")
        << QByteArray("HTTP/1.1 101 UPGRADED\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n") +
               QByteArray("\x01\x00\x00\x00\x00\x00\x00\x02hi", 10)
        << false << true << 0 << true << Failure::None << 101 << QByteArray()
        << QByteArray("\x01\x00\x00\x00\x00\x00\x00\x02hi", 10) << true;
    QTest::newRow("200 upgrade with stream bytes")
        << ok200 + "Content-Type: application/vnd.docker.raw-stream\r\n\r\nraw bytes\r\n\r\nHTTP/1.1 not a header"
        << false << true << 0 << false << Failure::None << 200 << QByteArray()
        << QByteArray("raw bytes\r\n\r\nHTTP/1.1 not a header") << false;
    QTest::newRow("404 to an upgrade is a plain reply")
        << QByteArray("HTTP/1.1 404 Not Found\r\nContent-Length: 13\r\n\r\n{\"message\":1}") << false << true << 0
        << false << Failure::None << 404 << QByteArray("{\"message\":1}") << QByteArray() << true;

    // Truncated: the peer closed too early.
    QTest::newRow("empty input") << QByteArray() << false << false << 0 << true << Failure::Truncated << 0
                                 << QByteArray() << QByteArray() << false;
    QTest::newRow("truncated status line") << QByteArray("HTTP/1.1 20") << false << false << 0 << true
                                           << Failure::Truncated << 0 << QByteArray() << QByteArray() << false;
    QTest::newRow("truncated headers") << ok200 + "Content-Le" << false << false << 0 << true << Failure::Truncated << 0
                                       << QByteArray() << QByteArray() << false;
    QTest::newRow("truncated length body") << ok200 + "Content-Length: 10\r\n\r\nhalf" << false << false << 0 << true
                                           << Failure::Truncated << 200 << QByteArray("half") << QByteArray() << false;
    QTest::newRow("truncated chunk") << chunkedHead + "5\r\nhel" << false << false << 0 << true << Failure::Truncated
                                     << 200 << QByteArray("hel") << QByteArray() << false;
    QTest::newRow("truncated chunk size") << chunkedHead + "5\r\nhello\r\n1" << false << false << 0 << true
                                          << Failure::Truncated << 200 << QByteArray("hello") << QByteArray() << false;
    QTest::newRow("truncated trailers") << chunkedHead + "0\r\nX-T: 1\r\n"
                                        << false << false << 0 << true << Failure::Truncated << 200 << QByteArray()
                                        << QByteArray() << false;

    // Malformed.
    QTest::newRow("garbage") << QByteArray("garbage\r\n\r\n") << false << false << 0 << false << Failure::Malformed << 0
                             << QByteArray() << QByteArray() << false;
    QTest::newRow("binary garbage") << QByteArray("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11) << false << false
                                    << 0 << false << Failure::Malformed << 0 << QByteArray() << QByteArray() << false;
    QTest::newRow("HTTP/2") << QByteArray("HTTP/2.0 200 OK\r\n\r\n") << false << false << 0 << false
                            << Failure::Malformed << 0 << QByteArray() << QByteArray() << false;
    QTest::newRow("bad status code") << QByteArray("HTTP/1.1 2x0 OK\r\n\r\n") << false << false << 0 << false
                                     << Failure::Malformed << 0 << QByteArray() << QByteArray() << false;
    QTest::newRow("status code without space") << QByteArray("HTTP/1.1 2000K\r\n\r\n") << false << false << 0 << false
                                               << Failure::Malformed << 0 << QByteArray() << QByteArray() << false;
    QTest::newRow("header without colon")
        << ok200 + "NoColonHere\r\n\r\n"
        << false << false << 0 << false << Failure::Malformed << 0 << QByteArray() << QByteArray() << false;
    QTest::newRow("space before colon") << ok200 + "Bad Name: x\r\n\r\n"
                                        << false << false << 0 << false << Failure::Malformed << 0 << QByteArray()
                                        << QByteArray() << false;
    QTest::newRow("folded header") << ok200 + "A: b\r\n c\r\n\r\n"
                                   << false << false << 0 << false << Failure::Malformed << 0 << QByteArray()
                                   << QByteArray() << false;
    QTest::newRow("oversize headers") << bigHeaderReply() << false << false << 64 << false << Failure::TooLarge << 0
                                      << QByteArray() << QByteArray() << false;
    QTest::newRow("oversize trailers") << chunkedHead + "0\r\nX-T: " + QByteArray(200, 't') + "\r\n\r\n"
                                       << false << false << 64 << false << Failure::TooLarge << 200 << QByteArray()
                                       << QByteArray() << false;
    QTest::newRow("invalid chunk size") << chunkedHead + "zz\r\nhello\r\n"
                                        << false << false << 0 << false << Failure::Malformed << 200 << QByteArray()
                                        << QByteArray() << false;
    QTest::newRow("empty chunk size") << chunkedHead + "\r\nhello\r\n"
                                      << false << false << 0 << false << Failure::Malformed << 200 << QByteArray()
                                      << QByteArray() << false;
    QTest::newRow("huge chunk size") << chunkedHead + "ffffffffffffffffff\r\n"
                                     << false << false << 0 << false << Failure::Malformed << 200 << QByteArray()
                                     << QByteArray() << false;
    QTest::newRow("chunk longer than its size")
        << chunkedHead + "3\r\nhello\r\n0\r\n\r\n"
        << false << false << 0 << false << Failure::Malformed << 200 << QByteArray("hel") << QByteArray() << false;
    QTest::newRow("negative content-length")
        << ok200 + "Content-Length: -5\r\n\r\n"
        << false << false << 0 << false << Failure::Malformed << 0 << QByteArray() << QByteArray() << false;
    QTest::newRow("huge content-length") << ok200 + "Content-Length: 99999999999999999999\r\n\r\n"
                                         << false << false << 0 << false << Failure::Malformed << 0 << QByteArray()
                                         << QByteArray() << false;
    QTest::newRow("conflicting content-length")
        << ok200 + "Content-Length: 5, 6\r\n\r\nhello" << false << false << 0 << false << Failure::Malformed << 0
        << QByteArray() << QByteArray() << false;
    QTest::newRow("101 without upgrade request")
        << QByteArray("HTTP/1.1 101 Switching\r\n\r\n") << false << false << 0 << false << Failure::Malformed << 0
        << QByteArray() << QByteArray() << false;
}

#define FETCH_ROW                                                                                                      \
    QFETCH(QByteArray, input);                                                                                         \
    QFETCH(bool, head);                                                                                                \
    QFETCH(bool, upgrade);                                                                                             \
    QFETCH(int, maxHeader);                                                                                            \
    QFETCH(bool, close);                                                                                               \
    QFETCH(Failure, failure);                                                                                          \
    QFETCH(int, status);                                                                                               \
    QFETCH(QByteArray, body);                                                                                          \
    QFETCH(QByteArray, raw);                                                                                           \
    QFETCH(bool, complete);                                                                                            \
    HttpResponseParser::Options opts;                                                                                  \
    opts.headRequest = head;                                                                                           \
    opts.upgradeRequested = upgrade;                                                                                   \
    if (maxHeader > 0)                                                                                                 \
        opts.maxHeaderBytes = maxHeader;

namespace {
// Returns an empty string when the outcome matches, else what differs.
QString mismatch(const Outcome &o, Failure failure, int status, const QByteArray &body, const QByteArray &raw,
                 bool complete)
{
    if (o.failure != failure)
        return QStringLiteral("failure %1, expected %2").arg(int(o.failure)).arg(int(failure));
    if (o.ok != (failure == Failure::None))
        return QStringLiteral("ok flag");
    if (status != 0 && (o.status != status || o.headCount != 1))
        return QStringLiteral("status %1 (heads %2), expected %3").arg(o.status).arg(o.headCount).arg(status);
    if (status == 0 && o.headCount != 0)
        return QStringLiteral("unexpected head");
    if (o.body != body)
        return QStringLiteral("body \"%1\"").arg(QString::fromLatin1(o.body.toPercentEncoding()));
    if (o.raw != raw)
        return QStringLiteral("raw \"%1\"").arg(QString::fromLatin1(o.raw.toPercentEncoding()));
    if (o.complete != complete)
        return QStringLiteral("complete %1").arg(o.complete);
    if (o.upgraded != !raw.isEmpty())
        return QStringLiteral("upgraded %1").arg(o.upgraded);
    return {};
}
} // namespace

void TestHttpParser::parse()
{
    FETCH_ROW
    const Outcome o = run(opts, {input}, close);
    const QString why = mismatch(o, failure, status, body, raw, complete);
    QVERIFY2(why.isEmpty(), qPrintable(why));
}

void TestHttpParser::splitAtEveryBoundary()
{
    FETCH_ROW
    for (qsizetype i = 0; i <= input.size(); ++i) {
        for (qsizetype j = i; j <= input.size(); j += qMax<qsizetype>(1, input.size() / 7)) {
            const Outcome o = run(opts, {input.left(i), input.mid(i, j - i), input.mid(j)}, close);
            const QString why = mismatch(o, failure, status, body, raw, complete);
            QVERIFY2(why.isEmpty(), qPrintable(QStringLiteral("split at %1/%2: %3").arg(i).arg(j).arg(why)));
        }
    }
}

void TestHttpParser::byteAtATime()
{
    FETCH_ROW
    QList<QByteArray> pieces;
    for (char c : input)
        pieces << QByteArray(1, c);
    const Outcome o = run(opts, pieces, close);
    const QString why = mismatch(o, failure, status, body, raw, complete);
    QVERIFY2(why.isEmpty(), qPrintable(why));
}

void TestHttpParser::headersCaseInsensitive()
{
    const Outcome o = run({}, {"HTTP/1.1 200 OK\r\nAPI-Version:  1.41 \r\ncontent-length: 2\r\n\r\nok"}, false);
    QCOMPARE(o.headers.size(), 2);
    HttpResponse r;
    r.headers = o.headers;
    QCOMPARE(r.header("api-version"), QByteArray("1.41"));
    QCOMPARE(r.header("Content-Length"), QByteArray("2"));
    QVERIFY(r.header("missing").isNull());
    QCOMPARE(o.reason, QByteArray("OK"));
}

void TestHttpParser::garbageFailsWithoutNewline()
{
    // A TLS server answering a plain request must fail at once, not after a timeout.
    HttpResponseParser p;
    HttpParseEvents ev;
    QVERIFY(!p.feed(QByteArrayView("\x15\x03\x01"), ev));
    QCOMPARE(p.failure(), Failure::Malformed);
    QVERIFY(p.errorString().contains(QLatin1String("not an HTTP response")));
}

void TestHttpParser::stateAfterFailureIsSticky()
{
    HttpResponseParser p;
    HttpParseEvents ev;
    QVERIFY(!p.feed(QByteArrayView("nope\r\n"), ev));
    QVERIFY(!p.feed(QByteArrayView("HTTP/1.1 200 OK\r\n\r\n"), ev));
    QVERIFY(!ev.headersComplete);
    QVERIFY(!p.finishInput(ev));
    QVERIFY(p.failed());
}

void TestHttpParser::bytesAfterCompleteAreIgnored()
{
    const Outcome o = run({}, {"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA"}, true);
    QVERIFY(o.ok);
    QCOMPARE(o.body, QByteArray("ok"));
    QVERIFY(o.complete);
}

void TestHttpParser::mutationsGiveTheSameOutcomeAnyWaySplit()
{
    // Seeded, so a failure reproduces: damaged replies must never crash, and how the bytes
    // were split must never change what the parser makes of them.
    const QList<QByteArray> seeds = {
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n0\r\nT: 1\r\n\r\n",
        "HTTP/1.1 404 Not Found\r\nContent-Length: 12\r\n\r\n{\"message\":1}",
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 200 OK\r\n\r\nstream",
    };
    const char alphabet[] = "\r\n :;0123456789abcdefHTTP/1.\x00\xff";
    QRandomGenerator rng(20261129);
    for (int round = 0; round < 3000; ++round) {
        QByteArray input = seeds.at(round % seeds.size());
        const int edits = 1 + int(rng.bounded(4));
        for (int e = 0; e < edits; ++e) {
            const qsizetype at = rng.bounded(int(input.size()));
            switch (rng.bounded(3)) {
            case 0: input[at] = alphabet[rng.bounded(int(sizeof(alphabet) - 1))]; break;
            case 1: input.remove(at, 1 + rng.bounded(3)); break;
            default: input.insert(at, alphabet[rng.bounded(int(sizeof(alphabet) - 1))]); break;
            }
        }
        HttpResponseParser::Options opts;
        opts.upgradeRequested = (round % 5) == 0;
        opts.maxHeaderBytes = 128;
        const Outcome whole = run(opts, {input}, true);
        QList<QByteArray> pieces;
        for (qsizetype pos = 0; pos < input.size();) {
            const qsizetype n = 1 + rng.bounded(7);
            pieces << input.mid(pos, n);
            pos += n;
        }
        const Outcome split = run(opts, pieces, true);
        const QString why =
            mismatch(split, whole.failure, whole.headCount ? whole.status : 0, whole.body, whole.raw, whole.complete);
        QVERIFY2(why.isEmpty(), qPrintable(QStringLiteral("round %1 input %2: %3")
                                               .arg(round)
                                               .arg(QString::fromLatin1(input.toPercentEncoding()), why)));
    }
}

QTEST_GUILESS_MAIN(TestHttpParser)
#include "tst_httpparser.moc"
