#include "TestSupport.h"

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

} // namespace sandbar::test
