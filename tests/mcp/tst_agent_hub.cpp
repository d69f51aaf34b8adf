// The approval channel over a real local socket in a temporary config folder: AgentLink (as
// sandbarctl mcp uses it) asks, AgentHub (as the window holds it) queues, and the decision
// reaches the asker; "always" skips later asks of the same client and tool only; with no
// window, or a window that goes away, the asker gets a Deny that says so; withdrawn asks and
// a departed client's asks leave the queue; reported calls appear; a stale socket file is
// replaced, a live one is not; bad input drops only the connection that sent it.
#include "mcp/AgentHub.h"
#include "mcp/AgentLink.h"
#include "mcp/AgentWire.h"

#include <QFile>
#include <QFileInfo>
#include <QLocalSocket>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <optional>

using namespace sandbar;
using namespace sandbar::mcp;

namespace {

constexpr int WaitMs = 10000;

AgentClient client(const QString &name)
{
    return AgentClient{name, QStringLiteral("0.9"), QStringLiteral("stdio"), 0};
}

ApprovalRequest request(const QString &id, const QString &tool = QStringLiteral("create_session"))
{
    ApprovalRequest r;
    r.id = id;
    r.tool = tool;
    r.arguments = QJsonObject{{QStringLiteral("account"), QStringLiteral("e2b")}};
    r.reasons = {QStringLiteral("creates a session on the paid account 'e2b'")};
    return r;
}

// Records the one answer an ask gets (and fails the test on a second).
struct Answer {
    std::optional<ApprovalAnswer> value;
    int calls = 0;
    std::function<void(ApprovalAnswer)> fn()
    {
        return [this](ApprovalAnswer a) {
            ++calls;
            value = std::move(a);
        };
    }
};

} // namespace

class TestAgentHub final : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString dir() const { return m_dir->path(); }

    std::unique_ptr<AgentHub> listeningHub()
    {
        auto hub = std::make_unique<AgentHub>(dir());
        const VoidResult r = hub->listen();
        if (!r.ok())
            qWarning("listen: %s", qPrintable(r.message()));
        return hub;
    }
    std::unique_ptr<AgentLink> connectedLink(AgentHub &hub, const QString &name)
    {
        auto link = std::make_unique<AgentLink>(dir());
        const int before = int(hub.clients().size());
        link->start();
        link->setClient(client(name));
        [&]() {
            QTRY_VERIFY_WITH_TIMEOUT(link->isConnected(), WaitMs);
            // The hub has taken its hello.
            QTRY_VERIFY_WITH_TIMEOUT(hub.clients().size() == before + 1 && !hub.clients().last().client.name.isEmpty(),
                                     WaitMs);
        }();
        return link;
    }

