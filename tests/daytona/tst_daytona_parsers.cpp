// Daytona's JSON as Sandbar reads it: DTOs, listings, PTY frames, telemetry, files, errors.
#include "cloud/PolledStats.h"
#include "providers/Provider.h"
#include "providers/daytona/DaytonaFactory.h"
#include "providers/daytona/DaytonaJobs.h"
#include "providers/daytona/DaytonaParsers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace sandbar;
using namespace sandbar::daytona;

namespace {
const QString kAccount = QStringLiteral("acct");
const QString kProvider = QStringLiteral("daytona");

QByteArray sandboxJson(const QString &state = QStringLiteral("started"))
{
    return QByteArrayLiteral("{\"id\":\"sb-1\",\"name\":\"box\",\"organizationId\":\"o\",\"snapshot\":\"daytona-"
                             "small\",\"user\":\"daytona\", "
                             "\"env\":{},\"labels\":{\"dev.sandbar.app\":\"sandbar\",\"dev.sandbar.account\":\"acct\","
                             "\"dev.sandbar.name\":\"My box\", "
                             "\"dev.sandbar.created\":\"2026-01-01T00:00:00Z\",\"dev.sandbar.ttl\":\"3600\",\"dev."
                             "sandbar.token\":\"tok\"}, "
                             "\"public\":false,\"networkBlockAll\":true,\"target\":\"us\",\"cpu\":2,\"gpu\":0,"
                             "\"memory\":4,\"disk\":10,\"state\":\"") +
           state.toUtf8() +
           QByteArrayLiteral("\",\"errorReason\":\"\",\"toolboxProxyUrl\":\"https://proxy.app.daytona.io/toolbox\", "
                             "\"createdAt\":\"2026-01-01T00:00:05.000Z\"}");
}
} // namespace

