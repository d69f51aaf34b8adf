// The Commands tab over a provider with commands left running (MemoryProvider): starting one
// from the command line, its output followed, Stop and Kill only while it runs, its end and
// exit code shown, refusals said.
#include "MemoryProvider.h"
#include "TestSupport.h"
#include "detail/CommandsView.h"

#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

using namespace sandbar;
using namespace sandbar::test;
using sandbar::ui::CommandsView;

class TestCommandsView : public QObject
{
    Q_OBJECT
    std::unique_ptr<MemoryProvider> m_provider;

private Q_SLOTS:
    void init()
    {
        ProviderDescriptor d;
        d.id = QStringLiteral("memory");
        d.displayName = QStringLiteral("Memory");
        d.capabilities = Capability::Background;
        m_provider = std::make_unique<MemoryProvider>(d, QStringLiteral("mem"));
        SessionInfo s;
        s.id = QStringLiteral("m1");
        s.state = SessionState::Running;
        m_provider->inject(s);
    }

    void startsFollowsAndStops()
    {
        m_provider->backgroundOutputs.insert(QStringLiteral("cmd-1"), "listening on :3000\n");
        CommandsView v(m_provider.get(), QStringLiteral("m1"));
        v.show();
        QVERIFY(waitUntil([&] { return v.statusText().contains(QStringLiteral("No commands")); }, 5000));
        auto *stop = v.findChild<QPushButton *>(QStringLiteral("stopCommandButton"));
        auto *kill = v.findChild<QPushButton *>(QStringLiteral("killCommandButton"));
        QVERIFY(stop && kill);
        QVERIFY(!stop->isEnabled() && !kill->isEnabled());

        v.input()->setText(QStringLiteral("npm run dev"));
        QTest::keyClick(v.input(), Qt::Key_Return);
        QVERIFY(waitUntil([&] { return v.table()->rowCount() == 1; }, 5000));
        QCOMPARE(v.table()->item(0, 0)->text(), QStringLiteral("sh -c npm run dev"));
        QCOMPARE(v.table()->item(0, 1)->text(), QStringLiteral("Running"));
        QCOMPARE(v.table()->item(0, 3)->text(), QStringLiteral("cmd-1"));
        QVERIFY(v.input()->text().isEmpty());
        QVERIFY(waitUntil([&] { return v.outputText().contains(QStringLiteral("listening on :3000")); }, 5000));
        QVERIFY2(v.statusText().contains(QStringLiteral("cmd-1")), qPrintable(v.statusText()));

        // The command followed stays selected across the reload: Stop works on it.
        QVERIFY(waitUntil([&] { return stop->isEnabled(); }, 5000));
        stop->click();
        QVERIFY(waitUntil([&] { return v.table()->item(0, 1)->text() == QLatin1String("Exited (143)"); }, 5000));
        QVERIFY(!stop->isEnabled() && !kill->isEnabled());
        QVERIFY(m_provider->calls.contains(QStringLiteral("signalBackground")));
    }

    // Kill sends KILL: the exit code says 9.
    void killEndsAtOnce()
    {
        CommandsView v(m_provider.get(), QStringLiteral("m1"));
        v.show();
        v.input()->setText(QStringLiteral("sleep 600"));
        v.startTyped();
        QVERIFY(waitUntil([&] { return v.table()->rowCount() == 1; }, 5000));
        v.table()->selectRow(0);
        auto *kill = v.findChild<QPushButton *>(QStringLiteral("killCommandButton"));
        QVERIFY(waitUntil([&] { return kill->isEnabled(); }, 5000));
        kill->click();
        QVERIFY(waitUntil([&] { return v.table()->item(0, 1)->text() == QLatin1String("Exited (137)"); }, 5000));
    }

    // A refusal is said where the command line is, and nothing is listed.
    void refusalsAreSaid()
    {
        CommandsView v(m_provider.get(), QStringLiteral("gone"));
        v.show();
        v.input()->setText(QStringLiteral("true"));
        v.startTyped();
        QVERIFY(waitUntil([&] { return v.statusText().contains(QStringLiteral("did not start")); }, 5000));
        QVERIFY2(v.statusText().contains(QStringLiteral("no session gone")), qPrintable(v.statusText()));
        QCOMPARE(v.table()->rowCount(), 0);
        QCOMPARE(v.input()->text(), QStringLiteral("true")); // kept, to correct and try again
    }
};

QTEST_MAIN(TestCommandsView)
#include "tst_commandsview.moc"
