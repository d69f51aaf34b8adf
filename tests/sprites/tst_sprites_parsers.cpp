// SpritesParsers against the replies and frames @fly/sprites 0.1.0 reads, table-driven, with
// empty, truncated and garbage input.
#include "TestSupport.h"
#include "cloud/PolledStats.h"
#include "providers/sprites/SpritesParsers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>
#include <QTimeZone>

using namespace sandbar;
using namespace sandbar::sprites;

#ifndef Q_MOC_RUN
namespace {
const char kSprite[] =
    R"j({"id":"sprite-1","name":"dev","organization":"acme","status":"cold",
"config":{"ram_mb":4096,"cpus":8,"region":"ord","storage_gb":100},"environment":{"A":"1"},
"created_at":"2026-12-07T10:00:00Z","updated_at":"2026-12-07T10:00:01Z","url":"https:\/\/dev-acme.sprites.app",
"url_settings":{"auth":"public"},
"labels":["sandbar=work","sandbar-token=tok-1","sandbar-ttl=600","sandbar-agent=claude 1.0","team=infra","bare"]})j";
const char kList[] =
    R"j({"sprites":[{"name":"a","status":"running","labels":["sandbar=work"]},{"status":"warm"},"x",
{"name":"b","status":"warm","labels":[1,"k=v"],"url":"javascript:alert(1)"}],
"has_more":true,"next_continuation_token":"b","running":1,"warm":1,"cold":0,"name":"acme"})j";
const char kLastPage[] = R"j({"sprites":[],"has_more":false,"next_continuation_token":"ignored"})j";
const char kSessions[] =
    R"j({"sessions":[{"id":12,"command":"bash -l","workdir":"/home/sprite","created":"2026-12-07T10:00:00Z",
"bytes_per_second":0,"is_active":true,"tty":true},{"id":"13","command":"sleep 9","is_active":false,"tty":false},
{"command":"no id"}]})j";
const char kFs[] =
    R"j({"path":"/home/sprite","entries":[{"name":"a b","path":"/home/sprite/a b","type":"file","size":3,
"mode":"0755","modTime":"2026-12-07T10:00:00Z","isDir":false},{"name":"d","type":"directory","size":4096,
"mode":"0700","modTime":"2026-12-07T10:00:00Z","isDir":true},{"name":"l","type":"symlink","mode":"zz","isDir":false},
{"name":"../etc","isDir":false},{"name":"","isDir":false},{"name":"x/y"}]})j";
} // namespace
#endif

