#include "mcp/JsonRpc.h"
#include "mcp/McpServer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace sandbar::mcp;

Q_DECLARE_METATYPE(RpcMessage::Kind)

namespace {

QJsonObject parse(const QByteArray &line)
{
    return QJsonDocument::fromJson(line).object();
}

// A server with one tool that answers when told to (or at once), for the request tables.
struct Harness {
    McpServer server{QStringLiteral("sandbar"), QStringLiteral("9.9")};
    QList<QByteArray> sent;
    QList<ToolCall *> pending;
    bool cancelled = false;

    Harness()
    {
        QObject::connect(&server, &McpServer::send, &server, [this](const QByteArray &l) { sent << l; });
        Tool echo;
        echo.name = QStringLiteral("echo");
        echo.inputSchema = QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("text"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}},
                         {QStringLiteral("n"), QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")},
                                                           {QStringLiteral("minimum"), 1}}},
                         {QStringLiteral("later"), QJsonObject{{QStringLiteral("type"), QStringLiteral("boolean")}}}}},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("text")}},
            {QStringLiteral("additionalProperties"), false}};
        echo.cancelOnDisconnect = true;
        echo.run = [this](ToolCall *call) {
            QObject::connect(call, &ToolCall::cancelled, &server, [this] { cancelled = true; });
            if (call->arguments().value(QLatin1String("later")).toBool())
                pending << call;
            else if (call->arguments().value(QLatin1String("text")) == QLatin1String("fail"))
                call->fail(QStringLiteral("it failed"));
            else
                call->finish(
                    ToolResult::ok({{QStringLiteral("text"), call->arguments().value(QLatin1String("text"))}}));
        };
        server.addTool(echo);
    }
    QJsonObject last() const { return sent.isEmpty() ? QJsonObject() : parse(sent.last()); }
};

} // namespace

