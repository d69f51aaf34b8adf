// A private Podman API service of this test's own is killed (SIGKILL) while a PTY, a stats
// stream, a command and the events watch are open, and started again on the same socket:
// conmon keeps the container running meanwhile, so the session must come back as it was.
#include "EngineKit.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrl>
#include <csignal>
#include <nlohmann/json.hpp>
#include <sys/mount.h>
#include <unistd.h>

using namespace sandbar;
using namespace sandbar::test;

class TestPodmanServiceRestart : public QObject
{
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> m_dir;
    QProcess m_service;
    QString m_podman;
    QString m_sock;

    QString endpoint() const { return QStringLiteral("unix://") + m_sock; }

    // The service with its own storage (vfs: no overlay mounts to leave behind), state
    // (--tmpdir: not the shared /run/libpod) and configuration under m_dir, serving m_sock. The same storage each time:
    // what the first service started, the second one finds.
    void startService()
    {
        const QString d = m_dir->path();
        QFile::remove(m_sock);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("CONTAINERS_CONF"), d + QStringLiteral("/containers.conf"));
        m_service.setProcessEnvironment(env);
        m_service.setProgram(m_podman);
        m_service.setArguments({QStringLiteral("--root"), d + QStringLiteral("/root"), QStringLiteral("--runroot"),
                                d + QStringLiteral("/run"), QStringLiteral("--tmpdir"), d + QStringLiteral("/tmp"),
                                QStringLiteral("--storage-driver"), QStringLiteral("vfs"), QStringLiteral("system"),
                                QStringLiteral("service"), QStringLiteral("--time=0"), endpoint()});
        m_service.setStandardOutputFile(d + QStringLiteral("/podman.log"), QIODevice::Append);
        m_service.setStandardErrorFile(d + QStringLiteral("/podman.log"), QIODevice::Append);
        m_service.start();
        QVERIFY(m_service.waitForStarted());
        const bool up = waitForEngine(endpoint(), m_sock, 60000);
        QVERIFY2(up, "the private Podman service did not answer within 60 s");
    }

    // What the services left behind: conmon and the containers below it (their command lines
    // name the private folder, or their parent's does), and any mount under the folder.
    void reapLeftovers()
    {
        if (m_dir)
            reapProcessesAndMountsUnder(m_dir->path());
    }

    // Whether the service says the container runs, asked directly rather than through the
    // provider under test.
    bool containerRunning(const QString &id)
    {
        auto r = engineRequest(endpoint(), "GET", "/containers/" + id.toUtf8() + "/json", {}, 5000);
        return r.ok() && r->status == 200 && r->body.contains("\"Running\":true");
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDBAR_REQUIRE(!podmanHost().isEmpty(),
                        QStringLiteral("SANDBAR_TEST_PODMAN_HOST is not set (the image comes from there)"));
        m_podman = QStandardPaths::findExecutable(QStringLiteral("podman"));
        SANDBAR_REQUIRE(!m_podman.isEmpty(), QStringLiteral("podman is not installed"));
        SANDBAR_REQUIRE(geteuid() == 0, QStringLiteral("a private Podman service with its own storage needs root"));
        m_dir = std::make_unique<QTemporaryDir>(QStringLiteral("/tmp/sbpodkill-XXXXXX"));
        QVERIFY(m_dir->isValid());
        m_sock = m_dir->filePath(QStringLiteral("podman.sock"));
        QFile conf(m_dir->filePath(QStringLiteral("containers.conf")));
        QVERIFY(conf.open(QIODevice::WriteOnly));
        // As scripts/test-services.sh writes it: limits a container in a container may set.
        conf.write("[containers]\ndefault_ulimits = [\"nofile=1024:1024\", \"nproc=4096:4096\"]\n"
                   "netns = \"none\"\n[engine]\nruntime = \"runc\"\n");
        conf.close();
        // The image travels from the shared service: no registry is reachable.
        auto saved = engineRequest(podmanHost(), "GET", "/images/" + QUrl::toPercentEncoding(testImage()) + "/get");
        QVERIFY_RESULT(saved);
        QCOMPARE(saved->status, 200);
        startService();
        if (QTest::currentTestFailed())
            return;
        auto loaded = engineRequest(endpoint(), "POST", "/images/load?quiet=1", saved->body);
        QVERIFY_RESULT(loaded);
        QCOMPARE(loaded->status, 200);
    }

    void cleanupTestCase()
    {
        if (m_service.state() != QProcess::NotRunning) {
            // Whatever a failed case left is removed by the service while it answers.
            auto list = engineRequest(endpoint(), "GET", "/containers/json?all=1", {}, 5000);
            if (list.ok() && list->status == 200) {
                const auto arr = nlohmann::json::parse(list->body.toStdString(), nullptr, false);
                if (arr.is_array()) {
                    for (const auto &c : arr) {
                        if (c.contains("Id") && c["Id"].is_string())
                            (void)engineRequest(endpoint(), "DELETE",
                                                "/containers/" + QByteArray::fromStdString(c["Id"]) + "?force=1", {},
                                                20000);
                    }
                }
            }
            m_service.terminate();
            if (!m_service.waitForFinished(10000)) {
                m_service.kill();
                m_service.waitForFinished(5000);
            }
        }
        reapLeftovers();
    }

    void killedAndRestarted()
    {
        auto p = makeEngineProvider(docker::Flavour::Podman, endpoint());
        QVERIFY(p);
        auto *dp = qobject_cast<docker::DockerProvider *>(p.get());
        QVERIFY(dp);
        dp->setEventsBackoff(std::chrono::milliseconds(50), std::chrono::milliseconds(200));
        CreateSpec spec;
        spec.image = testImage();
        spec.ttlSeconds = 120; // a safety net should cleanup miss it
        auto s = await<SessionInfo>([&](auto cb) { p->create(spec, cb); }, 60000);
        QVERIFY_RESULT(s);
        const QString id = s->id;
        QCOMPARE(s->state, SessionState::Running);

        int changes = 0;
        connect(p.get(), &Provider::sessionChanged, this, [&](const SessionInfo &) { ++changes; });
        QVERIFY(waitUntil([&] { return dp->eventsConnected(); }, 10000));

        LiveStreams io;
        QString notLive;
        QVERIFY2(io.open(p.get(), id, &notLive), qPrintable(notLive));

        QElapsedTimer sinceKill;
        m_service.kill(); // SIGKILL; conmon, a process of its own, keeps the container
        QVERIFY(m_service.waitForFinished(5000));
        sinceKill.start();

        // Each open thing ends, with an error that says so, within seconds.
        QVERIFY2(waitUntil([&] { return io.streamError.has_value(); }, 10000), "the stats stream did not notice");
        QVERIFY(!io.streamError->message.isEmpty());
        QVERIFY2(waitUntil([&] { return io.probe.error.has_value() || io.probe.finishedCode.has_value(); }, 10000),
                 "the PTY did not notice");
        QVERIFY(waitUntil([&] { return !io.pty->isOpen(); }, 10000));
        QVERIFY2(waitUntil([&] { return io.jobResult.has_value(); }, 10000), "the command did not notice");
        QVERIFY(!io.jobResult->ok());
        // Podman's users are not sent looking for a Docker daemon.
        QVERIFY2(!io.jobResult->message().isEmpty() &&
                     !io.jobResult->message().contains(QLatin1String("Is the Docker daemon running")),
                 qPrintable(io.jobResult->message()));
        QVERIFY(waitUntil([&] { return !dp->eventsConnected(); }, 10000));
        qInfo("everything open ended %lld ms after the kill; stats: %s; command: %s; terminal: %s",
              static_cast<long long>(sinceKill.elapsed()), qPrintable(io.streamError->message),
              qPrintable(io.jobResult->message()),
              qPrintable(io.probe.error ? io.probe.error->message : QStringLiteral("exit")));

        // Later calls fail at once and say why.
        auto info = await<SessionInfo>([&](auto cb) { p->info(id, cb); }, 10000);
        QCOMPARE(info.code(), ErrorCode::Unavailable);
        auto st = await<StatsSample>([&](auto cb) { p->statistics()->stats(id, cb); }, 10000);
        QCOMPARE(st.code(), ErrorCode::Unavailable);
        auto list = await<QList<SessionInfo>>([&](auto cb) { p->listSessions({}, cb); }, 10000);
        QCOMPARE(list.code(), ErrorCode::Unavailable);
        auto late = runIn(p.get(), id, {QStringLiteral("true")});
        QVERIFY(late.code.has_value());
        QCOMPARE(late.code->code(), ErrorCode::Unavailable);
        auto latePty = p->terminals()->openPty(id, {});
        PtyProbe lateProbe;
        lateProbe.attach(latePty.get());
        latePty->start();
        QVERIFY(waitUntil([&] { return lateProbe.error.has_value(); }, 10000));
        QCOMPARE(lateProbe.error->code, ErrorCode::Unavailable);

        // The service again on the same socket: the events watch reconnects by itself, and
        // the session, kept running by conmon, is listed as it was.
        startService();
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(waitUntil([&] { return dp->eventsConnected(); }, 30000), "events did not reconnect");
        QVERIFY(containerRunning(id));
        auto back = await<QList<SessionInfo>>([&](auto cb) { p->listSessions({}, cb); }, 10000);
        QVERIFY_RESULT(back);
        const auto it = std::find_if(back->begin(), back->end(), [&](const SessionInfo &x) { return x.id == id; });
        QVERIFY(it != back->end());
        QCOMPARE(it->state, SessionState::Running);

        // What the window's Reconnect does: a new PTY, a working shell in the same container,
        // with the file the first shell wrote.
        io.pty->write("true\n"); // a closed channel takes no input and does not crash
        auto again = p->terminals()->openPty(id, {});
        PtyProbe reprobe;
        reprobe.attach(again.get());
        again->start();
        QVERIFY(waitUntil([&] { return reprobe.started || reprobe.error; }, 20000));
        QVERIFY2(!reprobe.error, qPrintable(reprobe.error ? reprobe.error->message : QString()));
        again->write("echo back-$((3+4))\n");
        QVERIFY2(reprobe.waitFor("back-7"), reprobe.output.constData());
        again->write("exit 0\n");
        QVERIFY(waitUntil([&] { return reprobe.finishedCode.has_value() || reprobe.error; }, 15000));

        // New events reach the provider through the new watch.
        const int before = changes;
        QVERIFY_RESULT(await<void>([&](auto cb) { p->stop(id, cb); }, 30000));
        QVERIFY(waitUntil([&] { return changes > before; }, 15000));
        QVERIFY_RESULT(await<void>([&](auto cb) { p->remove(id, cb); }, 30000));
        auto gone = await<SessionInfo>([&](auto cb) { p->info(id, cb); });
        QCOMPARE(gone.code(), ErrorCode::NotFound);
    }
};

QTEST_GUILESS_MAIN(TestPodmanServiceRestart)
#include "tst_podman_servicerestart.moc"
