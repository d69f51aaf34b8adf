#pragma once

// For a test built twice, once per engine: with SANDBAR_ENGINE_PODMAN defined it drives the
// Podman service (SANDBAR_TEST_PODMAN_HOST), otherwise the Docker engine
// (SANDBAR_TEST_DOCKER_HOST).
#include "EngineKit.h"

namespace sandbar::test {

#ifdef SANDBAR_ENGINE_PODMAN
inline constexpr docker::Flavour kFlavour = docker::Flavour::Podman;
inline QString engineHost()
{
    return podmanHost();
}
#else
inline constexpr docker::Flavour kFlavour = docker::Flavour::Docker;
inline QString engineHost()
{
    return dockerHost();
}
#endif

// Makes the provider for the engine under test and checks that it answers. Returns why it
// cannot (for SANDBAR_REQUIRE: a failure in CI, a skip with the reason elsewhere), or empty.
inline QString openEngine(std::unique_ptr<Provider> &provider)
{
    const QString host = engineHost();
    if (host.isEmpty())
        return QStringLiteral("the engine's SANDBAR_TEST_*_HOST is not set (scripts/test-services.sh start)");
    if (testImage().isEmpty())
        return QStringLiteral("SANDBAR_TEST_IMAGE is not set");
    provider = makeEngineProvider(kFlavour, host);
    if (!provider)
        return QStringLiteral("no provider for the engine at %1").arg(host);
    auto h = await<HealthInfo>([&](auto cb) { provider->health(cb); });
    if (!h.ok())
        return QStringLiteral("the engine at %1 is not reachable: %2").arg(host, h.message());
    return {};
}

} // namespace sandbar::test
