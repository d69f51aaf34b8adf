// sandbarctl on a cloud account, as a person would use it, against a contract server: the
// key comes from an environment variable into the keychain (never into a file under the
// config folder), `accounts check` contacts the service, and every other command works on
// the account's sandboxes. SANDBAR_CLOUD_PROVIDER picks e2b or daytona.

#include "ServerProcess.h"
#include "TestSupport.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;

namespace {
struct Run {
    int code = -1;
    QByteArray out;
    QByteArray err;
};
} // namespace

class TestSandbarctlCloud : public QObject
{
    Q_OBJECT
    QString m_provider;
    QString m_key;
    QTemporaryDir m_config;
    std::unique_ptr<contract::ServerProcess> m_server;
    QString m_ref;

    Run ctl(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
            int timeoutMs = 120000)
    {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SANDBARCTL_PATH), QStringList{QStringLiteral("--config-dir"), m_config.path()} + args);
        if (!p.waitForStarted())
            return {};
        p.closeWriteChannel();
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished();
            return Run{-2, p.readAllStandardOutput(), p.readAllStandardError() + "\n(timed out)"};
        }
        return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                   p.readAllStandardError()};
    }
    static QByteArray describe(const Run &r)
    {
        return "exit " + QByteArray::number(r.code) + "\nstdout: " + r.out + "\nstderr: " + r.err;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_provider = qEnvironmentVariable("SANDBAR_CLOUD_PROVIDER");
        m_key = m_provider == QLatin1String("e2b") ? QStringLiteral("e2b_contract_test_key")
                                                   : QStringLiteral("dtn_contract_test_key");
        if (!QFile::exists(contract::ServerProcess::executable())) {
            if (test::inCi())
                QFAIL("the contract server was not built");
            QSKIP("the contract server was not built");
        }
        m_server = std::make_unique<contract::ServerProcess>(m_provider);
        QVERIFY2(m_server->start(), qPrintable(m_server->error()));
    }

    void addReadsTheKeyFromTheEnvironment()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        // A missing variable is one clear line, and no account is made.
        const Run missing = ctl({QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("cloud"),
                                 QStringLiteral("--provider"), m_provider, QStringLiteral("--api-key-env"),
                                 QStringLiteral("SANDBAR_TEST_NO_SUCH_VAR")},
                                env);
        QVERIFY2(missing.code != 0 && missing.err.contains("SANDBAR_TEST_NO_SUCH_VAR"), describe(missing).constData());
        // Plain http to anything but loopback is refused.
        env.insert(QStringLiteral("SANDBAR_TEST_CLOUD_KEY"), m_key);
        QStringList args{QStringLiteral("accounts"),
                         QStringLiteral("add"),
                         QStringLiteral("cloud"),
                         QStringLiteral("--provider"),
                         m_provider,
                         QStringLiteral("--api-key-env"),
                         QStringLiteral("SANDBAR_TEST_CLOUD_KEY"),
                         QStringLiteral("--endpoint")};
        const QString api =
            m_provider == QLatin1String("daytona") ? m_server->baseUrl() + QStringLiteral("/api") : m_server->baseUrl();
        const Run add = ctl(args + QStringList{api} +
                                (m_provider == QLatin1String("e2b")
                                     ? QStringList{QStringLiteral("--sandbox-endpoint"), m_server->baseUrl()}
                                     : QStringList{}),
                            env);
        QVERIFY2(add.code == 0, describe(add).constData());
        // The key is in the keychain and in no file under the config folder.
        QDirIterator it(m_config.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        int files = 0;
        while (it.hasNext()) {
            QFile f(it.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            ++files;
            QVERIFY2(!f.readAll().contains(m_key.toUtf8()), qPrintable(f.fileName()));
        }
        QVERIFY(files > 0);
        const Run check = ctl({QStringLiteral("accounts"), QStringLiteral("check"), QStringLiteral("cloud")});
        QVERIFY2(check.code == 0, describe(check).constData());
        QVERIFY(!check.out.contains(m_key.toUtf8()));
    }

    void sessionsLifecycle()
    {
        const Run create = ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                                QStringLiteral("cloud"), QStringLiteral("--name"), QStringLiteral("cli-cloud"),
                                QStringLiteral("--ttl"), QStringLiteral("900"), QStringLiteral("--env"),
                                QStringLiteral("GREETING=hi there")});
        QVERIFY2(create.code == 0, describe(create).constData());
        m_ref = QString::fromUtf8(create.out).trimmed();
        QVERIFY2(m_ref.startsWith(QLatin1String("cloud/")), qPrintable(m_ref));
        const Run list = ctl({QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("list")});
        QVERIFY2(list.code == 0, describe(list).constData());
        bool listed = false;
        for (const auto &v : QJsonDocument::fromJson(list.out).array())
            listed = listed || v.toObject().value(QStringLiteral("ref")).toString() == m_ref;
        QVERIFY2(listed, describe(list).constData());

        const Run exec = ctl({QStringLiteral("exec"), m_ref, QStringLiteral("--"), QStringLiteral("sh"),
                              QStringLiteral("-c"), QStringLiteral("echo \"$GREETING\"; exit 7")});
        QCOMPARE(exec.code, 7);
        QVERIFY2(exec.out.contains("hi there"), describe(exec).constData());

        QTemporaryDir dir;
        QFile up(dir.filePath(QStringLiteral("note.txt")));
        QVERIFY(up.open(QIODevice::WriteOnly));
        up.write(QByteArray(200000, 'q'));
        up.close();
        const QString home =
            m_provider == QLatin1String("e2b") ? QStringLiteral("/home/user") : QStringLiteral("/home/daytona");
        const Run cpUp = ctl({QStringLiteral("cp"), up.fileName(), m_ref + QLatin1Char(':') + home});
        QVERIFY2(cpUp.code == 0, describe(cpUp).constData());
        QTemporaryDir back;
        const Run cpDown =
            ctl({QStringLiteral("cp"), m_ref + QLatin1Char(':') + home + QStringLiteral("/note.txt"), back.path()});
        QVERIFY2(cpDown.code == 0, describe(cpDown).constData());
        QFile down(QDir(back.path()).filePath(QStringLiteral("note.txt")));
        QVERIFY(down.open(QIODevice::ReadOnly));
        QCOMPARE(down.readAll(), QByteArray(200000, 'q'));

        const Run stats = ctl({QStringLiteral("--json"), QStringLiteral("stats"), m_ref, QStringLiteral("--once")});
        QVERIFY2(stats.code == 0, describe(stats).constData());

        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("stop"), m_ref}).code, 0);
        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), m_ref}).code, 0);
        const Run gone = ctl({QStringLiteral("sessions"), QStringLiteral("info"), m_ref});
        QVERIFY2(gone.code != 0, describe(gone).constData());
    }

    // E2B's plan caps the time limit (the account's max-ttl, 1 hour by default): asking for
    // more gives a session that ends sooner, and stderr says so. Daytona has no cap.
    void cappedTimeLimitIsSaid()
    {
        const Run create = ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                                QStringLiteral("cloud"), QStringLiteral("--ttl"), QStringLiteral("7200")});
        QVERIFY2(create.code == 0, describe(create).constData());
        QCOMPARE(create.err.contains("shortened the time limit to 60 minutes"), m_provider == QLatin1String("e2b"));
        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), QString::fromUtf8(create.out).trimmed()}).code,
                 0);
    }

    void wrongKeyIsOneClearLine()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SANDBAR_TEST_CLOUD_KEY"), QStringLiteral("wrong_key_value"));
        const QString api =
            m_provider == QLatin1String("daytona") ? m_server->baseUrl() + QStringLiteral("/api") : m_server->baseUrl();
        const Run add = ctl({QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("bad"),
                             QStringLiteral("--provider"), m_provider, QStringLiteral("--api-key-env"),
                             QStringLiteral("SANDBAR_TEST_CLOUD_KEY"), QStringLiteral("--endpoint"), api},
                            env);
        QVERIFY2(add.code == 0, describe(add).constData()); // add does not contact the service
        const Run check = ctl({QStringLiteral("accounts"), QStringLiteral("check"), QStringLiteral("bad")});
        QVERIFY2(check.code != 0, describe(check).constData());
        QVERIFY2(check.err.trimmed().count('\n') == 0, describe(check).constData());
        QVERIFY(!check.err.contains("wrong_key_value"));
    }

    void cleanupTestCase()
    {
        ctl({QStringLiteral("accounts"), QStringLiteral("remove"), QStringLiteral("cloud")});
        ctl({QStringLiteral("accounts"), QStringLiteral("remove"), QStringLiteral("bad")});
    }
};

QTEST_GUILESS_MAIN(TestSandbarctlCloud)
#include "tst_sandbarctl_cloud.moc"
