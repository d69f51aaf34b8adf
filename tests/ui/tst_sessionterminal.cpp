// Terminal tabs offscreen: the exec console of a provider without a PTY (a real `sh -c` per
// command behind a provider double), a drop on a session without file access, tab titles
// that follow the program (OSC 2 from a real shell on a pty), and the app's terminal
// settings (sandbar.ini [terminal]) applied to the view. With SANDBAR_SCREENSHOT_DIR set it
// saves exec-console.png.
#include "FakeProvider.h"
#include "MemoryProvider.h"
#include "TestSupport.h"
#include "detail/DetailStack.h"
#include "detail/ExecConsole.h"
#include "detail/SessionTerminal.h"
#include "main/MainWindow.h"
#include "terminal/LocalPtyChannel.h"
#include "terminal/TerminalView.h"
#include "wiring/Terminals.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>
#include <QTimer>
#include <csignal>
#include <unistd.h>

using namespace sandbar;

namespace {

// Exec over a local process: what a provider that runs commands but has no PTY does.
class ProcessExec final : public ExecJob
{
public:
    explicit ProcessExec(ExecRequest request)
        : m_request(std::move(request))
    {
    }
    ~ProcessExec() override
    {
        if (m_proc.state() != QProcess::NotRunning) {
            killGroup();
            m_proc.waitForFinished(5000);
        }
    }
    // The command runs in its own process group, and the whole group is killed: killing
    // only the shell would leave its `sleep 30` running after the test.
    void killGroup()
    {
        if (m_proc.processId() > 0)
            ::kill(-pid_t(m_proc.processId()), SIGKILL);
    }
    void start() override
    {
        connect(&m_proc, &QProcess::readyReadStandardOutput, this,
                [this]() { Q_EMIT stdoutData(m_proc.readAllStandardOutput()); });
        connect(&m_proc, &QProcess::readyReadStandardError, this,
                [this]() { Q_EMIT stderrData(m_proc.readAllStandardError()); });
        connect(&m_proc, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
            if (m_done)
                return;
            m_done = true;
            Q_EMIT finished(status == QProcess::NormalExit
                                ? Result<int>(code)
                                : Result<int>(makeError(ErrorCode::Internal, QStringLiteral("crashed"))));
        });
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &kv : m_request.env)
            env.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
        m_proc.setProcessEnvironment(env);
        m_proc.setChildProcessModifier([] { ::setpgid(0, 0); });
        m_proc.start(m_request.argv.first(), m_request.argv.mid(1));
    }
    void cancel() override
    {
        if (m_done)
            return;
        m_done = true;
        killGroup();
        Q_EMIT finished(Result<int>(makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"))));
    }

private:
    ExecRequest m_request;
    QProcess m_proc;
    bool m_done = false;
};

ProviderDescriptor descriptor(Capabilities caps)
{
    ProviderDescriptor d;
    d.id = QStringLiteral("memory");
    d.displayName = QStringLiteral("Memory");
    d.capabilities = caps;
    return d;
}

SessionInfo session()
{
    SessionInfo s;
    s.id = QStringLiteral("0123456789abcdef");
    s.account = QStringLiteral("acct");
    s.provider = QStringLiteral("memory");
    s.name = QStringLiteral("agent-7");
    s.state = SessionState::Running;
    return s;
}

// A shell on a real pty that sets the window title, waits for a line, clears the title,
// then echoes whatever it gets.
std::unique_ptr<PtyChannel> titledShell()
{
    auto ch = makeLocalPtyChannel(
        QStringLiteral("/bin/sh"),
        QStringList{
            QStringLiteral("-c"),
            QStringLiteral("printf '\\033]2;build-42\\007ready\\n'; read x; printf '\\033]2;\\007'; exec cat")});
    ch->setEnvironment(QProcessEnvironment());
    return ch;
}

std::unique_ptr<PtyChannel> catShell()
{
    auto ch = makeLocalPtyChannel(QStringLiteral("/bin/sh"),
                                  QStringList{QStringLiteral("-c"), QStringLiteral("printf 'ready\\n'; exec cat")});
    ch->setEnvironment(QProcessEnvironment());
    return ch;
}

// The colour the fragment reading `needle` is drawn in.
QColor colourOf(const QPlainTextEdit *edit, const QString &needle)
{
    for (QTextBlock b = edit->document()->begin(); b.isValid(); b = b.next()) {
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (f.text().trimmed() == needle)
                return f.charFormat().foreground().color();
        }
    }
    return {};
}

