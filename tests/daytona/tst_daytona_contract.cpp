// The Daytona provider end to end against the contract server (a real process on loopback):
// lifecycle, labels, a PTY shell, files, exec, stats, ttl and the faults that matter.
#include "PtyTerm.h"
#include "ServerProcess.h"
#include "TestSupport.h"
#include "providers/Provider.h"
#include "providers/daytona/DaytonaFactory.h"
#include "terminal/PtyChannel.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;
using sandbar::test::await;
using sandbar::test::waitUntil;

namespace {
// Test secrets contain sbtest-secret-: secret_watch (test.sh) searches for it everywhere.
constexpr char kKey[] = "sbtest-secret-dtnkey-contract";

using Term = sandbar::test::PtyTerm;

int sandboxCount(const QJsonObject &state)
{
    int n = 0;
    for (const QJsonValue &v : state.value(QLatin1String("sandboxes")).toArray()) {
        const QString s = v.toObject().value(QLatin1String("state")).toString();
        if (s != QLatin1String("destroyed") && s != QLatin1String("deleted"))
            ++n;
    }
    return n;
}
} // namespace

class TestDaytonaContract : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<contract::ServerProcess> m_server;
    std::unique_ptr<Provider> m_provider;
    QString m_id;
    QString m_ptyId;

    std::unique_ptr<Provider> makeProvider(const QString &key, const QString &account = QStringLiteral("contract"),
                                           const QString &base = {}, const QString &caFile = {})
    {
        AccountConfig a;
        a.name = account;
        a.provider = QStringLiteral("daytona");
        a.settings.insert(QStringLiteral("endpoint"),
                          QString((base.isEmpty() ? m_server->baseUrl() : base) + QStringLiteral("/api")));
        if (!caFile.isEmpty())
            a.settings.insert(QStringLiteral("ca-file"), caFile);
        a.secrets.insert(QStringLiteral("api-key"), key);
        auto p = daytona::makeDaytonaFactory()->create(a);
        if (!p)
            return nullptr;
        return std::move(p.value());
    }

    Result<SessionInfo> info(const QString &id)
    {
        return await<SessionInfo>([&](Callback<SessionInfo> cb) { m_provider->info(id, cb); });
    }

    std::unique_ptr<Term> openShell(PtyOptions options = {})
    {
        return std::make_unique<Term>(m_provider->terminals()->openPty(m_id, options), this);
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QFileInfo exe(contract::ServerProcess::executable());
        SANDBAR_REQUIRE(exe.isExecutable(), QStringLiteral("the contract server is not built: %1").arg(exe.filePath()));
        m_server = std::make_unique<contract::ServerProcess>(
            QStringLiteral("daytona"), QStringList{QStringLiteral("--api-key"), QString::fromLatin1(kKey)});
        QVERIFY2(m_server->start(), qPrintable(m_server->error()));
        m_provider = makeProvider(QString::fromLatin1(kKey));
        QVERIFY(m_provider);
    }

    void cleanupTestCase()
    {
        m_provider.reset();
        m_server.reset();
    }

    void createAndList()
    {
        CreateSpec spec;
        spec.name = QStringLiteral("contract box");
        spec.labels.insert(QStringLiteral("team"), QStringLiteral("qa"));
        spec.cpus = 1;
        spec.memoryBytes = qint64(1) << 30;
        auto created = await<SessionInfo>([&](Callback<SessionInfo> cb) { m_provider->create(spec, cb); }, 60000);
        QVERIFY_RESULT(created);
        m_id = created->id;
        QCOMPARE(created->state, SessionState::Running);
        QCOMPARE(created->name, QStringLiteral("contract box"));
        QVERIFY(created->owned);
        QVERIFY(!created->network);
        QCOMPARE(created->labels.value(QStringLiteral("team")), QStringLiteral("qa"));
        QCOMPARE(*created->cpus, 1.0);

        auto listed = await<QList<SessionInfo>>(
            [&](Callback<QList<SessionInfo>> cb) { m_provider->listSessions(ListOptions{}, cb); });
        QVERIFY_RESULT(listed);
        QVERIFY(std::any_of(listed->begin(), listed->end(), [&](const SessionInfo &s) { return s.id == m_id; }));
        for (const SessionInfo &s : listed.value())
            QVERIFY(s.owned);

        auto health = await<HealthInfo>([&](Callback<HealthInfo> cb) { m_provider->health(cb); });
        QVERIFY_RESULT(health);

        // Another account's sandbox (same Daytona organisation) shows only with --all.
        auto other = makeProvider(QString::fromLatin1(kKey), QStringLiteral("other"));
        QVERIFY(other);
        CreateSpec theirs;
        theirs.name = QStringLiteral("theirs");
        auto made = await<SessionInfo>([&](Callback<SessionInfo> cb) { other->create(theirs, cb); }, 60000);
        QVERIFY_RESULT(made);
        const auto has = [](const QList<SessionInfo> &list, const QString &id) {
            return std::any_of(list.begin(), list.end(), [&](const SessionInfo &s) { return s.id == id; });
        };
        listed = await<QList<SessionInfo>>(
            [&](Callback<QList<SessionInfo>> cb) { m_provider->listSessions(ListOptions{}, cb); });
        QVERIFY_RESULT(listed);
        QVERIFY(has(listed.value(), m_id));
        QVERIFY(!has(listed.value(), made->id));
        ListOptions all;
        all.all = true;
        listed = await<QList<SessionInfo>>([&](Callback<QList<SessionInfo>> cb) { m_provider->listSessions(all, cb); });
        QVERIFY_RESULT(listed);
        QVERIFY(has(listed.value(), m_id));
        QVERIFY(has(listed.value(), made->id));
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { other->remove(made->id, cb); }));
    }

    void ptyShell()
    {
        QVERIFY(!m_id.isEmpty());
        auto t = openShell();
        QVERIFY2(waitUntil([&] { return t->started || t->ended(); }, 15000), "no start");
        QVERIFY2(t->started, qPrintable(t->error ? t->error->message : QStringLiteral("ended")));
        // A prompt (or any first byte) before anything is typed.
        QVERIFY(waitUntil([&] { return !t->out.isEmpty() || t->ended(); }, 10000));
        t->channel->write("echo hello-$((6*7))\n");
        QVERIFY2(t->waitFor("hello-42"), t->out.right(400).constData());

        // 64 KiB pasted into a raw terminal comes back exactly (head copies it to the terminal).
        QByteArray paste;
        auto *rng = QRandomGenerator::global();
        while (paste.size() < 65536) {
            for (int i = 0; i < 63 && paste.size() < 65535; ++i)
                paste.append(char('!' + rng->bounded(94)));
            paste.append('\n');
        }
        QCOMPARE(paste.size(), 65536);
        qsizetype mark = t->out.size();
        t->channel->write("stty raw -echo; echo RE\"\"ADY; head -c 65536; stty sane; echo DO\"\"NE\n");
        QVERIFY2(t->waitFor("READY", mark), t->out.right(400).constData());
        mark = t->out.indexOf("READY", mark) + 5;
        for (qsizetype at = 0; at < paste.size(); at += 4096)
            t->channel->write(paste.mid(at, 4096));
        QVERIFY2(t->waitFor("DONE", mark, 30000), t->out.right(400).constData());
        const QByteArray got = t->out.mid(mark, t->out.indexOf("DONE", mark) - mark);
        QVERIFY2(got.contains(paste), qPrintable(QStringLiteral("paste came back as %1 bytes").arg(got.size())));

        // Resize over HTTP, then the shell sees it.
        t->channel->resize(100, 40);
        bool sized = false;
        for (int i = 0; i < 20 && !sized && !t->ended(); ++i) {
            mark = t->out.size();
            t->channel->write("stty size\n");
            sized = t->waitFor("40 100", mark, 700);
        }
        QVERIFY2(sized, t->out.right(300).constData());

        // Leave it running for the reattach below: drop the connection, not the shell.
        mark = t->out.size();
        t->channel->write("export SANDBAR_MARK=kept; echo SET\"\"OK\n");
        QVERIFY(t->waitFor("SETOK", mark));
        t.reset();
    }

    void reattach()
    {
        auto ptys =
            await<QList<PtyEntry>>([&](Callback<QList<PtyEntry>> cb) { m_provider->terminals()->listPtys(m_id, cb); });
        QVERIFY_RESULT(ptys);
        QVERIFY(!ptys->isEmpty());
        for (const PtyEntry &e : ptys.value())
            if (!e.exited)
                m_ptyId = e.id;
        QVERIFY(!m_ptyId.isEmpty());
        PtyOptions o;
        o.attachId = m_ptyId;
        auto t = openShell(o);
        QVERIFY2(waitUntil([&] { return t->started || t->ended(); }, 15000), "no start");
        QVERIFY2(t->started, qPrintable(t->error ? t->error->message : QStringLiteral("ended")));
        t->channel->write("echo mark=$SANDBAR_MARK\n");
        QVERIFY2(t->waitFor("mark=kept"), t->out.right(300).constData());
        t->channel->write("exit 3\n");
        QVERIFY(waitUntil([&] { return t->ended(); }, 15000));
        QVERIFY2(t->exit.has_value(), qPrintable(t->error ? t->error->message : QString()));
        QCOMPARE(*t->exit, 3);
        QCOMPARE(t->channel->exitCode().value_or(-1), 3);
    }

    void hangup()
    {
        // close() ends the program (the toolbox deletes the PTY session), not just the socket.
        auto t = openShell();
        QVERIFY(waitUntil([&] { return t->started || t->ended(); }, 15000));
        QVERIFY(t->started);
        t->channel->close();
        QVERIFY(waitUntil([&] { return t->ended(); }, 15000));
        QVERIFY2(t->exit.has_value(), qPrintable(t->error ? t->error->message : QString()));
        auto ptys =
            await<QList<PtyEntry>>([&](Callback<QList<PtyEntry>> cb) { m_provider->terminals()->listPtys(m_id, cb); });
        QVERIFY_RESULT(ptys);
        for (const PtyEntry &e : ptys.value())
            QVERIFY2(e.exited, qPrintable(e.id));
    }

    void files()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString local = dir.filePath(QStringLiteral("big.bin"));
        {
            QFile f(local);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray chunk(1 << 20, Qt::Uninitialized);
            for (int i = 0; i < 64; ++i) {
                QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(chunk.data()), chunk.size() / 4);
                QCOMPARE(f.write(chunk), chunk.size());
            }
        }
        const QByteArray sum = test::sha256File(local);
        QElapsedTimer clock;
        clock.start();
        // await's event loop, not waitUntil's polling (which sleeps between rounds and would
        // measure the test's naps rather than the transfer).
        auto runJob = [&](std::unique_ptr<TransferJob> job) -> VoidResult {
            return await<void>(
                [&](Callback<void> cb) {
                    connect(job.get(), &TransferJob::finished, this, [cb](const VoidResult &r) { cb(r); });
                    job->start();
                },
                90000);
        };
        QVERIFY_RESULT(runJob(m_provider->files()->upload(m_id, local, QStringLiteral("/home/user/big.bin"))));
        const qint64 upMs = clock.restart();
        const QString back = dir.filePath(QStringLiteral("back.bin"));
        QVERIFY_RESULT(runJob(m_provider->files()->download(m_id, QStringLiteral("/home/user/big.bin"), back)));
        qInfo("64 MiB: upload %lld ms, download %lld ms", upMs, clock.elapsed());
        QCOMPARE(QFileInfo(back).size(), qint64(64) << 20);
        QCOMPARE(test::sha256File(back), sum);

        // A folder, listed, then deleted with what is in it.
        QVERIFY_RESULT(await<void>(
            [&](Callback<void> cb) { m_provider->files()->makeDir(m_id, QStringLiteral("/home/user/d/e"), cb); }));
        auto list = await<QList<FileEntry>>([&](Callback<QList<FileEntry>> cb) {
            m_provider->files()->listFiles(m_id, QStringLiteral("/home/user"), cb);
        });
        QVERIFY_RESULT(list);
        bool sawDir = false, sawFile = false;
        for (const FileEntry &e : list.value()) {
            sawDir |= e.name == QLatin1String("d") && e.isDir;
            sawFile |= e.name == QLatin1String("big.bin") && e.size == (qint64(64) << 20);
        }
        QVERIFY(sawDir && sawFile);
        QVERIFY_RESULT(await<void>(
            [&](Callback<void> cb) { m_provider->files()->removePath(m_id, QStringLiteral("/home/user/d"), cb); }));
        auto gone = await<PathStat>(
            [&](Callback<PathStat> cb) { m_provider->files()->statPath(m_id, QStringLiteral("/home/user/d"), cb); });
        QVERIFY_RESULT(gone);
        QVERIFY(!gone->exists);
        auto file = await<PathStat>([&](Callback<PathStat> cb) {
            m_provider->files()->statPath(m_id, QStringLiteral("/home/user/big.bin"), cb);
        });
        QVERIFY_RESULT(file);
        QVERIFY(file->exists && !file->isDir);
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) {
            m_provider->files()->removePath(m_id, QStringLiteral("/home/user/big.bin"), cb);
        }));
    }

    void exec()
    {
        ExecRequest r;
        r.argv = {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo \"out $0\"; exit 7"),
                  QStringLiteral("it's")};
        auto job = m_provider->commands()->exec(m_id, r);
        QByteArray out;
        std::optional<Result<int>> end;
        connect(job.get(), &ExecJob::stdoutData, this, [&](const QByteArray &b) { out += b; });
        connect(job.get(), &ExecJob::finished, this, [&](const Result<int> &code) { end = code; });
        job->start();
        QVERIFY(waitUntil([&] { return end.has_value(); }, 20000));
        QVERIFY_RESULT(*end);
        QCOMPARE(end->value(), 7);
        QVERIFY2(out.contains("out it's"), out.constData());
    }

    // process/execute cannot be stopped: a cancelled exec is killed by a second execute that
    // finds its tagged processes (the contract server's host runs them on this machine).
    void cancelledExecIsKilled()
    {
        const QByteArray marker = "sleep 4" + QByteArray::number(QCoreApplication::applicationPid() % 1000 + 1000);
        ExecRequest r;
        r.argv = {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("exec ") + QString::fromLatin1(marker)};
        auto job = m_provider->commands()->exec(m_id, r);
        std::optional<Result<int>> end;
        connect(job.get(), &ExecJob::finished, this, [&](const Result<int> &code) { end = code; });
        job->start();
        QVERIFY(waitUntil([&] { return test::processRunning(marker); }, 20000));
        job->cancel();
        QVERIFY(waitUntil([&] { return end.has_value(); }, 30000));
        QCOMPARE(end->code(), ErrorCode::Cancelled);
        QVERIFY2(end->message().contains(QLatin1String("of the command were ended")), qPrintable(end->message()));
        QVERIFY2(waitUntil([&] { return !test::processRunning(marker); }, 20000), marker.constData());
    }

    void stats()
    {
        auto s = await<StatsSample>([&](Callback<StatsSample> cb) { m_provider->statistics()->stats(m_id, cb); });
        QVERIFY_RESULT(s);
        QVERIFY(s->cpuPercent || s->memoryUsedBytes || s->filesystemUsedBytes);
        QVERIFY(!s->networkRxBytes); // never by exec outside the Stats tab's stream

        auto stream = m_provider->statistics()->streamStats(m_id);
        std::optional<StatsSample> sample;
        connect(stream.get(), &StatsStream::sample, this, [&](const StatsSample &x) { sample = x; });
        stream->start();
        QVERIFY(waitUntil([&] { return sample.has_value(); }, 15000));
        stream->stop();
        QVERIFY(sample->networkRxBytes.has_value());
    }

    void stopStart()
    {
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { m_provider->stop(m_id, cb); }, 60000));
        QVERIFY(waitUntil(
            [&] {
                auto i = info(m_id);
                return i && i->state == SessionState::Paused;
            },
            30000));
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { m_provider->pausing()->resume(m_id, cb); }, 60000));
        QVERIFY(waitUntil(
            [&] {
                auto i = info(m_id);
                return i && i->state == SessionState::Running;
            },
            30000));
        ExecRequest r;
        r.argv = {QStringLiteral("true")};
        auto job = m_provider->commands()->exec(m_id, r);
        std::optional<Result<int>> end;
        connect(job.get(), &ExecJob::finished, this, [&](const Result<int> &code) { end = code; });
        job->start();
        QVERIFY(waitUntil([&] { return end.has_value(); }, 20000));
        QVERIFY_RESULT(*end);
    }

    // Archive stops a running sandbox first (Daytona archives stopped ones only); resume
    // restores it with its files.
    void archiveAndRestore()
    {
        QVERIFY(m_provider->capabilities().testFlag(Capability::Archive));
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { m_provider->archiving()->archive(m_id, cb); }, 60000));
        auto archived = info(m_id);
        QVERIFY_RESULT(archived);
        QCOMPARE(archived->state, SessionState::Paused);
        QVERIFY2(archived->statusText.startsWith(QLatin1String("Archived")), qPrintable(archived->statusText));
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { m_provider->pausing()->resume(m_id, cb); }, 60000));
        QVERIFY(waitUntil(
            [&] {
                auto i = info(m_id);
                return i && i->state == SessionState::Running;
            },
            30000));
    }

    void ttlEnforced()
    {
        CreateSpec spec;
        spec.name = QStringLiteral("short");
        spec.ttlSeconds = 3;
        auto created = await<SessionInfo>([&](Callback<SessionInfo> cb) { m_provider->create(spec, cb); }, 60000);
        QVERIFY_RESULT(created);
        QCOMPARE(created->ttlSeconds, 3);
        QVERIFY(created->expiresAt.isValid());
        const QString id = created->id;
        // Nobody asks: the provider's own timer stops it at the deadline.
        std::optional<SessionInfo> changed;
        connect(m_provider.get(), &Provider::sessionChanged, this, [&](const SessionInfo &s) {
            if (s.id == id && s.state == SessionState::Paused)
                changed = s;
        });
        QVERIFY(waitUntil([&] { return changed.has_value(); }, 20000));
        QVERIFY(QDateTime::currentDateTimeUtc() >= created->expiresAt.addMSecs(-1100));
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { m_provider->remove(id, cb); }));
    }

    void setTimeoutLater()
    {
        CreateSpec spec;
        spec.name = QStringLiteral("later");
        auto created = await<SessionInfo>([&](Callback<SessionInfo> cb) { m_provider->create(spec, cb); }, 60000);
        QVERIFY_RESULT(created);
        QCOMPARE(created->ttlSeconds, 0);
        const QString id = created->id;
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { m_provider->timeLimit()->setTimeout(id, 2, cb); }));
        auto now = info(id);
        QVERIFY_RESULT(now);
        QVERIFY(now->ttlSeconds >= 2);
        QVERIFY(now->expiresAt.isValid());
        QVERIFY(waitUntil(
            [&] {
                auto i = info(id);
                return i && i->state == SessionState::Paused;
            },
            20000));
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { m_provider->remove(id, cb); }));
    }

    void faultRetryAfter()
    {
        QVERIFY(m_server->addFault(QStringLiteral("GET"), QStringLiteral("/api/sandbox/") + m_id, QStringLiteral("429"),
                                   1));
        QElapsedTimer t;
        t.start();
        QVERIFY_RESULT(info(m_id));
        QVERIFY2(t.elapsed() >= 900, "Retry-After: 1 was not waited for");
    }

    void faultServerError()
    {
        QVERIFY(m_server->addFault(QStringLiteral("GET"), QStringLiteral("/api/sandbox/") + m_id, QStringLiteral("500"),
                                   1));
        QVERIFY_RESULT(info(m_id));
    }

    void faultLostCreateReply()
    {
        const QJsonObject before = m_server->state();
        QVERIFY(!before.isEmpty());
        QVERIFY(m_server->addFault(QStringLiteral("POST"), QStringLiteral("/api/sandbox"), QStringLiteral("lost-reply"),
                                   1));
        CreateSpec spec;
        spec.name = QStringLiteral("once");
        auto created = await<SessionInfo>([&](Callback<SessionInfo> cb) { m_provider->create(spec, cb); }, 60000);
        QVERIFY_RESULT(created);
        const QJsonObject after = m_server->state();
        if (sandboxCount(after) != sandboxCount(before) + 1)
            qWarning("%s\n%s", QJsonDocument(before).toJson().constData(), QJsonDocument(after).toJson().constData());
        QCOMPARE(sandboxCount(after), sandboxCount(before) + 1);
        QCOMPARE(after.value(QLatin1String("sandboxesCreated")).toInt(),
                 before.value(QLatin1String("sandboxesCreated")).toInt() + 1);
        // Found by its token label, not made again.
        const auto requests = [](const QJsonObject &st, const char *route) {
            return st.value(QLatin1String("requests")).toObject().value(QLatin1String(route)).toInt();
        };
        QCOMPARE(requests(after, "POST /api/sandbox"), requests(before, "POST /api/sandbox") + 1);
        QVERIFY(requests(after, "GET /api/sandbox") > requests(before, "GET /api/sandbox"));
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { m_provider->remove(created->id, cb); }));
    }

    void faultWebSocketClosed()
    {
        QVERIFY(m_server->addFault(QStringLiteral("GET"), QStringLiteral("/toolbox/%1/process/pty/*").arg(m_id),
                                   QStringLiteral("ws-close:500"), 1));
        auto t = openShell();
        QVERIFY(waitUntil([&] { return t->ended(); }, 15000));
        QVERIFY(t->error.has_value());
        QCOMPARE(t->error->code, ErrorCode::Unavailable);
        QVERIFY2(t->error->message.contains(QLatin1String("closed before the shell ended")),
                 qPrintable(t->error->message));
        m_server->clearFaults();
    }

    void unauthorized()
    {
        auto bad = makeProvider(QStringLiteral("sbtest-secret-dtnwrong-1"));
        QVERIFY(bad);
        auto r = await<SessionInfo>([&](Callback<SessionInfo> cb) { bad->info(m_id, cb); });
        QVERIFY(!r.ok());
        QCOMPARE(r.code(), ErrorCode::Unauthorized);
        QVERIFY(!r.message().contains(QLatin1String("sbtest-secret-dtnwrong-1")));
    }

    void tlsRefusedThenAcceptedWithCaFile()
    {
        const QString tls = qEnvironmentVariable("SANDBAR_TLS_DATA");
        QVERIFY2(QFileInfo::exists(tls + QStringLiteral("/ca.pem")), qPrintable(tls));
        contract::ServerProcess server(QStringLiteral("daytona"),
                                       {QStringLiteral("--tls"), tls + QStringLiteral("/server.pem"),
                                        tls + QStringLiteral("/server-key.pem"), QStringLiteral("--api-key"),
                                        QString::fromLatin1(kKey)});
        QVERIFY2(server.start(), qPrintable(server.error()));
        QVERIFY(server.baseUrl().startsWith(QLatin1String("https://")));
        const QString key = QString::fromLatin1(kKey);
        auto plain = makeProvider(key, QStringLiteral("contract"), server.baseUrl());
        QVERIFY(plain);
        auto r = await<HealthInfo>([&](Callback<HealthInfo> cb) { plain->health(cb); });
        QVERIFY(!r.ok());
        QVERIFY2(r.message().contains(QLatin1String("certificate")), qPrintable(r.message()));

        auto trusted = makeProvider(key, QStringLiteral("contract"), server.baseUrl(), tls + QStringLiteral("/ca.pem"));
        QVERIFY(trusted);
        QVERIFY_RESULT(await<HealthInfo>([&](Callback<HealthInfo> cb) { trusted->health(cb); }));
        auto created = await<SessionInfo>([&](Callback<SessionInfo> cb) { trusted->create(CreateSpec{}, cb); }, 60000);
        QVERIFY_RESULT(created);
        // The terminal's WebSocket (wss) uses the account's CA too.
        Term t(trusted->terminals()->openPty(created->id, PtyOptions{}), this);
        QVERIFY(waitUntil([&] { return t.started || t.ended(); }, 15000));
        QVERIFY2(t.started, qPrintable(t.error ? t.error->message : QStringLiteral("ended")));
        t.channel->write("echo tls-$((40+2))\n");
        QVERIFY2(t.waitFor("tls-42"), t.out.right(300).constData());
        t.channel->write("exit\n");
        QVERIFY(waitUntil([&] { return t.ended(); }, 15000));
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { trusted->remove(created->id, cb); }));
    }

    void removeIt()
    {
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { m_provider->remove(m_id, cb); }, 60000));
        auto r = info(m_id);
        QVERIFY(!r.ok());
        QCOMPARE(r.code(), ErrorCode::NotFound);
    }
};

QTEST_GUILESS_MAIN(TestDaytonaContract)
#include "tst_daytona_contract.moc"
