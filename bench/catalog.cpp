// sandbar-bench catalog: the cost model behind the compare view.
//   catalog.load_ms     parsing and validating the shipped catalog (median of 20)
//   catalog.compare_ms  the whole catalog priced against a sweep of 1,000 workloads
//                       (median of 15 sweeps); baseline: the 20 ms target

#include "catalog/Catalog.h"

#include "Bench.h"
#include "costs/CostModel.h"

#include <QElapsedTimer>
#include <cstdio>

namespace sandbar::bench {

namespace {

using namespace sandbar::catalog;
using namespace sandbar::costs;

// A deterministic spread over sizes, hours, busy shares, session lengths and GPUs, so that
// every billing rule, exclusion and rounding path is exercised.
QList<Workload> sweep(int n)
{
    static const char *const gpus[] = {"", "", "", "H100", "T4", "A100"};
    QList<Workload> out;
    out.reserve(n);
    for (int i = 0; i < n; ++i) {
        Workload w;
        w.vcpus = 0.25 * (1 + i % 64);
        w.memoryGib = 0.5 * (1 + (i * 7) % 128);
        w.activeHours = (i * 13) % 744;
        w.cpuBusy = double(i % 11) / 10.0;
        w.idleHours = (i * 5) % 200;
        w.sessionHours = (i % 4 == 0) ? double((i * 3) % 30) : 0.0;
        w.storageGib = (i * 11) % 100;
        w.sessionsPerMonth = (i * 17) % 500;
        w.egressGb = (i * 19) % 50;
        w.gpuType = QLatin1String(gpus[i % 6]);
        w.gpuCount = w.gpuType.isEmpty() ? 0 : 1 + i % 2;
        w.applyFreeCredit = i % 2 == 0;
        out << w;
    }
    return out;
}

int run(const QStringList &)
{
    QList<double> loads;
    for (int i = 0; i < 20; ++i) {
        QElapsedTimer t;
        t.start();
        auto c = Catalog::shipped();
        loads << double(t.nsecsElapsed()) / 1e6;
        if (!c.ok())
            return fail("catalog", QStringLiteral("load the shipped catalog"), c.message());
    }
    printFigure(QStringLiteral("catalog.load_ms"), percentile(loads, 50), QStringLiteral("ms"));

    auto catalog = Catalog::shipped();
    if (!catalog.ok())
        return fail("catalog", QStringLiteral("load the shipped catalog"), catalog.message());
    const QList<Workload> workloads = sweep(1000);
    QList<double> sweeps;
    double checksum = 0; // keeps the work observable so nothing is optimised away
    for (int r = 0; r < 15; ++r) {
        QElapsedTimer t;
        t.start();
        for (const auto &w : workloads) {
            const QList<Estimate> all = estimate(*catalog, w);
            for (const auto &e : all)
                checksum += e.totalUsd;
        }
        sweeps << double(t.nsecsElapsed()) / 1e6;
    }
    printFigure(QStringLiteral("catalog.compare_ms"), percentile(sweeps, 50), QStringLiteral("ms"), 20.0);
    std::fprintf(stderr, "catalog: %lld providers x %lld workloads per sweep (checksum %.3f)\n",
                 static_cast<long long>(catalog->entries().size()), static_cast<long long>(workloads.size()), checksum);
    return 0;
}

} // namespace

static Registration reg("catalog", &run, false, "Provider catalog: load time and the cost model over 1,000 workloads");

} // namespace sandbar::bench
