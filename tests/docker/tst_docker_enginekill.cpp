// A private dockerd of this test's own is killed (SIGKILL) while a stats stream, a PTY, a
// command and the events watch are open: each must end with an error, nothing may hang.
#include "EngineKit.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QHash>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <csignal>
#include <nlohmann/json.hpp>
#include <sys/mount.h>
#include <unistd.h>

using namespace sandbar;
using namespace sandbar::test;

class TestDockerEngineKill : public QObject
{
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> m_dir;
    QProcess m_dockerd;
    QString m_sock;

    // Processes our dockerd left behind (its containerd, shims): found by the private
    // directory in their command line; and the containers below the shims, whose command
    // lines don't name it (the first engine's container outlives its SIGKILLed engine).
    // All collected before the first kill, which would reparent the containers to init.
    void reapLeftovers()
    {
        if (!m_dir)
            return;
        const QByteArray marker = m_dir->path().toUtf8();
        const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
        QSet<int> doomed;
        QHash<int, int> parentOf;
        for (const QString &pid : pids) {
            bool ok = false;
            const int n = pid.toInt(&ok);
            if (!ok || n == getpid())
                continue;
            QFile cmd(QStringLiteral("/proc/%1/cmdline").arg(pid));
            if (cmd.open(QIODevice::ReadOnly) && cmd.readAll().contains(marker))
                doomed.insert(n);
            QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
            if (stat.open(QIODevice::ReadOnly)) {
                const QByteArray s = stat.readAll();
                const QList<QByteArray> f = s.mid(s.lastIndexOf(')') + 2).split(' ');
                if (f.size() > 1)
                    parentOf.insert(n, f.at(1).toInt());
            }
        }
        for (bool more = true; more;) {
            more = false;
            for (auto it = parentOf.cbegin(); it != parentOf.cend(); ++it) {
                if (!doomed.contains(it.key()) && doomed.contains(it.value())) {
                    doomed.insert(it.key());
                    more = true;
                }
            }
        }
        for (const int n : std::as_const(doomed))
            ::kill(n, SIGKILL);
        QFile mounts(QStringLiteral("/proc/self/mountinfo"));
        if (mounts.open(QIODevice::ReadOnly)) {
            QList<QByteArray> points;
            for (const QByteArray &line : mounts.readAll().split('\n')) {
                const QList<QByteArray> f = line.split(' ');
                if (f.size() > 4 && f.at(4).startsWith(marker))
                    points.prepend(f.at(4));
            }
            for (const QByteArray &p : points)
                ::umount2(p.constData(), MNT_DETACH);
        }
    }

    QString m_dockerdPath;
    QByteArray m_imageTar;

    // A dockerd with its state under m_dir/<name>, serving m_sock, with the test image.
    void startEngine(const QString &name)
    {
        const QString d = m_dir->filePath(name);
        QDir().mkpath(d);
        QFile::remove(m_sock);
        m_dockerd.setProgram(m_dockerdPath);
        m_dockerd.setArguments({QStringLiteral("--data-root"), d + QStringLiteral("/data"),
                                QStringLiteral("--exec-root"), d + QStringLiteral("/exec"), QStringLiteral("-H"),
                                QStringLiteral("unix://") + m_sock, QStringLiteral("--pidfile"),
                                d + QStringLiteral("/d.pid"), QStringLiteral("--bridge=none"),
                                QStringLiteral("--iptables=false"), QStringLiteral("--ip-masq=false"),
                                QStringLiteral("--ip-forward=false"), QStringLiteral("--userland-proxy=false"),
                                QStringLiteral("--storage-driver=vfs"), QStringLiteral("--default-ipc-mode=private")});
        m_dockerd.setStandardOutputFile(d + QStringLiteral("/dockerd.log"));
        m_dockerd.setStandardErrorFile(d + QStringLiteral("/dockerd.log"));
        m_dockerd.start();
        QVERIFY(m_dockerd.waitForStarted());
        const bool up = waitUntil(
            [&] {
                if (!QFile::exists(m_sock))
                    return false;
                auto r = engineRequest(QStringLiteral("unix://") + m_sock, "GET", "/_ping", {}, 1000);
                return r.ok() && r->status == 200;
            },
            60000);
        QVERIFY2(up, "the private dockerd did not answer within 60 s");
        auto loaded = engineRequest(QStringLiteral("unix://") + m_sock, "POST", "/images/load?quiet=1", m_imageTar);
        QVERIFY_RESULT(loaded);
        QCOMPARE(loaded->status, 200);
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDBAR_REQUIRE(!dockerHost().isEmpty(),
                        QStringLiteral("SANDBAR_TEST_DOCKER_HOST is not set (the image comes from there)"));
        const QString dockerd = QStandardPaths::findExecutable(QStringLiteral("dockerd"));
        SANDBAR_REQUIRE(!dockerd.isEmpty(), QStringLiteral("dockerd is not installed"));
        SANDBAR_REQUIRE(geteuid() == 0, QStringLiteral("starting a private dockerd needs root"));
        m_dir = std::make_unique<QTemporaryDir>(QStringLiteral("/tmp/sbkill-XXXXXX"));
        QVERIFY(m_dir->isValid());
        m_sock = m_dir->path() + QStringLiteral("/d.sock");
        m_dockerdPath = dockerd;
        // The image travels from the shared engine: no registry is reachable.
        auto saved = engineRequest(dockerHost(), "GET", "/images/" + QUrl::toPercentEncoding(testImage()) + "/get");
        QVERIFY_RESULT(saved);
        QCOMPARE(saved->status, 200);
        m_imageTar = saved->body;
        startEngine(QStringLiteral("one"));
        if (QTest::currentTestFailed())
            return;
    }

