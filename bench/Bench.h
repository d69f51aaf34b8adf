#pragma once

#include "common/Callback.h"

#include <QEventLoop>
#include <QStringList>
#include <QTimer>
#include <functional>
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
// ratio = value / baseline when a baseline exists. A value that is not finite is printed as
// null and counts as no figure: a group that then exits 0 is turned into a failure by main().
void printFigure(const QString &name, double value, const QString &unit, std::optional<double> baseline = {});

// A figure that could not be measured: the same line with value null and a "note" saying why,
// and that reason on stderr (sayWhy). The group must still exit non-zero.
void printMissing(const char *group, const QString &name, const QString &unit, const QString &why);

// Why a group (or part of one) produces no figure, as one line on stderr:
// "sandbar-bench GROUP: STEP: REASON" (no STEP part when step is empty; the reason's own
// line breaks are folded so that the line stays one). A run that measured nothing must say
// why in words a new user can act on; main() adds a line of its own for a group that exits
// non-zero without having called this.
void sayWhy(const char *group, const QString &step, const QString &reason);

// sayWhy, then the exit status to return (1: no figure; 2: the run was asked for wrongly,
// such as a missing engine address), so that a failing path reads
// `return fail("docker", "create", r.message());`.
int fail(const char *group, const QString &step, const QString &reason, int status = 1);

// sayWhy, then false: for helpers that tell a caller which then returns 1 without repeating it.
bool failed(const char *group, const QString &step, const QString &reason);

// Nearest-rank percentile of unsorted samples.
double percentile(QList<double> samples, double p);

// Resident set size of this process in bytes (Linux /proc/self/statm).
qint64 currentRssBytes();

// Runs an asynchronous call and waits for its callback in a local loop (the bench's own
// event loop; nothing else runs in the process).
template <typename T>
Result<T> wait(const std::function<void(Callback<T>)> &call, int timeoutMs = 120000)
{
    QObject ctx;
    std::optional<Result<T>> out;
    QEventLoop loop;
    call(Callback<T>(&ctx, [&](Result<T> r) {
        out.emplace(std::move(r));
        loop.quit();
    }));
    if (!out) {
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    if (!out)
        return makeError(ErrorCode::Timeout, QStringLiteral("no answer within %1 ms").arg(timeoutMs));
    return std::move(*out);
}

} // namespace sandbar::bench
