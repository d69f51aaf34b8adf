// Every window and dialog walked for interactive widgets without an accessible name (what a
// screen reader announces), built offscreen over in-memory providers: the main window with a
// session selected and each detail page shown (a terminal on a real pty, its find bar and
// disconnect banner, an exec console), the account, New session, budget, conflict,
// preferences and shortcuts dialogs, and the compare and audit windows. Also: every menu
// action has a shortcut or a reason not to, and no two shortcuts clash.
#include "AccessibleWalk.h"
#include "CatalogFixture.h"
#include "FakeProvider.h"
#include "MemoryProvider.h"
#include "TestSupport.h"
#include "audit/AuditLog.h"
#include "audit/AuditView.h"
#include "charts/StatsView.h"
#include "compare/CompareView.h"
#include "costs/BudgetWatcher.h"
#include "costs/CostLedger.h"
#include "costs/CostMeter.h"
#include "detail/DetailStack.h"
#include "detail/ExecConsole.h"
#include "detail/InfoView.h"
#include "detail/LogsView.h"
#include "detail/SessionTerminal.h"
#include "files/ConflictDialog.h"
#include "files/FilesPane.h"
#include "files/TransferPanel.h"
#include "files/TransferQueue.h"
#include "main/CostStatus.h"
#include "main/Dialogs.h"
#include "main/MainWindow.h"
#include "metrics/StatsCollector.h"
#include "prefs/Preferences.h"
#include "prefs/PreferencesDialog.h"
#include "prefs/ShortcutsDialog.h"
#include "providers/docker/DockerFactory.h"
#include "providers/local/LocalProvider.h"
#include "terminal/LocalPtyChannel.h"
#include "terminal/TerminalFindBar.h"
#include "terminal/TerminalView.h"
#include "wiring/Terminals.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>

using namespace sandbar;

namespace {

std::unique_ptr<PtyChannel> catShell()
{
    auto ch = makeLocalPtyChannel(QStringLiteral("/bin/sh"),
                                  QStringList{QStringLiteral("-c"), QStringLiteral("printf 'ready\\n'; exec cat")});
    ch->setEnvironment(QProcessEnvironment());
    return ch;
}

SessionInfo session()
{
    SessionInfo s;
    s.id = QStringLiteral("0123456789abcdef");
    s.account = QStringLiteral("acct");
    s.provider = QStringLiteral("memory");
    s.name = QStringLiteral("agent-7");
    s.image = QStringLiteral("busybox");
    s.state = SessionState::Running;
    return s;
}

// Menu actions without a shortcut on purpose, by text (mnemonics removed), with the reason.
const QHash<QString, QString> kNoShortcut = {
    {QStringLiteral("Quit"), QStringLiteral("QKeySequence::Quit: Ctrl+Q where the platform binds one (offscreen's and "
                                            "Windows' key scheme have none; Alt+F4 closes there)")},
    {QStringLiteral("About Sandbar"), QStringLiteral("rarely used; no platform binds a key to it")},
    {QStringLiteral("Archive"),
     QStringLiteral("only some cloud providers archive (Daytona); shown only for them, rarely "
                    "used")},
    {QStringLiteral("Fork"), QStringLiteral("only some cloud providers fork (Vercel); shown only for them, and it "
                                            "opens a dialog that asks for a name first")},
    {QStringLiteral("Session settings"),
     QStringLiteral("only providers that change settings later have it (Sprites); shown only for them, and it "
                    "opens a dialog")},
    {QStringLiteral("Labels"),
     QStringLiteral("only providers that change labels later have it (Sprites, Daytona); shown only for them, "
                    "and it opens a dialog")},
    {QStringLiteral("Edit account"),
     QStringLiteral("acts on the account list's selection, also from its context menu")},
    {QStringLiteral("Check connection"),
     QStringLiteral("acts on the account list's selection, also from its context menu")},
    {QStringLiteral("Budget"), QStringLiteral("acts on the account list's selection, also from its context menu")},
    {QStringLiteral("Remove account"),
     QStringLiteral("acts on the account list's selection, also from its context menu; destructive, so not one key "
                    "away")},
};

} // namespace

