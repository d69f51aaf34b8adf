#pragma once

#include "common/Result.h"

#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

namespace contract {
class Responder;
class Sandbox;
} // namespace contract

namespace contract::daytona {

// A toolbox path (absolute, or relative to the user's home; Daytona's /home/daytona is
// the same folder as the kit's /home/user) mapped into the sandbox's folder.
sandbar::Result<QString> mapApiPath(const Sandbox *sandbox, const QString &apiPath);

// The daemon's FileInfo: name, isDir, size, mode ("-rw-r--r--"), permissions ("0644"),
// owner, group, modTime (Go's time.String layout) and modifiedAt (RFC 3339).
QJsonObject fileInfoJson(const QString &hostPath);
bool setPosixMode(const QString &hostPath, uint mode);

// Answers POST /files/bulk-download: a multipart/form-data stream with one "file" part per
// path (filename = the path as asked) or an "error" part with a JSON body; files are read
// in chunks as the socket drains. `files` pairs the asked path with its host path (empty
// when it was refused).
void streamMultipartDownload(Responder *responder, const QList<QPair<QString, QString>> &files);

// The daemon's GET /system/metrics sample.
QJsonObject systemMetricsJson(Sandbox *sandbox);

} // namespace contract::daytona
