// gRPC's wire format (net/GrpcWire): messages out of any split of a call's body, compressed,
// unknown-flag, oversized and truncated input refused with a clear error; the status from
// trailers (or a trailers-only reply) with its code mapped and its message percent-decoded;
// grpc-timeout written in at most eight digits and read back, garbage refused. Table-driven,
// empty input included.

#include "TestSupport.h"
#include "net/GrpcWire.h"

#include <QTest>

using namespace sandbar;
using namespace sandbar::net;
using namespace std::chrono_literals;

namespace {

// The messages (or the first error) of bytes fed in pieces of `piece` bytes (0: at once).
struct Decoded {
    QByteArrayList messages;
    std::optional<Error> error;
    VoidResult end;
};

Decoded decode(const QByteArray &bytes, int piece, qint64 maxBytes = grpc::kDefaultMaxMessageBytes)
{
    auto d = grpc::messageDecoder(maxBytes);
    Decoded out;
    const int step = piece > 0 ? piece : int(qMax<qsizetype>(1, bytes.size()));
    for (qsizetype at = 0; at < bytes.size() && !out.error; at += step) {
        d.feed(bytes.mid(at, step));
        while (auto m = d.next()) {
            if (!m->ok()) {
                out.error = m->error();
                break;
            }
            out.messages << m->value().message;
        }
    }
    out.end = d.finish();
    return out;
}

QByteArray frame(quint8 flags, const QByteArray &message)
{
    return connect::encodeEnvelope(message, flags);
}

} // namespace

