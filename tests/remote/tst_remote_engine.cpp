// A Docker or Podman engine reached over SSH (SANDBAR_REMOTE_FLAVOUR picks which), as a
// person adds one: endpoint ssh://host/socket with an ssh_config of its own. The server is a
// private sshd on a loopback port (PrivateSshd.h); the remote engine is the run's own engine,
// reached through the forwarded socket. Covered: list, create, exec exit codes, a terminal
// with a resize and a 64 KiB paste, 64 MiB up and down checksummed, statistics, a followed
// log, sshd's connections killed mid-terminal and restored, remove; one login for many
// accounts' preparations (the master connection is reused); an unknown host key refused
// until trusted, a changed one refused, before anything is sent; a key the server does not
// take refused with a line that says what to do; a whole sandbarctl flow with one login.
#include "EngineKit.h"
#include "PrivateSshd.h"
#include "common/OffThread.h"
#include "net/SshAskpass.h"
#include "providers/docker/DockerFactory.h"
#include "providers/docker/DockerSsh.h"

#include <QCryptographicHash>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <memory>

using namespace sandbar;
using namespace sandbar::test;

class TestRemoteEngine : public QObject
{
    Q_OBJECT

    docker::Flavour m_flavour = docker::Flavour::Docker;
    QString m_socket; // the engine's socket, "remote" to the ssh server
    std::unique_ptr<PrivateSshd> m_sshd;
    std::unique_ptr<QTemporaryDir> m_runtime; // where the master's control sockets live
    std::unique_ptr<Provider> m_p;
    QString m_id;

    // A fresh folder for control sockets: no master from before, so ssh logs in anew.
    void freshRuntime()
    {
        endMaster();
        m_runtime = std::make_unique<QTemporaryDir>(QStringLiteral("/tmp/sbssh-XXXXXX"));
        qputenv("XDG_RUNTIME_DIR", m_runtime->path().toLocal8Bit());
    }
    // The master connection the current runtime folder holds ends (and the server's side of
    // it): none is left behind for its ControlPersist.
    void endMaster()
    {
        if (m_runtime && m_sshd)
            m_sshd->endMaster(m_runtime->filePath(QStringLiteral("sandbar/ssh")));
    }

    AccountConfig accountConfig(const QString &name, const QString &sshConfig) const
    {
        AccountConfig a;
        a.name = name;
        a.provider = docker::DockerFactory(m_flavour).descriptor().id;
        a.settings.insert(QStringLiteral("endpoint"), QString(QStringLiteral("ssh://sandbar-test") + m_socket));
        a.settings.insert(QStringLiteral("ssh-config"), sshConfig);
        return a;
    }
    Result<std::unique_ptr<Provider>> account(const QString &name, const QString &sshConfig)
    {
        docker::DockerFactory factory(m_flavour);
        AccountConfig a = accountConfig(name, sshConfig);
        if (auto prepare = factory.preparation(a))
            a = prepare(a); // blocks: this is what the registry runs on a worker thread
        return factory.create(a);
    }
    // The same with the preparation on a worker thread, as the window runs it, while this
    // thread answers what it asks (askpass).
    Result<std::unique_ptr<Provider>> accountOffThread(const QString &name, const QString &sshConfig)
    {
        docker::DockerFactory factory(m_flavour);
        const AccountConfig a = accountConfig(name, sshConfig);
        const auto prepare = factory.preparation(a);
        std::optional<AccountConfig> prepared;
        runOffThread<AccountConfig>(
            this, [prepare, a] { return prepare(a); }, [&prepared](AccountConfig c) { prepared = std::move(c); });
        if (!waitUntil([&] { return prepared.has_value(); }, 90000))
            return makeError(ErrorCode::Timeout, QStringLiteral("the preparation did not end"));
        return factory.create(*prepared);
    }

