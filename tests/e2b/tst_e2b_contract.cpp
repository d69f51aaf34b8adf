// Sandbar's E2B provider against the E2B contract server (a real process on loopback that
// speaks E2B's control plane and envd, running real shells and files): the whole life of a
// sandbox, a terminal (paste, resize, reattach), 64 MiB files both ways, and the faults a
// cloud service has (429, 500, a lost create reply, a cut stream, a wrong key, TLS). Each test
// function makes the sandbox it needs and cleanup() removes it, so any one runs alone
// (`tst_e2b_contract SLOT`) and a failure in one does not spread to the next.

#include "ServerProcess.h"
#include "TestSupport.h"
#include "providers/Provider.h"
#include "providers/e2b/E2bFactory.h"
#include "terminal/PtyChannel.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <utility>

using namespace sandbar;

namespace {
// Test secrets contain sbtest-secret-: secret_watch (test.sh) searches for it everywhere.
const QString kKey = QStringLiteral("sbtest-secret-e2bkey-contract");

std::unique_ptr<Provider> makeProvider(const QString &base, const QString &key = kKey, const QString &caFile = {})
{
    AccountConfig a;
    a.name = QStringLiteral("e2b-test");
    a.provider = QStringLiteral("e2b");
    a.settings.insert(QStringLiteral("endpoint"), base);
    a.settings.insert(QStringLiteral("sandbox-endpoint"), base);
    if (!caFile.isEmpty())
        a.settings.insert(QStringLiteral("ca-file"), caFile);
    a.secrets.insert(QStringLiteral("api-key"), key);
    auto p = e2b::makeE2bFactory()->create(a);
    if (!p.ok())
        qWarning() << p.message();
    return p.ok() ? std::move(p.value()) : nullptr;
}

// A PTY and everything it printed.
struct Term {
    std::unique_ptr<PtyChannel> channel;
    QByteArray out;
    bool started = false;
    std::optional<Error> error;
    std::optional<int> exit;
    QObject ctx;

    void open(Provider &p, const QString &id, PtyOptions o = {})
    {
        channel = p.terminals()->openPty(id, o);
        QObject::connect(channel.get(), &PtyChannel::started, &ctx, [this] { started = true; });
        QObject::connect(channel.get(), &PtyChannel::dataReceived, &ctx, [this](const QByteArray &b) { out += b; });
        QObject::connect(channel.get(), &PtyChannel::errorOccurred, &ctx, [this](const Error &e) { error = e; });
        QObject::connect(channel.get(), &PtyChannel::finished, &ctx, [this](int c) { exit = c; });
        channel->start();
    }
    bool waitFor(const QByteArray &needle, int ms = 20000)
    {
        return test::waitUntil([&] { return out.contains(needle) || error.has_value(); }, ms) && out.contains(needle);
    }
};

int liveCount(contract::ServerProcess &server)
{
    return server.state().value(QStringLiteral("sandboxes")).toArray().size();
}
} // namespace

class TestE2bContract : public QObject
{
    Q_OBJECT
    std::unique_ptr<contract::ServerProcess> m_server;
    std::unique_ptr<Provider> m_provider;
    QStringList m_made; // sandboxes the current test function made

