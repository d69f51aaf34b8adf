#include "Bench.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFile>
#include <QTextStream>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace sandbar::bench {

namespace {
QList<GroupEntry> &registry()
{
    static QList<GroupEntry> list;
    return list;
}

// What main() checks once the group has run (see Bench.h).
bool g_whySaid = false;
QStringList g_withoutValue;

// A figure's line, value null when it is not finite; a figure without a value is recorded.
nlohmann::json figureLine(const QString &name, double value, const QString &unit, std::optional<double> baseline)
{
    nlohmann::json j;
    j["name"] = name.toStdString();
    j["value"] = std::isfinite(value) ? nlohmann::json(value) : nlohmann::json();
    j["unit"] = unit.toStdString();
    if (baseline && std::isfinite(*baseline) && *baseline != 0.0) {
        j["baseline"] = *baseline;
        j["ratio"] = value / *baseline;
    } else {
        j["baseline"] = nullptr;
        j["ratio"] = nullptr;
    }
    if (!std::isfinite(value))
        g_withoutValue << name;
    return j;
}

void printLine(const nlohmann::json &j)
{
    std::fputs((j.dump() + "\n").c_str(), stdout);
    std::fflush(stdout);
}
} // namespace

Registration::Registration(const char *name, GroupFn fn, bool needsGui, const char *help)
{
    registry().append(GroupEntry{name, fn, needsGui, help});
}

const QList<GroupEntry> &groups()
{
    return registry();
}

void printFigure(const QString &name, double value, const QString &unit, std::optional<double> baseline)
{
    printLine(figureLine(name, value, unit, baseline));
}

void printMissing(const char *group, const QString &name, const QString &unit, const QString &why)
{
    nlohmann::json j = figureLine(name, std::nan(""), unit, std::nullopt);
    j["note"] = why.toStdString();
    printLine(j);
    sayWhy(group, name, why);
}

void sayWhy(const char *group, const QString &step, const QString &reason)
{
    g_whySaid = true;
    // One line: an engine's or a child's message may end in (or hold) line breaks.
    QString why = reason.trimmed();
    why.replace(QStringLiteral("\r\n"), QStringLiteral(" | "));
    why.replace(QLatin1Char('\n'), QStringLiteral(" | "));
    if (why.isEmpty())
        why = QStringLiteral("(no reason given)");
    const QString line = step.isEmpty()
                             ? QStringLiteral("sandbar-bench %1: %2\n").arg(QLatin1String(group), why)
                             : QStringLiteral("sandbar-bench %1: %2: %3\n").arg(QLatin1String(group), step, why);
    std::fputs(line.toLocal8Bit().constData(), stderr);
    std::fflush(stderr);
}

int fail(const char *group, const QString &step, const QString &reason, int status)
{
    sayWhy(group, step, reason);
    return status;
}

bool failed(const char *group, const QString &step, const QString &reason)
{
    sayWhy(group, step, reason);
    return false;
}

double percentile(QList<double> samples, double p)
{
    if (samples.isEmpty())
        return std::nan("");
    std::sort(samples.begin(), samples.end());
    const auto rank = static_cast<qsizetype>(std::ceil(p / 100.0 * double(samples.size())));
    return samples.at(std::clamp<qsizetype>(rank - 1, 0, samples.size() - 1));
}

qint64 currentRssBytes()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const auto parts = f.readAll().split(' ');
    if (parts.size() < 2)
        return -1;
    return parts.at(1).toLongLong() * sysconf(_SC_PAGESIZE);
}

} // namespace sandbar::bench

int main(int argc, char **argv)
{
    using namespace sandbar::bench;
    if (argc < 2) {
        std::fputs("usage: sandbar-bench GROUP [ARGS...]\ngroups:\n", stderr);
        for (const auto &g : groups())
            std::fprintf(stderr, "  %-10s %s\n", g.name, g.help);
        return 2;
    }
    const QString name = QString::fromLocal8Bit(argv[1]);
    // Several files may add to one group (ui: the window's start, the sessions filter): all
    // of them run, and the worst exit status is the group's.
    std::unique_ptr<QCoreApplication> app;
    int rc = -1;
    for (const auto &g : groups()) {
        if (name != QLatin1String(g.name))
            continue;
        if (app) {
            rc = std::max(rc, g.fn(QCoreApplication::arguments().mid(2)));
            continue;
        }
        if (g.needsGui) {
            if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
                qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            app = std::make_unique<QApplication>(argc, argv);
        } else {
            app = std::make_unique<QCoreApplication>(argc, argv);
        }
        const QStringList args = QCoreApplication::arguments().mid(2);
        rc = std::max(rc, g.fn(args));
    }
    if (rc > 0 && !g_whySaid) {
        // A path in bench/ that gives up without a word: the exit status is all there is.
        std::fprintf(stderr,
                     "sandbar-bench %s: exited with status %d without saying why (a silent failure path in "
                     "bench/; please report it)\n",
                     argv[1], rc);
    }
    if (rc == 0 && !g_withoutValue.isEmpty()) {
        // A null figure is no figure: the run did not measure what it exists for.
        std::fprintf(stderr, "sandbar-bench %s: no value for %s\n", argv[1],
                     qPrintable(g_withoutValue.join(QStringLiteral(", "))));
        rc = 1;
    }
    if (rc >= 0)
        return rc;
    std::fprintf(stderr, "sandbar-bench: unknown group '%s'\n", argv[1]);
    return 2;
}
