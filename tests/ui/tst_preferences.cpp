#include "AccessibleWalk.h"
#include "RegistryFixture.h"
#include "TestSupport.h"
#include "main/TrayIcon.h"
#include "prefs/Preferences.h"
#include "prefs/PreferencesDialog.h"
#include "prefs/ShortcutsDialog.h"
#include "prefs/Theme.h"
#include "terminal/TerminalScreen.h"
#include "terminal/TerminalView.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest>

using namespace sandbar;
using namespace sandbar::ui;

class TestPreferences : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString ini(const QString &name) const { return m_dir.filePath(name + QStringLiteral(".ini")); }

private Q_SLOTS:
    void defaults()
    {
        const Preferences p;
        QCOMPARE(p.theme, ThemeMode::System);
        QCOMPARE(p.defaultTtlSeconds, qint64(3600));
        QCOMPARE(p.closeToTray, false);
        QCOMPARE(p.notifications, true);
        QCOMPARE(p.statsListPeriodMs, 2000);
        QCOMPARE(p.statsDetailPeriodMs, 1000);
        const QSettings empty(ini(QStringLiteral("empty")), QSettings::IniFormat);
        QCOMPARE(Preferences::load(empty), p);
    }

    void roundTrip()
    {
        Preferences p;
        p.theme = ThemeMode::Dark;
        p.terminalFontFamily = QStringLiteral("DejaVu Sans Mono");
        p.terminalFontSize = 13;
        p.scrollbackLines = 50000;
        p.copyOnSelect = true;
        p.statsListPeriodMs = 5000;
        p.statsDetailPeriodMs = 500;
        p.defaultTtlSeconds = 7200;
        p.closeToTray = true;
        p.notifications = false;
        p.mcpHttp = true;
        p.mcpHttpPort = 50123;
        {
            QSettings s(ini(QStringLiteral("round")), QSettings::IniFormat);
            p.save(s);
        }
        const QSettings s(ini(QStringLiteral("round")), QSettings::IniFormat);
        QCOMPARE(Preferences::load(s), p);
        // The keys the composition root reads today stay the same.
        QCOMPARE(s.value(QStringLiteral("terminal/copyOnSelect")).toString(), QStringLiteral("true"));
        QCOMPARE(s.value(QStringLiteral("stats/listPeriodMs")).toInt(), 5000);
        QCOMPARE(s.value(QStringLiteral("stats/detailPeriodMs")).toInt(), 500);
    }

    void corruptValuesFallBack()
    {
        {
            QFile f(ini(QStringLiteral("corrupt")));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("[appearance]\ntheme=purple\n"
                    "[terminal]\nfontSize=abc\nscrollbackLines=-5\ncopyOnSelect=maybe\nfontFamily=\n"
                    "[stats]\nlistPeriodMs=10\ndetailPeriodMs=99999999999999999999\n"
                    "[sessions]\ndefaultTtlSeconds=1e9\n"
                    "[tray]\ncloseToTray=perhaps\nnotifications=@Variant(garbage)\n"
                    "[mcp]\nhttpEnabled=sure\nhttpPort=80\n");
        }
        const QSettings s(ini(QStringLiteral("corrupt")), QSettings::IniFormat);
        QCOMPARE(Preferences::load(s), Preferences());

        {
            QFile f(ini(QStringLiteral("partly")));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("[appearance]\ntheme= LIGHT \n[stats]\nlistPeriodMs=  3000 \ndetailPeriodMs=-1\n"
                    "[sessions]\ndefaultTtlSeconds=0\n[tray]\ncloseToTray=1\n");
        }
        const QSettings partly(ini(QStringLiteral("partly")), QSettings::IniFormat);
        const Preferences p = Preferences::load(partly);
        QCOMPARE(p.theme, ThemeMode::Light);
        QCOMPARE(p.statsListPeriodMs, 3000);
        QCOMPARE(p.statsDetailPeriodMs, Preferences().statsDetailPeriodMs);
        QCOMPARE(p.defaultTtlSeconds, qint64(0));
        QCOMPARE(p.closeToTray, true);
    }

    void storeEmitsOnlyOnChange()
    {
        PreferencesStore store(ini(QStringLiteral("store")));
        QSignalSpy spy(&store, &PreferencesStore::changed);
        Preferences p = store.preferences();
        QCOMPARE(store.set(p), QSettings::NoError);
        QCOMPARE(spy.count(), 0);
        p.closeToTray = true;
        QCOMPARE(store.set(p), QSettings::NoError);
        QCOMPARE(spy.count(), 1);
        PreferencesStore again(ini(QStringLiteral("store")));
        QCOMPARE(again.preferences().closeToTray, true);
    }

    void terminalSettings()
    {
        Preferences p;
        p.copyOnSelect = true;
        TerminalSettings base;
        base.confirmMultiLinePaste = false;
        const TerminalSettings t = terminalSettingsFrom(p, base);
        QVERIFY(t.copyOnSelect);
        QVERIFY(!t.confirmMultiLinePaste);
        QCOMPARE(t.scheme, TerminalSettings::Scheme::FollowPalette);
        base.scheme = TerminalSettings::Scheme::Light; // set by hand in [terminal]
        QCOMPARE(terminalSettingsFrom(p, base).scheme, TerminalSettings::Scheme::Light);
    }

    void terminalViewPreferences()
    {
        TerminalScreen screen(80, 24);
        TerminalView view(&screen);
        Preferences p;
        p.scrollbackLines = 2500;
        p.terminalFontSize = 17;
        p.copyOnSelect = true;
        applyTerminalPreferences(&view, p);
        QCOMPARE(screen.scrollbackLimit(), 2500);
        QCOMPARE(view.terminalFont().pointSize(), 17);
        QVERIFY(view.copyOnSelect());
        // Defaults: the system's fixed font at its own size.
        applyTerminalPreferences(&view, Preferences());
        QCOMPARE(view.terminalFont().pointSize(), QFontDatabase::systemFont(QFontDatabase::FixedFont).pointSize());
    }

    void closeToTray()
    {
        Preferences p;
        QVERIFY(!shouldHideOnClose(p, true));
        p.closeToTray = true;
        QVERIFY(shouldHideOnClose(p, true));
        QVERIFY(!shouldHideOnClose(p, false));
    }

    void closeToTrayFilterHidesInsteadOfClosing()
    {
        QWidget window;
        bool hide = true;
        auto *filter = new CloseToTrayFilter(&window, [&hide]() { return hide; });
        QSignalSpy spy(filter, &CloseToTrayFilter::hiddenToTray);
        window.show();
        QVERIFY(!window.close());
        QVERIFY(window.isHidden());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.takeFirst().at(0).toBool(), true); // the first time: say where it went
        window.show();
        QVERIFY(!window.close());
        QCOMPARE(spy.takeFirst().at(0).toBool(), false);
        // A quit closes for real.
        window.show();
        filter->setQuitting(true);
        QVERIFY(window.close());
        filter->setQuitting(false);
        // And so does closing with close-to-tray off.
        hide = false;
        window.show();
        QVERIFY(window.close());
        QCOMPARE(spy.count(), 0);
    }

    void trayWithoutSystemTray()
    {
        // The offscreen platform has no tray: the object exists, builds nothing, and
        // notifications go to the fallback.
        test::RegistryFixture f;
        QWidget window;
        TrayIcon tray(*f.registry, nullptr, &window);
        QCOMPARE(tray.isAvailable(), TrayIcon::isSystemTrayAvailable());
        QCOMPARE(tray.statusText(), QStringLiteral("0 running"));
        QStringList fallback;
        const Notifier::Sink sink = tray.notificationSink([&fallback](const QString &t) { fallback << t; });
        Notification n;
        n.title = QStringLiteral("Session failed");
        n.message = QStringLiteral("lab/x: boom");
        sink(n);
        if (!tray.isAvailable())
            QCOMPARE(fallback, QStringList{QStringLiteral("Session failed: lab/x: boom")});
    }

    void dialogEditsAndApplies()
    {
        PreferencesStore store(ini(QStringLiteral("dialog")));
        QSignalSpy spy(&store, &PreferencesStore::changed);
        PreferencesDialog dialog(store);
        dialog.show();
        auto *apply = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Apply);
        QVERIFY(!apply->isEnabled());

        auto *theme = dialog.findChild<QComboBox *>(QStringLiteral("theme"));
        theme->setCurrentIndex(theme->findData(int(ThemeMode::Dark)));
        auto *ttl = dialog.findChild<QComboBox *>(QStringLiteral("defaultTtl"));
        ttl->setCurrentIndex(ttl->findData(qint64(4 * 3600)));
        dialog.findChild<QSpinBox *>(QStringLiteral("listPeriod"))->setValue(4000);
        dialog.findChild<QSpinBox *>(QStringLiteral("scrollback"))->setValue(20000);
        dialog.findChild<QCheckBox *>(QStringLiteral("copyOnSelect"))->setChecked(true);
        dialog.findChild<QCheckBox *>(QStringLiteral("closeToTray"))->setChecked(true);
        dialog.findChild<QCheckBox *>(QStringLiteral("notifications"))->setChecked(false);
        QVERIFY(apply->isEnabled());
        QCOMPARE(spy.count(), 0); // nothing saved before Apply

        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(spy.count(), 1);
        QVERIFY(!apply->isEnabled());
        const Preferences p = store.preferences();
        QCOMPARE(p.theme, ThemeMode::Dark);
        QCOMPARE(p.defaultTtlSeconds, qint64(4 * 3600));
        QCOMPARE(p.statsListPeriodMs, 4000);
        QCOMPARE(p.scrollbackLines, 20000);
        QVERIFY(p.copyOnSelect);
        QVERIFY(p.closeToTray);
        QVERIFY(!p.notifications);
        QVERIFY(p.terminalFontFamily.isEmpty()); // untouched: still follows the system
        QCOMPARE(p.terminalFontSize, 0);
        const QSettings onDisk(store.iniPath(), QSettings::IniFormat);
        QCOMPARE(Preferences::load(onDisk), p);

        // Cancel drops edits.
        dialog.findChild<QCheckBox *>(QStringLiteral("notifications"))->setChecked(true);
        dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel)->click();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(!store.preferences().notifications);

        // OK applies and closes.
        PreferencesDialog second(store);
        second.open();
        second.findChild<QSpinBox *>(QStringLiteral("detailPeriod"))->setValue(750);
        second.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QCOMPARE(second.result(), int(QDialog::Accepted));
        QCOMPARE(store.preferences().statsDetailPeriodMs, 750);
    }

    // The Agents page: the HTTP endpoint is a preference; its token is shown only when asked,
    // copied on request, and replaced through the dialog's signal (the wiring owns the token).
    void agentsPage()
    {
        PreferencesStore store(ini(QStringLiteral("agents")));
        PreferencesDialog dialog(store);
        dialog.show();
        auto *http = dialog.findChild<QCheckBox *>(QStringLiteral("mcpHttp"));
        auto *port = dialog.findChild<QSpinBox *>(QStringLiteral("mcpPort"));
        auto *token = dialog.findChild<QLineEdit *>(QStringLiteral("mcpToken"));
        QVERIFY(http && port && token);
        QVERIFY(!http->isChecked());
        QVERIFY(!port->isEnabled());
        http->setChecked(true);
        QVERIFY(port->isEnabled());
        port->setValue(51000);
        QVERIFY(dialog.apply());
        QVERIFY(store.preferences().mcpHttp);
        QCOMPARE(store.preferences().mcpHttpPort, 51000);

        const QString secret = QStringLiteral("sbtest-secret-prefs-token");
        dialog.setMcpEndpoint(QStringLiteral("http://127.0.0.1:51000/mcp"), secret, QString());
        QCOMPARE(dialog.findChild<QLabel *>(QStringLiteral("mcpUrl"))->text(),
                 QStringLiteral("http://127.0.0.1:51000/mcp"));
        QCOMPARE(token->echoMode(), QLineEdit::Password);
        QVERIFY(!token->displayText().contains(secret));
        dialog.findChild<QPushButton *>(QStringLiteral("mcpShowToken"))->click();
        QCOMPARE(token->echoMode(), QLineEdit::Normal);
        QCOMPARE(token->displayText(), secret);
        dialog.findChild<QPushButton *>(QStringLiteral("mcpCopyToken"))->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), secret);
        QGuiApplication::clipboard()->clear();

        QSignalSpy renew(&dialog, &PreferencesDialog::newMcpTokenRequested);
        dialog.findChild<QPushButton *>(QStringLiteral("mcpNewToken"))->click();
        QCOMPARE(renew.count(), 1);

        dialog.setMcpEndpoint(QString(), secret, QStringLiteral("port 51000 is in use"));
        auto *problem = dialog.findChild<QLabel *>(QStringLiteral("mcpProblem"));
        QVERIFY(!problem->isHidden());
        QVERIFY(problem->text().contains(QLatin1String("port 51000 is in use")));
    }

    void dialogKeepsAHandSetTtl()
    {
        PreferencesStore store(ini(QStringLiteral("ttl")));
        Preferences p = store.preferences();
        p.defaultTtlSeconds = 90;
        (void)store.set(p);
        PreferencesDialog dialog(store);
        QCOMPARE(dialog.edited().defaultTtlSeconds, qint64(90));
        auto *ttl = dialog.findChild<QComboBox *>(QStringLiteral("defaultTtl"));
        QCOMPARE(ttl->currentText(), QStringLiteral("90 second(s)"));
        QVERIFY(!dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Apply)->isEnabled());
    }

    void unsavableFileIsSaid()
    {
        // A folder where the file should be: QSettings cannot write it.
        const QString path = m_dir.filePath(QStringLiteral("blocked.ini"));
        QVERIFY(QDir().mkpath(path));
        PreferencesStore store(path);
        PreferencesDialog dialog(store);
        dialog.show();
        dialog.findChild<QCheckBox *>(QStringLiteral("closeToTray"))->setChecked(true);
        dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QVERIFY(dialog.isVisible()); // not closed: the edits are still there
        QVERIFY(!dialog.findChild<QLabel *>(QStringLiteral("saveError"))->isHidden());
        QVERIFY(store.preferences().closeToTray); // in effect for this run all the same
    }

    void noTrayDisablesCloseToTray()
    {
        PreferencesStore store(ini(QStringLiteral("notray")));
        PreferencesDialog dialog(store);
        dialog.setTrayAvailable(false);
        dialog.show();
        QVERIFY(!dialog.findChild<QCheckBox *>(QStringLiteral("closeToTray"))->isEnabled());
        QVERIFY(!dialog.findChild<QWidget *>(QStringLiteral("trayNote"))->isHidden());
    }

    void dialogIsFullyNamed()
    {
        PreferencesStore store(ini(QStringLiteral("a11y")));
        PreferencesDialog dialog(store);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const QStringList missing = test::widgetsWithoutAccessibleName(&dialog);
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1Char('\n'))));
    }

    void walkFindsUnnamedWidgets()
    {
        // The helper itself: a bare line edit and an icon-only button are reported; a
        // hidden one and a labelled one are not.
        QWidget root;
        root.setObjectName(QStringLiteral("root"));
        auto *bare = new QLineEdit(&root);
        bare->setObjectName(QStringLiteral("bare"));
        auto *hidden = new QLineEdit(&root);
        hidden->hide();
        auto *named = new QPushButton(QStringLiteral("&Go"), &root);
        Q_UNUSED(named);
        auto *icon = new QPushButton(&root);
        icon->setObjectName(QStringLiteral("iconOnly"));
        root.show();
        const QStringList missing = test::widgetsWithoutAccessibleName(&root);
        QCOMPARE(missing.size(), 2);
        QVERIFY(missing.join(QLatin1Char('\n')).contains(QStringLiteral("QLineEdit bare QWidget(root)")));
        QVERIFY(missing.join(QLatin1Char('\n')).contains(QStringLiteral("QPushButton iconOnly")));
    }

    void shortcutsDialog()
    {
        QMainWindow window;
        auto *menu = window.menuBar()->addMenu(QStringLiteral("&Session"));
        auto *newSession = menu->addAction(QStringLiteral("&New Session…"));
        newSession->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_N));
        auto *stop = menu->addAction(QStringLiteral("&Stop"));
        stop->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
        auto *plain = menu->addAction(QStringLiteral("No Key"));
        Q_UNUSED(plain);
        auto *toolbar = window.addToolBar(QStringLiteral("Main"));
        toolbar->addAction(stop); // the same action twice in the tree: listed once
        auto *refresh = new QAction(QStringLiteral("Save && &Refresh"), &window);
        refresh->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
        window.addAction(refresh);

        ShortcutsDialog dialog(&window);
        const QStringList rows = dialog.visibleRows();
        QCOMPARE(rows.size(), 3);
        const QString n = QKeySequence(Qt::CTRL | Qt::Key_N).toString(QKeySequence::NativeText);
        QVERIFY2(rows.contains(QStringLiteral("New Session\t") + n), qPrintable(rows.join(QLatin1Char('|'))));
        QVERIFY(rows.contains(QStringLiteral("Save & Refresh\tF5, ") +
                              QKeySequence(Qt::CTRL | Qt::Key_R).toString(QKeySequence::NativeText)));

        dialog.setFilter(QStringLiteral("stop"));
        QCOMPARE(dialog.visibleRows().size(), 1);
        dialog.setFilter(QStringLiteral("F5"));
        QCOMPARE(dialog.visibleRows().size(), 1);
        dialog.setFilter(QStringLiteral("nothing like it"));
        QCOMPARE(dialog.visibleRows().size(), 0);
        dialog.setFilter({});
        QCOMPARE(dialog.visibleRows().size(), 3);

        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const QStringList missing = test::widgetsWithoutAccessibleName(&dialog);
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1Char('\n'))));
        QVERIFY(ShortcutsDialog::conflicts(&window).isEmpty());
    }

    void shortcutConflicts()
    {
        QMainWindow window;
        auto *left = new QWidget;
        auto *right = new QWidget;
        auto *central = new QWidget;
        left->setParent(central);
        right->setParent(central);
        window.setCentralWidget(central);
        const auto add = [](QWidget *on, const QString &text, const QKeySequence &key, Qt::ShortcutContext ctx) {
            auto *a = new QAction(text, on);
            a->setShortcut(key);
            a->setShortcutContext(ctx);
            on->addAction(a);
            return a;
        };
        add(&window, QStringLiteral("&Refresh"), QKeySequence(Qt::Key_F5), Qt::WindowShortcut);
        add(left, QStringLiteral("Refresh Files"), QKeySequence(Qt::Key_F5), Qt::WidgetWithChildrenShortcut);
        add(left, QStringLiteral("Delete File"), QKeySequence(Qt::Key_Delete), Qt::WidgetWithChildrenShortcut);
        add(right, QStringLiteral("Remove Session"), QKeySequence(Qt::Key_Delete), Qt::WidgetWithChildrenShortcut);
        const auto found = ShortcutsDialog::conflicts(&window);
        QCOMPARE(found.size(), 1);
        const QString f5 = QKeySequence(Qt::Key_F5).toString(QKeySequence::NativeText);
        QCOMPARE(found.value(f5), (QStringList{QStringLiteral("Refresh"), QStringLiteral("Refresh Files")}));
    }

    void screenshots()
    {
        // For people reviewing the look: the dialog under both themes.
        PreferencesStore store(ini(QStringLiteral("shots")));
        for (const ColorScheme scheme : {ColorScheme::Dark, ColorScheme::Light}) {
            Theme::apply(*qApp, scheme);
            PreferencesDialog dialog(store);
            dialog.tabs()->setCurrentIndex(1);
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            QCOMPARE(colorSchemeOf(dialog.palette()), scheme);
            const QString dir = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR");
            if (dir.isEmpty())
                continue;
            const QString name = colorSchemeName(scheme);
            QVERIFY(dialog.grab().save(QDir(dir).filePath(QStringLiteral("prefs-%1.png").arg(name))));
            for (int i = 0; i < dialog.tabs()->count(); ++i) {
                dialog.tabs()->setCurrentIndex(i);
                QVERIFY(dialog.grab().save(QDir(dir).filePath(QStringLiteral("prefs-%1-tab%2.png").arg(name).arg(i))));
            }
        }
    }
};

QTEST_MAIN(TestPreferences)
#include "tst_preferences.moc"
