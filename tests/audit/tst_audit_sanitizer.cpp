#include "audit/Sanitizer.h"
#include "audit/TimeSpec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace sandbar;
using namespace sandbar::audit;

class TestAuditSanitizer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void commandLine_data();
    void commandLine();
    void argv_data();
    void argv();
    void envEntries();
    void detailDropsSecretFields();
    void detailHelpers();
    void timeSpec_data();
    void timeSpec();
};

void TestAuditSanitizer::commandLine_data()
{
    QTest::addColumn<QString>("in");
    QTest::addColumn<QString>("out");
    const auto row = [](const char *name, const char *in, const char *out) {
        QTest::newRow(name) << QString::fromUtf8(in) << QString::fromUtf8(out);
    };
    row("empty", "", "");
    row("plain", "ls -la /workspace", "ls -la /workspace");
    row("harmless pair", "make CC=gcc -j2", "make CC=gcc -j2");
    row("sh -c export", "sh -c 'export TOKEN=abc'", "sh -c 'export TOKEN=***'");
    row("sh -c export; more", "sh -c 'export TOKEN=abc; echo hi' && sh -c 'echo x'",
        "sh -c 'export TOKEN=***; echo hi' && sh -c 'echo x'");
    row("double-quoted value", "export DB_PASSWORD=\"a b c\" && run", "export DB_PASSWORD=*** && run");
    row("lower-case key", "api_key=xyz ./run", "api_key=*** ./run");
    row("secret key mid-word", "MY_SECRET_THING=v1 OTHER=v2", "MY_SECRET_THING=*** OTHER=v2");
    row("--env spaced", "sandbarctl create --env API_TOKEN=s3cr3t --env HOME=/root",
        "sandbarctl create --env API_TOKEN=*** --env HOME=***");
    row("--env inline", "run --env=FOO=bar", "run --env=FOO=***");
    row("-e", "docker run -e FOO=bar img", "docker run -e FOO=*** img");
    row("--env without value", "run --env FOO img", "run --env FOO img");
    row("quoted pair after --env", "run --env 'FOO=bar baz' img", "run --env 'FOO=***' img");
    row("flag with secret name", "gh auth --token ghp_123 --user me", "gh auth --token *** --user me");
    row("flag=secret", "tool --api-key=abc --verbose", "tool --api-key=*** --verbose");
    row("flag then flag", "tool --token --verbose", "tool --token --verbose");
    row("url password", "git clone https://bob:hunter2@example.invalid/r.git",
        "git clone https://bob:***@example.invalid/r.git");
    row("unterminated quote", "sh -c 'export TOKEN=abc", "sh -c 'export TOKEN=***");
    row("garbage", "=== ='=\"= \\", "=== ='=\"= \\");
    row("key only", "TOKEN= ls", "TOKEN= ls");
}

void TestAuditSanitizer::commandLine()
{
    QFETCH(QString, in);
    QFETCH(QString, out);
    QCOMPARE(redactCommandLine(in), out);
}

void TestAuditSanitizer::argv_data()
{
    QTest::addColumn<QStringList>("in");
    QTest::addColumn<QStringList>("out");
    const auto L = [](std::initializer_list<const char *> items) {
        QStringList l;
        for (const char *s : items)
            l << QString::fromUtf8(s);
        return l;
    };
    QTest::newRow("empty") << QStringList() << QStringList();
    QTest::newRow("sh -c") << L({"sh", "-c", "export TOKEN=abc; run"}) << L({"sh", "-c", "export TOKEN=***; run"});
    QTest::newRow("--env split") << L({"exec", "--env", "API_TOKEN=s3cr3t", "box"})
                                 << L({"exec", "--env", "API_TOKEN=***", "box"});
    QTest::newRow("--env harmless name") << L({"--env", "LANG=C"}) << L({"--env", "LANG=***"});
    QTest::newRow("--env=") << L({"--env=X=1"}) << L({"--env=X=***"});
    QTest::newRow("-e last") << L({"grep", "-e"}) << L({"grep", "-e"});
    QTest::newRow("grep -e pattern") << L({"grep", "-e", "foo"}) << L({"grep", "-e", "foo"});
    QTest::newRow("--password X") << L({"login", "--password", "pw", "x"}) << L({"login", "--password", "***", "x"});
    QTest::newRow("spaces in arg") << L({"echo", "TOKEN=a b"}) << L({"echo", "TOKEN=***"});
}

