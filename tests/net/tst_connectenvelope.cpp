// Connect-RPC envelopes: whole messages out of any split of the bytes, and a clear error for
// truncated, oversized, compressed or garbage input (table-driven, empty input included).

#include "TestSupport.h"
#include "net/ConnectEnvelope.h"

#include <QTest>

using namespace sandbar;
using namespace sandbar::net::connect;

namespace {

QByteArray header(quint8 flags, quint32 length)
{
    QByteArray h(5, '\0');
    h[0] = char(flags);
    h[1] = char((length >> 24) & 0xff);
    h[2] = char((length >> 16) & 0xff);
    h[3] = char((length >> 8) & 0xff);
    h[4] = char(length & 0xff);
    return h;
}

// Everything the decoder hands out for `bytes` fed in chunks of `chunk` (0: all at once).
struct Decoded {
    QList<Envelope> envelopes;
    std::optional<Error> error;
    VoidResult finish;
};

Decoded decodeAll(const QByteArray &bytes, int chunk)
{
    EnvelopeDecoder d;
    Decoded out;
    const int step = chunk > 0 ? chunk : int(qMax<qsizetype>(1, bytes.size()));
    for (qsizetype i = 0; i < bytes.size() || (bytes.isEmpty() && i == 0); i += step) {
        d.feed(bytes.mid(i, step));
        while (auto e = d.next()) {
            if (!e->ok()) {
                out.error = e->error();
                break;
            }
            out.envelopes << e->value();
        }
        if (out.error || bytes.isEmpty())
            break;
    }
    out.finish = d.finish();
    return out;
}

} // namespace

