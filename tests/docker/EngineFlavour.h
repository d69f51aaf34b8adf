#pragma once

// For a test run once per engine: SANDBAR_TEST_ENGINE=podman drives the Podman service
// (SANDBAR_TEST_PODMAN_HOST), anything else the Docker engine (SANDBAR_TEST_DOCKER_HOST). The
// program is built once; its CMake runs say which engine each run gets.
#include "EngineKit.h"

namespace sandbar::test {

inline docker::Flavour engineFlavour()
{
    return qEnvironmentVariable("SANDBAR_TEST_ENGINE") == QLatin1String("podman") ? docker::Flavour::Podman
                                                                                  : docker::Flavour::Docker;
}

inline QString engineHost()
{
    return engineFlavour() == docker::Flavour::Podman ? podmanHost() : dockerHost();
}

// Makes the provider for the engine under test and checks that it answers. Returns why it
// cannot (for SANDBAR_REQUIRE: a failure in CI, a skip with the reason elsewhere), or empty.
inline QString openEngine(std::unique_ptr<Provider> &provider)
{
    const QString host = engineHost();
    if (host.isEmpty())
        return QStringLiteral("the engine's SANDBAR_TEST_*_HOST is not set (scripts/test-services.sh start)");
    if (testImage().isEmpty())
        return QStringLiteral("SANDBAR_TEST_IMAGE is not set");
    provider = makeEngineProvider(engineFlavour(), host);
    if (!provider)
        return QStringLiteral("no provider for the engine at %1").arg(host);
    auto h = await<HealthInfo>([&](auto cb) { provider->health(cb); });
    if (!h.ok())
        return QStringLiteral("the engine at %1 is not reachable: %2").arg(host, h.message());
    return {};
}

} // namespace sandbar::test
