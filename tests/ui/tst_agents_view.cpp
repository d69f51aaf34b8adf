// The Agents view over a real AgentHub (offscreen): a call waiting for approval is shown with
// its client, tool, reasons and arguments, and the view's buttons answer the asker: "Approve
// once" reaches sandbarctl mcp's AgentLink over the socket, "Deny" carries the typed reason,
// "Always for this client" lets that client's next call of the tool through unasked while
// another client is still asked. Calls reported appear in the table; the policy dialog shows a
// corrupt file's error without touching the file, and saves what the form says. With
// SANDBAR_SCREENSHOT_DIR set it saves agents-view.png and agent-policy.png there.
#include "agents/AgentCallsModel.h"
#include "agents/AgentPolicyDialog.h"
#include "agents/AgentsView.h"
#include "mcp/AgentHub.h"
#include "mcp/AgentLink.h"

#include <QApplication>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <optional>

using namespace sandbar;
using namespace sandbar::mcp;
using namespace sandbar::ui;

namespace {

constexpr int WaitMs = 10000;

const QStringList Accounts{QStringLiteral("local"), QStringLiteral("docker"), QStringLiteral("e2b")};
const QStringList Tools{QStringLiteral("list_accounts"), QStringLiteral("create_session"), QStringLiteral("exec"),
                        QStringLiteral("upload"), QStringLiteral("remove_session")};

ApprovalRequest createRequest(const QString &id)
{
    ApprovalRequest r;
    r.id = id;
    r.tool = QStringLiteral("create_session");
    r.arguments = QJsonObject{{QStringLiteral("account"), QStringLiteral("e2b")},
                              {QStringLiteral("image"), QStringLiteral("python:3.12-slim")},
                              {QStringLiteral("network"), true},
                              {QStringLiteral("env"), QJsonObject{{QStringLiteral("API_KEY"), QStringLiteral("***")}}}};
    r.reasons = {QStringLiteral("creates a session on the paid account 'e2b'"),
                 QStringLiteral("turns network access on")};
    return r;
}

struct Answer {
    std::optional<ApprovalAnswer> value;
    std::function<void(ApprovalAnswer)> fn()
    {
        return [this](ApprovalAnswer a) { value = std::move(a); };
    }
};

QPushButton *cardButton(AgentsView &view, const QString &id, const char *name)
{
    QWidget *card = view.approvalCard(id);
    return card ? card->findChild<QPushButton *>(QLatin1String(name)) : nullptr;
}

void saveShot(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QVERIFY(w->grab().save(dir + QLatin1Char('/') + name));
}

} // namespace

