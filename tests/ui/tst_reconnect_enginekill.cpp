// The window with a terminal open into a session on a private dockerd (--live-restore),
// which is then SIGKILLed: within seconds the terminal shows why under a banner offering
// Reconnect, and the window keeps answering. The engine comes back on the same data root:
// the session is listed running again and Reconnect gives a working shell. With
// SANDBAR_SCREENSHOT_DIR set it saves reconnect-enginekill.png (the disconnected window).
#include "../docker/PrivateDockerd.h"
#include "FakeProvider.h"
#include "detail/DetailStack.h"
#include "detail/SessionDetail.h"
#include "detail/SessionTerminal.h"
#include "main/MainWindow.h"
#include "sessions/SessionsFilter.h"
#include "sessions/SessionsModel.h"
#include "sessions/SessionsPane.h"
#include "terminal/TerminalScreen.h"
#include "terminal/TerminalView.h"
#include "wiring/AppServices.h"
#include "wiring/GuiMain.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QPushButton>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>

using namespace sandbar;
using namespace sandbar::test;

class TestReconnectEngineKill final : public QObject
{
    Q_OBJECT
    PrivateDockerd m_engine;
    QTemporaryDir m_config;
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<ui::MainWindow> m_window;
    std::unique_ptr<Provider> m_direct; // the test's own view of the engine, for setup
    const QString m_account = QStringLiteral("killed");
    QString m_id;

