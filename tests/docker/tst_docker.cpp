// The Docker provider against a real engine (SANDBAR_TEST_DOCKER_HOST, SANDBAR_TEST_IMAGE).
#include "CopyTable.h"
#include "EngineKit.h"
#include "providers/docker/DockerFactory.h"

#include <QDir>
#include <QFile>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTemporaryDir>

using namespace sandbar;
using namespace sandbar::test;

namespace {
const QString kTestLabel = QStringLiteral("dev.sandbar.test");
const QStringList kAwkward{
    QStringLiteral("with space.txt"),   QStringLiteral("-leading-dash"),
    QString::fromUtf8("ünïcødé 😀.txt"), QStringLiteral(".hidden"),
    QStringLiteral("new\nline"),        QString(110, QLatin1Char('L')) + QStringLiteral(".long")};
} // namespace

class TestDocker : public QObject
{
    Q_OBJECT
    std::unique_ptr<Provider> m_p;
    QString m_image;

    Result<QString> createSession(CreateSpec spec = {})
    {
        spec.image = spec.image.isEmpty() ? m_image : spec.image;
        spec.labels.insert(kTestLabel, QStringLiteral("tst_docker"));
        auto r = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, 60000);
        if (!r)
            return r.error();
        return r->id;
    }
    void removeSession(const QString &id)
    {
        (void)await<void>([&](auto cb) { m_p->remove(id, cb); });
    }
    SessionInfo infoOf(const QString &id)
    {
        auto r = await<SessionInfo>([&](auto cb) { m_p->info(id, cb); });
        return r ? *r : SessionInfo{};
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString host = dockerHost();
        SANDBAR_REQUIRE(!host.isEmpty(),
                        QStringLiteral("SANDBAR_TEST_DOCKER_HOST is not set (scripts/test-services.sh start)"));
        m_image = testImage();
        SANDBAR_REQUIRE(!m_image.isEmpty(), QStringLiteral("SANDBAR_TEST_IMAGE is not set"));
        m_p = makeEngineProvider(docker::Flavour::Docker, host);
        QVERIFY(m_p);
        auto h = await<HealthInfo>([&](auto cb) { m_p->health(cb); });
        SANDBAR_REQUIRE(
            h.ok(),
            QStringLiteral("the Docker engine at %1 is not reachable: %2").arg(host, h ? QString() : h.message()));
        QCOMPARE(h->serverName, QStringLiteral("Docker Engine"));
        QVERIFY(!h->apiVersion.isEmpty());
    }

    void cleanupTestCase()
    {
        if (!m_p)
            return;
        auto list = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions({}, cb); });
        if (list) {
            for (const auto &s : *list) {
                if (s.labels.contains(kTestLabel))
                    removeSession(s.id);
            }
        }
    }

    void detectDefault()
    {
        const QByteArray saved = qgetenv("DOCKER_HOST");
        qputenv("DOCKER_HOST", dockerHost().toUtf8());
        const auto found = docker::DockerFactory(docker::Flavour::Docker).detectDefault();
        // A Podman account must not take a Docker engine for its own.
        const auto podman = docker::DockerFactory(docker::Flavour::Podman).detectDefault();
        saved.isNull() ? qunsetenv("DOCKER_HOST") : qputenv("DOCKER_HOST", saved);
        QVERIFY(found.has_value());
        QCOMPARE(found->value(QStringLiteral("endpoint")).toString(), dockerHost());
        QVERIFY(!podman || podman->value(QStringLiteral("endpoint")).toString() != dockerHost());
    }

    void badEndpoints()
    {
        QTemporaryDir dir;
        // wrong socket path
        auto wrong = makeEngineProvider(docker::Flavour::Docker,
                                        QStringLiteral("unix://") + dir.filePath(QStringLiteral("none.sock")));
        auto r = await<HealthInfo>([&](auto cb) { wrong->health(cb); });
        QVERIFY(!r);
        QCOMPARE(r.code(), ErrorCode::Unavailable);
        QVERIFY2(r.message().contains(QLatin1String("none.sock")), qPrintable(r.message()));
        // a plain file where the socket should be
        QFile f(dir.filePath(QStringLiteral("file.sock")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        auto plain = makeEngineProvider(docker::Flavour::Docker, QStringLiteral("unix://") + f.fileName());
        auto r2 = await<SessionInfo>([&](auto cb) { plain->info(QStringLiteral("x"), cb); });
        QVERIFY(!r2);
        QVERIFY(!r2.message().isEmpty());
        // an engine that is too old, and one that is not an engine at all
        for (const QByteArray &reply :
             {QByteArray("HTTP/1.1 200 OK\r\nApi-Version: 1.38\r\nContent-Length: 2\r\n\r\nOK"),
              QByteArray("SSH-2.0-OpenSSH_9.2\r\n")}) {
            QLocalServer server;
            QVERIFY(server.listen(dir.filePath(QStringLiteral("fake.sock"))));
            connect(&server, &QLocalServer::newConnection, &server, [&server, reply] {
                QLocalSocket *s = server.nextPendingConnection();
                connect(s, &QLocalSocket::readyRead, s, [s, reply] {
                    s->readAll();
                    s->write(reply);
                    s->disconnectFromServer();
                });
            });
            auto old = makeEngineProvider(docker::Flavour::Docker, QStringLiteral("unix://") + server.fullServerName());
            auto r3 = await<HealthInfo>([&](auto cb) { old->health(cb); });
            QVERIFY(!r3);
            if (reply.contains("1.38")) {
                QCOMPARE(r3.code(), ErrorCode::Unsupported);
                QCOMPARE(r3.message(), QStringLiteral("engine speaks API 1.38; Sandbar needs 1.41 or newer"));
            }
            server.close();
        }
    }

    void missingImage()
    {
        CreateSpec spec;
        spec.image = QStringLiteral("sandbar-test/does-not-exist:1");
        auto r = createSession(spec);
        QVERIFY(!r);
        QCOMPARE(r.code(), ErrorCode::NotFound);
        QVERIFY2(r.message().contains(QLatin1String("'sandbar-test/does-not-exist:1' is not on the engine")),
                 qPrintable(r.message()));
        QVERIFY(r.message().contains(QLatin1String("docker pull sandbar-test/does-not-exist:1")));
    }

    void lifecycle()
    {
        CreateSpec spec;
        spec.name = QStringLiteral("life box");
        spec.cpus = 0.5;
        spec.memoryBytes = 64 * 1024 * 1024;
        spec.pidsLimit = 64;
        spec.env = QStringList{QStringLiteral("FOO=bar baz")};
        auto id = createSession(spec);
        QVERIFY_RESULT(id);
        SessionInfo s = infoOf(*id);
        QCOMPARE(s.state, SessionState::Running);
        QCOMPARE(s.name, QStringLiteral("life box"));
        QVERIFY(s.owned);
        QCOMPARE(*s.cpus, 0.5);
        QCOMPARE(*s.memoryBytes, 64 * 1024 * 1024);
        QVERIFY(!s.network);
        auto list = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions({}, cb); });
        QVERIFY_RESULT(list);
        QVERIFY(std::any_of(list->begin(), list->end(), [&](const SessionInfo &x) { return x.id == *id; }));
        QVERIFY(std::all_of(list->begin(), list->end(), [](const SessionInfo &x) { return x.owned; }));
        ListOptions all;
        all.all = true;
        auto everything = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions(all, cb); });
        QVERIFY_RESULT(everything);
        QVERIFY(everything->size() >= list->size());
        // hardening as created
        auto who = runIn(m_p.get(), *id,
                         {QStringLiteral("sh"), QStringLiteral("-c"),
                          QStringLiteral("id -u; grep CapEff /proc/self/status; echo $FOO; pwd")});
        QVERIFY_RESULT(*who.code);
        QCOMPARE(QString::fromUtf8(who.out).split(QLatin1Char('\n')).value(0), QStringLiteral("1000"));
        QVERIFY(who.out.contains("CapEff:\t0000000000000000"));
        QVERIFY(who.out.contains("bar baz\n/workspace"));

        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->pausing()->pause(*id, cb); }));
        QCOMPARE(infoOf(*id).state, SessionState::Paused);
        auto paused = runIn(m_p.get(), *id, {QStringLiteral("true")});
        QVERIFY(paused.code && !*paused.code);
        QCOMPARE(paused.code->code(), ErrorCode::Conflict);
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->pausing()->resume(*id, cb); }));
        QCOMPARE(infoOf(*id).state, SessionState::Running);

        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->stop(*id, cb); }));
        s = infoOf(*id);
        QCOMPARE(s.state, SessionState::Stopped);
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->stop(*id, cb); })); // 304: already stopped
        auto k = await<void>([&](auto cb) { m_p->kill(*id, cb); });
        QVERIFY(!k);
        QCOMPARE(k.code(), ErrorCode::Conflict);
        QVERIFY2(k.message().contains(QLatin1String("not running")), qPrintable(k.message()));
        auto stopped = runIn(m_p.get(), *id, {QStringLiteral("true")});
        QCOMPARE(stopped.code->code(), ErrorCode::Conflict);
        QVERIFY2(stopped.code->message().contains(QLatin1String("not running")), qPrintable(stopped.code->message()));

        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->remove(*id, cb); }));
        auto gone = await<SessionInfo>([&](auto cb) { m_p->info(*id, cb); });
        QCOMPARE(gone.code(), ErrorCode::NotFound);
        QVERIFY2(gone.message().contains(QLatin1String("no longer exists")), qPrintable(gone.message()));
    }

    // A working folder the image lacks is made by the engine (Docker: as root's); the session's
    // user can write in it all the same, and a folder of the image's with things in it (/etc)
    // keeps its owner.
    void workingFolderTheImageLacksIsTheUsers()
    {
        CreateSpec spec;
        spec.options.insert(QStringLiteral("workdir"), QStringLiteral("/srv/sandbar/work"));
        auto id = createSession(spec);
        QVERIFY_RESULT(id);
        auto r = runIn(m_p.get(), *id,
                       {QStringLiteral("sh"), QStringLiteral("-c"),
                        QStringLiteral("pwd; stat -c '%u %a' . ..; touch made && echo wrote")});
        QVERIFY_RESULT(*r.code);
        QCOMPARE(QString::fromUtf8(r.out), QStringLiteral("/srv/sandbar/work\n1000 755\n0 755\nwrote\n"));
        removeSession(*id);
        spec.options.insert(QStringLiteral("workdir"), QStringLiteral("/etc"));
        id = createSession(spec);
        QVERIFY_RESULT(id);
        r = runIn(m_p.get(), *id,
                  {QStringLiteral("stat"), QStringLiteral("-c"), QStringLiteral("%u"), QStringLiteral(".")});
        QVERIFY_RESULT(*r.code);
        QCOMPARE(r.out, QByteArray("0\n"));
        removeSession(*id);
    }

    void execAndKill()
    {
        auto id = createSession();
        QVERIFY_RESULT(id);
        auto r = runIn(m_p.get(), *id,
                       {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo out; echo err >&2; exit 3")});
        QVERIFY_RESULT(*r.code);
        QCOMPARE(r.code->value(), 3);
        QCOMPARE(r.out, QByteArray("out\n"));
        QCOMPARE(r.err, QByteArray("err\n"));
        QByteArray input(1024 * 1024 + 3, Qt::Uninitialized);
        for (qsizetype i = 0; i < input.size(); ++i)
            input[i] = char(i * 7);
        auto cat = runIn(m_p.get(), *id, {QStringLiteral("cat")}, input);
        QVERIFY_RESULT(*cat.code);
        QCOMPARE(cat.out.size(), input.size());
        QVERIFY(cat.out == input);
        auto missing = runIn(m_p.get(), *id, {QStringLiteral("/no/such/binary")});
        QVERIFY(missing.code.has_value()); // an error or a non-zero code, never a hang
        if (missing.code->ok())
            QVERIFY(missing.code->value() != 0);
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->kill(*id, cb); }));
        QVERIFY(waitUntil([&] { return infoOf(*id).state == SessionState::Stopped; }, 10000));
        removeSession(*id);
    }

    void pty()
    {
        auto id = createSession();
        QVERIFY_RESULT(id);
        PtyOptions o;
        o.cols = 90;
        o.rows = 20;
        auto pty = m_p->terminals()->openPty(*id, o);
        PtyProbe probe;
        probe.attach(pty.get());
        pty->start();
        QVERIFY(waitUntil([&] { return probe.started || probe.error; }, 15000));
        QVERIFY2(!probe.error, qPrintable(probe.error ? probe.error->message : QString()));
        pty->write("echo hi-$((6*7))\n");
        QVERIFY2(probe.waitFor("hi-42"), probe.output.constData());
        pty->resize(101, 33);
        // The resize reaches the engine on its own request: ask again until the new size shows.
        QVERIFY2(waitUntil(
                     [&] {
                         pty->write("stty size\n");
                         return probe.waitFor("33 101", 500);
                     },
                     30000),
                 probe.output.constData());
        pty->write("exit 5\n");
        QVERIFY(waitUntil([&] { return probe.finishedCode.has_value() || probe.error; }, 15000));
        QCOMPARE(probe.finishedCode.value_or(-1), 5);
        QCOMPARE(pty->exitCode().value_or(-1), 5);
        QVERIFY(!pty->isOpen());
        // close() on a live shell ends it
        auto pty2 = m_p->terminals()->openPty(*id, {});
        PtyProbe p2;
        p2.attach(pty2.get());
        pty2->start();
        QVERIFY(waitUntil([&] { return p2.started; }, 15000));
        pty2->close();
        QVERIFY(waitUntil([&] { return p2.finishedCode.has_value() || p2.error.has_value(); }, 15000));
        removeSession(*id);
        // a PTY into a session that is gone
        auto pty3 = m_p->terminals()->openPty(*id, {});
        PtyProbe p3;
        p3.attach(pty3.get());
        pty3->start();
        QVERIFY(waitUntil([&] { return p3.error.has_value(); }, 15000));
        QCOMPARE(p3.error->code, ErrorCode::NotFound);
    }

    void filesAndTmpfs()
    {
        CreateSpec spec;
        spec.options.insert(QStringLiteral("tmpfs"), QStringLiteral("/scratch:rw,exec,size=300m,mode=1777"));
        auto id = createSession(spec);
        QVERIFY_RESULT(id);
        QTemporaryDir local;
        // 100 MiB, sparse: fast to make, still 100 MiB to stream
        QFile big(local.filePath(QStringLiteral("big.bin")));
        QVERIFY(big.open(QIODevice::WriteOnly));
        QVERIFY(big.resize(100 * 1024 * 1024));
        big.close();
        qint64 done = 0;
        QVERIFY_RESULT(
            runTransfer(m_p->files()->upload(*id, big.fileName(), QStringLiteral("/workspace")).get(), 60000, &done));
        QCOMPARE(done, 100 * 1024 * 1024);
        auto size = runIn(m_p.get(), *id,
                          {QStringLiteral("stat"), QStringLiteral("-c"), QStringLiteral("%s %u"),
                           QStringLiteral("/workspace/big.bin")});
        QCOMPARE(size.out.trimmed(), QByteArray("104857600 1000"));

        const QString tree = local.filePath(QStringLiteral("awk dir"));
        QDir().mkpath(tree);
        for (const QString &n : kAwkward) {
            QFile f(tree + QLatin1Char('/') + n);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(n.toUtf8());
        }
        for (const QString &target : {QStringLiteral("/workspace"), QStringLiteral("/scratch")}) {
            QVERIFY_RESULT(runTransfer(m_p->files()->upload(*id, tree, target).get()));
            auto list = await<QList<FileEntry>>(
                [&](auto cb) { m_p->files()->listFiles(*id, target + QStringLiteral("/awk dir"), cb); });
            QVERIFY_RESULT(list);
            QStringList names;
            for (const auto &e : *list)
                names << e.name;
            names.sort();
            QStringList expected = kAwkward;
            expected.sort();
            QCOMPARE(names, expected);
            // the file is visible inside (not written beneath the tmpfs)
            auto cat =
                runIn(m_p.get(), *id,
                      {QStringLiteral("cat"), QStringLiteral("--"), target + QStringLiteral("/awk dir/-leading-dash")});
            QCOMPARE(cat.out, QByteArray("-leading-dash"));
            QTemporaryDir back;
            QVERIFY_RESULT(
                runTransfer(m_p->files()->download(*id, target + QStringLiteral("/awk dir"), back.path()).get()));
            for (const QString &n : kAwkward) {
                QFile f(back.filePath(QStringLiteral("awk dir/") + n));
                QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(n));
                QCOMPARE(f.readAll(), n.toUtf8());
            }
        }
        auto missing =
            await<QList<FileEntry>>([&](auto cb) { m_p->files()->listFiles(*id, QStringLiteral("/nope"), cb); });
        QCOMPARE(missing.code(), ErrorCode::NotFound);
        QTemporaryDir back;
        auto dl = runTransfer(m_p->files()->download(*id, QStringLiteral("/nope"), back.path()).get());
        QCOMPARE(dl.code(), ErrorCode::NotFound);
        // A trailing '/' demands a folder (without it, /nope would name the copy).
        auto up = runTransfer(m_p->files()->upload(*id, big.fileName(), QStringLiteral("/nope/")).get());
        QVERIFY(!up);
        removeSession(*id);
    }

    void mounts()
    {
        QTemporaryDir rw, ro;
        QFile::setPermissions(rw.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                             QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther);
        QFile seed(ro.filePath(QStringLiteral("seed.txt")));
        QVERIFY(seed.open(QIODevice::WriteOnly));
        seed.write("seed");
        seed.close();
        QFile::setPermissions(ro.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner | QFileDevice::ReadOther |
                                             QFileDevice::ExeOther);
        CreateSpec spec;
        spec.mounts = {{rw.path(), QStringLiteral("/rw"), false}, {ro.path(), QStringLiteral("/ro"), true}};
        auto id = createSession(spec);
        QVERIFY_RESULT(id);
        auto s = infoOf(*id);
        QCOMPARE(s.mounts.size(), 2);
        auto w = runIn(
            m_p.get(), *id,
            {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo inside > /rw/made && cat /ro/seed.txt")});
        QCOMPARE(w.code->value(), 0);
        QCOMPARE(w.out, QByteArray("seed"));
        QFile made(rw.filePath(QStringLiteral("made")));
        QVERIFY(made.open(QIODevice::ReadOnly));
        QCOMPARE(made.readAll(), QByteArray("inside\n"));
        auto denied =
            runIn(m_p.get(), *id, {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo x > /ro/nope")});
        QVERIFY(denied.code->value() != 0);
        auto up = runTransfer(m_p->files()->upload(*id, seed.fileName(), QStringLiteral("/ro")).get());
        QVERIFY(!up);
        QVERIFY2(up.code() == ErrorCode::InvalidArgument || up.code() == ErrorCode::Unauthorized,
                 qPrintable(up.message()));
        QVERIFY2(up.message().contains(QLatin1String("read-only")), qPrintable(up.message()));
        QVERIFY_RESULT(runTransfer(m_p->files()->upload(*id, seed.fileName(), QStringLiteral("/rw")).get()));
        QVERIFY(QFile::exists(rw.filePath(QStringLiteral("seed.txt"))));
        removeSession(*id);
    }

    void stats()
    {
        auto id = createSession();
        QVERIFY_RESULT(id);
        ExecRequest busy;
        busy.argv = QStringList{QStringLiteral("timeout"), QStringLiteral("60"), QStringLiteral("sh"),
                                QStringLiteral("-c"), QStringLiteral("while :; do :; done")};
        auto job = m_p->commands()->exec(*id, busy);
        job->start();
        auto first = await<StatsSample>([&](auto cb) { m_p->statistics()->stats(*id, cb); });
        QVERIFY_RESULT(first);
        // The figure needs two engine readings a moment apart and the loop to be running:
        // asked again until it shows the load, within a deadline a busy machine still meets.
        Result<StatsSample> second = first;
        QVERIFY(waitUntil(
            [&] {
                second = await<StatsSample>([&](auto cb) { m_p->statistics()->stats(*id, cb); });
                return !second.ok() || second->cpuPercent.value_or(0) > 5;
            },
            60000));
        QVERIFY_RESULT(second);
        QVERIFY(second->cpuPercent.has_value());
        QVERIFY2(*second->cpuPercent > 5 && *second->cpuPercent < 400,
                 qPrintable(QString::number(*second->cpuPercent)));
        QVERIFY(*second->memoryUsedBytes > 0);
        QVERIFY(*second->memoryUsedBytes < *second->memoryLimitBytes);
        QCOMPARE(*second->networkRxBytes, 0);
        QVERIFY(*second->pids >= 2);

        auto stream = m_p->statistics()->streamStats(*id);
        QList<StatsSample> samples;
        std::optional<Error> err;
        connect(stream.get(), &StatsStream::sample, this, [&](const StatsSample &s) { samples << s; });
        connect(stream.get(), &StatsStream::errorOccurred, this, [&](const Error &e) { err = e; });
        stream->start();
        QVERIFY(waitUntil([&] { return samples.size() >= 2 || err; }, 10000));
        QVERIFY(!err);
        QVERIFY(samples.last().cpuPercent.has_value());
        stream->stop();
        const qsizetype sampled = samples.size();
        // Removing the container ends a live stream at once (an error): the NotFound answer that
        // comes after the removal is the marker by which a stream still running would have spoken.
        removeSession(*id);
        auto gone = await<StatsSample>([&](auto cb) { m_p->statistics()->stats(*id, cb); });
        QCOMPARE(gone.code(), ErrorCode::NotFound);
        QCoreApplication::processEvents();
        QVERIFY2(!err, qPrintable(err ? err->message : QString())); // stopped streams stay quiet
        QCOMPARE(samples.size(), sampled);
    }

    // What the first-start panel and the account dialog offer: the engine's socket named by
    // DOCKER_HOST answers as Docker, so the Docker factory offers it and Podman's does not.
    void discoveryOffersTheEngine()
    {
        const QByteArray old = qgetenv("DOCKER_HOST");
        qputenv("DOCKER_HOST", dockerHost().toUtf8());
        const QList<AccountChoice> asDocker = docker::makeDockerFactory()->discoverAccounts();
        const QList<AccountChoice> asPodman = docker::makePodmanFactory()->discoverAccounts();
        if (old.isNull())
            qunsetenv("DOCKER_HOST");
        else
            qputenv("DOCKER_HOST", old);
        const auto endpoints = [](const QList<AccountChoice> &found) {
            QStringList out;
            for (const AccountChoice &c : found)
                out << c.provider + QLatin1Char(' ') + c.settings.value(QStringLiteral("endpoint")).toString();
            return out;
        };
        QVERIFY2(endpoints(asDocker).contains(QStringLiteral("docker ") + dockerHost()),
                 qPrintable(endpoints(asDocker).join(QLatin1Char('\n'))));
        for (const QString &e : endpoints(asPodman))
            QVERIFY2(!e.endsWith(dockerHost()), qPrintable(e));
    }

    void ttlEndsContainerByItself()
    {
        CreateSpec spec;
        spec.ttlSeconds = 2;
        auto a = createSession(spec);
        QVERIFY_RESULT(a);
        auto b = createSession();
        QVERIFY_RESULT(b);
        // c starts with a limit that is lifted at once; b gets a limit that ends after c's first
        // one would have, so once b has ended by its limit, c's first one has passed too: b is
        // the marker after which c must still run. c's first limit is 10 s, which leaves a busy
        // machine time to lift it before it ends (2 s did not, in CI).
        CreateSpec lifted;
        lifted.ttlSeconds = 10;
        auto c = createSession(lifted);
        QVERIFY_RESULT(c);
        const QDateTime cFirstDeadline = infoOf(*c).expiresAt;
        QVERIFY(cFirstDeadline.isValid());
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->timeLimit()->setTimeout(*c, 0, cb); }));
        QVERIFY(!infoOf(*c).expiresAt.isValid());
        SessionInfo ia = infoOf(*a);
        QCOMPARE(ia.ttlSeconds, 2);
        QVERIFY(ia.expiresAt.isValid());
        const qint64 bTtl = qMax<qint64>(2, QDateTime::currentDateTimeUtc().secsTo(cFirstDeadline) + 2);
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->timeLimit()->setTimeout(*b, bTtl, cb); }));
        QVERIFY(infoOf(*b).expiresAt > cFirstDeadline);
        // From here on only the engine is asked (inspect); no Sandbar code runs in the sessions.
        QVERIFY(waitUntil([&] { return infoOf(*a).state == SessionState::Stopped; }, 60000));
        QVERIFY(waitUntil([&] { return infoOf(*b).state == SessionState::Stopped; }, 60000));
        QVERIFY(infoOf(*a).errorMessage.isEmpty());
        QCOMPARE(infoOf(*c).state, SessionState::Running);
        removeSession(*a);
        removeSession(*b);
        removeSession(*c);
    }

    void eventsAndRemovedBehindOurBack()
    {
        auto *dp = qobject_cast<docker::DockerProvider *>(m_p.get());
        QVERIFY(dp);
        QList<SessionInfo> changed;
        QStringList removed;
        connect(m_p.get(), &Provider::sessionChanged, this, [&](const SessionInfo &s) { changed << s; });
        connect(m_p.get(), &Provider::sessionRemoved, this, [&](const QString &id) { removed << id; });
        QVERIFY(waitUntil([&] { return dp->eventsConnected(); }, 10000));
        auto id = createSession();
        QVERIFY_RESULT(id);
        QVERIFY(waitUntil(
            [&] {
                return std::any_of(changed.begin(), changed.end(), [&](const SessionInfo &s) {
                    return s.id == *id && s.state == SessionState::Running;
                });
            },
            10000));
        // someone else removes it
        auto other = makeEngineProvider(docker::Flavour::Docker, dockerHost());
        QVERIFY_RESULT(await<void>([&](auto cb) { other->remove(*id, cb); }));
        QVERIFY(waitUntil([&] { return removed.contains(*id); }, 10000));
        auto exec = runIn(m_p.get(), *id, {QStringLiteral("true")});
        QCOMPARE(exec.code->code(), ErrorCode::NotFound);
        QVERIFY2(exec.code->message().contains(QLatin1String("no longer exists")), qPrintable(exec.code->message()));
        auto st = await<void>([&](auto cb) { m_p->stop(*id, cb); });
        QCOMPARE(st.code(), ErrorCode::NotFound);
        QTemporaryDir d;
        QCOMPARE(runTransfer(m_p->files()->upload(*id, d.path(), QStringLiteral("/workspace")).get()).code(),
                 ErrorCode::NotFound);
        disconnect(m_p.get(), nullptr, this, nullptr);
    }

    // The test engine has no NVIDIA Container Toolkit: the daemon takes the container and
    // refuses to start it ("could not select device driver"); the user reads why, and the
    // container it made is not left behind.
    void gpuRequestWithoutNvidiaRuntime()
    {
        const auto parsedAll = parseGpuRequest(QStringLiteral("all"));
        const auto parsedIds = parseGpuRequest(QStringLiteral("GPU-0f5e2c1a-7b3d-4e89-a1b2-c3d4e5f60718,1"));
        QVERIFY_RESULT(parsedAll);
        QVERIFY_RESULT(parsedIds);
        for (const GpuRequest &g : {*parsedAll, *parsedIds}) {
            CreateSpec spec;
            spec.name = QStringLiteral("tst-gpu-") + QString::number(QDateTime::currentMSecsSinceEpoch());
            spec.gpus = g.gpus;
            spec.gpuUuids = g.deviceIds;
            auto r = createSession(spec);
            QVERIFY(!r.ok());
            QCOMPARE(r.code(), ErrorCode::Unsupported);
            QVERIFY2(r.message().startsWith(
                         QLatin1String("This Docker engine has no NVIDIA runtime (nvidia-container-toolkit)")),
                     qPrintable(r.message()));
            QVERIFY2(r.message().contains(QLatin1String("could not select device driver")), qPrintable(r.message()));
            QVERIFY(waitUntil(
                [&] {
                    ListOptions all;
                    all.all = true;
                    auto list = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions(all, cb); });
                    return list && std::none_of(list->begin(), list->end(),
                                                [&](const SessionInfo &s) { return s.name == spec.name; });
                },
                10000));
        }
    }

    void statsOomKillsAndWritableLayer()
    {
        auto *dp = qobject_cast<docker::DockerProvider *>(m_p.get());
        QVERIFY(dp);
        // Listening to sessions as the window's registry does: the provider watches events.
        connect(m_p.get(), &Provider::sessionChanged, this, [](const SessionInfo &) {});
        QVERIFY(waitUntil([&] { return dp->eventsConnected(); }, 10000));
        CreateSpec spec;
        spec.memoryBytes = qint64(32) << 20;
        auto id = createSession(spec);
        QVERIFY_RESULT(id);
        QElapsedTimer sinceFirst;
        sinceFirst.start();
        auto first = await<StatsSample>([&](auto cb) { m_p->statistics()->stats(*id, cb); });
        QVERIFY_RESULT(first);
        QCOMPARE(first->oomKills.value_or(-1), qint64(0));
        QVERIFY(first->filesystemUsedBytes.has_value());
        QVERIFY(!first->filesystemTotalBytes); // the engine does not tell

        // A process inside is killed by the kernel; the container keeps running.
        const auto hog =
            runIn(m_p.get(), *id,
                  {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("x=a; while :; do x=$x$x; done")});
        QVERIFY(hog.code && hog.code->ok() && **hog.code != 0);
        std::optional<StatsSample> after;
        QVERIFY(waitUntil(
            [&] {
                auto s = await<StatsSample>([&](auto cb) { m_p->statistics()->stats(*id, cb); });
                if (s)
                    after = *s;
                return after && after->oomKills.value_or(0) >= 1;
            },
            15000));
        QCOMPARE(infoOf(*id).state, SessionState::Running);
        // A provider that watches no events finds the kill in the engine's event backlog.
        auto other = makeEngineProvider(docker::Flavour::Docker, dockerHost());
        auto seen = await<StatsSample>([&](auto cb) { other->statistics()->stats(*id, cb); });
        QVERIFY_RESULT(seen);
        QVERIFY2(seen->oomKills.value_or(0) >= 1, qPrintable(QString::number(seen->oomKills.value_or(-1))));

        // The writable layer grows by what is written; SizeRw is asked for at most every 30 s.
        const auto wrote = runIn(m_p.get(), *id,
                                 {QStringLiteral("sh"), QStringLiteral("-c"),
                                  QStringLiteral("head -c 2000000 /dev/urandom > /workspace/fill.bin")});
        QVERIFY(wrote.code && wrote.code->ok() && **wrote.code == 0);
        auto cached = await<StatsSample>([&](auto cb) { m_p->statistics()->stats(*id, cb); });
        QVERIFY_RESULT(cached);
        if (sinceFirst.elapsed() < 25000)
            QCOMPARE(cached->filesystemUsedBytes, first->filesystemUsedBytes);
        auto fresh = makeEngineProvider(docker::Flavour::Docker, dockerHost());
        auto grown = await<StatsSample>([&](auto cb) { fresh->statistics()->stats(*id, cb); });
        QVERIFY_RESULT(grown);
        QVERIFY2(grown->filesystemUsedBytes.value_or(0) >= *first->filesystemUsedBytes + 2000000,
                 qPrintable(QStringLiteral("%1 -> %2")
                                .arg(*first->filesystemUsedBytes)
                                .arg(grown->filesystemUsedBytes.value_or(-1))));
        disconnect(m_p.get(), nullptr, this, nullptr);
        removeSession(*id);
    }

    // docker cp's rules (issue 11): the shared table, on the image's file system and beneath
    // a tmpfs mount (where the provider goes through exec instead of the archive endpoint).
    void copyRules()
    {
        CreateSpec spec;
        spec.options.insert(QStringLiteral("tmpfs"), QStringLiteral("/scratch:rw,exec,size=64m,mode=1777"));
        auto id = createSession(spec);
        QVERIFY_RESULT(id);
        for (const QString &base : {QStringLiteral("/workspace/cp"), QStringLiteral("/scratch/cp")}) {
            const QStringList failures = runCopyTable(m_p.get(), *id, base);
            QVERIFY2(failures.isEmpty(), qPrintable(base + QStringLiteral(":\n") + failures.join(QLatin1Char('\n'))));
        }
        removeSession(*id);
    }
};

QTEST_GUILESS_MAIN(TestDocker)
#include "tst_docker.moc"
