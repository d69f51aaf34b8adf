#include "TestSupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalServer>
#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <csignal>
#include <unistd.h>

using namespace sandbar;

namespace {

struct Run {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

} // namespace

// Drives the real sandbarctl binary. SANDBAR_CLI_ENGINE picks docker, podman, or none
// (usage and error paths that need no engine).
class TestSandbarctl final : public QObject
{
    Q_OBJECT
private:
    Run ctl(const QStringList &args, int timeoutMs = 60000, const QByteArray &input = {})
    {
        return ctlIn(m_config.path(), args, timeoutMs, input);
    }

    Run ctlIn(const QString &configDir, const QStringList &args, int timeoutMs = 60000, const QByteArray &input = {})
    {
        QProcess p;
        test::endWithTest(&p);
        QStringList full{QStringLiteral("--config-dir"), configDir};
        full += args;
        p.start(QStringLiteral(SANDBARCTL_PATH), full);
        if (!p.waitForStarted())
            return {};
        if (!input.isEmpty())
            p.write(input);
        p.closeWriteChannel();
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished();
            return Run{-2, p.readAllStandardOutput(), p.readAllStandardError() + "\n(timed out)"};
        }
        return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                   p.readAllStandardError()};
    }

    static QString describe(const Run &r)
    {
        return QStringLiteral("exit %1\nstdout: %2\nstderr: %3")
            .arg(r.code)
            .arg(QString::fromUtf8(r.out), QString::fromUtf8(r.err));
    }

    static bool oneLine(const QByteArray &err) { return err.trimmed().count('\n') == 0 && !err.trimmed().isEmpty(); }

    bool isLocal() const { return m_engine == QLatin1String("local"); }
    QString m_engine;
    QString m_host;
    QTemporaryDir m_config;
    QString m_ref;

