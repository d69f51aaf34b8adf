#include "TestSupport.h"

#include <QCryptographicHash>
#include <QFile>

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
