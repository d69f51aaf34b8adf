#include "TestSupport.h"
#include "mcp/JsonRpc.h"
#include "mcp/McpHttpServer.h"
#include "mcp/McpServer.h"
#include "net/HttpParser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>
#include <memory>

using namespace sandbar;
using namespace sandbar::mcp;

namespace {

constexpr int kWait = 10000;

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray rpcRequest(int id, const QString &method, const QJsonObject &params = {})
{
    return json({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                 {QStringLiteral("id"), id},
                 {QStringLiteral("method"), method},
                 {QStringLiteral("params"), params}});
}

QByteArray initializeBody()
{
    return rpcRequest(1, QStringLiteral("initialize"),
                      {{QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
                       {QStringLiteral("capabilities"), QJsonObject{}},
                       {QStringLiteral("clientInfo"), QJsonObject{{QStringLiteral("name"), QStringLiteral("raw")},
                                                                  {QStringLiteral("version"), QStringLiteral("1")}}}});
}

QByteArray callBody(int id, const QString &tool, const QJsonObject &args, bool progress = false)
{
    QJsonObject params{{QStringLiteral("name"), tool}, {QStringLiteral("arguments"), args}};
    if (progress)
        params[QStringLiteral("_meta")] =
            QJsonObject{{QStringLiteral("progressToken"), QStringLiteral("tok-%1").arg(id)}};
    return rpcRequest(id, QStringLiteral("tools/call"), params);
}

// The JSON-RPC messages of an SSE body, in order.
QList<QJsonObject> sseMessages(const QByteArray &body)
{
    QList<QJsonObject> out;
    for (const QByteArray &event : body.split('\n')) {
        if (event.startsWith("data: "))
            out.append(QJsonDocument::fromJson(event.mid(6)).object());
    }
    return out;
}

// One keep-alive connection speaking raw HTTP, reading responses with core/net's parser.
class Client
{
public:
    explicit Client(quint16 port) { m_socket.connectToHost(QHostAddress(QHostAddress::LocalHost), port); }

    QTcpSocket &socket() { return m_socket; }

    void send(const QByteArray &bytes)
    {
        m_parser = net::HttpResponseParser();
        m_head = {};
        m_body.clear();
        m_socket.write(bytes);
    }

    // Reads whatever arrived; true once the response is complete.
    bool pump()
    {
        const QByteArray data = m_socket.readAll();
        if (!data.isEmpty()) {
            net::HttpParseEvents ev;
            m_parser.feed(data, ev);
            if (ev.headersComplete)
                m_head = ev.head;
            m_body += ev.body;
        }
        return m_parser.isComplete();
    }

    bool headersIn() const { return m_parser.headersComplete(); }
    const QByteArray &body() const { return m_body; }
    const net::HttpResponse &head() const { return m_head; }
    bool closed() const { return m_socket.state() == QAbstractSocket::UnconnectedState; }

    // The whole response to what was sent; status 0 when none came.
    net::HttpResponse reply()
    {
        test::waitUntil([this] { return pump() || m_parser.failed() || closed(); }, kWait);
        pump();
        net::HttpResponse r = m_parser.isComplete() ? m_head : net::HttpResponse{};
        r.body = m_body;
        return r;
    }

    net::HttpResponse exchange(const QByteArray &bytes)
    {
        send(bytes);
        return reply();
    }

    bool waitClosed()
    {
        return test::waitUntil(
            [this] {
                m_socket.readAll();
                return closed();
            },
            kWait);
    }

private:
    QTcpSocket m_socket;
    net::HttpResponseParser m_parser;
    net::HttpResponse m_head;
    QByteArray m_body;
};

} // namespace

// McpHttpServer over real loopback sockets: who is let in, the session's life, JSON and SSE
// answers, limits, and a client that leaves in the middle of a call.
class TestMcpHttp final : public QObject
{
    Q_OBJECT