private Q_SLOTS:
    void initTestCase()
    {
        m_engine = qEnvironmentVariable("SANDBAR_CLI_ENGINE");
        QVERIFY(m_config.isValid());
        if (m_engine == QLatin1String("none"))
            return;
        if (isLocal()) {
            SANDBAR_REQUIRE(!QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty(),
                            QStringLiteral("bubblewrap is not installed"));
            const Run add = ctl({QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("eng"),
                                 QStringLiteral("--provider"), QStringLiteral("local")});
            QVERIFY2(add.code == 0, qPrintable(describe(add)));
            return;
        }
        m_host = m_engine == QLatin1String("docker") ? test::dockerHost() : test::podmanHost();
        SANDBAR_REQUIRE(!m_host.isEmpty(), QStringLiteral("no %1 engine: run through ./test.sh").arg(m_engine));
        const Run add = ctl({QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("eng"),
                             QStringLiteral("--provider"), m_engine, QStringLiteral("--endpoint"), m_host});
        QVERIFY2(add.code == 0, qPrintable(describe(add)));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::newRow("no command") << QStringList{} << 2;
        QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")} << 2;
        QTest::newRow("unknown option") << QStringList{QStringLiteral("sessions"), QStringLiteral("list"),
                                                       QStringLiteral("--bogus")}
                                        << 2;
        QTest::newRow("exec without --") << QStringList{QStringLiteral("exec"), QStringLiteral("x/y")} << 2;
        QTest::newRow("create without account")
            << QStringList{QStringLiteral("sessions"), QStringLiteral("create")} << 2;
        QTest::newRow("ttl not a number") << QStringList{QStringLiteral("sessions"), QStringLiteral("ttl"),
                                                         QStringLiteral("a/b"), QStringLiteral("soon")}
                                          << 2;
        QTest::newRow("config-dir without value")
            << QStringList{QStringLiteral("accounts"), QStringLiteral("list"), QStringLiteral("--config-dir")} << 2;
        QTest::newRow("ref names no account")
            << QStringList{QStringLiteral("sessions"), QStringLiteral("info"), QStringLiteral("nosuch/abc")} << 1;
        QTest::newRow("ref names nothing")
            << QStringList{QStringLiteral("sessions"), QStringLiteral("stop"), QStringLiteral("abc")} << 1;
        QTest::newRow("remove unknown account")
            << QStringList{QStringLiteral("accounts"), QStringLiteral("remove"), QStringLiteral("ghost")} << 1;
        QTest::newRow("unknown provider")
            << QStringList{QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("x"),
                           QStringLiteral("--provider"), QStringLiteral("nope")}
            << 1;
        QTest::newRow("bad account name")
            << QStringList{QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("-x"),
                           QStringLiteral("--provider"), QStringLiteral("docker")}
            << 1;
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        const Run r = ctl(args, 20000);
        QVERIFY2(r.code == code, qPrintable(describe(r)));
        QVERIFY2(r.err.startsWith("sandbarctl"), qPrintable(describe(r)));
        if (code == 1)
            QVERIFY2(oneLine(r.err), qPrintable(describe(r)));
    }

    void unreachableEngineIsOneClearLine()
    {
        if (m_engine == QLatin1String("none") || isLocal())
            QSKIP("engine runs only (the Local provider has no endpoint)");
        const Run add = ctl({QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("gone"),
                             QStringLiteral("--provider"), m_engine, QStringLiteral("--endpoint"),
                             QStringLiteral("unix:///nonexistent/sandbar/docker.sock")});
        QVERIFY2(add.code == 0, qPrintable(describe(add)));
        const Run check = ctl({QStringLiteral("accounts"), QStringLiteral("check"), QStringLiteral("gone")}, 30000);
        QVERIFY2(check.code == 1 && oneLine(check.err), qPrintable(describe(check)));
        QVERIFY2(check.err.contains("/nonexistent/sandbar/docker.sock"), qPrintable(describe(check)));
        const Run rm = ctl({QStringLiteral("accounts"), QStringLiteral("remove"), QStringLiteral("gone")});
        QCOMPARE(rm.code, 0);
    }

    void budgets()
    {
        if (m_engine != QLatin1String("none"))
            QSKIP("runs once, in the usage test (needs no engine)");
        const Run add = ctl({QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("b1"),
                             QStringLiteral("--provider"), QStringLiteral("docker"), QStringLiteral("--endpoint"),
                             QStringLiteral("unix:///nonexistent/docker.sock")});
        QVERIFY2(add.code == 0, qPrintable(describe(add)));
        const Run set =
            ctl({QStringLiteral("budget"), QStringLiteral("b1"), QStringLiteral("25.5"), QStringLiteral("--stop")});
        QVERIFY2(set.code == 0, qPrintable(describe(set)));
        const Run list = ctl({QStringLiteral("--json"), QStringLiteral("budget")});
        QVERIFY2(list.code == 0, qPrintable(describe(list)));
        const QJsonArray arr = QJsonDocument::fromJson(list.out).array();
        QCOMPARE(arr.size(), 1);
        QCOMPARE(arr.at(0)[QStringLiteral("account")].toString(), QStringLiteral("b1"));
        QCOMPARE(arr.at(0)[QStringLiteral("monthly_usd")].toDouble(), 25.5);
        QCOMPARE(arr.at(0)[QStringLiteral("stop_at_limit")].toBool(), true);
        // Changing the amount keeps --stop unless told otherwise.
        QCOMPARE(ctl({QStringLiteral("budget"), QStringLiteral("b1"), QStringLiteral("30")}).code, 0);
        const Run one = ctl({QStringLiteral("budget"), QStringLiteral("b1")});
        QVERIFY2(one.code == 0 && one.out.contains("$30.00") && one.out.contains("stop sessions"),
                 qPrintable(describe(one)));
        const Run bad = ctl({QStringLiteral("budget"), QStringLiteral("b1"), QStringLiteral("lots")});
        QCOMPARE(bad.code, 2);
        const Run ghost = ctl({QStringLiteral("budget"), QStringLiteral("ghost"), QStringLiteral("5")});
        QVERIFY2(ghost.code == 1 && oneLine(ghost.err), qPrintable(describe(ghost)));
        QCOMPARE(ctl({QStringLiteral("budget"), QStringLiteral("b1"), QStringLiteral("none")}).code, 0);
        const Run gone = ctl({QStringLiteral("budget"), QStringLiteral("b1")});
        QVERIFY2(gone.code == 1 && gone.err.contains("no budget"), qPrintable(describe(gone)));
        QCOMPARE(ctl({QStringLiteral("accounts"), QStringLiteral("remove"), QStringLiteral("b1")}).code, 0);
    }

    void permissionDeniedOnSocketIsOneClearLine()
    {
        // An engine socket the user may not open. Root opens any socket, so as root the
        // command runs as nobody (65534) through setpriv, as a user outside the docker group.
        if (m_engine != QLatin1String("none"))
            QSKIP("runs once, in the usage test (needs no engine)");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile::setPermissions(dir.path(), QFileDevice::Permissions(0x7777));
        QLocalServer server;
        server.setSocketOptions(QLocalServer::UserAccessOption);
        const QString sock = dir.filePath(QStringLiteral("docker.sock"));
        QVERIFY2(server.listen(sock), qPrintable(server.errorString()));
        QStringList prefix;
        if (::geteuid() == 0) {
            const QString setpriv = QStandardPaths::findExecutable(QStringLiteral("setpriv"));
            SANDBAR_REQUIRE(!setpriv.isEmpty(), QStringLiteral("setpriv (util-linux) is needed to drop root"));
            prefix = {setpriv, QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                      QStringLiteral("--clear-groups")};
        } else {
            QVERIFY(QFile::setPermissions(sock, QFileDevice::Permissions()));
        }
        const QString config = dir.filePath(QStringLiteral("config"));
        QVERIFY(QDir().mkpath(config));
        QFile::setPermissions(config, QFileDevice::Permissions(0x7777));
        auto run = [&](const QStringList &args) {
            QProcess p;
            test::endWithTest(&p);
            QStringList full = prefix;
            full << QStringLiteral(SANDBARCTL_PATH) << QStringLiteral("--config-dir") << config << args;
            auto env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("HOME"), config);
            env.remove(QStringLiteral("DOCKER_HOST"));
            p.setProcessEnvironment(env);
            p.start(full.takeFirst(), full);
            p.closeWriteChannel();
            if (!p.waitForFinished(30000))
                p.kill();
            p.waitForFinished();
            return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                       p.readAllStandardError()};
        };
        const Run add = run({QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("denied"),
                             QStringLiteral("--provider"), QStringLiteral("docker"), QStringLiteral("--endpoint"),
                             QStringLiteral("unix://") + sock});
        QVERIFY2(add.code == 0, qPrintable(describe(add)));
        const Run check = run({QStringLiteral("accounts"), QStringLiteral("check"), QStringLiteral("denied")});
        QVERIFY2(check.code == 1 && oneLine(check.err), qPrintable(describe(check)));
        QVERIFY2(check.err.contains("Permission denied") && check.err.contains(sock.toUtf8()),
                 qPrintable(describe(check)));
        const Run list = run({QStringLiteral("sessions"), QStringLiteral("list"), QStringLiteral("--account"),
                              QStringLiteral("denied")});
        QVERIFY2(list.code == 1 && list.err.contains("Permission denied"), qPrintable(describe(list)));
    }

    void lifecycle()
    {
        if (m_engine == QLatin1String("none"))
            QSKIP("engine runs only");
        const Run check =
            ctl({QStringLiteral("accounts"), QStringLiteral("check"), QStringLiteral("eng"), QStringLiteral("--json")});
        QVERIFY2(check.code == 0, qPrintable(describe(check)));
        QVERIFY(QJsonDocument::fromJson(check.out).object().value(QStringLiteral("ok")).toBool());

        QTemporaryDir mount;
        // The sandbox runs as an unprivileged user: let it read (not write) the folder.
        QFile::setPermissions(mount.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                                QFileDevice::ReadOther | QFileDevice::ExeOther);
        QFile marker(QDir(mount.path()).filePath(QStringLiteral("from-host.txt")));
        QVERIFY(marker.open(QIODevice::WriteOnly));
        marker.write("host says hi\n");
        marker.close();
        marker.setPermissions(QFileDevice::ReadOwner | QFileDevice::ReadOther);
        const Run create =
            ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                 QStringLiteral("eng"), QStringLiteral("--image"), test::testImage(), QStringLiteral("--ttl"),
                 QStringLiteral("900"), QStringLiteral("--env"), QStringLiteral("GREETING=hello world"),
                 QStringLiteral("--name"), QStringLiteral("cli-%1").arg(m_engine), QStringLiteral("--memory-mib"),
                 QStringLiteral("128"), QStringLiteral("--cpus"), QStringLiteral("0.5"), QStringLiteral("--mount"),
                 mount.path() + QStringLiteral(":/hostdata:ro")},
                120000);
        QVERIFY2(create.code == 0, qPrintable(describe(create)));
        m_ref = QString::fromUtf8(create.out).trimmed();
        QVERIFY2(m_ref.startsWith(QLatin1String("eng/")), qPrintable(m_ref));

        const Run list = ctl({QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("list")});
        QVERIFY2(list.code == 0, qPrintable(describe(list)));
        bool listed = false;
        for (const auto &v : QJsonDocument::fromJson(list.out).array())
            listed = listed || v.toObject().value(QStringLiteral("ref")).toString() == m_ref;
        QVERIFY2(listed, qPrintable(describe(list)));

        const Run exec = ctl({QStringLiteral("exec"), m_ref, QStringLiteral("--"), QStringLiteral("sh"),
                              QStringLiteral("-c"), QStringLiteral("echo \"$GREETING\"; echo oops >&2; exit 7")});
        QVERIFY2(exec.code == 7, qPrintable(describe(exec)));
        QCOMPARE(exec.out, QByteArray("hello world\n"));
        QCOMPARE(exec.err, QByteArray("oops\n"));

        // Ctrl-C on `sandbarctl exec` ends the command in the session too, even one that
        // ignores TERM, and the exit is the shell's 130.
        {
            QProcess p;
            test::endWithTest(&p);
            p.start(QStringLiteral(SANDBARCTL_PATH),
                    {QStringLiteral("--config-dir"), m_config.path(), QStringLiteral("exec"), m_ref,
                     QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                     QStringLiteral("trap '' TERM; sleep 304")});
            QVERIFY(p.waitForStarted());
            const auto sleeping = [this] {
                // procps' ps shows only this terminal's processes without "ax"; busybox's ignores it.
                const Run ps = ctl(
                    {QStringLiteral("exec"), m_ref, QStringLiteral("--"), QStringLiteral("ps"), QStringLiteral("ax")});
                return ps.out.contains("sleep 304");
            };
            QVERIFY2(test::waitUntil(sleeping, 30000), "the command never started");
            ::kill(pid_t(p.processId()), SIGINT);
            QVERIFY(p.waitForFinished(30000));
            QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 130,
                     qPrintable(QString::fromUtf8(p.readAllStandardError())));
            QVERIFY2(test::waitUntil([&] { return !sleeping(); }, 30000), "the command outlived Ctrl-C");
        }

        const Run readHost = ctl({QStringLiteral("exec"), m_ref, QStringLiteral("--"), QStringLiteral("cat"),
                                  QStringLiteral("/hostdata/from-host.txt")});
        QVERIFY2(readHost.code == 0 && readHost.out == "host says hi\n", qPrintable(describe(readHost)));
        const Run writeHost = ctl({QStringLiteral("exec"), m_ref, QStringLiteral("--"), QStringLiteral("sh"),
                                   QStringLiteral("-c"), QStringLiteral("echo x > /hostdata/new")});
        QVERIFY2(writeHost.code != 0, qPrintable(describe(writeHost)));

        // Files both ways, with an awkward name.
        QTemporaryDir local;
        const QString name = QStringLiteral("-odd name ünï.txt");
        QFile up(QDir(local.path()).filePath(name));
        QVERIFY(up.open(QIODevice::WriteOnly));
        up.write(QByteArray(300000, 'z'));
        up.close();
        const Run cpUp = ctl({QStringLiteral("cp"), up.fileName(), m_ref + QStringLiteral(":/workspace")});
        QVERIFY2(cpUp.code == 0, qPrintable(describe(cpUp)));
        const Run ls = ctl({QStringLiteral("--json"), QStringLiteral("ls"), m_ref + QStringLiteral(":/workspace")});
        QVERIFY2(ls.code == 0, qPrintable(describe(ls)));
        bool seen = false;
        for (const auto &v : QJsonDocument::fromJson(ls.out).array()) {
            const auto o = v.toObject();
            if (o.value(QStringLiteral("name")).toString() == name)
                seen = o.value(QStringLiteral("size")).toDouble() == 300000;
        }
        QVERIFY2(seen, qPrintable(describe(ls)));
        QTemporaryDir back;
        const Run cpDown = ctl({QStringLiteral("cp"), m_ref + QStringLiteral(":/workspace/") + name, back.path()});
        QVERIFY2(cpDown.code == 0, qPrintable(describe(cpDown)));
        QFile down(QDir(back.path()).filePath(name));
        QVERIFY(down.open(QIODevice::ReadOnly));
        QCOMPARE(down.readAll(), QByteArray(300000, 'z'));

        // mv and chmod: a bare name renames in place, a taken name is refused with one line and
        // nothing moved, and the new mode is what ls reads back.
        const QString renamed = QStringLiteral("moved ") + name;
        const Run mv = ctl({QStringLiteral("mv"), m_ref + QStringLiteral(":/workspace/") + name, renamed});
        QVERIFY2(mv.code == 0, qPrintable(describe(mv)));
        const Run taken =
            ctl({QStringLiteral("mv"), m_ref + QStringLiteral(":/workspace/") + renamed, QStringLiteral("/workspace")});
        QVERIFY2(taken.code == 1 && oneLine(taken.err) && taken.err.contains("exists"), qPrintable(describe(taken)));
        const Run mode =
            ctl({QStringLiteral("chmod"), QStringLiteral("640"), m_ref + QStringLiteral(":/workspace/") + renamed});
        QVERIFY2(mode.code == 0, qPrintable(describe(mode)));
        const Run badMode =
            ctl({QStringLiteral("chmod"), QStringLiteral("9z"), m_ref + QStringLiteral(":/workspace/") + renamed});
        QVERIFY2(badMode.code == 2, qPrintable(describe(badMode)));
        const Run after = ctl({QStringLiteral("--json"), QStringLiteral("ls"), m_ref + QStringLiteral(":/workspace")});
        QVERIFY2(after.code == 0, qPrintable(describe(after)));
        QStringList modes;
        for (const auto &v : QJsonDocument::fromJson(after.out).array()) {
            const auto o = v.toObject();
            if (o.value(QStringLiteral("name")).toString() == name)
                modes << QStringLiteral("old name still there");
            if (o.value(QStringLiteral("name")).toString() == renamed)
                modes << o.value(QStringLiteral("mode")).toString();
        }
        QCOMPARE(modes, QStringList{QStringLiteral("640")});

        // Upload into a read-only mount: one clear line, nothing half-done.
        const Run cpRo = ctl({QStringLiteral("cp"), up.fileName(), m_ref + QStringLiteral(":/hostdata")});
        QVERIFY2(cpRo.code == 1 && oneLine(cpRo.err), qPrintable(describe(cpRo)));

        // An interactive shell on a terminal of our own (script(1) gives sandbarctl a PTY).
        {
            QProcess p;
            test::endWithTest(&p);
            p.start(QStringLiteral("script"), {QStringLiteral("-qfec"),
                                               QStringLiteral("%1 --config-dir %2 shell %3")
                                                   .arg(QStringLiteral(SANDBARCTL_PATH), m_config.path(), m_ref),
                                               QStringLiteral("/dev/null")});
            QVERIFY(p.waitForStarted());
            p.write("stty size; echo \"ans$((6*7))\"; exit 5\n");
            QVERIFY(p.waitForFinished(30000));
            const QByteArray out = p.readAllStandardOutput();
            QVERIFY2(out.contains("ans42"), out.constData());
            QCOMPARE(p.exitCode(), 5);
        }

        const Run stats = ctl({QStringLiteral("--json"), QStringLiteral("stats"), m_ref, QStringLiteral("--once")});
        QVERIFY2(stats.code == 0, qPrintable(describe(stats)));
        const auto sample = QJsonDocument::fromJson(stats.out.trimmed()).object();
        QVERIFY2(sample.value(QStringLiteral("memory_used_bytes")).toDouble() > 0, qPrintable(describe(stats)));
        QVERIFY2(sample.value(QStringLiteral("pids")).toDouble() >= 1, qPrintable(describe(stats)));

        const Run info = ctl({QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("info"), m_ref});
        QVERIFY2(info.code == 0, qPrintable(describe(info)));
        const auto o = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(o.value(QStringLiteral("state")).toString(), QStringLiteral("running"));
        QCOMPARE(o.value(QStringLiteral("name")).toString(), QStringLiteral("cli-%1").arg(m_engine));
        QCOMPARE(o.value(QStringLiteral("ttl_seconds")).toDouble(), 900.0);

        const Run ttl = ctl({QStringLiteral("sessions"), QStringLiteral("ttl"), m_ref, QStringLiteral("1800")});
        QVERIFY2(ttl.code == 0, qPrintable(describe(ttl)));

        const bool canPause =
            o.value(QStringLiteral("capabilities")).toArray().contains(QJsonValue(QStringLiteral("pauseResume")));
        if (canPause) {
            QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("pause"), m_ref}).code, 0);
            const Run paused =
                ctl({QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("info"), m_ref});
            QCOMPARE(QJsonDocument::fromJson(paused.out).object().value(QStringLiteral("state")).toString(),
                     QStringLiteral("paused"));
            QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("resume"), m_ref}).code, 0);
        } else {
            // A capability the provider lacks is one clear line, not a crash.
            const Run pause = ctl({QStringLiteral("sessions"), QStringLiteral("pause"), m_ref});
            QVERIFY2(pause.code == 1 && oneLine(pause.err) && pause.err.contains("pauseResume"),
                     qPrintable(describe(pause)));
        }

        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("stop"), m_ref}, 60000).code, 0);
        const Run execStopped = ctl({QStringLiteral("exec"), m_ref, QStringLiteral("--"), QStringLiteral("true")});
        QVERIFY2(execStopped.code == 1 && oneLine(execStopped.err), qPrintable(describe(execStopped)));

        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), m_ref}).code, 0);
        const Run gone = ctl({QStringLiteral("sessions"), QStringLiteral("info"), m_ref});
        QVERIFY2(gone.code == 1 && oneLine(gone.err), qPrintable(describe(gone)));
        m_ref.clear();
    }

    void badInputs()
    {
        if (m_engine == QLatin1String("none") || isLocal())
            QSKIP("engine runs only (the Local provider has no images and no engine to go behind)");
        const Run noImage =
            ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                 QStringLiteral("eng"), QStringLiteral("--image"), QStringLiteral("sandbar-test/does-not-exist:1")},
                120000);
        QVERIFY2(noImage.code == 1 && oneLine(noImage.err), qPrintable(describe(noImage)));
        QVERIFY2(noImage.err.contains("sandbar-test/does-not-exist:1"), qPrintable(describe(noImage)));

        // A session removed behind Sandbar's back.
        const Run create = ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                                QStringLiteral("eng"), QStringLiteral("--image"), test::testImage()},
                               120000);
        QVERIFY2(create.code == 0, qPrintable(describe(create)));
        const QString ref = QString::fromUtf8(create.out).trimmed();
        const QString id = ref.section(QLatin1Char('/'), 1);
        QProcess curl;
        test::endWithTest(&curl);
        curl.start(QStringLiteral("curl"),
                   {QStringLiteral("-sf"), QStringLiteral("--unix-socket"), m_host.mid(7), QStringLiteral("-X"),
                    QStringLiteral("DELETE"), QStringLiteral("http://localhost/containers/%1?force=1").arg(id)});
        QVERIFY(curl.waitForFinished(30000));
        QCOMPARE(curl.exitCode(), 0);
        for (const auto &verb : {QStringLiteral("info"), QStringLiteral("stop"), QStringLiteral("rm")}) {
            const Run r = ctl({QStringLiteral("sessions"), verb, ref});
            QVERIFY2(r.code == 1 && oneLine(r.err), qPrintable(describe(r)));
        }
        const Run ex = ctl({QStringLiteral("exec"), ref, QStringLiteral("--"), QStringLiteral("true")});
        QVERIFY2(ex.code == 1 && oneLine(ex.err), qPrintable(describe(ex)));
    }

    void adoptForeignContainer()
    {
        if (m_engine == QLatin1String("none") || isLocal())
            QSKIP("engine runs only (the Local provider has nothing foreign to adopt)");
        // A container made without Sandbar, straight through the engine's API.
        const QString sock = m_host.mid(int(qstrlen("unix://")));
        const auto api = [&](const QString &method, const QString &path, const QByteArray &body = {}) {
            QProcess curl;
            test::endWithTest(&curl);
            QStringList args{QStringLiteral("-sf"), QStringLiteral("--unix-socket"), sock, QStringLiteral("-X"),
                             method};
            if (!body.isEmpty())
                args << QStringLiteral("-H") << QStringLiteral("Content-Type: application/json")
                     << QStringLiteral("--data-binary") << QString::fromUtf8(body);
            curl.start(QStringLiteral("curl"), args << QStringLiteral("http://localhost") + path);
            curl.waitForFinished(60000);
            return curl.exitCode() == 0 ? curl.readAllStandardOutput() : QByteArray();
        };
        const QJsonObject spec{
            {QStringLiteral("Image"), test::testImage()},
            {QStringLiteral("Cmd"), QJsonArray{QStringLiteral("sleep"), QStringLiteral("600")}},
            {QStringLiteral("HostConfig"), QJsonObject{{QStringLiteral("NetworkMode"), QStringLiteral("none")}}}};
        const QByteArray created = api(QStringLiteral("POST"), QStringLiteral("/containers/create"),
                                       QJsonDocument(spec).toJson(QJsonDocument::Compact));
        const QString id = QJsonDocument::fromJson(created).object().value(QStringLiteral("Id")).toString();
        QVERIFY2(!id.isEmpty(), created.constData());
        api(QStringLiteral("POST"), QStringLiteral("/containers/%1/start").arg(id));
        const QString ref = QStringLiteral("eng/") + id;
        auto listed = [&](bool all) -> std::optional<QJsonObject> {
            QStringList args{QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("list"),
                             QStringLiteral("--account"), QStringLiteral("eng")};
            if (all)
                args << QStringLiteral("--all");
            const Run r = ctl(args);
            if (r.code != 0)
                return QJsonObject{{QStringLiteral("error"), QString::fromUtf8(r.err)}};
            for (const auto v : QJsonDocument::fromJson(r.out).array()) {
                if (v.toObject().value(QStringLiteral("id")).toString() == id)
                    return v.toObject();
            }
            return std::nullopt;
        };
        QVERIFY2(!listed(false), "a foreign container is not in Sandbar's listing");
        const auto foreign = listed(true);
        QVERIFY2(foreign && foreign->value(QStringLiteral("owned")) == false, "--all lists it, not Sandbar's");

        const Run adopt = ctl({QStringLiteral("sessions"), QStringLiteral("adopt"), ref});
        QVERIFY2(adopt.code == 0 && adopt.out.trimmed() == ref.toUtf8(), qPrintable(describe(adopt)));
        const auto adopted = listed(false);
        QVERIFY2(adopted && adopted->value(QStringLiteral("adopted")) == true, "adopted: in Sandbar's listing");
        // Adopting Sandbar's own session is refused with a reason.
        const Run own = ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                             QStringLiteral("eng"), QStringLiteral("--image"), test::testImage()},
                            120000);
        QVERIFY2(own.code == 0, qPrintable(describe(own)));
        const QString ownRef = QString::fromUtf8(own.out).trimmed();
        const Run again = ctl({QStringLiteral("sessions"), QStringLiteral("adopt"), ownRef});
        QVERIFY2(again.code == 1 && oneLine(again.err) && again.err.contains("nothing to adopt"),
                 qPrintable(describe(again)));
        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ownRef}).code, 0);
        // Removing it ends it and the adoption.
        const Run rm = ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ref});
        QVERIFY2(rm.code == 0, qPrintable(describe(rm)));
        QVERIFY(!listed(true));
        const Run audit = ctl({QStringLiteral("--json"), QStringLiteral("audit"), QStringLiteral("--action"),
                               QStringLiteral("session.adopted")});
        QVERIFY2(audit.code == 0 && audit.out.contains(id.toUtf8()), qPrintable(describe(audit)));
    }

    // Without --ttl a session ends itself after an hour; --ttl 0 (no limit) is allowed but
    // warned about on stderr, before any engine is asked.
    void defaultTtlAndNoLimitWarning()
    {
        const QByteArray warning = "warning: no time limit: this session runs until you stop it";
        if (m_engine == QLatin1String("none")) {
            const Run add = ctl({QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("nowhere"),
                                 QStringLiteral("--provider"), QStringLiteral("docker"), QStringLiteral("--endpoint"),
                                 QStringLiteral("unix:///nonexistent/sandbar/docker.sock")});
            QVERIFY2(add.code == 0, qPrintable(describe(add)));
            const QStringList base{QStringLiteral("sessions"), QStringLiteral("create"),  QStringLiteral("--account"),
                                   QStringLiteral("nowhere"),  QStringLiteral("--image"), QStringLiteral("busybox")};
            const Run none = ctl(base + QStringList{QStringLiteral("--ttl"), QStringLiteral("0")}, 30000);
            QVERIFY2(none.code == 1 && none.err.startsWith(warning), qPrintable(describe(none)));
            const Run hour = ctl(base, 30000);
            QVERIFY2(hour.code == 1 && !hour.err.contains("warning"), qPrintable(describe(hour)));
            return;
        }
        const auto ttlOf = [this](const QStringList &extra, Run *create) -> double {
            *create = ctl(QStringList{QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                                      QStringLiteral("eng"), QStringLiteral("--image"), test::testImage()} +
                              extra,
                          120000);
            if (create->code != 0)
                return -1;
            const QString ref = QString::fromUtf8(create->out).trimmed();
            const Run info = ctl({QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("info"), ref});
            ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ref});
            return QJsonDocument::fromJson(info.out).object().value(QStringLiteral("ttl_seconds")).toDouble(-2);
        };
        Run create;
        QCOMPARE(ttlOf({}, &create), 3600.0);
        QVERIFY2(!create.err.contains("warning"), qPrintable(describe(create)));
        QCOMPARE(ttlOf({QStringLiteral("--ttl"), QStringLiteral("0")}, &create), 0.0);
        QVERIFY2(create.err.startsWith(warning), qPrintable(describe(create)));
    }

    // The first start makes accounts for what it finds (the Local sandbox, where bubblewrap
    // works), once per config folder: a default the user removed stays removed at every
    // later start. Each start is its own process, since QSettings caches a file within one.
    void removedDefaultStaysRemoved()
    {
        if (m_engine != QLatin1String("none"))
            QSKIP("runs once, in the usage test (needs no engine)");
        SANDBAR_REQUIRE(!QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty(),
                        QStringLiteral("bubblewrap is not installed"));
        QTemporaryDir cfg;
        QVERIFY(cfg.isValid());
        const QStringList list{QStringLiteral("accounts"), QStringLiteral("list")};
        const QRegularExpression localRow(QStringLiteral("^local\\s"), QRegularExpression::MultilineOption);
        const Run first = ctlIn(cfg.path(), list);
        QVERIFY2(first.code == 0 && localRow.match(QString::fromUtf8(first.out)).hasMatch(),
                 qPrintable(describe(first)));
        const Run rm =
            ctlIn(cfg.path(), {QStringLiteral("accounts"), QStringLiteral("remove"), QStringLiteral("local")});
        QVERIFY2(rm.code == 0, qPrintable(describe(rm)));
        for (int start = 0; start < 2; ++start) {
            const Run later = ctlIn(cfg.path(), list);
            QVERIFY2(later.code == 0 && !localRow.match(QString::fromUtf8(later.out)).hasMatch(),
                     qPrintable(describe(later)));
        }
    }

    void configDirHoldsEverything()
    {
        // Runs the flows with --config-dir D while HOME, TMPDIR and every XDG folder point at
        // empty folders of a private root: afterwards those folders must still be empty
        // (nothing written outside D), and no file inside D may hold the secret the flows used.
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const QDir r(root.path());
        const QStringList outside{QStringLiteral("home"),      QStringLiteral("xdg-config"),
                                  QStringLiteral("xdg-data"),  QStringLiteral("xdg-cache"),
                                  QStringLiteral("xdg-state"), QStringLiteral("xdg-runtime"),
                                  QStringLiteral("tmp")};
        for (const auto &d : outside)
            QVERIFY(r.mkpath(d));
        QFile::setPermissions(r.filePath(QStringLiteral("xdg-runtime")),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        const QString config = r.filePath(QStringLiteral("D"));
        // sbtest-secret-: the marker secret_watch (test.sh) searches for in every file Sandbar writes.
        const QByteArray secret = "sbtest-secret-cfgdir-" + QByteArray::number(::getpid()) + "-7c3e91a4f0";
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), r.filePath(QStringLiteral("home")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), r.filePath(QStringLiteral("xdg-config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), r.filePath(QStringLiteral("xdg-data")));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), r.filePath(QStringLiteral("xdg-cache")));
        env.insert(QStringLiteral("XDG_STATE_HOME"), r.filePath(QStringLiteral("xdg-state")));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), r.filePath(QStringLiteral("xdg-runtime")));
        env.insert(QStringLiteral("TMPDIR"), r.filePath(QStringLiteral("tmp")));
        env.insert(QStringLiteral("SANDBAR_CFGDIR_TEST_KEY"), QString::fromLatin1(secret));
        env.remove(QStringLiteral("DOCKER_HOST"));
        const auto run = [&](const QStringList &args) {
            QProcess p;
            test::endWithTest(&p);
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(SANDBARCTL_PATH), QStringList{QStringLiteral("--config-dir"), config} + args);
            p.closeWriteChannel();
            if (!p.waitForFinished(120000)) {
                p.kill();
                p.waitForFinished();
                return Run{-2, p.readAllStandardOutput(), p.readAllStandardError() + "\n(timed out)"};
            }
            return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                       p.readAllStandardError()};
        };

        // A cloud account whose key goes to the keychain; its API answers nowhere (port 9, loopback).
        const Run add = run({QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("cloud"),
                             QStringLiteral("--provider"), QStringLiteral("daytona"), QStringLiteral("--api-key-env"),
                             QStringLiteral("SANDBAR_CFGDIR_TEST_KEY"), QStringLiteral("--endpoint"),
                             QStringLiteral("http://127.0.0.1:9/api")});
        SANDBAR_REQUIRE(add.code == 0 || qEnvironmentVariableIsSet("SANDBAR_TEST_KEYRING"),
                        QStringLiteral("no keychain to store the secret in: run through ./test.sh (%1)")
                            .arg(QString::fromUtf8(add.err.trimmed())));
        QVERIFY2(add.code == 0, qPrintable(describe(add)));
        QStringList accounts{QStringLiteral("cloud")};
        if (!m_host.isEmpty() || isLocal()) {
            QStringList engine{QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("eng"),
                               QStringLiteral("--provider"), m_engine};
            if (!m_host.isEmpty())
                engine << QStringLiteral("--endpoint") << m_host;
            const Run e = run(engine);
            QVERIFY2(e.code == 0, qPrintable(describe(e)));
            accounts << QStringLiteral("eng");
        }
        QVERIFY2(run({QStringLiteral("accounts"), QStringLiteral("list"), QStringLiteral("--json")}).code == 0,
                 "accounts list");
        for (const auto &a : accounts) {
            const Run check = run({QStringLiteral("accounts"), QStringLiteral("check"), a});
            QVERIFY2(!check.out.contains(secret) && !check.err.contains(secret), qPrintable(describe(check)));
            const Run list = run({QStringLiteral("sessions"), QStringLiteral("list"), QStringLiteral("--account"), a});
            QVERIFY2(!list.out.contains(secret) && !list.err.contains(secret), qPrintable(describe(list)));
        }
        // The account holds a stored key: without one the scan below would prove nothing.
        const Run cloud = run({QStringLiteral("accounts"), QStringLiteral("list"), QStringLiteral("--json")});
        QVERIFY2(cloud.code == 0 && cloud.out.contains("api-key"), qPrintable(describe(cloud)));
        const Run budget = run({QStringLiteral("budget"), QStringLiteral("cloud"), QStringLiteral("12")});
        QVERIFY2(budget.code == 0, qPrintable(describe(budget)));

        const auto scan = [&](const QString &when) {
            QStringList stray;
            for (const auto &d : outside) {
                QDirIterator it(r.filePath(d), QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                                QDirIterator::Subdirectories);
                while (it.hasNext())
                    stray << it.next();
            }
            // Anything else beside D in the root (the root stands for the rest of the disk here).
            for (const auto &e : r.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot)) {
                if (e != QLatin1String("D") && !outside.contains(e))
                    stray << r.filePath(e);
            }
            QVERIFY2(stray.isEmpty(), qPrintable(when + QStringLiteral(": written outside --config-dir: ") +
                                                 stray.join(QLatin1String(", "))));
            int files = 0;
            QStringList leaks;
            QDirIterator in(config, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
            while (in.hasNext()) {
                QFile f(in.next());
                QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
                const QByteArray bytes = f.readAll();
                ++files;
                if (bytes.contains(secret) || bytes.contains(secret.toBase64()) ||
                    bytes.contains(QString::fromLatin1(secret).toUtf8().toHex()))
                    leaks << f.fileName();
            }
            QVERIFY2(files > 0, "the flows wrote nothing to --config-dir: nothing was checked");
            QVERIFY2(leaks.isEmpty(),
                     qPrintable(when + QStringLiteral(": the secret is in ") + leaks.join(QLatin1String(", "))));
        };
        scan(QStringLiteral("after the flows"));
        for (const auto &a : accounts)
            QCOMPARE(run({QStringLiteral("accounts"), QStringLiteral("remove"), a}).code, 0);
        scan(QStringLiteral("after removing the accounts"));
    }

    void cleanupTestCase()
    {
        if (!m_ref.isEmpty())
            ctl({QStringLiteral("sessions"), QStringLiteral("rm"), m_ref});
    }

    // --gpus reads as the window's form does (the descriptor's field): a bad value is a usage
    // error before any engine is asked; a good one reaches the provider, which says plainly
    // why it cannot serve it.
    void gpusOption()
    {
        QString account = QStringLiteral("eng");
        if (m_engine == QLatin1String("none")) {
            account = QStringLiteral("gpuless");
            const Run add = ctl({QStringLiteral("accounts"), QStringLiteral("add"), account,
                                 QStringLiteral("--provider"), QStringLiteral("docker"), QStringLiteral("--endpoint"),
                                 QStringLiteral("unix:///nonexistent/sandbar-test.sock")});
            QVERIFY2(add.code == 0, qPrintable(describe(add)));
        }
        const auto create = [&](const QString &gpus) {
            return ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"), account,
                        QStringLiteral("--image"), test::testImage(), QStringLiteral("--ttl"), QStringLiteral("300"),
                        QStringLiteral("--gpus"), gpus},
                       120000);
        };
        for (const auto &bad :
             {QStringLiteral("two"), QStringLiteral("GPU-1234"), QStringLiteral("65"), QStringLiteral("0,,1")}) {
            const Run r = create(bad);
            QVERIFY2(r.code == 2, qPrintable(describe(r)));
            QVERIFY2(r.err.startsWith("sandbarctl: --gpus: "), qPrintable(describe(r)));
        }
        if (m_engine == QLatin1String("none"))
            return;
        const auto containers = [&] {
            // Sandbar's own sessions of this account only: other tests' containers do not count.
            const Run l = ctl({QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("list"),
                               QStringLiteral("--account"), account});
            return QJsonDocument::fromJson(l.out).array().size();
        };
        const qsizetype before = containers();
        const Run all = create(QStringLiteral("all"));
        if (m_engine == QLatin1String("docker")) {
            QVERIFY2(all.code == 1 && oneLine(all.err) && all.err.contains("has no NVIDIA runtime"),
                     qPrintable(describe(all)));
            // The container the engine would not start is removed before sandbarctl exits.
            QCOMPARE(containers(), before);
        } else if (m_engine == QLatin1String("podman")) {
            QVERIFY2(all.code == 1 && oneLine(all.err) && all.err.contains("ignores GPU requests"),
                     qPrintable(describe(all)));
        } else if (!QFileInfo::exists(QStringLiteral("/dev/nvidia0"))) {
            QVERIFY2(all.code == 1 && oneLine(all.err) && all.err.contains("No NVIDIA GPU on this computer"),
                     qPrintable(describe(all)));
        } else { // a computer with a GPU: the session has them all
            QVERIFY2(all.code == 0, qPrintable(describe(all)));
            const QString ref = QString::fromUtf8(all.out).trimmed();
            const Run info = ctl({QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("info"), ref});
            QVERIFY2(QJsonDocument::fromJson(info.out).object().value(QStringLiteral("gpus")).toInt() >= 1,
                     qPrintable(describe(info)));
            QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ref}).code, 0);
        }
    }

    // Options come from the provider's descriptor: --mount (read-only or not) and repeated
    // --env reach a real session, and a bad --mount is one usage line naming the option.
    void mountsAndSeveralEnvsReachTheSession()
    {
        if (m_engine == QLatin1String("none"))
            return; // no engine to create on (usage only)
        QTemporaryDir in, out;
        QVERIFY(in.isValid() && out.isValid());
        // The session's user is not this one: it may read `in` and write `out`.
        QFile::setPermissions(in.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                             QFileDevice::ReadOther | QFileDevice::ExeOther);
        QFile::setPermissions(out.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                              QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther);
        QFile given(QDir(in.path()).filePath(QStringLiteral("given.txt")));
        QVERIFY(given.open(QIODevice::WriteOnly));
        given.write("from the host\n");
        given.close();
        given.setPermissions(QFileDevice::ReadOwner | QFileDevice::ReadOther);

        const QStringList base{QStringLiteral("sessions"), QStringLiteral("create"),  QStringLiteral("--account"),
                               QStringLiteral("eng"),      QStringLiteral("--image"), test::testImage(),
                               QStringLiteral("--ttl"),    QStringLiteral("300")};
        const Run bad = ctl(base + QStringList{QStringLiteral("--mount"), QStringLiteral("/nonexistent/sandbar:/in")});
        QVERIFY2(bad.code == 2 && bad.err.startsWith("sandbarctl: --mount: "), qPrintable(describe(bad)));

        const Run create =
            ctl(base + QStringList{QStringLiteral("--env"), QStringLiteral("FIRST=1"), QStringLiteral("--env"),
                                   QStringLiteral("SECOND=two words"), QStringLiteral("--env=THIRD=a=b"),
                                   QStringLiteral("--mount"), in.path() + QStringLiteral(":/in:ro"),
                                   QStringLiteral("--mount"), out.path() + QStringLiteral(":/out"),
                                   QStringLiteral("--name"), QStringLiteral("cli-mounts-%1").arg(m_engine)},
                120000);
        QVERIFY2(create.code == 0, qPrintable(describe(create)));
        const QString ref = QString::fromUtf8(create.out).trimmed();
        const Run exec =
            ctl({QStringLiteral("exec"), ref, QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                 QStringLiteral("echo \"$FIRST|$SECOND|$THIRD\"; cat /in/given.txt; "
                                "echo made > /out/made.txt; "
                                "(echo x > /in/new) 2>/dev/null && echo writable || echo read-only")});
        const Run rm = ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ref});
        QVERIFY2(exec.code == 0, qPrintable(describe(exec)));
        QCOMPARE(exec.out, QByteArray("1|two words|a=b\nfrom the host\nread-only\n"));
        QFile made(QDir(out.path()).filePath(QStringLiteral("made.txt")));
        QVERIFY(made.open(QIODevice::ReadOnly));
        QCOMPARE(made.readAll(), QByteArray("made\n"));
        QVERIFY2(rm.code == 0, qPrintable(describe(rm)));
    }

    // `cp` as `docker cp` (issue 11): a path whose parent exists names the copy, both ways;
    // a trailing '/' demands a folder; `-` is a tar on stdout or stdin.
    void cpLikeDockerCp()
    {
        const Run both = ctl({QStringLiteral("cp"), QStringLiteral("-"), QStringLiteral("-")});
        QVERIFY2(both.code == 2 && both.err.startsWith("sandbarctl: cp needs one side"), qPrintable(describe(both)));
        if (m_engine == QLatin1String("none"))
            return;
        const Run create =
            ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                 QStringLiteral("eng"), QStringLiteral("--image"), test::testImage(), QStringLiteral("--ttl"),
                 QStringLiteral("600"), QStringLiteral("--name"), QStringLiteral("cli-cp-%1").arg(m_engine)},
                120000);
        QVERIFY2(create.code == 0, qPrintable(describe(create)));
        const QString ref = QString::fromUtf8(create.out).trimmed();
        const auto removeAfter = qScopeGuard([&] { ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ref}); });
        const auto inSession = [&](const QString &script) {
            return ctl({QStringLiteral("exec"), ref, QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                        script});
        };
        QTemporaryDir local;
        QFile a(QDir(local.path()).filePath(QStringLiteral("a.txt")));
        QVERIFY(a.open(QIODevice::WriteOnly));
        a.write("blob bytes\n");
        a.close();
        QDir(local.path()).mkpath(QStringLiteral("tree/sub"));
        QFile x(QDir(local.path()).filePath(QStringLiteral("tree/sub/x.txt")));
        QVERIFY(x.open(QIODevice::WriteOnly));
        x.write("X");
        x.close();

        const Run up = ctl({QStringLiteral("cp"), a.fileName(), ref + QStringLiteral(":/workspace/blob")});
        QVERIFY2(up.code == 0, qPrintable(describe(up)));
        const Run isFile = inSession(QStringLiteral("test -f /workspace/blob && cat /workspace/blob"));
        QVERIFY2(isFile.code == 0 && isFile.out == "blob bytes\n", qPrintable(describe(isFile)));
        const Run noFolder = ctl({QStringLiteral("cp"), a.fileName(), ref + QStringLiteral(":/workspace/nodir/")});
        QVERIFY2(noFolder.code == 1 && oneLine(noFolder.err), qPrintable(describe(noFolder)));

        // Relative to the current folder, as cp and scp read it: ./back is the file itself.
        const QString here = QDir::currentPath();
        QDir::setCurrent(local.path());
        const Run down = ctl({QStringLiteral("cp"), ref + QStringLiteral(":/workspace/blob"), QStringLiteral("back")});
        QDir::setCurrent(here);
        QVERIFY2(down.code == 0, qPrintable(describe(down)));
        QFile back(QDir(local.path()).filePath(QStringLiteral("back")));
        QVERIFY2(QFileInfo(back.fileName()).isFile() && back.open(QIODevice::ReadOnly), qPrintable(back.fileName()));
        QCOMPARE(back.readAll(), QByteArray("blob bytes\n"));

        // A folder both ways: a new name is created, an existing folder receives it.
        const Run upTree = ctl({QStringLiteral("cp"), QDir(local.path()).filePath(QStringLiteral("tree")),
                                ref + QStringLiteral(":/workspace/cptree")});
        QVERIFY2(upTree.code == 0, qPrintable(describe(upTree)));
        const Run treeIn = inSession(QStringLiteral("cat /workspace/cptree/sub/x.txt"));
        QVERIFY2(treeIn.code == 0 && treeIn.out == "X", qPrintable(describe(treeIn)));
        const Run downTree =
            ctl({QStringLiteral("cp"), ref + QStringLiteral(":/workspace/cptree"), local.path() + QLatin1Char('/')});
        QVERIFY2(downTree.code == 0, qPrintable(describe(downTree)));
        QVERIFY(QFileInfo::exists(QDir(local.path()).filePath(QStringLiteral("cptree/sub/x.txt"))));
        const Run ontoFile = ctl({QStringLiteral("cp"), ref + QStringLiteral(":/workspace/cptree"), back.fileName()});
        QVERIFY2(ontoFile.code == 1 && oneLine(ontoFile.err), qPrintable(describe(ontoFile)));

        // `-`: a tar on stdout, and the same tar on stdin into an existing folder.
        const Run tar = ctl({QStringLiteral("cp"), ref + QStringLiteral(":/workspace/cptree"), QStringLiteral("-")});
        QVERIFY2(tar.code == 0 && tar.out.size() >= 1024 && tar.out.mid(257, 5) == "ustar",
                 qPrintable(QStringLiteral("exit %1, %2 bytes: %3")
                                .arg(tar.code)
                                .arg(tar.out.size())
                                .arg(QString::fromUtf8(tar.err))));
        QVERIFY(tar.out.contains("cptree/sub/x.txt"));
        QVERIFY(inSession(QStringLiteral("mkdir -p /workspace/fromtar")).code == 0);
        const Run fromTar = ctl(
            {QStringLiteral("cp"), QStringLiteral("-"), ref + QStringLiteral(":/workspace/fromtar")}, 60000, tar.out);
        QVERIFY2(fromTar.code == 0, qPrintable(describe(fromTar)));
        const Run tarIn = inSession(QStringLiteral("cat /workspace/fromtar/cptree/sub/x.txt"));
        QVERIFY2(tarIn.code == 0 && tarIn.out == "X", qPrintable(describe(tarIn)));
        const Run tarOntoFile =
            ctl({QStringLiteral("cp"), QStringLiteral("-"), ref + QStringLiteral(":/workspace/blob")}, 60000, tar.out);
        QVERIFY2(tarOntoFile.code == 1 && oneLine(tarOntoFile.err), qPrintable(describe(tarOntoFile)));
    }
};

QTEST_GUILESS_MAIN(TestSandbarctl)
#include "tst_sandbarctl.moc"