class TestAccessibility final : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    ProviderFactories m_factories;
    test::MemoryProviderFactory *m_memory = nullptr;
    test::MemorySecretStore m_secrets;
    std::unique_ptr<AccountStore> m_accounts;
    std::unique_ptr<SessionRegistry> m_registry;

    // Shows w, lets it lay out, and fails listing every unnamed widget under it.
    static bool named(QWidget *w, const char *what)
    {
        if (!w->isVisible())
            w->show();
        // Shown and laid out: its window is on screen (polish and layout run before that).
        if (!QTest::qWaitForWindowExposed(w->window(), 10000))
            return false;
        const QStringList missing = test::widgetsWithoutAccessibleName(w);
        if (missing.isEmpty())
            return true;
        qWarning().noquote() << what << "has widgets without an accessible name:\n  "
                             << missing.join(QStringLiteral("\n  "));
        return false;
    }

    static QDialog *visibleDialog(QWidget *parent)
    {
        for (auto *d : parent->findChildren<QDialog *>()) {
            if (d->isVisible())
                return d;
        }
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("sandbar-test"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_accessibility"));
        auto f = std::make_unique<test::MemoryProviderFactory>();
        m_memory = f.get();
        m_factories.add(std::move(f));
        m_factories.add(std::make_unique<docker::DockerFactory>(docker::Flavour::Docker));
        m_factories.add(std::make_unique<local::LocalProviderFactory>());
        m_accounts = std::make_unique<AccountStore>(m_dir.path(), m_factories, m_secrets);
        m_registry = std::make_unique<SessionRegistry>(*m_accounts, m_factories);
        Account a;
        a.name = QStringLiteral("acct");
        a.provider = QStringLiteral("memory");
        QVERIFY_RESULT(test::await<void>([&](Callback<void> cb) { m_accounts->add(a, {}, cb); }));
        auto p = test::await<Provider *>([&](Callback<Provider *> cb) { m_registry->provider(a.name, cb); });
        QVERIFY_RESULT(p);
        test::MemoryProvider *mem = m_memory->made.value(a.name);
        mem->offer(Capability::Pty | Capability::Exec | Capability::Files | Capability::FileList |
                   Capability::StatsCpu | Capability::StatsMemory | Capability::Logs | Capability::PauseResume |
                   Capability::SetTimeout);
        mem->ptyHook = [](const QString &, const PtyOptions &) { return catShell(); };
        mem->statsHook = [](const QString &, Callback<StatsSample> done) {
            StatsSample s;
            s.time = QDateTime::currentDateTimeUtc();
            s.cpuPercent = 12;
            s.memoryUsedBytes = qint64(300) << 20;
            s.memoryLimitBytes = qint64(1) << 30;
            done(s);
        };
        CreateSpec spec;
        spec.name = QStringLiteral("agent-7");
        spec.image = QStringLiteral("busybox");
        QVERIFY_RESULT(test::await<SessionInfo>([&](Callback<SessionInfo> cb) { mem->create(spec, cb); }));
    }

    void mainWindowAndEachDetailPage()
    {
        QTemporaryDir dir;
        costs::CostLedger ledger(dir.path());
        costs::BudgetWatcher watcher(ledger);
        audit::AuditLog log(dir.path());
        CostMeter meter(*m_registry, test::catalogPricing(QStringLiteral("memory"), QStringLiteral("e2b")), &ledger,
                        &watcher, &log);
        metrics::StatsCollector collector(*m_registry);
        ui::MainWindow w(*m_accounts, *m_registry, m_factories);
        w.setTerminalFactory(makeTerminalFactory(TerminalSettings{}));
        w.setCosts(meter, ledger, watcher);
        w.setStats(collector);
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.refreshAll();
        auto *table = w.findChild<QTableView *>(QStringLiteral("sessionTable"));
        QVERIFY(table);
        QTRY_COMPARE(table->model()->rowCount(), 1);
        bool ok = named(&w, "main window, nothing selected");

        table->selectRow(0);
        ui::SessionDetail *detail = w.details()->currentDetail();
        QVERIFY(detail);
        for (auto page : {ui::SessionDetail::Page::Stats, ui::SessionDetail::Page::Files, ui::SessionDetail::Page::Info,
                          ui::SessionDetail::Page::Logs, ui::SessionDetail::Page::Terminals}) {
            QVERIFY2(detail->hasPage(page), qPrintable(ui::SessionDetail::pageKey(page)));
            detail->showPage(page);
            const QByteArray what = "main window, " + ui::SessionDetail::pageKey(page).toUtf8() + " page";
            ok = named(&w, what.constData()) && ok;
        }

        // A terminal on a pty, then its find bar, then the banner of a removed session.
        auto *term = qobject_cast<ui::SessionTerminal *>(detail->openTerminal());
        QVERIFY(term);
        QTRY_VERIFY_WITH_TIMEOUT(term->screen()->screenText().contains(QStringLiteral("ready")), 30000);
        ok = named(&w, "main window, a terminal open") && ok;
        auto *find = term->findChild<TerminalFindBar *>();
        QVERIFY(find);
        find->open();
        ok = named(&w, "main window, terminal find bar") && ok;
        term->setSessionRemoved();
        ok = named(&w, "main window, terminal disconnect banner") && ok;
        const QString shots = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR");
        if (!shots.isEmpty())
            QVERIFY(w.grab().save(shots + QStringLiteral("/accessibility-mainwindow.png")));

        // The last terminal closed: the empty state and Reopen.
        Q_EMIT detail->terminalTabs()->tabCloseRequested(0);
        QTRY_COMPARE(detail->terminalCount(), 0);
        ok = named(&w, "main window, terminals closed") && ok;
        QVERIFY2(ok, "unnamed widgets in the main window (listed above)");
    }

    void budgetDialog()
    {
        QTemporaryDir dir;
        costs::CostLedger ledger(dir.path());
        costs::BudgetWatcher watcher(ledger);
        audit::AuditLog log(dir.path());
        CostMeter meter(*m_registry, test::catalogPricing(QStringLiteral("memory"), QStringLiteral("e2b")), &ledger,
                        &watcher, &log);
        QWidget window;
        ui::CostStatus status(meter, ledger, watcher, &window);
        window.show();
        status.editBudget(QStringLiteral("acct"));
        QDialog *dlg = nullptr;
        QTRY_VERIFY((dlg = visibleDialog(&window)) != nullptr);
        QVERIFY(named(dlg, "budget dialog"));
        dlg->reject();
    }

    void accountDialogAddAndEdit()
    {
        ui::AccountDialog add(m_factories);
        add.setDiscovery([] {
            return QList<AccountChoice>{{QStringLiteral("docker"),
                                         {{QStringLiteral("endpoint"), QStringLiteral("unix:///tmp/sb/docker.sock")}},
                                         QStringLiteral("Docker — /tmp/sb/docker.sock")}};
        });
        add.show();
        QVERIFY(QTest::qWaitForWindowExposed(&add));
        QVERIFY(named(&add, "account dialog (add)"));

        Account existing;
        existing.name = QStringLiteral("eng");
        existing.provider = QStringLiteral("docker");
        existing.settings = {{QStringLiteral("endpoint"), QStringLiteral("unix:///tmp/sb/docker.sock")}};
        ui::AccountDialog edit(m_factories, existing);
        edit.setDiscovery({});
        QVERIFY(named(&edit, "account dialog (edit)"));
    }

    void newSessionDialog()
    {
        ui::NewSessionDialog dlg(*m_accounts, m_factories, QStringLiteral("acct"));
        QVERIFY(named(&dlg, "New session dialog"));
    }

    void firstStartPanel()
    {
        ui::FirstStartPanel panel(m_factories);
        panel.setDiscovery([] {
            return QList<AccountChoice>{{QStringLiteral("docker"),
                                         {{QStringLiteral("endpoint"), QStringLiteral("unix:///tmp/sb/docker.sock")}},
                                         QStringLiteral("Docker — /tmp/sb/docker.sock")}};
        });
        panel.show();
        QVERIFY(test::waitUntil([&] { return panel.findChild<QWidget *>(QStringLiteral("choice_docker")); }, 5000));
        QVERIFY(named(&panel, "first-start panel"));
    }

    void filesPaneConflictAndTransfers()
    {
        Provider *p = m_memory->made.value(QStringLiteral("acct"));
        ui::FilesPane pane(p, session());
        bool ok = named(&pane, "files pane");
        auto *newFolder = pane.findChild<QAbstractButton *>(QStringLiteral("filesNewFolder"));
        QVERIFY(newFolder);
        newFolder->click();
        ok = named(&pane, "files pane, new folder bar") && ok;
        QVERIFY2(ok, "unnamed widgets in the files pane (listed above)");

        ui::ConflictDialog conflict(QStringLiteral("notes.txt"), QStringLiteral("/work"), false, false);
        QVERIFY(named(&conflict, "conflict dialog"));

        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("a.txt")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("x");
        f.close();
        ui::TransferQueue queue(p, session().id);
        ui::TransferPanel panel(&queue);
        queue.enqueueUpload(f.fileName(), QStringLiteral("/work"));
        queue.enqueueDownload(QStringLiteral("/work/b.txt"), dir.path());
        QVERIFY(named(&panel, "transfer panel"));
    }

    void pagesOnTheirOwn()
    {
        Provider *p = m_memory->made.value(QStringLiteral("acct"));
        ui::LogsView logs(p, session());
        QVERIFY(named(&logs, "logs view"));
        ui::InfoView info;
        SessionInfo withRaw = session();
        withRaw.rawJson = QByteArrayLiteral("{\"Id\": \"0123456789abcdef\"}");
        info.setSession(withRaw, p->capabilities());
        info.setRawJsonExpanded(true);
        QVERIFY(named(&info, "info view, raw JSON shown"));
        ui::StatsView stats;
        QVERIFY(named(&stats, "stats view"));
        ui::ExecConsole console(p, session());
        QVERIFY(named(&console, "exec console"));
    }

    void compareAndAudit()
    {
        auto c = catalog::Catalog::shipped();
        QVERIFY_RESULT(c);
        ui::CompareView compare(std::make_shared<const catalog::Catalog>(std::move(c).value()));
        compare.resize(1200, 800);
        bool ok = named(&compare, "compare view");
        if (auto *tabs = compare.findChild<QTabWidget *>()) {
            for (int i = 0; i < tabs->count(); ++i) {
                tabs->setCurrentIndex(i);
                const QByteArray what = "compare view, tab " + tabs->tabText(i).toUtf8();
                ok = named(&compare, what.constData()) && ok;
            }
        }
        QTemporaryDir dir;
        audit::AuditLog log(dir.path());
        ui::AuditView audit(&log);
        ok = named(&audit, "audit view") && ok;
        auto *range = audit.findChild<QComboBox *>(QStringLiteral("auditRange"));
        QVERIFY(range);
        range->setCurrentIndex(range->findData(int(ui::AuditView::Range::Custom)));
        ok = named(&audit, "audit view, custom range") && ok;
        QVERIFY2(ok, "unnamed widgets (listed above)");
    }

    void preferencesAndShortcuts()
    {
        QTemporaryDir dir;
        ui::PreferencesStore store(dir.filePath(QStringLiteral("sandbar.ini")));
        ui::PreferencesDialog prefs(store);
        bool ok = named(&prefs, "preferences dialog");
        if (auto *tabs = prefs.findChild<QTabWidget *>()) {
            for (int i = 0; i < tabs->count(); ++i) {
                tabs->setCurrentIndex(i);
                const QByteArray what = "preferences dialog, tab " + tabs->tabText(i).toUtf8();
                ok = named(&prefs, what.constData()) && ok;
            }
        }
        ui::MainWindow w(*m_accounts, *m_registry, m_factories);
        ui::ShortcutsDialog shortcuts(&w);
        ok = named(&shortcuts, "shortcuts dialog") && ok;
        QVERIFY2(ok, "unnamed widgets (listed above)");
    }

    void menuActionsHaveShortcuts()
    {
        ui::MainWindow w(*m_accounts, *m_registry, m_factories);
        w.show();
        QStringList without;
        // The menu bar's menus and their submenus, however each menu is parented.
        QList<QMenu *> menus;
        for (auto *a : w.menuBar()->actions()) {
            if (a->menu())
                menus << a->menu();
        }
        for (qsizetype i = 0; i < menus.size(); ++i) {
            for (auto *a : menus.at(i)->actions()) {
                if (a->menu()) {
                    menus << a->menu();
                    continue;
                }
                if (a->isSeparator() || a->isWidgetType())
                    continue;
                const QString text = ui::ShortcutsDialog::plainText(a);
                if (a->shortcut().isEmpty() && !kNoShortcut.contains(text))
                    without << QStringLiteral("%1 (menu %2)")
                                   .arg(text, ui::ShortcutsDialog::plainText(menus.at(i)->menuAction()));
            }
        }
        without.removeDuplicates();
        QVERIFY2(without.isEmpty(), qPrintable(QStringLiteral("menu actions without a shortcut or a reason:\n  ") +
                                               without.join(QStringLiteral("\n  "))));

        const auto clashes = ui::ShortcutsDialog::conflicts(&w);
        QStringList lines;
        for (auto it = clashes.cbegin(); it != clashes.cend(); ++it)
            lines << it.key() + QStringLiteral(": ") + it.value().join(QStringLiteral(", "));
        QVERIFY2(clashes.isEmpty(), qPrintable(lines.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestAccessibility)
#include "tst_accessibility.moc"