    struct Run {
        int code = -1;
        QByteArray out, err;
    };
    // sandbarctl with its own config folder; it inherits XDG_RUNTIME_DIR, so it shares the
    // master connections this test's runtime folder holds.
    Run ctl(const QString &configDir, const QStringList &args)
    {
        QProcess p;
        endWithTest(&p);
        p.start(QStringLiteral(SANDBARCTL_PATH), QStringList{QStringLiteral("--config-dir"), configDir} + args);
        if (!p.waitForStarted() || !p.waitForFinished(90000)) {
            p.kill();
            p.waitForFinished();
            return {};
        }
        return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                   p.readAllStandardError()};
    }
    QString keyFingerprint(const QString &publicKeyFile) const
    {
        QFile f(m_sshd->path(publicKeyFile));
        return f.open(QIODevice::ReadOnly) ? net::hostKeyFingerprint("host " + f.readAll()) : QString();
    }
    bool masterAlive() const { return m_sshd->link(m_runtime->filePath(QStringLiteral("sandbar/ssh"))).masterAlive(); }
    static QByteArray said(const Run &r) { return "exit " + QByteArray::number(r.code) + ": " + r.out + r.err; }

private Q_SLOTS:
    void initTestCase()
    {
        m_flavour = qEnvironmentVariable("SANDBAR_REMOTE_FLAVOUR") == QLatin1String("podman") ? docker::Flavour::Podman
                                                                                              : docker::Flavour::Docker;
        const QString host = m_flavour == docker::Flavour::Podman ? podmanHost() : dockerHost();
        SANDBAR_REQUIRE(host.startsWith(QLatin1String("unix://")),
                        QStringLiteral("no engine socket (SANDBAR_TEST_DOCKER_HOST / SANDBAR_TEST_PODMAN_HOST)"));
        SANDBAR_REQUIRE(PrivateSshd::available(),
                        QStringLiteral("openssh-server is not installed (scripts/install-deps.sh test installs it)"));
        m_socket = host.mid(7);
        m_sshd = std::make_unique<PrivateSshd>();
        QVERIFY2(m_sshd->start(), qPrintable(m_sshd->error()));
        freshRuntime();
    }

    void listCreateExecRemove()
    {
        auto p = account(QStringLiteral("remote"), m_sshd->sshConfig());
        QVERIFY_RESULT(p);
        m_p = std::move(p.value());
        auto health = await<HealthInfo>([&](auto cb) { m_p->health(cb); }, 30000);
        QVERIFY_RESULT(health);
        // The engine is on another machine: its processes are not this one's.
        QVERIFY(m_p->hostProcessMatch(QStringLiteral("x")).isEmpty());
        CreateSpec spec;
        spec.image = testImage();
        spec.name = QStringLiteral("remote box");
        auto s = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, 60000);
        QVERIFY_RESULT(s);
        m_id = s->id;
        auto listed = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions({}, cb); }, 30000);
        QVERIFY_RESULT(listed);
        QVERIFY(std::any_of(listed->cbegin(), listed->cend(), [&](const SessionInfo &i) { return i.id == m_id; }));
        const ExecResult ok =
            runIn(m_p.get(), m_id, {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo over-ssh")});
        QVERIFY(ok.code && ok.code->ok());
        QCOMPARE(ok.code->value(), 0);
        QVERIFY(ok.out.contains("over-ssh"));
        const ExecResult seven =
            runIn(m_p.get(), m_id, {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("exit 7")});
        QVERIFY(seven.code && seven.code->ok());
        QCOMPARE(seven.code->value(), 7);
    }

    void terminal()
    {
        QVERIFY(!m_id.isEmpty());
        PtyOptions o;
        o.argv = {QStringLiteral("sh")};
        std::unique_ptr<PtyChannel> pty = m_p->terminals()->openPty(m_id, o);
        QVERIFY(pty);
        PtyProbe probe;
        probe.attach(pty.get());
        pty->start();
        QVERIFY(waitUntil([&] { return probe.started || probe.error.has_value(); }, 20000));
        QVERIFY2(!probe.error, qPrintable(probe.error ? probe.error->message : QString()));
        pty->write("echo mark-$((6*7))\n");
        QVERIFY2(probe.waitFor("mark-42", 20000), probe.output.constData());
        // The engine applies a size once the shell's exec runs: asked again until seen.
        bool resized = false;
        for (int attempt = 0; attempt < 10 && !resized; ++attempt) {
            pty->resize(100, 30);
            pty->write("stty size\n");
            resized = waitUntil([&] { return probe.output.contains("30 100"); }, 1500);
        }
        QVERIFY2(resized, probe.output.constData());
        // A 64 KiB paste arrives whole: 1,024 lines into a file, its checksum the same there.
        QByteArray paste;
        for (int line = 0; line < 1024; ++line)
            paste +=
                QByteArray::number(line).rightJustified(6, '0') + ' ' + QByteArray(56, char('a' + line % 26)) + '\n';
        QCOMPARE(paste.size(), 64 * 1024);
        pty->write("stty -echo; cat > /tmp/paste.txt\n");
        QVERIFY(waitUntil([&] { return probe.output.contains("stty -echo"); }, 10000));
        pty->write(paste);
        pty->write("\x04");
        pty->write("md5sum /tmp/paste.txt\n");
        const QByteArray sum = QCryptographicHash::hash(paste, QCryptographicHash::Md5).toHex();
        QVERIFY2(probe.waitFor(sum, 30000), probe.output.right(400).constData());
        pty->close();
    }

    void uploadAndDownloadChecksummed()
    {
        QVERIFY(!m_id.isEmpty());
        QTemporaryDir local;
        QByteArray data(64 * 1024 * 1024, Qt::Uninitialized);
        for (qsizetype i = 0; i < data.size(); ++i)
            data[i] = char((i * 131 + i / 4096) & 0xff);
        QFile f(local.filePath(QStringLiteral("blob.bin")));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(data) == data.size());
        f.close();
        FilesFacet *files = m_p->files();
        QVERIFY(files);
        const std::unique_ptr<TransferJob> up = files->upload(m_id, f.fileName(), QStringLiteral("/tmp/"));
        QVERIFY_RESULT(runTransfer(up.get()));
        QTemporaryDir back;
        const std::unique_ptr<TransferJob> down =
            files->download(m_id, QStringLiteral("/tmp/blob.bin"), back.path() + QLatin1Char('/'));
        QVERIFY_RESULT(runTransfer(down.get()));
        QFile got(back.filePath(QStringLiteral("blob.bin")));
        QVERIFY(got.open(QIODevice::ReadOnly));
        QCOMPARE(QCryptographicHash::hash(got.readAll(), QCryptographicHash::Sha256),
                 QCryptographicHash::hash(data, QCryptographicHash::Sha256));
    }

    // Statistics come through the forwarded socket, and a followed log delivers a line the
    // session's main process writes after the stream opened.
    void statisticsAndFollowedLogs()
    {
        QVERIFY(!m_id.isEmpty());
        auto sample = await<StatsSample>([&](auto cb) { m_p->statistics()->stats(m_id, cb); }, 30000);
        QVERIFY_RESULT(sample);
        QVERIFY(sample->memoryUsedBytes && *sample->memoryUsedBytes > 0);
        QVERIFY(sample->pids && *sample->pids >= 1);
        LogOptions follow;
        follow.follow = true;
        std::unique_ptr<LogStream> logs = m_p->logReader()->logs(m_id, follow);
        QByteArray seen;
        std::optional<VoidResult> ended;
        connect(logs.get(), &LogStream::data, this, [&seen](const QByteArray &b, int) { seen += b; });
        connect(logs.get(), &LogStream::finished, this, [&ended](const VoidResult &r) { ended = r; });
        logs->start();
        // Written until seen: the stream may open after the first write.
        bool arrived = false;
        for (int i = 0; i < 20 && !arrived && !ended; ++i) {
            (void)runIn(
                m_p.get(), m_id,
                {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo followed-far > /proc/1/fd/1")});
            arrived = waitUntil([&] { return seen.contains("followed-far") || ended.has_value(); }, 1500) &&
                      seen.contains("followed-far");
        }
        QVERIFY2(arrived, ended ? qPrintable(ended->message()) : seen.right(300).constData());
        QVERIFY(!ended);
        logs->stop();
    }

    // sshd's connections die mid-terminal, as when the network drops: the terminal says so,
    // and the account comes back by itself after one new login: a list works, a new terminal
    // opens. While the host cannot be reached at all, a request fails with the reason, and
    // within the back-off at once, without waiting on ssh again.
    void lostConnectionIsRestored()
    {
        QVERIFY(!m_id.isEmpty());
        PtyOptions o;
        o.argv = {QStringLiteral("sh")};
        std::unique_ptr<PtyChannel> pty = m_p->terminals()->openPty(m_id, o);
        PtyProbe probe;
        probe.attach(pty.get());
        pty->start();
        QVERIFY(waitUntil([&] { return probe.started || probe.error.has_value(); }, 20000));
        pty->write("echo before-$((2*3))\n");
        QVERIFY2(probe.waitFor("before-6", 20000), probe.output.constData());
        const int before = m_sshd->logins();
        // The host goes away: no new login is possible, and the live connection drops.
        const QList<qint64> serving = m_sshd->connectionProcesses();
        m_sshd->stop();
        QVERIFY(PrivateSshd::kill(serving) > 0);
        QVERIFY(waitUntil([&] { return probe.error.has_value() || probe.finishedCode.has_value(); }, 30000));
        const auto list = [this] {
            return await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions({}, cb); }, 60000);
        };
        const auto down = list();
        QVERIFY(!down.ok());
        QVERIFY2(down.message().contains(QLatin1String("unreachable")), qPrintable(down.message()));
        bool waitedOut = false;
        for (int i = 0; i < 3 && !waitedOut; ++i) {
            const auto again = list();
            QVERIFY(!again.ok());
            waitedOut = again.message().contains(QLatin1String("tries again"));
        }
        QVERIFY(waitedOut);

        QVERIFY2(m_sshd->launch(), qPrintable(m_sshd->error()));
        QVERIFY(waitUntil([&] { return list().ok(); }, 60000));
        std::unique_ptr<PtyChannel> again = m_p->terminals()->openPty(m_id, o);
        PtyProbe after;
        after.attach(again.get());
        again->start();
        QVERIFY(waitUntil([&] { return after.started || after.error.has_value(); }, 20000));
        again->write("echo after-$((3*3))\n");
        QVERIFY2(after.waitFor("after-9", 20000), after.output.constData());
        again->close();
        QCOMPARE(m_sshd->logins(), before + 1);
    }

    // A server that refuses to forward sockets: the engine is reached through its own
    // dial-stdio on the host, one SSH channel per connection, and requests, a command's exit
    // code and output (a hijacked stream), and a copy into the session all work the same.
    void dialStdioWhereForwardingIsRefused()
    {
        QVERIFY(!m_id.isEmpty());
        PrivateSshd strict(false);
        QVERIFY2(strict.start(), qPrintable(strict.error()));
        auto p = account(QStringLiteral("strict"), strict.sshConfig());
        QVERIFY_RESULT(p);
        const auto health = await<HealthInfo>([&](auto cb) { p.value()->health(cb); }, 30000);
        QVERIFY_RESULT(health);
        QVERIFY2(health->endpoint.endsWith(QLatin1String(".dial.sock")), qPrintable(health->endpoint));
        const ExecResult ran =
            runIn(p->get(), m_id, {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo dialled; exit 5")});
        QVERIFY(ran.code && ran.code->ok());
        QCOMPARE(ran.code->value(), 5);
        QVERIFY(ran.out.contains("dialled"));
        QTemporaryDir local;
        QFile f(local.filePath(QStringLiteral("note.txt")));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write("through dial-stdio\n") > 0);
        f.close();
        const std::unique_ptr<TransferJob> up = p.value()->files()->upload(m_id, f.fileName(), QStringLiteral("/tmp/"));
        QVERIFY_RESULT(runTransfer(up.get()));
        const ExecResult back = runIn(p->get(), m_id, {QStringLiteral("cat"), QStringLiteral("/tmp/note.txt")});
        QVERIFY2(back.out.contains("through dial-stdio"), back.out.constData());
        // Every channel rode on one login.
        QCOMPARE(strict.logins(), 1);
        p.value().reset();
        strict.endMaster(m_runtime->filePath(QStringLiteral("sandbar/ssh")));
        strict.stop();
    }

    void remove()
    {
        QVERIFY(!m_id.isEmpty());
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->remove(m_id, cb); }, 60000));
        auto gone = await<SessionInfo>([&](auto cb) { m_p->info(m_id, cb); }, 30000);
        QCOMPARE(gone.code(), ErrorCode::NotFound);
        m_id.clear();
    }

    // Three more accounts' worth of preparation (as three sandbarctl commands would do) ride
    // on the master connection the first one made: no new login.
    void masterConnectionIsReused()
    {
        const int before = m_sshd->logins();
        QVERIFY(before >= 1);
        for (int i = 0; i < 3; ++i) {
            auto p = account(QStringLiteral("again-%1").arg(i), m_sshd->sshConfig());
            QVERIFY_RESULT(p);
            QVERIFY_RESULT(await<HealthInfo>([&](auto cb) { p.value()->health(cb); }, 30000));
        }
        QCOMPARE(m_sshd->logins(), before);
    }

    // A person's whole sandbarctl flow on a remote engine, five commands in five processes:
    // one login, the master connection carries the rest.
    void sandbarctlFlowLogsInOnce()
    {
        freshRuntime();
        QTemporaryDir config;
        const int before = m_sshd->logins();
        const QString endpoint = QStringLiteral("ssh://sandbar-test") + m_socket;
        const QString provider =
            m_flavour == docker::Flavour::Podman ? QStringLiteral("podman") : QStringLiteral("docker");
        Run r = ctl(config.path(), {QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("far"),
                                    QStringLiteral("--provider"), provider, QStringLiteral("--endpoint"), endpoint,
                                    QStringLiteral("--ssh-config"), m_sshd->sshConfig()});
        QVERIFY2(r.code == 0, said(r).constData());
        QCOMPARE(m_sshd->logins(), before); // adding never contacts the host
        r = ctl(config.path(), {QStringLiteral("accounts"), QStringLiteral("check"), QStringLiteral("far")});
        QVERIFY2(r.code == 0, said(r).constData());
        r = ctl(config.path(), {QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                                QStringLiteral("far"), QStringLiteral("--image"), testImage()});
        QVERIFY2(r.code == 0, said(r).constData());
        const QString ref = QString::fromUtf8(r.out).trimmed();
        r = ctl(config.path(), {QStringLiteral("exec"), ref, QStringLiteral("--"), QStringLiteral("sh"),
                                QStringLiteral("-c"), QStringLiteral("echo far-away; exit 3")});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.out.contains("far-away"), said(r).constData());
        r = ctl(config.path(), {QStringLiteral("sessions"), QStringLiteral("rm"), ref});
        QVERIFY2(r.code == 0, said(r).constData());
        QCOMPARE(m_sshd->logins() - before, 1);
    }

    // An unknown host is refused with the fingerprint it offers and the command that trusts it;
    // learning the key logs in nowhere; a trust pinned to another fingerprint writes nothing;
    // sandbarctl accounts trust with the fingerprint shown writes the key, and the account works.
    void unknownHostKeyIsRefusedUntilTrusted()
    {
        freshRuntime();
        m_sshd->forgetHostKeys();
        const QString hostKey = keyFingerprint(QStringLiteral("host_ed25519.pub"));
        QVERIFY(hostKey.startsWith(QLatin1String("SHA256:")));
        const int before = m_sshd->logins();
        auto p = account(QStringLiteral("unknown"), m_sshd->sshConfig());
        QCOMPARE(p.code(), ErrorCode::UnknownHost);
        QVERIFY2(p.message().contains(QLatin1String("is not known")) && p.message().contains(hostKey) &&
                     p.message().contains(QLatin1String("accounts trust unknown --fingerprint ") + hostKey),
                 qPrintable(p.message()));
        QCOMPARE(m_sshd->logins(), before);

        docker::DockerFactory factory(m_flavour);
        const auto task = factory.hostKeyTask(accountConfig(QStringLiteral("unknown"), m_sshd->sshConfig()));
        QVERIFY(task);
        const auto offered = task(QString(), false);
        QVERIFY_RESULT(offered);
        QCOMPARE(offered->fingerprint, hostKey);
        QCOMPARE(offered->knownHostsFile, m_sshd->path(QStringLiteral("known_hosts")));
        const auto wrong = task(keyFingerprint(QStringLiteral("impostor_ed25519.pub")), true);
        QCOMPARE(wrong.code(), ErrorCode::Conflict);
        QCOMPARE(m_sshd->knownHosts(), QByteArray());

        QTemporaryDir config;
        const QString provider =
            m_flavour == docker::Flavour::Podman ? QStringLiteral("podman") : QStringLiteral("docker");
        Run r = ctl(config.path(), {QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("far"),
                                    QStringLiteral("--provider"), provider, QStringLiteral("--endpoint"),
                                    QStringLiteral("ssh://sandbar-test") + m_socket, QStringLiteral("--ssh-config"),
                                    m_sshd->sshConfig()});
        QVERIFY2(r.code == 0, said(r).constData());
        r = ctl(config.path(), {QStringLiteral("accounts"), QStringLiteral("check"), QStringLiteral("far")});
        QVERIFY2(r.code != 0 &&
                     r.err.contains(QByteArray(QByteArray("accounts trust far --fingerprint ") + hostKey.toUtf8())),
                 said(r).constData());
        r = ctl(config.path(), {QStringLiteral("accounts"), QStringLiteral("trust"), QStringLiteral("far"),
                                QStringLiteral("--fingerprint"), hostKey});
        QVERIFY2(r.code == 0 && r.out.contains(hostKey.toUtf8()), said(r).constData());
        QCOMPARE(net::hostKeyFingerprint(m_sshd->knownHosts()), hostKey);
        QCOMPARE(m_sshd->logins(), before); // trusting logs in nowhere either
        r = ctl(config.path(), {QStringLiteral("accounts"), QStringLiteral("check"), QStringLiteral("far")});
        QVERIFY2(r.code == 0, said(r).constData());
        QCOMPARE(m_sshd->logins(), before + 1);
        // Removing the account ends its master connection at once.
        r = ctl(config.path(), {QStringLiteral("accounts"), QStringLiteral("remove"), QStringLiteral("far")});
        QVERIFY2(r.code == 0, said(r).constData());
        QVERIFY(!masterAlive());
    }

    void changedHostKeyIsRefused()
    {
        freshRuntime();
        m_sshd->trustHostKey(QStringLiteral("impostor_ed25519.pub"));
        const int before = m_sshd->logins();
        auto p = account(QStringLiteral("changed"), m_sshd->sshConfig());
        QCOMPARE(p.code(), ErrorCode::Unauthorized);
        QVERIFY2(p.message().contains(QLatin1String("has changed")), qPrintable(p.message()));
        QCOMPARE(m_sshd->logins(), before);
        m_sshd->trustHostKey(QStringLiteral("host_ed25519.pub"));
    }

    // An address whose socket does not exist on the host says so, before any fallback.
    void missingRemoteSocketSaysSo()
    {
        docker::DockerFactory factory(m_flavour);
        AccountConfig a = accountConfig(QStringLiteral("nowhere"), m_sshd->sshConfig());
        a.settings.insert(QStringLiteral("endpoint"), QStringLiteral("ssh://sandbar-test/tmp/no-engine-here.sock"));
        a = factory.preparation(a)(a);
        const auto p = factory.create(a);
        QCOMPARE(p.code(), ErrorCode::Unavailable);
        QVERIFY2(p.message().contains(QLatin1String("no engine socket /tmp/no-engine-here.sock")),
                 qPrintable(p.message()));
    }

    void keyTheServerRefuses()
    {
        freshRuntime();
        auto p = account(QStringLiteral("stranger"), m_sshd->sshConfigWithKey(QStringLiteral("other_ed25519")));
        QCOMPARE(p.code(), ErrorCode::Unauthorized);
        QVERIFY2(p.message().contains(QLatin1String("refused the login")) &&
                     p.message().contains(QLatin1String("ssh-agent")),
                 qPrintable(p.message()));
    }

    // A port the remote host publishes is reached from here through the master connection: the
    // endpoint names a local port, and what connects to it reaches the host's port. The test
    // engines publish nothing (--bridge=none), so the host's port is a server of the test's own
    // on the loopback the private sshd shares.
    void publishedPortsAreForwarded()
    {
        QTcpServer remote;
        QVERIFY(remote.listen(QHostAddress::LocalHost, 0));
        connect(&remote, &QTcpServer::newConnection, this, [&remote] {
            while (QTcpSocket *c = remote.nextPendingConnection())
                c->write("hello from the host\n");
        });
        auto p = account(QStringLiteral("ports"), m_sshd->sshConfig()); // the master connection
        QVERIFY_RESULT(p);
        auto target =
            docker::sshTargetFromSettings(accountConfig(QStringLiteral("ports"), m_sshd->sshConfig()).settings);
        QVERIFY_RESULT(target);
        docker::SshPortForwarder ports(*target);
        SessionEndpoint published;
        published.name = QStringLiteral("8080/tcp");
        published.url = QStringLiteral("http://0.0.0.0:%1").arg(remote.serverPort());
        const QList<SessionEndpoint> mapped = ports.map({published});
        const QUrl local(mapped.first().url);
        QCOMPARE(local.host(), QStringLiteral("127.0.0.1"));
        QVERIFY(local.port() > 0 && local.port() != remote.serverPort());
        QCOMPARE(ports.map({published}).first().url, mapped.first().url); // one forwarding per port
        QByteArray got;
        const bool reached = waitUntil(
            [&] {
                QTcpSocket s;
                s.connectToHost(QHostAddress::LocalHost, quint16(local.port()));
                if (!waitUntil(
                        [&] {
                            return s.state() == QAbstractSocket::ConnectedState ||
                                   s.state() == QAbstractSocket::UnconnectedState;
                        },
                        3000) ||
                    s.state() != QAbstractSocket::ConnectedState)
                    return false;
                waitUntil([&] { return s.canReadLine() || s.state() != QAbstractSocket::ConnectedState; }, 5000);
                got = s.readAll();
                return got.contains("hello from the host");
            },
            30000);
        QVERIFY2(reached, got.constData());
    }

    // In the window a key's passphrase is asked through sandbar-askpass: the prompt, naming the
    // key, reaches the window's server, the answer logs in, and no setting keeps it. A cancelled
    // prompt is a refused login.
    void passphraseAskedInTheWindow()
    {
        freshRuntime();
        net::AskpassServer askpass(QStringLiteral(SANDBAR_ASKPASS_PATH));
        QVERIFY_RESULT(askpass.install(m_runtime->path()));
        QStringList prompts;
        bool cancel = true;
        connect(&askpass, &net::AskpassServer::asked, this, [&](quint64 id, const QString &prompt) {
            prompts << prompt;
            askpass.answer(id, cancel ? std::nullopt : std::optional<QString>(PrivateSshd::passphrase()));
        });
        const QString config = m_sshd->sshConfigWithKey(QStringLiteral("locked_ed25519"));
        const auto refused = accountOffThread(QStringLiteral("locked"), config);
        QCOMPARE(refused.code(), ErrorCode::Unauthorized);
        QVERIFY2(!prompts.isEmpty() && prompts.first().contains(QLatin1String("locked_ed25519")),
                 qPrintable(prompts.join(u'|')));
        cancel = false;
        prompts.clear();
        auto p = accountOffThread(QStringLiteral("locked"), config);
        QVERIFY_RESULT(p);
        QVERIFY_RESULT(await<HealthInfo>([&](auto cb) { p.value()->health(cb); }, 30000));
        QCOMPARE(prompts.size(), 1);
        p.value().reset();
        endMaster();
    }

    void cleanupTestCase()
    {
        if (m_p && !m_id.isEmpty())
            (void)await<void>([&](auto cb) { m_p->remove(m_id, cb); }, 60000);
        m_p.reset();
        endMaster();
        if (m_sshd)
            m_sshd->stop();
    }
};

QTEST_GUILESS_MAIN(TestRemoteEngine)
#include "tst_remote_engine.moc"
