#pragma once

#include "common/Callback.h"
#include "providers/Capabilities.h"

#include <QString>

namespace sandbar {

class Provider;

// The verbs that change one session and answer only ok or an error, whether the core or a
// facet carries them: the window's bulk actions, sandbarctl and the MCP tools name a verb
// and reach the right call here, instead of keeping tables of member pointers each.
enum class SessionVerb { Stop, Kill, Remove, Pause, Resume, Archive };

// The capability a verb needs beyond the core (None for stop and remove).
Capability capabilityFor(SessionVerb verb);

// Runs verb on the session; Unsupported (posted) where the provider lacks its facet.
void runSessionVerb(Provider &provider, SessionVerb verb, const QString &sessionId, Callback<void> done);

} // namespace sandbar
