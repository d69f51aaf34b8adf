// Agents and the window, end to end on the Local sandbox (offscreen): the real `sandbarctl mcp`
// asks the window's AgentHub over its socket and the person answers with the Agents view's
// buttons, so a create with network waits until "Approve once" and then runs, "Deny" fails it
// with the typed reason and creates nothing, "Always for this client" lets the same client's
// next create through unasked while another client is still asked. The window's own MCP
// endpoint over HTTP (McpHttpEndpoint, as the preferences turn it on) refuses a request
// without its bearer token and runs the same tools, approvals included, with it.
#include "FakeProvider.h"
#include "TestSupport.h"
#include "agents/AgentsView.h"
#include "costs/CostLedger.h"
#include "mcp/AgentHub.h"
#include "providers/local/LocalProvider.h"
#include "wiring/AppServices.h"
#include "wiring/GuiMcpHttp.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace sandbar;

namespace {

constexpr int CallMs = 60000;

// One `sandbarctl mcp` with lines in and out, read on the event loop (the hub and the view in
// this process must keep running while a call waits).
class StdioClient : public QObject
{
public:
    StdioClient(const QString &configDir, const QString &name)
    {
        connect(&m_proc, &QProcess::readyReadStandardOutput, this, [this] {
            m_buffer += m_proc.readAllStandardOutput();
            qsizetype nl;
            while ((nl = m_buffer.indexOf('\n')) >= 0) {
                const QJsonObject o = QJsonDocument::fromJson(m_buffer.left(nl)).object();
                m_buffer.remove(0, nl + 1);
                if (o.contains(QLatin1String("id")))
                    m_answers.insert(o.value(QLatin1String("id")).toInt(), o);
            }
        });
        m_proc.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_proc.start(QStringLiteral(SANDBARCTL_PATH),
                     {QStringLiteral("--config-dir"), configDir, QStringLiteral("mcp")});
        send(QStringLiteral("initialize"),
             QJsonObject{
                 {QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
                 {QStringLiteral("capabilities"), QJsonObject{}},
                 {QStringLiteral("clientInfo"),
                  QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("version"), QStringLiteral("3.1")}}}});
        m_proc.write(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                     "\n");
    }
    ~StdioClient() override
    {
        m_proc.closeWriteChannel();
        if (!m_proc.waitForFinished(30000))
            m_proc.kill();
    }

    int send(const QString &method, const QJsonObject &params)
    {
        const int id = m_next++;
        const QJsonObject msg{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                              {QStringLiteral("id"), id},
                              {QStringLiteral("method"), method},
                              {QStringLiteral("params"), params}};
        m_proc.write(QJsonDocument(msg).toJson(QJsonDocument::Compact) + '\n');
        return id;
    }
    int call(const QString &tool, const QJsonObject &args)
    {
        return send(QStringLiteral("tools/call"),
                    QJsonObject{{QStringLiteral("name"), tool}, {QStringLiteral("arguments"), args}});
    }
    bool answered(int id) const { return m_answers.contains(id); }
    QJsonObject result(int id) const { return m_answers.value(id).value(QLatin1String("result")).toObject(); }

private:
    QProcess m_proc;
    QByteArray m_buffer;
    QHash<int, QJsonObject> m_answers;
    int m_next = 1;
};

QString textOf(const QJsonObject &result)
{
    return result.value(QLatin1String("content")).toArray().at(0).toObject().value(QLatin1String("text")).toString();
}

} // namespace

