#include "CatalogFixture.h"
#include "FakeProvider.h"
#include "MemoryProvider.h"
#include "TestSupport.h"
#include "audit/AuditLog.h"
#include "charts/SparklineDelegate.h"
#include "charts/StatsView.h"
#include "costs/BudgetWatcher.h"
#include "costs/CostLedger.h"
#include "costs/CostMeter.h"
#include "detail/DetailStack.h"
#include "detail/InfoView.h"
#include "detail/SessionDetail.h"
#include "dialogs/DescriptorForm.h"
#include "dialogs/SessionSettingsDialog.h"
#include "main/CostStatus.h"
#include "main/MainWindow.h"
#include "metrics/StatsCollector.h"
#include "sessions/SessionsModel.h"
#include "sessions/SessionsPane.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>

using namespace sandbar;

// Selects the row of the session id in the window's table; false while it is not listed.
static bool selectSession(QTableView *table, const QString &id)
{
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        if (table->model()->index(r, ui::SessionsModel::Ref).data().toString().endsWith(id)) {
            table->selectRow(r);
            return true;
        }
    }
    return false;
}

class TestMainWindow final : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    ProviderFactories m_factories;
    test::MemoryProviderFactory *m_memory = nullptr;
    test::MemorySecretStore m_secrets;
    std::unique_ptr<AccountStore> m_accounts;
    std::unique_ptr<SessionRegistry> m_registry;

    static QString sizesText(const QSplitter *split)
    {
        return QStringLiteral("list %1, detail %2").arg(split->sizes().value(0)).arg(split->sizes().value(1));
    }

    QAction *action(ui::MainWindow &w, const QString &text)
    {
        for (auto *a : w.findChildren<QAction *>()) {
            if (a->text().remove(QLatin1Char('&')) == text)
                return a;
        }
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        auto f = std::make_unique<test::MemoryProviderFactory>();
        m_memory = f.get();
        m_factories.add(std::move(f));
        m_accounts = std::make_unique<AccountStore>(m_dir.path(), m_factories, m_secrets);
        m_registry = std::make_unique<SessionRegistry>(*m_accounts, m_factories);
        for (const auto &name : {QStringLiteral("local"), QStringLiteral("lab")}) {
            Account a;
            a.name = name;
            a.provider = QStringLiteral("memory");
            auto r = test::await<void>([&](Callback<void> cb) { m_accounts->add(a, {}, cb); });
            QVERIFY_RESULT(r);
        }
    }

    void listsSessionsAndActsOnThem()
    {
        ui::MainWindow w(*m_accounts, *m_registry, m_factories);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *accounts = w.findChild<QListWidget *>(QStringLiteral("accountList"));
        QVERIFY(accounts);
        QCOMPARE(accounts->count(), 3); // "All accounts" and the two

        // Two sessions made behind the window's back appear after a refresh.
        for (const auto &[account, name] : {std::pair{QStringLiteral("local"), QStringLiteral("agent-1")},
                                            std::pair{QStringLiteral("lab"), QStringLiteral("agent-2")}}) {
            auto p = test::await<Provider *>([&](Callback<Provider *> cb) { m_registry->provider(account, cb); });
            QVERIFY_RESULT(p);
            CreateSpec spec;
            spec.name = name;
            spec.image = QStringLiteral("busybox");
            spec.ttlSeconds = 3600;
            auto s = test::await<SessionInfo>([&](Callback<SessionInfo> cb) { p.value()->create(spec, cb); });
            QVERIFY_RESULT(s);
        }
        w.refreshAll();
        auto *table = w.findChild<QTableView *>(QStringLiteral("sessionTable"));
        QVERIFY(table);
        QTRY_COMPARE(table->model()->rowCount(), 2);

        // Filter by account.
        accounts->setCurrentRow(2);
        QTRY_COMPARE(table->model()->rowCount(), 1);
        accounts->setCurrentRow(0);
        QTRY_COMPARE(table->model()->rowCount(), 2);

        // Select a session: details show, and Stop stops it.
        table->selectRow(0);
        // Its detail opens with the Info page telling its state.
        QVERIFY(w.details()->currentDetail());
        w.details()->currentDetail()->showPage(ui::SessionDetail::Page::Info);
        QStringList infoTexts;
        for (auto *label : w.details()->currentDetail()->infoView()->findChildren<QLabel *>())
            infoTexts << label->text();
        QVERIFY2(infoTexts.join(u' ').contains(QLatin1String("running")), qPrintable(infoTexts.join(u' ')));
        QAction *stop = action(w, QStringLiteral("Stop"));
        QVERIFY(stop && stop->isEnabled());
        const QString id = table->model()->index(0, ui::SessionsModel::Ref).data().toString();
        stop->trigger();
        // One question for the selection, answered Yes.
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = [] {
            for (auto *tl : QApplication::topLevelWidgets()) {
                if (tl->objectName() == QLatin1String("bulkConfirm") && tl->isVisible())
                    return qobject_cast<QMessageBox *>(tl);
            }
            return static_cast<QMessageBox *>(nullptr);
        }()));
        box->button(QMessageBox::Yes)->click();
        QTRY_COMPARE(table->model()->index(0, ui::SessionsModel::State).data().toString(), QStringLiteral("stopped"));
        QCOMPARE(table->model()->index(0, ui::SessionsModel::Ref).data().toString(), id);

        // The terminal action stays off without a terminal feature or a PTY capability.
        QAction *terminal = action(w, QStringLiteral("Terminal"));
        QVERIFY(terminal && !terminal->isEnabled());

        const QString shots = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            w.resize(1200, 700);
            table->selectRow(1);
            QCoreApplication::processEvents(); // grab() renders now; only pending layout is left
            QVERIFY(w.grab().save(shots + QStringLiteral("/mainwindow.png")));
        }
    }

    void failingAccountShowsInStatus()
    {
        ui::MainWindow w(*m_accounts, *m_registry, m_factories);
        m_memory->made.value(QStringLiteral("lab"))->failListing = true;
        w.refreshAll();
        QTRY_COMPARE(m_registry->status(QStringLiteral("lab")).state, AccountStatus::State::Failed);
        auto *accounts = w.findChild<QListWidget *>(QStringLiteral("accountList"));
        bool marked = false;
        for (int i = 0; i < accounts->count(); ++i) {
            if (accounts->item(i)->data(Qt::UserRole).toString() == QLatin1String("lab"))
                marked = accounts->item(i)->toolTip().contains(QLatin1String("down"));
        }
        QVERIFY(marked);
        m_memory->made.value(QStringLiteral("lab"))->failListing = false;
    }

    void dialogsDoNotBlock()
    {
        // New session, then Remove with its question: each dialog is opened, not exec'd, so
        // this test drives them from the same event loop the window runs on.
        ui::MainWindow w(*m_accounts, *m_registry, m_factories);
        w.show();
        auto *accounts = w.findChild<QListWidget *>(QStringLiteral("accountList"));
        for (int i = 0; i < accounts->count(); ++i) {
            if (accounts->item(i)->data(Qt::UserRole).toString() == QLatin1String("lab"))
                accounts->setCurrentRow(i);
        }
        auto *table = w.findChild<QTableView *>(QStringLiteral("sessionTable"));
        // Counted once every account's listing asked for here has come back.
        const QDateTime asked = QDateTime::currentDateTimeUtc();
        w.refreshAll();
        QTRY_VERIFY_WITH_TIMEOUT(m_registry->status(QStringLiteral("lab")).lastRefresh >= asked &&
                                     m_registry->status(QStringLiteral("local")).lastRefresh >= asked,
                                 10000);
        const int before = table->model()->rowCount();
        action(w, QStringLiteral("New session…"))->trigger();
        QDialog *dlg = nullptr;
        QTRY_VERIFY((dlg = w.findChild<QDialog *>()) != nullptr && dlg->isVisible());
        // Create: the dialog makes the session itself and closes once it exists; the window
        // selects it.
        dlg->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QTRY_COMPARE(table->model()->rowCount(), before + 1);
        QTRY_VERIFY(!w.sessionsPane()->selectedSessions().isEmpty());
        action(w, QStringLiteral("Remove"))->trigger();
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = qobject_cast<QMessageBox *>([] {
                         for (auto *tl : QApplication::topLevelWidgets()) {
                             if (tl->objectName() == QLatin1String("bulkConfirm") && tl->isVisible())
                                 return tl;
                         }
                         return static_cast<QWidget *>(nullptr);
                     }())) != nullptr);
        box->button(QMessageBox::Yes)->click();
        QTRY_COMPARE(table->model()->rowCount(), before);
    }

    // Fork…: shown only where the provider forks; its name dialog is opened, not exec'd, and the
    // copy appears in the list with the status saying so.
    void forkFromTheWindow()
    {
        test::MemoryProvider *mem = m_memory->made.value(QStringLiteral("lab"));
        QVERIFY(mem);
        CreateSpec spec;
        spec.name = QStringLiteral("fork-me");
        const auto made = test::await<SessionInfo>([&](Callback<SessionInfo> cb) { mem->create(spec, cb); });
        QVERIFY_RESULT(made);
        ui::MainWindow w(*m_accounts, *m_registry, m_factories);
        w.show();
        auto *table = w.findChild<QTableView *>(QStringLiteral("sessionTable"));
        const auto selectForkMe = [&] {
            for (int r = 0; r < table->model()->rowCount(); ++r) {
                if (table->model()->index(r, ui::SessionsModel::Ref).data().toString().endsWith(made->id)) {
                    table->selectRow(r);
                    return true;
                }
            }
            return false;
        };
        mem->offer(Capabilities(Capability::PauseResume));
        w.refreshAll();
        QTRY_VERIFY(selectForkMe());
        QAction *fork = w.findChild<QAction *>(QStringLiteral("forkAction"));
        QVERIFY(fork);
        QVERIFY(!fork->isVisible());
        mem->offer(Capabilities(Capability::PauseResume | Capability::Fork));
        table->clearSelection();
        QVERIFY(selectForkMe());
        QTRY_VERIFY(fork->isVisible() && fork->isEnabled());
        const int before = table->model()->rowCount();
        fork->trigger();
        QInputDialog *ask = nullptr;
        QTRY_VERIFY((ask = w.findChild<QInputDialog *>(QStringLiteral("forkDialog"))) != nullptr && ask->isVisible());
        // Where the copy's files come from is said before it is named.
        QVERIFY2(ask->labelText().startsWith(QLatin1String("Copies the files as they are now.")),
                 qPrintable(ask->labelText()));
        ask->setTextValue(QStringLiteral("fork-me-copy"));
        ask->accept();
        QTRY_COMPARE(table->model()->rowCount(), before + 1);
        bool listed = false;
        for (int r = 0; r < table->model()->rowCount(); ++r)
            listed = listed || table->model()
                                   ->index(r, ui::SessionsModel::Ref)
                                   .data()
                                   .toString()
                                   .endsWith(QLatin1String("fork-me-copy"));
        QVERIFY(listed);
        mem->offer(m_memory->descriptor().capabilities);
    }

    // Session settings… is there only where the provider changes settings; its dialog shows the
    // session's current values, and OK changes what differs and closes.
    void settingsFromTheWindow()
    {
        test::MemoryProvider *mem = m_memory->made.value(QStringLiteral("lab"));
        QVERIFY(mem);
        CreateSpec spec;
        spec.name = QStringLiteral("settle-me");
        const auto made = test::await<SessionInfo>([&](Callback<SessionInfo> cb) { mem->create(spec, cb); });
        QVERIFY_RESULT(made);
        ui::MainWindow w(*m_accounts, *m_registry, m_factories);
        w.show();
        auto *table = w.findChild<QTableView *>(QStringLiteral("sessionTable"));
        const auto selectIt = [&] { return selectSession(table, made->id); };
        w.refreshAll();
        QTRY_VERIFY(selectIt());
        QAction *settings = w.findChild<QAction *>(QStringLiteral("sessionSettingsAction"));
        QVERIFY(settings);
        QVERIFY(!settings->isVisible());
        mem->offer(m_memory->descriptor().capabilities | Capability::Settings);
        table->clearSelection();
        QVERIFY(selectIt());
        QTRY_VERIFY(settings->isVisible() && settings->isEnabled());
        settings->trigger();
        ui::SessionSettingsDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = w.findChild<ui::SessionSettingsDialog *>()) != nullptr && dialog->isVisible());
        QVERIFY(!dialog->isModal() || dialog->windowModality() == Qt::WindowModal); // open(), not exec()
        auto *pinned = qobject_cast<QCheckBox *>(dialog->form()->editor(QStringLiteral("pinned")));
        QVERIFY(pinned && !pinned->isChecked());
        pinned->setChecked(true);
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QTRY_VERIFY(!w.findChild<ui::SessionSettingsDialog *>());
        const auto now = test::await<SessionInfo>([&](Callback<SessionInfo> cb) { mem->info(made->id, cb); });
        QVERIFY_RESULT(now);
        QVERIFY(now->settings.value(QStringLiteral("pinned")).toBool());
        mem->offer(m_memory->descriptor().capabilities);
    }

    // Labels… shows the person's labels (not Sandbar's) and sets what the dialog ends with.
    void labelsFromTheWindow()
    {
        test::MemoryProvider *mem = m_memory->made.value(QStringLiteral("lab"));
        QVERIFY(mem);
        CreateSpec spec;
        spec.name = QStringLiteral("label-me");
        const auto made = test::await<SessionInfo>([&](Callback<SessionInfo> cb) { mem->create(spec, cb); });
        QVERIFY_RESULT(made);
        QVERIFY_RESULT(test::await<SessionInfo>([&](Callback<SessionInfo> cb) {
            mem->setLabels(made->id, {{QStringLiteral("team"), QStringLiteral("red")}}, cb);
        }));
        ui::MainWindow w(*m_accounts, *m_registry, m_factories);
        w.show();
        auto *table = w.findChild<QTableView *>(QStringLiteral("sessionTable"));
        const auto selectIt = [&] { return selectSession(table, made->id); };
        w.refreshAll();
        QTRY_VERIFY(selectIt());
        QAction *action = w.findChild<QAction *>(QStringLiteral("sessionLabelsAction"));
        QVERIFY(action);
        QVERIFY(!action->isVisible());
        mem->offer(m_memory->descriptor().capabilities | Capability::Labels);
        table->clearSelection();
        QVERIFY(selectIt());
        QTRY_VERIFY(action->isVisible() && action->isEnabled());
        action->trigger();
        QInputDialog *ask = nullptr;
        QTRY_VERIFY((ask = w.findChild<QInputDialog *>(QStringLiteral("sessionLabelsDialog"))) != nullptr &&
                    ask->isVisible());
        QCOMPARE(ask->textValue(), QStringLiteral("team=red")); // not Sandbar's dev.sandbar.* labels
        ask->setTextValue(QStringLiteral("team=blue\n\nstage\n"));
        ask->accept();
        const QMap<QString, QString> wanted{{QStringLiteral("team"), QStringLiteral("blue")},
                                            {QStringLiteral("stage"), QString()}};
        QTRY_VERIFY([&] {
            const auto now = test::await<SessionInfo>([&](Callback<SessionInfo> cb) { mem->info(made->id, cb); });
            return now.ok() && labels::personsOnly(now->labels) == wanted && now->owned;
        }());
        mem->offer(m_memory->descriptor().capabilities);
    }

    void liveCostAndBudgets()
    {
        // Sessions of the "lab" account priced at E2B's rates: the Cost column, the hourly
        // total in the status bar, the budget dialog and the alerts.
        QTemporaryDir dir;
        costs::CostLedger ledger(dir.path());
        costs::BudgetWatcher watcher(ledger);
        audit::AuditLog log(dir.path());
        CostMeter meter(*m_registry, test::catalogPricing(QStringLiteral("memory"), QStringLiteral("e2b")), &ledger,
                        &watcher, &log);
        ui::MainWindow w(*m_accounts, *m_registry, m_factories);
        w.setCosts(meter, ledger, watcher);
        SessionInfo s;
        s.id = QStringLiteral("priced1");
        s.provider = QStringLiteral("memory");
        s.name = QStringLiteral("agent-run");
        s.image = QStringLiteral("python:3.12");
        s.state = SessionState::Running;
        s.created = QDateTime::currentDateTimeUtc().addSecs(-3600);
        s.cpus = 2;
        s.memoryBytes = qint64(4) << 30;
        m_memory->made.value(QStringLiteral("lab"))->inject(s);
        w.show();
        w.refreshAll();
        auto *table = w.findChild<QTableView *>(QStringLiteral("sessionTable"));
        const auto rowOf = [table] {
            for (int r = 0; r < table->model()->rowCount(); ++r) {
                if (table->model()->index(r, ui::SessionsModel::Ref).data().toString() == QLatin1String("lab/priced1"))
                    return r;
            }
            return -1;
        };
        QTRY_VERIFY(rowOf() >= 0); // listed after the refresh, which answers later
        meter.tick();
        const int row = rowOf();
        QVERIFY(row >= 0);
        const QString cost = table->model()->index(row, ui::SessionsModel::Cost).data().toString();
        QVERIFY2(cost.startsWith(QLatin1String("$0.166")) && cost.endsWith(QLatin1String("/h")), qPrintable(cost));
        auto *status = w.findChild<QLabel *>(QStringLiteral("costStatus"));
        QVERIFY(status && status->text().contains(QLatin1String("$0.17/h")));

        // The budget dialog stores a budget; crossing 80 % and 100 % tells the user.
        auto *accounts = w.findChild<QListWidget *>(QStringLiteral("accountList"));
        for (int i = 0; i < accounts->count(); ++i) {
            if (accounts->item(i)->data(Qt::UserRole).toString() == QLatin1String("lab"))
                accounts->setCurrentRow(i);
        }
        auto *budgetAction = w.findChild<QAction *>(QStringLiteral("budgetAction"));
        QVERIFY(budgetAction && budgetAction->isVisible() && budgetAction->isEnabled());
        budgetAction->trigger();
        QDialog *dlg = nullptr;
        QTRY_VERIFY((dlg = w.findChild<QDialog *>()) != nullptr && dlg->isVisible());
        dlg->findChild<QDoubleSpinBox *>(QStringLiteral("budgetAmount"))->setValue(0.15);
        dlg->findChild<QCheckBox *>(QStringLiteral("budgetStop"))->setChecked(false);
        QSignalSpy alerts(w.costStatus(), &ui::CostStatus::notified);
        dlg->accept();
        auto stored = ledger.budget(QStringLiteral("lab"));
        QVERIFY(stored.ok() && stored->has_value() && qAbs((*stored)->monthlyUsd - 0.15) < 1e-9);
        QTRY_COMPARE(alerts.size(), 2);
        QVERIFY(alerts.at(0).at(0).toString().contains(QLatin1String("80")));
        QVERIFY(alerts.at(1).at(0).toString().contains(QLatin1String("100")));
        QVERIFY(status->text().contains(QLatin1String("Budget")));
        const QString shots = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            w.resize(1280, 700);
            table->selectRow(row);
            QCoreApplication::processEvents(); // grab() renders now; only pending layout is left
            QVERIFY(w.grab().save(shots + QStringLiteral("/mainwindow-costs.png")));
        }
        (void)test::await<void>([&](Callback<void> cb) {
            m_memory->made.value(QStringLiteral("lab"))->remove(QStringLiteral("priced1"), cb);
        });
    }

    // The window samples the rows it shows (sparklines in the CPU and Memory columns), and
    // nothing while hidden; Statistics opens a Stats tab for the selected session.
    // A session's detail: terminals renamed, closed and reopened with their name, moved into a
    // window of their own and docked back by closing it; the whole detail detached and docked;
    // a removed session's terminal keeps its tab until closed; the selection and the open page
    // come back in a new window from the state file.
    void detailTerminalsDetachAndState()
    {
        test::MemoryProvider *mem = m_memory->made.value(QStringLiteral("local"));
        QVERIFY(mem);
        mem->offer(Capabilities(Capability::Exec));
        CreateSpec spec;
        spec.name = QStringLiteral("detail-1");
        const auto made = test::await<SessionInfo>([&](Callback<SessionInfo> cb) { mem->create(spec, cb); });
        QVERIFY_RESULT(made);
        QTemporaryDir stateDir;
        const QString stateFile = stateDir.filePath(QStringLiteral("sandbar.ini"));
        {
            ui::MainWindow w(*m_accounts, *m_registry, m_factories);
            int terminalsMade = 0;
            w.setTerminalFactory([&terminalsMade](Provider *, const SessionInfo &, const QString &, QWidget *parent) {
                ++terminalsMade;
                auto *t = new QLabel(QStringLiteral("shell"), parent);
                t->setWindowTitle(QStringLiteral("sh"));
                return t;
            });
            w.setStateFile(stateFile);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.refreshAll();
            w.sessionsPane()->selectRef(made->ref());
            QTRY_VERIFY(w.details()->currentDetail() && w.details()->currentDetail()->ref() == made->ref());
            ui::SessionDetail *d = w.details()->currentDetail();

            action(w, QStringLiteral("Terminal"))->trigger();
            QCOMPARE(d->terminalTabs()->count(), 1);
            QCOMPARE(d->terminalTabs()->tabText(0), QStringLiteral("sh")); // follows the program's title
            d->renameTerminal(0, QStringLiteral("builds"));
            QCOMPARE(d->terminalTabs()->tabText(0), QStringLiteral("builds"));
            QMetaObject::invokeMethod(d->terminalTabs(), "tabCloseRequested", Q_ARG(int, 0));
            QCOMPARE(d->terminalTabs()->count(), 0);
            QCOMPARE(d->closedTerminalCount(), 1);
            d->reopenClosedTerminal();
            QCOMPARE(d->terminalTabs()->count(), 1);
            QCOMPARE(d->terminalTabs()->tabText(0), QStringLiteral("builds")); // its name came back
            QCOMPARE(terminalsMade, 2);

            QWidget *floating = d->moveTerminalToWindow(0);
            QVERIFY(floating && floating->isWindow() && floating->isVisible());
            QCOMPARE(d->terminalTabs()->count(), 0);
            QCOMPARE(d->terminalCount(), 1);
            floating->close(); // docks it back
            QTRY_COMPARE(d->terminalTabs()->count(), 1);
            QCOMPARE(d->terminalTabs()->tabText(0), QStringLiteral("builds"));

            // The detail in a window of its own, then back.
            d->findChild<QToolButton *>(QStringLiteral("detachButton"))->click();
            QVERIFY(w.details()->isDetached(made->ref()));
            QVERIFY(d->window() != &w && d->isVisible());
            d->window()->close();
            QTRY_VERIFY(!w.details()->isDetached(made->ref()));
            QCOMPARE(w.details()->currentDetail(), d);
            QCOMPARE(d->terminalTabs()->count(), 1);

            d->showPage(ui::SessionDetail::Page::Info);
            w.saveWindowState();
        }
        {
            // A new window: the same session selected and its Info page open.
            ui::MainWindow w(*m_accounts, *m_registry, m_factories);
            w.setStateFile(stateFile);
            w.show();
            w.refreshAll();
            QTRY_VERIFY(w.details()->currentDetail() && w.details()->currentDetail()->ref() == made->ref());
            QCOMPARE(w.details()->currentDetail()->currentPage(), ui::SessionDetail::Page::Info);

            // Removed behind the window's back: a terminal's tab stays until it is closed.
            w.setTerminalFactory([](Provider *, const SessionInfo &, const QString &, QWidget *parent) {
                return new QLabel(QStringLiteral("shell"), parent);
            });
            ui::SessionDetail *d = w.details()->currentDetail();
            QVERIFY(d->openTerminal());
            QVERIFY_RESULT(test::await<void>([&](Callback<void> cb) { mem->remove(made->id, cb); }));
            w.refreshAll();
            QTRY_VERIFY(d->isRemoved());
            QCOMPARE(d->terminalTabs()->count(), 1);
            QPointer<ui::SessionDetail> guard(d);
            QMetaObject::invokeMethod(d->terminalTabs(), "tabCloseRequested", Q_ARG(int, 0));
            QTRY_VERIFY(guard.isNull()); // nothing left to show: the detail goes
        }
        mem->offer(mem->descriptor().capabilities);
    }

    void statisticsInTheWindow()
    {
        auto p =
            test::await<Provider *>([&](Callback<Provider *> cb) { m_registry->provider(QStringLiteral("lab"), cb); });
        QVERIFY_RESULT(p);
        auto *mem = m_memory->made.value(QStringLiteral("lab"));
        int calls = 0;        // of the charted session
        int witnessCalls = 0; // of another one, whose Stats tab stays open
        QString witnessId;
        double cpu = 10;
        mem->offer(Capabilities(Capability::StatsCpu | Capability::StatsMemory));
        mem->statsHook = [&calls, &witnessCalls, &witnessId, &cpu](const QString &id, Callback<StatsSample> done) {
            ++(id == witnessId ? witnessCalls : calls);
            StatsSample s;
            s.time = QDateTime::currentDateTimeUtc();
            s.cpuPercent = cpu;
            cpu = cpu > 90 ? 10 : cpu + 17;
            s.memoryUsedBytes = qint64(300 + calls) << 20;
            s.memoryLimitBytes = qint64(1) << 30;
            done(s);
        };
        CreateSpec spec;
        spec.name = QStringLiteral("charted");
        auto made = test::await<SessionInfo>([&](Callback<SessionInfo> cb) { (*p)->create(spec, cb); });
        QVERIFY_RESULT(made);
        CreateSpec witnessSpec;
        witnessSpec.name = QStringLiteral("witness");
        auto witness = test::await<SessionInfo>([&](Callback<SessionInfo> cb) { (*p)->create(witnessSpec, cb); });
        QVERIFY_RESULT(witness);
        witnessId = witness->id;

        metrics::CollectorOptions o;
        o.listPeriodMs = 100;
        o.detailPeriodMs = 50;
        metrics::StatsCollector collector(*m_registry, o);
        ui::MainWindow w(*m_accounts, *m_registry, m_factories);
        w.setStats(collector);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.refreshAll();
        auto *table = w.findChild<QTableView *>(QStringLiteral("sessionTable"));
        QVERIFY(qobject_cast<ui::SparklineDelegate *>(table->itemDelegateForColumn(ui::SessionsModel::Cpu)));
        QVERIFY(qobject_cast<ui::SparklineDelegate *>(table->itemDelegateForColumn(ui::SessionsModel::Memory)));
        QTRY_VERIFY_WITH_TIMEOUT(
            collector.find(made->ref()) && collector.find(made->ref())->history().sampleCount() >= 3, 10000);

        // Hidden: nothing is of interest any more, so nothing is sampled. The witness keeps
        // the collector's clock going: its samples are due every 50 ms and timers fire in the
        // order they fall due, so after it has been sampled a few times, the window's interest
        // (debounced 150 ms) has been updated, and a few more then span two list periods
        // (100 ms) in which a session still of interest would have been sampled.
        collector.addDetailInterest(witness->ref());
        w.hide();
        const auto witnessSampled = [&](int times) {
            const int target = witnessCalls + times;
            return test::waitUntil([&] { return witnessCalls >= target; }, 10000);
        };
        QVERIFY(witnessSampled(6));
        const int hiddenCalls = calls;
        QVERIFY(witnessSampled(6));
        QCOMPARE(calls, hiddenCalls);
        collector.removeDetailInterest(witness->ref());
        QVERIFY_RESULT(test::await<void>([&](Callback<void> cb) { (*p)->remove(witness->id, cb); }));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY_WITH_TIMEOUT(calls > hiddenCalls + 2, 10000);

        int row = -1;
        QTRY_VERIFY((row = [&] {
                        for (int r = 0; r < table->model()->rowCount(); ++r) {
                            if (table->model()->index(r, ui::SessionsModel::Ref).data().toString() == made->ref())
                                return r;
                        }
                        return -1;
                    }()) >= 0);
        table->selectRow(row);
        auto *statsAction = w.findChild<QAction *>(QStringLiteral("statsAction"));
        QVERIFY(statsAction && statsAction->isVisible() && statsAction->isEnabled());
        statsAction->trigger();
        QVERIFY(w.details()->currentDetail());
        QCOMPARE(w.details()->currentDetail()->ref(), made->ref());
        auto *view = w.details()->currentDetail()->statsView();
        QVERIFY(view);
        QTRY_VERIFY_WITH_TIMEOUT(view->isVisible() && view->seriesUpdateCount() > 0, 10000);
        statsAction->trigger(); // the same tab again, not a second one
        QCOMPARE(w.findChildren<ui::StatsView *>().size(), 1);

        const QString shots = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            w.resize(1400, 900);
            const int updates = view->seriesUpdateCount();
            QTRY_VERIFY_WITH_TIMEOUT(view->seriesUpdateCount() >= updates + 2, 10000); // a couple of chart refreshes
            QVERIFY(w.grab().save(shots + QStringLiteral("/mainwindow-stats.png")));
        }
        (void)test::await<void>([&](Callback<void> cb) { mem->remove(made->id, cb); });
        mem->statsHook = nullptr;
        mem->offer(mem->descriptor().capabilities);
    }

    // The first window as a new user meets it, nothing saved and nothing dragged: at the
    // default 1280x800 the columns fit the list's width (no horizontal scroll bar, empty or
    // not); with nothing selected the list has most of the height, and a selected session's
    // detail gets the room while the list keeps a few rows. What the person sizes is kept:
    // a dragged handle across selections and restarts, a dragged column across resizes.
    void firstWindowLayout()
    {
        QTemporaryDir state;
        const QString ini = state.filePath(QStringLiteral("sandbar.ini"));
        auto p =
            test::await<Provider *>([&](Callback<Provider *> cb) { m_registry->provider(QStringLiteral("lab"), cb); });
        QVERIFY_RESULT(p);
        for (const QString &name : {QStringLiteral("layout-1"), QStringLiteral("layout-2")}) {
            CreateSpec spec;
            spec.name = name;
            spec.image = QStringLiteral("busybox");
            QVERIFY_RESULT(test::await<SessionInfo>([&](Callback<SessionInfo> cb) { p.value()->create(spec, cb); }));
        }
        auto w = std::make_unique<ui::MainWindow>(*m_accounts, *m_registry, m_factories);
        w->setStateFile(ini);
        QCOMPARE(w->size(), QSize(1280, 800));
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->refreshAll();
        auto *table = w->findChild<QTableView *>(QStringLiteral("sessionTable"));
        auto *split = w->findChild<QSplitter *>(QStringLiteral("sessionSplitter"));
        auto *pane = w->findChild<ui::SessionsPane *>();
        QVERIFY(table && split && pane);
        QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() >= 2, 10000);
        QTRY_COMPARE(table->horizontalScrollBar()->maximum(), 0);
        QTRY_VERIFY2(split->sizes().at(0) > split->sizes().at(1), qPrintable(sizesText(split)));

        table->selectRow(0);
        QTRY_VERIFY2(split->sizes().at(0) <= pane->heightForRows(5) && split->sizes().at(1) > 2 * split->sizes().at(0),
                     qPrintable(sizesText(split)));
        pane->searchField()->setText(QStringLiteral("no-such-session"));
        QTRY_COMPARE(table->model()->rowCount(), 0);
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        pane->searchField()->clear();

        // A column dragged on the header stays as wide when the window narrows.
        QHeaderView *header = table->horizontalHeader();
        QMouseEvent press(QEvent::MouseButtonPress, QPointF(1, 1), QPointF(1, 1), Qt::LeftButton, Qt::LeftButton,
                          Qt::NoModifier);
        QCoreApplication::sendEvent(header->viewport(), &press);
        header->resizeSection(ui::SessionsModel::Name, 333);
        QMouseEvent release(QEvent::MouseButtonRelease, QPointF(1, 1), QPointF(1, 1), Qt::LeftButton, Qt::NoButton,
                            Qt::NoModifier);
        QCoreApplication::sendEvent(header->viewport(), &release);
        QVERIFY(pane->columnsChosen());
        w->resize(1100, 800);
        QTRY_COMPARE(w->size(), QSize(1100, 800));
        QCOMPARE(header->sectionSize(ui::SessionsModel::Name), 333);

        // A handle the person drags (the splitter says so) is theirs from then on.
        const int room = split->sizes().at(0) + split->sizes().at(1);
        split->setSizes({room / 2, room - room / 2});
        Q_EMIT split->splitterMoved(room / 2, 1);
        table->clearSelection();
        table->selectRow(1);
        QCOMPARE(split->sizes().at(0), room / 2);
        w->close();
        w.reset();

        auto again = std::make_unique<ui::MainWindow>(*m_accounts, *m_registry, m_factories);
        again->setStateFile(ini);
        again->show();
        QVERIFY(QTest::qWaitForWindowExposed(again.get()));
        auto *split2 = again->findChild<QSplitter *>(QStringLiteral("sessionSplitter"));
        QTRY_COMPARE(split2->sizes().at(0), room / 2);
        QVERIFY(again->findChild<ui::SessionsPane *>()->columnsChosen());
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
