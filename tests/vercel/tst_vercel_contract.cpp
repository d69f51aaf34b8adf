// The Vercel provider end to end against the contract server (a real process on loopback): what
// the conformance suite does not cover. A fork is made once even when its reply is lost. A sandbox without Sandbar's
// limit stays up past Vercel's timeout while a terminal is attached, never past the plan's longest session. Injected
// faults come in Vercel's own error body. Snapshots beyond the suite's take-and-restore: taking one stops the sandbox
// and says so while it works; the list is newest first and tells a stop's snapshot from a requested one; a restore of a
// stopped sandbox starts it from the snapshot; what Vercel cannot do (a comment, a restore of a sandbox that is not
// persistent) is refused before anything changes.
#include "ContractAccount.h"
#include "PtyTerm.h"
#include "ServerProcess.h"
#include "TestSupport.h"
#include "providers/Provider.h"
#include "providers/vercel/VercelFactory.h"
#include "providers/vercel/VercelProvider.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTest>
#include <algorithm>

using namespace sandbar;
using sandbar::test::await;
using sandbar::test::waitUntil;

namespace {
// Test secrets contain sbtest-secret-: secret_watch (test.sh) searches for it everywhere.
constexpr char kKey[] = "sbtest-secret-vercel-snapshots";
constexpr int kCallMs = 60000;
} // namespace

class TestVercelContract : public QObject
{
    Q_OBJECT
    std::unique_ptr<contract::ServerProcess> m_server;
    std::unique_ptr<Provider> m_p;

    QString create(const QString &name, bool persistent)
    {
        CreateSpec spec;
        spec.name = name;
        spec.ttlSeconds = 600;
        spec.options.insert(QStringLiteral("persistent"), persistent);
        const auto s = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, kCallMs);
        return s ? s->id : QString();
    }
    // The command's stdout, or its failure in words.
    QByteArray sh(const QString &id, const QString &script)
    {
        ExecRequest req;
        req.argv = QStringList{QStringLiteral("sh"), QStringLiteral("-c"), script};
        return run(id, req);
    }
    QByteArray run(const QString &id, const ExecRequest &req)
    {
        auto job = m_p->commands()->exec(id, req);
        QByteArray out;
        std::optional<Result<int>> end;
        QObject ctx;
        connect(job.get(), &ExecJob::stdoutData, &ctx, [&](const QByteArray &b) { out += b; });
        connect(job.get(), &ExecJob::finished, &ctx, [&](const Result<int> &r) { end = r; });
        job->start();
        if (!waitUntil([&] { return end.has_value(); }, kCallMs))
            return "no end";
        if (!*end)
            return "failed: " + end->message().toUtf8();
        return end->value() == 0 ? out : "exit " + QByteArray::number(end->value());
    }
    SessionState state(const QString &id)
    {
        const auto info = await<SessionInfo>([&](auto cb) { m_p->info(id, cb); }, kCallMs);
        return info ? info->state : SessionState::Unknown;
    }
    int snapshotsOnServer() { return m_server->state().value(QStringLiteral("vercelSnapshots")).toInt(-1); }

