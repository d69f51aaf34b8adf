// Drives the generated bash completion as bash-completion runs it on Tab (data/complete.sh), with
// the real sandbarctl answering `__complete` from a temporary configuration directory.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kCompletion = QStringLiteral(SANDBAR_DOC_DIR "/sandbarctl");
const QString kDriver = QStringLiteral(SANDBAR_TEST_DATA_DIR "/complete.sh");
const QString kBashCompletion = QStringLiteral("/usr/share/bash-completion/bash_completion");

} // namespace

class TstCompletion : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_config;

    // What Tab offers at the end of line (sandbarctl found on PATH, as a person's shell finds it).
    QStringList complete(const QString &line, const QString &fakeLog = {})
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"), QFileInfo(QStringLiteral(SANDBARCTL_PATH)).absolutePath() +
                                               QLatin1Char(':') + env.value(QStringLiteral("PATH")));
        env.insert(QStringLiteral("HOME"), m_tmp.path());
        if (!fakeLog.isEmpty())
            env.insert(QStringLiteral("SANDBARCTL_FAKE"), fakeLog);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("bash"), {kDriver, kCompletion, line});
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            return {QStringLiteral("<timed out>")};
        }
        const QByteArray err = p.readAllStandardError();
        if (p.exitCode() != 0 || !err.isEmpty())
            qWarning("complete.sh: exit %d: %s", p.exitCode(), err.constData());
        QStringList out = QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        out.sort();
        return out;
    }

    QString ctl(const QStringList &args)
    {
        QProcess p;
        p.start(QStringLiteral(SANDBARCTL_PATH), QStringList{QStringLiteral("--config-dir"), m_config} + args);
        if (!p.waitForFinished(60000))
            return QStringLiteral("<timed out>");
        return QString::fromUtf8(p.readAllStandardOutput());
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFile::exists(kBashCompletion)) {
            if (qEnvironmentVariable("CI") == QLatin1String("true"))
                QFAIL("bash-completion is not installed (scripts/install-deps.sh test)");
            QSKIP("bash-completion is not installed");
        }
        QVERIFY(m_tmp.isValid());
        QVERIFY2(QFile::exists(kCompletion), "the bash completion was not generated (sandbar-docs target)");
        m_config = m_tmp.filePath(QStringLiteral("config"));
        // An account whose engine is nowhere: adding it needs no engine.
        ctl({QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("alpha"), QStringLiteral("--provider"),
             QStringLiteral("docker"), QStringLiteral("--endpoint"),
             QStringLiteral("unix:///nonexistent/docker.sock")});
        QVERIFY(ctl({QStringLiteral("accounts"), QStringLiteral("list")}).contains(QLatin1String("alpha")));
    }

    void theFirstWordIsACommand()
    {
        const QStringList got = complete(QStringLiteral("sandbarctl "));
        for (const char *c : {"accounts", "sessions", "exec", "shell", "cp", "ls", "stats", "catalog", "compare",
                              "audit", "budget", "mcp", "help", "version"})
            QVERIFY2(got.contains(QLatin1String(c)), c);
        QVERIFY(!got.contains(QLatin1String("__complete")));
        QCOMPARE(complete(QStringLiteral("sandbarctl ses")), QStringList{QStringLiteral("sessions")});
    }

    void aSubcommandFollowsItsWord()
    {
        const QStringList got = complete(QStringLiteral("sandbarctl --json sessions "));
        for (const char *c : {"list", "create", "info", "stop", "kill", "rm", "pause", "resume", "ttl", "adopt"})
            QVERIFY2(got.contains(QLatin1String(c)), c);
        QVERIFY(!got.contains(QLatin1String("add")));
    }

    void aCommandsOptions()
    {
        const QStringList got = complete(QStringLiteral("sandbarctl sessions create --"));
        for (const char *o : {"--account", "--image", "--name", "--gpus", "--json", "--config-dir"})
            QVERIFY2(got.contains(QLatin1String(o)), o);
        QVERIFY(!got.contains(QLatin1String("--vcpus")));
        // With the account named, its provider's create options too (alpha is a Docker account).
        const QStringList docker =
            complete(QStringLiteral("sandbarctl --config-dir %1 sessions create --account alpha --").arg(m_config));
        for (const char *o : {"--memory", "--pidsLimit", "--readOnlyMounts", "--memory-mib", "--mount"})
            QVERIFY2(docker.contains(QLatin1String(o)), o);
        QCOMPARE(complete(QStringLiteral("sandbarctl compare --free")), QStringList{QStringLiteral("--free-credit")});
    }

    void accountNamesComeFromTheConfigDir()
    {
        const QStringList got =
            complete(QStringLiteral("sandbarctl --config-dir %1 sessions create --account ").arg(m_config));
        QVERIFY2(got.contains(QLatin1String("alpha")), qPrintable(got.join(QLatin1Char(' '))));
        // Every account that accounts list shows (the default ones included) and nothing else.
        const QStringList listed = ctl({QStringLiteral("__complete"), QStringLiteral("accounts")})
                                       .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QStringList sorted = listed;
        sorted.sort();
        QCOMPARE(got, sorted);
        const QString table = ctl({QStringLiteral("accounts"), QStringLiteral("list")});
        for (const QString &name : listed)
            QVERIFY2(table.contains(QLatin1Char('\n') + name + QLatin1Char(' ')), qPrintable(name));
        // An account positional, and --config-dir written with "=".
        QVERIFY(complete(QStringLiteral("sandbarctl --config-dir=%1 accounts check al").arg(m_config)) ==
                QStringList{QStringLiteral("alpha")});
        QVERIFY(complete(QStringLiteral("sandbarctl accounts add x --provider ")).contains(QLatin1String("docker")));
    }

    void sessionReferencesAreAskedOfSandbarctl()
    {
        const QString log = m_tmp.filePath(QStringLiteral("asked.log"));
        const QStringList got = complete(QStringLiteral("sandbarctl --config-dir %1 exec ").arg(m_config), log);
        QCOMPARE(got, (QStringList{QStringLiteral("alpha/1234"), QStringLiteral("alpha/5678")}));
        QFile f(log);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QStringLiteral("--config-dir %1 __complete sessions\n").arg(m_config).toUtf8());
        // REF:PATH: the REF part, ready for the path.
        QCOMPARE(complete(QStringLiteral("sandbarctl ls alpha/12"), log), QStringList{QStringLiteral("alpha/1234:")});
        // After "--" the words are the command run in the session.
        QCOMPARE(complete(QStringLiteral("sandbarctl exec alpha/1234 -- "), log), QStringList{});
    }

    // The real answer: offline, quick, and empty when no engine answers.
    void sessionsWithoutAnEngine()
    {
        QElapsedTimer t;
        t.start();
        const QString out = ctl({QStringLiteral("__complete"), QStringLiteral("sessions")});
        QVERIFY2(t.elapsed() < 10000, "the session completion waits for engines");
        QVERIFY(!out.contains(QLatin1String("sandbarctl")));
    }
};

QTEST_GUILESS_MAIN(TstCompletion)
#include "tst_completion.moc"
