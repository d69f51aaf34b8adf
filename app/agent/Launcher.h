#pragma once

#include <string>

namespace sandbar::agent {

// Runs on the host: starts bubblewrap detached from the caller (double fork, new
// session, no --die-with-parent) so that the sandbox outlives the app, places it in its
// cgroups, hands it the TIOCSTI seccomp filter, starts user-mode networking when asked,
// waits until the agent's socket answers and prints one JSON line describing the result.
int launch(const std::string &specPath);

} // namespace sandbar::agent
