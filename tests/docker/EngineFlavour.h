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

} // namespace sandbar::test