private Q_SLOTS:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }
    void cleanup() { m_dir.reset(); }

    void approveOnceReachesTheAsker()
    {
        auto hub = listeningHub();
        QVERIFY(hub->isListening());
        auto link = connectedLink(*hub, QStringLiteral("claude-code"));
        QCOMPARE(hub->clients().constFirst().client.name, QStringLiteral("claude-code"));
        QCOMPARE(hub->clients().constFirst().client.version, QStringLiteral("0.9"));
        QCOMPARE(hub->clients().constFirst().client.pid, QCoreApplication::applicationPid()); // the peer's, checked

        QSignalSpy requested(hub.get(), &AgentHub::approvalRequested);
        Answer answer;
        QObject context;
        link->ask(request(QStringLiteral("1")), &context, answer.fn());
        QTRY_COMPARE_WITH_TIMEOUT(hub->pendingApprovals().size(), 1, WaitMs);
        QCOMPARE(requested.size(), 1);
        const PendingApproval p = hub->pendingApprovals().constFirst();
        QCOMPARE(p.request.id, QStringLiteral("1"));
        QCOMPARE(p.request.tool, QStringLiteral("create_session"));
        QCOMPARE(p.request.client.name, QStringLiteral("claude-code"));
        QCOMPARE(p.request.reasons, request(QStringLiteral("1")).reasons);
        QCOMPARE(p.request.arguments, request(QStringLiteral("1")).arguments);
        QVERIFY(!answer.value);

        QVERIFY(hub->decide(p.id, ApprovalDecision::Once));
        QVERIFY(hub->pendingApprovals().isEmpty());
        QVERIFY(!hub->decide(p.id, ApprovalDecision::Once)); // once only
        QTRY_VERIFY_WITH_TIMEOUT(answer.value.has_value(), WaitMs);
        QCOMPARE(answer.value->decision, ApprovalDecision::Once);
        QVERIFY(answer.value->approved());
        QCOMPARE(answer.calls, 1);
        // Once is not remembered.
        QVERIFY(!hub->isAlwaysAllowed(QStringLiteral("claude-code"), QStringLiteral("create_session")));
    }

    void denyCarriesTheMessage()
    {
        auto hub = listeningHub();
        auto link = connectedLink(*hub, QStringLiteral("cursor"));
        Answer answer;
        link->ask(request(QStringLiteral("d1")), link.get(), answer.fn());
        QTRY_COMPARE_WITH_TIMEOUT(hub->pendingApprovals().size(), 1, WaitMs);
        QVERIFY(hub->decide(hub->pendingApprovals().constFirst().id, ApprovalDecision::Deny,
                            QStringLiteral("Use the local account instead.")));
        QTRY_VERIFY_WITH_TIMEOUT(answer.value.has_value(), WaitMs);
        QCOMPARE(answer.value->decision, ApprovalDecision::Deny);
        QCOMPARE(answer.value->message, QStringLiteral("Use the local account instead."));
        QVERIFY(!answer.value->approved());
    }

    void alwaysSkipsTheQueueForThatClientAndToolOnly()
    {
        auto hub = listeningHub();
        auto a = connectedLink(*hub, QStringLiteral("agent-a"));
        auto b = connectedLink(*hub, QStringLiteral("agent-b"));
        QSignalSpy requested(hub.get(), &AgentHub::approvalRequested);

        Answer first;
        a->ask(request(QStringLiteral("1")), a.get(), first.fn());
        QTRY_COMPARE_WITH_TIMEOUT(hub->pendingApprovals().size(), 1, WaitMs);
        QVERIFY(hub->decide(hub->pendingApprovals().constFirst().id, ApprovalDecision::Always));
        QTRY_VERIFY_WITH_TIMEOUT(first.value.has_value(), WaitMs);
        QCOMPARE(first.value->decision, ApprovalDecision::Always);
        QVERIFY(hub->isAlwaysAllowed(QStringLiteral("agent-a"), QStringLiteral("create_session")));

        // The same client and tool: answered at once, never queued.
        Answer second;
        a->ask(request(QStringLiteral("2")), a.get(), second.fn());
        QTRY_VERIFY_WITH_TIMEOUT(second.value.has_value(), WaitMs);
        QCOMPARE(second.value->decision, ApprovalDecision::Always);
        QCOMPARE(requested.size(), 1);
        QVERIFY(hub->pendingApprovals().isEmpty());

        // Another tool of the same client: asked.
        Answer otherTool;
        a->ask(request(QStringLiteral("3"), QStringLiteral("upload")), a.get(), otherTool.fn());
        // Another client, same tool: asked.
        Answer otherClient;
        b->ask(request(QStringLiteral("1")), b.get(), otherClient.fn());
        QTRY_COMPARE_WITH_TIMEOUT(hub->pendingApprovals().size(), 2, WaitMs);
        QCOMPARE(requested.size(), 3);
        // Neither was answered as well as queued. The hub writes an answer while it handles the
        // ask, and each connection delivers in order: an answer on the same connection to a
        // later ask comes after any the hub gave these. For agent-a the remembered tool is
        // answered at once; agent-b's later ask is decided here.
        Answer laterA, laterB;
        a->ask(request(QStringLiteral("4")), a.get(), laterA.fn());
        b->ask(request(QStringLiteral("later"), QStringLiteral("list_sessions")), b.get(), laterB.fn());
        QTRY_COMPARE_WITH_TIMEOUT(hub->pendingApprovals().size(), 3, WaitMs);
        QString laterId;
        for (const PendingApproval &p : hub->pendingApprovals()) {
            if (p.request.id == QLatin1String("later"))
                laterId = p.id;
        }
        QVERIFY(hub->decide(laterId, ApprovalDecision::Once));
        QTRY_VERIFY_WITH_TIMEOUT(laterA.value && laterB.value, WaitMs);
        QCOMPARE(laterA.value->decision, ApprovalDecision::Always);
        QCOMPARE(laterB.value->decision, ApprovalDecision::Once);
        QVERIFY(!otherTool.value);
        QVERIFY(!otherClient.value);
        QStringList clients;
        for (const PendingApproval &p : hub->pendingApprovals())
            clients << p.request.client.name + QLatin1Char('/') + p.request.tool;
        clients.sort();
        QCOMPARE(clients, (QStringList{QStringLiteral("agent-a/upload"), QStringLiteral("agent-b/create_session")}));

        hub->forgetAlways();
        QVERIFY(!hub->isAlwaysAllowed(QStringLiteral("agent-a"), QStringLiteral("create_session")));
    }

    void alwaysAnswersTheSameClientsOtherWaitingAsks()
    {
        auto hub = listeningHub();
        auto a = connectedLink(*hub, QStringLiteral("agent-a"));
        Answer one, two, other;
        a->ask(request(QStringLiteral("1")), a.get(), one.fn());
        a->ask(request(QStringLiteral("2")), a.get(), two.fn());
        a->ask(request(QStringLiteral("3"), QStringLiteral("exec")), a.get(), other.fn());
        QTRY_COMPARE_WITH_TIMEOUT(hub->pendingApprovals().size(), 3, WaitMs);
        QVERIFY(hub->decide(hub->pendingApprovals().constFirst().id, ApprovalDecision::Always));
        QTRY_VERIFY_WITH_TIMEOUT(one.value && two.value, WaitMs);
        QCOMPARE(two.value->decision, ApprovalDecision::Always);
        QCOMPARE(hub->pendingApprovals().size(), 1);
        QCOMPARE(hub->pendingApprovals().constFirst().request.tool, QStringLiteral("exec"));
        QVERIFY(!other.value);
    }

    void noWindowIsADenyThatSaysSo()
    {
        AgentLink link(dir());
        link.start();
        link.setClient(client(QStringLiteral("lonely")));
        QVERIFY(!link.isConnected());
        Answer answer;
        link.ask(request(QStringLiteral("1")), &link, answer.fn());
        QVERIFY(!answer.value); // queued, never re-entrant
        QTRY_VERIFY_WITH_TIMEOUT(answer.value.has_value(), WaitMs);
        QCOMPARE(answer.value->decision, ApprovalDecision::Deny);
        QCOMPARE(answer.value->message, AgentLink::notRunningMessage());
        QVERIFY(answer.value->message.contains(QLatin1String("not running")));
        QVERIFY(answer.value->message.contains(QLatin1String("agent-policy.json")));
        // Reports with nobody listening are dropped, not kept.
        link.report(CallEvent{QStringLiteral("c"), client(QStringLiteral("lonely")), QStringLiteral("exec")});
    }

    void windowStartedLaterIsFoundOnTheNextAsk()
    {
        AgentLink link(dir());
        link.start();
        link.setClient(client(QStringLiteral("early")));
        QVERIFY(!link.isConnected());
        auto hub = listeningHub();
        Answer answer;
        link.ask(request(QStringLiteral("1")), &link, answer.fn());
        QTRY_COMPARE_WITH_TIMEOUT(hub->pendingApprovals().size(), 1, WaitMs);
        // Its hello went first on the new connection.
        QCOMPARE(hub->pendingApprovals().constFirst().request.client.name, QStringLiteral("early"));
        QVERIFY(hub->decide(hub->pendingApprovals().constFirst().id, ApprovalDecision::Once));
        QTRY_VERIFY_WITH_TIMEOUT(answer.value.has_value(), WaitMs);
        QCOMPARE(answer.value->decision, ApprovalDecision::Once);
    }

    void windowClosingMidAskIsADeny()
    {
        auto hub = listeningHub();
        auto link = connectedLink(*hub, QStringLiteral("waiting"));
        Answer answer;
        link->ask(request(QStringLiteral("1")), link.get(), answer.fn());
        QTRY_COMPARE_WITH_TIMEOUT(hub->pendingApprovals().size(), 1, WaitMs);
        hub.reset();
        QTRY_VERIFY_WITH_TIMEOUT(answer.value.has_value(), WaitMs);
        QCOMPARE(answer.value->decision, ApprovalDecision::Deny);
        QCOMPARE(answer.value->message, AgentLink::windowClosedMessage());
        QTRY_VERIFY_WITH_TIMEOUT(!link->isConnected(), WaitMs);

        // And a window started again serves the next ask.
        hub = listeningHub();
        QVERIFY(hub->isListening());
        Answer again;
        link->ask(request(QStringLiteral("2")), link.get(), again.fn());
        QTRY_COMPARE_WITH_TIMEOUT(hub->pendingApprovals().size(), 1, WaitMs);
        QCOMPARE(hub->pendingApprovals().constFirst().request.client.name, QStringLiteral("waiting"));
    }

    void withdrawTakesItOffTheQueue()
    {
        auto hub = listeningHub();
        auto link = connectedLink(*hub, QStringLiteral("cancel-me"));
        Answer kept, withdrawn;
        link->ask(request(QStringLiteral("keep")), link.get(), kept.fn());
        link->ask(request(QStringLiteral("gone")), link.get(), withdrawn.fn());
        QTRY_COMPARE_WITH_TIMEOUT(hub->pendingApprovals().size(), 2, WaitMs);
        QSignalSpy changed(hub.get(), &AgentHub::approvalsChanged);
        link->withdraw(QStringLiteral("gone"));
        QTRY_COMPARE_WITH_TIMEOUT(hub->pendingApprovals().size(), 1, WaitMs);
        QVERIFY(changed.size() >= 1);
        QCOMPARE(hub->pendingApprovals().constFirst().request.id, QStringLiteral("keep"));
        QTRY_VERIFY_WITH_TIMEOUT(withdrawn.value.has_value(), WaitMs);
        QCOMPARE(withdrawn.value->decision, ApprovalDecision::Deny);
        QCOMPARE(withdrawn.value->message, AgentLink::withdrawnMessage());
        QVERIFY(!kept.value);
    }

    void aDepartedClientsAsksVanish()
    {
        auto hub = listeningHub();
        auto stays = connectedLink(*hub, QStringLiteral("stays"));
        auto leaves = connectedLink(*hub, QStringLiteral("leaves"));
        Answer a, b;
        stays->ask(request(QStringLiteral("1")), stays.get(), a.fn());
        leaves->ask(request(QStringLiteral("1")), leaves.get(), b.fn());
        CallEvent running{QStringLiteral("c1"), AgentClient{}, QStringLiteral("exec")};
        leaves->report(running);
        QTRY_COMPARE_WITH_TIMEOUT(hub->pendingApprovals().size(), 2, WaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(hub->calls().size(), 1, WaitMs);
        QSignalSpy clientsChanged(hub.get(), &AgentHub::clientsChanged);
        leaves.reset();
        QTRY_COMPARE_WITH_TIMEOUT(hub->pendingApprovals().size(), 1, WaitMs);
        QCOMPARE(hub->pendingApprovals().constFirst().request.client.name, QStringLiteral("stays"));
        QTRY_COMPARE_WITH_TIMEOUT(hub->clients().size(), 1, WaitMs);
        QVERIFY(clientsChanged.size() >= 1);
        QVERIFY(hub->calls().constFirst().disconnected);
    }

    void reportedCallsAppear()
    {
        auto hub = listeningHub();
        auto link = connectedLink(*hub, QStringLiteral("reporter"));
        QSignalSpy added(hub.get(), &AgentHub::callAdded);
        QSignalSpy updated(hub.get(), &AgentHub::callUpdated);
        CallEvent e;
        e.id = QStringLiteral("call-1");
        e.tool = QStringLiteral("exec");
        e.arguments = QJsonObject{{QStringLiteral("command"), QStringLiteral("echo hi")}};
        link->report(e);
        QTRY_COMPARE_WITH_TIMEOUT(hub->calls().size(), 1, WaitMs);
        QCOMPARE(added.size(), 1);
        QVERIFY(!hub->calls().constFirst().event.finished);
        QCOMPARE(hub->calls().constFirst().event.client.name, QStringLiteral("reporter"));
        e.finished = true;
        e.ok = true;
        e.durationMs = 12;
        link->report(e);
        QTRY_VERIFY_WITH_TIMEOUT(hub->calls().constFirst().event.finished, WaitMs);
        QCOMPARE(hub->calls().size(), 1);
        QCOMPARE(updated.size(), 1);
        const CallRecord r = hub->calls().constFirst();
        QVERIFY(r.event.ok);
        QCOMPARE(r.event.durationMs, qint64(12));
        QVERIFY(r.finishedAt.isValid());

        // A finished call seen only at its end, and a failure.
        CallEvent failed;
        failed.id = QStringLiteral("call-2");
        failed.tool = QStringLiteral("create_session");
        failed.finished = true;
        failed.message = QStringLiteral("budget for 'e2b' reached");
        link->report(failed);
        QTRY_COMPARE_WITH_TIMEOUT(hub->calls().size(), 2, WaitMs);
        QCOMPARE(hub->calls().last().event.message, failed.message);
        QVERIFY(!hub->calls().last().event.ok);
        QVERIFY(hub->calls().last().seq > hub->calls().first().seq);
    }

    void callListIsCapped()
    {
        AgentHub hub(dir());
        for (int i = 0; i < AgentHub::kMaxCalls + 20; ++i)
            hub.report(CallEvent{QString::number(i), client(QStringLiteral("in-process")), QStringLiteral("exec")});
        QCOMPARE(hub.calls().size(), AgentHub::kMaxCalls);
        QCOMPARE(hub.calls().constFirst().event.id, QStringLiteral("20"));
        // The newest still updates in place; the oldest dropped ones come back as new rows.
        CallEvent end{QString::number(AgentHub::kMaxCalls + 19), client(QStringLiteral("in-process")),
                      QStringLiteral("exec")};
        end.finished = true;
        end.ok = true;
        hub.report(end);
        QCOMPARE(hub.calls().size(), AgentHub::kMaxCalls);
        QVERIFY(hub.calls().last().event.finished);
    }

    // Over HTTP a client's name proves nothing: "always" is given to the bearer token, so it
    // covers every HTTP client (whatever it calls itself) and no stdio client, and it is
    // forgotten with the token.
    void httpAlwaysFollowsTheToken()
    {
        AgentHub hub(dir());
        QObject context;
        const auto ask = [&](const QString &id, const QString &name, const QString &transport, Answer &a) {
            ApprovalRequest r = request(id);
            r.client = AgentClient{name, QStringLiteral("1"), transport, 0};
            hub.ask(r, &context, a.fn());
        };
        Answer first, second, stdio;
        ask(QStringLiteral("h1"), QStringLiteral("web-agent"), QStringLiteral("http"), first);
        QVERIFY(hub.decide(hub.pendingApprovals().constFirst().id, ApprovalDecision::Always));
        ask(QStringLiteral("h2"), QStringLiteral("another-name"), QStringLiteral("http"), second);
        QVERIFY(hub.pendingApprovals().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(second.value.has_value(), WaitMs);
        QCOMPARE(second.value->decision, ApprovalDecision::Always);
        ask(QStringLiteral("s1"), QStringLiteral("web-agent"), QStringLiteral("stdio"), stdio);
        QCOMPARE(hub.pendingApprovals().size(), 1);
        hub.withdraw(QStringLiteral("s1"));

        hub.forgetAlways(AgentHub::httpAlwaysKey());
        Answer after;
        ask(QStringLiteral("h3"), QStringLiteral("web-agent"), QStringLiteral("http"), after);
        QCOMPARE(hub.pendingApprovals().size(), 1);
        hub.withdraw(QStringLiteral("h3"));
    }

    void inProcessAskerIsAnsweredQueued()
    {
        AgentHub hub(dir()); // not listening: the window's own HTTP endpoint needs no socket
        Answer answer;
        QObject context;
        ApprovalRequest r = request(QStringLiteral("http-1"));
        r.client = AgentClient{QStringLiteral("web-agent"), QStringLiteral("2"), QStringLiteral("http"), 0};
        hub.ask(r, &context, answer.fn());
        QCOMPARE(hub.pendingApprovals().size(), 1);
        QVERIFY(hub.decide(hub.pendingApprovals().constFirst().id, ApprovalDecision::Always));
        QVERIFY(!answer.value); // not from inside decide()
        QTRY_VERIFY_WITH_TIMEOUT(answer.value.has_value(), WaitMs);
        QCOMPARE(answer.value->decision, ApprovalDecision::Always);

        Answer second;
        hub.ask(request(QStringLiteral("http-2")), &context, second.fn()); // no client name: not "always"
        QCOMPARE(hub.pendingApprovals().size(), 1);
        hub.withdraw(QStringLiteral("http-2"));
        QVERIFY(hub.pendingApprovals().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(second.value.has_value(), WaitMs);
        QCOMPARE(second.value->decision, ApprovalDecision::Deny);

        // An asker whose context is gone is not called.
        Answer orphan;
        {
            QObject gone;
            hub.ask(request(QStringLiteral("http-3")), &gone, orphan.fn());
            QVERIFY(hub.decide(hub.pendingApprovals().constFirst().id, ApprovalDecision::Once));
        }
        // Answers are queued calls, run in the order they were made: once a later answer has
        // arrived, the orphan's would have come before it.
        Answer later;
        hub.ask(request(QStringLiteral("http-3b")), &context, later.fn());
        QVERIFY(hub.decide(hub.pendingApprovals().constFirst().id, ApprovalDecision::Once));
        QTRY_VERIFY_WITH_TIMEOUT(later.value.has_value(), WaitMs);
        QVERIFY(!orphan.value);

        // The hub going away answers what still waits.
        Answer last;
        {
            AgentHub shortLived(dir());
            shortLived.ask(request(QStringLiteral("http-4")), &context, last.fn());
        }
        QTRY_VERIFY_WITH_TIMEOUT(last.value.has_value(), WaitMs);
        QCOMPARE(last.value->decision, ApprovalDecision::Deny);
        QCOMPARE(last.value->message, AgentHub::hubClosedMessage());
    }

    void staleSocketIsReplacedALiveOneIsNot()
    {
        // A crashed window's socket: a file nobody listens on.
        QFile stale(agentSocketPath(dir()));
        QVERIFY(stale.open(QIODevice::WriteOnly));
        stale.close();
        auto hub = listeningHub();
        QVERIFY(hub->isListening());
#if defined(Q_OS_UNIX)
        // Owner-only.
        const QFileDevice::Permissions perms = QFileInfo(hub->socketPath()).permissions();
        QVERIFY2(!(perms & (QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther |
                            QFileDevice::WriteOther)),
                 qPrintable(QString::number(int(perms), 16)));
#endif
        AgentHub second(dir());
        const VoidResult r = second.listen();
        QVERIFY(!r.ok());
        QCOMPARE(r.code(), ErrorCode::Conflict);
        QVERIFY(!second.isListening());
        // The first still serves.
        auto link = connectedLink(*hub, QStringLiteral("still-here"));
        QVERIFY(link->isConnected());
    }

    void badInputDropsOnlyThatConnection_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("garbage") << QByteArray("this is not json\n");
        QTest::newRow("wrong types") << QByteArray("{\"type\":\"approve\",\"id\":5,\"tool\":\"exec\"}\n");
        QTest::newRow("oversized") << QByteArray(wire::kMaxLine + 16, 'x');
    }
    void badInputDropsOnlyThatConnection()
    {
        QFETCH(QByteArray, bytes);
        auto hub = listeningHub();
        auto good = connectedLink(*hub, QStringLiteral("good"));
        QLocalSocket raw;
        raw.connectToServer(hub->socketPath());
        QTRY_VERIFY_WITH_TIMEOUT(raw.state() == QLocalSocket::ConnectedState, WaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(hub->clients().size(), 2, WaitMs);
        // An unknown type is skipped, not fatal.
        raw.write("{\"type\":\"from-the-future\"}\n");
        raw.write(bytes);
        QTRY_VERIFY_WITH_TIMEOUT(raw.state() == QLocalSocket::UnconnectedState, WaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(hub->clients().size(), 1, WaitMs);
        Answer answer;
        good->ask(request(QStringLiteral("1")), good.get(), answer.fn());
        QTRY_COMPARE_WITH_TIMEOUT(hub->pendingApprovals().size(), 1, WaitMs);
    }
};

QTEST_GUILESS_MAIN(TestAgentHub)
#include "tst_agent_hub.moc"
