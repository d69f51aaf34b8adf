// VercelParsers against the replies @vercel/sandbox 3.5.0 reads (the shapes of its validators),
// table-driven, with empty, truncated and garbage input.
#include "TestSupport.h"
#include "providers/vercel/VercelJobs.h"
#include "providers/vercel/VercelParsers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <QTimeZone>

using namespace sandbar;
using namespace sandbar::vercel;

#ifndef Q_MOC_RUN
namespace {
const QByteArray kReply =
    R"j({"sandbox":{"name":"sbx-1","persistent":true,"createdAt":1765000000000,"updatedAt":1765000000000,
"currentSessionId":"sess_1","status":"running","image":"vercel/sandbox/universal:latest",
"networkPolicy":{"mode":"deny-all"},
"tags":{"sandbar":"work","sandbar-token":"tok-1","sandbar-ttl":"600","sandbar-agent":"claude 1.0","team":"infra"}},
"session":{"id":"sess_1","memory":4096,"vcpus":2,"region":"iad1","timeout":300000,"status":"running",
"requestedAt":1765000000000,"startedAt":1765000001000,"createdAt":1765000000000,"cwd":"/vercel/sandbox",
"updatedAt":1765000001000,"activeCpuDurationMs":1500,"networkTransfer":{"ingress":10,"egress":20}},
"routes":[{"port":3000,"subdomain":"sbx-1-3000","url":"https://sbx-1-3000.vercel.run"},
{"port":8080,"subdomain":"sbx-1-8080","url":"javascript:alert(1)"},{"port":5000,"subdomain":"sbx-1-5000"}]})j";
const QByteArray kList =
    R"j({"sandboxes":[{"name":"a","persistent":false,"createdAt":1,"updatedAt":2,"currentSessionId":"s1",
"status":"stopped","tags":{"sandbar":"work"}},{"status":"running"},"x",
{"name":"b","persistent":false,"createdAt":1,"updatedAt":2,"currentSessionId":"s2","status":"running"}],
"pagination":{"count":3,"next":"cur-2"}})j";
const char kJ1[] = R"j({"session":{"id":"s"}})j";
const char kJ2[] = R"j({"sandbox":{"status":"running"}})j";
const char kJ3[] = R"j({"sandboxes":[],"pagination":{"count":0,"next":null}})j";
const char kJ4[] = R"j({"id":"cmd_1","name":"sh","args":[],"cwd":"/","sessionId":"s","startedAt":1,)j";
const char kJ5[] = R"j({"command":)j";
const char kJ6[] = R"j("exitCode":null}})j";
const char kJ7[] = R"j({"command":)j";
const char kJ8[] = R"j("exitCode":3}})j";
const char kJ9[] = R"j({"stream":"stdout","data":"h\u00e9\n"})j";
const char kJ10[] = R"j({"stream":"stderr","data":"oops"})j";
const char kJ11[] = R"j({"stream":"error","data":{"code":"gone","message":"lost"}})j";
const char kJ12[] = R"j({"command":{"exitCode":0}})j";
const char kJ13[] = R"j({"stream":"stdin","data":"x"})j";
const char kJ14[] = R"j({"stream":"stdout","da)j";
const char kJ15[] = R"j({"url":"wss://s.vercel.run/interactive","token":"t0k"})j";
const char kJ16[] = R"j({"url":"file:///etc/passwd","token":"t"})j";
const char kJ17[] = R"j({"url":"wss://s.vercel.run/interactive"})j";
const char kJ18[] = R"j({"type":"exit","code":7})j";
const char kJ19[] = R"j({"type":"exit"})j";
const char kJ20[] = R"j({"type":"ready"})j";
const char kJ21[] = R"j({"error":{"code":"forbidden","message":"Not authorized"}})j";
const char kJ22[] = R"j({"error":{"code":"sandbox_stopped"}})j";
const char kJ23[] =
    R"j({"snapshots":[{"id":"snap_new","status":"created","creationMethod":"auto","createdAt":1765000300000,
