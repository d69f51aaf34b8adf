#pragma once

#include "kit/Options.h"

namespace contract {
class Server;
class SandboxHost;
} // namespace contract

namespace contract::daytona {

inline constexpr char kDefaultApiKey[] = "dtn_contract_test_key";
inline constexpr char kDescription[] = "Daytona REST API and toolbox, and the PTY WebSockets.";

// Registers Daytona's control plane (/api/...), the toolbox (/toolbox/{sandboxId}/...,
// the sandboxes' toolboxProxyUrl) and the PTY WebSockets on `server` (one port).
void install(Server &server, SandboxHost &host, const Options &options);

} // namespace contract::daytona
