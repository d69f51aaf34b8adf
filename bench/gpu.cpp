// sandbar-bench gpu: the cost of one full NVML sample (every GPU and MIG device: names,
// UUIDs, utilisation, memory, temperature, power, process lists) through gpu::NvmlReader,
// which the stats collector calls on the GUI thread.
//   gpu.sample_ms      p99 of 1,000 samples (target <= 2 ms); baseline: none
//   gpu.sample_p50_ms  p50 of the same samples
// The library: `--nvml PATH`, else $SANDBAR_NVML_LIBRARY, else the system's libnvidia-ml.so.1
// when a driver answers, else the fake one the tests build (eight GPUs; it measures
// Sandbar's own overhead, not the driver's).

#include "Bench.h"
#include "metrics/gpu/NvmlReader.h"

#include <QElapsedTimer>
#include <cstdio>

namespace sandbar::bench {

namespace {

using namespace sandbar::gpu;

std::unique_ptr<NvmlReader> openReader(const QStringList &args)
{
    QString path;
    const qsizetype at = args.indexOf(QStringLiteral("--nvml"));
    if (at >= 0 && at + 1 < args.size())
        path = args.at(at + 1);
    if (path.isEmpty())
        path = qEnvironmentVariable("SANDBAR_NVML_LIBRARY");
    if (path.isEmpty()) {
        auto system = std::make_unique<NvmlReader>(NvmlOptions{"libnvidia-ml.so.1", std::chrono::seconds(60)});
        if (system->sample().status == NvmlStatus::Ok)
            return system;
#ifdef SANDBAR_BENCH_FAKE_NVML
        path = QStringLiteral(SANDBAR_BENCH_FAKE_NVML);
        if (!qEnvironmentVariableIsSet("SANDBAR_FAKE_NVML_SCENARIO"))
            qputenv("SANDBAR_FAKE_NVML_SCENARIO", "eight");
#endif
    }
    if (path.isEmpty())
        return nullptr;
    return std::make_unique<NvmlReader>(NvmlOptions{path.toStdString(), std::chrono::seconds(60)});
}

int run(const QStringList &args)
{
    auto reader = openReader(args);
    if (!reader)
        return fail("gpu", QStringLiteral("open NVML"),
                    QStringLiteral("no NVIDIA driver and no fake library (build with the tests, or pass --nvml PATH)"));
    const NvmlSnapshot first = reader->sample();
    if (first.status != NvmlStatus::Ok)
        return fail("gpu", QStringLiteral("first sample from %1").arg(QString::fromStdString(reader->libraryPath())),
                    QStringLiteral("%1 (%2)").arg(QLatin1String(nvmlStatusText(first.status)),
                                                  QString::fromStdString(first.detail)));
    std::size_t processes = 0;
    for (const DeviceInfo &d : first.devices)
        processes += d.processes.size();
    std::fprintf(stderr, "gpu: %s: %zu device(s), %zu process(es)\n", reader->libraryPath().c_str(),
                 first.devices.size(), processes);

    QList<double> samples;
    samples.reserve(1000);
    std::size_t seen = 0; // keeps the readings observable so nothing is optimised away
    for (int i = 0; i < 1000; ++i) {
        QElapsedTimer t;
        t.start();
        const NvmlSnapshot s = reader->sample();
        samples << double(t.nsecsElapsed()) / 1e6;
        seen += s.devices.size();
    }
    printFigure(QStringLiteral("gpu.sample_ms"), percentile(samples, 99), QStringLiteral("ms"));
    printFigure(QStringLiteral("gpu.sample_p50_ms"), percentile(samples, 50), QStringLiteral("ms"));
    std::fprintf(stderr, "gpu: 1000 samples, %zu device readings\n", seen);
    return 0;
}

} // namespace

static Registration reg("gpu", &run, false, "GPU: one full NVML sample through the reader, p99 and p50 of 1,000");

} // namespace sandbar::bench
