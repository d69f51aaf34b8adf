// The cloud layer every cloud provider stands on: which service URLs are accepted, when a
// call is retried and after how long, how HTTP errors read, and the QNetworkAccessManager
// client against an in-process server (retries honouring Retry-After, no retry of a
// non-idempotent call, timeouts, garbage replies, TLS refused then accepted with a CA file).

#include "FakeServer.h"
#include "ManualClock.h"
#include "TestSupport.h"
#include "cloud/CloudClient.h"
#include "cloud/Paging.h"
#include "cloud/Retry.h"
#include "cloud/ServiceUrl.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QLocale>
#include <QTemporaryFile>
#include <QTest>

using namespace sandbar;
using namespace sandbar::cloud;
using sandbar::test::FakeConn;
using sandbar::test::FakeServer;

namespace {
QByteArray reply(int status, const QByteArray &body, const QByteArray &extra = {})
{
    return "HTTP/1.1 " + QByteArray::number(status) +
           " X\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) +
           "\r\nConnection: close\r\n" + extra + "\r\n" + body;
}

CloudClient::Options optionsFor(const FakeServer &server, bool tls)
{
    CloudClient::Options o;
    o.service = QStringLiteral("Test service");
    o.baseUrl = QUrl(QStringLiteral("%1://127.0.0.1:%2/api")
                         .arg(tls ? QStringLiteral("https") : QStringLiteral("http"))
                         .arg(server.endpoint().port));
    o.authHeaders = {{QByteArray("X-API-Key"), QByteArray("sbtest-secret-cloudclient-123")}};
    o.retry.baseDelayMs = 20;
    return o;
}

Result<ApiReply> run(CloudClient &client, ApiCall call, QList<int> ok = {})
{
    return test::await<ApiReply>([&](Callback<ApiReply> done) { client.call(std::move(call), done, ok); }, 30000);
}
} // namespace

class TestCloudClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void serviceUrls_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("normalised");
        QTest::newRow("https") << "https://api.e2b.app" << true << "https://api.e2b.app";
        QTest::newRow("https path slash") << "https://app.daytona.io/api/" << true << "https://app.daytona.io/api";
        QTest::newRow("http loopback") << "http://127.0.0.1:8080" << true << "http://127.0.0.1:8080";
        QTest::newRow("http localhost") << "http://localhost:9/x" << true << "http://localhost:9/x";
        QTest::newRow("http ::1") << "http://[::1]:80" << true << "http://[::1]:80";
        QTest::newRow("http remote") << "http://api.e2b.app" << false << "";
        QTest::newRow("http lan") << "http://192.0.2.10" << false << "";
        QTest::newRow("ftp") << "ftp://example.com" << false << "";
        QTest::newRow("empty") << "" << false << "";
        QTest::newRow("garbage") << "::::" << false << "";
        QTest::newRow("no host") << "https://" << false << "";
        QTest::newRow("user info") << "https://k:s@api.e2b.app" << false << "";
        QTest::newRow("query") << "https://api.e2b.app/?key=1" << false << "";
    }
    void serviceUrls()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, normalised);
        auto r = parseServiceUrl(text, QStringLiteral("API URL"));
        QCOMPARE(r.ok(), ok);
        if (ok)
            QCOMPARE(r->toString(), normalised);
        else
            QVERIFY(r.message().contains(QLatin1String("API URL")));
    }

    void retryAfter_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<qint64>("ms"); // -1: absent
        QTest::newRow("seconds") << QByteArray("3") << qint64(3000);
        QTest::newRow("zero") << QByteArray("0") << qint64(0);
        QTest::newRow("spaces") << QByteArray(" 2 ") << qint64(2000);
        QTest::newRow("date") << QByteArray("Tue, 01 Dec 2026 00:00:10 GMT") << qint64(10000);
        QTest::newRow("past date") << QByteArray("Wed, 01 Dec 2026 00:00:00 GMT") << qint64(0);
        QTest::newRow("negative") << QByteArray("-5") << qint64(-1);
        QTest::newRow("empty") << QByteArray() << qint64(-1);
        QTest::newRow("garbage") << QByteArray("soon") << qint64(-1);
    }
    void retryAfter()
    {
        QFETCH(QByteArray, value);
        QFETCH(qint64, ms);
        const QDateTime now = QDateTime(QDate(2026, 12, 1), QTime(0, 0, 0), Qt::UTC);
        const auto got = parseRetryAfterMs(value, now);
        QCOMPARE(got.has_value(), ms >= 0);
        if (ms >= 0)
            QCOMPARE(*got, ms);
    }

    void decisions_data()
    {
        QTest::addColumn<int>("attempt");
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("connectFailed");
        QTest::addColumn<bool>("lost");
        QTest::addColumn<bool>("idempotent");
        QTest::addColumn<QByteArray>("retryAfter");
        QTest::addColumn<bool>("retry");
        QTest::addColumn<qint64>("minDelay");
        QTest::newRow("429 post honours Retry-After")
            << 1 << 429 << false << false << false << QByteArray("2") << true << qint64(2000);
        QTest::newRow("503 post") << 1 << 503 << false << false << false << QByteArray() << true << qint64(300);
        QTest::newRow("500 get") << 1 << 500 << false << false << true << QByteArray() << true << qint64(300);
        QTest::newRow("500 post") << 1 << 500 << false << false << false << QByteArray() << false << qint64(0);
        QTest::newRow("reset get") << 2 << 0 << false << true << true << QByteArray() << true << qint64(600);
        QTest::newRow("reset post") << 1 << 0 << false << true << false << QByteArray() << false << qint64(0);
        QTest::newRow("refused post") << 1 << 0 << true << false << false << QByteArray() << true << qint64(300);
        QTest::newRow("404") << 1 << 404 << false << false << true << QByteArray() << false << qint64(0);
        QTest::newRow("401") << 1 << 401 << false << false << true << QByteArray() << false << qint64(0);
        QTest::newRow("last attempt") << 4 << 503 << false << false << true << QByteArray() << false << qint64(0);
        QTest::newRow("Retry-After too long")
            << 1 << 429 << false << false << true << QByteArray("3600") << false << qint64(0);
    }
    void decisions()
    {
        QFETCH(int, attempt);
        QFETCH(int, status);
        QFETCH(bool, connectFailed);
        QFETCH(bool, lost);
        QFETCH(bool, idempotent);
        QFETCH(QByteArray, retryAfter);
        QFETCH(bool, retry);
        QFETCH(qint64, minDelay);
        AttemptOutcome o{status, connectFailed, lost, retryAfter};
        const RetryDecision d =
            decideRetry(RetryPolicy{}, attempt, o, idempotent, QDateTime::currentDateTimeUtc(), 0.0);
        QCOMPARE(d.retry, retry);
        if (retry) {
            QVERIFY2(d.delayMs >= minDelay, qPrintable(QString::number(d.delayMs)));
            QVERIFY(d.delayMs <= qMax<qint64>(minDelay, RetryPolicy{}.maxDelayMs));
        }
    }

    void backoffGrowsAndCaps()
    {
        RetryPolicy p;
        QCOMPARE(p.backoffMs(1, 0), qint64(300));
        QCOMPARE(p.backoffMs(2, 0), qint64(600));
        QCOMPARE(p.backoffMs(3, 0.99), qint64(1200 * 1.2475));
        QCOMPARE(p.backoffMs(30, 0.5), p.maxDelayMs);
    }

    void httpErrors_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("401 e2b body") << 401 << QByteArray(R"({"code":401,"message":"Invalid API key"})")
                                      << int(ErrorCode::Unauthorized) << "Invalid API key";
        QTest::newRow("404 daytona body")
            << 404 << QByteArray(R"({"statusCode":404,"message":"Sandbox not found","error":"Not Found"})")
            << int(ErrorCode::NotFound) << "Sandbox not found";
        QTest::newRow("nested error") << 400 << QByteArray(R"({"error":{"message":"bad cpu"}})")
                                      << int(ErrorCode::InvalidArgument) << "bad cpu";
        QTest::newRow("429 empty") << 429 << QByteArray() << int(ErrorCode::LimitReached) << "429";
        QTest::newRow("502 html") << 502 << QByteArray("<html><body>Bad gateway</body></html>")
                                  << int(ErrorCode::Unavailable) << "502";
        QTest::newRow("409") << 409 << QByteArray("already paused") << int(ErrorCode::Conflict) << "already paused";
        QTest::newRow("507") << 507 << QByteArray() << int(ErrorCode::LimitReached) << "disk";
        QTest::newRow("truncated json") << 500 << QByteArray("{\"message\":\"bro") << int(ErrorCode::Unavailable)
                                        << "500";
    }
    void httpErrors()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(int, code);
        QFETCH(QString, mentions);
        const Error e = errorFromHttp(status, body, QStringLiteral("E2B"));
        QCOMPARE(int(e.code), code);
        QVERIFY2(e.message.contains(mentions), qPrintable(e.message));
        QVERIFY(e.message.contains(QLatin1String("E2B")));
        QVERIFY(!e.message.contains(QLatin1String("<html>")));
    }

    void retriesAfterRetryAfterThenSucceeds()
    {
        FakeServer server(FakeServer::Kind::Tcp);
        int requests = 0;
        QByteArray firstHead;
        server.onConnection = [&](FakeConn &c) {
            c.onHead = [&](FakeConn &conn) {
                ++requests;
                if (requests == 1) {
                    firstHead = conn.requestHead;
                    conn.send(reply(429, R"({"message":"slow down"})", "Retry-After: 1\r\n"));
                } else {
                    conn.send(reply(200, R"({"ok":true})"));
                }
            };
        };
        CloudClient client(optionsFor(server, false));
        ApiCall call;
        call.method = "POST";
        call.path = QStringLiteral("/sandboxes");
        call.body = "{}";
        call.idempotent = false;
        QElapsedTimer t;
        t.start();
        auto r = run(client, call);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.message()));
        QCOMPARE(requests, 2);
        QVERIFY2(t.elapsed() >= 950, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(r->body, QByteArray(R"({"ok":true})"));
        QVERIFY(firstHead.startsWith("POST /api/sandboxes HTTP/1.1"));
        QVERIFY(firstHead.contains("X-API-Key: sbtest-secret-cloudclient-123"));
        QVERIFY(firstHead.toLower().contains("content-type: application/json"));
    }

    // A Retry-After given as a date counts from the client's clock: a minute after the
    // ManualClock's now is past the 30 s the client waits for, so the 429 reaches the
    // caller at once. (On the system clock that 2025 date has passed and the call would
    // be tried four times.)
    void retryAfterDateCountsOnTheClientsClock()
    {
        FakeServer server(FakeServer::Kind::Tcp);
        test::ManualClock clock;
        const QByteArray date =
            QLocale::c()
                .toString(clock.currentDateTimeUtc().addSecs(60), QStringLiteral("ddd, dd MMM yyyy HH:mm:ss 'GMT'"))
                .toLatin1();
        int requests = 0;
        server.onConnection = [&](FakeConn &c) {
            c.onHead = [&](FakeConn &conn) {
                ++requests;
                conn.send(reply(429, R"({"message":"slow down"})", "Retry-After: " + date + "\r\n"));
            };
        };
        CloudClient::Options options = optionsFor(server, false);
        options.clock = &clock;
        CloudClient client(options);
        ApiCall call;
        call.path = QStringLiteral("/sandboxes");
        auto r = run(client, call);
        QVERIFY(!r.ok());
        QCOMPARE(r.code(), ErrorCode::LimitReached);
        QCOMPARE(requests, 1);
    }

    void serverErrorRetriedOnlyWhenIdempotent()
    {
        FakeServer server(FakeServer::Kind::Tcp);
        int requests = 0;
        server.onConnection = [&](FakeConn &c) {
            c.onHead = [&](FakeConn &conn) {
                ++requests;
                conn.send(requests == 1 ? reply(500, R"({"message":"boom"})") : reply(200, "[]"));
            };
        };
        CloudClient client(optionsFor(server, false));
        ApiCall get;
        get.path = QStringLiteral("/sandboxes");
        QVERIFY(run(client, get).ok());
        QCOMPARE(requests, 2);

        requests = 0;
        ApiCall post = get;
        post.method = "POST";
        post.idempotent = false;
        auto r = run(client, post);
        QVERIFY(!r.ok());
        QCOMPARE(requests, 1);
        QCOMPARE(r.code(), ErrorCode::Unavailable);
        QVERIFY2(r.message().contains(QLatin1String("boom")), qPrintable(r.message()));
    }

    void okStatusesAndJsonErrors()
    {
        FakeServer server(FakeServer::Kind::Tcp);
        QByteArray next;
        server.onConnection = [&](FakeConn &c) { c.onHead = [&](FakeConn &conn) { conn.send(next); }; };
        CloudClient client(optionsFor(server, false));
        ApiCall call;
        call.path = QStringLiteral("/x");
        next = reply(409, "{}");
        QVERIFY(run(client, call, {409}).ok());
        next = reply(200, "{\"a\":");
        auto j = test::await<QJsonDocument>([&](Callback<QJsonDocument> done) { client.callJson(call, done); });
        QVERIFY(!j.ok());
        QCOMPARE(j.code(), ErrorCode::Unavailable);
        QVERIFY2(j.message().contains(QLatin1String("not JSON")), qPrintable(j.message()));
        QVERIFY(!j.message().contains(QLatin1String("sbtest-secret-cloudclient-123")));
    }

    // collectPages follows each page's token (percent-encoded in the query) until a page has
    // none, and stops at maxPages when a server repeats its token.
    void pagesAreFollowedToTheEnd()
    {
        FakeServer server(FakeServer::Kind::Tcp);
        QByteArrayList targets;
        bool repeat = false;
        server.onConnection = [&](FakeConn &c) {
            c.onHead = [&](FakeConn &conn) {
                const QByteArray target = conn.requestHead.split(' ').value(1);
                targets << target;
                QByteArray body = R"({"items":[1,2],"next":"a b"})";
                if (!repeat && target.contains("cursor=a%20b"))
                    body = R"({"items":[3],"next":""})";
                conn.send(reply(200, body));
            };
        };
        CloudClient client(optionsFor(server, false));
        const auto parse = [](const QByteArray &body) -> Result<Page<int>> {
            const QJsonObject o = QJsonDocument::fromJson(body).object();
            Page<int> page;
            for (const QJsonValue &v : o.value(QStringLiteral("items")).toArray())
                page.items << v.toInt();
            page.next = o.value(QStringLiteral("next")).toString();
            return page;
        };
        ApiCall call;
        call.path = QStringLiteral("/list");
        call.query.addQueryItem(QStringLiteral("limit"), QStringLiteral("2"));
        QObject context;
        auto all = test::await<QList<int>>([&](Callback<QList<int>> done) {
            collectPages<int>(&client, call, QStringLiteral("cursor"), parse, &context, done);
        });
        QVERIFY_RESULT(all);
        QCOMPARE(all.value(), (QList<int>{1, 2, 3}));
        QCOMPARE(targets.size(), 2);
        QVERIFY(targets.last().contains("limit=2"));

        repeat = true;
        targets.clear();
        auto capped = test::await<QList<int>>([&](Callback<QList<int>> done) {
            collectPages<int>(&client, call, QStringLiteral("cursor"), parse, &context, done, 3);
        });
        QVERIFY_RESULT(capped);
        QCOMPARE(capped->size(), 6);
        QCOMPARE(targets.size(), 3);
    }

    void timeoutIsAClearError()
    {
        FakeServer server(FakeServer::Kind::Tcp);
        server.onConnection = [&](FakeConn &c) { c.onHead = [](FakeConn &) {}; }; // never answers
        auto options = optionsFor(server, false);
        options.retry.maxAttempts = 1;
        CloudClient client(options);
        ApiCall call;
        call.path = QStringLiteral("/slow");
        call.timeoutMs = 300;
        auto r = run(client, call);
        QVERIFY(!r.ok());
        QCOMPARE(r.code(), ErrorCode::Timeout);
        QVERIFY2(r.message().contains(QLatin1String("in time")), qPrintable(r.message()));
    }

    void refusedConnection()
    {
        quint16 port = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost));
            port = probe.serverPort();
        }
        CloudClient::Options o;
        o.service = QStringLiteral("Test service");
        o.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port));
        o.retry.baseDelayMs = 10;
        CloudClient client(o);
        ApiCall call;
        call.path = QStringLiteral("/x");
        auto r = run(client, call);
        QVERIFY(!r.ok());
        QCOMPARE(r.code(), ErrorCode::Unavailable);
        QVERIFY2(r.message().contains(QLatin1String("Cannot reach")), qPrintable(r.message()));
    }

    void tlsRefusedUntilTheAccountNamesItsCa()
    {
        FakeServer server(FakeServer::Kind::Tls);
        QVERIFY(server.listening());
        server.onConnection = [&](FakeConn &c) {
            c.onHead = [](FakeConn &conn) { conn.send(reply(200, R"({"ok":1})")); };
        };
        {
            CloudClient client(optionsFor(server, true));
            ApiCall call;
            call.path = QStringLiteral("/x");
            auto r = run(client, call);
            QVERIFY(!r.ok());
            QVERIFY2(r.message().contains(QLatin1String("certificate")), qPrintable(r.message()));
            QVERIFY2(r.message().contains(QLatin1String("CA file")), qPrintable(r.message()));
        }
        auto cas = loadCaFile(test::testData(QStringLiteral("tls/ca.pem")));
        QVERIFY(cas.ok());
        auto options = optionsFor(server, true);
        options.extraCaCertificates = cas.value();
        CloudClient client(options);
        ApiCall call;
        call.path = QStringLiteral("/x");
        auto r = run(client, call);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.message()));
        QCOMPARE(r->status, 200);

        auto other = loadCaFile(test::testData(QStringLiteral("tls/other-ca.pem")));
        QVERIFY(other.ok());
        auto wrong = optionsFor(server, true);
        wrong.extraCaCertificates = other.value();
        CloudClient wrongClient(wrong);
        QVERIFY(!run(wrongClient, call).ok());
    }

    void caFileErrors()
    {
        QVERIFY(!loadCaFile(QStringLiteral("/nonexistent/ca.pem")).ok());
        QTemporaryFile garbage;
        QVERIFY(garbage.open());
        garbage.write("not a certificate");
        garbage.flush();
        auto r = loadCaFile(garbage.fileName());
        QVERIFY(!r.ok());
        QVERIFY(r.message().contains(QLatin1String("no PEM")));
    }
};

QTEST_GUILESS_MAIN(TestCloudClient)
#include "tst_cloudclient.moc"
