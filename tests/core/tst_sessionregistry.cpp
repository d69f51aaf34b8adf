#include "RegistryFixture.h"
#include "TestSupport.h"
#include "sessions/SessionRegistry.h"

#include <QSignalSpy>
#include <QTemporaryDir>

using namespace sandbar;

class TestSessionRegistry final : public QObject
{
    Q_OBJECT
private:
    // Memory sessions behind an account with a required secret, remembering the secret each
    // account's provider was made with.
    class TokenProviderFactory final : public ProviderFactory
    {
    public:
        TokenProviderFactory()
        {
            m_desc.id = QStringLiteral("tokenmem");
            m_desc.displayName = QStringLiteral("Token memory");
            FieldDescriptor token;
            token.key = QStringLiteral("token");
            token.label = QStringLiteral("Token");
            token.secret = true;
            token.required = true;
            m_desc.accountFields = {token};
        }
        const ProviderDescriptor &descriptor() const override { return m_desc; }
        Result<std::unique_ptr<Provider>> create(const AccountConfig &account) const override
        {
            seen.insert(account.name, account.secrets.value(QStringLiteral("token")));
            return std::unique_ptr<Provider>(std::make_unique<test::MemoryProvider>(m_desc, account.name));
        }
        mutable QMap<QString, QString> seen;

    private:
        ProviderDescriptor m_desc;
    };

    struct Fixture : test::RegistryFixture {
        void addAccount(const QString &name)
        {
            auto r = RegistryFixture::addAccount(name);
            QVERIFY_RESULT(r);
        }
        SessionInfo create(const QString &account, const QString &name)
        {
            auto p = test::await<Provider *>([&](Callback<Provider *> cb) { registry->provider(account, cb); });
            CreateSpec spec;
            spec.name = name;
            auto s = test::await<SessionInfo>([&](Callback<SessionInfo> cb) { p.value()->create(spec, cb); });
            return s.value();
        }
    };

private Q_SLOTS:
    void reconcileAndOrphans()
    {
        Fixture f;
        f.addAccount(QStringLiteral("a"));
        f.addAccount(QStringLiteral("b"));
        f.create(QStringLiteral("a"), QStringLiteral("one"));
        f.create(QStringLiteral("b"), QStringLiteral("two"));
        // A session on account a's engine that a vanished account made.
        SessionInfo ghost;
        ghost.id = QStringLiteral("ghost1");
        ghost.owned = true;
        ghost.state = SessionState::Running;
        ghost.labels.insert(QLatin1String(labels::App), QLatin1String(labels::AppValue));
        ghost.labels.insert(QLatin1String(labels::Account), QStringLiteral("deleted-account"));
        f.memory->made.value(QStringLiteral("a"))->inject(ghost);
        // And one that account b made on a shared engine: b's, not an orphan.
        SessionInfo shared = ghost;
        shared.id = QStringLiteral("shared1");
        shared.labels.insert(QLatin1String(labels::Account), QStringLiteral("b"));
        f.memory->made.value(QStringLiteral("a"))->inject(shared);

        QSignalSpy changed(f.registry.get(), &SessionRegistry::sessionsChanged);
        f.registry->refresh();
        QTRY_COMPARE(f.registry->status(QStringLiteral("b")).state, AccountStatus::State::Ok);
        QCOMPARE(f.registry->status(QStringLiteral("a")).state, AccountStatus::State::Ok);
        QVERIFY(changed.count() >= 2);
        QStringList refs;
        for (const auto &s : f.registry->sessions())
            refs << s.ref();
        refs.sort();
        QCOMPARE(refs, (QStringList{QStringLiteral("a/m0001"), QStringLiteral("b/m0001")}));
        QCOMPARE(f.registry->orphans().size(), 1);
        QCOMPARE(f.registry->orphans().first().id, QStringLiteral("ghost1"));
    }

    void resolve_data()
    {
        QTest::addColumn<QString>("ref");
        QTest::addColumn<QString>("expected"); // ref, or error code name
        QTest::newRow("account/id") << QStringLiteral("a/m0001") << QStringLiteral("a/m0001");
        QTest::newRow("account/prefix") << QStringLiteral("a/m00") << QStringLiteral("a/m0001");
        QTest::newRow("account/name") << QStringLiteral("b/beta") << QStringLiteral("b/m0001");
        QTest::newRow("name alone") << QStringLiteral("alpha") << QStringLiteral("a/m0001");
        QTest::newRow("id in two accounts") << QStringLiteral("m0001") << QStringLiteral("conflict");
        QTest::newRow("unknown account") << QStringLiteral("zz/m0001") << QStringLiteral("not-found");
        QTest::newRow("unknown id") << QStringLiteral("a/nothing") << QStringLiteral("not-found");
        QTest::newRow("unknown alone") << QStringLiteral("nothing") << QStringLiteral("not-found");
        QTest::newRow("empty") << QString() << QStringLiteral("invalid-argument");
        QTest::newRow("account slash nothing") << QStringLiteral("a/") << QStringLiteral("invalid-argument");
    }
    void resolve()
    {
        QFETCH(QString, ref);
        QFETCH(QString, expected);
        Fixture f;
        f.addAccount(QStringLiteral("a"));
        f.addAccount(QStringLiteral("b"));
        f.create(QStringLiteral("a"), QStringLiteral("alpha"));
        f.create(QStringLiteral("b"), QStringLiteral("beta"));
        auto r = test::await<SessionHandle>([&](Callback<SessionHandle> cb) { f.registry->resolve(ref, cb); });
        if (expected.contains(QLatin1Char('/'))) {
            QVERIFY_RESULT(r);
            QCOMPARE(r->session.ref(), expected);
            QVERIFY(r->provider);
        } else {
            QVERIFY(!r.ok());
            QCOMPARE(errorCodeName(r.code()), expected);
            QVERIFY(!r.message().isEmpty());
        }
    }