private Q_SLOTS:
    void initTestCase()
    {
        m_server = std::make_unique<contract::ServerProcess>(
            QStringLiteral("vercel"), QStringList{QStringLiteral("--api-key"), QString::fromLatin1(kKey)});
        QVERIFY2(m_server->start(), qPrintable(m_server->error()));
        auto factory = vercel::makeVercelFactory();
        auto made = factory->create(contract::contractAccount(factory->descriptor(), QStringLiteral("snaps"),
                                                              m_server->baseUrl(), QString::fromLatin1(kKey)));
        QVERIFY2(made.ok(), qPrintable(made.ok() ? QString() : made.error().message));
        m_p = std::move(made.value());
        QVERIFY(m_p->snapshots());
        QVERIFY(!m_p->snapshots()->keepsComments());
        QVERIFY(m_p->capabilities().testFlag(Capability::Snapshots));
    }

    // Vercel's timeout 2 s, lengthened by 2 s slices from 1 s before its end while the terminal
    // is attached; the plan's longest session (7 s) ends it all the same.
    void anAttachedTerminalKeepsTheSandboxUpToThePlansLimit()
    {
        vercel::VercelProvider::Settings settings;
        settings.endpoint = QUrl(m_server->baseUrl());
        settings.token = QString::fromLatin1(kKey);
        settings.team = QStringLiteral("contract-team");
        settings.project = QStringLiteral("contract-project");
        settings.maxTimeoutSeconds = 7;
        settings.plainTimeoutSeconds = 2;
        settings.keepAlive = {1000, 2000, 300};
        auto factory = vercel::makeVercelFactory();
        vercel::VercelProvider p(factory->descriptor(), QStringLiteral("keep"), settings);
        CreateSpec spec;
        spec.name = QStringLiteral("keep-alive");
        const auto s = await<SessionInfo>([&](auto cb) { p.create(spec, cb); }, kCallMs);
        QVERIFY_RESULT(s);
        QElapsedTimer since;
        since.start();
        const auto running = [&] {
            const auto info = await<SessionInfo>([&](auto cb) { p.info(s->id, cb); }, kCallMs);
            return info.ok() && info->state == SessionState::Running;
        };
        test::PtyTerm term(p.terminals()->openPty(s->id, PtyOptions{}), this);
        QVERIFY(waitUntil([&] { return term.started || term.ended(); }, kCallMs));
        QVERIFY(term.started);
        // Past Vercel's first timeout, and past the first slice: still up.
        QVERIFY(waitUntil([&] { return since.elapsed() > 4500; }, 10000));
        QVERIFY(running());
        // The plan's limit ends it while the terminal is still attached.
        QVERIFY(waitUntil([&] { return !running(); }, 20000));
        QVERIFY2(since.elapsed() >= 6000, qPrintable(QString::number(since.elapsed())));
        QVERIFY_RESULT(await<void>([&](auto cb) { p.remove(s->id, cb); }, kCallMs));
    }

    void takingOneStopsTheSandboxAndSaysSo()
    {
        const QString id = create(QStringLiteral("snap-stop"), true);
        QVERIFY(!id.isEmpty());
        QCOMPARE(sh(id, QStringLiteral("echo one > ~/f.txt; echo ok")), QByteArray("ok\n"));
        QStringList progress;
        connect(m_p.get(), &Provider::snapshotProgress, this, [&](const QString &session, const QString &text) {
            if (session == id)
                progress << text;
        });
        const auto taken =
            await<SnapshotEntry>([&](auto cb) { m_p->snapshots()->createSnapshot(id, {}, cb); }, kCallMs);
        QVERIFY_RESULT(taken);
        QVERIFY(taken->id.startsWith(QLatin1String("snap")));
        QVERIFY2(taken->comment.contains(QLatin1String("taken on request")), qPrintable(taken->comment));
        QVERIFY2(progress.join(QLatin1Char('\n')).contains(QLatin1String("stops the sandbox")),
                 qPrintable(progress.join(QLatin1Char('\n'))));
        QVERIFY(waitUntil([&] { return state(id) == SessionState::Stopped; }, kCallMs));

        // A stop of a persistent sandbox saves one too; the newest comes first.
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->pausing()->resume(id, cb); }, kCallMs));
        QCOMPARE(sh(id, QStringLiteral("cat ~/f.txt; echo two > ~/f.txt")), QByteArray("one\n"));
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->stop(id, cb); }, kCallMs));
        const auto list =
            await<QList<SnapshotEntry>>([&](auto cb) { m_p->snapshots()->listSnapshots(id, cb); }, kCallMs);
        QVERIFY_RESULT(list);
        QCOMPARE(list->size(), 2);
        QVERIFY2(list->at(0).comment.contains(QLatin1String("saved at a stop")), qPrintable(list->at(0).comment));
        QCOMPARE(list->at(1).id, taken->id);
        QVERIFY(list->at(0).created >= list->at(1).created);

        // Restoring a stopped sandbox starts it from the snapshot asked for.
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->snapshots()->restoreSnapshot(id, taken->id, cb); }, kCallMs));
        QCOMPARE(state(id), SessionState::Running);
        QCOMPARE(sh(id, QStringLiteral("cat ~/f.txt")), QByteArray("one\n"));
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->remove(id, cb); }, kCallMs));
    }

    void whatVercelCannotDoIsRefusedFirst()
    {
        const QString id = create(QStringLiteral("snap-plain"), false);
        QVERIFY(!id.isEmpty());
        QCOMPARE(sh(id, QStringLiteral("echo kept > ~/f.txt; echo ok")), QByteArray("ok\n"));
        const int before = snapshotsOnServer();
        QVERIFY(before >= 0);
        // A comment Vercel would drop: refused, and no snapshot is made (nor the sandbox stopped).
        const auto commented = await<SnapshotEntry>(
            [&](auto cb) { m_p->snapshots()->createSnapshot(id, QStringLiteral("before the upgrade"), cb); }, kCallMs);
        QVERIFY(!commented.ok());
        QCOMPARE(commented.code(), ErrorCode::InvalidArgument);
        QVERIFY2(commented.message().contains(QLatin1String("comment")), qPrintable(commented.message()));
        QCOMPARE(snapshotsOnServer(), before);
        QCOMPARE(state(id), SessionState::Running);

        // A sandbox that is not persistent never goes back: refused while it still runs.
        const auto taken =
            await<SnapshotEntry>([&](auto cb) { m_p->snapshots()->createSnapshot(id, {}, cb); }, kCallMs);
        QVERIFY_RESULT(taken);
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->pausing()->resume(id, cb); }, kCallMs));
        QCOMPARE(state(id), SessionState::Running);
        const auto restored =
            await<void>([&](auto cb) { m_p->snapshots()->restoreSnapshot(id, taken->id, cb); }, kCallMs);
        QVERIFY(!restored.ok());
        QCOMPARE(restored.code(), ErrorCode::Unsupported);
        QVERIFY2(restored.message().contains(QLatin1String("persistent")), qPrintable(restored.message()));
        QCOMPARE(state(id), SessionState::Running);
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->remove(id, cb); }, kCallMs));
    }

    // Input past what fits in a command line (1 MiB) reaches the program whole, through a file
    // the shell unlinks before the program starts: nothing of it is left in /tmp.
    void largeInputReachesTheCommand()
    {
        const QString id = create(QStringLiteral("big-input"), false);
        QVERIFY(!id.isEmpty());
        QByteArray input(3 * 1024 * 1024 + 17, Qt::Uninitialized);
        for (qsizetype i = 0; i < input.size(); ++i)
            input[i] = char((i * 131 + i / 4099) & 0xff);
        ExecRequest req;
        req.argv = QStringList{QStringLiteral("sha256sum")};
        req.stdinData = input;
        QCOMPARE(run(id, req).left(64), QCryptographicHash::hash(input, QCryptographicHash::Sha256).toHex());
        QCOMPARE(sh(id, QStringLiteral("ls -a /tmp | grep -c sandbar-stdin; true")), QByteArray("0\n"));
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->remove(id, cb); }, kCallMs));
    }

    // Vercel copies a sandbox's files from its latest snapshot when it has one: what changed
    // since is not in the copy, and the person is told so before forking.
    void forkSaysWhereItsFilesComeFrom()
    {
        const QString id = create(QStringLiteral("origin"), false);
        QVERIFY(!id.isEmpty());
        const auto origin = [&] {
            return await<QString>([&](auto cb) { m_p->forking()->forkOrigin(id, cb); }, kCallMs);
        };
        auto now = origin();
        QVERIFY_RESULT(now);
        QVERIFY2(now->contains(QLatin1String("as they are now")), qPrintable(*now));
        QCOMPARE(sh(id, QStringLiteral("echo a > ~/before.txt; echo ok")), QByteArray("ok\n"));
        QVERIFY_RESULT(await<SnapshotEntry>([&](auto cb) { m_p->snapshots()->createSnapshot(id, {}, cb); }, kCallMs));
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->pausing()->resume(id, cb); }, kCallMs));
        QCOMPARE(sh(id, QStringLiteral("echo b > ~/after.txt; echo ok")), QByteArray("ok\n"));
        now = origin();
        QVERIFY_RESULT(now);
        QVERIFY2(now->contains(QLatin1String("latest snapshot, taken")) &&
                     now->contains(QLatin1String("not in the copy")),
                 qPrintable(*now));
        const auto copy = await<SessionInfo>(
            [&](auto cb) {
                m_p->forking()->fork(id, ForkSpec{QStringLiteral("origin-copy"), {}}, cb);
            },
            kCallMs);
        QVERIFY_RESULT(copy);
        QCOMPARE(sh(copy->id, QStringLiteral("cat ~/before.txt; ls ~/after.txt 2>/dev/null; true")), QByteArray("a\n"));
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->remove(copy->id, cb); }, kCallMs));
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->remove(id, cb); }, kCallMs));
    }

    // A fork whose reply is lost is found by its create token, not made twice; it carries the
    // person's labels and Sandbar's time limit, under the account; a name taken is refused.
    void aForkIsMadeOnceAndCarriesTheLabels()
    {
        CreateSpec spec;
        spec.name = QStringLiteral("fork-src");
        spec.ttlSeconds = 900;
        spec.labels.insert(QStringLiteral("team"), QStringLiteral("infra"));
        const auto src = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, kCallMs);
        QVERIFY_RESULT(src);
        QVERIFY(m_p->forking());
        QVERIFY(m_server->addFault(QStringLiteral("POST"), QStringLiteral("/api/v2/sandboxes/fork-src/fork"),
                                   QStringLiteral("lost-reply"), 1));
        const auto copy = await<SessionInfo>(
            [&](auto cb) {
                m_p->forking()->fork(src->id, ForkSpec{QStringLiteral("fork-copy"), {}}, cb);
            },
            kCallMs);
        QVERIFY_RESULT(copy);
        QCOMPARE(copy->id, QStringLiteral("fork-copy"));
        // The reply was lost indeed.
        const QJsonArray faults = m_server->state().value(QStringLiteral("faults")).toArray();
        QVERIFY(!faults.isEmpty());
        QCOMPARE(faults.last().toObject().value(QStringLiteral("hits")).toInt(), 1);
        QCOMPARE(copy->state, SessionState::Running);
        QCOMPARE(copy->labels.value(QStringLiteral("team")), QStringLiteral("infra"));
        QCOMPARE(copy->labels.value(QLatin1String(labels::Account)), QStringLiteral("snaps"));
        QCOMPARE(copy->ttlSeconds, 900);
        ListOptions all;
        all.all = true;
        const auto listed = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions(all, cb); }, kCallMs);
        QVERIFY_RESULT(listed);
        QCOMPARE(std::count_if(listed->begin(), listed->end(),
                               [](const SessionInfo &s) { return s.id.startsWith(QLatin1String("fork-copy")); }),
                 1);
        const auto again = await<SessionInfo>(
            [&](auto cb) {
                m_p->forking()->fork(src->id, ForkSpec{QStringLiteral("fork-copy"), {}}, cb);
            },
            kCallMs);
        QVERIFY(!again.ok());
        QVERIFY2(again.message().contains(QLatin1String("fork-copy")), qPrintable(again.message()));
        for (const QString &id : {src->id, copy->id})
            QVERIFY_RESULT(await<void>([&](auto cb) { m_p->remove(id, cb); }, kCallMs));
    }

    // What the kit answers itself (an injected fault) comes in Vercel's own error shape, and the
    // provider says the service's words.
    void faultsComeInVercelsShape()
    {
        QVERIFY(m_server->addFault(QStringLiteral("GET"), QStringLiteral("/v2/sandboxes"), QStringLiteral("503"), 1));
        QNetworkAccessManager net;
        QNetworkRequest request(QUrl(m_server->baseUrl() + QStringLiteral("/v2/sandboxes?teamId=t")));
        request.setRawHeader("Authorization", QByteArray("Bearer ") + kKey);
        QNetworkReply *reply = net.get(request);
        QVERIFY(waitUntil([&] { return reply->isFinished(); }, kCallMs));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 503);
        const QJsonObject error =
            QJsonDocument::fromJson(reply->readAll()).object().value(QStringLiteral("error")).toObject();
        QCOMPARE(error.value(QStringLiteral("code")).toString(), QStringLiteral("service_unavailable"));
        QVERIFY(!error.value(QStringLiteral("message")).toString().isEmpty());
        reply->deleteLater();
        // The account's API base is the server's /api, as Vercel's is https://vercel.com/api.
        QVERIFY(
            m_server->addFault(QStringLiteral("GET"), QStringLiteral("/api/v2/sandboxes"), QStringLiteral("401"), 1));
        const auto listed = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions(ListOptions{}, cb); }, kCallMs);
        QVERIFY(!listed.ok());
        QCOMPARE(listed.code(), ErrorCode::Unauthorized);
    }

    void cleanupTestCase()
    {
        m_p.reset();
        m_server.reset();
    }
};

QTEST_GUILESS_MAIN(TestVercelContract)
#include "tst_vercel_contract.moc"
