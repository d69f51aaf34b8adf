#include "files/FileListing.h"

#include "files/FilesTr.h"

#include <QDateTime>
#include <QTimeZone>

namespace sandbar::files {

QString fileListScript()
{
    return QStringLiteral("cd -- \"$1\" || exit 3\n"
                          "for f in * .[!.]* ..?*; do\n"
                          "  if [ -e \"$f\" ] || [ -L \"$f\" ]; then\n"
                          "    printf '%s\\0' \"$f\"\n"
                          "    stat -c '%f %s %Y' -- \"$f\" 2>/dev/null || printf '0 0 0\\n'\n"
                          "    if [ -L \"$f\" ]; then printf '%s\\0' \"$(readlink -- \"$f\")\"; else printf '\\0'; fi\n"
                          "  fi\n"
                          "done\n");
}

Result<QList<FileEntry>> parseFileList(const QByteArray &out, const QString &dir)
{
    QList<FileEntry> entries;
    qsizetype pos = 0;
    const QString base = dir.endsWith(QLatin1Char('/')) ? dir : dir + QLatin1Char('/');
    while (pos < out.size()) {
        const auto nul = out.indexOf('\0', pos);
        const auto nl = nul < 0 ? -1 : out.indexOf('\n', nul + 1);
        const auto nul2 = nl < 0 ? -1 : out.indexOf('\0', nl + 1);
        if (nul < 0 || nl < 0 || nul2 < 0)
            return makeError(ErrorCode::Internal, tr("The file listing of '%1' was cut short.").arg(dir));
        FileEntry e;
        e.name = QString::fromUtf8(out.constData() + pos, nul - pos);
        const QList<QByteArray> f = out.mid(nul + 1, nl - nul - 1).split(' ');
        bool ok1 = false, ok2 = false, ok3 = false;
        const quint32 mode = f.size() == 3 ? f.at(0).toUInt(&ok1, 16) : 0;
        e.size = f.size() == 3 ? f.at(1).toLongLong(&ok2) : 0;
        const qint64 mtime = f.size() == 3 ? f.at(2).toLongLong(&ok3) : 0;
        if (!ok1 || !ok2 || !ok3 || e.name.isEmpty())
            return makeError(ErrorCode::Internal, tr("The file listing of '%1' is unreadable.").arg(dir));
        const quint32 type = mode & 0170000;
        e.isDir = type == 0040000;
        e.isLink = type == 0120000;
        e.mode = mode & 07777;
        e.modified = mtime > 0 ? QDateTime::fromSecsSinceEpoch(mtime, QTimeZone::utc()) : QDateTime();
        e.linkTarget = QString::fromUtf8(out.constData() + nl + 1, nul2 - nl - 1);
        e.path = base + e.name;
        entries << e;
        pos = nul2 + 1;
    }
    return entries;
}

} // namespace sandbar::files
