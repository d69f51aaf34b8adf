#include "TestSupport.h"

#include <QCryptographicHash>
#include <QFile>

namespace sandbar::test {

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