class TestMcpCodec final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void decode_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<RpcMessage::Kind>("kind");
        QTest::addColumn<int>("code");      // for Invalid
        QTest::addColumn<QJsonValue>("id"); // as it would be answered
        using K = RpcMessage::Kind;
        const QJsonValue null(QJsonValue::Null);
        QTest::newRow("empty") << QByteArray() << K::Empty << 0 << null;
        QTest::newRow("blank with CR") << QByteArray(" \t\r") << K::Empty << 0 << null;
        QTest::newRow("request") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}") << K::Request << 0
                                 << QJsonValue(1);
        QTest::newRow("request with CR") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"}\r")
                                         << K::Request << 0 << QJsonValue(QStringLiteral("a"));
        QTest::newRow("string id")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":\"x-1\",\"method\":\"tools/list\",\"params\":{}}") << K::Request
            << 0 << QJsonValue(QStringLiteral("x-1"));
        QTest::newRow("notification") << QByteArray("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                                      << K::Notification << 0 << null;
        QTest::newRow("response result") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}") << K::Response
                                         << 0 << QJsonValue(7);
        QTest::newRow("response error")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"error\":{\"code\":-1,\"message\":\"no\"}}")
            << K::Response << 0 << QJsonValue(QStringLiteral("q"));
        QTest::newRow("truncated") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"meth") << K::Invalid
                                   << rpc::ParseError << null;
        QTest::newRow("garbage") << QByteArray("\x01\xff not json") << K::Invalid << rpc::ParseError << null;
        QTest::newRow("bare number") << QByteArray("42") << K::Invalid << rpc::InvalidRequest << null;
        QTest::newRow("bare string") << QByteArray("\"ping\"") << K::Invalid << rpc::InvalidRequest << null;
        QTest::newRow("batch") << QByteArray("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]") << K::Invalid
                               << rpc::InvalidRequest << null;
        QTest::newRow("empty batch") << QByteArray("[]") << K::Invalid << rpc::InvalidRequest << null;
        QTest::newRow("missing jsonrpc") << QByteArray("{\"id\":3,\"method\":\"ping\"}") << K::Invalid
                                         << rpc::InvalidRequest << QJsonValue(3);
        QTest::newRow("jsonrpc 1.0") << QByteArray("{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"ping\"}") << K::Invalid
                                     << rpc::InvalidRequest << QJsonValue(3);
        QTest::newRow("null id") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}") << K::Invalid
                                 << rpc::InvalidRequest << null;
        QTest::newRow("bool id") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}") << K::Invalid
                                 << rpc::InvalidRequest << null;
        QTest::newRow("object id") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}") << K::Invalid
                                   << rpc::InvalidRequest << null;
        QTest::newRow("fractional id") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}")
                                       << K::Invalid << rpc::InvalidRequest << null;
        QTest::newRow("method not a string") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":5}") << K::Invalid
                                             << rpc::InvalidRequest << QJsonValue(4);
        QTest::newRow("params a string") << QByteArray(
                                                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\",\"params\":\"x\"}")
                                         << K::Invalid << rpc::InvalidRequest << QJsonValue(4);
        QTest::newRow("neither method nor result")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":4}") << K::Invalid << rpc::InvalidRequest << QJsonValue(4);
        QTest::newRow("result and error")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{},\"error\":{\"code\":1,\"message\":\"x\"}}")
            << K::Invalid << rpc::InvalidRequest << QJsonValue(4);
        QTest::newRow("response without id")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"result\":{}}") << K::Invalid << rpc::InvalidRequest << null;
    }
    void decode()
    {
        QFETCH(QByteArray, line);
        QFETCH(RpcMessage::Kind, kind);
        QFETCH(int, code);
        QFETCH(QJsonValue, id);
        const RpcMessage m = decodeMessage(line);
        QCOMPARE(int(m.kind), int(kind));
        if (kind == RpcMessage::Kind::Invalid) {
            QCOMPARE(m.error.code, code);
            QVERIFY(!m.error.message.isEmpty());
        }
        if (kind != RpcMessage::Kind::Empty && kind != RpcMessage::Kind::Notification)
            QCOMPARE(m.id, id);
        // Whatever was answered is one line of valid JSON-RPC.
        const QByteArray answer = encodeError(m.id, m.error);
        QVERIFY(answer.endsWith('\n'));
        QCOMPARE(answer.count('\n'), 1);
        QCOMPARE(parse(answer).value(QLatin1String("jsonrpc")).toString(), QStringLiteral("2.0"));
    }

    void encodeKeepsOneLine()
    {
        const QByteArray line = encodeResult(
            QJsonValue(5), {{QStringLiteral("text"), QStringLiteral("two\nlines and \u00e9\u6f22 \"quotes\"")}});
        QCOMPARE(line.count('\n'), 1);
        const QJsonObject o = parse(line);
        QCOMPARE(o.value(QLatin1String("id")).toInt(), 5);
        QCOMPARE(o[QStringLiteral("result")][QStringLiteral("text")].toString(),
                 QStringLiteral("two\nlines and \u00e9\u6f22 \"quotes\""));
        const QJsonObject n = parse(encodeNotification(QStringLiteral("notifications/x"), {}));
        QVERIFY(!n.contains(QLatin1String("id")));
        QVERIFY(!n.contains(QLatin1String("params")));
    }

    void lineSplitter_data()
    {
        QTest::addColumn<QList<QByteArray>>("chunks");
        QTest::addColumn<QStringList>("lines"); // "!N": an oversized line of N bytes
        QTest::addColumn<qsizetype>("maxBuffered");
        QTest::newRow("nothing") << QList<QByteArray>{} << QStringList{} << qsizetype(0);
        QTest::newRow("one line") << QList<QByteArray>{"abc\n"} << QStringList{QStringLiteral("abc")} << qsizetype(0);
        QTest::newRow("split across chunks")
            << QList<QByteArray>{"ab", "c\nde", "f\n"} << QStringList{QStringLiteral("abc"), QStringLiteral("def")}
            << qsizetype(2);
        QTest::newRow("empty lines") << QList<QByteArray>{"\n\n"} << QStringList{QString(), QString()} << qsizetype(0);
        QTest::newRow("unterminated last line")
            << QList<QByteArray>{"abc\nxy"} << QStringList{QStringLiteral("abc"), QStringLiteral("xy")} << qsizetype(2);
        QTest::newRow("exactly the limit")
            << QList<QByteArray>{"12345678\n"} << QStringList{QStringLiteral("12345678")} << qsizetype(0);
        QTest::newRow("over the limit in one chunk")
            << QList<QByteArray>{"123456789\nok\n"} << QStringList{QStringLiteral("!9"), QStringLiteral("ok")}
            << qsizetype(0);
        QTest::newRow("over the limit across chunks, not kept")
            << QList<QByteArray>{"12345", "67890", "12345", "\nok\n"}
            << QStringList{QStringLiteral("!15"), QStringLiteral("ok")} << qsizetype(5);
        QTest::newRow("oversized and unterminated")
            << QList<QByteArray>{"1234567890123"} << QStringList{QStringLiteral("!13")} << qsizetype(0);
    }
    void lineSplitter()
    {
        QFETCH(QList<QByteArray>, chunks);
        QFETCH(QStringList, lines);
        QFETCH(qsizetype, maxBuffered);
        LineSplitter s(8);
        QStringList got;
        qsizetype peak = 0;
        const auto take = [&got](const QList<LineSplitter::Line> &ls) {
            for (const auto &l : ls)
                got << (l.oversized ? QStringLiteral("!%1").arg(l.size) : QString::fromUtf8(l.bytes));
        };
        for (const auto &c : chunks) {
            take(s.feed(c));
            peak = std::max(peak, s.buffered());
        }
        take(s.finish());
        QCOMPARE(got, lines);
        QVERIFY2(peak <= std::max<qsizetype>(maxBuffered, 8), qPrintable(QString::number(peak)));
    }

    void negotiation_data()
    {
        QTest::addColumn<QString>("asked");
        QTest::addColumn<QString>("answered");
        QTest::newRow("latest") << QStringLiteral("2025-11-25") << QStringLiteral("2025-11-25");
        QTest::newRow("2025-06-18") << QStringLiteral("2025-06-18") << QStringLiteral("2025-06-18");
        QTest::newRow("2025-03-26") << QStringLiteral("2025-03-26") << QStringLiteral("2025-03-26");
        QTest::newRow("2024-11-05") << QStringLiteral("2024-11-05") << QStringLiteral("2024-11-05");
        QTest::newRow("future") << QStringLiteral("2099-01-01") << QStringLiteral("2025-11-25");
        QTest::newRow("garbage") << QStringLiteral("yesterday") << QStringLiteral("2025-11-25");
        QTest::newRow("empty") << QString() << QStringLiteral("2025-11-25");
    }
    void negotiation()
    {
        QFETCH(QString, asked);
        QFETCH(QString, answered);
        QCOMPARE(negotiateProtocolVersion(asked), answered);
    }

    void checkArguments_data()
    {
        QTest::addColumn<QByteArray>("args");
        QTest::addColumn<QString>("error"); // a word the message must hold; empty: accepted
        QTest::newRow("fits") << QByteArray("{\"text\":\"a\",\"n\":2}") << QString();
        QTest::newRow("missing required") << QByteArray("{\"n\":2}") << QStringLiteral("text");
        QTest::newRow("unknown") << QByteArray("{\"text\":\"a\",\"bogus\":1}") << QStringLiteral("bogus");
        QTest::newRow("wrong type") << QByteArray("{\"text\":5}") << QStringLiteral("string");
        QTest::newRow("fraction for integer") << QByteArray("{\"text\":\"a\",\"n\":1.5}") << QStringLiteral("integer");
        QTest::newRow("below minimum") << QByteArray("{\"text\":\"a\",\"n\":0}") << QStringLiteral("at least");
    }
    void checkArguments()
    {
        QFETCH(QByteArray, args);
        QFETCH(QString, error);
        Harness h;
        const QString got =
            sandbar::mcp::checkArguments(h.server.tool(QStringLiteral("echo"))->inputSchema, parse(args));
        if (error.isEmpty())
            QVERIFY2(got.isEmpty(), qPrintable(got));
        else
            QVERIFY2(got.contains(error), qPrintable(got));
    }

    void requests_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<int>("code"); // 0: a result; 1: no answer at all
        QTest::addColumn<bool>("isError");
        QTest::newRow("ping") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}") << 0 << false;
        QTest::newRow("unknown method") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"frobnicate\"}")
                                        << rpc::MethodNotFound << false;
        QTest::newRow("unknown notification")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}") << 1 << false;
        QTest::newRow("client response") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}") << 1 << false;
        QTest::newRow("array params") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":[1]}")
                                      << rpc::InvalidParams << false;
        QTest::newRow("initialize without version")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}")
            << rpc::InvalidParams << false;
        QTest::newRow("call without name")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}") << rpc::InvalidParams << false;
        QTest::newRow("unknown tool")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\"}}")
            << rpc::InvalidParams << false;
        QTest::newRow("arguments not an object") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/"
                                                               "call\",\"params\":{\"name\":\"echo\",\"arguments\":3}}")
                                                 << rpc::InvalidParams << false;
        QTest::newRow("bad arguments are a tool error")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/"
                          "call\",\"params\":{\"name\":\"echo\",\"arguments\":{}}}")
            << 0 << true;
        QTest::newRow("tool failure is a tool error")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/"
                          "call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"fail\"}}}")
            << 0 << true;
        QTest::newRow("tool ok") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/"
                                               "call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"}}}")
                                 << 0 << false;
        QTest::newRow("garbage") << QByteArray("{") << rpc::ParseError << false;
        QTest::newRow("batch") << QByteArray("[]") << rpc::InvalidRequest << false;
    }
    void requests()
    {
        QFETCH(QByteArray, line);
        QFETCH(int, code);
        QFETCH(bool, isError);
        Harness h;
        h.server.handleLine(line);
        if (code == 1) {
            QVERIFY(h.sent.isEmpty());
            return;
        }
        QCOMPARE(h.sent.size(), 1);
        const QJsonObject o = h.last();
        if (code != 0) {
            QCOMPARE(o[QStringLiteral("error")][QStringLiteral("code")].toInt(), code);
            return;
        }
        QVERIFY2(o.contains(QLatin1String("result")), h.sent.last().constData());
        const QJsonObject r = o.value(QLatin1String("result")).toObject();
        if (line.contains("tools/call")) {
            QCOMPARE(r.value(QLatin1String("isError")).toBool(), isError);
            QCOMPARE(r[QStringLiteral("content")][0][QStringLiteral("type")].toString(), QStringLiteral("text"));
            QCOMPARE(r.contains(QLatin1String("structuredContent")), !isError);
        }
    }

    void initializeAnswersTheNegotiatedVersion()
    {
        Harness h;
        h.server.handleLine(
            "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\","
            "\"capabilities\":{},\"clientInfo\":{\"name\":\"probe\",\"version\":\"1.2\"}}}");
        const QJsonObject r = h.last().value(QLatin1String("result")).toObject();
        QCOMPARE(r[QStringLiteral("protocolVersion")].toString(), QStringLiteral("2025-03-26"));
        QCOMPARE(r[QStringLiteral("serverInfo")][QStringLiteral("name")].toString(), QStringLiteral("sandbar"));
        QVERIFY(r[QStringLiteral("capabilities")][QStringLiteral("tools")].isObject());
        QCOMPARE(h.server.client().name, QStringLiteral("probe"));
        QCOMPARE(h.server.client().version, QStringLiteral("1.2"));
        h.server.handleLine("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        QVERIFY(h.server.initialized());
        QCOMPARE(h.sent.size(), 1);
    }

    // A long call does not hold up other requests; a cancelled one is never answered.
    void callsRunSideBySideAndCancel()
    {
        Harness h;
        h.server.handleLine("{\"jsonrpc\":\"2.0\",\"id\":\"slow\",\"method\":\"tools/"
                            "call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"a\",\"later\":true}}}");
        h.server.handleLine("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/"
                            "call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"b\",\"later\":true}}}");
        QVERIFY(h.sent.isEmpty());
        QCOMPARE(h.server.callsInFlight(), 2);
        h.server.handleLine("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
        QCOMPARE(h.sent.size(), 1);
        QCOMPARE(h.last().value(QLatin1String("id")).toInt(), 3);
        // The same id again while it runs is refused.
        h.server.handleLine("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/"
                            "call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"c\"}}}");
        QCOMPARE(h.last()[QStringLiteral("error")][QStringLiteral("code")].toInt(), rpc::InvalidRequest);
        h.server.handleLine("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/"
                            "cancelled\",\"params\":{\"requestId\":\"slow\",\"reason\":\"x\"}}");
        QVERIFY(h.cancelled);
        QCOMPARE(h.server.callsInFlight(), 1);
        const int before = int(h.sent.size());
        h.pending.at(0)->finish(ToolResult::ok({})); // a late answer for a cancelled call goes nowhere
        QCOMPARE(h.sent.size(), before);
        h.pending.at(1)->finish(ToolResult::ok({{QStringLiteral("text"), QStringLiteral("b")}}));
        QCOMPARE(h.sent.size(), before + 1);
        QCOMPARE(h.last().value(QLatin1String("id")).toInt(), 2);
        QCOMPARE(h.server.callsInFlight(), 0);
        // Cancelling what already answered, or an unknown id, changes nothing.
        h.server.handleLine(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":2}}");
        h.server.handleLine("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{}}");
        QCOMPARE(h.sent.size(), before + 1);
    }

    void inputClosedCancelsOnlyWhatAsks()
    {
        Harness h;
        h.server.handleLine("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/"
                            "call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"a\",\"later\":true}}}");
        bool idle = false;
        QObject::connect(&h.server, &McpServer::idle, &h.server, [&idle] { idle = true; });
        h.server.inputClosed();
        QVERIFY(h.cancelled);
        QVERIFY(idle);
        QVERIFY(h.sent.isEmpty());
    }

    void oversizedLineIsAParseError()
    {
        Harness h;
        h.server.handleOversizedLine(20 * 1024 * 1024, 16 * 1024 * 1024);
        QCOMPARE(h.last()[QStringLiteral("error")][QStringLiteral("code")].toInt(), rpc::ParseError);
        QVERIFY(h.last().value(QLatin1String("id")).isNull());
    }

    // With the request's id known, the request that was too long gets its own answer.
    void oversizedRequestIsAnsweredWithItsId()
    {
        Harness h;
        h.server.handleOversizedLine(20 * 1024 * 1024, 16 * 1024 * 1024, 42);
        QCOMPARE(h.last()[QStringLiteral("error")][QStringLiteral("code")].toInt(), rpc::InvalidRequest);
        QCOMPARE(h.last().value(QLatin1String("id")).toInt(), 42);
        QVERIFY(h.last()[QStringLiteral("error")][QStringLiteral("message")].toString().contains(
            QLatin1String("over the limit")));
    }

    void idOfOversized_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QByteArray>("tail");
        QTest::addColumn<QJsonValue>("id");
        const QJsonValue none = QJsonValue::Null;
        QTest::newRow("empty") << QByteArray() << QByteArray() << none;
        QTest::newRow("garbage") << QByteArray("\x01\xff{{{") << QByteArray("]]]}") << none;
        QTest::newRow("id first (number)")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"a\":\"")
            << QByteArray("xxx\"}}") << QJsonValue(7);
        QTest::newRow("id first (string)") << QByteArray("{ \"id\" : \"req-1\" , \"params\": {\"x\": \"")
                                           << QByteArray() << QJsonValue(QStringLiteral("req-1"));
        QTest::newRow("id last, as the SDK writes it")
            << QByteArray("{\"method\":\"tools/call\",\"params\":{\"arguments\":{\"content\":\"aaaa")
            << QByteArray("aaaa\"}},\"jsonrpc\":\"2.0\",\"id\":12}") << QJsonValue(12);
        QTest::newRow("id last with spaces") << QByteArray("{\"params\": \"") << QByteArray("x\" , \"id\" : \"q\" }  ")
                                             << QJsonValue(QStringLiteral("q"));
        QTest::newRow("nested id is not the request's")
            << QByteArray("{\"params\":{\"id\":5,\"x\":\"") << QByteArray("x\",\"id\":6}}") << none;
        QTest::newRow("id inside a string in the head")
            << QByteArray("{\"params\":{\"text\":\"\\\"id\\\":9,") << QByteArray() << none;
        QTest::newRow("a key ending in id") << QByteArray("{\"params\":\"") << QByteArray("x\",\"xid\":3}") << none;
        QTest::newRow("fractional id") << QByteArray("{\"id\":1.5,\"params\":\"") << QByteArray() << none;
        QTest::newRow("object id") << QByteArray("{\"id\":{\"a\":1},\"params\":\"") << QByteArray() << none;
        QTest::newRow("head cut inside the id") << QByteArray("{\"id\":12") << QByteArray() << none;
    }
    void idOfOversized()
    {
        QFETCH(QByteArray, head);
        QFETCH(QByteArray, tail);
        QFETCH(QJsonValue, id);
        QCOMPARE(sandbar::mcp::idOfOversized(head, tail), id);
    }

    // The splitter keeps an oversized line's edges (and no more), for idOfOversized.
    void oversizedLineKeepsItsEdges()
    {
        LineSplitter s(64);
        const QByteArray body(3 * LineSplitter::kEdgeBytes, 'x');
        const QByteArray line = "{\"method\":\"m\",\"params\":{\"c\":\"" + body + "\"},\"id\":99}";
        QList<LineSplitter::Line> got;
        for (qsizetype i = 0; i < line.size(); i += 1000)
            got += s.feed(QByteArrayView(line).sliced(i, std::min<qsizetype>(1000, line.size() - i)));
        got += s.feed("\n");
        QCOMPARE(got.size(), 1);
        QVERIFY(got.at(0).oversized);
        QCOMPARE(got.at(0).size, line.size());
        QCOMPARE(got.at(0).head, line.left(LineSplitter::kEdgeBytes));
        QCOMPARE(got.at(0).tail, line.right(LineSplitter::kEdgeBytes));
        QCOMPARE(sandbar::mcp::idOfOversized(got.at(0).head, got.at(0).tail), QJsonValue(99));
    }
};

QTEST_GUILESS_MAIN(TestMcpCodec)
#include "tst_mcp_codec.moc"
