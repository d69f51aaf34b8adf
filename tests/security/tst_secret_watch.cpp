// The self-test of secret_watch (the "no secret anywhere" scan test.sh runs around ctest):
// a private watcher, with a marker of its own so that the run's watcher is not set off,
// must report a secret that a short-lived program counted as Sandbar code writes to a file
// (also when the file is deleted at once, and when it is base64), and one in a process's
// arguments; and must not report a clean file, nor a secret written by another program.
#include "TestSupport.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <unistd.h>

using namespace sandbar;

namespace {
constexpr char kMarker[] = "sbselftest-secret-";
}

class TestSecretWatch : public QObject
{
    Q_OBJECT

    // Runs a shell script with a secret in its environment (never its arguments).
    static int sh(const QString &shell, const QString &script, const QByteArray &secret)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SBW"), QString::fromLatin1(secret));
        p.setProcessEnvironment(env);
        p.start(shell, {QStringLiteral("-c"), script});
        if (!p.waitForFinished(10000))
            return -1;
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

private Q_SLOTS:
    void reportsPlantedSecrets()
    {
        if (::geteuid() != 0) {
            if (test::inCi())
                QFAIL("secret_watch needs root (fanotify) and CI runs as root");
            QSKIP("secret_watch needs root (fanotify)");
        }
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString shell = QFileInfo(QStringLiteral("/bin/sh")).canonicalFilePath();
        // A copy of the shell under a name the private watcher counts as Sandbar code.
        const QString writer = dir.filePath(QStringLiteral("sbwatch-writer"));
        QVERIFY(QFile::copy(shell, writer));
        QVERIFY(QFile::setPermissions(writer, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));

        QProcess watch;
        watch.setProcessChannelMode(QProcess::ForwardedChannels);
        const QString report = dir.filePath(QStringLiteral("report.txt"));
        const QString ready = dir.filePath(QStringLiteral("ready"));
        watch.start(qEnvironmentVariable("SANDBAR_SECRET_WATCH"),
                    {QStringLiteral("--report"), report, QStringLiteral("--ready"), ready, QStringLiteral("--build"),
                     qEnvironmentVariable("SANDBAR_BUILD_DIR"), QStringLiteral("--mark"), dir.path(),
                     QStringLiteral("--marker"), QLatin1String(kMarker), QStringLiteral("--code"),
                     QStringLiteral("sbwatch-writer"), QStringLiteral("--list")});
        QVERIFY2(watch.waitForStarted(), qPrintable(watch.errorString()));
        QVERIFY2(test::waitUntil([&] { return QFile::exists(ready) || watch.state() != QProcess::Running; }, 10000),
                 "the watcher did not come up");
        QVERIFY2(QFile::exists(ready), "the watcher could not start");

        const QByteArray plain = QByteArray(kMarker) + "childfile-" + QByteArray::number(::getpid());
        const QByteArray encoded = QByteArray(QByteArray("key=") + kMarker + "encoded-77").toBase64();
        // Written by the Sandbar-code stand-in, which exits at once; one file is deleted at once.
        QCOMPARE(sh(writer,
                    QStringLiteral("printf 'key=%s\\n' \"$SBW\" > deleted.txt; rm -f deleted.txt")
                        .prepend(QStringLiteral("cd '%1' && ").arg(dir.path())),
                    plain),
                 0);
        QCOMPARE(sh(writer, QStringLiteral("cd '%1' && printf '%s' \"$SBW\" > b64.txt").arg(dir.path()), encoded), 0);
        // Written by a program that is not Sandbar: not searched.
        QCOMPARE(sh(shell, QStringLiteral("cd '%1' && printf '%s' \"$SBW\" > other.txt").arg(dir.path()), plain), 0);
        // Written by Sandbar code (this test's own process), and clean.
        QFile clean(dir.filePath(QStringLiteral("clean.txt")));
        QVERIFY(clean.open(QIODevice::WriteOnly));
        clean.write("token=*** (redacted)\n");
        clean.close();
        // A secret in a process's arguments, there for half a second.
        const QByteArray inArgs = QByteArray(kMarker) + "argv-" + QByteArray::number(::getpid());
        QProcess sleeper;
        sleeper.start(shell, {QStringLiteral("-c"), QStringLiteral("sleep 0.5; exit 0"), QString::fromLatin1(inArgs)});
        QVERIFY(sleeper.waitForFinished(5000));

        watch.terminate();
        QVERIFY(watch.waitForFinished(20000));
        QCOMPARE(watch.exitCode(), 1); // findings
        QFile f(report);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        const auto has = [&](const QByteArray &needle) { return text.contains(needle); };
        const auto lineWith = [&](const QByteArray &a, const QByteArray &b) {
            for (const QByteArray &line : text.split('\n')) {
                if (line.startsWith("finding: ") && line.contains(a) && line.contains(b))
                    return true;
            }
            return false;
        };
        QVERIFY2(lineWith("deleted.txt", "sbwatch-writer") && lineWith("deleted.txt", "secret \"childfile\" (plain)"),
                 text.constData());
        QVERIFY2(lineWith("b64.txt", "(base64)"), text.constData());
        QVERIFY2(lineWith("arguments of pid", "secret \"argv\""), text.constData());
        QVERIFY2(!lineWith("other.txt", "") && !lineWith("clean.txt", ""), text.constData());
        QVERIFY2(has("searched: " + dir.filePath(QStringLiteral("clean.txt")).toUtf8()), text.constData());
        QVERIFY2(has("findings: 3\n"), text.constData());
        // The report names secrets, never shows them.
        QVERIFY2(!has(plain) && !has(encoded) && !has(inArgs), text.constData());
    }
};

QTEST_GUILESS_MAIN(TestSecretWatch)
#include "tst_secret_watch.moc"