    void cleanupTestCase()
    {
        if (m_dockerd.state() != QProcess::NotRunning) {
            m_dockerd.kill();
            m_dockerd.waitForFinished(5000);
        }
        reapLeftovers();
    }

    void killedMidStream()
    {
        auto p = makeEngineProvider(docker::Flavour::Docker, QStringLiteral("unix://") + m_sock);
        auto *dp = qobject_cast<docker::DockerProvider *>(p.get());
        dp->setEventsBackoff(std::chrono::milliseconds(50), std::chrono::milliseconds(200));
        CreateSpec spec;
        spec.image = testImage();
        spec.ttlSeconds = 60; // a safety net should cleanup miss it
        auto s = await<SessionInfo>([&](auto cb) { p->create(spec, cb); }, 60000);
        QVERIFY_RESULT(s);
        const QString id = s->id;

        int changes = 0;
        connect(p.get(), &Provider::sessionChanged, this, [&](const SessionInfo &) { ++changes; });
        QVERIFY(waitUntil([&] { return dp->eventsConnected(); }, 10000));

        auto stream = p->streamStats(id);
        int samples = 0;
        std::optional<Error> streamError;
        connect(stream.get(), &StatsStream::sample, this, [&](const StatsSample &) { ++samples; });
        connect(stream.get(), &StatsStream::errorOccurred, this, [&](const Error &e) { streamError = e; });
        stream->start();

        auto pty = p->openPty(id, {});
        PtyProbe probe;
        probe.attach(pty.get());
        pty->start();

        ExecRequest sleeper;
        sleeper.argv = QStringList{QStringLiteral("sleep"), QStringLiteral("30")};
        auto job = p->exec(id, sleeper);
        std::optional<Result<int>> jobResult;
        connect(job.get(), &ExecJob::finished, this, [&](const Result<int> &r) { jobResult = r; });
        job->start();

        QVERIFY(waitUntil([&] { return samples >= 1 && probe.started; }, 15000));
        pty->write("echo alive-$((1+1))\n");
        QVERIFY(probe.waitFor("alive-2"));
        // The sleeper's exec has started once its process shows in the container.
        QVERIFY2(waitUntil(
                     [&] {
                         pty->write("ps | grep -q \"[s]leep 30\" && echo sleeper-$((2+2))\n");
                         return probe.waitFor("sleeper-4", 500);
                     },
                     30000),
                 probe.output.constData());

        m_dockerd.kill(); // SIGKILL
        QVERIFY(m_dockerd.waitForFinished(5000));

        QVERIFY2(waitUntil([&] { return streamError.has_value(); }, 10000), "the stats stream did not notice");
        QVERIFY(waitUntil([&] { return probe.error.has_value() || probe.finishedCode.has_value(); }, 10000));
        QVERIFY(waitUntil([&] { return jobResult.has_value(); }, 10000));
        QVERIFY(!jobResult->ok());
        QVERIFY(waitUntil([&] { return !dp->eventsConnected(); }, 10000));
        QVERIFY(waitUntil([&] { return !pty->isOpen(); }, 10000));

        // Later calls fail at once and say why.
        auto info = await<SessionInfo>([&](auto cb) { p->info(id, cb); }, 10000);
        QVERIFY(!info);
        QCOMPARE(info.code(), ErrorCode::Unavailable);
        auto st = await<StatsSample>([&](auto cb) { p->stats(id, cb); }, 10000);
        QCOMPARE(st.code(), ErrorCode::Unavailable);

        // An engine answers on that socket again: the events watch reconnects by itself.
        startEngine(QStringLiteral("two"));
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(waitUntil([&] { return dp->eventsConnected(); }, 30000), "events did not reconnect");
        const int before = changes;
        auto again = await<SessionInfo>([&](auto cb) { p->create(spec, cb); }, 60000);
        QVERIFY_RESULT(again);
        QVERIFY(waitUntil([&] { return changes > before; }, 15000));
        QVERIFY_RESULT(await<void>([&](auto cb) { p->remove(again->id, cb); }, 30000));
    }
};

QTEST_GUILESS_MAIN(TestDockerEngineKill)
#include "tst_docker_enginekill.moc"
