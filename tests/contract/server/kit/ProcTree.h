#pragma once

#include <QList>
#include <QtGlobal>

namespace contract {

// Reads /proc: the processes below a pid and their CPU time and memory.
namespace ProcTree {

struct Stat {
    qint64 cpuTicks = 0; // utime + stime
    qint64 rssBytes = 0;
};

// Every descendant of `pid`, parents before children.
QList<qint64> descendants(qint64 pid);
Stat stat(qint64 pid);
qint64 ticksPerSecond();
qint64 memoryTotal();

} // namespace ProcTree
} // namespace contract
