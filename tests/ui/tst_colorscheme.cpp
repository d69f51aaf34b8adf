#include "TestSupport.h"
#include "prefs/ColorSchemeWatcher.h"
#include "prefs/Preferences.h"
#include "prefs/Theme.h"

#include <QApplication>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusContext>
#include <QDBusMessage>
#include <QDBusVariant>
#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyle>
#include <QTemporaryDir>
#include <QtTest>

using namespace sandbar;
using namespace sandbar::ui;

namespace {

const QString kService = QStringLiteral("org.freedesktop.portal.Desktop");
const QString kPath = QStringLiteral("/org/freedesktop/portal/desktop");
const QString kInterface = QStringLiteral("org.freedesktop.portal.Settings");

} // namespace

// A stand-in for xdg-desktop-portal's Settings interface, on the test's own bus.
class FakePortalSettings : public QObject, protected QDBusContext
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.portal.Settings")
public:
    uint value = 1;
    bool hasReadOne = true; // version 1 portals have Read only
    int readCalls = 0;
    int readOneCalls = 0;

public Q_SLOTS:
    QDBusVariant ReadOne(const QString &ns, const QString &key)
    {
        ++readOneCalls;
        if (!hasReadOne) {
            sendErrorReply(QDBusError::UnknownMethod, QStringLiteral("No such method ReadOne"));
            return {};
        }
        if (!known(ns, key))
            return {};
        return QDBusVariant(QVariant(value));
    }
    // Read answers a variant holding a variant: the quirk the watcher must unwrap.
    QDBusVariant Read(const QString &ns, const QString &key)
    {
        ++readCalls;
        if (!known(ns, key))
            return {};
        return QDBusVariant(QVariant::fromValue(QDBusVariant(QVariant(value))));
    }

private:
    bool known(const QString &ns, const QString &key)
    {
        if (ns == QLatin1String("org.freedesktop.appearance") && key == QLatin1String("color-scheme"))
            return true;
        sendErrorReply(QStringLiteral("org.freedesktop.portal.Error.NotFound"),
                       QStringLiteral("Requested setting not found"));
        return false;
    }
};

class TestColorScheme : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QProcess m_daemon;
    QString m_address;
    int m_connections = 0;

    QDBusConnection busConnection(const QString &what)
    {
        return QDBusConnection::connectToBus(m_address, QStringLiteral("%1-%2").arg(what).arg(++m_connections));
    }

    struct Portal {
        QDBusConnection bus;
        FakePortalSettings settings;
        explicit Portal(QDBusConnection b)
            : bus(std::move(b))
        {
        }
        bool registerOnBus()
        {
            return bus.registerObject(kPath, &settings, QDBusConnection::ExportAllSlots) &&
                   bus.registerService(kService);
        }
        ~Portal()
        {
            bus.unregisterService(kService);
            bus.unregisterObject(kPath);
            QDBusConnection::disconnectFromBus(bus.name());
        }
        void emitChange(const QString &ns, const QString &key, uint v)
        {
            QDBusMessage signal = QDBusMessage::createSignal(kPath, kInterface, QStringLiteral("SettingChanged"));
            signal << ns << key << QVariant::fromValue(QDBusVariant(QVariant(v)));
            QVERIFY(bus.send(signal));
        }
    };

