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
    std::fputs((j.dump() + "\n").c_str(), stdout);
    std::fflush(stdout);
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
    if (rc >= 0)
        return rc;
    std::fprintf(stderr, "sandbar-bench: unknown group '%s'\n", argv[1]);
    return 2;
}
