#include "FakeProvider.h"
#include "TestSupport.h"
#include "accounts/AccountStore.h"

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace sandbar;

namespace {
Account fakeAccount(const QString &name)
{
    Account a;
    a.name = name;
    a.provider = QStringLiteral("fake");
    return a;
}
} // namespace

class TestAccountStore final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { m_factories.add(std::make_unique<test::DescriptorOnlyFactory>()); }

    void names_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("ok");
        QTest::newRow("simple") << QStringLiteral("docker") << true;
        QTest::newRow("dots and dashes") << QStringLiteral("e2b.prod-eu_1") << true;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("leading dash") << QStringLiteral("-x") << false;
        QTest::newRow("slash") << QStringLiteral("a/b") << false;
        QTest::newRow("space") << QStringLiteral("a b") << false;
        QTest::newRow("ini group syntax") << QStringLiteral("[x]") << false;
        QTest::newRow("too long") << QString(65, QLatin1Char('a')) << false;
        QTest::newRow("unicode") << QStringLiteral("kontö") << false;
    }
    void names()
    {
        QFETCH(QString, name);
        QFETCH(bool, ok);
        QCOMPARE(AccountStore::validateName(name).ok(), ok);
    }

    void addFindRemove()
    {
        QTemporaryDir dir;
        test::MemorySecretStore secrets;
        AccountStore store(dir.path(), m_factories, secrets);
        QSignalSpy changed(&store, &AccountStore::accountsChanged);
        Account a = fakeAccount(QStringLiteral("one"));
        a.settings.insert(QStringLiteral("region"), QStringLiteral("us"));
        auto r = test::await<void>([&](Callback<void> cb) {
            store.add(a, {{QStringLiteral("token"), QStringLiteral("t0k")}}, cb);
        });
        QVERIFY_RESULT(r);
        QCOMPARE(changed.count(), 1);
        const auto found = store.find(QStringLiteral("one"));
        QVERIFY(found);
        QCOMPARE(found->provider, QStringLiteral("fake"));
        QCOMPARE(found->settings.value(QStringLiteral("region")).toString(), QStringLiteral("us"));
        QCOMPARE(found->secretKeys, QStringList{QStringLiteral("token")});
        QCOMPARE(secrets.values.size(), 1);

        auto dup = test::await<void>([&](Callback<void> cb) {
            store.add(a, {{QStringLiteral("token"), QStringLiteral("x")}}, cb);
        });
        QCOMPARE(dup.code(), ErrorCode::Conflict);

        auto rm = test::await<void>([&](Callback<void> cb) { store.remove(QStringLiteral("one"), cb); });
        QVERIFY_RESULT(rm);
        QVERIFY(!store.find(QStringLiteral("one")));
        QVERIFY(secrets.values.isEmpty());
        auto rm2 = test::await<void>([&](Callback<void> cb) { store.remove(QStringLiteral("one"), cb); });
        QCOMPARE(rm2.code(), ErrorCode::NotFound);
    }

    void validation_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QVariantMap>("settings");
        QTest::addColumn<QStringList>("secretKeys");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("unknown provider") << QStringLiteral("nope") << QVariantMap{}
                                          << QStringList{QStringLiteral("token")} << QStringLiteral("Unknown provider");
        QTest::newRow("unknown setting") << QStringLiteral("fake") << QVariantMap{{QStringLiteral("color"), 1}}
                                         << QStringList{QStringLiteral("token")} << QStringLiteral("no setting");
        QTest::newRow("secret in settings")
            << QStringLiteral("fake") << QVariantMap{{QStringLiteral("token"), QStringLiteral("x")}} << QStringList{}
            << QStringLiteral("keychain");
        QTest::newRow("missing required secret")
            << QStringLiteral("fake") << QVariantMap{} << QStringList{} << QStringLiteral("need");
        QTest::newRow("bad choice") << QStringLiteral("fake")
                                    << QVariantMap{{QStringLiteral("region"), QStringLiteral("mars")}}
                                    << QStringList{QStringLiteral("token")} << QStringLiteral("unknown value");
        QTest::newRow("unknown secret") << QStringLiteral("fake") << QVariantMap{}
                                        << QStringList{QStringLiteral("token"), QStringLiteral("pin")}
                                        << QStringLiteral("no secret");
    }
    void validation()
    {
        QFETCH(QString, provider);
        QFETCH(QVariantMap, settings);
        QFETCH(QStringList, secretKeys);
        QFETCH(QString, messagePart);
        QTemporaryDir dir;
        test::MemorySecretStore secrets;
        AccountStore store(dir.path(), m_factories, secrets);
        Account a = fakeAccount(QStringLiteral("acct"));
        a.provider = provider;
        a.settings = settings;
        QMap<QString, QString> s;
        for (const auto &k : secretKeys)
            s.insert(k, QStringLiteral("v"));
        auto r = test::await<void>([&](Callback<void> cb) { store.add(a, s, cb); });
        QVERIFY(!r.ok());
        QCOMPARE(r.code(), ErrorCode::InvalidArgument);
        QVERIFY2(r.message().contains(messagePart), qPrintable(r.message()));
        QVERIFY(!store.find(QStringLiteral("acct")));
        QVERIFY(secrets.values.isEmpty());
    }

    void keychainFailureAddsNothing()
    {
        QTemporaryDir dir;
        test::MemorySecretStore secrets;
        secrets.failWrites = true;
        AccountStore store(dir.path(), m_factories, secrets);
        auto r = test::await<void>([&](Callback<void> cb) {
            store.add(fakeAccount(QStringLiteral("acct")), {{QStringLiteral("token"), QStringLiteral("v")}}, cb);
        });
        QCOMPARE(r.code(), ErrorCode::Unavailable);
        QVERIFY(store.accounts().isEmpty());
    }

    void corruptSettingsAreKeptAside()
    {
        QTemporaryDir dir;
        const QString ini = QDir(dir.path()).filePath(QStringLiteral("sandbar.ini"));
        {
            QFile f(ini);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("[accounts\x01\xff\xfe garbage\n=\n[[[\n");
        }
        test::MemorySecretStore secrets;
        AccountStore store(dir.path(), m_factories, secrets);
        // Either Qt read what it could, or the file was set aside: nothing is lost, and
        // the store still works.
        if (!store.loadWarning().isEmpty()) {
            QVERIFY(store.loadWarning().contains(QLatin1String("kept")));
            const auto aside = QDir(dir.path()).entryList({QStringLiteral("sandbar.ini.corrupt-*")});
            QCOMPARE(aside.size(), 1);
        }
        auto r = test::await<void>([&](Callback<void> cb) {
            store.add(fakeAccount(QStringLiteral("fresh")), {{QStringLiteral("token"), QStringLiteral("v")}}, cb);
        });
        QVERIFY_RESULT(r);
        QVERIFY(store.find(QStringLiteral("fresh")));
    }

    void loadConfigWithMissingSecret()
    {
        QTemporaryDir dir;
        test::MemorySecretStore secrets;
        AccountStore store(dir.path(), m_factories, secrets);
        auto r = test::await<void>([&](Callback<void> cb) {
            store.add(fakeAccount(QStringLiteral("acct")), {{QStringLiteral("token"), QStringLiteral("v")}}, cb);
        });
        QVERIFY_RESULT(r);
        secrets.values.clear(); // the keychain lost it (another machine, a wiped keyring)
        auto c = test::await<AccountConfig>(
            [&](Callback<AccountConfig> cb) { store.loadConfig(QStringLiteral("acct"), cb); });
        QVERIFY(!c.ok());
        QCOMPARE(c.code(), ErrorCode::NotFound);
    }

private:
    ProviderFactories m_factories;
};

QTEST_GUILESS_MAIN(TestAccountStore)
#include "tst_accountstore.moc"
