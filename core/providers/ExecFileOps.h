#pragma once

#include "common/Callback.h"
#include "providers/Facets.h"
#include "providers/Session.h"

#include <QString>

namespace sandbar {

class Provider;

// FilesFacet::removePath and makeDir for providers without calls of their own: rm -rf and
// mkdir -p through the provider's exec facet (argv, no shell, so no name is ever
// interpreted). Without an exec facet they answer Unsupported.
// FilesFacet::listFiles and statPath through the exec facet. A provider whose exec carries
// text, not bytes (its output travels as JSON strings), sets textOnly: the listing then
// comes base64-armoured, so that no byte of a name is lost.
void listFilesByExec(Provider &provider, const QString &sessionId, const QString &path, bool textOnly,
                     Callback<QList<FileEntry>> done);
void statPathByExec(Provider &provider, const QString &sessionId, const QString &path, Callback<PathStat> done);

void removePathByExec(Provider &provider, const QString &sessionId, const QString &path, Callback<void> done);
void makeDirByExec(Provider &provider, const QString &sessionId, const QString &path, Callback<void> done);

} // namespace sandbar