"sizeBytes":3145728,"expiresAt":1767592300000},{"id":"snap_wip","status":"creating","createdAt":1765000200000},
{"id":"snap_bad","status":"failed","createdAt":1765000100000},{"id":"snap_gone","status":"deleted"},
{"status":"created"},"x",{"id":"snap_old","status":"created","creationMethod":"manual","createdAt":1765000000000}],
"pagination":{"count":7,"next":"c-2"}})j";
const char kJ24[] = R"j({"snapshots":[],"pagination":{"count":0,"next":null}})j";
const char kJ25[] = R"j({"snapshot":{"id":"snap_1","status":"creating","createdAt":1765000000000},"session":{}})j";
const char kJ26[] = R"j({"snapshot":{"id":"snap_1","status":"failed"}})j";
const char kJ27[] = R"j({"session":{"id":"s"}})j";
const char kJ28[] = R"j({"snapshots":{"id":"snap_1"}})j";
} // namespace
#endif

class TestVercelParsers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sandboxReply()
    {
        auto r = parseSandboxReply(kReply, QStringLiteral("work"), QStringLiteral("vercel"));
        QVERIFY_RESULT(r);
        QCOMPARE(r->info.id, QStringLiteral("sbx-1"));
        QCOMPARE(r->sessionId, QStringLiteral("sess_1"));
        QCOMPARE(r->info.state, SessionState::Running);
        QCOMPARE(r->info.cpus, std::optional<double>(2));
        QCOMPARE(r->info.memoryBytes, std::optional<qint64>(4096LL * 1024 * 1024));
        QVERIFY(r->info.owned);
        QVERIFY(!r->info.network);
        QVERIFY(r->persistent);
        QCOMPARE(r->token, QStringLiteral("tok-1"));
        QCOMPARE(r->info.labels.value(QLatin1String(labels::Account)), QStringLiteral("work"));
        QCOMPARE(r->info.labels.value(QLatin1String(labels::Agent)), QStringLiteral("claude 1.0"));
        QCOMPARE(r->info.labels.value(QStringLiteral("team")), QStringLiteral("infra"));
        QVERIFY(!r->info.labels.contains(QLatin1String(kTokenTag)));
        QCOMPARE(r->info.ttlSeconds, 600);
        QCOMPARE(r->deadline, r->info.created.addSecs(600));
        QCOMPARE(r->cwd, QStringLiteral("/vercel/sandbox"));
        QCOMPARE(r->timeoutMs, 300000);
        QCOMPARE(r->activeCpuMs, std::optional<qint64>(1500));
        QCOMPARE(r->egressBytes, std::optional<qint64>(20));
        // The route with a script URL is dropped; one without a URL is Vercel's own host.
        QCOMPARE(r->info.endpoints.size(), 2);
        QCOMPARE(r->info.endpoints.at(0).url, QStringLiteral("https://sbx-1-3000.vercel.run"));
        QCOMPARE(r->info.endpoints.at(1).url, QStringLiteral("https://sbx-1-5000.vercel.run"));
        // Tags made back from the record: the same, with a new time limit.
        const QJsonObject tags = tagsWithTtl(*r, 900);
        QCOMPARE(tags.value(QLatin1String(kTtlTag)).toString(), QStringLiteral("900"));
        QCOMPARE(tags.value(QLatin1String(kTokenTag)).toString(), QStringLiteral("tok-1"));
        QCOMPARE(tags.value(QLatin1String(kAccountTag)).toString(), QStringLiteral("work"));
        QCOMPARE(tags.value(QStringLiteral("team")).toString(), QStringLiteral("infra"));
        QCOMPARE(tags.size(), 5);
    }

    void badReplies_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("garbage") << QByteArray("\x01\x02<html>");
        QTest::newRow("truncated") << kReply.left(kReply.size() / 2);
        QTest::newRow("no sandbox") << QByteArray(kJ1);
        QTest::newRow("nameless") << QByteArray(kJ2);
        QTest::newRow("array") << QByteArray("[1,2]");
    }
    void badReplies()
    {
        QFETCH(QByteArray, json);
        QVERIFY(!parseSandboxReply(json, QStringLiteral("a"), QStringLiteral("vercel")));
        QVERIFY(!parseSandboxList(json, QStringLiteral("a"), QStringLiteral("vercel")));
        QVERIFY(!parseInteractive(json));
    }

    void states_data()
    {
        QTest::addColumn<QString>("status");
        QTest::addColumn<SessionState>("state");
        QTest::newRow("pending") << QStringLiteral("pending") << SessionState::Creating;
        QTest::newRow("running") << QStringLiteral("running") << SessionState::Running;
        QTest::newRow("stopping") << QStringLiteral("stopping") << SessionState::Stopping;
        QTest::newRow("snapshotting") << QStringLiteral("snapshotting") << SessionState::Stopping;
        QTest::newRow("stopped") << QStringLiteral("stopped") << SessionState::Stopped;
        QTest::newRow("failed") << QStringLiteral("failed") << SessionState::Error;
        QTest::newRow("aborted") << QStringLiteral("aborted") << SessionState::Error;
        QTest::newRow("new word") << QStringLiteral("hibernating") << SessionState::Unknown;
    }
    void states()
    {
        QFETCH(QString, status);
        QTEST(stateFromVercel(status), "state");
    }

    void listPages()
    {
        auto page = parseSandboxList(kList, QStringLiteral("work"), QStringLiteral("vercel"));
        QVERIFY_RESULT(page);
        QCOMPARE(page->items.size(), 2); // the nameless one and the string are skipped
        QCOMPARE(page->items.at(0).info.state, SessionState::Stopped);
        QVERIFY(page->items.at(0).info.owned);
        QVERIFY(!page->items.at(1).info.owned);
        QCOMPARE(page->next, QStringLiteral("cur-2"));
        auto last = parseSandboxList(kJ3, QStringLiteral("w"), QStringLiteral("vercel"));
        QVERIFY_RESULT(last);
        QVERIFY(last->next.isEmpty());
    }

    void snapshotLists()
    {
        auto page = parseSnapshotList(kJ23);
        QVERIFY_RESULT(page);
        // Failed, deleted, id-less and non-object entries are not offered for a restore.
        QStringList ids;
        for (const SnapshotEntry &e : page->items)
            ids << e.id;
        QCOMPARE(ids,
                 (QStringList{QStringLiteral("snap_new"), QStringLiteral("snap_wip"), QStringLiteral("snap_old")}));
        QCOMPARE(page->next, QStringLiteral("c-2"));
        const SnapshotEntry &first = page->items.first();
        QCOMPARE(first.created, QDateTime::fromMSecsSinceEpoch(1765000300000, QTimeZone::utc()));
        QVERIFY2(first.comment.contains(QLatin1String("saved at a stop")), qPrintable(first.comment));
        QVERIFY2(first.comment.contains(QLatin1String("3.0 MiB")), qPrintable(first.comment));
        QVERIFY2(first.comment.contains(QLatin1String("kept until 2026-01-05")), qPrintable(first.comment));
        QCOMPARE(page->items.last().comment, QStringLiteral("taken on request"));
        auto last = parseSnapshotList(kJ24);
        QVERIFY_RESULT(last);
        QVERIFY(last->items.isEmpty());
        QVERIFY(last->next.isEmpty());
    }

    void badSnapshotLists_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("garbage") << QByteArray("\xff<html>");
        QTest::newRow("truncated") << QByteArray(kJ23).left(60);
        QTest::newRow("no list") << QByteArray(kJ27);
        QTest::newRow("object for a list") << QByteArray(kJ28);
    }
    void badSnapshotLists()
    {
        QFETCH(QByteArray, json);
        const auto page = parseSnapshotList(json);
        QVERIFY(!page.ok());
        QCOMPARE(page.code(), ErrorCode::Unavailable);
    }

    void snapshotReplies_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("id"); // empty: an error
        QTest::newRow("creating") << QByteArray(kJ25) << QStringLiteral("snap_1");
        QTest::newRow("failed") << QByteArray(kJ26) << QString();
        QTest::newRow("no snapshot") << QByteArray(kJ27) << QString();
        QTest::newRow("empty") << QByteArray() << QString();
        QTest::newRow("truncated") << QByteArray(kJ25).left(30) << QString();
    }
    void snapshotReplies()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, id);
        const auto e = parseSnapshotReply(json);
        QCOMPARE(e.ok(), !id.isEmpty());
        if (e.ok())
            QCOMPARE(e->id, id);
        else
            QVERIFY(!e.message().isEmpty());
    }

    void commandLines_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("exitCode"); // -1: none
        QTest::addColumn<QByteArray>("data");
        const QByteArray cmd = kJ4;
        QTest::newRow("started") << QByteArray(kJ5 + cmd + kJ6) << true << 0 << -1 << QByteArray();
        QTest::newRow("ended") << QByteArray(kJ7 + cmd + kJ8) << true << 0 << 3 << QByteArray();
        QTest::newRow("stdout") << QByteArray(kJ9) << true << 1 << -1 << QByteArray("h\xc3\xa9\n");
        QTest::newRow("stderr") << QByteArray(kJ10) << true << 1 << -1 << QByteArray("oops");
        QTest::newRow("error") << QByteArray(kJ11) << true << 2 << -1 << QByteArray();
        QTest::newRow("idless command") << QByteArray(kJ12) << false << 0 << -1 << QByteArray();
        QTest::newRow("unknown stream") << QByteArray(kJ13) << false << 0 << -1 << QByteArray();
        QTest::newRow("empty") << QByteArray() << false << 0 << -1 << QByteArray();
        QTest::newRow("truncated") << QByteArray(kJ14) << false << 0 << -1 << QByteArray();
        QTest::newRow("garbage") << QByteArray("\xff\xfe") << false << 0 << -1 << QByteArray();
    }
    void commandLines()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, ok);
        auto e = parseCommandLine(line);
        QCOMPARE(e.ok(), ok);
        if (!ok)
            return;
        QTEST(int(e->kind), "kind");
        QTEST(e->exitCode.value_or(-1), "exitCode");
        QTEST(e->data, "data");
        if (e->kind == CommandEvent::Kind::Error)
            QCOMPARE(e->message, QStringLiteral("gone: lost"));
    }

    // Lines split anywhere come out whole and in order; a partial one waits.
    void lineSplitting()
    {
        const QByteArray all = "{\"a\":1}\n\n{\"b\":2}\r\n{\"c\"";
        for (qsizetype cut = 0; cut <= all.size(); ++cut) {
            QByteArray buffer = all.left(cut);
            QList<QByteArray> lines = takeLines(&buffer);
            buffer += all.mid(cut);
            lines += takeLines(&buffer);
            QCOMPARE(lines, (QList<QByteArray>{"{\"a\":1}", "{\"b\":2}"}));
            QCOMPARE(buffer, QByteArray("{\"c\""));
        }
    }

    void interactiveAndExit()
    {
        auto i = parseInteractive(kJ15);
        QVERIFY_RESULT(i);
        QCOMPARE(i->token, QStringLiteral("t0k"));
        QVERIFY(!parseInteractive(kJ16));
        QVERIFY(!parseInteractive(kJ17));
        QCOMPARE(parseExitFrame(QString::fromLatin1(kJ18)), std::optional<int>(7));
        QCOMPARE(parseExitFrame(QString::fromLatin1(kJ19)), std::optional<int>(-1));
        QCOMPARE(parseExitFrame(QString::fromLatin1(kJ20)), std::nullopt);
        QCOMPARE(parseExitFrame(QStringLiteral("hello")), std::nullopt);
    }

    void errorsAndTokens()
    {
        QCOMPARE(errorMessage(kJ21), QStringLiteral("Not authorized"));
        QCOMPARE(errorMessage(kJ22), QStringLiteral("sandbox_stopped"));
        QCOMPARE(errorMessage("<html>"), QString());
        QCOMPARE(errorMessage({}), QString());
        QVERIFY(isJwt(QStringLiteral("eyJhbGciOiJIUzI1NiJ9.eyJvd25lcl9pZCI6InRlYW1fMSJ9.c2ln")));
        QVERIFY(!isJwt(QStringLiteral("vercel_contract_test_token")));
        QVERIFY(!isJwt(QStringLiteral("a.b.c")));
        QVERIFY(!isJwt(QString()));
    }

    void createBodies()
    {
        CreateSpec spec;
        spec.name = QStringLiteral("my-box");
        spec.cpus = 1.5;
        spec.ttlSeconds = 600;
        spec.env = {QStringLiteral("A=1"), QStringLiteral("B=x=y"), QStringLiteral("broken")};
        spec.ports = {PortSpec{3000, 0, QStringLiteral("tcp")}};
        spec.labels.insert(QLatin1String(labels::Agent), QStringLiteral("agent 2"));
        spec.labels.insert(QStringLiteral("team"), QStringLiteral("infra"));
        QCOMPARE(tagRoom(spec), 1); // account, token, time limit and agent: one left
        spec.options.insert(QStringLiteral("source"), QStringLiteral("https://github.com/x/y.git"));
        const QJsonObject b =
            createBody(spec, QStringLiteral("work"), QStringLiteral("tok"), QStringLiteral("prj_1"), spec.ttlSeconds);
        QCOMPARE(b.value(QStringLiteral("projectId")).toString(), QStringLiteral("prj_1"));
        QCOMPARE(b.value(QStringLiteral("timeout")).toDouble(), 600000.0);
        QCOMPARE(b.value(QStringLiteral("resources")).toObject().value(QStringLiteral("vcpus")).toInt(), 2);
        QCOMPARE(b.value(QStringLiteral("ports")).toArray(), QJsonArray{3000});
        QCOMPARE(b.value(QStringLiteral("networkPolicy")).toObject().value(QStringLiteral("mode")).toString(),
                 QStringLiteral("deny-all"));
        QCOMPARE(b.value(QStringLiteral("env")).toObject().value(QStringLiteral("B")).toString(),
                 QStringLiteral("x=y"));
        QCOMPARE(b.value(QStringLiteral("env")).toObject().size(), 2);
        QCOMPARE(b.value(QStringLiteral("source")).toObject().value(QStringLiteral("type")).toString(),
                 QStringLiteral("git"));
        const QJsonObject tags = b.value(QStringLiteral("tags")).toObject();
        QCOMPARE(tags.value(QLatin1String(kAccountTag)).toString(), QStringLiteral("work"));
        QCOMPARE(tags.value(QLatin1String(kTokenTag)).toString(), QStringLiteral("tok"));
        QCOMPARE(tags.value(QLatin1String(kAgentTag)).toString(), QStringLiteral("agent 2"));
        QCOMPARE(tags.value(QStringLiteral("team")).toString(), QStringLiteral("infra"));
        QCOMPARE(tags.size(), 5);
        spec.network = true;
        spec.options.insert(QStringLiteral("source"), QStringLiteral("snap_abc"));
        // No limit of Sandbar's: Vercel's own timeout, and no time limit tag.
        spec.ttlSeconds = 0;
        const QJsonObject open = createBody(spec, QStringLiteral("w"), QStringLiteral("t"), QStringLiteral("p"), 300);
        QCOMPARE(open.value(QStringLiteral("timeout")).toDouble(), 300000.0);
        QVERIFY(!open.value(QStringLiteral("tags")).toObject().contains(QLatin1String(kTtlTag)));
        QCOMPARE(open.value(QStringLiteral("networkPolicy")).toObject().value(QStringLiteral("mode")).toString(),
                 QStringLiteral("allow-all"));
        QCOMPARE(open.value(QStringLiteral("source")).toObject().value(QStringLiteral("snapshotId")).toString(),
                 QStringLiteral("snap_abc"));
    }

    // A fork's tags are the source's, as the copy's own: this account, a new token.
    void forkBodies()
    {
        VercelRecord src;
        src.token = QStringLiteral("old-token");
        src.info.labels = {{QLatin1String(labels::App), QLatin1String(labels::AppValue)},
                           {QLatin1String(labels::Account), QStringLiteral("other")},
                           {QLatin1String(labels::Ttl), QStringLiteral("900")},
                           {QLatin1String(labels::Agent), QStringLiteral("claude 1")},
                           {QStringLiteral("team"), QStringLiteral("infra")}};
        const QJsonObject b =
            forkBody(src, ForkSpec{QStringLiteral(" copy "), {}}, QStringLiteral("work"), QStringLiteral("t2"));
        QCOMPARE(b.value(QStringLiteral("name")).toString(), QStringLiteral("copy"));
        const QJsonObject tags = b.value(QStringLiteral("tags")).toObject();
        QCOMPARE(tags.value(QLatin1String(kAccountTag)).toString(), QStringLiteral("work"));
        QCOMPARE(tags.value(QLatin1String(kTokenTag)).toString(), QStringLiteral("t2"));
        QCOMPARE(tags.value(QLatin1String(kTtlTag)).toString(), QStringLiteral("900"));
        QCOMPARE(tags.value(QLatin1String(kAgentTag)).toString(), QStringLiteral("claude 1"));
        QCOMPARE(tags.value(QStringLiteral("team")).toString(), QStringLiteral("infra"));
        QCOMPARE(tags.size(), 5);
        QVERIFY(!forkBody(src, ForkSpec{}, QStringLiteral("w"), QStringLiteral("t")).contains(QStringLiteral("name")));
        // An agent's fork: its label and time limit over the source's; with a second person's
        // label the copy would have six tags, one more than Vercel keeps, so the person's go first.
        src.info.labels.insert(QStringLiteral("zone"), QStringLiteral("eu"));
        const QJsonObject agents = forkBody(src,
                                            ForkSpec{QString(),
                                                     {{QLatin1String(labels::Agent), QStringLiteral("codex 2")},
                                                      {QLatin1String(labels::Ttl), QStringLiteral("600")}}},
                                            QStringLiteral("work"), QStringLiteral("t3"))
                                       .value(QStringLiteral("tags"))
                                       .toObject();
        QCOMPARE(agents.size(), 5);
        QCOMPARE(agents.value(QLatin1String(kAgentTag)).toString(), QStringLiteral("codex 2"));
        QCOMPARE(agents.value(QLatin1String(kTtlTag)).toString(), QStringLiteral("600"));
        QCOMPARE(agents.value(QLatin1String(kTokenTag)).toString(), QStringLiteral("t3"));
        QCOMPARE(agents.value(QStringLiteral("team")).toString(), QStringLiteral("infra"));
        QVERIFY(!agents.contains(QStringLiteral("zone")));
    }

    void commandBodies()
    {
        ExecRequest req;
        req.argv = {QStringLiteral("cat")};
        req.stdinData = "in\x01put";
        req.env = {QStringLiteral("K=V")};
        req.workingDir = QStringLiteral("/tmp");
        const QJsonObject b = QJsonDocument::fromJson(VercelExecJob::commandBody(req)).object();
        QCOMPARE(b.value(QStringLiteral("command")).toString(), QStringLiteral("/bin/sh"));
        const QJsonArray args = b.value(QStringLiteral("args")).toArray();
        QCOMPARE(args.at(3).toString(), QStringLiteral("1")); // one chunk
        QCOMPARE(args.at(4).toString(), QString::fromLatin1(QByteArray("in\x01put").toBase64()));
        QCOMPARE(args.last().toString(), QStringLiteral("cat"));
        QCOMPARE(b.value(QStringLiteral("cwd")).toString(), QStringLiteral("/tmp"));
        QVERIFY(b.value(QStringLiteral("wait")).toBool());
        QVERIFY(!b.value(QStringLiteral("sudo")).toBool());
    }

    // A detached command as the start, the get and the kill answer it.
    void commandReplies_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("exitCode"); // -1: still running
        const QByteArray cmd = kJ4;
        QTest::newRow("running") << QByteArray(kJ5 + cmd + kJ6) << true << -1;
        QTest::newRow("ended") << QByteArray(kJ7 + cmd + kJ8) << true << 3;
        QTest::newRow("idless") << QByteArray(kJ12) << false << -1;
        QTest::newRow("no command") << QByteArray("{}") << false << -1;
        QTest::newRow("empty") << QByteArray() << false << -1;
        QTest::newRow("truncated") << QByteArray(kJ5 + cmd) << false << -1;
        QTest::newRow("garbage") << QByteArray("\xff\xfe") << false << -1;
    }
    void commandReplies()
    {
        QFETCH(QByteArray, json);
        QFETCH(bool, ok);
        QFETCH(int, exitCode);
        auto c = parseCommandReply(json);
        QCOMPARE(c.ok(), ok);
        if (!ok)
            return;
        QCOMPARE(c->id, QStringLiteral("cmd_1"));
        QCOMPARE(c->argv, QStringList{QStringLiteral("sh")});
        QCOMPARE(c->started.toMSecsSinceEpoch(), 1);
        QCOMPARE(c->running, exitCode < 0);
        QCOMPARE(c->exitCode.value_or(-1), exitCode);
    }

    // A detached command neither waits nor streams its logs in the reply.
    void detachedBodies()
    {
        ExecRequest req;
        req.argv = {QStringLiteral("npm"), QStringLiteral("run"), QStringLiteral("dev")};
        const QJsonObject b = QJsonDocument::fromJson(VercelExecJob::commandBody(req, false)).object();
        QCOMPARE(b.value(QStringLiteral("command")).toString(), QStringLiteral("npm"));
        QCOMPARE(b.value(QStringLiteral("args")).toArray().size(), 2);
        QVERIFY(!b.contains(QStringLiteral("wait")));
        QVERIFY(!b.contains(QStringLiteral("logs")));
    }

    void cpuRates()
    {
        QCOMPARE(cpuPercent(1000, 1500, 1000), std::optional<double>(50.0));
        QCOMPARE(cpuPercent(1000, 3000, 1000), std::optional<double>(200.0));
        QCOMPARE(cpuPercent(1000, 900, 1000), std::nullopt);
        QCOMPARE(cpuPercent(1000, 1000, 0), std::nullopt);
    }
};

QTEST_GUILESS_MAIN(TestVercelParsers)
#include "tst_vercel_parsers.moc"
