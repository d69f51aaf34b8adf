#pragma once

#include "common/Callback.h"
#include "providers/Facets.h"
#include "providers/Session.h"

#include <QString>
#include <optional>

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
// mv and chmod, with FilesFacet's rules: absolute paths, an existing target refused (Conflict).
void movePathByExec(Provider &provider, const QString &sessionId, const QString &from, const QString &to,
                    Callback<void> done);
void setModeByExec(Provider &provider, const QString &sessionId, const QString &path, quint32 mode,
                   Callback<void> done);
// The checks every provider makes before a move or a mode change: an error, or none.
std::optional<Error> moveRefusal(const QString &from, const QString &to);
std::optional<Error> modeRefusal(const QString &path, quint32 mode);
// "0755": the mode as chmod and the services take it.
QString modeText(quint32 mode);

} // namespace sandbar
