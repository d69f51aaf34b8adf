#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QString>
#include <optional>

namespace sandbar::files {

// A tar stream of one empty folder entry, name (one path segment), owned by uid:gid with
// mode's permission bits (setuid, setgid and sticky included): unpacked over an existing
// folder it gives that folder this owner and mode, and leaves its contents alone.
Result<QByteArray> folderEntryTar(const QString &name, uint uid, uint gid, uint mode);

// How many entries a whole tar stream holds; nullopt when it is not one (garbage, cut short).
std::optional<int> tarEntryCount(const QByteArray &tar);

} // namespace sandbar::files
