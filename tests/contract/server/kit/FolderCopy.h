#pragma once

#include <QString>

namespace contract {

// Removes what a folder holds, not the folder (bubblewrap binds it by path).
void clearFolder(const QString &path);
// Copies a tree with its modes; links are copied as links, other special files skipped.
// Returns the bytes of the regular files.
qint64 copyTree(const QString &from, const QString &to);

} // namespace contract