class TestSpritesParsers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sprite()
    {
        auto r = parseSprite(kSprite, QStringLiteral("work"), QStringLiteral("sprites"));
        QVERIFY_RESULT(r);
        const SessionInfo &s = r->info;
        QCOMPARE(s.id, QStringLiteral("dev"));
        QCOMPARE(s.provider, QStringLiteral("sprites"));
        // Cold is asleep, not stopped: a terminal wakes it, and only storage is billed.
        QCOMPARE(s.state, SessionState::Running);
        QVERIFY(s.asleep);
        QCOMPARE(s.cpus.value_or(0), 8.0);
        QCOMPARE(s.memoryBytes.value_or(0), qint64(4096) * 1024 * 1024);
        QVERIFY(s.owned);
        QCOMPARE(s.labels.value(QLatin1String(labels::Account)), QStringLiteral("work"));
        QCOMPARE(s.labels.value(QLatin1String(labels::Agent)), QStringLiteral("claude 1.0"));
        QCOMPARE(s.labels.value(QStringLiteral("team")), QStringLiteral("infra"));
        QVERIFY(s.labels.contains(QStringLiteral("bare")));
        QCOMPARE(r->token, QStringLiteral("tok-1"));
        QCOMPARE(s.ttlSeconds, qint64(600));
        QCOMPARE(s.expiresAt, QDateTime(QDate(2026, 12, 7), QTime(10, 10), QTimeZone::utc()));
        QCOMPARE(s.endpoints.size(), 1);
        QCOMPARE(s.endpoints.first().url, QStringLiteral("https://dev-acme.sprites.app"));
        QVERIFY(!s.rawJson.isEmpty());
    }

    void spriteStates_data()
    {
        QTest::addColumn<QString>("status");
        QTest::addColumn<SessionState>("state");
        QTest::addColumn<bool>("asleep");
        QTest::newRow("running") << "running" << SessionState::Running << false;
        QTest::newRow("warm") << "warm" << SessionState::Running << true;
        QTest::newRow("cold") << "cold" << SessionState::Running << true;
        QTest::newRow("unknown word") << "exploded" << SessionState::Unknown << false;
        QTest::newRow("empty") << "" << SessionState::Unknown << false;
    }
    void spriteStates()
    {
        QFETCH(QString, status);
        QFETCH(SessionState, state);
        QFETCH(bool, asleep);
        const QByteArray json = QJsonDocument(QJsonObject{{QStringLiteral("name"), QStringLiteral("s")},
                                                          {QStringLiteral("status"), status}})
                                    .toJson();
        auto r = parseSprite(json, QStringLiteral("a"), QStringLiteral("sprites"));
        QVERIFY(r.ok());
        QCOMPARE(r->info.state, state);
        QCOMPARE(r->info.asleep, asleep);
        QVERIFY(!r->info.owned);
    }

    void badReplies_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("truncated") << QByteArray(kSprite).left(60);
        QTest::newRow("garbage") << QByteArray("\x00\xff<html>", 8);
        QTest::newRow("array") << QByteArray("[]");
        QTest::newRow("no name") << QByteArray(R"({"status":"cold"})");
    }
    void badReplies()
    {
        QFETCH(QByteArray, json);
        QVERIFY(!parseSprite(json, QStringLiteral("a"), QStringLiteral("sprites")).ok());
        QVERIFY(!parseSpriteList(json, QStringLiteral("a"), QStringLiteral("sprites")).ok());
        QVERIFY(!parseFsList(json, QStringLiteral("/")).ok() || json.startsWith('{'));
    }

    void list()
    {
        auto r = parseSpriteList(kList, QStringLiteral("work"), QStringLiteral("sprites"));
        QVERIFY(r.ok());
        QCOMPARE(r->items.size(), 2); // one without a name, one not an object
        QCOMPARE(r->next, QStringLiteral("b"));
        // An address that is not a web page is not offered to Open.
        QVERIFY(r->items.at(1).info.endpoints.isEmpty());
        QCOMPARE(r->items.at(1).info.labels.value(QStringLiteral("k")), QStringLiteral("v"));
        auto last = parseSpriteList(kLastPage, QStringLiteral("work"), QStringLiteral("sprites"));
        QVERIFY(last.ok());
        QVERIFY(last->next.isEmpty()); // has_more false ends the paging, whatever the token says
    }

    void sessions()
    {
        auto r = parseSessionList(kSessions);
        QVERIFY(r.ok());
        QCOMPARE(r->size(), 2);
        QCOMPARE(r->at(0).id, QStringLiteral("12"));
        QVERIFY(r->at(0).tty && r->at(0).active);
        QCOMPARE(r->at(1).id, QStringLiteral("13"));
        QVERIFY(!r->at(1).active);
        QVERIFY(parseSessionList(R"({"sessions":null})").ok());
        QVERIFY(!parseSessionList("").ok());
        QVERIFY(!parseSessionList(R"({"sessions":)").ok());
        QVERIFY(!parseSessionList(R"({"sessions":"x"})").ok());
    }

    void files()
    {
        auto r = parseFsList(kFs, QStringLiteral("/home/sprite"));
        QVERIFY(r.ok());
        QCOMPARE(r->size(), 3); // "..", "" and "x/y" are not children of the folder
        QCOMPARE(r->at(0).path, QStringLiteral("/home/sprite/a b"));
        QCOMPARE(r->at(0).mode, 0755u);
        QCOMPARE(r->at(0).size, qint64(3));
        QVERIFY(r->at(1).isDir);
        QVERIFY(r->at(2).isLink);
        QCOMPARE(r->at(2).mode, 0u);
        QVERIFY(!parseFsList(R"({"entries":{}})", QStringLiteral("/")).ok());
    }

    void execFrames_data()
    {
        QTest::addColumn<QByteArray>("frame");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<int>("code");
        QTest::newRow("stdout") << QByteArray("\x01hi", 3) << int(ExecFrame::Kind::Stdout) << QByteArray("hi") << 0;
        QTest::newRow("stderr") << QByteArray("\x02", 1) << int(ExecFrame::Kind::Stderr) << QByteArray() << 0;
        QTest::newRow("exit 7") << QByteArray("\x03\x07", 2) << int(ExecFrame::Kind::Exit) << QByteArray() << 7;
        QTest::newRow("exit 255") << QByteArray("\x03\xff", 2) << int(ExecFrame::Kind::Exit) << QByteArray() << 255;
        QTest::newRow("exit bare") << QByteArray("\x03", 1) << int(ExecFrame::Kind::Exit) << QByteArray() << 0;
        QTest::newRow("empty") << QByteArray() << int(ExecFrame::Kind::Ignored) << QByteArray() << 0;
        QTest::newRow("stdin echo") << QByteArray("\x00x", 2) << int(ExecFrame::Kind::Ignored) << QByteArray() << 0;
        QTest::newRow("garbage") << QByteArray("\xfe\xff", 2) << int(ExecFrame::Kind::Ignored) << QByteArray() << 0;
    }
    void execFrames()
    {
        QFETCH(QByteArray, frame);
        QFETCH(int, kind);
        QFETCH(QByteArray, data);
        QFETCH(int, code);
        const ExecFrame f = parseExecFrame(frame);
        QCOMPARE(int(f.kind), kind);
        QCOMPARE(f.data, data);
        QCOMPARE(f.exitCode, code);
    }

    void outgoingFrames()
    {
        QCOMPARE(stdinFrame("ab"), QByteArray("\x00"
                                              "ab",
                                              3));
        QCOMPARE(stdinEofFrame(), QByteArray("\x04", 1));
        const QJsonObject resize = QJsonDocument::fromJson(resizeText(0, 5000).toUtf8()).object();
        QCOMPARE(resize.value(QStringLiteral("type")).toString(), QStringLiteral("resize"));
        QCOMPARE(resize.value(QStringLiteral("cols")).toInt(), 1);
        QCOMPARE(resize.value(QStringLiteral("rows")).toInt(), 1000);
    }

    void control()
    {
        auto info = parseControl(QStringLiteral(R"({"type":"session_info","session_id":41,"tty":true})"));
        QVERIFY(info);
        QCOMPARE(info->sessionId, QStringLiteral("41"));
        auto exit = parseControl(QStringLiteral(R"({"type":"exit","exit_code":3})"));
        QVERIFY(exit && exit->kind == ControlMessage::Kind::Exit);
        QCOMPARE(exit->exitCode, 3);
        auto port = parseControl(QStringLiteral(R"({"type":"port_opened","port":8080,"address":"0.0.0.0"})"));
        QVERIFY(port && port->kind == ControlMessage::Kind::PortOpened);
        QCOMPARE(port->port, 8080);
        QVERIFY(!parseControl(QStringLiteral(R"({"type":"port_closed","port":70000})")));
        QVERIFY(!parseControl(QStringLiteral(R"({"type":"pong"})")));
        QVERIFY(!parseControl(QString()));
        QVERIFY(!parseControl(QStringLiteral("{\"type\":")));
    }

    void query()
    {
        const QUrlQuery q = execQuery({QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo a&b=c")},
                                      {QStringLiteral("K=V 1")}, QStringLiteral("/home/sprite"), true, 100, 30);
        QUrl url(QStringLiteral("http://127.0.0.1/v1/sprites/x/exec"));
        url.setQuery(q);
        const QUrlQuery back(url);
        QCOMPARE(back.allQueryItemValues(QStringLiteral("cmd"), QUrl::FullyDecoded),
                 (QStringList{QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo a&b=c")}));
        QCOMPARE(back.queryItemValue(QStringLiteral("path"), QUrl::FullyDecoded), QStringLiteral("sh"));
        QCOMPARE(back.queryItemValue(QStringLiteral("env"), QUrl::FullyDecoded), QStringLiteral("K=V 1"));
        QCOMPARE(back.queryItemValue(QStringLiteral("tty")), QStringLiteral("true"));
        QCOMPARE(back.queryItemValue(QStringLiteral("cols")), QStringLiteral("100"));
        QCOMPARE(back.queryItemValue(QStringLiteral("stdin")), QStringLiteral("true"));
        const QUrlQuery plain = execQuery({QStringLiteral("true")}, {}, {}, false, 0, 0);
        QVERIFY(!plain.hasQueryItem(QStringLiteral("tty")));
    }

    void errors()
    {
        QCOMPARE(errorMessage(R"({"error":"sprite_not_found","message":"no such sprite"})"),
                 QStringLiteral("no such sprite"));
        QCOMPARE(errorMessage(R"({"error":"file not found","code":"ENOENT"})"), QStringLiteral("file not found"));
        QVERIFY(errorMessage("").isEmpty());
        QVERIFY(errorMessage("<html>").isEmpty());
    }

    void createBodies()
    {
        CreateSpec spec;
        spec.cpus = 1.5;
        spec.memoryBytes = qint64(2) * 1024 * 1024 * 1024;
        spec.ttlSeconds = 900;
        spec.env = {QStringLiteral("A=1"), QStringLiteral("BROKEN")};
        spec.labels = {{QStringLiteral("team"), QStringLiteral("x")},
                       {QLatin1String(labels::Agent), QStringLiteral("c")}};
        spec.options.insert(QStringLiteral("region"), QStringLiteral("fra"));
        const QJsonObject b = createBody(spec, QStringLiteral("dev"), QStringLiteral("work"), QStringLiteral("t"));
        QCOMPARE(b.value(QStringLiteral("name")).toString(), QStringLiteral("dev"));
        const QJsonObject config = b.value(QStringLiteral("config")).toObject();
        QCOMPARE(config.value(QStringLiteral("cpus")).toInt(), 2);
        QCOMPARE(config.value(QStringLiteral("ram_mb")).toInt(), 2048);
        QCOMPARE(config.value(QStringLiteral("region")).toString(), QStringLiteral("fra"));
        QCOMPARE(b.value(QStringLiteral("environment")).toObject().size(), 1);
        const QStringList labelList = [&] {
            QStringList l;
            for (const QJsonValue &v : b.value(QStringLiteral("labels")).toArray())
                l << v.toString();
            return l;
        }();
        QVERIFY(labelList.contains(QStringLiteral("sandbar=work")));
        QVERIFY(labelList.contains(QStringLiteral("sandbar-token=t")));
        QVERIFY(labelList.contains(QStringLiteral("sandbar-ttl=900")));
        QVERIFY(labelList.contains(QStringLiteral("sandbar-agent=c")));
        QVERIFY(labelList.contains(QStringLiteral("team=x")));
        // The sprite's URL needs the token unless the person makes it public.
        QCOMPARE(b.value(QStringLiteral("url_settings")).toObject().value(QStringLiteral("auth")).toString(),
                 QStringLiteral("sprite"));
        QCOMPARE(denyAllPolicy().value(QStringLiteral("rules")).toArray().size(), 1);
    }

    void ttlLabels()
    {
        auto r = parseSprite(kSprite, QStringLiteral("work"), QStringLiteral("sprites"));
        QVERIFY(r.ok());
        const QStringList with = labelsWithTtl(r.value(), 60);
        QCOMPARE(with.filter(QStringLiteral("sandbar-ttl=")), QStringList{QStringLiteral("sandbar-ttl=60")});
        QVERIFY(with.contains(QStringLiteral("team=infra")));
        QVERIFY(labelsWithTtl(r.value(), 0).filter(QStringLiteral("sandbar-ttl")).isEmpty());
    }

    void resources()
    {
        QCOMPARE(resourcesPolicy(qint64(1536) * 1024 * 1024 + 1)
                     .value(QStringLiteral("memory"))
                     .toObject()
                     .value(QStringLiteral("limit_mb"))
                     .toInt(),
                 1537); // rounded up: never less than asked for
        QCOMPARE(memoryLimit(R"({"memory":{"limit_mb":2048,"autoscale":false}})").value_or(0),
                 qint64(2048) * 1024 * 1024);
        QVERIFY(!memoryLimit(R"({})"));
        QVERIFY(!memoryLimit(R"({"memory":{"limit_mb":-1}})"));
        QVERIFY(!memoryLimit(R"({"memory":{"limit_mb":1e300}})"));
        QVERIFY(!memoryLimit(""));
    }

    // The VM's own /proc, as the stats command reads it.
    void procReadings_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("hasCpu");
        QTest::addColumn<int>("cpus");
        QTest::addColumn<qint64>("used");
        QTest::newRow("both") << QByteArray("cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 50 0 25 400 25 0 0 0\n"
                                            "cpu1 50 0 25 400 25 0 0 0\nintr 1\nMemTotal:  1000 kB\n"
                                            "MemFree: 10 kB\nMemAvailable:   400 kB\n")
                              << true << 2 << qint64(600 * 1024);
        QTest::newRow("empty") << QByteArray() << false << 0 << qint64(-1);
        QTest::newRow("truncated") << QByteArray("cpu  100 0") << false << 0 << qint64(-1);
        QTest::newRow("garbage") << QByteArray("cpu x y z w\nMemTotal: lots kB\n\xff\xfe") << false << 0 << qint64(-1);
        QTest::newRow("available above total")
            << QByteArray("MemTotal: 10 kB\nMemAvailable: 20 kB\n") << false << 0 << qint64(-1);
    }
    void procReadings()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, hasCpu);
        QFETCH(int, cpus);
        QFETCH(qint64, used);
        const cloud::ProcReading r = cloud::parseProcReading(text);
        QCOMPARE(r.totalTicks.has_value(), hasCpu);
        QCOMPARE(r.cpus, cpus);
        QCOMPARE(r.memoryUsedBytes.value_or(-1), used);
    }
    void cpuRates()
    {
        cloud::ProcReading a = cloud::parseProcReading("cpu 100 0 0 900 0\ncpu0 1\ncpu1 1\n");
        cloud::ProcReading b = cloud::parseProcReading("cpu 150 0 0 950 0\ncpu0 1\ncpu1 1\n");
        // Half of all the ticks busy on two CPUs is one core's worth.
        QCOMPARE(cloud::cpuPercentBetween(a, b).value_or(-1), 100.0);
        QVERIFY(!cloud::cpuPercentBetween(b, a)); // backwards: a reboot
        QVERIFY(!cloud::cpuPercentBetween(a, a)); // no time passed
        QVERIFY(!cloud::cpuPercentBetween(cloud::ProcReading{}, b));
    }

    void checkpoints()
    {
        auto r = parseCheckpointList(
            R"j([{"id":"v1","create_time":"2026-12-07T10:00:00Z","comment":"a"},{"id":"Current","create_time":"2026-12-07T12:00:00Z"},
{"id":"v2","create_time":"2026-12-07T11:00:00Z","is_auto":true},{"comment":"no id"},"x"])j");
        QVERIFY_RESULT(r);
        QCOMPARE(r->size(), 2);
        QCOMPARE(r->first().id, QStringLiteral("v2")); // newest first, whatever the order sent
        QCOMPARE(r->at(1).comment, QStringLiteral("a"));
        QVERIFY(!parseCheckpointList("").ok());
        QVERIFY(!parseCheckpointList(R"({"checkpoints":[]})").ok());
        QVERIFY(!parseCheckpointList("[{\"id\":").ok());
    }

    void progressLines()
    {
        auto info = parseStreamMessage(R"({"type":"info","data":"Saving filesystem state","time":"x"})");
        QVERIFY_RESULT(info);
        QCOMPARE(info->text, QStringLiteral("Saving filesystem state"));
        QVERIFY(!info->failed);
        auto error = parseStreamMessage(R"({"type":"error","error":"disk full"})");
        QVERIFY_RESULT(error);
        QVERIFY(error->failed);
        QCOMPARE(error->text, QStringLiteral("disk full"));
        auto bare = parseStreamMessage(R"({"type":"error"})");
        QVERIFY_RESULT(bare);
        QVERIFY(bare->failed && !bare->text.isEmpty());
        QVERIFY(!parseStreamMessage("").ok());
        QVERIFY(!parseStreamMessage("{\"type\":").ok());
        QVERIFY(!parseStreamMessage("[1]").ok());
    }

    void names()
    {
        QCOMPARE(spriteName(QStringLiteral("dev-1")), QStringLiteral("dev-1"));
        const QString made = spriteName(QStringLiteral("My Sprite!"));
        QVERIFY2(made.startsWith(QStringLiteral("my-sprite-")), qPrintable(made));
        QVERIFY(QRegularExpression(QStringLiteral("^[a-z0-9][a-z0-9-]{0,62}$")).match(made).hasMatch());
        QVERIFY(spriteName(QString()).startsWith(QStringLiteral("sandbar-")));
        QVERIFY(spriteName(QString(200, QLatin1Char('a'))).size() <= 63);
    }
};

QTEST_GUILESS_MAIN(TestSpritesParsers)
#include "tst_sprites_parsers.moc"
