#pragma once

#include "kit/Options.h"

namespace contract {
class Server;
class SandboxHost;
} // namespace contract

namespace contract::sprites {

inline constexpr char kDefaultApiKey[] = "sprites_contract_test_token";
inline constexpr char kDescription[] =
    "Fly.io Sprites API (/v1/sprites: sprites, exec sessions over WebSocket and HTTP, files, checkpoints, "
    "policies) as @fly/sprites 0.1.0 calls it.";

// Registers the Sprites API on `server` (one port): the paths of https://api.sprites.dev at the
// server's root, the exec, attach and port-watch WebSockets (wss://api.sprites.dev/v1/...).
void install(Server &server, SandboxHost &host, const Options &options);

} // namespace contract::sprites
