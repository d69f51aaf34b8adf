#pragma once

#include "common/Result.h"

#include <QString>

namespace sandbar::files {

// Paths inside a sandbox are POSIX paths whatever the host is; they are handled as text
// and never resolved against the local file system.

// An absolute remote path with "." and ".." resolved lexically and duplicate slashes
// removed. Rejects empty, relative and NUL-carrying paths.
Result<QString> normalizeRemotePath(const QString &path);

// Joins a remote directory and a single name ("a/b" is refused as a name).
Result<QString> remoteJoin(const QString &dir, const QString &name);

// "/a/b" -> "b", "/" -> "".
QString remoteBaseName(const QString &path);
// "/a/b" -> "/a", "/a" -> "/", "/" -> "/".
QString remoteParent(const QString &path);

// True when path equals root or lies beneath it (both normalized absolute paths).
bool remoteIsWithin(const QString &path, const QString &root);

// The relative name of an archive entry made safe for extraction: "./" prefixes dropped,
// duplicate slashes collapsed, trailing slash removed. Absolute names, ".." components,
// empty names and NUL bytes are refused: an archive must never write outside its target.
Result<QString> safeEntryName(const QString &name);

// Where a symbolic link at entryName (relative to the extraction root) pointing at
// target would lead, relative to the root; an error when it would leave the root or is
// absolute.
Result<QString> resolveLinkWithinRoot(const QString &entryName, const QString &target);

} // namespace sandbar::files