class TestConnectEnvelope final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void encodeIsFlagLengthMessage()
    {
        const QByteArray e = encodeEnvelope(QByteArrayLiteral("{\"a\":1}"));
        QCOMPARE(e.size(), 5 + 7);
        QCOMPARE(e.left(5), header(0, 7));
        QCOMPARE(encodeEnvelope({}, kFlagEndStream), header(kFlagEndStream, 0));
    }

    void decode_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("messages");
        QTest::addColumn<bool>("endStream");      // the last message ends the stream
        QTest::addColumn<int>("errorCode");       // -1: no error while decoding
        QTest::addColumn<bool>("truncatedAtEnd"); // finish() reports bytes left over

        const QByteArray a = encodeEnvelope(QByteArrayLiteral("{\"event\":{\"start\":{\"pid\":7}}}"));
        const QByteArray b = encodeEnvelope(QByteArrayLiteral("{\"event\":{\"data\":{\"pty\":\"aGk=\"}}}"));
        const QByteArray end = encodeEnvelope(QByteArrayLiteral("{}"), kFlagEndStream);
        QTest::newRow("empty") << QByteArray() << 0 << false << -1 << false;
        QTest::newRow("one") << a << 1 << false << -1 << false;
        QTest::newRow("two and the end") << a + b + end << 3 << true << -1 << false;
        QTest::newRow("empty message") << encodeEnvelope({}) << 1 << false << -1 << false;
        QTest::newRow("header cut") << a.left(3) << 0 << false << -1 << true;
        QTest::newRow("message cut") << a + b.left(b.size() - 1) << 1 << false << -1 << true;
        QTest::newRow("oversized length") << header(0, quint32(kMaxMessageBytes + 1)) + QByteArrayLiteral("x") << 0
                                          << false << int(ErrorCode::Internal) << false;
        QTest::newRow("compressed") << encodeEnvelope(QByteArrayLiteral("x"), kFlagCompressed) << 0 << false
                                    << int(ErrorCode::Unsupported) << false;
        QTest::newRow("garbage flags") << QByteArrayLiteral("HTTP/1.1 200 OK\r\n") << 0 << false
                                       << int(ErrorCode::Internal) << false;
        QTest::newRow("good then garbage")
            << a + QByteArrayLiteral("\xff\xff\xff\xff\xff") << 1 << false << int(ErrorCode::Internal) << false;
    }

    // Every split of the bytes gives the same result as the whole.
    void decode()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, messages);
        QFETCH(bool, endStream);
        QFETCH(int, errorCode);
        QFETCH(bool, truncatedAtEnd);
        for (int chunk : {0, 1, 2, 3, 5, 7, 64}) {
            const Decoded d = decodeAll(bytes, chunk);
            QCOMPARE(d.envelopes.size(), messages);
            if (messages > 0)
                QCOMPARE(d.envelopes.last().isEndStream(), endStream);
            QCOMPARE(d.error ? int(d.error->code) : -1, errorCode);
            if (errorCode < 0)
                QCOMPARE(!d.finish.ok(), truncatedAtEnd);
            else
                QVERIFY(!d.finish.ok()); // a failed stream stays failed
            if (d.error)
                QVERIFY(!d.error->message.isEmpty());
        }
    }

    void messagesComeOutWhole()
    {
        const QByteArray m = QByteArray(70000, 'x');
        const Decoded d = decodeAll(encodeEnvelope(m) + encodeEnvelope(QByteArrayLiteral("y")), 4096);
        QCOMPARE(d.envelopes.size(), 2);
        QCOMPARE(d.envelopes.at(0).message, m);
        QCOMPARE(d.envelopes.at(1).message, QByteArrayLiteral("y"));
        QVERIFY(d.finish.ok());
    }

    void endStream_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("code"); // -1: a clean end
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QByteArray() << -1 << QString();
        QTest::newRow("no error") << QByteArrayLiteral("{\"metadata\":{}}") << -1 << QString();
        QTest::newRow("null error") << QByteArrayLiteral("{\"error\":null}") << -1 << QString();
        QTest::newRow("not found") << QByteArrayLiteral(
                                          "{\"error\":{\"code\":\"not_found\",\"message\":\"process 7\"}}")
                                   << int(ErrorCode::NotFound) << QStringLiteral("process 7");
        QTest::newRow("unauthenticated") << QByteArrayLiteral("{\"error\":{\"code\":\"unauthenticated\"}}")
                                         << int(ErrorCode::Unauthorized) << QStringLiteral("unauthenticated");
        QTest::newRow("exhausted") << QByteArrayLiteral(
                                          "{\"error\":{\"code\":\"resource_exhausted\",\"message\":\"m\"}}")
                                   << int(ErrorCode::LimitReached) << QStringLiteral("m");
        QTest::newRow("unknown code") << QByteArrayLiteral("{\"error\":{\"code\":\"weird\",\"message\":\"m\"}}")
                                      << int(ErrorCode::Internal) << QStringLiteral("m");
        QTest::newRow("error not an object")
            << QByteArrayLiteral("{\"error\":\"boom\"}") << int(ErrorCode::Internal) << QString();
        QTest::newRow("truncated json") << QByteArrayLiteral("{\"error\":{\"code\":") << int(ErrorCode::Internal)
                                        << QString();
        QTest::newRow("garbage") << QByteArrayLiteral("\x01\x02\x03") << int(ErrorCode::Internal) << QString();
        QTest::newRow("array") << QByteArrayLiteral("[]") << int(ErrorCode::Internal) << QString();
    }

    void endStream()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, code);
        QFETCH(QString, message);
        const VoidResult r = parseEndStream(json);
        if (code < 0) {
            QVERIFY(r.ok());
            return;
        }
        QVERIFY(!r.ok());
        QCOMPARE(int(r.error().code), code);
        QVERIFY(!r.error().message.isEmpty());
        if (!message.isEmpty())
            QCOMPARE(r.error().message, message);
    }

    void connectCodes()
    {
        QCOMPARE(errorCodeFromConnect(QStringLiteral("deadline_exceeded")), ErrorCode::Timeout);
        QCOMPARE(errorCodeFromConnect(QStringLiteral("unavailable")), ErrorCode::Unavailable);
        QCOMPARE(errorCodeFromConnect(QStringLiteral("already_exists")), ErrorCode::Conflict);
        QCOMPARE(errorCodeFromConnect(QStringLiteral("unimplemented")), ErrorCode::Unsupported);
        QCOMPARE(errorCodeFromConnect(QStringLiteral("canceled")), ErrorCode::Cancelled);
        QCOMPARE(errorCodeFromConnect(QStringLiteral("invalid_argument")), ErrorCode::InvalidArgument);
        QCOMPARE(errorCodeFromConnect(QString()), ErrorCode::Internal);
    }
};

QTEST_GUILESS_MAIN(TestConnectEnvelope)
#include "tst_connectenvelope.moc"