    // A sandbox for the current test function only; cleanup() removes it.
    Result<SessionInfo> createSandbox(CreateSpec spec)
    {
        spec.ttlSeconds = spec.ttlSeconds > 0 ? spec.ttlSeconds : 900; // gone even if the test dies
        auto s = test::await<SessionInfo>([&](Callback<SessionInfo> d) { m_provider->create(spec, d); });
        if (s.ok())
            m_made << s->id;
        return s;
    }
    // Its id, or empty with the reason printed.
    QString sandbox(const QStringList &env = {})
    {
        CreateSpec spec;
        spec.name = QString::fromLatin1(QTest::currentTestFunction());
        spec.env = env;
        auto s = createSandbox(spec);
        if (!s.ok())
            qWarning("create: %s", qPrintable(s.message()));
        return s.ok() ? s->id : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFile::exists(contract::ServerProcess::executable())) {
            if (test::inCi())
                QFAIL("the contract server was not built");
            QSKIP("the contract server was not built");
        }
        m_server = std::make_unique<contract::ServerProcess>(QStringLiteral("e2b"),
                                                             QStringList{QStringLiteral("--api-key"), kKey});
        QVERIFY2(m_server->start(), qPrintable(m_server->error()));
        m_provider = makeProvider(m_server->baseUrl());
        QVERIFY(m_provider);
    }

    // A fault a failed function left armed, and its sandboxes, go with it.
    void cleanup()
    {
        if (!m_server)
            return;
        QVERIFY(m_server->clearFaults());
        const QStringList made = std::exchange(m_made, {});
        for (const QString &id : made) {
            auto r = test::await<void>([&](Callback<void> d) { m_provider->remove(id, d); });
            QVERIFY2(r.ok() || r.code() == ErrorCode::NotFound, qPrintable(r.ok() ? QString() : r.message()));
        }
    }

    void healthAndWrongKey()
    {
        auto h = test::await<HealthInfo>([&](Callback<HealthInfo> d) { m_provider->health(d); });
        QVERIFY2(h.ok(), qPrintable(h.ok() ? QString() : h.message()));
        auto wrong = makeProvider(m_server->baseUrl(), QStringLiteral("sbtest-secret-e2bwrong-1"));
        auto r = test::await<HealthInfo>([&](Callback<HealthInfo> d) { wrong->health(d); });
        QVERIFY(!r.ok());
        QCOMPARE(r.code(), ErrorCode::Unauthorized);
        QVERIFY(!r.message().contains(QLatin1String("sbtest-secret-e2bwrong-1")));
    }

    void plainHttpOnlyOnLoopback()
    {
        AccountConfig a;
        a.name = QStringLiteral("x");
        a.settings.insert(QStringLiteral("endpoint"), QStringLiteral("http://api.e2b.example"));
        a.secrets.insert(QStringLiteral("api-key"), kKey);
        auto p = e2b::makeE2bFactory()->create(a);
        QVERIFY(!p.ok());
        QVERIFY(p.message().contains(QLatin1String("https")));
    }

    void createListAndInfo()
    {
        CreateSpec spec;
        spec.name = QStringLiteral("contract-one");
        spec.ttlSeconds = 900;
        spec.labels.insert(QStringLiteral("test.run"), QStringLiteral("e2b-contract"));
        spec.env << QStringLiteral("GREETING=hello-env");
        auto s = createSandbox(spec);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.message()));
        const QString id = s->id;
        QCOMPARE(s->state, SessionState::Running);
        QCOMPARE(s->name, QStringLiteral("contract-one"));
        QVERIFY(s->owned);
        QVERIFY(!s->network); // off unless asked
        auto list =
            test::await<QList<SessionInfo>>([&](Callback<QList<SessionInfo>> d) { m_provider->listSessions({}, d); });
        QVERIFY(list.ok());
        bool found = false;
        for (const auto &i : list.value())
            found |= i.id == id && i.labels.value(QStringLiteral("test.run")) == QLatin1String("e2b-contract");
        QVERIFY(found);
    }

    void terminalEchoResizeAndPaste()
    {
        const QString id = sandbox({QStringLiteral("GREETING=hello-env")});
        QVERIFY(!id.isEmpty());
        Term t;
        t.open(*m_provider, id);
        QVERIFY(test::waitUntil([&] { return t.started || t.error; }, 20000));
        QVERIFY2(!t.error, qPrintable(t.error ? t.error->message : QString()));
        t.channel->write("echo \"$GREETING-$((6*7))\"\n");
        QVERIFY2(t.waitFor("hello-env-42"), t.out.right(400).constData());
        t.channel->resize(101, 33);
        t.channel->write("stty size\n");
        QVERIFY2(t.waitFor("33 101"), t.out.right(400).constData());

        // A 64 KiB paste comes back byte for byte: raw mode, no echo, cat copies it out. The
        // marker is split in the command so that the echo of the typed line cannot match it,
        // and stty has run before printf: what follows READY's line end is cat's alone.
        t.channel->write("stty raw -echo; printf 'REA''DY\\n'; cat\n");
        const auto lineEnd = [&t] {
            const qsizetype at = t.out.indexOf("READY");
            return at < 0 ? -1 : t.out.indexOf('\n', at);
        };
        QVERIFY2(test::waitUntil([&] { return lineEnd() >= 0 || t.error; }, 20000) && lineEnd() >= 0,
                 t.out.right(400).constData());
        t.out.remove(0, lineEnd() + 1);
        QByteArray paste;
        auto *rng = QRandomGenerator::global();
        while (paste.size() < 64 * 1024)
            paste += char('a' + rng->bounded(26));
        t.channel->write(paste);
        QVERIFY2(test::waitUntil([&] { return t.out.size() >= paste.size() || t.error; }, 30000),
                 qPrintable(QString::number(t.out.size())));
        QCOMPARE(t.out.size(), paste.size());
        QVERIFY(t.out == paste);
        t.channel->close();
        QVERIFY(test::waitUntil([&] { return t.exit.has_value() || t.error.has_value(); }, 20000));
    }

    void reattach()
    {
        const QString id = sandbox();
        QVERIFY(!id.isEmpty());
        Term t;
        t.open(*m_provider, id);
        QVERIFY(test::waitUntil([&] { return t.started; }, 20000));
        t.channel->write("echo first-$((1+1))\n");
        QVERIFY(t.waitFor("first-2"));
        auto ptys = test::await<QList<PtyEntry>>(
            [&](Callback<QList<PtyEntry>> d) { m_provider->terminals()->listPtys(id, d); });
        QVERIFY(ptys.ok());
        QVERIFY(!ptys->isEmpty());
        QString pid;
        for (const auto &e : ptys.value())
            pid = e.id;    // the newest
        t.channel.reset(); // the window closed: the shell lives on

        Term again;
        PtyOptions o;
        o.attachId = pid;
        again.open(*m_provider, id, o);
        QVERIFY(test::waitUntil([&] { return again.started || again.error; }, 20000));
        QVERIFY(!again.error);
        again.channel->write("echo second-$((2+1))\n");
        QVERIFY2(again.waitFor("second-3"), again.out.right(300).constData());
        again.channel->close();
    }

    void filesBothWays64MiB()
    {
        const QString id = sandbox();
        QVERIFY(!id.isEmpty());
        QTemporaryDir dir;
        const QString src = dir.filePath(QStringLiteral("big.bin"));
        {
            QFile f(src);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray block(1024 * 1024, Qt::Uninitialized);
            for (int i = 0; i < 64; ++i) {
                QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(block.data()), block.size() / 4);
                f.write(block);
            }
        }
        auto mk = test::await<void>(
            [&](Callback<void> d) { m_provider->files()->makeDir(id, QStringLiteral("/home/user/in/deep"), d); });
        QVERIFY2(mk.ok(), qPrintable(mk.ok() ? QString() : mk.message()));
        auto up = m_provider->files()->upload(id, src, QStringLiteral("/home/user/in/"));
        std::optional<VoidResult> upDone;
        QObject ctx;
        connect(up.get(), &TransferJob::finished, &ctx, [&](const VoidResult &r) { upDone = r; });
        up->start();
        QVERIFY(test::waitUntil([&] { return upDone.has_value(); }, 120000));
        QVERIFY2(upDone->ok(), qPrintable(upDone->ok() ? QString() : upDone->message()));

        auto list = test::await<QList<FileEntry>>([&](Callback<QList<FileEntry>> d) {
            m_provider->files()->listFiles(id, QStringLiteral("/home/user/in"), d);
        });
        QVERIFY(list.ok());
        bool sized = false;
        for (const auto &e : list.value())
            sized |= e.name == QLatin1String("big.bin") && e.size == 64 * 1024 * 1024;
        QVERIFY(sized);

        QTemporaryDir back;
        auto down = m_provider->files()->download(id, QStringLiteral("/home/user/in/big.bin"), back.path());
        std::optional<VoidResult> downDone;
        connect(down.get(), &TransferJob::finished, &ctx, [&](const VoidResult &r) { downDone = r; });
        down->start();
        QVERIFY(test::waitUntil([&] { return downDone.has_value(); }, 120000));
        QVERIFY2(downDone->ok(), qPrintable(downDone->ok() ? QString() : downDone->message()));
        QCOMPARE(test::sha256File(back.filePath(QStringLiteral("big.bin"))), test::sha256File(src));

        auto rm = test::await<void>(
            [&](Callback<void> d) { m_provider->files()->removePath(id, QStringLiteral("/home/user/in"), d); });
        QVERIFY(rm.ok());
        auto st = test::await<PathStat>(
            [&](Callback<PathStat> d) { m_provider->files()->statPath(id, QStringLiteral("/home/user/in"), d); });
        QVERIFY(st.ok());
        QVERIFY(!st->exists);
    }

    void execExitCodes()
    {
        const QString id = sandbox();
        QVERIFY(!id.isEmpty());
        ExecRequest r;
        r.argv =
            QStringList{QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo out; echo err >&2; exit 3")};
        auto job = m_provider->commands()->exec(id, r);
        QByteArray out, err;
        std::optional<Result<int>> code;
        QObject ctx;
        connect(job.get(), &ExecJob::stdoutData, &ctx, [&](const QByteArray &b) { out += b; });
        connect(job.get(), &ExecJob::stderrData, &ctx, [&](const QByteArray &b) { err += b; });
        connect(job.get(), &ExecJob::finished, &ctx, [&](const Result<int> &c) { code = c; });
        job->start();
        QVERIFY(test::waitUntil([&] { return code.has_value(); }, 20000));
        QVERIFY(code->ok());
        QCOMPARE(code->value(), 3);
        QCOMPARE(out, QByteArray("out\n"));
        QCOMPARE(err, QByteArray("err\n"));
    }

    // A cancelled exec (an MCP client's notifications/cancelled, a timeout) is killed in the
    // sandbox through envd's SendSignal, not only abandoned on this side.
    void cancelledExecIsKilled()
    {
        const QString id = sandbox();
        QVERIFY(!id.isEmpty());
        const QByteArray marker = "sleep 3" + QByteArray::number(QCoreApplication::applicationPid() % 1000 + 1000);
        ExecRequest r;
        r.argv = QStringList{QStringLiteral("sh"), QStringLiteral("-c"),
                             QStringLiteral("echo started; exec ") + QString::fromLatin1(marker)};
        auto job = m_provider->commands()->exec(id, r);
        QByteArray out;
        std::optional<Result<int>> code;
        QObject ctx;
        connect(job.get(), &ExecJob::stdoutData, &ctx, [&](const QByteArray &b) { out += b; });
        connect(job.get(), &ExecJob::finished, &ctx, [&](const Result<int> &c) { code = c; });
        job->start();
        // The sandbox's processes are this machine's (the contract server's host runs them).
        const auto running = [&marker] { return test::processRunning(marker); };
        QVERIFY(test::waitUntil([&] { return out.contains("started") && running(); }, 20000));
        job->cancel();
        QVERIFY(code.has_value());
        QCOMPARE(code->code(), ErrorCode::Cancelled);
        QVERIFY2(test::waitUntil([&] { return !running(); }, 20000), marker.constData());
    }

    void statsPauseResumeTimeout()
    {
        const QString id = sandbox();
        QVERIFY(!id.isEmpty());
        auto s = test::await<StatsSample>([&](Callback<StatsSample> d) { m_provider->statistics()->stats(id, d); });
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.message()));
        QVERIFY(s->memoryUsedBytes.has_value());
        // The Stats tab's stream adds network counters read from /proc through exec.
        auto stream = m_provider->statistics()->streamStats(id);
        std::optional<StatsSample> live;
        QObject ctx;
        connect(stream.get(), &StatsStream::sample, &ctx, [&](const StatsSample &x) { live = x; });
        stream->start();
        QVERIFY(test::waitUntil([&] { return live.has_value(); }, 20000));
        stream->stop();
        QVERIFY(live->networkRxBytes.has_value());
        QVERIFY(live->memoryUsedBytes.has_value());
        QVERIFY(test::await<void>([&](Callback<void> d) { m_provider->pausing()->pause(id, d); }).ok());
        auto i = test::await<SessionInfo>([&](Callback<SessionInfo> d) { m_provider->info(id, d); });
        QCOMPARE(i->state, SessionState::Paused);
        QVERIFY(test::await<void>([&](Callback<void> d) { m_provider->pausing()->resume(id, d); }).ok());
        i = test::await<SessionInfo>([&](Callback<SessionInfo> d) { m_provider->info(id, d); });
        QCOMPARE(i->state, SessionState::Running);
        QVERIFY(test::await<void>([&](Callback<void> d) { m_provider->timeLimit()->setTimeout(id, 120, d); }).ok());
        i = test::await<SessionInfo>([&](Callback<SessionInfo> d) { m_provider->info(id, d); });
        QVERIFY(i->expiresAt.isValid());
        QVERIFY(qAbs(QDateTime::currentDateTimeUtc().secsTo(i->expiresAt) - 120) < 15);
        // Longer than the plan allows: refused with the reason, not silently shortened.
        auto tooLong =
            test::await<void>([&](Callback<void> d) { m_provider->timeLimit()->setTimeout(id, 7 * 86400, d); });
        QVERIFY(!tooLong.ok());
        QCOMPARE(tooLong.code(), ErrorCode::LimitReached);
    }

    void faultsRateLimitAndServerError()
    {
        const QString id = sandbox();
        QVERIFY(!id.isEmpty());
        QVERIFY(m_server->addFault(QStringLiteral("GET"), QStringLiteral("/v2/sandboxes"), QStringLiteral("429"), 1));
        auto list =
            test::await<QList<SessionInfo>>([&](Callback<QList<SessionInfo>> d) { m_provider->listSessions({}, d); });
        QVERIFY2(list.ok(), qPrintable(list.ok() ? QString() : list.message()));
        QVERIFY(m_server->addFault(QStringLiteral("GET"), QStringLiteral("/sandboxes/*"), QStringLiteral("500"), 1));
        auto i = test::await<SessionInfo>([&](Callback<SessionInfo> d) { m_provider->info(id, d); });
        QVERIFY2(i.ok(), qPrintable(i.ok() ? QString() : i.message()));
        QVERIFY(m_server->clearFaults());
    }

    void lostCreateReplyMakesOneSandbox()
    {
        const int before = liveCount(*m_server);
        const int createdBefore = m_server->state().value(QStringLiteral("sandboxesCreated")).toInt();
        QVERIFY(
            m_server->addFault(QStringLiteral("POST"), QStringLiteral("/sandboxes"), QStringLiteral("lost-reply"), 1));
        CreateSpec spec;
        spec.name = QStringLiteral("lost-reply");
        spec.ttlSeconds = 300;
        auto s = test::await<SessionInfo>([&](Callback<SessionInfo> d) { m_provider->create(spec, d); }, 90000);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.message()));
        QVERIFY2(liveCount(*m_server) == before + 1,
                 QJsonDocument(m_server->state()).toJson(QJsonDocument::Compact).constData());
        // The reply was lost after the sandbox was made: the token lookup found it, and the
        // create was never sent twice (not by Sandbar, not by Qt on its own).
        QCOMPARE(m_server->state().value(QStringLiteral("sandboxesCreated")).toInt(), createdBefore + 1);
        QVERIFY(test::await<void>([&](Callback<void> d) { m_provider->remove(s->id, d); }).ok());
        QCOMPARE(liveCount(*m_server), before);
        QVERIFY(m_server->clearFaults());
    }

    void cutStreamIsAClearError()
    {
        const QString id = sandbox();
        QVERIFY(!id.isEmpty());
        QVERIFY(m_server->addFault(QStringLiteral("POST"), QStringLiteral("/process.Process/Start"),
                                   QStringLiteral("truncate"), 1));
        Term t;
        t.open(*m_provider, id);
        QVERIFY(test::waitUntil([&] { return t.error.has_value() || t.exit.has_value(); }, 30000));
        QVERIFY(t.error.has_value());
        QVERIFY2(!t.error->message.isEmpty(), "an error for people");
        QVERIFY(m_server->clearFaults());
    }

    // A 200 whose body is not JSON, a connection dropped in the middle of a stream, a slow
    // reply: each a clear error or a success, never a crash or a hang.
    void malformedResetAndSlow()
    {
        const QString id = sandbox();
        QVERIFY(!id.isEmpty());
        QVERIFY(
            m_server->addFault(QStringLiteral("GET"), QStringLiteral("/v2/sandboxes"), QStringLiteral("malformed"), 1));
        auto list =
            test::await<QList<SessionInfo>>([&](Callback<QList<SessionInfo>> d) { m_provider->listSessions({}, d); });
        QVERIFY(!list.ok());
        QCOMPARE(list.code(), ErrorCode::Unavailable);
        QVERIFY2(list.message().contains(QLatin1String("E2B")), qPrintable(list.message()));

        QVERIFY(m_server->addFault(QStringLiteral("POST"), QStringLiteral("/process.Process/Start"),
                                   QStringLiteral("reset"), 1));
        Term t;
        t.open(*m_provider, id);
        QVERIFY(test::waitUntil([&] { return t.error.has_value() || t.exit.has_value(); }, 30000));
        QVERIFY(t.error.has_value());

        QVERIFY(
            m_server->addFault(QStringLiteral("GET"), QStringLiteral("/sandboxes/*"), QStringLiteral("slow:700"), 1));
        QElapsedTimer slow;
        slow.start();
        auto i = test::await<SessionInfo>([&](Callback<SessionInfo> d) { m_provider->info(id, d); });
        QVERIFY2(i.ok(), qPrintable(i.ok() ? QString() : i.message()));
        QVERIFY(slow.elapsed() >= 600);
        QVERIFY(m_server->clearFaults());
    }

    void logsAreRead()
    {
        const QString id = sandbox();
        QVERIFY(!id.isEmpty());
        auto stream = m_provider->logReader()->logs(id, LogOptions{});
        std::optional<VoidResult> end;
        QObject ctx;
        connect(stream.get(), &LogStream::finished, &ctx, [&](const VoidResult &r) { end = r; });
        stream->start();
        QVERIFY(test::waitUntil([&] { return end.has_value(); }, 20000));
        QVERIFY2(end->ok(), qPrintable(end->ok() ? QString() : end->message()));
    }

    void removeEndsIt()
    {
        const QString id = sandbox();
        QVERIFY(!id.isEmpty());
        QVERIFY(test::await<void>([&](Callback<void> d) { m_provider->remove(id, d); }).ok());
        auto i = test::await<SessionInfo>([&](Callback<SessionInfo> d) { m_provider->info(id, d); });
        QVERIFY(!i.ok());
        QCOMPARE(i.code(), ErrorCode::NotFound);
    }

    void tlsRefusedThenAcceptedWithCaFile()
    {
        const QString tls = qEnvironmentVariable("SANDBAR_TLS_DATA");
        contract::ServerProcess server(QStringLiteral("e2b"),
                                       {QStringLiteral("--tls"), tls + QStringLiteral("/server.pem"),
                                        tls + QStringLiteral("/server-key.pem"), QStringLiteral("--api-key"), kKey});
        QVERIFY2(server.start(), qPrintable(server.error()));
        QVERIFY(server.baseUrl().startsWith(QLatin1String("https://")));
        auto plain = makeProvider(server.baseUrl());
        auto r = test::await<HealthInfo>([&](Callback<HealthInfo> d) { plain->health(d); });
        QVERIFY(!r.ok());
        QVERIFY2(r.message().contains(QLatin1String("certificate")), qPrintable(r.message()));
        auto trusted = makeProvider(server.baseUrl(), kKey, tls + QStringLiteral("/ca.pem"));
        r = test::await<HealthInfo>([&](Callback<HealthInfo> d) { trusted->health(d); });
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.message()));
    }
};

QTEST_GUILESS_MAIN(TestE2bContract)
#include "tst_e2b_contract.moc"
