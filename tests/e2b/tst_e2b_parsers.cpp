// E2B's JSON as Sandbar reads it: sandboxes (create reply, detail, listing), metrics, envd's
// process events and filesystem replies, each with empty, truncated and garbage input.

#include "providers/e2b/E2bParsers.h"
#include "providers/e2b/E2bProvider.h"

#include <QTest>

using namespace sandbar;
using namespace sandbar::e2b;

class TestE2bParsers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sandbox_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<bool>("ok");
        QTest::newRow("create reply")
            << QByteArray(R"({"sandboxID":"ib1","templateID":"base","clientID":"c","envdVersion":"0.2.0",)"
                          R"("envdAccessToken":"tok","domain":"e2b.app"})")
            << true;
        QTest::newRow("detail")
            << QByteArray(
                   R"({"sandboxID":"ib2","templateID":"t","alias":"base","clientID":"c","startedAt":"2026-12-01T10:00:00Z",)"
                   R"("endAt":"2026-12-01T11:00:00.5Z","cpuCount":2,"memoryMB":1024,"diskSizeMB":10240,"state":"paused",)"
                   R"("envdVersion":"0.2.0","metadata":{"dev.sandbar.app":"sandbar","dev.sandbar.name":"mine"},"allowInternetAccess":false})")
            << true;
        QTest::newRow("empty") << QByteArray() << false;
        QTest::newRow("truncated") << QByteArray("{\"sandboxID\":\"ib") << false;
        QTest::newRow("garbage") << QByteArray("\x01\x02<html>") << false;
        QTest::newRow("array") << QByteArray("[]") << false;
        QTest::newRow("no id") << QByteArray(R"({"templateID":"base"})") << false;
    }
    void sandbox()
    {
        QFETCH(QByteArray, json);
        QFETCH(bool, ok);
        auto r = parseSandbox(json);
        QCOMPARE(r.ok(), ok);
        if (!ok) {
            QCOMPARE(r.code(), ErrorCode::Unavailable);
            QVERIFY(r.message().contains(QLatin1String("E2B")));
            return;
        }
        QVERIFY(!r->raw.contains("envdAccessToken")); // the Info tab never shows a secret
    }

    void sessionMapping()
    {
        auto r = parseSandbox(
            R"({"sandboxID":"ib2","templateID":"t","alias":"base","startedAt":"2026-12-01T10:00:00Z",)"
            R"("endAt":"2026-12-01T11:00:00Z","cpuCount":2,"memoryMB":1024,"state":"paused",)"
            R"("metadata":{"dev.sandbar.app":"sandbar","dev.sandbar.name":"mine"},"envdAccessToken":"secret"})");
        QVERIFY(r.ok());
        QCOMPARE(r->envdAccessToken, QStringLiteral("secret"));
        const SessionInfo s = toSessionInfo(r.value(), QStringLiteral("acct"));
        QCOMPARE(s.id, QStringLiteral("ib2"));
        QCOMPARE(s.name, QStringLiteral("mine"));
        QCOMPARE(s.image, QStringLiteral("base"));
        QCOMPARE(s.state, SessionState::Paused);
        QVERIFY(s.statusText.contains(QLatin1String("not billed")));
        QCOMPARE(s.ttlSeconds, qint64(3600));
        QCOMPARE(s.cpus.value_or(0), 2.0);
        QCOMPARE(s.memoryBytes.value_or(0), qint64(1024) * 1024 * 1024);
        QVERIFY(s.owned);
        QCOMPARE(s.provider, QStringLiteral("e2b"));
        QVERIFY(!s.rawJson.contains("secret"));
    }

    void list_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("count"); // -1: error
        QTest::newRow("two") << QByteArray(
                                    R"([{"sandboxID":"a","state":"running"},{"sandboxID":"b","state":"paused"}])")
                             << 2;
        QTest::newRow("none") << QByteArray("[]") << 0;
        QTest::newRow("object") << QByteArray("{}") << -1;
        QTest::newRow("truncated") << QByteArray(R"([{"sandboxID":"a"},)") << -1;
        QTest::newRow("item without id") << QByteArray(R"([{"state":"running"}])") << -1;
        QTest::newRow("empty") << QByteArray("") << -1;
    }
    void list()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, count);
        auto r = parseSandboxList(json);
        QCOMPARE(r.ok(), count >= 0);
        if (count >= 0)
            QCOMPARE(r->size(), count);
    }

    void metrics_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("code"); // -1 ok
        QTest::addColumn<double>("cpu");
        QTest::newRow("latest of two")
            << QByteArray(
                   R"([{"timestampUnix":10,"cpuCount":2,"cpuUsedPct":10,"memUsed":1,"memTotal":2,"diskUsed":3,"diskTotal":4},)"
                   R"({"timestampUnix":20,"cpuCount":2,"cpuUsedPct":25.5,"memUsed":100,"memTotal":200,"diskUsed":5,"diskTotal":9}])")
            << -1 << 51.0;
        QTest::newRow("empty series") << QByteArray("[]") << int(ErrorCode::NotFound) << 0.0;
        QTest::newRow("empty") << QByteArray() << int(ErrorCode::Unavailable) << 0.0;
        QTest::newRow("garbage") << QByteArray("nope") << int(ErrorCode::Unavailable) << 0.0;
        QTest::newRow("object") << QByteArray("{}") << int(ErrorCode::Unavailable) << 0.0;
    }
    void metrics()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, code);
        QFETCH(double, cpu);
        auto r = parseMetrics(json);
        QCOMPARE(r.ok(), code < 0);
        if (!r.ok()) {
            QCOMPARE(int(r.code()), code);
            return;
        }
        QCOMPARE(r->cpuPercent.value_or(-1), cpu);
        QCOMPARE(r->memoryUsedBytes.value_or(-1), qint64(100));
        QCOMPARE(r->memoryLimitBytes.value_or(-1), qint64(200));
        QCOMPARE(r->filesystemUsedBytes.value_or(-1), qint64(5));
        QCOMPARE(r->filesystemTotalBytes.value_or(-1), qint64(9));
        QVERIFY(!r->networkRxBytes.has_value()); // E2B does not tell
    }

    void processEvents_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("kind"); // -1 error
        QTest::addColumn<QByteArray>("data");
        QTest::newRow("start") << QByteArray(R"({"event":{"start":{"pid":42}}})") << int(ProcessEvent::Kind::Start)
                               << QByteArray();
        QTest::newRow("pty data") << QByteArray(R"({"event":{"data":{"pty":"aGVsbG8="}}})")
                                  << int(ProcessEvent::Kind::Data) << QByteArray("hello");
        QTest::newRow("stderr") << QByteArray(R"({"event":{"data":{"stderr":"ZQ=="}}})")
                                << int(ProcessEvent::Kind::Data) << QByteArray("e");
        QTest::newRow("keepalive") << QByteArray(R"({"event":{"keepalive":{}}})") << int(ProcessEvent::Kind::Keepalive)
                                   << QByteArray();
        QTest::newRow("end") << QByteArray(R"({"event":{"end":{"exitCode":3,"exited":true,"status":"exit status 3"}}})")
                             << int(ProcessEvent::Kind::End) << QByteArray();
        QTest::newRow("end zero omitted")
            << QByteArray(R"({"event":{"end":{"exited":true}}})") << int(ProcessEvent::Kind::End) << QByteArray();
        QTest::newRow("bad base64") << QByteArray(R"({"event":{"data":{"pty":"!!!"}}})") << -1 << QByteArray();
        QTest::newRow("no event") << QByteArray(R"({"other":1})") << -1 << QByteArray();
        QTest::newRow("empty") << QByteArray() << -1 << QByteArray();
        QTest::newRow("truncated") << QByteArray("{\"event\":{\"da") << -1 << QByteArray();
        QTest::newRow("future event") << QByteArray(R"({"event":{"somethingNew":{}}})")
                                      << int(ProcessEvent::Kind::Unknown) << QByteArray();
    }
    void processEvents()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, kind);
        QFETCH(QByteArray, data);
        auto r = parseProcessEvent(json);
        QCOMPARE(r.ok(), kind >= 0);
        if (!r.ok())
            return;
        QCOMPARE(int(r->kind), kind);
        QCOMPARE(r->data, data);
        if (r->kind == ProcessEvent::Kind::Start)
            QCOMPARE(r->pid, qint64(42));
        if (QByteArray(QTest::currentDataTag()) == "end")
            QCOMPARE(r->exitCode, 3);
        if (QByteArray(QTest::currentDataTag()) == "stderr")
            QCOMPARE(r->stream, 2);
    }

    void listDir()
    {
        auto r = parseListDir(
            R"({"entries":[{"name":"a","type":"FILE_TYPE_FILE","path":"/home/user/a","size":"12","mode":420,)"
            R"("modifiedTime":"2026-12-01T10:00:00Z"},{"name":"d","type":"FILE_TYPE_DIRECTORY","path":"/home/user/d"},)"
            R"({"name":"l","type":"FILE_TYPE_SYMLINK","path":"/home/user/l","symlinkTarget":"/etc"}]})");
        QVERIFY(r.ok());
        QCOMPARE(r->size(), 3);
        QCOMPARE(r->at(0).size, qint64(12));
        QCOMPARE(r->at(0).mode, quint32(0644));
        QVERIFY(r->at(0).modified.isValid());
        QVERIFY(r->at(1).isDir);
        QVERIFY(r->at(2).isLink);
        QCOMPARE(r->at(2).linkTarget, QStringLiteral("/etc"));
        QVERIFY(parseListDir("{}").ok()); // an empty folder: entries omitted
        QVERIFY(!parseListDir("").ok());
        QVERIFY(!parseListDir("[1]").ok());
        QVERIFY(!parseListDir(R"({"entries":[)").ok());
        QVERIFY(parseEntryReply(R"({"entry":{"name":"x","type":"FILE_TYPE_DIRECTORY"}})")->isDir);
        QVERIFY(!parseEntryReply("{}").ok());
    }

    void processList()
    {
        auto r =
            parseProcessList(R"({"processes":[{"config":{"cmd":"/bin/bash","args":["-i","-l"]},"pid":7,"tag":"t"}]})");
        QVERIFY(r.ok());
        QCOMPARE(r->size(), 1);
        QCOMPARE(r->first().pid, qint64(7));
        QCOMPARE(r->first().args, (QStringList{QStringLiteral("-i"), QStringLiteral("-l")}));
        QVERIFY(!parseProcessList("garbage").ok());
    }

    void connectErrors()
    {
        const Error e = connectUnaryError(404, R"({"code":"not_found","message":"process with pid 9 not found"})",
                                          QStringLiteral("E2B envd"));
        QCOMPARE(e.code, ErrorCode::NotFound);
        QVERIFY(e.message.contains(QLatin1String("pid 9")));
        QCOMPARE(connectUnaryError(401, R"({"code":"unauthenticated","message":"x"})", QStringLiteral("E")).code,
                 ErrorCode::Unauthorized);
        QCOMPARE(connectUnaryError(502, "<html>", QStringLiteral("E")).code, ErrorCode::Unavailable);
    }

    void metadataFilterEncodes()
    {
        const QString f = metadataFilter({{QStringLiteral("dev.sandbar.app"), QStringLiteral("sandbar")},
                                          {QStringLiteral("k&=x"), QStringLiteral("a b")}});
        QCOMPARE(f, QStringLiteral("dev.sandbar.app=sandbar&k%26%3Dx=a%20b"));
    }

    void timeoutClamp()
    {
        auto [t1, n1] = E2bProvider::clampTimeout(600, 3600);
        QCOMPARE(t1, qint64(600));
        QVERIFY(n1.isEmpty());
        auto [t2, n2] = E2bProvider::clampTimeout(7200, 3600);
        QCOMPARE(t2, qint64(3600));
        QVERIFY(n2.contains(QLatin1String("60 minutes")));
        auto [t3, n3] = E2bProvider::clampTimeout(0, 86400);
        QCOMPARE(t3, qint64(86400));
        QVERIFY(!n3.isEmpty()); // "no limit" is not something E2B offers, and the note says so
    }
};

QTEST_GUILESS_MAIN(TestE2bParsers)
#include "tst_e2b_parsers.moc"
