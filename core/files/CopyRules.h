#pragma once

#include "common/Result.h"

#include <QString>

// docker cp's rules for where a copied item lands, shared by every provider and both
// directions (upload, download, the window's drop and Save As). Pure: the caller answers
// the probe (a remote stat, a local QFileInfo) and then puts the item into dir as name.
// Compiled into sandbar-base (no libarchive) so that Provider's copy job can use it.
namespace sandbar::files {

enum class CopyKind { File, Folder };

// A path as the user wrote it: "dir/" demands a folder, "dir/." means a folder's contents.
struct CopyPath {
    QString path;               // cleaned: no trailing '/', no "." components
    bool trailingSlash = false; // written with a trailing '/' or ending in "/." or "."
    bool contents = false;      // ending in "/." or "." (a source folder's contents)
};
CopyPath parseCopyPath(const QString &raw);

// What the destination is, and whether the folder it would be made in exists.
struct CopyProbe {
    bool exists = false;
    bool isDir = false;
    bool parentIsDir = false; // only asked when !exists
};

// The item is put into the existing folder dir under name: a file replaces a file of that
// name, a folder merges into a folder of that name.
struct CopyTarget {
    QString dir;
    QString name;
    bool operator==(const CopyTarget &o) const { return dir == o.dir && name == o.name; }
};

// source: the cleaned source path and its kind; dest: as parsed, with probe describing
// dest.path. Errors are user-visible (NotFound, InvalidArgument, Conflict).
Result<CopyTarget> resolveCopy(CopyKind kind, const CopyPath &source, const CopyPath &dest, const CopyProbe &probe);

} // namespace sandbar::files
