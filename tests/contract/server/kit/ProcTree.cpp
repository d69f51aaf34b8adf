#include "ProcTree.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <unistd.h>

namespace contract::ProcTree {

namespace {

// The fields after the command name, which may itself contain spaces and parentheses.
QList<QByteArray> statFields(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray line = file.readAll();
    const int close = line.lastIndexOf(')');
    if (close < 0)
        return {};
    return line.mid(close + 2).split(' ');
}

} // namespace

QList<qint64> descendants(qint64 pid)
{
    QHash<qint64, QList<qint64>> children;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool ok = false;
        const qint64 p = entry.toLongLong(&ok);
        if (!ok)
            continue;
        const QList<QByteArray> f = statFields(p);
        if (f.size() > 1)
            children[f.at(1).toLongLong()].append(p);
    }
    QList<qint64> out;
    QList<qint64> queue{pid};
    while (!queue.isEmpty()) {
        const qint64 next = queue.takeFirst();
        for (qint64 child : children.value(next)) {
            out.append(child);
            queue.append(child);
        }
    }
    return out;
}

Stat stat(qint64 pid)
{
    Stat s;
    const QList<QByteArray> f = statFields(pid);
    // After "pid (comm) ": state=0 ppid=1 ... utime=11 stime=12 ... rss=21.
    if (f.size() > 21) {
        s.cpuTicks = f.at(11).toLongLong() + f.at(12).toLongLong();
        s.rssBytes = f.at(21).toLongLong() * ::sysconf(_SC_PAGESIZE);
    }
    return s;
}

qint64 ticksPerSecond()
{
    const long t = ::sysconf(_SC_CLK_TCK);
    return t > 0 ? t : 100;
}

qint64 memoryTotal()
{
    QFile file(QStringLiteral("/proc/meminfo"));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> lines = file.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith("MemTotal:"))
            return line.mid(9).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return 0;
}

} // namespace contract::ProcTree
