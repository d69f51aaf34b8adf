#pragma once

// The part of sandbar-agent that runs inside the sandbox as its first process: it serves
// the framed protocol on a unix socket and owns every terminal and command of the session.

#include <string>

namespace sandbar::agent {

// Reads the JSON config the provider wrote into the session's run folder, serves until
// shutdown or the time limit, and returns the process exit status. Once it listens it
// writes a byte to readyFd (when >= 0), which the launcher waits for.
int serve(const std::string &configPath, int readyFd = -1);

} // namespace sandbar::agent
