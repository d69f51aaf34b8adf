#include "providers/Provider.h"
#include "wiring/AppServices.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/CliTr.h"
#include "wiring/cli/ConsoleTerminal.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

namespace sandbar::cli {

namespace {

QString sampleLine(const StatsSample &s)
{
    const auto opt = [](const auto &v, auto fmt) { return v ? fmt(*v) : QStringLiteral("-"); };
    const auto percent = [](double v) { return QStringLiteral("%1%").arg(v, 0, 'f', 0); };
    QString line = QStringLiteral("%1  %2  %3 / %4  %5 / %6  %7 / %8  %9")
                       .arg(s.time.toLocalTime().toString(QStringLiteral("HH:mm:ss")))
                       .arg(opt(s.cpuPercent, [](double v) { return QStringLiteral("%1%").arg(v, 6, 'f', 1); }))
                       .arg(opt(s.memoryUsedBytes, formatBytes))
                       .arg(opt(s.memoryLimitBytes, formatBytes))
                       .arg(opt(s.networkRxBytes, formatBytes))
                       .arg(opt(s.networkTxBytes, formatBytes))
                       .arg(opt(s.blockReadBytes, formatBytes))
                       .arg(opt(s.blockWriteBytes, formatBytes))
                       .arg(opt(s.pids, [](qint64 v) { return QString::number(v); }));
    if (s.oomKills && *s.oomKills > 0)
        line += tr("  OOM-killed: %1").arg(*s.oomKills);
    if (s.filesystemUsedBytes)
        line += tr("  disk %1 / %2").arg(formatBytes(*s.filesystemUsedBytes), opt(s.filesystemTotalBytes, formatBytes));
    // One line per GPU under the sample: utilisation is the whole device's.
    for (const auto &g : s.gpus) {
        line += QLatin1Char('\n') +
                tr("  GPU %1 %2: util %3 (device), memory %4 / %5, session %6, %7, %8 W / %9 W")
                    .arg(g.index)
                    .arg(g.name.isEmpty() ? g.uuid : g.name)
                    .arg(g.mig ? tr("n/a (MIG)") : opt(g.utilizationPercent, percent))
                    .arg(opt(g.memoryUsedBytes, formatBytes))
                    .arg(opt(g.memoryTotalBytes, formatBytes))
                    .arg(opt(g.sessionMemoryBytes, formatBytes))
                    .arg(opt(g.temperatureC, [](double v) { return QStringLiteral("%1 °C").arg(v, 0, 'f', 0); }))
                    .arg(opt(g.powerWatts, [](double v) { return QString::number(v, 'f', 0); }))
                    .arg(opt(g.powerLimitWatts, [](double v) { return QString::number(v, 'f', 0); }));
    }
    return line;
}

void printSample(Command &cmd, const StatsSample &s)
{
    if (cmd.json())
        cmd.outRaw(QJsonDocument(statsSampleToJson(s)).toJson(QJsonDocument::Compact) + '\n');
    else
        cmd.out(sampleLine(s));
}

// Prints a sample with the session's GPU readings added (NVML here, nvidia-smi through exec
// for remote sessions), then calls `then`.
void printWithGpus(Command &cmd, Provider *p, const SessionInfo &session, const StatsSample &s,
                   const std::function<void()> &then = {})
{
    if (session.gpus == 0 && session.gpuUuids.isEmpty()) {
        printSample(cmd, s);
        if (then)
            then();
        return;
    }
    AppServices &services = cmd.services();
    if (!services.gpu)
        services.gpu = std::make_unique<metrics::GpuSource>();
    sampleSessionGpus(*services.gpu, p, session, &cmd, [&cmd, s, then](QList<GpuReading> gpus) {
        StatsSample out = s;
        if (!gpus.isEmpty())
            out.gpus = std::move(gpus);
        printSample(cmd, out);
        if (then)
            then();
    });
}

} // namespace

QJsonObject statsSampleToJson(const StatsSample &s)
{
    QJsonObject o;
    o[QStringLiteral("time")] = s.time.toUTC().toString(Qt::ISODateWithMs);
    const auto put = [](QJsonObject &obj, const char *k, auto v) {
        if (v)
            obj[QLatin1String(k)] = double(*v);
    };
    put(o, "cpu_percent", s.cpuPercent);
    put(o, "memory_used_bytes", s.memoryUsedBytes);
    put(o, "memory_limit_bytes", s.memoryLimitBytes);
    put(o, "network_rx_bytes", s.networkRxBytes);
    put(o, "network_tx_bytes", s.networkTxBytes);
    put(o, "block_read_bytes", s.blockReadBytes);
    put(o, "block_write_bytes", s.blockWriteBytes);
    put(o, "pids", s.pids);
    put(o, "oom_kills", s.oomKills);
    put(o, "filesystem_used_bytes", s.filesystemUsedBytes);
    put(o, "filesystem_total_bytes", s.filesystemTotalBytes);
    QJsonArray gpus;
    for (const auto &g : s.gpus) {
        QJsonObject go;
        go[QStringLiteral("index")] = g.index;
        go[QStringLiteral("uuid")] = g.uuid;
        go[QStringLiteral("name")] = g.name;
        go[QStringLiteral("mig")] = g.mig;
        put(go, "utilization_percent", g.utilizationPercent);
        put(go, "memory_utilization_percent", g.memoryUtilizationPercent);
        put(go, "memory_used_bytes", g.memoryUsedBytes);
        put(go, "memory_total_bytes", g.memoryTotalBytes);
        put(go, "session_memory_bytes", g.sessionMemoryBytes);
        put(go, "power_watts", g.powerWatts);
        put(go, "power_limit_watts", g.powerLimitWatts);
        put(go, "temperature_c", g.temperatureC);
        QJsonArray procs;
        for (const auto &p : g.processes) {
            QJsonObject po;
            po[QStringLiteral("pid")] = double(p.pid);
            put(po, "used_memory_bytes", p.usedMemoryBytes);
            procs.append(po);
        }
        go[QStringLiteral("processes")] = procs;
        gpus.append(go);
    }
    o[QStringLiteral("gpus")] = gpus;
    return o;
}

void runStats(Command &cmd, const QStringList &args)
{
    auto parsed = parseArgs(args, optionSpecFor(u"stats"));
    if (!parsed.ok())
        return cmd.usage(parsed.message());
    if (parsed->positional.size() != 1)
        return cmd.usage(tr("usage: stats REF [--once] [--json]"));
    const bool once = parsed->has(QStringLiteral("--once"));
    cmd.withSession(parsed->positional.first(), [&cmd, once](const SessionHandle &h) {
        if (!h.provider->capabilities().testFlag(Capability::StatsCpu) &&
            !h.provider->capabilities().testFlag(Capability::StatsMemory))
            return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::StatsCpu));
        if (!cmd.json())
            cmd.out(tr("TIME      CPU      MEMORY / LIMIT  NET RX / TX  BLOCK R / W  PIDS"));
        if (once) {
            // CPU % is a rate: when the provider has no earlier sample of its own, take a
            // second one a moment later, as `docker stats --no-stream` does.
            Provider *p = h.provider;
            const SessionInfo session = h.session;
            const auto done = [&cmd] { cmd.finish(ExitOk); };
            return p->statistics()->stats(
                session.id, Callback<StatsSample>(&cmd, [&cmd, p, session, done](Result<StatsSample> r) {
                    if (!r.ok())
                        return cmd.fail(r.error());
                    if (r->cpuPercent)
                        return printWithGpus(cmd, p, session, r.value(), done);
                    QTimer::singleShot(500, &cmd, [&cmd, p, session, done, first = r.value()]() {
                        p->statistics()->stats(session.id, Callback<StatsSample>(&cmd, [&cmd, p, session, done,
                                                                                        first](Result<StatsSample> r2) {
                                                   printWithGpus(cmd, p, session, r2.ok() ? r2.value() : first, done);
                                               }));
                    });
                }));
        }
        StatsStream *stream = h.provider->statistics()->streamStats(h.session.id).release();
        stream->setParent(&cmd);
        auto *console = new ConsoleEvents(ConsoleEvents::Stop, &cmd);
        QObject::connect(console, &ConsoleEvents::stopRequested, &cmd, [&cmd, stream](int) {
            stream->stop();
            cmd.finish(ExitOk);
        });
        QObject::connect(
            stream, &StatsStream::sample, &cmd,
            [&cmd, p = h.provider, session = h.session](const StatsSample &s) { printWithGpus(cmd, p, session, s); });
        QObject::connect(stream, &StatsStream::errorOccurred, &cmd, [&cmd](const Error &e) { cmd.fail(e); });
        stream->start();
    });
}

} // namespace sandbar::cli
