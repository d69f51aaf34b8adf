#pragma once

#include "common/Result.h"
#include "providers/Session.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace sandbar::files {

// The shell script run (argv: sh -c SCRIPT sandbar-ls DIR) to list a folder in a session: one
// record per entry, "NAME\0MODEHEX SIZE MTIME\nLINK\0", safe for any byte in a name; exit 3
// when DIR is not a folder one can enter.
QString fileListScript();
// Its output as entries of dir; an error when it was cut short or is not that.
Result<QList<FileEntry>> parseFileList(const QByteArray &output, const QString &dir);

} // namespace sandbar::files
