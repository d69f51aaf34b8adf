#include "files/CopyRules.h"

#include "files/FilesTr.h"

#include <QCoreApplication>
#include <QDir>

namespace sandbar::files {

namespace {
QString baseName(const QString &path)
{
    const auto slash = path.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? path : path.mid(slash + 1);
}

QString parentOf(const QString &path)
{
    const auto slash = path.lastIndexOf(QLatin1Char('/'));
    if (slash < 0)
        return QStringLiteral(".");
    return slash == 0 ? QStringLiteral("/") : path.left(slash);
}

// A name the item can be given: one component, never "." or "..".
bool isPlainName(const QString &name)
{
    return !name.isEmpty() && name != QLatin1String(".") && name != QLatin1String("..") &&
           !name.contains(QLatin1Char('/')) && !name.contains(QChar(0));
}
} // namespace

CopyPath parseCopyPath(const QString &raw)
{
    CopyPath p;
    p.contents = raw == QLatin1String(".") || raw.endsWith(QLatin1String("/."));
    p.trailingSlash = p.contents || raw.endsWith(QLatin1Char('/'));
    p.path = raw.isEmpty() ? QString() : QDir::cleanPath(raw);
    return p;
}

Result<CopyTarget> resolveCopy(CopyKind kind, const CopyPath &source, const CopyPath &dest, const CopyProbe &probe)
{
    if (dest.path.isEmpty())
        return makeError(ErrorCode::InvalidArgument, tr("The destination is empty."));
    if (source.path.isEmpty())
        return makeError(ErrorCode::InvalidArgument, tr("The source is empty."));
    if (source.contents && kind != CopyKind::Folder)
        return makeError(ErrorCode::InvalidArgument, tr("'%1' is not a folder.").arg(source.path));
    const QString sourceName = baseName(source.path);
    const QString destName = baseName(dest.path);
    const QString destParent = parentOf(dest.path);
    CopyTarget target;
    if (probe.exists && probe.isDir) {
        if (kind == CopyKind::Folder && source.contents)
            target = {destParent, destName}; // the contents merge into dest itself
        else
            target = {dest.path, sourceName};
    } else if (probe.exists) {
        if (kind == CopyKind::Folder)
            return makeError(ErrorCode::Conflict,
                             tr("Cannot copy the folder '%1' onto the file '%2'.").arg(source.path, dest.path));
        if (dest.trailingSlash)
            return makeError(ErrorCode::InvalidArgument, tr("'%1' is not a folder.").arg(dest.path));
        target = {destParent, destName};
    } else {
        if (kind == CopyKind::File && dest.trailingSlash)
            return makeError(ErrorCode::NotFound, tr("The destination folder '%1' must exist.").arg(dest.path));
        if (!probe.parentIsDir)
            return makeError(ErrorCode::NotFound, tr("The folder '%1' does not exist.").arg(destParent));
        target = {destParent, destName};
    }
    if (!isPlainName(target.name))
        return makeError(ErrorCode::InvalidArgument,
                         tr("Cannot copy '%1' to '%2': name the copy.").arg(source.path, dest.path));
    return target;
}

} // namespace sandbar::files
