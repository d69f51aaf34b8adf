// The Agents view as the app wires it (makeMainWindow over services with an AgentHub,
// offscreen): the hub listens on the config folder's socket, a call sandbarctl mcp's link
// asks about puts a count on View > Agents and in the status bar and a notification out, the
// view opened from the window approves it, and a window whose socket is taken still runs and
// says why agents cannot reach it.
#include "FakeProvider.h"
#include "agents/AgentsView.h"
#include "main/MainWindow.h"
#include "main/Notifier.h"
#include "mcp/AgentLink.h"
#include "wiring/AppServices.h"
#include "wiring/GuiAgents.h"
#include "wiring/GuiMain.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <optional>

using namespace sandbar;

namespace {

constexpr int WaitMs = 10000;

struct Window {
    std::unique_ptr<AppServices> services;
    std::unique_ptr<ui::MainWindow> window;

    explicit Window(const QString &dir)
    {
        services = buildServices(dir, std::make_unique<test::MemorySecretStore>());
        buildCostServices(*services);
        buildStatsServices(*services);
        services->agentHub = std::make_unique<mcp::AgentHub>(dir);
        window = makeMainWindow(*services);
        window->show();
    }
    ~Window()
    {
        window.reset();
        services.reset();
    }
    QAction *agentsAction() const { return window->findChild<QAction *>(QStringLiteral("agentsAction")); }
};

mcp::ApprovalRequest request(const QString &id)
{
    mcp::ApprovalRequest r;
    r.id = id;
    r.tool = QStringLiteral("create_session");
    r.arguments = QJsonObject{{QStringLiteral("account"), QStringLiteral("e2b")}};
    r.reasons = {QStringLiteral("creates a session on the paid account 'e2b'")};
    return r;
}

} // namespace

class TestAgentsWindow final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void approvalFromTheWindow()
    {
        QTemporaryDir dir;
        Window w(dir.path());
        QVERIFY(w.services->agentHub->isListening());
        QAction *agents = w.agentsAction();
        QVERIFY(agents && agents->isVisible());
        QCOMPARE(agents->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
        QVERIFY(!mcpToolNames(*w.services).isEmpty());
        QVERIFY(mcpToolNames(*w.services).contains(QStringLiteral("create_session")));

        auto *notifier = w.window->findChild<ui::Notifier *>();
        QVERIFY(notifier);
        notifier->setEnabled(true);
        QSignalSpy notified(notifier, &ui::Notifier::notified);

        mcp::AgentLink link(dir.path());
        link.start();
        link.setClient(
            mcp::AgentClient{QStringLiteral("claude-code"), QStringLiteral("1.0"), QStringLiteral("stdio"), 0});
        std::optional<mcp::ApprovalAnswer> answer;
        link.ask(request(QStringLiteral("1")), &link, [&answer](mcp::ApprovalAnswer a) { answer = a; });
        QTRY_VERIFY_WITH_TIMEOUT(agents->text().contains(QLatin1String("(1)")), WaitMs);
        auto *pending = w.window->findChild<QToolButton *>(QStringLiteral("agentsPendingButton"));
        QVERIFY(pending && pending->isVisibleTo(w.window.get()));
        QVERIFY(pending->text().contains(QLatin1String("1")));
        QTRY_COMPARE_WITH_TIMEOUT(notified.size(), 1, WaitMs);
        const auto n = notified.constFirst().constFirst().value<ui::Notification>();
        QCOMPARE(n.kind, ui::Notification::Kind::AgentApproval);
        QVERIFY(n.message.contains(QLatin1String("claude-code")));
        QVERIFY(n.message.contains(QLatin1String("create_session")));

        // The status bar's button opens the view; its card approves.
        QTest::mouseClick(pending, Qt::LeftButton);
        auto *view = qobject_cast<ui::AgentsView *>(w.window->agentsWindow());
        QVERIFY(view);
        QTRY_COMPARE_WITH_TIMEOUT(view->approvalCount(), 1, WaitMs);
        const QString id = w.services->agentHub->pendingApprovals().constFirst().id;
        auto *once = view->approvalCard(id)->findChild<QPushButton *>(QStringLiteral("approveOnceButton"));
        QTest::mouseClick(once, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(answer.has_value(), WaitMs);
        QCOMPARE(answer->decision, mcp::ApprovalDecision::Once);
        QVERIFY(!agents->text().contains(QLatin1Char('(')));
        QVERIFY(!pending->isVisibleTo(w.window.get()));
    }

    void aTakenSocketLeavesTheWindowRunning()
    {
        QTemporaryDir dir;
        mcp::AgentHub other(dir.path());
        QVERIFY(other.listen().ok());
        Window w(dir.path());
        QVERIFY(!w.services->agentHub->isListening());
        QVERIFY2(w.window->statusBar()->currentMessage().contains(QLatin1String("already listens")),
                 qPrintable(w.window->statusBar()->currentMessage()));
        w.window->showAgents();
        auto *view = qobject_cast<ui::AgentsView *>(w.window->agentsWindow());
        QVERIFY(view);
        auto *status = view->findChild<QLabel *>(QStringLiteral("agentsStatus"));
        QVERIFY(status->text().contains(QLatin1String("Not listening")));
        // The in-process sink still queues (the window's own endpoint does not need the socket).
        QObject context;
        w.services->agentHub->ask(request(QStringLiteral("h")), &context, [](mcp::ApprovalAnswer) {});
        QTRY_COMPARE_WITH_TIMEOUT(view->approvalCount(), 1, WaitMs);
    }
};

QTEST_MAIN(TestAgentsWindow)
#include "tst_agents_window.moc"