    std::unique_ptr<McpHttpServer> m_server;
    QString m_token;
    int m_made = 0;
    int m_hangCancelled = 0;
    int m_hangStarted = 0;
    int m_keepStarted = 0;
    bool m_keepCancelled = false;

    McpServer *makeServer(QObject *parent)
    {
        ++m_made;
        auto *s = new McpServer(QStringLiteral("sandbar-test"), QStringLiteral("0"), parent);
        const QJsonObject textArg{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("text"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}}};
        s->addTool(Tool{QStringLiteral("echo"),
                        {},
                        QStringLiteral("Returns its text."),
                        textArg,
                        {},
                        {},
                        false,
                        [](ToolCall *call) {
                            call->finish(ToolResult::ok(
                                {{QStringLiteral("text"), call->arguments().value(QLatin1String("text"))}}));
                        }});
        // Three progress notifications, then the result.
        s->addTool(Tool{
            QStringLiteral("slow"), {}, QStringLiteral("Reports progress."), textArg, {}, {}, true, [](ToolCall *call) {
                for (int i = 1; i <= 3; ++i) {
                    QTimer::singleShot(20 * i, call, [call, i] {
                        call->reportProgress(i, 3, {});
                        if (i == 3)
                            call->finish(ToolResult::ok({{QStringLiteral("steps"), 3}}));
                    });
                }
            }});
        s->addTool(Tool{QStringLiteral("hang"),
                        {},
                        QStringLiteral("Never answers."),
                        textArg,
                        {},
                        {},
                        true,
                        [this](ToolCall *call) {
                            ++m_hangStarted;
                            connect(call, &ToolCall::cancelled, this, [this] { ++m_hangCancelled; });
                        }});
        s->addTool(Tool{QStringLiteral("keep"),
                        {},
                        QStringLiteral("Runs on after a disconnect."),
                        textArg,
                        {},
                        {},
                        false,
                        [this](ToolCall *call) {
                            ++m_keepStarted;
                            connect(call, &ToolCall::cancelled, this, [this] { m_keepCancelled = true; });
                            QTimer::singleShot(300, call, [call] { call->finish(ToolResult::ok({})); });
                        }});
        return s;
    }

    QByteArray request(const QByteArray &method, const QByteArray &body, const QByteArray &session = {},
                       const QList<QByteArray> &extra = {},
                       const QByteArray &accept = "application/json, "
                                                  "text/event-stream")
    {
        QByteArray r =
            method + " /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(m_server->serverPort()) + "\r\n";
        bool auth = true;
        for (const QByteArray &h : extra)
            auth = auth && !h.startsWith("Authorization") && h != "NoAuth";
        if (auth)
            r += "Authorization: Bearer " + m_token.toLatin1() + "\r\n";
        for (const QByteArray &h : extra) {
            if (h != "NoAuth")
                r += h + "\r\n";
        }
        if (!session.isEmpty())
            r += "Mcp-Session-Id: " + session + "\r\n";
        if (method == "POST")
            r += "Content-Type: application/json\r\nAccept: " + accept + "\r\n";
        return r + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    }

    // A session ready for calls, on `client`'s connection.
    QByteArray initialize(Client &client)
    {
        const net::HttpResponse init = client.exchange(request("POST", initializeBody()));
        if (init.status != 200)
            return {};
        const QByteArray session = init.header("mcp-session-id");
        const auto note = json({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                {QStringLiteral("method"), QStringLiteral("notifications/initialized")}});
        if (client.exchange(request("POST", note, session)).status != 202)
            return {};
        return session;
    }

private Q_SLOTS:
    void init()
    {
        m_made = m_hangCancelled = m_hangStarted = m_keepStarted = 0;
        m_keepCancelled = false;
        m_token = newBearerToken();
        m_server = std::make_unique<McpHttpServer>([this](QObject *parent) { return makeServer(parent); });
        m_server->setToken(m_token);
        QVERIFY(m_server->listen(0).ok());
    }

    void cleanup() { m_server.reset(); }

