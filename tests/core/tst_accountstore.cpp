#include "FakeProvider.h"
#include "TestSupport.h"
#include "accounts/AccountStore.h"
#include "providers/Provider.h"

#include <QDir>
#include <QFile>
#include <QSettings>
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

// Writes bytes as the folder's settings file, as another program or a damaged disk left it.
QString writeSettingsFile(const QString &dir, const QByteArray &bytes)
{
    const QString ini = QDir(dir).filePath(QStringLiteral("sandbar.ini"));
    QFile f(ini);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        return {};
    return ini;
}

// A provider whose engine is always found, for the first start's account creation.
class DetectingFactory final : public ProviderFactory
{
public:
    DetectingFactory()
        : m_desc(test::DescriptorOnlyFactory().descriptor())
    {
        m_desc.id = QStringLiteral("found");
        for (auto &f : m_desc.accountFields)
            f.required = false;
    }
    const ProviderDescriptor &descriptor() const override { return m_desc; }
    Result<std::unique_ptr<Provider>> create(const AccountConfig &) const override
    {
        return makeError(ErrorCode::Unsupported, QStringLiteral("only detected"));
    }
    std::optional<QVariantMap> detectDefault() const override { return QVariantMap{}; }

private:
    ProviderDescriptor m_desc;
};

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
        const QString ini = writeSettingsFile(dir.path(), "[accounts\x01\xff\xfe garbage\n=\n[[[\n");
        QVERIFY(!ini.isEmpty());
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

    // Values of the wrong type are copied aside once: later starts name the copy instead of
    // piling up more, a new problem earns a new copy (never overwriting one made in the same
    // second), and once the values are mended the warning stops.
    void wrongValuesAreCopiedOnce()
    {
        QTemporaryDir dir;
        const QByteArray bad = "[store]\nversion=notanumber\n[accounts]\nd1\\provider=@Variant(\\0\\0\\0\\x7f\\0\\0)\n"
                               "d1\\settings\\endpoint=unix:///keep/me.sock\n";
        const QString ini = writeSettingsFile(dir.path(), bad);
        QVERIFY(!ini.isEmpty());
        const auto copies = [&] {
            return QDir(dir.path()).entryList({QStringLiteral("sandbar.ini.corrupt-*")}, QDir::Files, QDir::Name);
        };
        test::MemorySecretStore secrets;
        QString first;
        {
            AccountStore store(dir.path(), m_factories, secrets);
            QCOMPARE(copies().size(), 1);
            first = copies().first();
            QVERIFY2(store.loadWarning().contains(first), qPrintable(store.loadWarning()));
        }
        QFile kept(QDir(dir.path()).filePath(first));
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), bad);
        {
            AccountStore store(dir.path(), m_factories, secrets);
            QCOMPARE(copies(), QStringList{first});
            QVERIFY2(store.loadWarning().contains(QLatin1String("still")) && store.loadWarning().contains(first),
                     qPrintable(store.loadWarning()));
        }
        {
            QSettings raw(ini, QSettings::IniFormat);
            raw.setValue(QStringLiteral("accounts/d2/created"), QStringLiteral("yesterday"));
        }
        {
            AccountStore store(dir.path(), m_factories, secrets);
            QCOMPARE(copies().size(), 2);
            const QString second = copies().constLast() == first ? copies().constFirst() : copies().constLast();
            QVERIFY2(store.loadWarning().contains(second) && !store.loadWarning().contains(QLatin1String("still")),
                     qPrintable(store.loadWarning()));
        }
        {
            QSettings raw(ini, QSettings::IniFormat);
            raw.remove(QStringLiteral("accounts"));
        }
        {
            AccountStore store(dir.path(), m_factories, secrets);
            QCOMPARE(store.loadWarning(), QString());
        }
        QCOMPARE(copies().size(), 2);
        QSettings raw(ini, QSettings::IniFormat);
        QVERIFY(!raw.contains(QStringLiteral("general/valuesKeptAside")));
    }

    // The first start makes accounts for what it detects, once per config folder: an account
    // the user removed stays removed at every later store. Within one process QSettings shares
    // its cache of the file, so tst_sandbarctl checks the same across processes.
    void removedDefaultStaysRemoved()
    {
        QTemporaryDir dir;
        ProviderFactories factories;
        factories.add(std::make_unique<DetectingFactory>());
        test::MemorySecretStore secrets;
        {
            AccountStore store(dir.path(), factories, secrets);
            QCOMPARE(store.createDefaultAccounts(), QStringList{QStringLiteral("found")});
            auto r = test::await<void>([&](Callback<void> cb) { store.remove(QStringLiteral("found"), cb); });
            QVERIFY_RESULT(r);
        }
        for (int start = 0; start < 2; ++start) {
            AccountStore store(dir.path(), factories, secrets);
            QCOMPARE(store.createDefaultAccounts(), QStringList{});
            QVERIFY(store.accounts().isEmpty());
        }
    }

    // Files from before the store's keys left the "general" group hold them, sometimes
    // twice, under [%General]: they are read, moved, and the old sections dropped.
    void legacyGeneralSectionsAreMigrated()
    {
        QTemporaryDir dir;
        const QString ini = writeSettingsFile(
            dir.path(),
            "[%General]\ndefaultsCreated=true\nversion=1\n\n[accounts]\n\n[%General]\ndefaultsCreated=true\n"
            "version=1\n");
        QVERIFY(!ini.isEmpty());
        ProviderFactories factories;
        factories.add(std::make_unique<DetectingFactory>());
        test::MemorySecretStore secrets;
        {
            AccountStore store(dir.path(), factories, secrets);
            QCOMPARE(store.loadWarning(), QString());
            QCOMPARE(store.createDefaultAccounts(), QStringList{});
        }
        QFile f(ini);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray after = f.readAll();
        QVERIFY2(!after.contains("General") && after.contains("[store]") && after.contains("defaultsCreated=true"),
                 after.constData());
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
