#pragma once
// A dockerd of one test's own, which the test may SIGKILL and start again: its state lives
// under a private directory, it serves a private socket, and it holds the test image copied
// from the shared engine (no registry is reachable). Needs root and dockerd.

#include "EngineKit.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrl>
#include <csignal>
#include <memory>
#include <sys/mount.h>
#include <unistd.h>

namespace sandbar::test {

class PrivateDockerd
{
public:
    // Fails (in CI) or skips the calling test when the prerequisites are missing.
    void prepare()
    {
        SANDBAR_REQUIRE(!dockerHost().isEmpty(),
                        QStringLiteral("SANDBAR_TEST_DOCKER_HOST is not set (the image comes from there)"));
        m_dockerdPath = QStandardPaths::findExecutable(QStringLiteral("dockerd"));
        SANDBAR_REQUIRE(!m_dockerdPath.isEmpty(), QStringLiteral("dockerd is not installed"));
        SANDBAR_REQUIRE(geteuid() == 0, QStringLiteral("starting a private dockerd needs root"));
        m_dir = std::make_unique<QTemporaryDir>(QStringLiteral("/tmp/sbkill-XXXXXX"));
        QVERIFY(m_dir->isValid());
        m_sock = m_dir->path() + QStringLiteral("/d.sock");
        auto saved = engineRequest(dockerHost(), "GET", "/images/" + QUrl::toPercentEncoding(testImage()) + "/get");
        QVERIFY_RESULT(saved);
        QCOMPARE(saved->status, 200);
        m_imageTar = saved->body;
    }

    bool prepared() const { return !m_imageTar.isEmpty(); }
    QString endpoint() const { return QStringLiteral("unix://") + m_sock; }

    // Starts (or starts again) a dockerd with its state under <dir>/<name>, loading the test
    // image unless it is there. With liveRestore its containers outlive its death: the
    // shims keep them, and the next engine on the same state picks them up again.
    void start(const QString &name, bool liveRestore = false)
    {
        QVERIFY2(m_dockerd.state() == QProcess::NotRunning, "the private dockerd is still running");
        const QString d = m_dir->filePath(name);
        QDir().mkpath(d);
        QFile::remove(m_sock);
        QStringList args{QStringLiteral("--data-root"),
                         d + QStringLiteral("/data"),
                         QStringLiteral("--exec-root"),
                         d + QStringLiteral("/exec"),
                         QStringLiteral("-H"),
                         endpoint(),
                         QStringLiteral("--pidfile"),
                         d + QStringLiteral("/d.pid"),
                         QStringLiteral("--bridge=none"),
                         QStringLiteral("--iptables=false"),
                         QStringLiteral("--ip-masq=false"),
                         QStringLiteral("--ip-forward=false"),
                         QStringLiteral("--userland-proxy=false"),
                         QStringLiteral("--storage-driver=vfs"),
                         QStringLiteral("--default-ipc-mode=private")};
        if (liveRestore)
            args << QStringLiteral("--live-restore");
        startContainerd(d);
        if (QTest::currentTestFailed())
            return;
        args << QStringLiteral("--containerd") << containerdSocket(d);
        m_dockerd.setProgram(m_dockerdPath);
        m_dockerd.setArguments(args);
        m_dockerd.setStandardOutputFile(d + QStringLiteral("/dockerd.log"), QIODevice::Append);
        m_dockerd.setStandardErrorFile(d + QStringLiteral("/dockerd.log"), QIODevice::Append);
        m_dockerd.start();
        QVERIFY(m_dockerd.waitForStarted());
        const bool up = waitForEngine(endpoint(), m_sock, 60000);
        if (!up) {
            QFile log(d + QStringLiteral("/dockerd.log"));
            const QByteArray tail = log.open(QIODevice::ReadOnly) ? log.readAll().right(3000) : QByteArray();
            QVERIFY2(up,
                     qPrintable(QStringLiteral("the private dockerd did not answer within 60 s (%1); its log ends:\n%2")
                                    .arg(m_dockerd.state() == QProcess::NotRunning ? QStringLiteral("it exited")
                                                                                   : QStringLiteral("it runs"),
                                         QString::fromUtf8(tail))));
        }
        auto have = engineRequest(endpoint(), "GET", "/images/" + QUrl::toPercentEncoding(testImage()) + "/json");
        if (have.ok() && have->status == 200)
            return;
        auto loaded = engineRequest(endpoint(), "POST", "/images/load?quiet=1", m_imageTar);
        QVERIFY_RESULT(loaded);
        QCOMPARE(loaded->status, 200);
    }

    // SIGKILL, as the scenario has it.
    void kill()
    {
        if (m_dockerd.state() == QProcess::NotRunning)
            return;
        m_dockerd.kill();
        m_dockerd.waitForFinished(5000);
    }

    void stop()
    {
        kill();
        if (m_containerd.state() != QProcess::NotRunning) {
            m_containerd.kill();
            m_containerd.waitForFinished(5000);
        }
        reapLeftovers();
    }

    // Processes our dockerd left behind (its containerd, shims): found by the private
    // directory in their command line; and the containers below the shims, whose command
    // lines don't name it. Then the mounts below the private directory.
    void reapLeftovers()
    {
        if (m_dir)
            reapProcessesAndMountsUnder(m_dir->path());
    }

private:
    static QString containerdSocket(const QString &d) { return d + QStringLiteral("/containerd/c.sock"); }

    // A containerd of its own, as a system's service manager runs it beside dockerd: a
    // dockerd that starts its own makes it log through a pipe that dockerd reads, and once
    // dockerd is killed that pipe fills and the orphaned containerd stops answering, so the
    // next dockerd on the same state waits for it in vain.
    void startContainerd(const QString &d)
    {
        if (m_containerd.state() != QProcess::NotRunning)
            return;
        const QString c = d + QStringLiteral("/containerd");
        QDir().mkpath(c);
        QFile config(c + QStringLiteral("/config.toml"));
        QVERIFY(config.open(QIODevice::WriteOnly) && config.write("version = 2\n") > 0);
        config.close();
        m_containerd.setProgram(QStringLiteral("containerd"));
        m_containerd.setArguments({QStringLiteral("--config"), config.fileName(), QStringLiteral("--root"),
                                   c + QStringLiteral("/root"), QStringLiteral("--state"), c + QStringLiteral("/state"),
                                   QStringLiteral("--address"), containerdSocket(d), QStringLiteral("--log-level"),
                                   QStringLiteral("warn")});
        m_containerd.setStandardOutputFile(c + QStringLiteral("/containerd.log"), QIODevice::Append);
        m_containerd.setStandardErrorFile(c + QStringLiteral("/containerd.log"), QIODevice::Append);
        m_containerd.start();
        QVERIFY(m_containerd.waitForStarted());
        QVERIFY2(waitUntil([&] { return QFile::exists(containerdSocket(d)); }, 30000),
                 "the private containerd did not open its socket within 30 s");
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    QProcess m_containerd;
    QProcess m_dockerd;
    QString m_sock, m_dockerdPath;
    QByteArray m_imageTar;
};

} // namespace sandbar::test
