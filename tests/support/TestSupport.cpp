#include "TestSupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QProcess>
#include <QSet>
#include <csignal>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace sandbar::test {

qint64 statusKb(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(qsizetype(qstrlen(field))).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

void resetPeakRss()
{
    QFile f(QStringLiteral("/proc/self/clear_refs"));
    if (f.open(QIODevice::WriteOnly))
        f.write("5");
}

void endWithTest(QProcess *process)
{
    // The modifier runs in the child between fork and exec; the signal comes when the thread
    // that started it ends, which in a Qt test is the main thread, with the test.
    process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
}

bool processRunning(const QByteArray &commandLine)
{
    for (const QString &pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (f.open(QIODevice::ReadOnly) && f.readAll().replace('\0', ' ').trimmed() == commandLine)
            return true;
    }
    return false;
}

void reapProcessesAndMountsUnder(const QString &dir)
{
    const QByteArray marker = dir.toUtf8();
    QSet<int> doomed;
    QHash<int, int> parentOf;
    for (const QString &pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
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

bool inCi()
{
    return qEnvironmentVariable("CI") == QLatin1String("true");
}

QString dockerHost()
{
    return qEnvironmentVariable("SANDBAR_TEST_DOCKER_HOST");
}

QString podmanHost()
{
    return qEnvironmentVariable("SANDBAR_TEST_PODMAN_HOST");
}

QString testImage()
{
    const auto v = qEnvironmentVariable("SANDBAR_TEST_IMAGE");
    return v.isEmpty() ? QStringLiteral("sandbar-test/busybox:latest") : v;
}

QByteArray sha256File(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

} // namespace sandbar::test