    void loopbackOnlyAndTokenRequired()
    {
        QCOMPARE(m_server->serverAddress(), QHostAddress(QHostAddress::LocalHost));
        QVERIFY(m_server->serverPort() > 0);
        QCOMPARE(m_token.size(), 43);
        QVERIFY(m_token != newBearerToken());
        McpHttpServer tokenless([this](QObject *parent) { return makeServer(parent); });
        QVERIFY(!tokenless.listen(0).ok());
    }

    void refusedWithoutToken()
    {
        Client c(m_server->serverPort());
        net::HttpResponse r = c.exchange(request("POST", initializeBody(), {}, {"NoAuth"}));
        QCOMPARE(r.status, 401);
        QCOMPARE(r.header("www-authenticate"), QByteArray(R"(Bearer realm="sandbar")"));
        r = c.exchange(request("POST", initializeBody(), {}, {"Authorization: Bearer " + newBearerToken().toLatin1()}));
        QCOMPARE(r.status, 401);
        QVERIFY(r.header("www-authenticate").contains("invalid_token"));
        r = c.exchange(request("POST", initializeBody(), {}, {"Authorization: Basic " + m_token.toLatin1()}));
        QCOMPARE(r.status, 401);
        // A prefix of the right token is as wrong as any other.
        r = c.exchange(request("POST", initializeBody(), {}, {"Authorization: Bearer " + m_token.left(42).toLatin1()}));
        QCOMPARE(r.status, 401);
        r = c.exchange(request("GET", {}, {}, {"NoAuth"}));
        QCOMPARE(r.status, 401);
        QCOMPARE(m_made, 0);
        QCOMPARE(m_server->sessionCount(), 0);
        // The refusal carries a JSON-RPC error an SDK can show.
        QVERIFY(QJsonDocument::fromJson(r.body).object().contains(QLatin1String("error")));
    }

