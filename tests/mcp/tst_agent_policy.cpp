// The agent policy file and its decisions (core/mcp/AgentPolicy), and what of an agent's
// arguments the audit log and the window may see (audit::agentArgumentsDetail).
#include "audit/Sanitizer.h"
#include "mcp/AgentPolicy.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace sandbar;
using namespace sandbar::mcp;

namespace {
// QVERIFY2 evaluates its message even when the check passes.
template <typename T>
QString why(const Result<T> &r)
{
    return r.ok() ? QString() : r.message();
}
} // namespace

class TestAgentPolicy : public QObject
{
    Q_OBJECT

private:
    static void writePolicy(const QTemporaryDir &dir, const QByteArray &text)
    {
        QFile f(dir.filePath(QLatin1String(kAgentPolicyFile)));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    }

    static CreateFacts localCreate()
    {
        CreateFacts f;
        f.account = QStringLiteral("local");
        f.ttlSeconds = 1800;
        f.usdPerHour = 0.0;
        return f;
    }

private Q_SLOTS:
    void defaultsWithoutAFile()
    {
        QTemporaryDir dir;
        const auto p = loadAgentPolicy(dir.path());
        QVERIFY2(p.ok(), qPrintable(why(p)));
        QVERIFY(p->allowsAccount(QStringLiteral("anything")));
        QCOMPARE(p->defaultTtlSeconds, 1800);
        QVERIFY(p->approvePaidCreate && p->approveNetwork && p->approveHostPaths);
        QVERIFY(!p->removeOnDisconnect);
    }

    void roundTripKeepsEveryField()
    {
        AgentPolicy p;
        p.accounts = {QStringLiteral("e2b"), QStringLiteral("local")};
        p.maxSessions = 2;
        p.defaultTtlSeconds = 600;
        p.maxTtlSeconds = 3600;
        p.maxUsdPerHour = 1.25;
        p.allowNetwork = false;
        p.allowHostPaths = false;
        p.disabledTools = {QStringLiteral("exec")};
        p.approvePaidCreate = false;
        p.approveNetwork = false;
        p.approveHostPaths = false;
        p.approveTools = {QStringLiteral("remove_session")};
        p.removeOnDisconnect = true;
        QTemporaryDir dir;
        QVERIFY(saveAgentPolicy(dir.path(), p).ok());
        QFile f(dir.filePath(QLatin1String(kAgentPolicyFile)));
        QCOMPARE(f.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions{});
        const auto back = loadAgentPolicy(dir.path());
        QVERIFY2(back.ok(), qPrintable(why(back)));
        QCOMPARE(agentPolicyToJson(*back), agentPolicyToJson(p));
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("not a JSON object");
        QTest::newRow("truncated") << QByteArray(R"({"accounts": [)") << QStringLiteral("not a JSON object");
        QTest::newRow("garbage") << QByteArray("\x00\xff policy") << QStringLiteral("not a JSON object");
        QTest::newRow("array") << QByteArray("[]") << QStringLiteral("not an object");
        QTest::newRow("unknown key") << QByteArray(R"({"max_session": 3})") << QStringLiteral("\"max_session\"");
        QTest::newRow("accounts not a list")
            << QByteArray(R"({"accounts": "all"})") << QStringLiteral("\"accounts\" must be a list");
        QTest::newRow("empty name") << QByteArray(R"({"accounts": [""]})") << QStringLiteral("\"accounts\"");
        QTest::newRow("negative") << QByteArray(R"({"max_sessions": -1})") << QStringLiteral("\"max_sessions\"");
        QTest::newRow("fraction") << QByteArray(R"({"max_ttl_seconds": 1.5})") << QStringLiteral("whole number");
        QTest::newRow("string bool") << QByteArray(R"({"allow_network": "no"})")
                                     << QStringLiteral("\"allow_network\" must be true or false");
        QTest::newRow("usd negative") << QByteArray(R"({"max_usd_per_hour": -2})")
                                      << QStringLiteral("\"max_usd_per_hour\"");
        QTest::newRow("version") << QByteArray(R"({"version": 2})") << QStringLiteral("\"version\" must be 1");
        QTest::newRow("default over max")
            << QByteArray(R"({"default_ttl_seconds": 7200, "max_ttl_seconds": 3600})") << QStringLiteral("longer than");
        QTest::newRow("no default under max")
            << QByteArray(R"({"default_ttl_seconds": 0})") << QStringLiteral("no limit");
    }