    void unreachableAccountIsReported()
    {
        Fixture f;
        f.addAccount(QStringLiteral("a"));
        f.create(QStringLiteral("a"), QStringLiteral("x"));
        f.memory->made.value(QStringLiteral("a"))->failListing = true;
        auto r = test::await<QList<SessionInfo>>(
            [&](Callback<QList<SessionInfo>> cb) { f.registry->refreshAccount(QStringLiteral("a"), cb); });
        QCOMPARE(r.code(), ErrorCode::Unavailable);
        QCOMPARE(f.registry->status(QStringLiteral("a")).state, AccountStatus::State::Failed);
        QVERIFY(f.registry->status(QStringLiteral("a")).lastError.message.contains(QLatin1String("down")));
    }

    void removedAccountDropsItsProvider()
    {
        Fixture f;
        f.addAccount(QStringLiteral("a"));
        f.create(QStringLiteral("a"), QStringLiteral("x"));
        f.registry->refresh();
        QTRY_COMPARE(f.registry->sessions().size(), 1);
        auto rm = test::await<void>([&](Callback<void> cb) { f.accounts->remove(QStringLiteral("a"), cb); });
        QVERIFY_RESULT(rm);
        QVERIFY(!f.registry->existingProvider(QStringLiteral("a")));
        QVERIFY(f.registry->sessions().isEmpty());
    }

    void providerEventsUpdateTheList()
    {
        Fixture f;
        f.addAccount(QStringLiteral("a"));
        const auto s = f.create(QStringLiteral("a"), QStringLiteral("x"));
        f.registry->refresh();
        QTRY_COMPARE(f.registry->sessions().size(), 1);
        auto *p = f.memory->made.value(QStringLiteral("a"));
        auto r = test::await<void>([&](Callback<void> cb) { p->pause(s.id, cb); });
        QVERIFY_RESULT(r);
        QCOMPARE(f.registry->sessions().first().state, SessionState::Paused);
        auto rm = test::await<void>([&](Callback<void> cb) { p->remove(s.id, cb); });
        QVERIFY_RESULT(rm);
        QVERIFY(f.registry->sessions().isEmpty());
    }

    void accountWithoutSecretInKeychainFailsClearly()
    {
        Fixture f;
        auto factory = std::make_unique<TokenProviderFactory>();
        TokenProviderFactory *tokens = factory.get();
        f.factories.add(std::move(factory));
        const QString secret = QStringLiteral("sbtest-secret-registry-4f1c9e");
        for (const QString &name : {QStringLiteral("kept"), QStringLiteral("lost")}) {
            Account a;
            a.name = name;
            a.provider = QStringLiteral("tokenmem");
            auto added = test::await<void>([&](Callback<void> cb) {
                f.accounts->add(a, {{QStringLiteral("token"), secret}}, cb);
            });
            QVERIFY_RESULT(added);
        }
        // The account still lists its secret, but the keychain lost it (wiped, another machine).
        QCOMPARE(f.accounts->find(QStringLiteral("lost"))->secretKeys, QStringList{QStringLiteral("token")});
        const auto before = f.secrets.values.size();
        for (auto it = f.secrets.values.begin(); it != f.secrets.values.end();) {
            it = it.key().contains(QLatin1String("|lost|")) ? f.secrets.values.erase(it) : std::next(it);
        }
        QCOMPARE(f.secrets.values.size(), before - 1);

        // Control: the secret in the keychain reaches the provider.
        auto kept =
            test::await<Provider *>([&](Callback<Provider *> cb) { f.registry->provider(QStringLiteral("kept"), cb); });
        QVERIFY_RESULT(kept);
        QCOMPARE(tokens->seen.value(QStringLiteral("kept")), secret);

        auto lost =
            test::await<Provider *>([&](Callback<Provider *> cb) { f.registry->provider(QStringLiteral("lost"), cb); });
        QVERIFY(!lost.ok());
        QCOMPARE(lost.code(), ErrorCode::NotFound);
        // The keychain's own words reach the user (the real store says no secret is stored for
        // the account), not a generic failure from a provider made with an empty secret.
        QVERIFY(!lost.message().isEmpty());
        QCOMPARE(lost.message(), QStringLiteral("missing"));
        QVERIFY(!lost.message().contains(secret));
        // No provider was made without its secret, and the account shows why.
        QVERIFY(!tokens->seen.contains(QStringLiteral("lost")));
        QVERIFY(!f.registry->existingProvider(QStringLiteral("lost")));
        const auto status = f.registry->status(QStringLiteral("lost"));
        QCOMPARE(status.state, AccountStatus::State::Failed);
        QCOMPARE(status.lastError.code, ErrorCode::NotFound);
        QCOMPARE(status.lastError.message, lost.message());
        QVERIFY(f.registry->status(QStringLiteral("kept")).state != AccountStatus::State::Failed);

        // An unknown account is a different, equally clear error.
        auto none =
            test::await<Provider *>([&](Callback<Provider *> cb) { f.registry->provider(QStringLiteral("nope"), cb); });
        QCOMPARE(none.code(), ErrorCode::NotFound);
        QVERIFY(none.message().contains(QLatin1String("nope")));
    }
};

QTEST_GUILESS_MAIN(TestSessionRegistry)
#include "tst_sessionregistry.moc"