void TestAuditSanitizer::argv()
{
    QFETCH(QStringList, in);
    QFETCH(QStringList, out);
    QCOMPARE(redactArgv(in), out);
}

void TestAuditSanitizer::envEntries()
{
    QCOMPARE(redactEnv({QStringLiteral("A=1"), QStringLiteral("B="), QStringLiteral("C"), QStringLiteral("D=x=y"),
                        QString(), QStringLiteral("=v")}),
             QStringList({QStringLiteral("A=***"), QStringLiteral("B=***"), QStringLiteral("C"),
                          QStringLiteral("D=***"), QString(), QStringLiteral("=***")}));
}

void TestAuditSanitizer::detailDropsSecretFields()
{
    FieldDescriptor endpoint;
    endpoint.key = QStringLiteral("endpoint");
    FieldDescriptor apiSecret;
    apiSecret.key = QStringLiteral("credential_blob"); // secret by descriptor, not by name
    apiSecret.secret = true;
    FieldDescriptor typed;
    typed.key = QStringLiteral("opaque");
    typed.type = FieldType::Secret;
    QVariantMap in{
        {QStringLiteral("endpoint"), QStringLiteral("unix:///run/docker.sock")},
        {QStringLiteral("credential_blob"), QStringLiteral("value-1")},
        {QStringLiteral("opaque"), QStringLiteral("value-2")},
        {QStringLiteral("apiToken"), QStringLiteral("value-3")}, // secret by name
        {QStringLiteral("env"), QStringLiteral("A=value-4\nB=value-5")},
        {QStringLiteral("cmd"), QStringLiteral("sh -c 'PASSWORD=value-6 run'")},
        {QStringLiteral("nested"),
         QVariantMap{{QStringLiteral("secret"), QStringLiteral("value-7")}, {QStringLiteral("n"), 3}}},
        {QStringLiteral("args"), QStringList{QStringLiteral("--env"), QStringLiteral("X=value-8")}},
        {QStringLiteral("size"), 42},
    };
    const QJsonObject out = sanitizeDetail(in, {endpoint, apiSecret, typed});
    const QByteArray text = QJsonDocument(out).toJson(QJsonDocument::Compact);
    QVERIFY2(!text.contains("value-"), text.constData());
    QCOMPARE(out.value(QStringLiteral("endpoint")).toString(), QStringLiteral("unix:///run/docker.sock"));
    QCOMPARE(out.value(QStringLiteral("env")).toString(), QStringLiteral("A=***\nB=***"));
    QCOMPARE(out.value(QStringLiteral("nested")).toObject().value(QStringLiteral("n")).toInt(), 3);
    QCOMPARE(out.value(QStringLiteral("size")).toInt(), 42);
    QVERIFY(!out.contains(QStringLiteral("credential_blob")));
    QVERIFY(!out.contains(QStringLiteral("opaque")));
    QVERIFY(!out.contains(QStringLiteral("apiToken")));
    QVERIFY(sanitizeDetail({}).isEmpty());
}

void TestAuditSanitizer::detailHelpers()
{
    ExecRequest req;
    req.argv = {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("export GITHUB_TOKEN=ghp_zzz; make")};
    req.env = {QStringLiteral("API_TOKEN=s3cr3t-1"), QStringLiteral("LANG=C")};
    req.workingDir = QStringLiteral("/workspace");
    const QJsonObject e = execDetail(req);
    QCOMPARE(e.value(QStringLiteral("command")).toString(), QStringLiteral("sh -c export GITHUB_TOKEN=***; make"));
    QCOMPARE(e.value(QStringLiteral("env")).toArray().at(0).toString(), QStringLiteral("API_TOKEN=***"));
    QCOMPARE(e.value(QStringLiteral("workdir")).toString(), QStringLiteral("/workspace"));

    CreateSpec spec;
    spec.image = QStringLiteral("busybox");
    spec.env = {QStringLiteral("API_TOKEN=s3cr3t-2")};
    spec.options.insert(QStringLiteral("env"), QStringLiteral("API_TOKEN=s3cr3t-2"));
    spec.mounts = {MountSpec{QStringLiteral("/src"), QStringLiteral("/workspace"), true}};
    const QByteArray c = QJsonDocument(createDetail(spec)).toJson(QJsonDocument::Compact);
    QVERIFY2(!c.contains("s3cr3t"), c.constData());
    QVERIFY(c.contains("/src:/workspace:ro"));

    const QJsonObject f = fileDetail(QStringLiteral("/workspace/a.txt"), 1234, QStringLiteral("/tmp/a.txt"));
    QCOMPARE(f.value(QStringLiteral("size")).toInt(), 1234);
    QCOMPARE(f.value(QStringLiteral("path")).toString(), QStringLiteral("/workspace/a.txt"));
}

