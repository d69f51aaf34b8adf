#pragma once

#include "common/Callback.h"

#include <QString>

namespace sandbar {

class Provider;

// FilesFacet::removePath and makeDir for providers without calls of their own: rm -rf and
// mkdir -p through the provider's exec facet (argv, no shell, so no name is ever
// interpreted). Without an exec facet they answer Unsupported.
void removePathByExec(Provider &provider, const QString &sessionId, const QString &path, Callback<void> done);
void makeDirByExec(Provider &provider, const QString &sessionId, const QString &path, Callback<void> done);

} // namespace sandbar