    std::optional<SessionInfo> listed() const
    {
        const ui::SessionsModel *model = m_window->sessionsPane()->model();
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->session(row).id == m_id)
                return model->session(row);
        }
        return std::nullopt;
    }
    AccountStatus::State accountState() const { return m_services->registry->status(m_account).state; }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_config.isValid());
        // Fails in CI, skips elsewhere, when dockerd, root or the shared engine is missing.
        m_engine.prepare();
        if (QTest::currentTestFailed() || !m_engine.prepared())
            return;
        m_engine.start(QStringLiteral("one"), true);
        if (QTest::currentTestFailed())
            return;
        m_direct = makeEngineProvider(docker::Flavour::Docker, m_engine.endpoint(), m_account);
        QVERIFY(m_direct);
        CreateSpec spec;
        spec.image = testImage();
        spec.name = QStringLiteral("kill-me");
        spec.ttlSeconds = 600; // a safety net should cleanup miss it
        auto s = await<SessionInfo>([&](auto cb) { m_direct->create(spec, cb); }, 60000);
        QVERIFY_RESULT(s);
        m_id = s->id;

        m_services = buildServices(m_config.path(), std::make_unique<MemorySecretStore>());
        buildCostServices(*m_services);
        buildStatsServices(*m_services);
        Account acct;
        acct.name = m_account;
        acct.provider = QStringLiteral("docker");
        acct.settings.insert(QStringLiteral("endpoint"), m_engine.endpoint());
        QVERIFY_RESULT(await<void>([&](auto cb) { m_services->accounts->add(acct, {}, cb); }));
        m_window = makeMainWindow(*m_services);
        m_window->resize(1100, 700);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY2(waitUntil([&] { return listed().has_value(); }, 30000), "the session is not listed");
    }

    void cleanupTestCase()
    {
        m_window.reset();
        m_services.reset();
        m_direct.reset();
        m_engine.stop();
    }

    void reconnectAfterEngineKill()
    {
        QVERIFY(m_window);
        ui::SessionsPane *pane = m_window->sessionsPane();
        const QModelIndex index = pane->filter()->mapFromSource(
            pane->model()->index(pane->model()->rowOf(listed()->ref()), ui::SessionsModel::Name));
        QVERIFY(index.isValid());
        pane->view()->scrollTo(index);
        QTest::mouseClick(pane->view()->viewport(), Qt::LeftButton, {}, pane->view()->visualRect(index).center());
        auto *action = m_window->findChild<QAction *>(QStringLiteral("terminalAction"));
        QVERIFY(action);
        QVERIFY(waitUntil([&] { return action->isEnabled(); }, 10000));
        action->trigger();
        ui::SessionDetail *detail = m_window->details()->currentDetail();
        QVERIFY(detail);
        auto *term = qobject_cast<ui::SessionTerminal *>(detail->terminalTabs()->currentWidget());
        QVERIFY(term);
        static const QRegularExpression prompt(QStringLiteral("[$#] ?$"), QRegularExpression::MultilineOption);
        QVERIFY2(waitUntil([&] { return term->screen()->screenText().contains(prompt); }, 20000),
                 qPrintable(term->screen()->screenText()));
        const auto typeAndSee = [&](const QString &command, const QString &answer) {
            return waitUntil(
                [&] {
                    QTest::keyClicks(term->view(), command);
                    QTest::keyClick(term->view(), Qt::Key_Return);
                    return waitUntil(
                        [&] { return term->screen()->screenText().split(QLatin1Char('\n')).contains(answer); }, 1000);
                },
                20000);
        };
        QVERIFY2(typeAndSee(QStringLiteral("echo before-$((2*3))"), QStringLiteral("before-6")),
                 qPrintable(term->screen()->screenText()));

        // The event loop's heartbeat: the longest gap between ticks while the engine is away.
        QElapsedTimer sinceTick;
        qint64 longestGap = 0;
        QTimer heartbeat;
        heartbeat.setInterval(20);
        connect(&heartbeat, &QTimer::timeout, this, [&] { longestGap = qMax(longestGap, sinceTick.restart()); });
        sinceTick.start();
        heartbeat.start();

        QElapsedTimer sinceKill;
        m_engine.kill(); // SIGKILL
        sinceKill.start();
        auto *button = term->view()->findChild<QPushButton *>(QStringLiteral("reconnectButton"));
        const auto offersReconnect = [&] {
            button = term->view()->findChild<QPushButton *>(QStringLiteral("reconnectButton"));
            return term->view()->isDisconnected() && button && button->isVisible();
        };
        QVERIFY2(waitUntil(offersReconnect, 10000), qPrintable(term->endStateText()));
        const qint64 noticedMs = sinceKill.elapsed();
        // The account's next look at the engine fails too; the banner must still offer Reconnect.
        QVERIFY2(waitUntil([&] { return accountState() == AccountStatus::State::Failed; }, 30000),
                 qPrintable(m_services->registry->status(m_account).lastError.message));
        QVERIFY2(offersReconnect(), qPrintable(term->endStateText()));
        // The row no longer claims the session runs: nobody can see it now.
        const auto stateCell = [&] {
            const ui::SessionsModel *model = m_window->sessionsPane()->model();
            const int row = model->rowOf(listed()->ref());
            return model->index(row, ui::SessionsModel::State).data().toString();
        };
        QVERIFY2(waitUntil([&] { return stateCell().contains(QLatin1String("unreachable")); }, 5000),
                 qPrintable(stateCell()));
        qInfo("banner after %lld ms: %s [%s]; longest event-loop gap %lld ms", noticedMs,
              qPrintable(term->endStateText()), qPrintable(button->text()), longestGap);
        QVERIFY2(longestGap < 2000, "the window stopped answering");
        const QString shots = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR");
        if (!shots.isEmpty())
            m_window->grab().save(QDir(shots).filePath(QStringLiteral("reconnect-enginekill.png")));

        QElapsedTimer sinceStart;
        sinceStart.start();
        m_engine.start(QStringLiteral("one"), true);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(waitUntil(
                     [&] {
                         return accountState() == AccountStatus::State::Ok && listed() &&
                                listed()->state == SessionState::Running;
                     },
                     60000),
                 qPrintable(m_services->registry->status(m_account).lastError.message));
        QVERIFY2(waitUntil([&] { return !stateCell().contains(QLatin1String("unreachable")); }, 5000),
                 qPrintable(stateCell()));
        qInfo("engine back and the session listed running %lld ms after dockerd started", sinceStart.elapsed());
        // The terminal tries again by itself (its back-off may be long by now): Reconnect now.
        if (offersReconnect())
            QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY2(waitUntil([&] { return !term->view()->isDisconnected(); }, 15000), qPrintable(term->endStateText()));
        QVERIFY2(typeAndSee(QStringLiteral("echo after-$((3*3))"), QStringLiteral("after-9")),
                 qPrintable(term->screen()->screenText()));
        QVERIFY2(longestGap < 2000, "the window stopped answering");
        heartbeat.stop();
    }
};

// bench/reliability counts this suite's scenarios, running it without ctest's environment.
int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    TestReconnectEngineKill test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_reconnect_enginekill.moc"
