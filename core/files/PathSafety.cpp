#include "files/PathSafety.h"

#include "files/FilesTr.h"

#include <QCoreApplication>
#include <QStringList>

namespace sandbar::files {

namespace {
// Resolves "." and ".." in a list of components; false when ".." climbs above the start.
bool collapse(const QStringList &parts, QStringList *out)
{
    for (const QString &p : parts) {
        if (p.isEmpty() || p == QLatin1String("."))
            continue;
        if (p == QLatin1String("..")) {
            if (out->isEmpty())
                return false;
            out->removeLast();
            continue;
        }
        out->append(p);
    }
    return true;
}
} // namespace

Result<QString> normalizeRemotePath(const QString &path)
{
    if (path.isEmpty())
        return makeError(ErrorCode::InvalidArgument, tr("The remote path is empty."));
    if (path.contains(QChar(0)))
        return makeError(ErrorCode::InvalidArgument, tr("The remote path contains a NUL byte."));
    if (!path.startsWith(QLatin1Char('/')))
        return makeError(ErrorCode::InvalidArgument, tr("The remote path '%1' is not absolute.").arg(path));
    QStringList parts;
    // Above the root, ".." stays at the root, as the kernel does.
    for (const QString &p : path.split(QLatin1Char('/'))) {
        if (p.isEmpty() || p == QLatin1String("."))
            continue;
        if (p == QLatin1String("..")) {
            if (!parts.isEmpty())
                parts.removeLast();
            continue;
        }
        parts.append(p);
    }
    return QString(QLatin1Char('/') + parts.join(QLatin1Char('/')));
}

Result<QString> remoteJoin(const QString &dir, const QString &name)
{
    if (name.isEmpty() || name == QLatin1String(".") || name == QLatin1String("..") ||
        name.contains(QLatin1Char('/')) || name.contains(QChar(0)))
        return makeError(ErrorCode::InvalidArgument, tr("'%1' is not a valid file name.").arg(name));
    auto base = normalizeRemotePath(dir);
    if (!base)
        return base.error();
    return base.value() == QLatin1String("/") ? QString(base.value() + name)
                                              : QString(base.value() + QLatin1Char('/') + name);
}

QString remoteBaseName(const QString &path)
{
    QString p = path;
    while (p.size() > 1 && p.endsWith(QLatin1Char('/')))
        p.chop(1);
    if (p == QLatin1String("/"))
        return {};
    return p.mid(p.lastIndexOf(QLatin1Char('/')) + 1);
}

QString remoteParent(const QString &path)
{
    QString p = path;
    while (p.size() > 1 && p.endsWith(QLatin1Char('/')))
        p.chop(1);
    const auto slash = p.lastIndexOf(QLatin1Char('/'));
    if (slash <= 0)
        return QStringLiteral("/");
    return p.left(slash);
}

bool remoteIsWithin(const QString &path, const QString &root)
{
    if (root == QLatin1String("/"))
        return path.startsWith(QLatin1Char('/'));
    return path == root || path.startsWith(root + QLatin1Char('/'));
}

Result<QString> safeEntryName(const QString &name)
{
    if (name.contains(QChar(0)))
        return makeError(ErrorCode::InvalidArgument, tr("An archive entry name contains a NUL byte."));
    if (name.startsWith(QLatin1Char('/')))
        return makeError(ErrorCode::InvalidArgument, tr("The archive entry '%1' has an absolute path.").arg(name));
    QStringList out;
    for (const QString &p : name.split(QLatin1Char('/'))) {
        if (p.isEmpty() || p == QLatin1String("."))
            continue;
        if (p == QLatin1String(".."))
            return makeError(ErrorCode::InvalidArgument,
                             tr("The archive entry '%1' climbs out of the target folder.").arg(name));
        out.append(p);
    }
    if (out.isEmpty())
        return makeError(ErrorCode::InvalidArgument, tr("An archive entry has an empty name."));
    return out.join(QLatin1Char('/'));
}

Result<QString> resolveLinkWithinRoot(const QString &entryName, const QString &target)
{
    if (target.isEmpty() || target.startsWith(QLatin1Char('/')) || target.contains(QChar(0)))
        return makeError(ErrorCode::InvalidArgument,
                         tr("The link '%1' points outside the target folder ('%2').").arg(entryName, target));
    QStringList parts = entryName.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (!parts.isEmpty())
        parts.removeLast(); // a relative target starts at the link's folder
    QStringList resolved;
    if (!collapse(parts + target.split(QLatin1Char('/')), &resolved))
        return makeError(ErrorCode::InvalidArgument,
                         tr("The link '%1' points outside the target folder ('%2').").arg(entryName, target));
    return resolved.join(QLatin1Char('/'));
}

} // namespace sandbar::files