class TestGrpcWire : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void framing_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QByteArrayList>("messages");
        QTest::addColumn<QString>("error"); // a word of the error; empty: none

        const QByteArray two = grpc::encodeMessage("first") + grpc::encodeMessage(QByteArray(70000, 'x'));
        QTest::newRow("empty body") << QByteArray() << QByteArrayList{} << QString();
        QTest::newRow("empty message") << grpc::encodeMessage({}) << QByteArrayList{QByteArray()} << QString();
        QTest::newRow("two messages") << two << QByteArrayList{"first", QByteArray(70000, 'x')} << QString();
        QTest::newRow("truncated header") << two.left(3) << QByteArrayList{} << QStringLiteral("cut off");
        QTest::newRow("truncated message") << two.left(8) << QByteArrayList{} << QStringLiteral("cut off");
        QTest::newRow("compressed") << frame(connect::kFlagCompressed, "zz") << QByteArrayList{}
                                    << QStringLiteral("compressed");
        // Connect's end-of-stream flag means nothing in gRPC: garbage.
        QTest::newRow("unknown flag") << frame(connect::kFlagEndStream, "{}") << QByteArrayList{}
                                      << QStringLiteral("malformed");
        QTest::newRow("garbage") << QByteArray("\xff\xff\xff\xff\xff garbage", 14) << QByteArrayList{}
                                 << QStringLiteral("malformed");
        QByteArray huge(5, '\0');
        huge[1] = char(0x7f); // a length of about 2 GiB
        QTest::newRow("oversize") << huge << QByteArrayList{} << QStringLiteral("malformed");
    }
    // Every split of the input, one byte at a time up to all at once, decodes alike.
    void framing()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QByteArrayList, messages);
        QFETCH(QString, error);
        for (int piece = 1; piece <= qMax<int>(1, int(bytes.size())); piece += piece < 16 ? 1 : 997) {
            const Decoded d = decode(bytes, piece);
            const QString why = d.error ? d.error->message : d.end.ok() ? QString() : d.end.message();
            if (error.isEmpty()) {
                QVERIFY2(why.isEmpty(), qPrintable(why));
                QCOMPARE(d.messages, messages);
            } else {
                QVERIFY2(why.contains(error), qPrintable(QStringLiteral("%1: %2").arg(piece).arg(why)));
            }
        }
    }

    void messageCap()
    {
        const QByteArray message(1000, 'm');
        QCOMPARE(decode(grpc::encodeMessage(message), 0, 1000).messages, QByteArrayList{message});
        const Decoded over = decode(grpc::encodeMessage(message + 'x'), 0, 1000);
        QVERIFY(over.error.has_value());
        QVERIFY(over.messages.isEmpty());
    }

    void status_data()
    {
        QTest::addColumn<grpc::Headers>("headers");
        QTest::addColumn<int>("code"); // -1: no status
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("sandbarCode"); // ErrorCode, -1: ok

        QTest::newRow("no headers") << grpc::Headers{} << -1 << QString() << -1;
        QTest::newRow("no status") << grpc::Headers{{"content-type", "application/grpc"}} << -1 << QString() << -1;
        QTest::newRow("ok") << grpc::Headers{{"grpc-status", "0"}} << 0 << QString() << -1;
        QTest::newRow("not found") << grpc::Headers{{"grpc-status", "5"}, {"grpc-message", "Sandbox sb-1 not found"}}
                                   << 5 << QStringLiteral("Sandbox sb-1 not found") << int(ErrorCode::NotFound);
        QTest::newRow("unauthenticated, encoded message")
            << grpc::Headers{{"grpc-message", "Token%20expired%3A%20%E2%9C%97"}, {"grpc-status", "16"}} << 16
            << QStringLiteral("Token expired: ✗") << int(ErrorCode::Unauthorized);
        QTest::newRow("resource exhausted")
            << grpc::Headers{{"grpc-status", "8"}} << 8 << QString() << int(ErrorCode::LimitReached);
        QTest::newRow("unavailable") << grpc::Headers{{"grpc-status", "14"}} << 14 << QString()
                                     << int(ErrorCode::Unavailable);
        QTest::newRow("deadline") << grpc::Headers{{"grpc-status", "4"}} << 4 << QString() << int(ErrorCode::Timeout);
        QTest::newRow("cancelled") << grpc::Headers{{"grpc-status", "1"}} << 1 << QString()
                                   << int(ErrorCode::Cancelled);
        QTest::newRow("beyond the specification")
            << grpc::Headers{{"grpc-status", "42"}} << 42 << QString() << int(ErrorCode::Internal);
        QTest::newRow("bad escape kept") << grpc::Headers{{"grpc-status", "13"}, {"grpc-message", "100%zz%4"}} << 13
                                         << QStringLiteral("100%zz%4") << int(ErrorCode::Internal);
        QTest::newRow("garbage status") << grpc::Headers{{"grpc-status", "five"}} << 2 << QStringLiteral("malformed")
                                        << int(ErrorCode::Internal);
        QTest::newRow("empty status") << grpc::Headers{{"grpc-status", ""}} << 2 << QStringLiteral("malformed")
                                      << int(ErrorCode::Internal);
        QTest::newRow("negative status") << grpc::Headers{{"grpc-status", "-1"}} << 2 << QStringLiteral("malformed")
                                         << int(ErrorCode::Internal);
    }
    void status()
    {
        QFETCH(grpc::Headers, headers);
        QFETCH(int, code);
        QFETCH(QString, message);
        QFETCH(int, sandbarCode);
        const auto s = grpc::statusFromHeaders(headers);
        QCOMPARE(s.has_value(), code >= 0);
        if (!s)
            return;
        QCOMPARE(s->code, code);
        QVERIFY2(message.isEmpty() ? s->message.isEmpty() : s->message.contains(message), qPrintable(s->message));
        const VoidResult r = grpc::outcome(*s, QStringLiteral("SandboxCreate"));
        QCOMPARE(r.ok(), sandbarCode < 0);
        if (!r.ok()) {
            QCOMPARE(int(r.code()), sandbarCode);
            // Without the service's words, the method and the status are named.
            if (s->message.isEmpty())
                QCOMPARE(r.message(), QStringLiteral("SandboxCreate failed: ") + grpc::statusName(code));
        }
    }

    void statusMessageRoundTrip()
    {
        for (const QString &text : {QString(), QStringLiteral("plain"), QStringLiteral("100% done"),
                                    QStringLiteral("Zeilen\nUmbruch äöü ✓"), QStringLiteral("%41 is not A")}) {
            const QByteArray wire = grpc::encodeStatusMessage(text);
            QVERIFY(std::all_of(wire.cbegin(), wire.cend(), [](char c) { return c >= 0x20 && c <= 0x7e; }));
            QCOMPARE(grpc::decodeStatusMessage(wire), text);
        }
    }

    void timeouts_data()
    {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QByteArray>("wire");
        QTest::newRow("zero") << qint64(0) << QByteArray("0m");
        QTest::newRow("a second") << qint64(1000) << QByteArray("1000m");
        QTest::newRow("eight digits of ms") << qint64(99999999) << QByteArray("99999999m");
        QTest::newRow("seconds, rounded up") << qint64(100000001) << QByteArray("100001S");
        QTest::newRow("minutes") << qint64(99999999LL * 1000 + 1) << QByteArray("1666667M");
        QTest::newRow("negative is none") << qint64(-5) << QByteArray("0m");
    }
    void timeouts()
    {
        QFETCH(qint64, ms);
        QFETCH(QByteArray, wire);
        QCOMPARE(grpc::encodeTimeout(std::chrono::milliseconds(ms)), wire);
        const auto back = grpc::parseTimeout(wire);
        QVERIFY(back.has_value());
        QVERIFY(*back >= std::chrono::milliseconds(qMax<qint64>(0, ms))); // never shorter than asked
    }

    void timeoutParsing()
    {
        QCOMPARE(grpc::parseTimeout("5S").value(), std::chrono::nanoseconds(5s));
        QCOMPARE(grpc::parseTimeout("250u").value(), std::chrono::nanoseconds(250us));
        QCOMPARE(grpc::parseTimeout("7n").value(), std::chrono::nanoseconds(7));
        QCOMPARE(grpc::parseTimeout("2H").value(), std::chrono::nanoseconds(2h));
        QCOMPARE(grpc::parseTimeout("99999999H").value(), std::chrono::nanoseconds::max()); // too long to count
        for (const char *bad : {"", "S", "5", "5s", "123456789m", "-5m", " 5m", "5 m", "5mm", "\xff"})
            QVERIFY2(!grpc::parseTimeout(bad).has_value(), bad);
    }
};

QTEST_GUILESS_MAIN(TestGrpcWire)
#include "tst_grpcwire.moc"
