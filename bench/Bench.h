#pragma once

#include <QStringList>
#include <optional>

namespace sandbar::bench {

using GroupFn = int (*)(const QStringList &args);

// Each group's file registers itself with a static Registration; main() dispatches.
struct Registration {
    Registration(const char *name, GroupFn fn, bool needsGui = false, const char *help = "");
};

struct GroupEntry {
    const char *name;
    GroupFn fn;
    bool needsGui;
    const char *help;
};
const QList<GroupEntry> &groups();

// One figure as a JSON line on stdout: {"name","value","unit","baseline","ratio"}.
// ratio = value / baseline when a baseline exists.
void printFigure(const QString &name, double value, const QString &unit, std::optional<double> baseline = {});

// Nearest-rank percentile of unsorted samples.
double percentile(QList<double> samples, double p);

// Resident set size of this process in bytes (Linux /proc/self/statm).
qint64 currentRssBytes();

} // namespace sandbar::bench
