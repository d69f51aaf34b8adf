// The Secret Service locked, then gone, in the middle of a run: adding and reading a
// secret fail with a clear error, nothing hangs, and the secret never lands in a file
// (QtKeychain can fall back to plain text; Sandbar must not let it). The test runs a
// session bus and gnome-keyring of its own (not test.sh's), with no service activation,
// so that a killed keyring stays gone.
#include "FakeProvider.h"
#include "TestSupport.h"
#include "accounts/AccountStore.h"

#include <QCoreApplication>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

using namespace sandbar;
using namespace sandbar::test;

namespace {

// Called before QCoreApplication: a plain-text fallback would write under $HOME.
QString &testHome()
{
    static QString home;
    return home;
}

} // namespace

class TestFaultsKeychain : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QProcess m_bus;
    QProcess m_keyring;
    QString m_address;
    ProviderFactories m_factories;
    QStringList m_secrets; // every secret this test used, to look for in files

    bool secretsServiceOwned()
    {
        QProcess p;
        p.start(QStringLiteral("dbus-send"),
                {QStringLiteral("--bus=") + m_address, QStringLiteral("--print-reply"),
                 QStringLiteral("--dest=org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
                 QStringLiteral("org.freedesktop.DBus.NameHasOwner"),
                 QStringLiteral("string:org.freedesktop.secrets")});
        return p.waitForFinished(5000) && p.readAllStandardOutput().contains("boolean true");
    }

    void startKeyring()
    {
        const QString k = m_dir.filePath(QStringLiteral("keyring"));
        QDir().mkpath(k + QStringLiteral("/home"));
        QDir().mkpath(k + QStringLiteral("/run"));
        QFile::setPermissions(k + QStringLiteral("/run"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), m_address);
        env.insert(QStringLiteral("HOME"), k + QStringLiteral("/home"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), k + QStringLiteral("/home/.local/share"));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), k + QStringLiteral("/run"));
        m_keyring.setProcessEnvironment(env);
        m_keyring.start(
            QStringLiteral("gnome-keyring-daemon"),
            {QStringLiteral("--foreground"), QStringLiteral("--unlock"), QStringLiteral("--components=secrets")});
        QVERIFY(m_keyring.waitForStarted(10000));
        m_keyring.write("sandbar-faults");
        m_keyring.closeWriteChannel();
        QVERIFY2(waitUntil([&] { return secretsServiceOwned(); }, 20000), "gnome-keyring did not come up");
    }

    Account account(const QString &name) const
    {
        Account a;
        a.name = name;
        a.provider = QStringLiteral("fake");
        a.settings.insert(QStringLiteral("region"), QStringLiteral("eu"));
        return a;
    }

    VoidResult addWithSecret(AccountStore &store, const QString &name, int timeoutMs = 60000)
    {
        const QString secret = QStringLiteral("sbtest-secret-fault-") + QUuid::createUuid().toString(QUuid::Id128);
        m_secrets << secret;
        return await<void>(
            [&](Callback<void> cb) {
                store.add(account(name), {{QStringLiteral("token"), secret}}, cb);
            },
            timeoutMs);
    }

    // No file under the config folder or $HOME holds any secret this test used.
    void verifyNoSecretInFiles(const QString &configDir)
    {
        for (const QString &root : {configDir, testHome()}) {
            QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                if (path.startsWith(m_dir.filePath(QStringLiteral("keyring"))))
                    continue; // the keyring's own encrypted store
                QFile f(path);
                if (!f.open(QIODevice::ReadOnly))
                    continue;
                const QByteArray content = f.readAll();
                for (const QString &s : std::as_const(m_secrets)) {
                    QVERIFY2(!content.contains(s.toUtf8()) && !content.contains(s.toUtf8().toBase64()),
                             qPrintable(QStringLiteral("%1 holds a secret").arg(path)));
                }
            }
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_factories.add(std::make_unique<DescriptorOnlyFactory>());
        for (const char *tool : {"dbus-daemon", "dbus-send", "gnome-keyring-daemon"})
            SANDBAR_REQUIRE(!QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty(),
                            QStringLiteral("%1 is not installed").arg(QLatin1String(tool)));
        QVERIFY(m_dir.isValid());
        // A bus with no service files: nothing restarts the keyring once it is killed.
        const QString conf = m_dir.filePath(QStringLiteral("bus.conf"));
        QFile f(conf);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\" "
                "\"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n<busconfig><type>session</type>"
                "<listen>unix:path=" +
                QFile::encodeName(m_dir.filePath(QStringLiteral("bus"))) +
                "</listen><auth>EXTERNAL</auth><policy context=\"default\"><allow send_destination=\"*\" "
                "eavesdrop=\"true\"/><allow eavesdrop=\"true\"/><allow own=\"*\"/></policy></busconfig>\n");
        f.close();
        m_bus.start(QStringLiteral("dbus-daemon"), {QStringLiteral("--config-file=") + conf, QStringLiteral("--nofork"),
                                                    QStringLiteral("--print-address=1")});
        QVERIFY(m_bus.waitForStarted(10000));
        QVERIFY2(waitUntil([&] { return m_bus.canReadLine(); }, 20000), "dbus-daemon printed no address");
        m_address = QString::fromUtf8(m_bus.readLine().trimmed());
        // Before QtKeychain's first call, which connects to the session bus once.
        qputenv("DBUS_SESSION_BUS_ADDRESS", m_address.toUtf8());
        startKeyring();
    }

    void cleanupTestCase()
    {
        for (QProcess *p : {&m_keyring, &m_bus}) {
            if (p->state() != QProcess::NotRunning) {
                p->terminate();
                if (!p->waitForFinished(5000)) {
                    p->kill();
                    p->waitForFinished(5000);
                }
            }
        }
    }

    void lockedKeychain()
    {
        const QString cfg = m_dir.filePath(QStringLiteral("locked"));
        KeychainSecretStore keychain(QStringLiteral("Sandbar-faults"));
        AccountStore store(cfg, m_factories, keychain);
        // Control: with the keyring unlocked a secret goes in and comes back.
        QVERIFY_RESULT(addWithSecret(store, QStringLiteral("before")));
        auto config = await<AccountConfig>([&](auto cb) { store.loadConfig(QStringLiteral("before"), cb); });
        QVERIFY_RESULT(config);
        QCOMPARE(config->secrets.value(QStringLiteral("token")), m_secrets.last());

        QProcess lock;
        lock.start(QStringLiteral("dbus-send"),
                   {QStringLiteral("--bus=") + m_address, QStringLiteral("--print-reply"),
                    QStringLiteral("--dest=org.freedesktop.secrets"), QStringLiteral("/org/freedesktop/secrets"),
                    QStringLiteral("org.freedesktop.Secret.Service.Lock"),
                    QStringLiteral("array:objpath:/org/freedesktop/secrets/collection/login")});
        QVERIFY(lock.waitForFinished(10000));
        QVERIFY2(lock.exitCode() == 0, lock.readAllStandardError().constData());

        // No prompter can answer here: the unlock fails, and says so, within the deadline.
        QElapsedTimer t;
        t.start();
        const VoidResult added = addWithSecret(store, QStringLiteral("while-locked"));
        QVERIFY2(!added.ok(), "a secret was stored in a locked keychain");
        QVERIFY2(added.code() != ErrorCode::Timeout, "adding a secret to a locked keychain hung");
        QVERIFY2(added.message().contains(QLatin1String("eychain")), qPrintable(added.message()));
        QVERIFY(!store.find(QStringLiteral("while-locked")));
        auto read = await<AccountConfig>([&](auto cb) { store.loadConfig(QStringLiteral("before"), cb); });
        QVERIFY2(read.code() != ErrorCode::Timeout, "reading from a locked keychain hung");
        if (read.ok()) // gnome-keyring may serve a secret already fetched; never a wrong one
            QCOMPARE(read->secrets.value(QStringLiteral("token")), m_secrets.first());
        qInfo("locked: add failed in %lld ms: %s", t.elapsed(), qPrintable(added.message()));
        verifyNoSecretInFiles(cfg);
    }

    void keychainGoneMidRun()
    {
        // The store of the test before, whose account has its secret in the keyring; then
        // the keyring is killed while the store is in use, and stays dead (a restarted one
        // is keychainRestartedMidRun). Reconnecting to a service that is gone must still
        // end in Unavailable, not in a retry loop or a fallback.
        const QString cfg = m_dir.filePath(QStringLiteral("locked"));
        KeychainSecretStore keychain(QStringLiteral("Sandbar-faults"));
        AccountStore store(cfg, m_factories, keychain);
        QVERIFY(store.find(QStringLiteral("before")));

        m_keyring.kill(); // SIGKILL: no goodbye on the bus beyond the name vanishing
        QVERIFY(m_keyring.waitForFinished(5000));
        QVERIFY(waitUntil([&] { return !secretsServiceOwned(); }, 10000));

        const VoidResult added = addWithSecret(store, QStringLiteral("after"));
        QVERIFY2(!added.ok(), "a secret was stored with no Secret Service running");
        QVERIFY2(added.code() != ErrorCode::Timeout, "adding a secret hung");
        QVERIFY2(added.message().contains(QLatin1String("eychain")), qPrintable(added.message()));
        QCOMPARE(added.code(), ErrorCode::Unavailable);
        QVERIFY(!store.find(QStringLiteral("after")));
        auto read = await<AccountConfig>([&](auto cb) { store.loadConfig(QStringLiteral("before"), cb); });
        QVERIFY(!read.ok());
        QVERIFY2(read.code() != ErrorCode::Timeout, "reading a secret hung");
        QCOMPARE(read.code(), ErrorCode::Unavailable);
        QVERIFY2(read.message().contains(QLatin1String("eychain")), qPrintable(read.message()));
        // The account that was stored before stays listed: only its secret is out of reach.
        QVERIFY(store.find(QStringLiteral("before")));
        qInfo("gone: add: %s / read: %s", qPrintable(added.message()), qPrintable(read.message()));
        verifyNoSecretInFiles(cfg);
    }

    // gnome-keyring restarted (a crash, a session restart) while Sandbar runs: libsecret's
    // cached session belongs to the dead daemon, so the keychain must reconnect by itself
    // instead of failing with "The session wrapping the secret does not exist" until
    // Sandbar restarts.
    void keychainRestartedMidRun()
    {
        if (m_keyring.state() == QProcess::NotRunning)
            startKeyring(); // the test before left it dead, with libsecret holding a stale session
        const QString cfg = m_dir.filePath(QStringLiteral("restarted"));
        KeychainSecretStore keychain(QStringLiteral("Sandbar-faults"));
        AccountStore store(cfg, m_factories, keychain);
        QVERIFY_RESULT(addWithSecret(store, QStringLiteral("first")));
        const QString first = m_secrets.last();

        for (int round = 0; round < 2; ++round) {
            m_keyring.kill();
            QVERIFY(m_keyring.waitForFinished(5000));
            QVERIFY(waitUntil([&] { return !secretsServiceOwned(); }, 10000));
            startKeyring(); // the same keyring files, unlocked with the same password

            QElapsedTimer t;
            t.start();
            auto read = await<AccountConfig>([&](auto cb) { store.loadConfig(QStringLiteral("first"), cb); });
            QVERIFY_RESULT(read);
            QCOMPARE(read->secrets.value(QStringLiteral("token")), first);
            const QString name = QStringLiteral("second-%1").arg(round);
            QVERIFY_RESULT(addWithSecret(store, name));
            auto second = await<AccountConfig>([&](auto cb) { store.loadConfig(name, cb); });
            QVERIFY_RESULT(second);
            QCOMPARE(second->secrets.value(QStringLiteral("token")), m_secrets.last());
            qInfo("restart %d: read and store worked again in %lld ms", round + 1, t.elapsed());
        }
        verifyNoSecretInFiles(cfg);
    }
};

int main(int argc, char **argv)
{
    // A home of this test's own, so that a plain-text fallback would be found.
    static QTemporaryDir home;
    testHome() = home.path();
    qputenv("HOME", home.path().toUtf8());
    qputenv("XDG_CONFIG_HOME", (home.path() + QStringLiteral("/.config")).toUtf8());
    qputenv("XDG_DATA_HOME", (home.path() + QStringLiteral("/.local/share")).toUtf8());
    QCoreApplication app(argc, argv);
    TestFaultsKeychain t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_faults_keychain.moc"
