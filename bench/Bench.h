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
// ratio = value / baseline when a baseline exists.
void printFigure(const QString &name, double value, const QString &unit, std::optional<double> baseline = {});

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