    void refusedFromBrowserOrigins_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<int>("status");
        QTest::newRow("foreign origin") << QByteArray("Origin: https://evil.example") << 403;
        QTest::newRow("null origin") << QByteArray("Origin: null") << 403;
        QTest::newRow("other port origin") << QByteArray("Origin: http://127.0.0.1:1") << 403;
        QTest::newRow("https origin") << QByteArray("Origin: https://127.0.0.1:PORT") << 403;
        QTest::newRow("own origin") << QByteArray("Origin: http://localhost:PORT") << 200;
        QTest::newRow("rebound host") << QByteArray("Host: evil.example:PORT") << 403;
        QTest::newRow("other port host") << QByteArray("Host: 127.0.0.1:1") << 403;
        QTest::newRow("two hosts") << QByteArray("Host: localhost:PORT") << 400;
    }

    void refusedFromBrowserOrigins()
    {
        QFETCH(QByteArray, header);
        QFETCH(int, status);
        header.replace("PORT", QByteArray::number(m_server->serverPort()));
        QByteArray raw = request("POST", initializeBody(), {}, {header});
        if (header.startsWith("Host:") && !QByteArray(QTest::currentDataTag()).startsWith("two"))
            raw.replace(QByteArray("Host: 127.0.0.1:" + QByteArray::number(m_server->serverPort()) + "\r\n"),
                        QByteArray());
        Client c(m_server->serverPort());
        QCOMPARE(c.exchange(raw).status, status);
        QCOMPARE(m_made, status == 200 ? 1 : 0);
    }

    void sessionLifecycle()
    {
        QSignalSpy started(m_server.get(), &McpHttpServer::sessionStarted);
        QSignalSpy ended(m_server.get(), &McpHttpServer::sessionEnded);
        Client c(m_server->serverPort());
        const net::HttpResponse init = c.exchange(request("POST", initializeBody()));
        QCOMPARE(init.status, 200);
        QCOMPARE(init.header("content-type"), QByteArray("application/json"));
        const QByteArray session = init.header("mcp-session-id");
        QCOMPARE(session.size(), 43);
        const QJsonObject result =
            QJsonDocument::fromJson(init.body).object().value(QLatin1String("result")).toObject();
        QCOMPARE(result.value(QLatin1String("protocolVersion")).toString(), QStringLiteral("2025-11-25"));
        QCOMPARE(started.size(), 1);
        QCOMPARE(started.at(0).at(0).toString(), QString::fromLatin1(session));
        QCOMPARE(m_server->session(QString::fromLatin1(session))->client().name, QStringLiteral("raw"));

        const QByteArray initialized = json({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                             {QStringLiteral("method"), QStringLiteral("notifications/initialized")}});
        net::HttpResponse r = c.exchange(request("POST", initialized, session));
        QCOMPARE(r.status, 202);
        QVERIFY(r.body.isEmpty());
        QVERIFY(m_server->session(QString::fromLatin1(session))->initialized());

        const QByteArray list = rpcRequest(2, QStringLiteral("tools/list"));
        QCOMPARE(c.exchange(request("POST", list)).status, 400);
        QCOMPARE(c.exchange(request("POST", list, "no-such-session")).status, 404);
        QCOMPARE(c.exchange(request("POST", list, session, {"MCP-Protocol-Version: 1999-01-01"})).status, 400);
        r = c.exchange(request("POST", list, session, {"MCP-Protocol-Version: 2025-11-25"}));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("content-type"), QByteArray("application/json"));
        const QJsonArray tools = QJsonDocument::fromJson(r.body)
                                     .object()
                                     .value(QLatin1String("result"))
                                     .toObject()
                                     .value(QLatin1String("tools"))
                                     .toArray();
        QCOMPARE(tools.size(), 4);
        // initialize again on a session is refused; a second session is a new server.
        QCOMPARE(c.exchange(request("POST", initializeBody(), session)).status, 400);
        QCOMPARE(c.exchange(request("GET", {}, session)).status, 405);
        QCOMPARE(c.exchange(request("POST", "{not json", session)).status, 400);
        QCOMPARE(c.exchange(request("POST", list, session, {}, "text/html")).status, 406);
        QCOMPARE(c.exchange(request("DELETE", {})).status, 400);

        QCOMPARE(c.exchange(request("DELETE", {}, session)).status, 204);
        QCOMPARE(ended.size(), 1);
        QCOMPARE(m_server->sessionCount(), 0);
        QCOMPARE(c.exchange(request("POST", list, session)).status, 404);
        QCOMPARE(c.exchange(request("DELETE", {}, session)).status, 404);
        QVERIFY(!c.closed()); // all of it on one keep-alive connection
    }

    // curl sends bodies over 1 MiB only after the server says to go on.
    void expectContinue()
    {
        Client c(m_server->serverPort());
        const QByteArray raw = request("POST", initializeBody());
        const qsizetype split = raw.indexOf("\r\n\r\n") + 4;
        QByteArray head = raw.left(split);
        head.insert(split - 2, "Expect: 100-continue\r\n");
        c.socket().write(head);
        QByteArray got;
        QVERIFY(test::waitUntil(
            [&] {
                got += c.socket().readAll();
                return got.contains("\r\n\r\n");
            },
            kWait));
        QCOMPARE(got, QByteArray("HTTP/1.1 100 Continue\r\n\r\n"));
        QCOMPARE(c.exchange(raw.mid(split)).status, 200);
    }

    void sessionsAreIsolated()
    {
        Client a(m_server->serverPort());
        Client b(m_server->serverPort());
        const QByteArray sa = initialize(a);
        const QByteArray sb = initialize(b);
        QVERIFY(!sa.isEmpty() && !sb.isEmpty() && sa != sb);
        QCOMPARE(m_made, 2);
        QVERIFY(m_server->session(QString::fromLatin1(sa)) != m_server->session(QString::fromLatin1(sb)));
        // The same request id in both sessions at once does not cross.
        a.send(request("POST", callBody(5, QStringLiteral("keep"), {}), sa));
        const net::HttpResponse rb = b.exchange(
            request("POST", callBody(5, QStringLiteral("echo"), {{QStringLiteral("text"), QStringLiteral("b")}}), sb));
        QCOMPARE(rb.status, 200);
        const QJsonObject expected{{QStringLiteral("text"), QStringLiteral("b")}};
        QCOMPARE(sseMessages(rb.body)
                     .last()
                     .value(QLatin1String("result"))
                     .toObject()
                     .value(QLatin1String("structuredContent")),
                 expected);
        const net::HttpResponse ra = a.reply();
        QCOMPARE(ra.status, 200);
        QVERIFY(sseMessages(ra.body).last().contains(QLatin1String("result")));
    }

    void toolCallAsJsonAndAsStream()
    {
        Client c(m_server->serverPort());
        const QByteArray session = initialize(c);
        QVERIFY(!session.isEmpty());
        const QJsonObject hello{{QStringLiteral("text"), QStringLiteral("héllo")}};

        // A client that takes JSON only gets JSON, even for a tool call.
        net::HttpResponse r =
            c.exchange(request("POST", callBody(3, QStringLiteral("echo"), hello), session, {}, "application/json"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("content-type"), QByteArray("application/json"));
        QJsonObject reply = QJsonDocument::fromJson(r.body).object();
        QCOMPARE(reply.value(QLatin1String("id")).toInt(), 3);
        QCOMPARE(reply.value(QLatin1String("result")).toObject().value(QLatin1String("structuredContent")).toObject(),
                 hello);

        // One that takes both gets the call as a stream, which ends with the result.
        r = c.exchange(request("POST", callBody(4, QStringLiteral("echo"), hello), session));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("content-type"), QByteArray("text/event-stream"));
        QCOMPARE(r.header("transfer-encoding"), QByteArray("chunked"));
        QList<QJsonObject> messages = sseMessages(r.body);
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.at(0).value(QLatin1String("result")).toObject().value(QLatin1String("structuredContent")),
                 hello);

        // Progress arrives on the call's stream, before its result.
        c.send(request("POST", callBody(5, QStringLiteral("slow"), {}, true), session));
        r = c.reply();
        messages = sseMessages(r.body);
        QCOMPARE(messages.size(), 4);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(messages.at(i).value(QLatin1String("method")).toString(),
                     QStringLiteral("notifications/progress"));
            QCOMPARE(messages.at(i).value(QLatin1String("params")).toObject().value(QLatin1String("progress")).toInt(),
                     i + 1);
            QCOMPARE(messages.at(i).value(QLatin1String("params")).toObject().value(QLatin1String("progressToken")),
                     QJsonValue(QStringLiteral("tok-5")));
        }
        QCOMPARE(messages.at(3).value(QLatin1String("id")).toInt(), 5);

        // Without a progress token nothing but the result comes.
        r = c.exchange(request("POST", callBody(6, QStringLiteral("slow"), {}), session));
        QCOMPARE(sseMessages(r.body).size(), 1);

        // An unknown tool is a JSON-RPC error on the stream.
        r = c.exchange(request("POST", callBody(7, QStringLiteral("nope"), {}), session));
        QCOMPARE(
            sseMessages(r.body).at(0).value(QLatin1String("error")).toObject().value(QLatin1String("code")).toInt(),
            rpc::InvalidParams);
        QVERIFY(!c.closed());
    }

    void limits()
    {
        {
            Client c(m_server->serverPort());
            const QByteArray head =
                "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(m_server->serverPort()) +
                "\r\nAuthorization: Bearer " + m_token.toLatin1() +
                "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(17 * 1024 * 1024) +
                "\r\n\r\n";
            c.send(head + QByteArray(256 * 1024, ' '));
            QCOMPARE(c.reply().status, 413);
            QVERIFY(c.waitClosed());
        }
        {
            Client c(m_server->serverPort());
            QCOMPARE(c.exchange("\x16\x03\x01 garbage\r\n\r\n").status, 400);
            QVERIFY(c.waitClosed());
        }
        {
            Client c(m_server->serverPort());
            QCOMPARE(c.exchange("GET /mcp HTTP/1.1\r\nX: " + QByteArray(70 * 1024, 'a') + "\r\n\r\n").status, 431);
            QVERIFY(c.waitClosed());
        }
        {
            Client c(m_server->serverPort());
            QCOMPARE(c.exchange(request("POST", initializeBody()).replace("/mcp", "/other")).status, 404);
        }
        QCOMPARE(m_made, 0);
    }

    void chunkedBodiesAndSmallLimits()
    {
        m_server = std::make_unique<McpHttpServer>([this](QObject *parent) { return makeServer(parent); });
        McpHttpServer::Limits limits;
        limits.maxBodyBytes = 1024;
        limits.idleTimeout = std::chrono::milliseconds(300);
        m_server->setLimits(limits);
        m_server->setToken(m_token);
        QVERIFY(m_server->listen(0).ok());

        Client c(m_server->serverPort());
        QByteArray chunked = request("POST", {});
        chunked.replace("Content-Length: 0", "Transfer-Encoding: chunked");
        const QByteArray body = initializeBody();
        const net::HttpResponse r =
            c.exchange(chunked + QByteArray::number(body.size(), 16) + "\r\n" + body + "\r\n0\r\n\r\n");
        QCOMPARE(r.status, 200);
        QVERIFY(!r.header("mcp-session-id").isEmpty());
        QCOMPARE(c.exchange(chunked + "800\r\n" + QByteArray(0x800, ' ')).status, 413);
        QVERIFY(c.waitClosed());

        // A connection that sends nothing is closed after the idle time.
        Client idle(m_server->serverPort());
        QVERIFY(idle.waitClosed());
        QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionCount(), 0, kWait);
    }

    void failedInitializeLeavesNoSession()
    {
        Client c(m_server->serverPort());
        const net::HttpResponse r = c.exchange(request("POST", rpcRequest(1, QStringLiteral("initialize"))));
        QCOMPARE(r.status, 200);
        QVERIFY(QJsonDocument::fromJson(r.body).object().contains(QLatin1String("error")));
        QVERIFY(r.header("mcp-session-id").isEmpty());
        QCOMPARE(m_server->sessionCount(), 0);
    }

    void capsHeartbeatsAndIdleSessions()
    {
        m_server = std::make_unique<McpHttpServer>([this](QObject *parent) { return makeServer(parent); });
        McpHttpServer::Limits limits;
        limits.maxSessions = 2;
        limits.maxConnections = 4;
        limits.heartbeat = std::chrono::milliseconds(50);
        limits.sessionIdleTimeout = std::chrono::milliseconds(1000);
        m_server->setLimits(limits);
        m_server->setToken(m_token);
        QVERIFY(m_server->listen(0).ok());
        QSignalSpy ended(m_server.get(), &McpHttpServer::sessionEnded);

        Client a(m_server->serverPort());
        Client b(m_server->serverPort());
        const QByteArray sa = initialize(a);
        const QByteArray sb = initialize(b);
        a.send(request("POST", callBody(1, QStringLiteral("hang"), {}), sa));
        QTRY_COMPARE_WITH_TIMEOUT(m_hangStarted, 1, kWait);
        // A third session makes room by ending the idle one, never a busy one.
        Client c(m_server->serverPort());
        const QByteArray sc = initialize(c);
        QVERIFY(!sc.isEmpty());
        QCOMPARE(ended.size(), 1);
        QCOMPARE(ended.at(0).at(0).toString(), QString::fromLatin1(sb));
        QCOMPARE(b.exchange(request("POST", rpcRequest(2, QStringLiteral("tools/list")), sb)).status, 404);
        // With every session busy there is no room.
        c.send(request("POST", callBody(1, QStringLiteral("hang"), {}), sc));
        QTRY_COMPARE_WITH_TIMEOUT(m_hangStarted, 2, kWait);
        Client d(m_server->serverPort());
        QCOMPARE(d.exchange(request("POST", initializeBody())).status, 503);

        // A call that waits keeps its stream alive with comments, and its session past the
        // idle time.
        QVERIFY(test::waitUntil(
            [&] {
                a.pump();
                return a.body().count(": keep-alive") >= 25;
            },
            kWait));
        QVERIFY(m_server->session(QString::fromLatin1(sa)));
        QVERIFY(sseMessages(a.body()).isEmpty());
        // Once nothing runs in it, an idle session ends.
        a.socket().abort();
        QTRY_VERIFY_WITH_TIMEOUT(!m_server->session(QString::fromLatin1(sa)), kWait);
        QCOMPARE(ended.size(), 2);

        // b, c and d are open: a fourth connection is served, a fifth is refused.
        Client e(m_server->serverPort());
        QCOMPARE(e.exchange(request("GET", {})).status, 405);
        Client f(m_server->serverPort());
        QCOMPARE(f.exchange(request("GET", {})).status, 503);
        QVERIFY(f.waitClosed());
    }

    void disconnectCancelsTheCall()
    {
        QByteArray session;
        {
            Client c(m_server->serverPort());
            session = initialize(c);
            QVERIFY(!session.isEmpty());
            c.send(request("POST", callBody(9, QStringLiteral("hang"), {}), session));
            QTRY_COMPARE_WITH_TIMEOUT(m_hangStarted, 1, kWait);
            QVERIFY(test::waitUntil([&] { return c.pump() || c.headersIn(); }, kWait));
            QCOMPARE(c.head().header("content-type"), QByteArray("text/event-stream"));
            QCOMPARE(m_hangCancelled, 0);
            c.socket().abort();
        }
        QTRY_COMPARE_WITH_TIMEOUT(m_hangCancelled, 1, kWait);
        QCOMPARE(m_server->session(QString::fromLatin1(session))->callsInFlight(), 0);

        // A tool that must not be abandoned runs on; the session stays usable.
        {
            Client c(m_server->serverPort());
            c.send(request("POST", callBody(10, QStringLiteral("keep"), {}), session));
            QTRY_COMPARE_WITH_TIMEOUT(m_keepStarted, 1, kWait);
            c.socket().abort();
        }
        McpServer *server = m_server->session(QString::fromLatin1(session));
        QTRY_COMPARE_WITH_TIMEOUT(server->callsInFlight(), 0, kWait);
        QVERIFY(!m_keepCancelled);

        // notifications/cancelled over another connection ends the call's stream.
        Client c(m_server->serverPort());
        Client other(m_server->serverPort());
        c.send(request("POST", callBody(11, QStringLiteral("hang"), {}), session));
        QTRY_COMPARE_WITH_TIMEOUT(m_hangStarted, 2, kWait);
        const QByteArray cancel = json({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                        {QStringLiteral("method"), QStringLiteral("notifications/cancelled")},
                                        {QStringLiteral("params"), QJsonObject{{QStringLiteral("requestId"), 11}}}});
        QCOMPARE(other.exchange(request("POST", cancel, session)).status, 202);
        QCOMPARE(m_hangCancelled, 2);
        const net::HttpResponse r = c.reply();
        QCOMPARE(r.status, 200);
        QVERIFY(sseMessages(r.body).isEmpty());

        // Ending the session cancels what runs in it and answers what waits.
        c.send(request("POST", callBody(12, QStringLiteral("hang"), {}), session));
        QTRY_COMPARE_WITH_TIMEOUT(m_hangStarted, 3, kWait);
        QCOMPARE(other.exchange(request("DELETE", {}, session)).status, 204);
        QCOMPARE(m_hangCancelled, 3);
        const QList<QJsonObject> last = sseMessages(c.reply().body);
        QCOMPARE(last.size(), 1);
        QVERIFY(last.at(0).contains(QLatin1String("error")));
    }
};

QTEST_GUILESS_MAIN(TestMcpHttp)
#include "tst_mcp_http.moc"
