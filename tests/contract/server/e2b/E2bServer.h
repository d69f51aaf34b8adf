#pragma once

#include "kit/Options.h"

namespace contract {
class Server;
class SandboxHost;
} // namespace contract

namespace contract::e2b {

inline constexpr char kDefaultApiKey[] = "e2b_contract_test_key";
inline constexpr char kDescription[] = "E2B control plane (X-API-Key) and envd (Connect-RPC, /files) on one port.";

// Registers the E2B control plane and envd routes on `server` (same port).
void install(Server &server, SandboxHost &host, const Options &options);

} // namespace contract::e2b
