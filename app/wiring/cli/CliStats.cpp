#include "providers/Provider.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/UnixSignals.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>
#include <csignal>

namespace sandbar::cli {

namespace {

QString tr(const char *s)
{
    return QCoreApplication::translate("sandbarctl", s);
}

QJsonObject sampleJson(const StatsSample &s)
{
    QJsonObject o;
    o[QStringLiteral("time")] = s.time.toUTC().toString(Qt::ISODateWithMs);
    const auto put = [&o](const char *k, auto v) {
        if (v)
            o[QLatin1String(k)] = double(*v);
    };
    put("cpu_percent", s.cpuPercent);
    put("memory_used_bytes", s.memoryUsedBytes);
    put("memory_limit_bytes", s.memoryLimitBytes);
    put("network_rx_bytes", s.networkRxBytes);
    put("network_tx_bytes", s.networkTxBytes);
    put("block_read_bytes", s.blockReadBytes);
    put("block_write_bytes", s.blockWriteBytes);
    put("pids", s.pids);
    QJsonArray gpus;
    for (const auto &g : s.gpus) {
        QJsonObject go;
        go[QStringLiteral("index")] = g.index;
        go[QStringLiteral("name")] = g.name;
        if (g.utilizationPercent)
            go[QStringLiteral("utilization_percent")] = *g.utilizationPercent;
        if (g.memoryUsedBytes)
            go[QStringLiteral("memory_used_bytes")] = double(*g.memoryUsedBytes);
        gpus.append(go);
    }
    o[QStringLiteral("gpus")] = gpus;
    return o;
}

QString sampleLine(const StatsSample &s)
{
    const auto opt = [](const auto &v, auto fmt) { return v ? fmt(*v) : QStringLiteral("-"); };
    return QStringLiteral("%1  %2  %3 / %4  %5 / %6  %7 / %8  %9")
        .arg(s.time.toLocalTime().toString(QStringLiteral("HH:mm:ss")))
        .arg(opt(s.cpuPercent, [](double v) { return QStringLiteral("%1%").arg(v, 6, 'f', 1); }))
        .arg(opt(s.memoryUsedBytes, formatBytes))
        .arg(opt(s.memoryLimitBytes, formatBytes))
        .arg(opt(s.networkRxBytes, formatBytes))
        .arg(opt(s.networkTxBytes, formatBytes))
        .arg(opt(s.blockReadBytes, formatBytes))
        .arg(opt(s.blockWriteBytes, formatBytes))
        .arg(opt(s.pids, [](qint64 v) { return QString::number(v); }));
}

void printSample(Command &cmd, const StatsSample &s)
{
    if (cmd.json())
        cmd.outRaw(QJsonDocument(sampleJson(s)).toJson(QJsonDocument::Compact) + '\n');
    else
        cmd.out(sampleLine(s));
}

} // namespace

void runStats(Command &cmd, const QStringList &args)
{
    auto parsed = parseArgs(args, OptionSpec{{QStringLiteral("--once")}, {}});
    if (!parsed.ok())
        return cmd.usage(parsed.message());
    if (parsed->positional.size() != 1)
        return cmd.usage(tr("usage: stats REF [--once]"));
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
            const QString id = h.session.id;
            return p->stats(id, Callback<StatsSample>(&cmd, [&cmd, p, id](Result<StatsSample> r) {
                                if (!r.ok())
                                    return cmd.fail(r.error());
                                if (r->cpuPercent) {
                                    printSample(cmd, r.value());
                                    return cmd.finish(ExitOk);
                                }
                                QTimer::singleShot(500, &cmd, [&cmd, p, id, first = r.value()]() {
                                    p->stats(id, Callback<StatsSample>(&cmd, [&cmd, first](Result<StatsSample> r2) {
                                                 printSample(cmd, r2.ok() ? r2.value() : first);
                                                 cmd.finish(ExitOk);
                                             }));
                                });
                            }));
        }
        StatsStream *stream = h.provider->streamStats(h.session.id).release();
        stream->setParent(&cmd);
        auto *signals = new UnixSignals({SIGINT, SIGTERM}, &cmd);
        QObject::connect(signals, &UnixSignals::raised, &cmd, [&cmd, stream](int) {
            stream->stop();
            cmd.finish(ExitOk);
        });
        QObject::connect(stream, &StatsStream::sample, &cmd, [&cmd](const StatsSample &s) { printSample(cmd, s); });
        QObject::connect(stream, &StatsStream::errorOccurred, &cmd, [&cmd](const Error &e) { cmd.fail(e); });
        stream->start();
    });
}

} // namespace sandbar::cli