class TestDaytonaParsers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void states_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<int>("state");
        QTest::newRow("started") << "started" << int(SessionState::Running);
        QTest::newRow("creating") << "creating" << int(SessionState::Creating);
        QTest::newRow("pulling") << "pulling_snapshot" << int(SessionState::Creating);
        QTest::newRow("stopping") << "stopping" << int(SessionState::Stopping);
        QTest::newRow("stopped") << "stopped" << int(SessionState::Paused);
        QTest::newRow("archived") << "archived" << int(SessionState::Paused);
        QTest::newRow("paused") << "paused" << int(SessionState::Paused);
        QTest::newRow("error") << "error" << int(SessionState::Error);
        QTest::newRow("build_failed") << "build_failed" << int(SessionState::Error);
        QTest::newRow("resizing") << "resizing" << int(SessionState::Unknown);
        QTest::newRow("empty") << "" << int(SessionState::Unknown);
        QTest::newRow("garbage") << "zzz" << int(SessionState::Unknown);
    }
    void states()
    {
        QFETCH(QString, word);
        QFETCH(int, state);
        QCOMPARE(int(stateFromDaytona(word)), state);
    }

    void sandbox()
    {
        auto r = parseSandboxJson(sandboxJson(), kAccount, kProvider);
        QVERIFY(r.ok());
        const SessionInfo &s = r->info;
        QCOMPARE(s.id, QStringLiteral("sb-1"));
        QCOMPARE(s.name, QStringLiteral("My box"));
        QCOMPARE(s.account, kAccount);
        QCOMPARE(s.provider, kProvider);
        QCOMPARE(s.state, SessionState::Running);
        QVERIFY(s.owned);
        QCOMPARE(*s.cpus, 2.0);
        QCOMPARE(*s.memoryBytes, 4 * kGiB);
        QCOMPARE(*r->diskBytes, 10 * kGiB);
        QCOMPARE(s.gpus, 0);
        QVERIFY(!s.network);
        QCOMPARE(s.image, QStringLiteral("daytona-small"));
        QCOMPARE(s.created, QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC));
        QCOMPARE(s.ttlSeconds, 3600);
        QCOMPARE(s.expiresAt, QDateTime(QDate(2026, 1, 1), QTime(1, 0), Qt::UTC));
        QCOMPARE(r->deadline, s.expiresAt);
        QCOMPARE(r->token, QStringLiteral("tok"));
        QCOMPARE(r->toolboxProxyUrl, QStringLiteral("https://proxy.app.daytona.io/toolbox"));
        QVERIFY(!s.rawJson.isEmpty());
        QVERIFY(QJsonDocument::fromJson(s.rawJson).isObject());
    }

    void sandboxNotOurs()
    {
        auto r =
            parseSandboxJson("{\"id\":\"x\",\"name\":\"theirs\",\"state\":\"stopped\",\"cpu\":1,\"memory\":1,"
                             "\"networkBlockAll\":false, \"createdAt\":\"2024-10-01 12:00:00+00:00\",\"labels\":{}}",
                             kAccount, kProvider);
        QVERIFY(r.ok());
        QVERIFY(!r->info.owned);
        QCOMPARE(r->info.name, QStringLiteral("theirs"));
        QVERIFY(r->info.network);
        QCOMPARE(r->info.ttlSeconds, 0);
        QVERIFY(!r->deadline.isValid());
        QCOMPARE(r->info.created, QDateTime(QDate(2024, 10, 1), QTime(12, 0), Qt::UTC));
    }

    void badSandbox_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("truncated") << sandboxJson().left(40);
        QTest::newRow("garbage") << QByteArray("<html>bad gateway</html>");
        QTest::newRow("array") << QByteArray("[]");
        QTest::newRow("no id") << QByteArray("{\"name\":\"x\"}");
    }
    void badSandbox()
    {
        QFETCH(QByteArray, json);
        auto r = parseSandboxJson(json, kAccount, kProvider);
        QVERIFY(!r.ok());
        QCOMPARE(r.code(), ErrorCode::Unavailable);
        QVERIFY(!r.message().isEmpty());
    }

    void lists_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("cursor");
        QTest::addColumn<int>("totalPages");
        const QByteArray one = sandboxJson();
        QTest::newRow("array") << "[" + one + "," + one + "]" << true << 2 << QString() << 0;
        QTest::newRow("cursor") << "{\"items\":[" + one + "],\"nextCursor\":\"abc+/=\"}" << true << 1 << "abc+/=" << 0;
        QTest::newRow("last page") << "{\"items\":[" + one + "],\"nextCursor\":null}" << true << 1 << QString() << 0;
        QTest::newRow("paginated") << "{\"items\":[" + one + "],\"total\":3,\"page\":1,\"totalPages\":3}" << true << 1
                                   << QString() << 3;
        QTest::newRow("bad item skipped") << "[" + one + ",{\"name\":\"no id\"},7]" << true << 1 << QString() << 0;
        QTest::newRow("empty list") << QByteArray("[]") << true << 0 << QString() << 0;
        QTest::newRow("empty body") << QByteArray() << false << 0 << QString() << 0;
        QTest::newRow("truncated") << QByteArray("[" + one).left(100) << false << 0 << QString() << 0;
        QTest::newRow("garbage") << QByteArray("nope") << false << 0 << QString() << 0;
        QTest::newRow("object without items") << QByteArray("{\"foo\":1}") << false << 0 << QString() << 0;
    }
    void lists()
    {
        QFETCH(QByteArray, json);
        QFETCH(bool, ok);
        QFETCH(int, count);
        QFETCH(QString, cursor);
        QFETCH(int, totalPages);
        auto r = parseSandboxList(json, kAccount, kProvider);
        QCOMPARE(r.ok(), ok);
        if (!ok)
            return;
        QCOMPARE(r->items.size(), count);
        QCOMPARE(r->nextCursor, cursor);
        QCOMPARE(r->totalPages, totalPages);
    }

    void create()
    {
        CreateSpec spec;
        spec.name = QStringLiteral("dev");
        spec.image = QStringLiteral("ubuntu:22.04");
        spec.cpus = 1.5;
        spec.memoryBytes = 3 * kGiB + 1;
        spec.gpus = 1;
        spec.env = {QStringLiteral("A=1"), QStringLiteral("B=x=y"), QStringLiteral("bad")};
        spec.labels.insert(QStringLiteral("team"), QStringLiteral("x"));
        spec.ttlSeconds = 600;
        spec.options.insert(QStringLiteral("disk"), 5 * kGiB);
        spec.options.insert(QStringLiteral("autoStop"), 90);
        const QDateTime now(QDate(2026, 2, 3), QTime(4, 5, 6), Qt::UTC);
        const QJsonObject b = createBody(spec, kAccount, QStringLiteral("tok"), now, QStringLiteral("eu"));
        QCOMPARE(b.value(QLatin1String("snapshot")).toString(), QStringLiteral("ubuntu:22.04"));
        QCOMPARE(b.value(QLatin1String("cpu")).toInt(), 2);
        QCOMPARE(b.value(QLatin1String("memory")).toInt(), 4);
        QCOMPARE(b.value(QLatin1String("disk")).toInt(), 5);
        QCOMPARE(b.value(QLatin1String("gpu")).toInt(), 1);
        QCOMPARE(b.value(QLatin1String("target")).toString(), QStringLiteral("eu"));
        QCOMPARE(b.value(QLatin1String("autoStopInterval")).toInt(), 2);
        QCOMPARE(b.value(QLatin1String("networkBlockAll")).toBool(), true);
        const QJsonObject env = b.value(QLatin1String("env")).toObject();
        QCOMPARE(env.size(), 2);
        QCOMPARE(env.value(QLatin1String("B")).toString(), QStringLiteral("x=y"));
        const QJsonObject l = b.value(QLatin1String("labels")).toObject();
        QCOMPARE(l.value(QLatin1String(labels::App)).toString(), QStringLiteral("sandbar"));
        QCOMPARE(l.value(QLatin1String(labels::Account)).toString(), kAccount);
        QCOMPARE(l.value(QLatin1String(labels::Name)).toString(), QStringLiteral("dev"));
        QCOMPARE(l.value(QLatin1String(labels::Ttl)).toString(), QStringLiteral("600"));
        QCOMPARE(l.value(QLatin1String(labels::Created)).toString(), QStringLiteral("2026-02-03T04:05:06Z"));
        QCOMPARE(l.value(QLatin1String(TokenLabel)).toString(), QStringLiteral("tok"));
        QCOMPARE(l.value(QLatin1String("team")).toString(), QStringLiteral("x"));

        // Defaults: Daytona's 15 idle minutes, network blocked unless asked for; 0 = never.
        CreateSpec plain;
        QJsonObject p = createBody(plain, kAccount, QStringLiteral("t"), now, QString());
        QCOMPARE(p.value(QLatin1String("autoStopInterval")).toInt(), 15);
        QVERIFY(!p.contains(QLatin1String("target")));
        QVERIFY(!p.contains(QLatin1String("snapshot")));
        plain.network = true;
        plain.options.insert(QStringLiteral("autoStop"), 0);
        plain.options.insert(QStringLiteral("snapshot"), QStringLiteral("snap"));
        p = createBody(plain, kAccount, QStringLiteral("t"), now, QString());
        QCOMPARE(p.value(QLatin1String("autoStopInterval")).toInt(), 0);
        QCOMPARE(p.value(QLatin1String("networkBlockAll")).toBool(), false);
        QCOMPARE(p.value(QLatin1String("snapshot")).toString(), QStringLiteral("snap"));
    }

    void closeReason_data()
    {
        QTest::addColumn<QString>("reason");
        QTest::addColumn<int>("exitCode"); // -1: none
        QTest::addColumn<QString>("why");
        QTest::newRow("exit 0") << "{\"exitCode\":0,\"exitReason\":\"exited\"}" << 0 << "exited";
        QTest::newRow("exit 3") << "{\"exitCode\":3}" << 3 << "";
        QTest::newRow("signal") << "{\"exitCode\":137,\"exitReason\":\"killed\"}" << 137 << "killed";
        QTest::newRow("empty") << "" << -1 << "";
        QTest::newRow("truncated") << "{\"exitCode\":" << -1 << "";
        QTest::newRow("garbage") << "bye" << -1 << "";
        QTest::newRow("no code") << "{\"exitReason\":\"x\"}" << -1 << "x";
    }
    void closeReason()
    {
        QFETCH(QString, reason);
        QFETCH(int, exitCode);
        QFETCH(QString, why);
        const PtyCloseReason r = parsePtyCloseReason(reason);
        QCOMPARE(r.exitCode.value_or(-1), exitCode);
        QCOMPARE(r.exitReason, why);
    }

    void control_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("expect"); // 1 connected, 0 other, -1 error
        QTest::newRow("connected") << "{\"type\":\"control\",\"status\":\"connected\"}" << 1;
        QTest::newRow("other") << "{\"type\":\"control\",\"status\":\"resized\"}" << 0;
        QTest::newRow("error") << "{\"type\":\"control\",\"status\":\"error\",\"error\":\"no such session\"}" << -1;
        QTest::newRow("empty") << "" << -1;
        QTest::newRow("garbage") << "hello" << -1;
        QTest::newRow("truncated") << "{\"type\":\"con" << -1;
    }
    void control()
    {
        QFETCH(QString, text);
        QFETCH(int, expect);
        auto r = parsePtyControl(text);
        if (expect < 0) {
            QVERIFY(!r.ok());
            QVERIFY(!r.message().isEmpty());
            if (text.contains(QLatin1String("no such session")))
                QVERIFY(r.message().contains(QLatin1String("no such session")));
            return;
        }
        QVERIFY(r.ok());
        QCOMPARE(r.value(), expect == 1);
    }

    void ptyReplies()
    {
        QCOMPARE(parsePtyCreated("{\"sessionId\":\"p1\"}").valueOr(QString()), QStringLiteral("p1"));
        QVERIFY(!parsePtyCreated("{}").ok());
        QVERIFY(!parsePtyCreated("").ok());
        QVERIFY(!parsePtyCreated("{\"sessionId\":").ok());
        auto list = parsePtyList("{\"sessions\":[{\"id\":\"a\",\"active\":true,\"cols\":80,\"rows\":24},{\"id\":\"b\","
                                 "\"active\":false},{\"x\":1}]}");
        QVERIFY(list.ok());
        QCOMPARE(list->size(), 2);
        QCOMPARE(list->at(0).id, QStringLiteral("a"));
        QVERIFY(!list->at(0).exited);
        QVERIFY(list->at(1).exited);
        QVERIFY(!parsePtyList("").ok());
        QVERIFY(!parsePtyList("{\"sessions\":{}}").ok());
        QVERIFY(!parsePtyList("garbage").ok());
    }

    void execute_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("code");
        QTest::addColumn<QByteArray>("out");
        QTest::newRow("ok") << QByteArray("{\"exitCode\":0,\"result\":\"hi\\n\"}") << true << 0 << QByteArray("hi\n");
        QTest::newRow("fail") << QByteArray("{\"exitCode\":42,\"result\":\"\"}") << true << 42 << QByteArray();
        QTest::newRow("no code") << QByteArray("{\"result\":\"x\"}") << true << 0 << QByteArray("x");
        QTest::newRow("no result") << QByteArray("{\"exitCode\":1}") << false << 0 << QByteArray();
        QTest::newRow("empty") << QByteArray() << false << 0 << QByteArray();
        QTest::newRow("truncated") << QByteArray("{\"exitCode\":0,\"res") << false << 0 << QByteArray();
        QTest::newRow("garbage") << QByteArray("500 oops") << false << 0 << QByteArray();
    }
    void execute()
    {
        QFETCH(QByteArray, json);
        QFETCH(bool, ok);
        QFETCH(int, code);
        QFETCH(QByteArray, out);
        auto r = parseExecute(json);
        QCOMPARE(r.ok(), ok);
        if (!ok)
            return;
        QCOMPARE(r->exitCode, code);
        QCOMPARE(r->stdoutData, out);
    }

    void telemetry()
    {
        const QByteArray json =
            "{\"series\":[ "
            "{\"metricName\":\"daytona.sandbox.cpu.utilization\",\"dataPoints\":[{\"timestamp\":\"2026-01-01T00:00:"
            "00Z\",\"value\":10}, {\"timestamp\":\"2026-01-01T00:00:10Z\",\"value\":25}]}, "
            "{\"metricName\":\"daytona.sandbox.memory.usage\",\"dataPoints\":[{\"timestamp\":\"2026-01-01T00:00:10Z\","
            "\"value\":104857600}]}, "
            "{\"metricName\":\"daytona.sandbox.memory.limit\",\"dataPoints\":[{\"timestamp\":\"2026-01-01T00:00:10Z\","
            "\"value\":1073741824}]}, "
            "{\"metricName\":\"daytona.sandbox.filesystem.usage\",\"dataPoints\":[{\"timestamp\":\"2026-01-01T00:00:"
            "10Z\",\"value\":5000}]}, "
            "{\"metricName\":\"daytona.sandbox.filesystem.available\",\"dataPoints\":[{\"timestamp\":\"2026-01-01T00:"
            "00:10Z\",\"value\":15000}]} ]}";
        auto r = parseTelemetry(json, 2.0);
        QVERIFY(r.ok());
        QCOMPARE(*r->cpuPercent, 50.0); // 25 % of two cores
        QCOMPARE(*r->memoryUsedBytes, 104857600);
        QCOMPARE(*r->memoryLimitBytes, 1073741824);
        QCOMPARE(*r->filesystemUsedBytes, 5000);
        QCOMPARE(*r->filesystemTotalBytes, 20000);
        QVERIFY(!r->networkRxBytes);
        QVERIFY(!r->pids);
        QCOMPARE(r->time, QDateTime(QDate(2026, 1, 1), QTime(0, 0, 10), Qt::UTC));

        auto limit = parseTelemetry("{\"series\":[{\"metricName\":\"daytona.sandbox.cpu.limit\",\"dataPoints\":[{"
                                    "\"timestamp\":\"2026-01-01T00:00:00Z\",\"value\":4}]}, "
                                    "{\"metricName\":\"daytona.sandbox.cpu.utilization\",\"dataPoints\":[{"
                                    "\"timestamp\":\"2026-01-01T00:00:00Z\",\"value\":50}]}]}",
                                    std::nullopt);
        QVERIFY(limit.ok());
        QCOMPARE(*limit->cpuPercent, 200.0);

        auto none = parseTelemetry("{\"series\":[]}", 1.0);
        QVERIFY(none.ok());
        QVERIFY(!none->cpuPercent && !none->memoryUsedBytes && !none->filesystemUsedBytes);

        for (const QByteArray &bad : {QByteArray(), QByteArray("{\"series\":[{\"metricName\""), QByteArray("garbage"),
                                      QByteArray("{\"foo\":1}")})
            QVERIFY2(!parseTelemetry(bad, 1.0).ok(), bad.constData());
    }

    void mode_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<uint>("mode");
        QTest::newRow("octal") << "0755" << 0755u;
        QTest::newRow("octal short") << "644" << 0644u;
        QTest::newRow("file") << "-rw-r--r--" << 0644u;
        QTest::newRow("dir") << "drwxr-xr-x" << 0755u;
        QTest::newRow("empty") << "" << 0u;
        QTest::newRow("garbage") << "xyz" << 0u;
    }
    void mode()
    {
        QFETCH(QString, text);
        QFETCH(uint, mode);
        QCOMPARE(parseMode(text), quint32(mode));
    }

    void files()
    {
        const QByteArray json =
            "[{\"name\":\"a.txt\",\"isDir\":false,\"size\":12,\"mode\":\"-rw-r--r--\",\"permissions\":\"0644\", "
            "\"modTime\":\"2026-01-01T00:00:00Z\",\"owner\":\"u\",\"group\":\"g\"}, "
            "{\"name\":\"sub\",\"isDir\":true,\"size\":4096,\"mode\":\"drwxr-xr-x\",\"modifiedAt\":\"2026-01-02T00:00:"
            "00Z\"},{\"size\":1}]";
        auto r = parseFileList(json, QStringLiteral("/home/daytona"));
        QVERIFY(r.ok());
        QCOMPARE(r->size(), 2);
        QCOMPARE(r->at(0).path, QStringLiteral("/home/daytona/a.txt"));
        QCOMPARE(r->at(0).size, 12);
        QCOMPARE(r->at(0).mode, 0644u);
        QVERIFY(!r->at(0).isDir);
        QCOMPARE(r->at(0).modified, QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC));
        QVERIFY(r->at(1).isDir);
        QCOMPARE(r->at(1).mode, 0755u);
        QCOMPARE(r->at(1).path, QStringLiteral("/home/daytona/sub"));
        auto root = parseFileList("[{\"name\":\"etc\",\"isDir\":true}]", QStringLiteral("/"));
        QCOMPARE(root->at(0).path, QStringLiteral("/etc"));
        for (const QByteArray &bad : {QByteArray(), QByteArray("[{\"name\":"), QByteArray("<html>"), QByteArray("{}")})
            QVERIFY2(!parseFileList(bad, QStringLiteral("/")).ok(), bad.constData());

        auto info = parseFileInfoJson("{\"name\":\"f\",\"isDir\":false,\"size\":3}", QStringLiteral("/tmp/f"));
        QVERIFY(info.ok());
        QCOMPARE(info->path, QStringLiteral("/tmp/f"));
        QVERIFY(!parseFileInfoJson("", QStringLiteral("/x")).ok());
        QVERIFY(!parseFileInfoJson("[]", QStringLiteral("/x")).ok());
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("message");
        QTest::newRow("message") << QByteArray("{\"statusCode\":404,\"message\":\"Sandbox not found\"}")
                                 << "Sandbox not found";
        QTest::newRow("array") << QByteArray("{\"message\":[\"cpu must be a number\"],\"error\":\"Bad Request\"}")
                               << "cpu must be a number";
        QTest::newRow("error") << QByteArray("{\"error\":\"file not found\"}") << "file not found";
        QTest::newRow("nested") << QByteArray("{\"error\":{\"message\":\"nested\"}}") << "nested";
        QTest::newRow("empty") << QByteArray() << QString();
        QTest::newRow("truncated") << QByteArray("{\"message\":\"x") << QString();
        QTest::newRow("garbage") << QByteArray("Bad gateway") << QString();
    }
    void errors()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, message);
        QCOMPARE(errorMessage(body), message);
    }

    void procNetDev()
    {
        const QByteArray text =
            "Inter-|   Receive                                                |  Transmit\n"
            " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs "
            "drop fifo colls carrier compressed\n"
            "    lo:  1000      10    0    0    0     0          0         0     1000      10    0 "
            "   0    0     0       0          0\n"
            "  eth0:  5000      50    0    0    0     0          0         0     7000      70    0 "
            "   0    0     0       0          0\n";
        auto c = cloud::parseProcNetDev(text);
        QVERIFY(c.has_value());
        QCOMPARE(c->rxBytes, 5000);
        QCOMPARE(c->txBytes, 7000);
        QVERIFY(!cloud::parseProcNetDev("").has_value());
        QVERIFY(!cloud::parseProcNetDev("garbage\n").has_value());
        QVERIFY(!cloud::parseProcNetDev(text.left(120)).has_value());
    }

    void shell()
    {
        QCOMPARE(shellJoin({QStringLiteral("echo"), QStringLiteral("a b"), QStringLiteral("it's"), QString()}),
                 QStringLiteral("echo 'a b' 'it'\\''s' ''"));
        ExecRequest r;
        r.argv = {QStringLiteral("cat")};
        r.stdinData = "hi";
        QCOMPARE(DaytonaExecJob::commandLine(r), QStringLiteral("sh -c 'printf %s aGk= | base64 -d | cat'"));
    }

    void descriptor()
    {
        const ProviderDescriptor d = makeDaytonaDescriptor();
        QCOMPARE(d.id, QStringLiteral("daytona"));
        QVERIFY(!d.selfHosted);
        const FieldDescriptor *key = d.accountField(QStringLiteral("api-key"));
        QVERIFY(key && key->secret && key->required && key->type == FieldType::Secret);
        for (const char *k : {"endpoint", "organization", "target", "ca-file"})
            QVERIFY2(d.accountField(QString::fromLatin1(k)), k);
        QCOMPARE(d.accountField(QStringLiteral("endpoint"))->defaultValue.toString(),
                 QStringLiteral("https://app.daytona.io/api"));
        for (const char *k :
             {"image", "snapshot", "cpus", "memory", "disk", "gpus", "env", "network", "autoStop", "ttl"})
            QVERIFY2(d.createOption(QString::fromLatin1(k)), k);
        QCOMPARE(d.createOption(QStringLiteral("network"))->defaultValue.toBool(), false);
        QCOMPARE(d.createOption(QStringLiteral("autoStop"))->defaultValue.toLongLong(), 15 * 60);
        QVERIFY(d.createOption(QStringLiteral("autoStop"))->label != d.createOption(QStringLiteral("ttl"))->label);
        QVERIFY(d.capabilities.testFlag(Capability::Reattach));
        QVERIFY(d.capabilities.testFlag(Capability::SetTimeout));
        QVERIFY(d.capabilities.testFlag(Capability::PauseResume));  // stop and start
        QVERIFY(d.capabilities.testFlag(Capability::StatsNetwork)); // the stream reads /proc/net/dev

        // The factory refuses plain http off loopback and a missing key, without any network.
        auto factory = makeDaytonaFactory();
        AccountConfig a;
        a.name = QStringLiteral("d");
        a.provider = QStringLiteral("daytona");
        a.settings.insert(QStringLiteral("endpoint"), QStringLiteral("http://example.com/api"));
        a.secrets.insert(QStringLiteral("api-key"), QStringLiteral("dtn_x"));
        QVERIFY(!factory->create(a).ok());
        a.settings.insert(QStringLiteral("endpoint"), QStringLiteral("http://127.0.0.1:1/api"));
        QVERIFY(factory->create(a).ok());
        a.secrets.clear();
        QCOMPARE(factory->create(a).code(), ErrorCode::Unauthorized);
    }
};

QTEST_GUILESS_MAIN(TestDaytonaParsers)
#include "tst_daytona_parsers.moc"