void TestAuditSanitizer::timeSpec_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QDateTime>("expected"); // invalid: must be refused
    const QDateTime now(QDate(2026, 11, 29), QTime(12, 0), Qt::UTC);
    const QDateTime none;
    QTest::newRow("empty") << QString() << none;
    QTest::newRow("blank") << QStringLiteral("   ") << none;
    QTest::newRow("30m") << QStringLiteral("30m") << now.addSecs(-1800);
    QTest::newRow("2h") << QStringLiteral("2h") << now.addSecs(-7200);
    QTest::newRow("7d") << QStringLiteral("7d") << now.addDays(-7);
    QTest::newRow("90s") << QStringLiteral("90s") << now.addSecs(-90);
    QTest::newRow("1w") << QStringLiteral("1w") << now.addDays(-7);
    QTest::newRow("upper") << QStringLiteral("2H") << now.addSecs(-7200);
    QTest::newRow("0m") << QStringLiteral("0m") << now;
    QTest::newRow("no unit") << QStringLiteral("30") << none;
    QTest::newRow("unit only") << QStringLiteral("h") << none;
    QTest::newRow("negative") << QStringLiteral("-2h") << none;
    QTest::newRow("bad unit") << QStringLiteral("2y") << none;
    QTest::newRow("two units") << QStringLiteral("2h30m") << none;
    QTest::newRow("huge") << QStringLiteral("99999999999d") << none;
    QTest::newRow("iso Z") << QStringLiteral("2026-11-28T10:00:00Z")
                           << QDateTime(QDate(2026, 11, 28), QTime(10, 0), Qt::UTC);
    QTest::newRow("iso ms") << QStringLiteral("2026-11-28T10:00:00.250Z")
                            << QDateTime(QDate(2026, 11, 28), QTime(10, 0, 0, 250), Qt::UTC);
    QTest::newRow("iso offset") << QStringLiteral("2026-11-28T10:00+02:00")
                                << QDateTime(QDate(2026, 11, 28), QTime(8, 0), Qt::UTC);
    QTest::newRow("iso space") << QStringLiteral("2026-11-28 10:00Z")
                               << QDateTime(QDate(2026, 11, 28), QTime(10, 0), Qt::UTC);
    QTest::newRow("iso local") << QStringLiteral("2026-11-28T10:00")
                               << QDateTime(QDate(2026, 11, 28), QTime(10, 0), Qt::LocalTime).toUTC();
    QTest::newRow("date only") << QStringLiteral("2026-11-28")
                               << QDateTime(QDate(2026, 11, 28), QTime(0, 0), Qt::LocalTime).toUTC();
    QTest::newRow("truncated date") << QStringLiteral("2026-11-2") << none;
    QTest::newRow("truncated time") << QStringLiteral("2026-11-28T1") << none;
    QTest::newRow("truncated zone") << QStringLiteral("2026-11-28T10:00+0") << none;
    QTest::newRow("impossible date") << QStringLiteral("2026-02-30") << none;
    QTest::newRow("impossible time") << QStringLiteral("2026-11-28T25:00Z") << none;
    QTest::newRow("garbage") << QStringLiteral("yesterday") << none;
    QTest::newRow("binary") << QString::fromUtf8("\x01\x02\xff") << none;
}

void TestAuditSanitizer::timeSpec()
{
    QFETCH(QString, text);
    QFETCH(QDateTime, expected);
    const QDateTime now(QDate(2026, 11, 29), QTime(12, 0), Qt::UTC);
    const auto r = parseTimeSpec(text, now);
    if (!expected.isValid()) {
        QVERIFY2(!r.ok(), qPrintable(text));
        QCOMPARE(r.code(), ErrorCode::InvalidArgument);
        return;
    }
    QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.message()));
    QCOMPARE(r.value(), expected);
    QCOMPARE(r.value().timeSpec(), Qt::UTC);
}

QTEST_GUILESS_MAIN(TestAuditSanitizer)
#include "tst_audit_sanitizer.moc"
