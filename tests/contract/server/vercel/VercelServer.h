#pragma once

#include "kit/Options.h"

namespace contract {
class Server;
class SandboxHost;
} // namespace contract

namespace contract::vercel {

inline constexpr char kDefaultApiKey[] = "vercel_contract_test_token";
inline constexpr char kDescription[] =
    "Vercel Sandbox REST API (/v2, /v3: sandboxes, sessions, commands as NDJSON, files, snapshots) and the "
    "interactive PTY WebSocket.";

// Registers Vercel Sandbox's API on `server` (one port): the paths of https://vercel.com/api at the
// server's root (and under /api too, the path of the service's own URL), the interactive PTY
// WebSocket (/interactive/{sessionId}) and the CLI's /health probe.
void install(Server &server, SandboxHost &host, const Options &options);

} // namespace contract::vercel