// A channel whose connection breaks as it opens (an SSH master gone, the network down).
class BrokenPty final : public PtyChannel
{
public:
    void start() override
    {
        QTimer::singleShot(0, this, [this] {
            Q_EMIT errorOccurred(makeError(ErrorCode::Unavailable, QStringLiteral("far-host is unreachable")));
        });
    }
    void write(const QByteArray &) override {}
    void resize(int, int) override {}
    void close() override {}
    bool isOpen() const override { return false; }
    std::optional<int> exitCode() const override { return std::nullopt; }
};

void dropFile(QWidget *target, const QString &path)
{
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(5, 5), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    QDropEvent drop(QPointF(5, 5), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &drop);
}

} // namespace

class TestSessionTerminal final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void factoryChoosesByCapability()
    {
        const auto factory = makeTerminalFactory(TerminalSettings{});
        test::MemoryProvider exec(descriptor(Capability::Exec), QStringLiteral("acct"));
        std::unique_ptr<QWidget> console(factory(&exec, session(), {}, nullptr));
        QVERIFY(qobject_cast<ui::ExecConsole *>(console.get()));

        test::MemoryProvider pty(descriptor(Capability::Pty | Capability::Exec), QStringLiteral("acct"));
        pty.ptyHook = [](const QString &, const PtyOptions &) { return catShell(); };
        std::unique_ptr<QWidget> terminal(factory(&pty, session(), {}, nullptr));
        auto *term = qobject_cast<ui::SessionTerminal *>(terminal.get());
        QVERIFY(term);
        // Started before it goes (a hang-up before exec would reach this test's handlers).
        QTRY_VERIFY_WITH_TIMEOUT(term->screen()->screenText().contains(QStringLiteral("ready")), 30000);

        test::MemoryProvider none(descriptor(Capability::Files), QStringLiteral("acct"));
        QCOMPARE(factory(&none, session(), {}, nullptr), nullptr);
    }

    void execConsoleRunsCommands()
    {
        test::MemoryProvider provider(descriptor(Capability::Exec), QStringLiteral("acct"));
        QList<ExecRequest> requests;
        provider.execHook = [&requests](const QString &, const ExecRequest &r) {
            requests << r;
            return std::make_unique<ProcessExec>(r);
        };
        ui::ExecConsole console(&provider, session());
        console.resize(820, 460);
        console.show();
        QVERIFY(QTest::qWaitForWindowExposed(&console));
        auto *notice = console.findChild<QLabel *>(QStringLiteral("execConsoleNotice"));
        QVERIFY(notice && notice->isVisible());
        QVERIFY(notice->text().contains(QStringLiteral("no interactive terminal")));
        QCOMPARE(console.windowTitle(), QStringLiteral("agent-7"));

        // A typed line runs through sh -c; stdout and stderr stream in, the exit code follows.
        QSignalSpy done(&console, &ui::ExecConsole::commandFinished);
        console.input()->setFocus();
        QTest::keyClicks(console.input(), QStringLiteral("echo out-$((6*7)); echo oops >&2; exit 3"));
        QTest::keyClick(console.input(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 30000);
        QCOMPARE(done.at(0).at(0).toInt(), 3);
        QCOMPARE(requests.size(), 1);
        QCOMPARE(requests.at(0).argv, (QStringList{QStringLiteral("sh"), QStringLiteral("-c"),
                                                   QStringLiteral("echo out-$((6*7)); echo oops >&2; exit 3")}));
        const QString text = console.outputText();
        QVERIFY2(text.contains(QStringLiteral("$ echo out-$((6*7))")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("out-42\n")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("oops\n")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("[exit 3]")), qPrintable(text));
        QVERIFY(console.input()->text().isEmpty());
        // stderr is drawn in its own colour.
        const QColor err = colourOf(console.output(), QStringLiteral("oops"));
        QVERIFY(err.isValid());
        QVERIFY(err != colourOf(console.output(), QStringLiteral("out-42")));

        QTest::keyClicks(console.input(), QStringLiteral("printf 'a\\nb\\n'"));
        QTest::keyClick(console.input(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 30000);
        QCOMPARE(done.at(1).at(0).toInt(), 0);
        QVERIFY(console.outputText().contains(QStringLiteral("a\nb\n[exit 0]")));

        // Cancel stops a running command; its output so far stays.
        QTest::keyClicks(console.input(), QStringLiteral("echo started; sleep 30; echo late"));
        QTest::keyClick(console.input(), Qt::Key_Return);
        QVERIFY(console.isRunning());
        QVERIFY(console.cancelButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(console.outputText().contains(QStringLiteral("\nstarted\n")), 30000);
        QTest::keyClick(console.input(), Qt::Key_Return); // ignored while one runs
        QCOMPARE(requests.size(), 3);
        QTest::mouseClick(console.cancelButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 3, 30000);
        QCOMPARE(done.at(2).at(0).toInt(), -1);
        QVERIFY(!console.isRunning());
        QVERIFY(!console.cancelButton()->isEnabled());
        QVERIFY2(console.outputText().contains(QStringLiteral("started\n[cancelled]")),
                 qPrintable(console.outputText()));
        QVERIFY(!console.outputText().contains(QStringLiteral("\nlate\n")));

        // Ctrl+C in the command line cancels too.
        QTest::keyClicks(console.input(), QStringLiteral("sleep 30"));
        QTest::keyClick(console.input(), Qt::Key_Return);
        QVERIFY(console.isRunning());
        QTest::keyClick(console.input(), Qt::Key_C, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 4, 30000);
        QVERIFY(!console.isRunning());

        // History: Up walks back, Down forward, to the line being edited.
        QTest::keyClicks(console.input(), QStringLiteral("draft"));
        QTest::keyClick(console.input(), Qt::Key_Up);
        QCOMPARE(console.input()->text(), QStringLiteral("sleep 30"));
        QTest::keyClick(console.input(), Qt::Key_Up);
        QCOMPARE(console.input()->text(), QStringLiteral("echo started; sleep 30; echo late"));
        QTest::keyClick(console.input(), Qt::Key_Down);
        QCOMPARE(console.input()->text(), QStringLiteral("sleep 30"));
        QTest::keyClick(console.input(), Qt::Key_Down);
        QCOMPARE(console.input()->text(), QStringLiteral("draft"));
        QTest::keyClick(console.input(), Qt::Key_Down);
        QCOMPARE(console.input()->text(), QStringLiteral("draft"));

        // A command the provider cannot start says why.
        console.input()->clear();
        QTest::keyClicks(console.input(), QStringLiteral("/nonexistent/tool --version"));
        QTest::keyClick(console.input(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 5, 30000);
        QVERIFY(console.outputText().contains(QStringLiteral("[exit 127]")));

        const QString shots = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QDir().mkpath(shots);
            QVERIFY(console.grab().save(QDir(shots).filePath(QStringLiteral("exec-console.png"))));
        }
    }

    void execFailureIsShown()
    {
        // The memory provider's own exec answers Unsupported.
        test::MemoryProvider provider(descriptor(Capability::Exec), QStringLiteral("acct"));
        ui::ExecConsole console(&provider, session());
        QSignalSpy done(&console, &ui::ExecConsole::commandFinished);
        console.run(QStringLiteral("true"));
        QTRY_COMPARE(done.count(), 1);
        QCOMPARE(done.at(0).at(0).toInt(), -1);
        QVERIFY2(console.outputText().contains(QStringLiteral("[failed: Memory does not support exec]")),
                 qPrintable(console.outputText()));
    }

    void dropWithoutFileAccessSaysSo()
    {
        test::MemoryProvider provider(descriptor(Capability::Pty | Capability::Exec), QStringLiteral("acct"));
        provider.ptyHook = [](const QString &, const PtyOptions &) { return catShell(); };
        ui::SessionTerminal terminal(&provider, session());
        terminal.resize(700, 400);
        terminal.show();
        QVERIFY(QTest::qWaitForWindowExposed(&terminal));
        QVERIFY(!terminal.isNoticeVisible());
        QTRY_VERIFY_WITH_TIMEOUT(terminal.screen()->screenText().contains(QStringLiteral("ready")), 30000);
        dropFile(terminal.view()->viewport(), QStringLiteral("/etc/hosts"));
        QVERIFY(terminal.isNoticeVisible());
        QVERIFY2(terminal.noticeText().contains(QStringLiteral("cannot receive files")),
                 qPrintable(terminal.noticeText()));
        QVERIFY(terminal.noticeText().contains(QStringLiteral("1 dropped item")));
        const QString shots = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QDir().mkpath(shots);
            QVERIFY(terminal.grab().save(QDir(shots).filePath(QStringLiteral("terminal-drop-notice.png"))));
        }
        // The notice is transient.
        QTRY_VERIFY_WITH_TIMEOUT(!terminal.isNoticeVisible(), 20000);
    }

    void titleFollowsTheProgram()
    {
        test::MemoryProvider provider(descriptor(Capability::Pty), QStringLiteral("acct"));
        provider.ptyHook = [](const QString &, const PtyOptions &) { return titledShell(); };
        ui::SessionTerminal terminal(&provider, session());
        QSignalSpy titles(&terminal, &ui::SessionTerminal::titleChanged);
        terminal.resize(700, 400);
        terminal.show();
        QVERIFY(QTest::qWaitForWindowExposed(&terminal));
        QTRY_COMPARE_WITH_TIMEOUT(terminal.windowTitle(), QStringLiteral("build-42"), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(terminal.screen()->screenText().contains(QStringLiteral("ready")), 30000);
        // An empty title falls back to the session's name.
        QTest::keyClick(terminal.view(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(terminal.windowTitle(), QStringLiteral("agent-7"), 30000);
        QCOMPARE(titles.last().at(0).toString(), QStringLiteral("agent-7"));
    }

    // A channel that breaks while the session runs is tried again by itself: the banner says
    // why and when, with Reconnect now; once a shell starts, a line marks what was lost.
    void brokenChannelReconnectsByItself()
    {
        test::MemoryProvider provider(descriptor(Capability::Pty), QStringLiteral("acct"));
        int opened = 0;
        provider.ptyHook = [&opened](const QString &, const PtyOptions &) -> std::unique_ptr<PtyChannel> {
            ++opened;
            if (opened <= 2)
                return std::make_unique<BrokenPty>();
            return catShell();
        };
        ui::SessionTerminal terminal(&provider, session());
        terminal.resize(700, 400);
        terminal.show();
        QVERIFY(QTest::qWaitForWindowExposed(&terminal));
        QTRY_VERIFY_WITH_TIMEOUT(terminal.endStateText().contains(QStringLiteral("far-host is unreachable")), 10000);
        QVERIFY2(terminal.endStateText().contains(QStringLiteral("Reconnecting in")),
                 qPrintable(terminal.endStateText()));
        auto *button = terminal.view()->findChild<QPushButton *>(QStringLiteral("reconnectButton"));
        QVERIFY(button && button->text() == QStringLiteral("Reconnect now"));
        // The first retry (after 1 s) breaks too; the second (2 s later) opens a shell.
        QTRY_VERIFY_WITH_TIMEOUT(terminal.screen()->screenText().contains(QStringLiteral("ready")), 30000);
        QCOMPARE(opened, 3);
        QVERIFY(!terminal.view()->isDisconnected());
        QVERIFY2(terminal.screen()->screenText().contains(QStringLiteral("reconnected: a new shell")),
                 qPrintable(terminal.screen()->screenText()));
    }

    void settingsFromIni()
    {
        QTemporaryDir dir;
        const TerminalSettings defaults = loadTerminalSettings(dir.path());
        QCOMPARE(defaults.scheme, TerminalSettings::Scheme::FollowPalette);
        QVERIFY(!defaults.copyOnSelect);
        QVERIFY(defaults.confirmMultiLinePaste);
        QVERIFY(bool(defaults.urlOpener));
        {
            QSettings ini(QDir(dir.path()).filePath(QStringLiteral("sandbar.ini")), QSettings::IniFormat);
            ini.beginGroup(QStringLiteral("terminal"));
            ini.setValue(QStringLiteral("colorScheme"), QStringLiteral("Light"));
            ini.setValue(QStringLiteral("copyOnSelect"), true);
            ini.setValue(QStringLiteral("confirmMultiLinePaste"), false);
            ini.setValue(QStringLiteral("openLinks"), false);
        }
        const TerminalSettings set = loadTerminalSettings(dir.path());
        QCOMPARE(set.scheme, TerminalSettings::Scheme::Light);
        QVERIFY(set.copyOnSelect);
        QVERIFY(!set.confirmMultiLinePaste);
        QVERIFY(!set.urlOpener);
        {
            QSettings ini(QDir(dir.path()).filePath(QStringLiteral("sandbar.ini")), QSettings::IniFormat);
            ini.setValue(QStringLiteral("terminal/colorScheme"), QStringLiteral("dark"));
        }
        QCOMPARE(loadTerminalSettings(dir.path()).scheme, TerminalSettings::Scheme::Dark);
    }

    void settingsReachTheView()
    {
        test::MemoryProvider provider(descriptor(Capability::Pty), QStringLiteral("acct"));
        provider.ptyHook = [](const QString &, const PtyOptions &) { return catShell(); };
        ui::SessionTerminal terminal(&provider, session());
        terminal.resize(700, 300);
        terminal.show();
        QVERIFY(QTest::qWaitForWindowExposed(&terminal));
        TerminalView *view = terminal.view();

        // Colours follow the palette, and switch with it.
        QPalette dark = terminal.palette();
        dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
        QPalette light = terminal.palette();
        light.setColor(QPalette::Window, QColor(0xf0, 0xf0, 0xf0));
        terminal.setPalette(light);
        QList<QUrl> opened;
        TerminalSettings s;
        s.copyOnSelect = true;
        s.confirmMultiLinePaste = false;
        s.urlOpener = [&opened](const QUrl &u) { opened << u; };
        terminal.setSettings(s);
        QCOMPARE(view->colors().background, lightTerminalColors().background);
        terminal.setPalette(dark);
        QCOMPARE(view->colors().background, darkTerminalColors().background);
        terminal.setPalette(light);
        QCOMPARE(view->colors().background, lightTerminalColors().background);
        QVERIFY(view->copyOnSelect());

        // No confirmation: several lines go straight to the program (cat echoes them).
        view->pasteText(QStringLiteral("first-line\nsecond-line\n"));
        QVERIFY(!view->findChild<QMessageBox *>());
        QTRY_VERIFY_WITH_TIMEOUT(terminal.screen()->screenText().contains(QStringLiteral("second-line")), 30000);

        // Ctrl+click on a link goes to the app's opener (queued, after the click).
        terminal.screen()->feedNow("\r\nsee https://example.com/docs. ok");
        QTRY_VERIFY(terminal.screen()->screenText().contains(QStringLiteral("example.com/docs")));
        const QSize c = view->cellSize();
        int row = -1;
        const QStringList lines = terminal.screen()->screenText().split(QLatin1Char('\n'));
        for (int i = 0; i < lines.size(); ++i) {
            if (lines.at(i).contains(QStringLiteral("https://")))
                row = i;
        }
        QVERIFY(row >= 0);
        row += terminal.screen()->scrollbackSize() - view->topLine();
        const QPoint onUrl(10 * c.width() + 2, row * c.height() + 2);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ControlModifier, onUrl);
        QTRY_COMPARE(opened, QList<QUrl>{QUrl(QStringLiteral("https://example.com/docs"))});

        // The fixed schemes and confirmation (the view's default) apply as set.
        TerminalSettings fixed;
        fixed.scheme = TerminalSettings::Scheme::Dark;
        ui::SessionTerminal second(&provider, session());
        second.setPalette(light);
        second.setSettings(fixed);
        QTRY_VERIFY_WITH_TIMEOUT(second.screen()->screenText().contains(QStringLiteral("ready")), 30000);
        QCOMPARE(second.view()->colors().background, darkTerminalColors().background);
        QVERIFY(!second.view()->copyOnSelect());
        second.view()->pasteText(QStringLiteral("x\ny"));
        auto *box = second.view()->findChild<QMessageBox *>();
        QVERIFY(box);
        box->reject();
    }

    void windowOpensConsolesAndFollowsTitles()
    {
        QTemporaryDir dir;
        ProviderFactories factories;
        auto f = std::make_unique<test::MemoryProviderFactory>();
        test::MemoryProviderFactory *memory = f.get();
        factories.add(std::move(f));
        test::MemorySecretStore secrets;
        AccountStore accounts(dir.path(), factories, secrets);
        SessionRegistry registry(accounts, factories);
        Account a;
        a.name = QStringLiteral("acct");
        a.provider = QStringLiteral("memory");
        QVERIFY_RESULT(test::await<void>([&](Callback<void> cb) { accounts.add(a, {}, cb); }));
        auto p = test::await<Provider *>([&](Callback<Provider *> cb) { registry.provider(a.name, cb); });
        QVERIFY_RESULT(p);
        test::MemoryProvider *provider = memory->made.value(a.name);
        QVERIFY(provider);
        provider->execHook = [](const QString &, const ExecRequest &r) { return std::make_unique<ProcessExec>(r); };
        provider->ptyHook = [](const QString &, const PtyOptions &) { return titledShell(); };
        provider->offer(Capabilities(Capability::Exec));
        CreateSpec spec;
        spec.name = QStringLiteral("agent-7");
        spec.image = QStringLiteral("busybox");
        QVERIFY_RESULT(test::await<SessionInfo>([&](Callback<SessionInfo> cb) { provider->create(spec, cb); }));

        ui::MainWindow w(accounts, registry, factories);
        w.setTerminalFactory(makeTerminalFactory(TerminalSettings{}));
        w.resize(1100, 600);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.refreshAll();
        auto *table = w.findChild<QTableView *>(QStringLiteral("sessionTable"));
        QTRY_COMPARE(table->model()->rowCount(), 1);
        QAction *terminal = nullptr;
        for (auto *act : w.findChildren<QAction *>()) {
            if (act->text().remove(QLatin1Char('&')) == QStringLiteral("Terminal"))
                terminal = act;
        }
        QVERIFY(terminal);

        // Exec without a PTY: the Terminal action opens a console.
        table->selectRow(0);
        QVERIFY(terminal->isEnabled());
        terminal->trigger();
        QVERIFY(w.details()->currentDetail());
        QTabWidget *tabs = w.details()->currentDetail()->terminalTabs();
        QVERIFY(qobject_cast<ui::ExecConsole *>(tabs->currentWidget()));
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("agent-7"));

        // With a PTY, a terminal whose tab follows the program's title.
        provider->offer(Capability::Pty | Capability::Exec);
        terminal->trigger();
        auto *term = qobject_cast<ui::SessionTerminal *>(tabs->currentWidget());
        QVERIFY(term);
        QTRY_COMPARE_WITH_TIMEOUT(tabs->tabText(tabs->indexOf(term)), QStringLiteral("build-42"), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(term->screen()->screenText().contains(QStringLiteral("ready")), 30000);
        QTest::keyClick(term->view(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(tabs->tabText(tabs->indexOf(term)), QStringLiteral("agent-7"), 30000);

        // Neither: no console to offer.
        provider->offer(Capabilities(Capability::Files));
        table->clearSelection();
        table->selectRow(0);
        QVERIFY(!terminal->isEnabled());
    }
};

QTEST_MAIN(TestSessionTerminal)
#include "tst_sessionterminal.moc"
