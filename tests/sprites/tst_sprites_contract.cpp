// The Sprites provider end to end against the contract server (a real process on loopback):
// what the conformance suite does not cover. A create whose reply is lost makes one sprite;
// a new sprite's network is closed and its memory limit set and read back; terminals outlive
// their socket and are reattached, and closing one ends its shell; stop and Sandbar's ttl end
// what runs but keep the sprite; commands carry large stdin; faults read as clear errors.
#include "PtyTerm.h"
#include "ServerProcess.h"
#include "TestSupport.h"
#include "providers/Provider.h"
#include "providers/sprites/SpritesFactory.h"
#include "providers/sprites/SpritesProvider.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTcpSocket>
#include <QTest>

using namespace sandbar;
using sandbar::test::await;
using sandbar::test::waitUntil;
using Term = sandbar::test::PtyTerm;

namespace {
// Test secrets contain sbtest-secret-: secret_watch (test.sh) searches for it everywhere.
constexpr char kKey[] = "sbtest-secret-sprkey-contract";

QJsonArray spritesOf(contract::ServerProcess &server)
{
    return server.state().value(QStringLiteral("sprites")).toArray();
}
} // namespace

class TestSpritesContract : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<contract::ServerProcess> m_server;
    std::unique_ptr<Provider> m_provider;
    QString m_id;

    std::unique_ptr<Provider> makeProvider(const QString &key)
    {
        AccountConfig a;
        a.name = QStringLiteral("contract");
        a.provider = QStringLiteral("sprites");
        a.settings.insert(QStringLiteral("endpoint"), m_server->baseUrl());
        a.secrets.insert(QStringLiteral("api-key"), key);
        auto p = sprites::makeSpritesFactory()->create(a);
        return p ? std::move(p.value()) : nullptr;
    }
    sprites::SpritesProvider *sp() const { return static_cast<sprites::SpritesProvider *>(m_provider.get()); }

    // A GET of the API, as the provider's client makes it.
    QJsonObject get(const QString &path)
    {
        cloud::ApiCall call;
        call.path = path;
        auto r = await<cloud::ApiReply>([&](Callback<cloud::ApiReply> cb) { sp()->client()->call(call, cb); });
        return r ? QJsonDocument::fromJson(r->body).object() : QJsonObject();
    }

    Result<ExecOutput> run(const QStringList &argv, const QByteArray &stdinData = {})
    {
        ExecRequest req;
        req.argv = argv;
        req.stdinData = stdinData;
        auto job = m_provider->commands()->exec(m_id, req);
        ExecOutput out;
        std::optional<Result<int>> end;
        connect(job.get(), &ExecJob::stdoutData, this, [&](const QByteArray &b) { out.stdoutData += b; });
        connect(job.get(), &ExecJob::stderrData, this, [&](const QByteArray &b) { out.stderrData += b; });
        connect(job.get(), &ExecJob::finished, this, [&](const Result<int> &r) { end = r; });
        job->start();
        if (!waitUntil([&] { return end.has_value(); }, 30000))
            return makeError(ErrorCode::Timeout, QStringLiteral("no end"));
        if (!*end)
            return end->error();
        out.exitCode = end->value();
        return out;
    }

    QList<PtyEntry> ptys()
    {
        auto r =
            await<QList<PtyEntry>>([&](Callback<QList<PtyEntry>> cb) { m_provider->terminals()->listPtys(m_id, cb); });
        return r ? r.value() : QList<PtyEntry>{};
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QFileInfo exe(contract::ServerProcess::executable());
        SANDBAR_REQUIRE(exe.isExecutable(), QStringLiteral("the contract server is not built: %1").arg(exe.filePath()));
        m_server = std::make_unique<contract::ServerProcess>(
            QStringLiteral("sprites"), QStringList{QStringLiteral("--api-key"), QString::fromLatin1(kKey)});
        QVERIFY2(m_server->start(), qPrintable(m_server->error()));
        m_provider = makeProvider(QString::fromLatin1(kKey));
        QVERIFY(m_provider);
    }

    void cleanupTestCase()
    {
        m_provider.reset();
        m_server.reset();
    }

    // The reply to create is lost: the sprite is found by its name and token, not made twice.
    void lostCreateReplyMakesOneSprite()
    {
        QVERIFY(
            m_server->addFault(QStringLiteral("POST"), QStringLiteral("/v1/sprites"), QStringLiteral("lost-reply"), 1));
        CreateSpec spec;
        spec.name = QStringLiteral("once");
        spec.memoryBytes = qint64(512) * 1024 * 1024;
        spec.labels.insert(QStringLiteral("team"), QStringLiteral("infra"));
        auto made = await<SessionInfo>([&](Callback<SessionInfo> cb) { m_provider->create(spec, cb); }, 60000);
        QVERIFY_RESULT(made);
        m_id = made->id;
        QCOMPARE(m_id, QStringLiteral("once"));
        QCOMPARE(spritesOf(*m_server).size(), 1);
        // The fault did strike: the create's reply was really lost.
        const QJsonArray faults = m_server->state().value(QStringLiteral("faults")).toArray();
        QCOMPARE(faults.size(), 1);
        QCOMPARE(faults.first().toObject().value(QStringLiteral("hits")).toInt(), 1);
        QVERIFY(made->owned);
        QCOMPARE(made->labels.value(QStringLiteral("team")), QStringLiteral("infra"));
        // The memory asked for is the sprite's limit, read back from the service.
        QCOMPARE(made->memoryBytes.value_or(0), qint64(512) * 1024 * 1024);
        QCOMPARE(get(QStringLiteral("/v1/sprites/once/policy/resources"))
                     .value(QStringLiteral("memory"))
                     .toObject()
                     .value(QStringLiteral("limit_mb"))
                     .toInt(),
                 512);
        m_server->clearFaults();
    }

    // Sandbar's secure default: every domain denied unless the person asked for network.
    void networkIsClosedByDefault()
    {
        const QJsonArray rules =
            get(QStringLiteral("/v1/sprites/once/policy/network")).value(QStringLiteral("rules")).toArray();
        QCOMPARE(rules.size(), 1);
        QCOMPARE(rules.first().toObject().value(QStringLiteral("action")).toString(), QStringLiteral("deny"));
        QCOMPARE(rules.first().toObject().value(QStringLiteral("domain")).toString(), QStringLiteral("*"));
    }

    // Stdin larger than one frame arrives whole and in order; stderr and the exit code too.
    void commandsCarryLargeStdin()
    {
        QByteArray input;
        for (int i = 0; i < 40000; ++i)
            input += QByteArray::number(i) + '\n';
        auto r = run({QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("cat; echo err >&2; exit 3")}, input);
        QVERIFY_RESULT(r);
        QCOMPARE(r->exitCode, 3);
        QCOMPARE(r->stdoutData.size(), input.size());
        QVERIFY(r->stdoutData == input);
        QCOMPARE(r->stderrData, QByteArray("err\n"));
    }

    // A terminal outlives its socket (the service keeps it), is listed, and a second
    // connection to it sees what it does; closing that terminal ends its shell.
    void terminalsAreReattached()
    {
        auto first = std::make_unique<Term>(m_provider->terminals()->openPty(m_id, PtyOptions{}), this);
        first->channel->write("echo one-$((20+1))\n");
        QVERIFY2(first->waitFor("one-21"), first->out.constData());
        first.reset(); // the socket drops, as when Sandbar quits: the shell stays
        QList<PtyEntry> listed;
        QVERIFY(waitUntil([&] { return (listed = ptys()).size() == 1; }, 10000));
        QVERIFY(!listed.first().exited);
        PtyOptions attach;
        attach.attachId = listed.first().id;
        Term second(m_provider->terminals()->openPty(m_id, attach), this);
        QVERIFY(waitUntil([&] { return second.started || second.ended(); }, 15000));
        QVERIFY(second.started);
        const qsizetype from = second.out.size();
        second.channel->write("echo two-$((40+2))\n");
        QVERIFY2(second.waitFor("two-42", from), second.out.constData());
        second.channel->close();
        QVERIFY(waitUntil([&] { return second.ended(); }, 15000));
        QVERIFY(waitUntil([&] { return ptys().isEmpty(); }, 15000));
    }

    // A port that starts listening in the sprite (told on the terminal's socket) gets a local
    // port on this computer, carried over /proxy: a request there reaches the server inside
    // the sprite; when the port closes, so does the forward.
    void listeningPortsAreForwarded()
    {
        Term shell(m_provider->terminals()->openPty(m_id, PtyOptions{}), this);
        QVERIFY(waitUntil([&] { return shell.started || shell.ended(); }, 15000));
        shell.channel->write("mkdir -p /tmp/www && echo forwarded-$((6*7)) > /tmp/www/index.html && "
                             "busybox httpd -f -p 127.0.0.1:9123 -h /tmp/www & echo started-httpd\n");
        QVERIFY2(shell.waitFor("started-httpd"), shell.out.constData());
        const auto forwarded = [&]() -> std::optional<SessionEndpoint> {
            auto info = await<SessionInfo>([&](Callback<SessionInfo> cb) { m_provider->info(m_id, cb); });
            if (!info)
                return std::nullopt;
            for (const SessionEndpoint &e : info->endpoints) {
                if (e.sessionPort == 9123 && e.hostPort > 0)
                    return e;
            }
            return std::nullopt;
        };
        std::optional<SessionEndpoint> endpoint;
        QVERIFY2(waitUntil([&] { return (endpoint = forwarded()).has_value(); }, 20000), shell.out.constData());
        QCOMPARE(endpoint->url, QStringLiteral("http://127.0.0.1:%1").arg(endpoint->hostPort));
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, quint16(endpoint->hostPort));
        QVERIFY(client.waitForConnected(10000));
        client.write("GET /index.html HTTP/1.0\r\nHost: localhost\r\n\r\n");
        QByteArray reply;
        QVERIFY2(waitUntil(
                     [&] {
                         reply += client.readAll();
                         return reply.contains("forwarded-42") || client.state() == QAbstractSocket::UnconnectedState;
                     },
                     20000),
                 reply.constData());
        QVERIFY2(reply.startsWith("HTTP/1.") && reply.contains("forwarded-42"), reply.constData());
        shell.channel->write("kill %1; echo stopped-httpd\n");
        QVERIFY2(shell.waitFor("stopped-httpd"), shell.out.constData());
        QVERIFY2(waitUntil([&] { return !forwarded().has_value(); }, 20000), "the forward outlived its port");
        shell.channel->close();
        QVERIFY(waitUntil([&] { return shell.ended(); }, 15000));
    }

    // Stop ends what runs in the sprite and lets it sleep; the sprite and its files stay.
    void stopEndsWhatRunsAndTheSpriteSleeps()
    {
        QVERIFY_RESULT(run({QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo kept > /tmp/kept")}));
        Term shell(m_provider->terminals()->openPty(m_id, PtyOptions{}), this);
        shell.channel->write("echo up-$((1+1))\n");
        QVERIFY(shell.waitFor("up-2"));
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { m_provider->stop(m_id, cb); }));
        QVERIFY(waitUntil([&] { return shell.ended(); }, 15000));
        QVERIFY(waitUntil(
            [&] {
                auto i = await<SessionInfo>([&](Callback<SessionInfo> cb) { m_provider->info(m_id, cb); });
                return i && i->asleep;
            },
            15000));
        auto kept = run({QStringLiteral("cat"), QStringLiteral("/tmp/kept")});
        QVERIFY_RESULT(kept);
        QCOMPARE(kept->stdoutData, QByteArray("kept\n"));
    }

    // Sprites report no use of their own: stats() never wakes a sprite with a command, and the
    // Stats tab's stream reads the sprite's own /proc for CPU, memory and network.
    void statisticsComeFromTheSpritesProcWhileWatched()
    {
        auto asleep = await<StatsSample>([&](Callback<StatsSample> cb) { m_provider->statistics()->stats(m_id, cb); });
        QVERIFY_RESULT(asleep);
        QCOMPARE(asleep->cpuPercent.value_or(-1), 0.0);
        // A terminal keeps it awake, as work in it would: the figures are then the sprite's own.
        Term shell(m_provider->terminals()->openPty(m_id, PtyOptions{}), this);
        shell.channel->write("echo awake-$((2+3))\n");
        QVERIFY(shell.waitFor("awake-5"));
        auto awake = await<StatsSample>([&](Callback<StatsSample> cb) { m_provider->statistics()->stats(m_id, cb); });
        QVERIFY_RESULT(awake);
        QVERIFY(!awake->cpuPercent); // no command was run to find out
        auto stream = m_provider->statistics()->streamStats(m_id);
        QList<StatsSample> samples;
        connect(stream.get(), &StatsStream::sample, this, [&](const StatsSample &s) { samples << s; });
        stream->start();
        QVERIFY(waitUntil([&] { return samples.size() >= 2; }, 30000));
        const StatsSample &last = samples.last();
        QVERIFY(last.networkRxBytes.has_value());
        QVERIFY(last.memoryUsedBytes.value_or(-1) > 0);
        QVERIFY(last.memoryLimitBytes.value_or(0) >= *last.memoryUsedBytes);
        QVERIFY(last.cpuPercent.value_or(-1) >= 0); // a rate between the two readings
        stream->stop();
        shell.channel->close();
        QVERIFY(waitUntil([&] { return shell.ended(); }, 15000));
    }

    // A checkpoint saves the files (its progress told as it goes); restoring one puts them back.
    void checkpointsSaveAndRestore()
    {
        QVERIFY_RESULT(run({QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo before > /tmp/state")}));
        QStringList progress;
        connect(m_provider.get(), &Provider::snapshotProgress, this,
                [&](const QString &id, const QString &text) { progress << id + QLatin1Char(':') + text; });
        auto made = await<SnapshotEntry>(
            [&](Callback<SnapshotEntry> cb) {
                m_provider->snapshots()->createSnapshot(m_id, QStringLiteral("first"), cb);
            },
            60000);
        QVERIFY_RESULT(made);
        QCOMPARE(made->comment, QStringLiteral("first"));
        QVERIFY2(progress.size() >= 2, qPrintable(progress.join(QLatin1Char('|'))));
        QVERIFY(progress.first().startsWith(m_id + QLatin1Char(':')));
        auto listed = await<QList<SnapshotEntry>>(
            [&](Callback<QList<SnapshotEntry>> cb) { m_provider->snapshots()->listSnapshots(m_id, cb); });
        QVERIFY_RESULT(listed);
        QCOMPARE(listed->size(), 1);
        QCOMPARE(listed->first().id, made->id);

        QVERIFY_RESULT(run({QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo after > /tmp/state")}));
        QVERIFY_RESULT(await<void>(
            [&](Callback<void> cb) { m_provider->snapshots()->restoreSnapshot(m_id, made->id, cb); }, 60000));
        auto back = run({QStringLiteral("cat"), QStringLiteral("/tmp/state")});
        QVERIFY_RESULT(back);
        QCOMPARE(back->stdoutData, QByteArray("before\n"));

        auto missing = await<void>(
            [&](Callback<void> cb) { m_provider->snapshots()->restoreSnapshot(m_id, QStringLiteral("v999"), cb); });
        QVERIFY(!missing);
        QCOMPARE(missing.code(), ErrorCode::NotFound);
    }

    // Sandbar's time limit: once it passes, what runs ends; the sprite is never deleted.
    void ttlEndsWhatRunsNotTheSprite()
    {
        Term shell(m_provider->terminals()->openPty(m_id, PtyOptions{}), this);
        shell.channel->write("echo ttl-$((3+4))\n");
        QVERIFY(shell.waitFor("ttl-7"));
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { sp()->setTimeout(m_id, 1, cb); }));
        auto info = await<SessionInfo>([&](Callback<SessionInfo> cb) { m_provider->info(m_id, cb); });
        QVERIFY_RESULT(info);
        QVERIFY(info->expiresAt.isValid());
        QVERIFY(waitUntil([&] { return shell.ended(); }, 20000));
        QCOMPARE(spritesOf(*m_server).size(), 1);
        // No limit again: the sprite may run.
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { sp()->setTimeout(m_id, 0, cb); }));
        auto after = await<SessionInfo>([&](Callback<SessionInfo> cb) { m_provider->info(m_id, cb); });
        QVERIFY_RESULT(after);
        QCOMPARE(after->ttlSeconds, qint64(0));
    }

    // Refusals read as one clear error each; a 429 is waited out and retried.
    void faultsAreClearErrors()
    {
        auto wrong = makeProvider(QStringLiteral("sbtest-secret-wrong"));
        QVERIFY(wrong);
        auto refused = await<QList<SessionInfo>>([&](Callback<QList<SessionInfo>> cb) { wrong->listSessions({}, cb); });
        QVERIFY(!refused);
        QCOMPARE(refused.code(), ErrorCode::Unauthorized);

        QVERIFY(m_server->addFault(QStringLiteral("GET"), QStringLiteral("/v1/sprites"), QStringLiteral("429"), 1));
        auto listed =
            await<QList<SessionInfo>>([&](Callback<QList<SessionInfo>> cb) { m_provider->listSessions({}, cb); });
        QVERIFY_RESULT(listed);
        QCOMPARE(listed->size(), 1);

        QVERIFY(m_server->addFault(QStringLiteral("GET"), QStringLiteral("/v1/sprites/once"),
                                   QStringLiteral("malformed"), 1));
        auto bad = await<SessionInfo>([&](Callback<SessionInfo> cb) { m_provider->info(m_id, cb); });
        QVERIFY(!bad);
        QVERIFY2(bad.message().contains(QStringLiteral("Sprites")), qPrintable(bad.message()));

        // The terminal's socket closed by the service mid-session: an error, not a hang.
        QVERIFY(m_server->addFault(QStringLiteral("GET"), QStringLiteral("/v1/sprites/once/exec"),
                                   QStringLiteral("ws-close:500"), 1));
        Term cut(m_provider->terminals()->openPty(m_id, PtyOptions{}), this);
        QVERIFY(waitUntil([&] { return cut.ended(); }, 15000));
        QVERIFY(cut.error.has_value());
        m_server->clearFaults();
    }

    void removeDeletes()
    {
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { m_provider->remove(m_id, cb); }));
        auto gone = await<SessionInfo>([&](Callback<SessionInfo> cb) { m_provider->info(m_id, cb); });
        QVERIFY(!gone);
        QCOMPARE(gone.code(), ErrorCode::NotFound);
    }
};

QTEST_GUILESS_MAIN(TestSpritesContract)
#include "tst_sprites_contract.moc"
