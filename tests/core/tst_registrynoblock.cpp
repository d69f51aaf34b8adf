// The registry never blocks its thread while it makes a provider or lists an account: an
// engine socket that accepts and never answers, or one that does not exist, leaves a 5 ms
// heartbeat ticking.
#include "FakeProvider.h"
#include "TestSupport.h"
#include "accounts/AccountStore.h"
#include "providers/docker/DockerFactory.h"
#include "sessions/SessionRegistry.h"

#include <QElapsedTimer>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <memory>

using namespace sandbar;

namespace {

// Largest gap between ticks of a 5 ms timer on this thread.
class Heartbeat : public QObject
{
public:
    Heartbeat()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(5);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            m_max = std::max(m_max, m_since.restart());
            ++m_ticks;
        });
        m_since.start();
        m_timer.start();
    }
    qint64 maxGapMs() const { return std::max(m_max, m_since.elapsed()); }
    int ticks() const { return m_ticks; }

private:
    QTimer m_timer;
    QElapsedTimer m_since;
    qint64 m_max = 0;
    int m_ticks = 0;
};

} // namespace

class TestRegistryNoBlock final : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    ProviderFactories m_factories;
    test::MemorySecretStore m_secrets;

    void addAccount(AccountStore &store, const QString &name, const QVariantMap &settings)
    {
        Account a;
        a.name = name;
        a.provider = QStringLiteral("docker");
        a.settings = settings;
        const auto r = test::await<void>([&](Callback<void> cb) { store.add(a, {}, cb); });
        QVERIFY_RESULT(r);
    }

    // A socket that accepts and never answers, named by DOCKER_HOST.
    void listenSilently(QLocalServer &silent, QList<QLocalSocket *> &held, const QString &name)
    {
        const QString path = m_dir.filePath(name);
        QVERIFY(silent.listen(path));
        connect(&silent, &QLocalServer::newConnection, &silent, [&silent, &held] {
            while (QLocalSocket *s = silent.nextPendingConnection())
                held << s;
        });
        qputenv("DOCKER_HOST", (QStringLiteral("unix://") + path).toUtf8());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_factories.add(docker::makeDockerFactory());
        // No docker CLI contexts of this machine's user.
        qputenv("DOCKER_CONFIG", m_dir.filePath(QStringLiteral("docker-config")).toUtf8());
    }

    // Discovery probes DOCKER_HOST's socket, which accepts and never answers.
    void silentDiscoveredSocket()
    {
        QLocalServer silent;
        QList<QLocalSocket *> held;
        listenSilently(silent, held, QStringLiteral("silent.sock"));
        const std::unique_ptr<void, void (*)(void *)> unset(this, [](void *) { qunsetenv("DOCKER_HOST"); });

        AccountStore store(m_dir.filePath(QStringLiteral("c1")), m_factories, m_secrets);
        SessionRegistry registry(store, m_factories);
        addAccount(store, QStringLiteral("found"), {});

        Heartbeat beat;
        QElapsedTimer took;
        took.start();
        std::optional<Result<Provider *>> made;
        QObject ctx;
        registry.provider(QStringLiteral("found"),
                          Callback<Provider *>(&ctx, [&](Result<Provider *> p) { made.emplace(std::move(p)); }));
        QTRY_VERIFY_WITH_TIMEOUT(made.has_value(), 10000);
        QVERIFY2(beat.maxGapMs() < 200, qPrintable(QStringLiteral("stalled %1 ms").arg(beat.maxGapMs())));
        // The probe really waited on the silent socket (its timeout is 300 ms).
        QVERIFY(!held.isEmpty());
        QVERIFY(took.elapsed() >= 250);
    }

    // The window's first start looks for engines to make accounts for, off its thread.
    void firstStartDetection()
    {
        QLocalServer silent;
        QList<QLocalSocket *> held;
        listenSilently(silent, held, QStringLiteral("silent2.sock"));
        const std::unique_ptr<void, void (*)(void *)> unset(this, [](void *) { qunsetenv("DOCKER_HOST"); });

        AccountStore store(m_dir.filePath(QStringLiteral("c3")), m_factories, m_secrets);
        Heartbeat beat;
        QElapsedTimer took;
        took.start();
        std::optional<Result<QStringList>> added;
        QObject ctx;
        store.createDefaultAccounts(
            Callback<QStringList>(&ctx, [&](Result<QStringList> r) { added.emplace(std::move(r)); }));
        QTRY_VERIFY_WITH_TIMEOUT(added.has_value(), 10000);
        QVERIFY_RESULT(*added);
        QVERIFY2(beat.maxGapMs() < 200, qPrintable(QStringLiteral("stalled %1 ms").arg(beat.maxGapMs())));
        QVERIFY(!held.isEmpty());
        QVERIFY(took.elapsed() >= 250);
        // Once per config folder.
        added.reset();
        store.createDefaultAccounts(
            Callback<QStringList>(&ctx, [&](Result<QStringList> r) { added.emplace(std::move(r)); }));
        QTRY_VERIFY(added.has_value());
        QVERIFY(added->value().isEmpty());
    }

    // Listing an account whose engine accepts and never answers: the request waits, the
    // thread does not.
    void silentConfiguredSocket()
    {
        QLocalServer silent;
        QList<QLocalSocket *> held;
        listenSilently(silent, held, QStringLiteral("silent3.sock"));
        qunsetenv("DOCKER_HOST");
        AccountStore store(m_dir.filePath(QStringLiteral("c4")), m_factories, m_secrets);
        SessionRegistry registry(store, m_factories);
        addAccount(store, QStringLiteral("mute"),
                   {{QStringLiteral("endpoint"), QVariant(QStringLiteral("unix://") + silent.fullServerName())}});
        Heartbeat beat;
        QObject ctx;
        bool answered = false;
        registry.refreshAccount(
            QStringLiteral("mute"),
            Callback<QList<SessionInfo>>(&ctx, [&](Result<QList<SessionInfo>>) { answered = true; }));
        QTRY_VERIFY_WITH_TIMEOUT(!held.isEmpty(), 10000);
        // About half a second of heartbeats while the request hangs.
        const int from = beat.ticks();
        QTRY_VERIFY_WITH_TIMEOUT(beat.ticks() >= from + 100, 10000);
        QVERIFY(!answered);
        QVERIFY2(beat.maxGapMs() < 200, qPrintable(QStringLiteral("stalled %1 ms").arg(beat.maxGapMs())));
    }

    // A configured socket that does not exist: the account fails, the thread keeps going.
    void missingSocket()
    {
        AccountStore store(m_dir.filePath(QStringLiteral("c2")), m_factories, m_secrets);
        SessionRegistry registry(store, m_factories);
        addAccount(store, QStringLiteral("gone"),
                   {{QStringLiteral("endpoint"), QStringLiteral("unix:///nonexistent.sock")}});
        Heartbeat beat;
        std::optional<Result<QList<SessionInfo>>> listed;
        QObject ctx;
        registry.refreshAccount(
            QStringLiteral("gone"),
            Callback<QList<SessionInfo>>(&ctx, [&](Result<QList<SessionInfo>> r) { listed.emplace(std::move(r)); }));
        QTRY_VERIFY_WITH_TIMEOUT(listed.has_value(), 30000);
        QVERIFY(!listed->ok());
        QCOMPARE(registry.status(QStringLiteral("gone")).state, AccountStatus::State::Failed);
        QVERIFY2(beat.maxGapMs() < 200, qPrintable(QStringLiteral("stalled %1 ms").arg(beat.maxGapMs())));
    }
};

QTEST_GUILESS_MAIN(TestRegistryNoBlock)
#include "tst_registrynoblock.moc"
