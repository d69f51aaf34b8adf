// The line protocol between sandbarctl mcp and the window (AgentWire): every message encodes
// to one line that decodes to what was sent, and every malformed line (empty, truncated,
// garbage, wrong types, unknown type) is an error naming the problem, never a crash.
#include "mcp/AgentWire.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace sandbar;
using namespace sandbar::mcp;

Q_DECLARE_METATYPE(sandbar::ErrorCode)

namespace {

AgentClient sampleClient()
{
    return AgentClient{QStringLiteral("claude-code"), QStringLiteral("1.2.3"), QStringLiteral("stdio"), 4242};
}

} // namespace

class TestMcpWire final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void decodeErrors_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<ErrorCode>("code");
        QTest::addColumn<QString>("mentions"); // a part of the message

        const auto E = ErrorCode::InvalidArgument;
        QTest::newRow("empty") << QByteArray() << E << QStringLiteral("empty");
        QTest::newRow("blank") << QByteArray("  \t\r") << E << QStringLiteral("empty");
        QTest::newRow("garbage") << QByteArray("\x01\x02 not json") << E << QStringLiteral("not JSON");
        QTest::newRow("truncated") << QByteArray("{\"type\":\"approve\",\"id\":\"1\",\"tool\":\"ex") << E
                                   << QStringLiteral("not JSON");
        QTest::newRow("array") << QByteArray("[1,2]") << E << QStringLiteral("not a JSON object");
        QTest::newRow("number") << QByteArray("42") << E << QStringLiteral("not");
        QTest::newRow("no type") << QByteArray("{\"id\":\"1\"}") << E << QStringLiteral("\"type\"");
        QTest::newRow("type not string") << QByteArray("{\"type\":7}") << E << QStringLiteral("\"type\"");
        QTest::newRow("unknown type") << QByteArray("{\"type\":\"telemetry\"}") << ErrorCode::Unsupported
                                      << QStringLiteral("telemetry");
        QTest::newRow("hello without client") << QByteArray("{\"type\":\"hello\"}") << E << QStringLiteral("client");
        QTest::newRow("hello client not object")
            << QByteArray("{\"type\":\"hello\",\"client\":\"x\"}") << E << QStringLiteral("object");
        QTest::newRow("hello without name")
            << QByteArray("{\"type\":\"hello\",\"client\":{\"version\":\"1\"}}") << E << QStringLiteral("name");
        QTest::newRow("hello pid string")
            << QByteArray("{\"type\":\"hello\",\"client\":{\"name\":\"a\",\"pid\":\"12\"}}") << E
            << QStringLiteral("pid");
        QTest::newRow("hello pid negative")
            << QByteArray("{\"type\":\"hello\",\"client\":{\"name\":\"a\",\"pid\":-1}}") << E << QStringLiteral("pid");
        QTest::newRow("hello pid fraction")
            << QByteArray("{\"type\":\"hello\",\"client\":{\"name\":\"a\",\"pid\":1.5}}") << E << QStringLiteral("pid");
        QTest::newRow("approve without id")
            << QByteArray("{\"type\":\"approve\",\"tool\":\"exec\"}") << E << QStringLiteral("\"id\"");
        QTest::newRow("approve empty id")
            << QByteArray("{\"type\":\"approve\",\"id\":\"\",\"tool\":\"exec\"}") << E << QStringLiteral("\"id\"");
        QTest::newRow("approve id number")
            << QByteArray("{\"type\":\"approve\",\"id\":1,\"tool\":\"exec\"}") << E << QStringLiteral("\"id\"");
        QTest::newRow("approve without tool")
            << QByteArray("{\"type\":\"approve\",\"id\":\"1\"}") << E << QStringLiteral("\"tool\"");
        QTest::newRow("approve arguments array")
            << QByteArray("{\"type\":\"approve\",\"id\":\"1\",\"tool\":\"exec\",\"arguments\":[]}") << E
            << QStringLiteral("arguments");
        QTest::newRow("approve reasons string")
            << QByteArray("{\"type\":\"approve\",\"id\":\"1\",\"tool\":\"exec\",\"reasons\":\"paid\"}") << E
            << QStringLiteral("reasons");
        QTest::newRow("approve reasons numbers")
            << QByteArray("{\"type\":\"approve\",\"id\":\"1\",\"tool\":\"exec\",\"reasons\":[\"a\",2]}") << E
            << QStringLiteral("reasons");
        QTest::newRow("call finished string")
            << QByteArray("{\"type\":\"call\",\"id\":\"1\",\"tool\":\"exec\",\"finished\":\"yes\"}") << E
            << QStringLiteral("finished");
        QTest::newRow("call ok number") << QByteArray("{\"type\":\"call\",\"id\":\"1\",\"tool\":\"exec\",\"ok\":1}")
                                        << E << QStringLiteral("\"ok\"");
        QTest::newRow("call duration string")
            << QByteArray("{\"type\":\"call\",\"id\":\"1\",\"tool\":\"exec\",\"durationMs\":\"5\"}") << E
            << QStringLiteral("durationMs");
        QTest::newRow("call message object")
            << QByteArray("{\"type\":\"call\",\"id\":\"1\",\"tool\":\"exec\",\"message\":{}}") << E
            << QStringLiteral("message");
        QTest::newRow("call client without name")
            << QByteArray("{\"type\":\"call\",\"id\":\"1\",\"tool\":\"exec\",\"client\":{\"version\":\"2\"}}") << E
            << QStringLiteral("name");
        QTest::newRow("withdraw without id") << QByteArray("{\"type\":\"withdraw\"}") << E << QStringLiteral("\"id\"");
        QTest::newRow("withdraw id null")
            << QByteArray("{\"type\":\"withdraw\",\"id\":null}") << E << QStringLiteral("\"id\"");
        QTest::newRow("decision unknown") << QByteArray("{\"type\":\"decision\",\"id\":\"1\",\"decision\":\"maybe\"}")
                                          << E << QStringLiteral("maybe");
        QTest::newRow("decision missing")
            << QByteArray("{\"type\":\"decision\",\"id\":\"1\"}") << E << QStringLiteral("decision");
        QTest::newRow("decision bool") << QByteArray("{\"type\":\"decision\",\"id\":\"1\",\"decision\":true}") << E
                                       << QStringLiteral("decision");
        QTest::newRow("decision message number")
            << QByteArray("{\"type\":\"decision\",\"id\":\"1\",\"decision\":\"deny\",\"message\":3}") << E
            << QStringLiteral("message");
        QTest::newRow("two objects") << QByteArray("{\"type\":\"withdraw\",\"id\":\"1\"}{}") << E
                                     << QStringLiteral("not JSON");
    }
    void decodeErrors()
    {
        QFETCH(QByteArray, line);
        QFETCH(ErrorCode, code);
        QFETCH(QString, mentions);
        const Result<wire::Message> m = wire::decode(line);
        QVERIFY(!m.ok());
        QCOMPARE(m.code(), code);
        QVERIFY2(m.message().contains(mentions), qPrintable(m.message()));
    }

    void decodeAccepted_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("id");
        using T = wire::Message::Type;
        QTest::newRow("hello minimal") << QByteArray("{\"type\":\"hello\",\"client\":{\"name\":\"a\"}}")
                                       << int(T::Hello) << QString();
        QTest::newRow("with CR") << QByteArray("{\"type\":\"withdraw\",\"id\":\"7\"}\r") << int(T::Withdraw)
                                 << QStringLiteral("7");
        QTest::newRow("unknown keys ignored") << QByteArray("{\"type\":\"withdraw\",\"id\":\"7\",\"future\":{\"x\":1}}")
                                              << int(T::Withdraw) << QStringLiteral("7");
        QTest::newRow("approve minimal") << QByteArray("{\"type\":\"approve\",\"id\":\"a\",\"tool\":\"exec\"}")
                                         << int(T::Approve) << QStringLiteral("a");
        QTest::newRow("call minimal") << QByteArray("{\"type\":\"call\",\"id\":\"c\",\"tool\":\"exec\"}")
                                      << int(T::Call) << QStringLiteral("c");
        QTest::newRow("decision without message")
            << QByteArray("{\"type\":\"decision\",\"id\":\"d\",\"decision\":\"once\"}") << int(T::Decision)
            << QStringLiteral("d");
    }
    void decodeAccepted()
    {
        QFETCH(QByteArray, line);
        QFETCH(int, type);
        QFETCH(QString, id);
        const Result<wire::Message> m = wire::decode(line);
        QVERIFY2(m.ok(), m.ok() ? "" : qPrintable(m.message()));
        QCOMPARE(int(m->type), type);
        QCOMPARE(m->id, id);
    }

    void helloRoundTrip()
    {
        const QByteArray line = wire::encodeHello(sampleClient());
        QVERIFY(line.endsWith('\n'));
        QCOMPARE(line.count('\n'), 1);
        const auto m = wire::decode(QByteArrayView(line).chopped(1));
        QVERIFY(m.ok());
        QCOMPARE(m->type, wire::Message::Type::Hello);
        QCOMPARE(m->client.name, QStringLiteral("claude-code"));
        QCOMPARE(m->client.version, QStringLiteral("1.2.3"));
        QCOMPARE(m->client.transport, QStringLiteral("stdio"));
        QCOMPARE(m->client.pid, qint64(4242));
    }

    void approveRoundTrip()
    {
        ApprovalRequest r;
        r.id = QStringLiteral("req-1");
        r.client = sampleClient();
        r.tool = QStringLiteral("create_session");
        // A newline and non-ASCII inside a value must not split the line.
        r.arguments = QJsonObject{{QStringLiteral("account"), QStringLiteral("e2b")},
                                  {QStringLiteral("name"), QStringLiteral("zwei\nZeilen — ü")},
                                  {QStringLiteral("network"), true}};
        r.reasons = {QStringLiteral("creates a session on the paid account 'e2b'"), QStringLiteral("network on")};
        const QByteArray line = wire::encodeApprove(r);
        QCOMPARE(line.count('\n'), 1);
        const auto m = wire::decode(QByteArrayView(line).chopped(1));
        QVERIFY(m.ok());
        QCOMPARE(m->type, wire::Message::Type::Approve);
        QCOMPARE(m->request.id, r.id);
        QCOMPARE(m->request.client.name, r.client.name);
        QCOMPARE(m->request.client.pid, r.client.pid);
        QCOMPARE(m->request.tool, r.tool);
        QCOMPARE(m->request.arguments, r.arguments);
        QCOMPARE(m->request.reasons, r.reasons);
    }

    void approveWithoutClientLeavesItEmpty()
    {
        ApprovalRequest r;
        r.id = QStringLiteral("x");
        r.tool = QStringLiteral("exec");
        const auto m = wire::decode(QByteArrayView(wire::encodeApprove(r)).chopped(1));
        QVERIFY(m.ok());
        QVERIFY(m->request.client.name.isEmpty());
    }

    void callRoundTrip()
    {
        CallEvent e;
        e.id = QStringLiteral("call-9");
        e.client = sampleClient();
        e.tool = QStringLiteral("exec");
        e.arguments = QJsonObject{{QStringLiteral("argv"), QJsonArray{QStringLiteral("echo"), QStringLiteral("hi")}}};
        e.finished = true;
        e.ok = false;
        e.message = QStringLiteral("exit 1");
        e.durationMs = 1234;
        const auto m = wire::decode(QByteArrayView(wire::encodeCall(e)).chopped(1));
        QVERIFY(m.ok());
        QCOMPARE(m->type, wire::Message::Type::Call);
        QCOMPARE(m->call.id, e.id);
        QCOMPARE(m->call.client.version, e.client.version);
        QCOMPARE(m->call.tool, e.tool);
        QCOMPARE(m->call.arguments, e.arguments);
        QCOMPARE(m->call.finished, true);
        QCOMPARE(m->call.ok, false);
        QCOMPARE(m->call.message, e.message);
        QCOMPARE(m->call.durationMs, qint64(1234));
    }

    void withdrawAndDecisionRoundTrip_data()
    {
        QTest::addColumn<int>("decision");
        QTest::newRow("once") << int(ApprovalDecision::Once);
        QTest::newRow("always") << int(ApprovalDecision::Always);
        QTest::newRow("deny") << int(ApprovalDecision::Deny);
    }
    void withdrawAndDecisionRoundTrip()
    {
        QFETCH(int, decision);
        const auto w = wire::decode(QByteArrayView(wire::encodeWithdraw(QStringLiteral("r"))).chopped(1));
        QVERIFY(w.ok());
        QCOMPARE(w->type, wire::Message::Type::Withdraw);
        QCOMPARE(w->id, QStringLiteral("r"));

        const ApprovalAnswer a{ApprovalDecision(decision), QStringLiteral("not on the paid account, please")};
        const auto d = wire::decode(QByteArrayView(wire::encodeDecision(QStringLiteral("r"), a)).chopped(1));
        QVERIFY(d.ok());
        QCOMPARE(d->type, wire::Message::Type::Decision);
        QCOMPARE(d->id, QStringLiteral("r"));
        QCOMPARE(int(d->answer.decision), decision);
        QCOMPARE(d->answer.message, a.message);
    }

    void lineBuffer_data()
    {
        QTest::addColumn<QByteArrayList>("chunks");
        QTest::addColumn<QByteArrayList>("lines");
        QTest::addColumn<bool>("fits");
        QTest::addColumn<int>("left"); // bytes of an unfinished line kept
        // The limit is 8 bytes a line.
        QTest::newRow("nothing") << QByteArrayList{} << QByteArrayList{} << true << 0;
        QTest::newRow("one line") << QByteArrayList{"abc\n"} << QByteArrayList{"abc"} << true << 0;
        QTest::newRow("split across chunks")
            << QByteArrayList{"ab", "c\nde", "f\n"} << QByteArrayList{"abc", "def"} << true << 0;
        QTest::newRow("unfinished kept") << QByteArrayList{"abc\nxy"} << QByteArrayList{"abc"} << true << 2;
        QTest::newRow("empty lines") << QByteArrayList{"\n\n"} << QByteArrayList{"", ""} << true << 0;
        QTest::newRow("exactly the limit") << QByteArrayList{"12345678\n"} << QByteArrayList{"12345678"} << true << 0;
        QTest::newRow("over, finished") << QByteArrayList{"123456789\n"} << QByteArrayList{} << false << 0;
        // Refused before its end arrives: a peer cannot make the other side wait for it.
        QTest::newRow("over, unfinished") << QByteArrayList{"12345", "6789"} << QByteArrayList{} << false << 0;
        QTest::newRow("good lines before a long one")
            << QByteArrayList{"ok\n123456789"} << QByteArrayList{"ok"} << false << 0;
    }
    void lineBuffer()
    {
        QFETCH(QByteArrayList, chunks);
        QFETCH(QByteArrayList, lines);
        QFETCH(bool, fits);
        QFETCH(int, left);
        wire::LineBuffer buffer(8);
        QList<QByteArray> got;
        bool ok = true;
        for (const QByteArray &c : chunks) {
            ok = buffer.feed(c, &got);
            if (!ok)
                break;
        }
        QCOMPARE(ok, fits);
        QCOMPARE(got, lines);
        QCOMPARE(buffer.buffered(), qsizetype(left));
    }

    void decisionNames()
    {
        for (ApprovalDecision d : {ApprovalDecision::Once, ApprovalDecision::Always, ApprovalDecision::Deny}) {
            ApprovalDecision back = ApprovalDecision::Once;
            QVERIFY(approvalDecisionFromName(approvalDecisionName(d), &back));
            QCOMPARE(back, d);
        }
        QCOMPARE(approvalDecisionName(ApprovalDecision::Always), QStringLiteral("always"));
        ApprovalDecision unchanged = ApprovalDecision::Once;
        QVERIFY(!approvalDecisionFromName(QStringLiteral("Once"), &unchanged));
        QVERIFY(!approvalDecisionFromName(QString(), &unchanged));
        QCOMPARE(unchanged, ApprovalDecision::Once);
    }

    void socketPath()
    {
        QCOMPARE(agentSocketPath(QStringLiteral("/home/a/.config/sandbar")),
                 QStringLiteral("/home/a/.config/sandbar/agents.sock"));
    }
};

QTEST_GUILESS_MAIN(TestMcpWire)
#include "tst_mcp_wire.moc"