class TestAgentsE2e : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    mcp::AgentHub *m_hub = nullptr;
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<ui::AgentsView> m_view;
    QStringList m_refs;

    int cardCount() const { return int(m_view->findChildren<QWidget *>(QStringLiteral("approvalCard")).size()); }
    QPushButton *button(const char *name) const
    {
        const auto buttons = m_view->findChildren<QPushButton *>(QLatin1String(name));
        return buttons.isEmpty() ? nullptr : buttons.first();
    }
    QJsonObject createArgs() const
    {
        return QJsonObject{{QStringLiteral("account"), QStringLiteral("eng")}, {QStringLiteral("network"), true}};
    }
    void keep(const QJsonObject &result)
    {
        const QString ref = result.value(QLatin1String("structuredContent"))
                                .toObject()
                                .value(QLatin1String("session"))
                                .toObject()
                                .value(QLatin1String("ref"))
                                .toString();
        if (!ref.isEmpty())
            m_refs << ref;
    }

    // One HTTP exchange with the window's endpoint, answered on the event loop (a call may wait
    // for the person, whose click the test makes meanwhile).
    struct HttpCall {
        QTcpSocket socket;
        QByteArray in;
        bool done = false;
        int status() const { return in.mid(9, 3).toInt(); }
        QByteArray header(const QByteArray &name) const
        {
            const qsizetype end = in.indexOf("\r\n\r\n");
            for (const QByteArray &line : in.left(end).split('\n')) {
                if (line.toLower().startsWith(QByteArray(name.toLower() + ':')))
                    return line.mid(name.size() + 1).trimmed();
            }
            return {};
        }
        QByteArray body() const
        {
            const qsizetype end = in.indexOf("\r\n\r\n");
            return end < 0 ? QByteArray() : in.mid(end + 4);
        }
    };
    std::unique_ptr<HttpCall> post(const QUrl &url, const QByteArray &token, const QByteArray &session,
                                   const QJsonObject &msg)
    {
        auto call = std::make_unique<HttpCall>();
        HttpCall *c = call.get();
        connect(&c->socket, &QTcpSocket::readyRead, &c->socket, [c] { c->in += c->socket.readAll(); });
        connect(&c->socket, &QTcpSocket::disconnected, &c->socket, [c] {
            c->in += c->socket.readAll();
            c->done = true;
        });
        c->socket.connectToHost(QHostAddress::LocalHost, quint16(url.port()));
        const QByteArray body = QJsonDocument(msg).toJson(QJsonDocument::Compact);
        QByteArray req = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(url.port()) +
                         "\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
                         "Content-Length: " +
                         QByteArray::number(body.size()) + "\r\nConnection: close\r\n";
        if (!token.isEmpty())
            req += "Authorization: Bearer " + token + "\r\n";
        if (!session.isEmpty())
            req += "Mcp-Session-Id: " + session + "\r\n";
        c->socket.write(req + "\r\n" + body);
        return call;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (qEnvironmentVariableIsEmpty("SANDBAR_AGENT_PATH"))
            qputenv("SANDBAR_AGENT_PATH", SANDBAR_AGENT_BUILT);
        const local::LocalEnvironment env = local::LocalEnvironment::detect();
        SANDBAR_REQUIRE(env.unavailableReason().isEmpty(), env.unavailableReason());
        QVERIFY(m_dir.isValid());
        QProcess add;
        add.start(QStringLiteral(SANDBARCTL_PATH),
                  {QStringLiteral("--config-dir"), m_dir.path(), QStringLiteral("accounts"), QStringLiteral("add"),
                   QStringLiteral("eng"), QStringLiteral("--provider"), QStringLiteral("local")});
        QVERIFY(add.waitForFinished(30000));
        QCOMPARE(add.exitCode(), 0);

        m_services = buildServices(m_dir.path(), std::make_unique<test::MemorySecretStore>());
        buildCostServices(*m_services);
        m_services->agentHub = std::make_unique<mcp::AgentHub>(m_dir.path());
        m_hub = m_services->agentHub.get();
        const VoidResult listening = m_hub->listen();
        QVERIFY2(listening.ok(), qPrintable(listening.ok() ? QString() : listening.message()));
        m_view = std::make_unique<ui::AgentsView>(*m_hub, m_dir.path(), QStringList{QStringLiteral("eng")},
                                                  QStringList{QStringLiteral("create_session")});
        m_view->resize(900, 600);
        m_view->show();
    }

    void cleanupTestCase()
    {
        for (const QString &ref : std::as_const(m_refs)) {
            QProcess rm;
            rm.start(QStringLiteral(SANDBARCTL_PATH), {QStringLiteral("--config-dir"), m_dir.path(),
                                                       QStringLiteral("sessions"), QStringLiteral("rm"), ref});
            rm.waitForFinished(60000);
        }
        m_view.reset();
        m_services.reset();
    }

    void approveOnceLetsTheCallRun()
    {
        StdioClient agent(m_dir.path(), QStringLiteral("e2e-agent"));
        const int id = agent.call(QStringLiteral("create_session"), createArgs());
        QTRY_COMPARE_WITH_TIMEOUT(cardCount(), 1, CallMs);
        QVERIFY(!agent.answered(id)); // it waits for the person
        QCOMPARE(m_hub->pendingApprovals().first().request.client.name, QStringLiteral("e2e-agent"));
        button("approveOnceButton")->click();
        QTRY_VERIFY_WITH_TIMEOUT(agent.answered(id), CallMs);
        const QJsonObject r = agent.result(id);
        QVERIFY2(!r.value(QLatin1String("isError")).toBool(), qPrintable(textOf(r)));
        keep(r);
        QCOMPARE(cardCount(), 0);
    }

    void denyFailsWithTheReasonAndCreatesNothing()
    {
        StdioClient agent(m_dir.path(), QStringLiteral("e2e-agent"));
        const int id = agent.call(QStringLiteral("create_session"), createArgs());
        QTRY_COMPARE_WITH_TIMEOUT(cardCount(), 1, CallMs);
        if (auto *reason = m_view->findChild<QLineEdit *>(QStringLiteral("denyReason")))
            reason->setText(QStringLiteral("not with network today"));
        button("denyButton")->click();
        QTRY_VERIFY_WITH_TIMEOUT(agent.answered(id), CallMs);
        const QJsonObject r = agent.result(id);
        QVERIFY(r.value(QLatin1String("isError")).toBool());
        QVERIFY2(textOf(r).contains(QLatin1String("not with network today")), qPrintable(textOf(r)));
        const int list = agent.call(QStringLiteral("list_sessions"), {});
        QTRY_VERIFY_WITH_TIMEOUT(agent.answered(list), CallMs);
        const QJsonArray sessions = agent.result(list)
                                        .value(QLatin1String("structuredContent"))
                                        .toObject()
                                        .value(QLatin1String("sessions"))
                                        .toArray();
        QCOMPARE(sessions.size(), m_refs.size());
    }

    void alwaysSkipsTheNextPromptForThatClientOnly()
    {
        StdioClient agent(m_dir.path(), QStringLiteral("e2e-always"));
        const int first = agent.call(QStringLiteral("create_session"), createArgs());
        QTRY_COMPARE_WITH_TIMEOUT(cardCount(), 1, CallMs);
        button("approveAlwaysButton")->click();
        QTRY_VERIFY_WITH_TIMEOUT(agent.answered(first), CallMs);
        keep(agent.result(first));
        QVERIFY(!agent.result(first).value(QLatin1String("isError")).toBool());

        const int second = agent.call(QStringLiteral("create_session"), createArgs());
        QTRY_VERIFY_WITH_TIMEOUT(agent.answered(second), CallMs);
        QVERIFY2(!agent.result(second).value(QLatin1String("isError")).toBool(),
                 qPrintable(textOf(agent.result(second))));
        keep(agent.result(second));
        QCOMPARE(cardCount(), 0);

        StdioClient other(m_dir.path(), QStringLiteral("e2e-other"));
        const int third = other.call(QStringLiteral("create_session"), createArgs());
        QTRY_COMPARE_WITH_TIMEOUT(cardCount(), 1, CallMs);
        button("denyButton")->click();
        QTRY_VERIFY_WITH_TIMEOUT(other.answered(third), CallMs);
        QVERIFY(other.result(third).value(QLatin1String("isError")).toBool());
    }

    // The hub's live list names each call's client and tool.
    void callsAreListedWithTheirClient()
    {
        bool seen = false;
        for (const auto &c : m_hub->calls())
            seen = seen || (c.event.client.name == QStringLiteral("e2e-always") &&
                            c.event.tool == QStringLiteral("create_session"));
        QVERIFY(seen);
    }

    void httpEndpointNeedsItsTokenAndAsksTheWindow()
    {
        McpHttpEndpoint endpoint(*m_services);
        endpoint.apply(true, 0);
        QTRY_VERIFY_WITH_TIMEOUT(endpoint.isListening(), CallMs);
        const QUrl url(endpoint.url());
        QCOMPARE(url.host(), QStringLiteral("127.0.0.1"));
        const QByteArray token = endpoint.token().toLatin1();
        QVERIFY(token.size() >= 40);

        const QJsonObject init{
            {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), 1},
            {QStringLiteral("method"), QStringLiteral("initialize")},
            {QStringLiteral("params"), QJsonObject{{QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
                                                   {QStringLiteral("capabilities"), QJsonObject{}},
                                                   {QStringLiteral("clientInfo"),
                                                    QJsonObject{{QStringLiteral("name"), QStringLiteral("e2e-http")},
                                                                {QStringLiteral("version"), QStringLiteral("1")}}}}}};
        for (const QByteArray &bad : {QByteArray(), QByteArray("wrong-token")}) {
            const auto refused = post(url, bad, {}, init);
            QTRY_VERIFY_WITH_TIMEOUT(refused->done, CallMs);
            QCOMPARE(refused->status(), 401);
        }
        const auto opened = post(url, token, {}, init);
        QTRY_VERIFY_WITH_TIMEOUT(opened->done, CallMs);
        QCOMPARE(opened->status(), 200);
        const QByteArray session = opened->header("Mcp-Session-Id");
        QVERIFY(!session.isEmpty());

        const QJsonObject create{
            {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), 2},
            {QStringLiteral("method"), QStringLiteral("tools/call")},
            {QStringLiteral("params"), QJsonObject{{QStringLiteral("name"), QStringLiteral("create_session")},
                                                   {QStringLiteral("arguments"), createArgs()}}}};
        const auto call = post(url, token, session, create);
        QTRY_COMPARE_WITH_TIMEOUT(cardCount(), 1, CallMs);
        QVERIFY(!call->done); // it waits for the person
        QCOMPARE(m_hub->pendingApprovals().first().request.client.transport, QStringLiteral("http"));
        QCOMPARE(m_hub->pendingApprovals().first().request.client.name, QStringLiteral("e2e-http"));
        button("approveOnceButton")->click();
        QTRY_VERIFY_WITH_TIMEOUT(call->done, CallMs);
        QVERIFY2(call->status() == 200, call->in.constData());
        const QJsonObject r = QJsonDocument::fromJson(call->body()).object().value(QLatin1String("result")).toObject();
        QVERIFY2(!r.isEmpty() && !r.value(QLatin1String("isError")).toBool(), call->in.constData());
        keep(r);
    }

    // The month's spend of an account at its budget: a create there is refused with the
    // budget named, and nothing is created (sandbarctl reads the window's ledger file).
    void budgetReachedRefusesCreate()
    {
        QVERIFY(m_services->ledger->setBudget(costs::Budget{QStringLiteral("eng"), 1.0, false}).ok());
        QVERIFY(m_services->ledger->addSpend(QStringLiteral("eng"), QDate::currentDate(), 1.5).ok());
        StdioClient agent(m_dir.path(), QStringLiteral("e2e-budget"));
        const int id = agent.call(QStringLiteral("create_session"),
                                  QJsonObject{{QStringLiteral("account"), QStringLiteral("eng")}});
        QTRY_VERIFY_WITH_TIMEOUT(agent.answered(id), CallMs);
        const QJsonObject r = agent.result(id);
        QVERIFY(r.value(QLatin1String("isError")).toBool());
        QVERIFY2(textOf(r).contains(QLatin1String("budget")), qPrintable(textOf(r)));
        QCOMPARE(cardCount(), 0); // refused outright, nobody asked
        const int list = agent.call(QStringLiteral("list_sessions"), {});
        QTRY_VERIFY_WITH_TIMEOUT(agent.answered(list), CallMs);
        QCOMPARE(agent.result(list)
                     .value(QLatin1String("structuredContent"))
                     .toObject()
                     .value(QLatin1String("sessions"))
                     .toArray()
                     .size(),
                 m_refs.size());
        QVERIFY(m_services->ledger->removeBudget(QStringLiteral("eng")).ok());
    }
};

QTEST_MAIN(TestAgentsE2e)
#include "tst_agents_e2e.moc"
