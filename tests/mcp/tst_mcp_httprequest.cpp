#include "mcp/McpHttpRequest.h"

#include <QTest>

using namespace sandbar::mcp::http;

namespace {

// A literal with its NUL bytes.
template <qsizetype N>
QByteArray raw(const char (&s)[N])
{
    return QByteArray(s, N - 1);
}

// Feeds `input` in pieces of `step` bytes (0: all at once), taking each complete request.
struct Outcome {
    QList<Request> requests;
    RequestParser::Failure failure = RequestParser::Failure::None;
    bool midRequest = false;
};

Outcome parseAll(const QByteArray &input, qsizetype step, RequestParser::Limits limits = {})
{
    RequestParser p(limits);
    Outcome out;
    const qsizetype n = step > 0 ? step : qMax<qsizetype>(1, input.size());
    for (qsizetype i = 0; i < input.size(); i += n) {
        p.feed(QByteArrayView(input).sliced(i, qMin(n, input.size() - i)));
        while (p.requestComplete())
            out.requests.append(p.take());
    }
    out.failure = p.failure();
    out.midRequest = p.midRequest();
    return out;
}

} // namespace

// The Streamable HTTP endpoint's request parser on its own: every framing it takes, every way a
// request can be broken, each fed whole and byte by byte.
class TestMcpHttpRequest final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parses_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<int>("requests");
        QTest::addColumn<QByteArray>("lastBody");
        QTest::addColumn<bool>("midRequest");

        QTest::newRow("empty") << QByteArray() << 0 << QByteArray() << false;
        QTest::newRow("get") << QByteArray("GET /mcp HTTP/1.1\r\nHost: a\r\n\r\n") << 1 << QByteArray() << false;
        QTest::newRow("bare LF lines") << QByteArray("GET /mcp HTTP/1.1\nHost: a\n\n") << 1 << QByteArray() << false;
        QTest::newRow("length body") << QByteArray("POST /mcp HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello") << 1
                                     << QByteArray("hello") << false;
        QTest::newRow("equal length list")
            << QByteArray("POST / HTTP/1.1\r\nContent-Length: 2, 2\r\n\r\nhi") << 1 << QByteArray("hi") << false;
        QTest::newRow("chunked") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                                               "3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: y\r\n\r\n")
                                 << 1 << QByteArray("abcde") << false;
        QTest::newRow("pipelined, blank line between")
            << QByteArray(
                   "POST / HTTP/1.1\r\nContent-Length: 1\r\n\r\na\r\nPOST / HTTP/1.1\r\nContent-Length: 1\r\n\r\nb")
            << 2 << QByteArray("b") << false;
        QTest::newRow("truncated head") << QByteArray("POST /mcp HTTP/1.1\r\nContent-Le") << 0 << QByteArray() << true;
        QTest::newRow("truncated body") << QByteArray("POST /mcp HTTP/1.1\r\nContent-Length: 9\r\n\r\nabc") << 0
                                        << QByteArray() << true;
        QTest::newRow("truncated chunk") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab")
                                         << 0 << QByteArray() << true;
    }

    void parses()
    {
        QFETCH(QByteArray, input);
        QFETCH(int, requests);
        QFETCH(QByteArray, lastBody);
        QFETCH(bool, midRequest);
        for (const qsizetype step : {qsizetype(0), qsizetype(1), qsizetype(7)}) {
            const Outcome o = parseAll(input, step);
            QCOMPARE(o.failure, RequestParser::Failure::None);
            QCOMPARE(o.requests.size(), requests);
            QCOMPARE(o.midRequest, midRequest);
            if (requests > 0)
                QCOMPARE(o.requests.last().body, lastBody);
        }
    }

    void refuses_data()
    {
        using F = RequestParser::Failure;
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<F>("failure");
        QTest::addColumn<int>("status");

        QTest::newRow("garbage") << raw("\x16\x03\x01\x02\x00\x01\x00\r\n\r\n") << F::Malformed << 400;
        QTest::newRow("no version") << QByteArray("GET /mcp\r\n\r\n") << F::Malformed << 400;
        QTest::newRow("two spaces") << QByteArray("GET  /mcp HTTP/1.1\r\n\r\n") << F::Malformed << 400;
        QTest::newRow("http/2 preface") << QByteArray("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") << F::VersionNotSupported
                                        << 505;
        QTest::newRow("control in target") << QByteArray("GET /m\x01p HTTP/1.1\r\n\r\n") << F::Malformed << 400;
        QTest::newRow("space before colon") << QByteArray("GET / HTTP/1.1\r\nHost : a\r\n\r\n") << F::Malformed << 400;
        QTest::newRow("folded header") << QByteArray("GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n") << F::Malformed << 400;
        QTest::newRow("no colon") << QByteArray("GET / HTTP/1.1\r\nHost\r\n\r\n") << F::Malformed << 400;
        QTest::newRow("nul in value") << raw("GET / HTTP/1.1\r\nX: a\0b\r\n\r\n") << F::Malformed << 400;
        QTest::newRow("length and chunked")
            << QByteArray("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n") << F::Malformed
            << 400;
        QTest::newRow("two lengths") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n")
                                     << F::Malformed << 400;
        QTest::newRow("negative length") << QByteArray("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n") << F::Malformed
                                         << 400;
        QTest::newRow("gzip") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
                              << F::NotImplemented << 501;
        QTest::newRow("bad chunk size") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
                                        << F::Malformed << 400;
        QTest::newRow("chunk overruns") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                                                      "2\r\nabc\r\n0\r\n\r\n")
                                        << F::Malformed << 400;
        QTest::newRow("huge chunk") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                                                  "fffffffffffffffff\r\n")
                                    << F::BodyTooLarge << 413;
        QTest::newRow("length over limit")
            << QByteArray("POST / HTTP/1.1\r\nContent-Length: 1025\r\n\r\n") << F::BodyTooLarge << 413;
        QTest::newRow("chunks over limit") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                                                         "300\r\n" +
                                                         QByteArray(0x300, 'a') + "\r\n200\r\n")
                                           << F::BodyTooLarge << 413;
        QTest::newRow("oversized headers")
            << QByteArray("GET / HTTP/1.1\r\nX: " + QByteArray(600, 'a') + "\r\n\r\n") << F::HeadersTooLarge << 431;
        QTest::newRow("oversized unfinished line")
            << QByteArray("GET /" + QByteArray(600, 'a')) << F::HeadersTooLarge << 431;
        QTest::newRow("oversized trailers")
            << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: " + QByteArray(600, 'a') +
                          "\r\n\r\n")
            << F::HeadersTooLarge << 431;
    }

    void refuses()
    {
        QFETCH(QByteArray, input);
        QFETCH(RequestParser::Failure, failure);
        QFETCH(int, status);
        for (const qsizetype step : {qsizetype(0), qsizetype(1)}) {
            RequestParser p(RequestParser::Limits{512, 1024});
            for (qsizetype i = 0; i<input.size(); i += step> 0 ? step : input.size())
                p.feed(QByteArrayView(input).sliced(i, step > 0 ? qMin(step, input.size() - i) : input.size()));
            QVERIFY(p.failed());
            QCOMPARE(p.failure(), failure);
            QCOMPARE(p.failureStatus(), status);
            QVERIFY(!p.errorString().isEmpty());
            // Failed stays failed, and holds nothing more.
            QVERIFY(!p.feed("GET / HTTP/1.1\r\n\r\n"));
            QCOMPARE(p.buffered(), 0);
        }
    }

    void headersAndConnection()
    {
        RequestParser p;
        p.feed("POST /mcp?x=1 HTTP/1.0\r\nhost:  127.0.0.1:9 \r\nConnection: Keep-Alive\r\nAccept: a\r\n"
               "ACCEPT: b\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n");
        QVERIFY(p.headComplete());
        QVERIFY(!p.requestComplete());
        QVERIFY(p.current().expectsContinue());
        p.feed("{}");
        const Request r = p.take();
        QCOMPARE(r.path(), QByteArray("/mcp"));
        QCOMPARE(r.minorVersion, 0);
        QCOMPARE(r.header("HOST"), QByteArray("127.0.0.1:9"));
        QCOMPARE(r.headerCount("accept"), 2);
        QCOMPARE(r.header("accept"), QByteArray("a"));
        QVERIFY(r.keepAlive());
        const Request http10{"GET", "/", 0, {}, {}};
        const Request closing{"GET", "/", 1, {{"connection", "close"}}, {}};
        const Request http11{"GET", "/", 1, {}, {}};
        QVERIFY(!http10.keepAlive());
        QVERIFY(!closing.keepAlive());
        QVERIFY(http11.keepAlive());
    }

    void mediaTypes()
    {
        const auto both = acceptedMediaTypes("application/json, text/event-stream");
        QVERIFY(acceptsMediaType(both, "application/json"));
        QVERIFY(acceptsMediaType(both, "text/event-stream"));
        const auto wild = acceptedMediaTypes("Text/*;q=0.5");
        QVERIFY(acceptsMediaType(wild, "text/event-stream"));
        QVERIFY(!acceptsMediaType(wild, "application/json"));
        QVERIFY(acceptsMediaType(acceptedMediaTypes("*/*"), "application/json"));
        const auto refused = acceptedMediaTypes("application/json;q=0, text/event-stream");
        QVERIFY(!acceptsMediaType(refused, "application/json"));
        QVERIFY(acceptedMediaTypes("").isEmpty());
        QCOMPARE(mediaTypeEssence("Application/JSON ; charset=utf-8"), QByteArray("application/json"));
    }

    void responses()
    {
        QCOMPARE(responseHead(202, {}, 0), QByteArray("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n"));
        QCOMPARE(responseHead(200, {{"A", "b"}}, -1, true),
                 QByteArray("HTTP/1.1 200 OK\r\nA: b\r\nTransfer-Encoding: chunked\r\n\r\n"));
        QCOMPARE(chunk("hello world, 17 b"), QByteArray("11\r\nhello world, 17 b\r\n"));
        QCOMPARE(chunk({}), QByteArray("0\r\n\r\n"));
    }
};

QTEST_GUILESS_MAIN(TestMcpHttpRequest)
#include "tst_mcp_httprequest.moc"