private Q_SLOTS:
    void initTestCase()
    {
        // Our own bus, with no service directories: nothing on it is ever auto-started and
        // the user's desktop session is never touched.
        const QString daemon = QStandardPaths::findExecutable(QStringLiteral("dbus-daemon"));
        SANDBAR_REQUIRE(!daemon.isEmpty(), QStringLiteral("dbus-daemon is not installed"));
        QVERIFY(m_dir.isValid());
        const QString config = m_dir.filePath(QStringLiteral("bus.conf"));
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\""
                               " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                               "<busconfig><type>session</type><listen>unix:dir=%1</listen><auth>EXTERNAL</auth>"
                               "<policy context=\"default\"><allow send_destination=\"*\" eavesdrop=\"true\"/>"
                               "<allow eavesdrop=\"true\"/><allow own=\"*\"/></policy></busconfig>\n")
                    .arg(m_dir.path())
                    .toUtf8());
        f.close();
        m_daemon.start(daemon, {QStringLiteral("--config-file=") + config, QStringLiteral("--nofork"),
                                QStringLiteral("--print-address=1"), QStringLiteral("--nopidfile")});
        QVERIFY2(m_daemon.waitForStarted(5000), qPrintable(m_daemon.errorString()));
        QVERIFY(test::waitUntil([this]() { return m_daemon.canReadLine(); }, 10000));
        m_address = QString::fromUtf8(m_daemon.readLine()).trimmed();
        QVERIFY(m_address.startsWith(QLatin1String("unix:")));
    }

    void cleanupTestCase()
    {
        if (m_daemon.state() != QProcess::NotRunning) {
            m_daemon.terminate();
            if (!m_daemon.waitForFinished(3000))
                m_daemon.kill();
        }
    }

    void readOneDarkThenLightOnSettingChanged()
    {
        Portal portal(busConnection(QStringLiteral("portal")));
        QVERIFY(portal.bus.isConnected());
        portal.settings.value = 1;
        QVERIFY(portal.registerOnBus());

        ColorSchemeWatcher watcher(busConnection(QStringLiteral("client")));
        QSignalSpy spy(&watcher, &ColorSchemeWatcher::schemeChanged);
        watcher.start();
        QVERIFY(spy.wait(5000));
        QCOMPARE(spy.takeFirst().at(0).value<ColorScheme>(), ColorScheme::Dark);
        QCOMPARE(watcher.source(), ColorSchemeWatcher::Source::Portal);
        QCOMPARE(watcher.portalValue(), 1);
        QCOMPARE(portal.settings.readOneCalls, 1);
        QCOMPARE(portal.settings.readCalls, 0);

        // Another key changing says nothing about the scheme.
        portal.emitChange(QStringLiteral("org.freedesktop.appearance"), QStringLiteral("accent-color"), 2);
        portal.emitChange(QStringLiteral("org.gnome.desktop.interface"), QStringLiteral("color-scheme"), 2);
        portal.emitChange(QStringLiteral("org.freedesktop.appearance"), QStringLiteral("color-scheme"), 2);
        QVERIFY(spy.wait(5000));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.takeFirst().at(0).value<ColorScheme>(), ColorScheme::Light);
        QCOMPARE(watcher.scheme(), ColorScheme::Light);
        QCOMPARE(watcher.portalValue(), 2);

        portal.emitChange(QStringLiteral("org.freedesktop.appearance"), QStringLiteral("color-scheme"), 1);
        QVERIFY(spy.wait(5000));
        QCOMPARE(spy.takeFirst().at(0).value<ColorScheme>(), ColorScheme::Dark);
    }

    void olderPortalAnswersThroughRead()
    {
        Portal portal(busConnection(QStringLiteral("portal")));
        portal.settings.value = 2;
        portal.settings.hasReadOne = false;
        QVERIFY(portal.registerOnBus());

        ColorSchemeWatcher watcher(busConnection(QStringLiteral("client")));
        watcher.setFallbackPalette(Theme::palette(ColorScheme::Dark));
        QSignalSpy spy(&watcher, &ColorSchemeWatcher::schemeChanged);
        watcher.start();
        QVERIFY(spy.wait(5000));
        QCOMPARE(spy.takeFirst().at(0).value<ColorScheme>(), ColorScheme::Light);
        QCOMPARE(portal.settings.readOneCalls, 1);
        QCOMPARE(portal.settings.readCalls, 1);
        QCOMPARE(watcher.portalValue(), 2);
    }

    void noPreferenceFollowsThePalette()
    {
        Portal portal(busConnection(QStringLiteral("portal")));
        portal.settings.value = 0;
        QVERIFY(portal.registerOnBus());
        for (const ColorScheme fallback : {ColorScheme::Dark, ColorScheme::Light}) {
            ColorSchemeWatcher watcher(busConnection(QStringLiteral("client")));
            watcher.setFallbackPalette(Theme::palette(fallback));
            QSignalSpy spy(&watcher, &ColorSchemeWatcher::schemeChanged);
            watcher.start();
            QVERIFY(spy.wait(5000));
            QCOMPARE(spy.takeFirst().at(0).value<ColorScheme>(), fallback);
            QCOMPARE(watcher.portalValue(), 0);
        }
    }

    void noPortalFallsBackQuietlyAndFollowsOneThatAppears()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
        ColorSchemeWatcher watcher(busConnection(QStringLiteral("client")));
        watcher.setFallbackPalette(Theme::palette(ColorScheme::Light));
        QSignalSpy spy(&watcher, &ColorSchemeWatcher::schemeChanged);
        QElapsedTimer t;
        t.start();
        watcher.start();
        QVERIFY2(t.elapsed() < 500, "start() must not wait for the portal");
        QVERIFY(spy.wait(5000));
        QVERIFY2(t.elapsed() < 3000, "no portal is an immediate error from the bus, not a timeout");
        QCOMPARE(spy.takeFirst().at(0).value<ColorScheme>(), ColorScheme::Light);
        QCOMPARE(watcher.source(), ColorSchemeWatcher::Source::Fallback);
        QVERIFY(watcher.isKnown());

        // The desktop's portal starts later (a session still coming up).
        Portal portal(busConnection(QStringLiteral("portal")));
        portal.settings.value = 1;
        QVERIFY(portal.registerOnBus());
        QVERIFY(spy.wait(5000));
        QCOMPARE(spy.takeFirst().at(0).value<ColorScheme>(), ColorScheme::Dark);
        QCOMPARE(watcher.source(), ColorSchemeWatcher::Source::Portal);
    }

    void disconnectedBusFallsBack()
    {
        ColorSchemeWatcher watcher(QDBusConnection::connectToBus(
            QStringLiteral("unix:path=/nonexistent/sandbar-no-bus"), QStringLiteral("nobus")));
        watcher.setFallbackPalette(Theme::palette(ColorScheme::Dark));
        QSignalSpy spy(&watcher, &ColorSchemeWatcher::schemeChanged);
        watcher.start();
        QCOMPARE(spy.count(), 1);
        QCOMPARE(watcher.scheme(), ColorScheme::Dark);
    }

    void followThemeAppliesDesktopAndPreference()
    {
        Portal portal(busConnection(QStringLiteral("portal")));
        portal.settings.value = 1;
        QVERIFY(portal.registerOnBus());
        PreferencesStore store(m_dir.filePath(QStringLiteral("follow.ini")));
        Theme::apply(*qApp, ColorScheme::Light);
        ColorSchemeWatcher watcher(busConnection(QStringLiteral("client")));
        followTheme(*qApp, store, watcher);
        const auto appScheme = []() { return colorSchemeOf(QApplication::palette()); };
        QVERIFY(test::waitUntil([&]() { return appScheme() == ColorScheme::Dark; }, 5000));

        portal.emitChange(QStringLiteral("org.freedesktop.appearance"), QStringLiteral("color-scheme"), 2);
        QVERIFY(test::waitUntil([&]() { return appScheme() == ColorScheme::Light; }, 5000));

        // A forced preference wins over the desktop, and System gives it back.
        Preferences p = store.preferences();
        p.theme = ThemeMode::Dark;
        (void)store.set(p);
        QCOMPARE(appScheme(), ColorScheme::Dark);
        // The desktop goes dark and light again: the forced scheme stays.
        QSignalSpy spy(&watcher, &ColorSchemeWatcher::schemeChanged);
        for (const uint value : {1u, 2u}) {
            portal.emitChange(QStringLiteral("org.freedesktop.appearance"), QStringLiteral("color-scheme"), value);
            QVERIFY(spy.wait(5000));
        }
        QCOMPARE(watcher.scheme(), ColorScheme::Light);
        QCOMPARE(appScheme(), ColorScheme::Dark);
        p.theme = ThemeMode::System;
        (void)store.set(p);
        QCOMPARE(appScheme(), ColorScheme::Light);
    }

    void portalValues()
    {
        QCOMPARE(ColorSchemeWatcher::fromPortalValue(1), std::optional(ColorScheme::Dark));
        QCOMPARE(ColorSchemeWatcher::fromPortalValue(2), std::optional(ColorScheme::Light));
        QVERIFY(!ColorSchemeWatcher::fromPortalValue(0));
        QVERIFY(!ColorSchemeWatcher::fromPortalValue(7));
    }

    void themeApplyDark()
    {
        Theme::apply(*qApp, ColorScheme::Dark);
        QCOMPARE(qApp->style()->name().toLower(), QStringLiteral("fusion"));
        const QPalette p = QApplication::palette();
        QVERIFY(p.color(QPalette::Window).lightness() < 80);
        QVERIFY(p.color(QPalette::WindowText).lightness() > 180);
        QVERIFY(p.color(QPalette::Base).lightness() < 80);
        QVERIFY(p.color(QPalette::Text).lightness() > 180);
        QVERIFY(p.color(QPalette::ToolTipText).lightness() > p.color(QPalette::ToolTipBase).lightness());
        // Disabled text is visibly quieter than enabled text, yet still readable.
        const int enabled = p.color(QPalette::Active, QPalette::Text).lightness();
        const int disabled = p.color(QPalette::Disabled, QPalette::Text).lightness();
        const int base = p.color(QPalette::Disabled, QPalette::Base).lightness();
        QVERIFY(disabled < enabled && disabled > base + 40);
        QVERIFY(p.color(QPalette::Link).lightness() > 128);
        QVERIFY(p.color(QPalette::PlaceholderText) != p.color(QPalette::Text));
        QCOMPARE(colorSchemeOf(p), ColorScheme::Dark);
        QCOMPARE(Theme::terminalColors(ColorScheme::Dark).background.lightness() < 80, true);

        Theme::apply(*qApp, ColorScheme::Light);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 200);
        QCOMPARE(colorSchemeOf(QApplication::palette()), ColorScheme::Light);
        QVERIFY(Theme::terminalColors(ColorScheme::Light).background.lightness() > 200);
    }

    void forcedModeOverridesTheSystem()
    {
        QCOMPARE(Theme::resolve(ThemeMode::Light, ColorScheme::Dark), ColorScheme::Light);
        QCOMPARE(Theme::resolve(ThemeMode::Dark, ColorScheme::Light), ColorScheme::Dark);
        QCOMPARE(Theme::resolve(ThemeMode::System, ColorScheme::Dark), ColorScheme::Dark);
        Theme::applyMode(*qApp, ThemeMode::Dark, ColorScheme::Light);
        QCOMPARE(colorSchemeOf(QApplication::palette()), ColorScheme::Dark);
        Theme::applyMode(*qApp, ThemeMode::Light, ColorScheme::Dark);
        QCOMPARE(colorSchemeOf(QApplication::palette()), ColorScheme::Light);
        Theme::applyMode(*qApp, ThemeMode::System, ColorScheme::Dark);
        QCOMPARE(colorSchemeOf(QApplication::palette()), ColorScheme::Dark);
    }
};

QTEST_MAIN(TestColorScheme)
#include "tst_colorscheme.moc"