    // A broken file is an error naming the file, never a silently looser policy.
    void badFiles()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        writePolicy(dir, text);
        const auto p = loadAgentPolicy(dir.path());
        QVERIFY(!p.ok());
        QVERIFY2(p.message().contains(expected), qPrintable(p.message()));
        QVERIFY2(p.message().contains(QLatin1String(kAgentPolicyFile)), qPrintable(p.message()));
        // The file is left as it was, for the person to fix.
        QFile f(dir.filePath(QLatin1String(kAgentPolicyFile)));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), text);
    }

    void saveRefusesAnInvalidPolicy()
    {
        AgentPolicy p;
        p.maxTtlSeconds = 60;
        p.defaultTtlSeconds = 600;
        QTemporaryDir dir;
        QVERIFY(!saveAgentPolicy(dir.path(), p).ok());
        QVERIFY(!QFile::exists(dir.filePath(QLatin1String(kAgentPolicyFile))));
    }

    void createVerdicts_data()
    {
        QTest::addColumn<QJsonObject>("policy");
        QTest::addColumn<QJsonObject>("facts");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("expected"); // in the message (Deny) or the reasons (NeedsApproval)
        const int allow = int(PolicyVerdict::Kind::Allow);
        const int ask = int(PolicyVerdict::Kind::NeedsApproval);
        const int deny = int(PolicyVerdict::Kind::Deny);
        QTest::newRow("local, defaults") << QJsonObject{} << QJsonObject{} << allow << QString();
        QTest::newRow("account not listed")
            << QJsonObject{{QStringLiteral("accounts"), QJsonArray{QStringLiteral("e2b")}}} << QJsonObject{} << deny
            << QStringLiteral("Account 'local' is not allowed");
        QTest::newRow("budget reached") << QJsonObject{}
                                        << QJsonObject{{QStringLiteral("budget"), QStringLiteral("budget reached")}}
                                        << deny << QStringLiteral("budget reached");
        QTest::newRow("network forbidden")
            << QJsonObject{{QStringLiteral("allow_network"), false}} << QJsonObject{{QStringLiteral("network"), true}}
            << deny << QStringLiteral("Network access is not allowed");
        QTest::newRow("network asks") << QJsonObject{} << QJsonObject{{QStringLiteral("network"), true}} << ask
                                      << QStringLiteral("network access");
        QTest::newRow("network, no approval asked")
            << QJsonObject{{QStringLiteral("approve_network"), false}} << QJsonObject{{QStringLiteral("network"), true}}
            << allow << QString();
        QTest::newRow("mounts forbidden")
            << QJsonObject{{QStringLiteral("allow_host_paths"), false}} << QJsonObject{{QStringLiteral("mounts"), true}}
            << deny << QStringLiteral("Host folders are not allowed");
        QTest::newRow("mounts ask") << QJsonObject{} << QJsonObject{{QStringLiteral("mounts"), true}} << ask
                                    << QStringLiteral("mounts folders");
        QTest::newRow("ttl over max") << QJsonObject{{QStringLiteral("max_ttl_seconds"), 3600}}
                                      << QJsonObject{{QStringLiteral("ttl"), 7200}} << deny
                                      << QStringLiteral("maximum of 1 hour");
        QTest::newRow("no ttl under a max")
            << QJsonObject{{QStringLiteral("max_ttl_seconds"), 3600}} << QJsonObject{{QStringLiteral("ttl"), 0}} << deny
            << QStringLiteral("0 (no limit)");
        QTest::newRow("provider without ttl")
            << QJsonObject{{QStringLiteral("max_ttl_seconds"), 3600}}
            << QJsonObject{{QStringLiteral("ttl"), 0}, {QStringLiteral("hasTtl"), false}} << allow << QString();
        QTest::newRow("no max: ttl 0 allowed") << QJsonObject{{QStringLiteral("max_ttl_seconds"), 0}}
                                               << QJsonObject{{QStringLiteral("ttl"), 0}} << allow << QString();
        QTest::newRow("sessions at max") << QJsonObject{{QStringLiteral("max_sessions"), 2}}
                                         << QJsonObject{{QStringLiteral("sessions"), 2}} << deny
                                         << QStringLiteral("maximum");
        QTest::newRow("paid asks") << QJsonObject{} << QJsonObject{{QStringLiteral("paid"), true}} << ask
                                   << QStringLiteral("paid account 'local'");
        QTest::newRow("paid, price unknown")
            << QJsonObject{} << QJsonObject{{QStringLiteral("paid"), true}, {QStringLiteral("price"), QJsonValue()}}
            << deny << QStringLiteral("price of this session is not known");
        QTest::newRow("paid, over the hourly limit") << QJsonObject{{QStringLiteral("max_usd_per_hour"), 1}}
                                                     << QJsonObject{{QStringLiteral("paid"), true},
                                                                    {QStringLiteral("price"), 0.4},
                                                                    {QStringLiteral("running"), 0.7}}
                                                     << deny << QStringLiteral("$1.10 an hour");
        QTest::newRow("paid, no hourly limit")
            << QJsonObject{{QStringLiteral("max_usd_per_hour"), 0}, {QStringLiteral("approve_paid_create"), false}}
            << QJsonObject{{QStringLiteral("paid"), true}, {QStringLiteral("price"), QJsonValue()}} << allow
            << QString();
        QTest::newRow("every reason at once")
            << QJsonObject{}
            << QJsonObject{{QStringLiteral("paid"), true},
                           {QStringLiteral("price"), 0.1},
                           {QStringLiteral("network"), true},
                           {QStringLiteral("mounts"), true}}
            << ask << QStringLiteral("paid account 'local'|network access|mounts folders");
    }

    void createVerdicts()
    {
        QFETCH(QJsonObject, policy);
        QFETCH(QJsonObject, facts);
        QFETCH(int, kind);
        QFETCH(QString, expected);
        const auto p = agentPolicyFromJson(policy);
        QVERIFY2(p.ok(), qPrintable(why(p)));
        CreateFacts f = localCreate();
        f.paid = facts.value(QLatin1String("paid")).toBool();
        f.network = facts.value(QLatin1String("network")).toBool();
        f.hostPaths = facts.value(QLatin1String("mounts")).toBool();
        f.hasTtl = facts.value(QLatin1String("hasTtl")).toBool(true);
        f.ttlSeconds = facts.value(QLatin1String("ttl")).toInteger(1800);
        f.agentSessions = facts.value(QLatin1String("sessions")).toInt();
        f.agentUsdPerHour = facts.value(QLatin1String("running")).toDouble();
        f.budgetReached = facts.value(QLatin1String("budget")).toString();
        if (facts.contains(QLatin1String("price")))
            f.usdPerHour = facts.value(QLatin1String("price")).isNull()
                               ? std::nullopt
                               : std::optional<double>(facts.value(QLatin1String("price")).toDouble());
        const PolicyVerdict v = evaluateCreate(*p, f);
        QCOMPARE(int(v.kind), kind);
        if (v.kind == PolicyVerdict::Kind::Deny)
            QVERIFY2(v.message.contains(expected), qPrintable(v.message));
        if (v.kind == PolicyVerdict::Kind::NeedsApproval) {
            const QStringList want = expected.split(QLatin1Char('|'));
            QCOMPARE(v.reasons.size(), want.size());
            for (qsizetype i = 0; i < want.size(); ++i)
                QVERIFY2(v.reasons.at(i).contains(want.at(i)), qPrintable(v.reasons.join(QLatin1Char(';'))));
        }
    }

    void toolAndHostPathVerdicts()
    {
        AgentPolicy p;
        p.disabledTools = {QStringLiteral("exec")};
        p.approveTools = {QStringLiteral("remove_session")};
        QCOMPARE(evaluateTool(p, QStringLiteral("exec")).kind, PolicyVerdict::Kind::Deny);
        QVERIFY(evaluateTool(p, QStringLiteral("exec")).message.contains(QLatin1String("'exec' is disabled")));
        QCOMPARE(evaluateTool(p, QStringLiteral("remove_session")).kind, PolicyVerdict::Kind::NeedsApproval);
        QCOMPARE(evaluateTool(p, QStringLiteral("list_files")).kind, PolicyVerdict::Kind::Allow);
        QCOMPARE(evaluateHostPath(p, QStringLiteral("upload"), QStringLiteral("/home/me/x")).kind,
                 PolicyVerdict::Kind::NeedsApproval);
        p.approveHostPaths = false;
        QCOMPARE(evaluateHostPath(p, QStringLiteral("upload"), QStringLiteral("/home/me/x")).kind,
                 PolicyVerdict::Kind::Allow);
        p.allowHostPaths = false;
        const auto no = evaluateHostPath(p, QStringLiteral("upload"), QStringLiteral("/home/me/x"));
        QCOMPARE(no.kind, PolicyVerdict::Kind::Deny);
        QVERIFY(no.message.contains(QLatin1String("/home/me/x")));
    }

    // What the audit log, the Agents view and the approval queue see of an agent's arguments.
    void argumentsAreRedacted()
    {
        const QString secret = QStringLiteral("sbtest-secret-mcp-args");
        const QJsonObject args{
            {QStringLiteral("session"), QStringLiteral("local/abc")},
            {QStringLiteral("env"),
             QJsonArray{QString(QStringLiteral("API_TOKEN=") + secret), QString(QStringLiteral("MODE=") + secret)}},
            {QStringLiteral("argv"), QJsonArray{QStringLiteral("curl"), QStringLiteral("--token"), secret}},
            {QStringLiteral("command"),
             QString(QStringLiteral("export GITHUB_TOKEN=") + secret + QStringLiteral("; make"))},
            {QStringLiteral("api_key"), secret},
            {QStringLiteral("content"), QString(secret + QString(1000, QLatin1Char('x')))},
            {QStringLiteral("stdin"), secret},
            {QStringLiteral("nested"), QJsonObject{{QStringLiteral("password"), secret}}},
            {QStringLiteral("long"), QString(5000, QLatin1Char('y'))},
        };
        const QJsonObject out = audit::agentArgumentsDetail(args);
        const QByteArray text = QJsonDocument(out).toJson(QJsonDocument::Compact);
        QVERIFY2(!text.contains(secret.toUtf8()), text.constData());
        QCOMPARE(out.value(QLatin1String("session")).toString(), QStringLiteral("local/abc"));
        QCOMPARE(out.value(QLatin1String("content")).toString(), QStringLiteral("(1022 characters)"));
        QVERIFY(out.value(QLatin1String("command")).toString().endsWith(QLatin1String("; make")));
        QVERIFY(out.value(QLatin1String("long")).toString().size() < 600);
        QCOMPARE(out.value(QLatin1String("argv")).toArray().at(0).toString(), QStringLiteral("curl"));
    }
};

QTEST_GUILESS_MAIN(TestAgentPolicy)
#include "tst_agent_policy.moc"