class TestAgentsView final : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<AgentHub> m_hub;
    std::unique_ptr<AgentsView> m_view;

    QString pendingId(int i = 0) const { return m_hub->pendingApprovals().at(i).id; }
    std::unique_ptr<AgentLink> link(const QString &name)
    {
        auto l = std::make_unique<AgentLink>(m_dir->path());
        l->start();
        l->setClient(AgentClient{name, QStringLiteral("1.4.2"), QStringLiteral("stdio"), 0});
        return l;
    }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_hub = std::make_unique<AgentHub>(m_dir->path());
        QVERIFY(m_hub->listen().ok());
        m_view = std::make_unique<AgentsView>(*m_hub, m_dir->path(), Accounts, Tools);
        m_view->resize(1100, 720);
        m_view->show();
    }
    void cleanup()
    {
        m_view.reset();
        m_hub.reset();
        m_dir.reset();
    }

    void approveOnceReachesSandbarctl()
    {
        auto agent = link(QStringLiteral("claude-code"));
        QTRY_VERIFY_WITH_TIMEOUT(agent->isConnected(), WaitMs);
        Answer answer;
        agent->ask(createRequest(QStringLiteral("7")), agent.get(), answer.fn());
        QTRY_COMPARE_WITH_TIMEOUT(m_view->approvalCount(), 1, WaitMs);
        QWidget *card = m_view->approvalCard(pendingId());
        QVERIFY(card);
        // What the person decides on is on the card.
        QString text;
        for (const QLabel *l : card->findChildren<QLabel *>())
            text += l->text() + QLatin1Char('\n');
        QVERIFY2(text.contains(QLatin1String("claude-code 1.4.2")), qPrintable(text));
        QVERIFY(text.contains(QLatin1String("create_session")));
        QVERIFY(text.contains(QLatin1String("paid account &#x27;e2b&#x27;")) ||
                text.contains(QLatin1String("paid account 'e2b'")));
        QVERIFY(text.contains(QLatin1String("\"image\":\"python:3.12-slim\"")));
        QVERIFY(cardButton(*m_view, pendingId(), "approveAlwaysButton")
                    ->toolTip()
                    .contains(QLatin1String("not a security boundary")));

        // Calls reported by the same client show in the table meanwhile.
        CallEvent running;
        running.id = QStringLiteral("c1");
        running.tool = QStringLiteral("exec");
        running.arguments = QJsonObject{{QStringLiteral("command"), QStringLiteral("echo hi")}};
        agent->report(running);
        QTRY_COMPARE_WITH_TIMEOUT(m_view->callsModel()->rowCount(), 1, WaitMs);
        saveShot(m_view.get(), QStringLiteral("agents-view.png"));

        QPushButton *once = cardButton(*m_view, pendingId(), "approveOnceButton");
        QVERIFY(once);
        QTest::mouseClick(once, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(answer.value.has_value(), WaitMs);
        QCOMPARE(answer.value->decision, ApprovalDecision::Once);
        QCOMPARE(m_view->approvalCount(), 0);
        QVERIFY(m_hub->pendingApprovals().isEmpty());
        QVERIFY(m_view->findChild<QLabel *>(QStringLiteral("emptyQueue"))->isVisibleTo(m_view.get()));

        running.finished = true;
        running.ok = true;
        running.durationMs = 42;
        agent->report(running);
        const QModelIndex outcome = m_view->callsModel()->index(0, AgentCallsModel::OutcomeColumn);
        QTRY_COMPARE_WITH_TIMEOUT(outcome.data().toString(), QStringLiteral("OK"), WaitMs);
        QCOMPARE(m_view->callsModel()->index(0, AgentCallsModel::DurationColumn).data().toString(),
                 QStringLiteral("42 ms"));
        QCOMPARE(m_view->callsModel()->index(0, AgentCallsModel::ClientColumn).data().toString(),
                 QStringLiteral("claude-code 1.4.2"));
    }

    void denyCarriesTheTypedReason()
    {
        Answer answer;
        QObject context;
        ApprovalRequest r = createRequest(QStringLiteral("d"));
        r.client = AgentClient{QStringLiteral("cursor"), QStringLiteral("0.50"), QStringLiteral("http"), 0};
        m_hub->ask(r, &context, answer.fn());
        QTRY_COMPARE_WITH_TIMEOUT(m_view->approvalCount(), 1, WaitMs);
        auto *reason = m_view->approvalCard(pendingId())->findChild<QLineEdit *>(QStringLiteral("denyReason"));
        QVERIFY(reason);
        QTest::keyClicks(reason, QStringLiteral("use the local account"));
        QTest::mouseClick(cardButton(*m_view, pendingId(), "denyButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(answer.value.has_value(), WaitMs);
        QCOMPARE(answer.value->decision, ApprovalDecision::Deny);
        QVERIFY2(answer.value->message.contains(QLatin1String("use the local account")),
                 qPrintable(answer.value->message));
        QCOMPARE(m_view->approvalCount(), 0);
    }

    void alwaysSkipsTheNextPromptForThatClientOnly()
    {
        auto a = link(QStringLiteral("agent-a"));
        auto b = link(QStringLiteral("agent-b"));
        QTRY_VERIFY_WITH_TIMEOUT(a->isConnected() && b->isConnected(), WaitMs);
        Answer first;
        a->ask(createRequest(QStringLiteral("1")), a.get(), first.fn());
        QTRY_COMPARE_WITH_TIMEOUT(m_view->approvalCount(), 1, WaitMs);
        auto *forget = m_view->findChild<QPushButton *>(QStringLiteral("forgetAlwaysButton"));
        QVERIFY(!forget->isVisibleTo(m_view.get()));
        QTest::mouseClick(cardButton(*m_view, pendingId(), "approveAlwaysButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(first.value.has_value(), WaitMs);
        QCOMPARE(first.value->decision, ApprovalDecision::Always);
        QVERIFY(forget->isVisibleTo(m_view.get()));

        Answer second;
        a->ask(createRequest(QStringLiteral("2")), a.get(), second.fn());
        QTRY_VERIFY_WITH_TIMEOUT(second.value.has_value(), WaitMs);
        QCOMPARE(second.value->decision, ApprovalDecision::Always);
        QCOMPARE(m_view->approvalCount(), 0);

        Answer other;
        b->ask(createRequest(QStringLiteral("1")), b.get(), other.fn());
        QTRY_COMPARE_WITH_TIMEOUT(m_view->approvalCount(), 1, WaitMs);
        QVERIFY(!other.value);
        QCOMPARE(m_hub->pendingApprovals().constFirst().request.client.name, QStringLiteral("agent-b"));

        // Forgotten: agent-a is asked again.
        QTest::mouseClick(forget, Qt::LeftButton);
        QVERIFY(!forget->isVisibleTo(m_view.get()));
        Answer third;
        a->ask(createRequest(QStringLiteral("3")), a.get(), third.fn());
        QTRY_COMPARE_WITH_TIMEOUT(m_view->approvalCount(), 2, WaitMs);
        QVERIFY(!third.value);
    }

    void cardsLeaveWhenTheClientLeaves()
    {
        auto a = link(QStringLiteral("short-lived"));
        Answer answer;
        a->ask(createRequest(QStringLiteral("1")), a.get(), answer.fn());
        QTRY_COMPARE_WITH_TIMEOUT(m_view->approvalCount(), 1, WaitMs);
        a.reset();
        QTRY_COMPARE_WITH_TIMEOUT(m_view->approvalCount(), 0, WaitMs);
    }

    void policyDialogKeepsACorruptFileUntilSaved()
    {
        const QString file = m_dir->filePath(QLatin1String(kAgentPolicyFile));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray corrupt = "{\"max_sessions\": \"many\",";
        f.write(corrupt);
        f.close();

        {
            AgentPolicyDialog dialog(m_dir->path(), Accounts, Tools);
            QVERIFY(!dialog.loadError().isEmpty());
            auto *banner = dialog.findChild<QLabel *>(QStringLiteral("policyLoadError"));
            QVERIFY(banner && !banner->isHidden());
            QVERIFY(banner->text().contains(QLatin1String("could not be read")));
            dialog.reject();
        }
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), corrupt);
        f.close();

        AgentPolicyDialog dialog(m_dir->path(), Accounts, Tools);
        dialog.resize(900, 640);
        dialog.show();
        QCOMPARE(dialog.policy().maxSessions, AgentPolicy().maxSessions); // the defaults
        // Only e2b, at most 2 sessions, 15 min default, no network, upload disabled, exec asked.
        auto *accounts = dialog.findChild<QListWidget *>(QStringLiteral("policyAccounts"));
        QCOMPARE(accounts->count(), 1 + Accounts.size());
        accounts->item(0)->setCheckState(Qt::Unchecked);
        QVERIFY(accounts->item(3)->flags() & Qt::ItemIsEnabled);
        accounts->item(3)->setCheckState(Qt::Checked);
        dialog.findChild<QSpinBox *>(QStringLiteral("policyMaxSessions"))->setValue(2);
        dialog.findChild<QSpinBox *>(QStringLiteral("policyDefaultTtl"))->setValue(15);
        dialog.findChild<QDoubleSpinBox *>(QStringLiteral("policyMaxUsd"))->setValue(1.25);
        dialog.findChild<QCheckBox *>(QStringLiteral("policyAllowNetwork"))->setChecked(false);
        dialog.findChild<QCheckBox *>(QStringLiteral("policyRemoveOnDisconnect"))->setChecked(true);
        auto *tools = dialog.findChild<QTableWidget *>(QStringLiteral("policyTools"));
        QCOMPARE(tools->rowCount(), Tools.size());
        tools->item(Tools.indexOf(QStringLiteral("upload")), 1)->setCheckState(Qt::Unchecked);
        tools->item(Tools.indexOf(QStringLiteral("exec")), 2)->setCheckState(Qt::Checked);
        saveShot(&dialog, QStringLiteral("agent-policy.png"));
        QVERIFY(dialog.save());

        const Result<AgentPolicy> saved = loadAgentPolicy(m_dir->path());
        QVERIFY2(saved.ok(), saved.ok() ? "" : qPrintable(saved.message()));
        QCOMPARE(saved->accounts, QStringList{QStringLiteral("e2b")});
        QCOMPARE(saved->maxSessions, 2);
        QCOMPARE(saved->defaultTtlSeconds, qint64(900));
        QCOMPARE(saved->maxTtlSeconds, AgentPolicy().maxTtlSeconds);
        QCOMPARE(saved->maxUsdPerHour, 1.25);
        QVERIFY(!saved->allowNetwork);
        QVERIFY(saved->removeOnDisconnect);
        QCOMPARE(saved->disabledTools, QStringList{QStringLiteral("upload")});
        QCOMPARE(saved->approveTools, QStringList{QStringLiteral("exec")});
    }

    void policyDialogKeepsNamesItDoesNotKnow()
    {
        AgentPolicy p;
        p.accounts = {QStringLiteral("gone-account"), QStringLiteral("local")};
        p.defaultTtlSeconds = 90; // not whole minutes
        p.disabledTools = {QStringLiteral("future_tool")};
        QVERIFY(saveAgentPolicy(m_dir->path(), p).ok());
        AgentPolicyDialog dialog(m_dir->path(), Accounts, Tools);
        QVERIFY(dialog.loadError().isEmpty());
        const AgentPolicy shown = dialog.policy();
        QCOMPARE(shown.accounts, (QStringList{QStringLiteral("local"), QStringLiteral("gone-account")}));
        QCOMPARE(shown.defaultTtlSeconds, qint64(90));
        QCOMPARE(shown.disabledTools, QStringList{QStringLiteral("future_tool")});
    }

    void policyButtonOpensTheDialog()
    {
        auto *button = m_view->findChild<QPushButton *>(QStringLiteral("agentPolicyButton"));
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
        auto *dialog = m_view->findChild<AgentPolicyDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isVisible(), WaitMs);
        dialog->reject();
    }
};

QTEST_MAIN(TestAgentsView)
#include "tst_agents_view.moc"
