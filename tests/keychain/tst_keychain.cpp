#include "FakeProvider.h"
#include "TestSupport.h"
#include "accounts/AccountStore.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QUuid>

using namespace sandbar;

class TestKeychain final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        m_factories.add(std::make_unique<test::DescriptorOnlyFactory>());
        m_expectMissing = qEnvironmentVariableIsSet("SANDBAR_EXPECT_NO_KEYCHAIN");
        if (!m_expectMissing)
            SANDBAR_REQUIRE(qEnvironmentVariableIsSet("SANDBAR_TEST_KEYRING"),
                            QStringLiteral("no private gnome-keyring: run through ./test.sh"));
    }

    void secretRoundTripsAndNeverLandsInFiles()
    {
        if (m_expectMissing)
            QSKIP("this run has no Secret Service on purpose; see refusedWithoutKeychain");
        QTemporaryDir dir;
        KeychainSecretStore keychain(QStringLiteral("Sandbar-test"));
        AccountStore store(dir.path(), m_factories, keychain);
        // sbtest-secret-: the marker secret_watch (test.sh) searches for in every file Sandbar writes.
        const QString secret = QStringLiteral("sbtest-secret-keychain-") + QUuid::createUuid().toString(QUuid::Id128);
        Account a;
        a.name = QStringLiteral("cloud");
        a.provider = QStringLiteral("fake");
        a.settings.insert(QStringLiteral("region"), QStringLiteral("eu"));
        auto added = test::await<void>([&](Callback<void> cb) {
            store.add(a, {{QStringLiteral("token"), secret}}, cb);
        });
        QVERIFY_RESULT(added);

        // A second store over the same directory reads it back from the keychain.
        AccountStore again(dir.path(), m_factories, keychain);
        auto config = test::await<AccountConfig>([&](Callback<AccountConfig> cb) { again.loadConfig(a.name, cb); });
        QVERIFY_RESULT(config);
        QCOMPARE(config->secrets.value(QStringLiteral("token")), secret);
        QCOMPARE(config->settings.value(QStringLiteral("region")).toString(), QStringLiteral("eu"));

        // Not one file under the config directory holds the secret, in any encoding we know.
        const QByteArray needle = secret.toUtf8();
        const QByteArray needle16 = QByteArray(reinterpret_cast<const char *>(secret.utf16()), secret.size() * 2);
        QDirIterator it(dir.path(), QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
        int files = 0;
        while (it.hasNext()) {
            QFile f(it.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray content = f.readAll();
            QVERIFY2(!content.contains(needle) && !content.contains(needle16), qPrintable(f.fileName()));
            QVERIFY2(!content.contains(needle.toBase64()), qPrintable(f.fileName()));
            ++files;
        }
        QVERIFY(files >= 1);

        auto removed = test::await<void>([&](Callback<void> cb) { again.remove(a.name, cb); });
        QVERIFY_RESULT(removed);
        auto gone = test::await<QString>([&](Callback<QString> cb) {
            keychain.read(QStringLiteral("%1|cloud|token").arg(QDir(dir.path()).absolutePath()), cb);
        });
        QVERIFY(!gone.ok());
        QCOMPARE(gone.code(), ErrorCode::NotFound);
    }

    void refusedWithoutKeychain()
    {
        if (!m_expectMissing)
            QSKIP("runs in tst_keychain_missing, where no Secret Service is reachable");
        QTemporaryDir dir;
        KeychainSecretStore keychain(QStringLiteral("Sandbar-test"));
        AccountStore store(dir.path(), m_factories, keychain);
        Account a;
        a.name = QStringLiteral("cloud");
        a.provider = QStringLiteral("fake");
        auto added = test::await<void>([&](Callback<void> cb) {
            store.add(a, {{QStringLiteral("token"), QStringLiteral("sbtest-secret-nope-1")}}, cb);
        });
        QVERIFY(!added.ok());
        QVERIFY2(added.code() == ErrorCode::Unavailable, qPrintable(added.message()));
        QVERIFY2(added.message().contains(QLatin1String("keychain")), qPrintable(added.message()));
        QVERIFY(!store.find(a.name));
        QFile ini(QDir(dir.path()).filePath(QStringLiteral("sandbar.ini")));
        if (ini.open(QIODevice::ReadOnly))
            QVERIFY(!ini.readAll().contains("sbtest-secret-nope-1"));
    }

private:
    ProviderFactories m_factories;
    bool m_expectMissing = false;
};

QTEST_GUILESS_MAIN(TestKeychain)
#include "tst_keychain.moc"
