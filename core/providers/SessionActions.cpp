#include "providers/SessionActions.h"

#include "providers/Provider.h"

namespace sandbar {

Capability capabilityFor(SessionVerb verb)
{
    switch (verb) {
    case SessionVerb::Stop:
    case SessionVerb::Remove: return Capability::None;
    case SessionVerb::Kill: return Capability::Kill;
    case SessionVerb::Pause:
    case SessionVerb::Resume: return Capability::PauseResume;
    case SessionVerb::Archive: return Capability::Archive;
    }
    return Capability::None;
}

void runSessionVerb(Provider &provider, SessionVerb verb, const QString &id, Callback<void> done)
{
    switch (verb) {
    case SessionVerb::Stop: return provider.stop(id, std::move(done));
    case SessionVerb::Kill: return provider.kill(id, std::move(done));
    case SessionVerb::Remove: return provider.remove(id, std::move(done));
    case SessionVerb::Pause:
        if (PauseFacet *p = provider.pausing())
            return p->pause(id, std::move(done));
        break;
    case SessionVerb::Resume:
        if (PauseFacet *p = provider.pausing())
            return p->resume(id, std::move(done));
        break;
    case SessionVerb::Archive:
        if (ArchiveFacet *a = provider.archiving())
            return a->archive(id, std::move(done));
        break;
    }
    done.post(unsupportedError(provider.descriptor(), capabilityFor(verb)));
}

} // namespace sandbar
