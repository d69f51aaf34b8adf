#include "wiring/cli/CliCatalog.h"

#include "catalog/Catalog.h"
#include "costs/CostModel.h"
#include "wiring/cli/CliTr.h"

#include <QJsonArray>
#include <cmath>

namespace sandbar::cli {

namespace {

using namespace sandbar::catalog;
using namespace sandbar::costs;

// Loads the catalog; a broken catalog.json is reported on stderr and the shipped one used.
Catalog loadCatalog(Command &cmd)
{
    std::optional<Error> overrideError;
    Catalog c = Catalog::load(cmd.services().configDir, &overrideError);
    if (overrideError)
        cmd.err(QStringLiteral("sandbarctl: warning: ") + overrideError->message);
    return c;
}

// Every source key an entry cites, so each printed entry carries its own references.
void collectSources(const QJsonValue &v, QStringList &keys)
{
    if (v.isArray()) {
        for (const auto &x : v.toArray())
            collectSources(x, keys);
    } else if (v.isObject()) {
        const QJsonObject o = v.toObject();
        const QString src = o.value(QStringLiteral("source")).toString();
        if (!src.isEmpty() && !keys.contains(src))
            keys << src;
        for (auto it = o.constBegin(); it != o.constEnd(); ++it)
            collectSources(it.value(), keys);
    }
}

QString money(double usd)
{
    if (std::abs(usd) < 5e-7) // float residue of a difference must not print as 0.0000
        return QStringLiteral("0");
    return QString::number(usd, 'f', std::abs(usd) < 1 ? 4 : 2);
}

QString billingText(const ProviderEntry &e)
{
    if (e.selfHosted)
        return tr("self-hosted");
    if (e.kind != Kind::SandboxRuntime)
        return e.kindName;
    const auto &b = e.billing;
    QString cpu;
    switch (b.cpu) {
    case CpuRule::Allocated: cpu = tr("allocated"); break;
    case CpuRule::Active: cpu = tr("active CPU"); break;
    case CpuRule::MaxRequestUse: cpu = tr("max(request,use)"); break;
    case CpuRule::Tier: cpu = tr("fixed sizes"); break;
    case CpuRule::None: cpu = tr("memory only"); break;
    }
    if (b.granularitySeconds)
        cpu += *b.granularitySeconds == 60 ? tr(", per minute") : tr(", per second");
    if (b.memoryGibPerVcpu)
        cpu += tr(", %1 GiB/vCPU").arg(*b.memoryGibPerVcpu);
    if (e.prices.coreBased)
        cpu += tr(", core = %1 vCPU").arg(b.vcpusPerCore);
    return cpu;
}

QString gpuText(const ProviderEntry &e)
{
    if (!e.gpus)
        return QStringLiteral("?");
    QStringList out;
    for (const auto &g : *e.gpus)
        out << (g.usdPerHour.known()
                    ? QStringLiteral("%1 $%2").arg(g.type, QString::number(*g.usdPerHour.value, 'g', 6))
                    : g.type);
    return out.isEmpty() ? tr("none") : out.join(QStringLiteral(", "));
}

QString longestSession(const ProviderEntry &e)
{
    const Figure *best = nullptr;
    for (const auto &p : e.plans) {
        if (p.maxSessionHours.unlimited)
            return tr("unlimited");
        if (p.maxSessionHours.known() && (!best || *p.maxSessionHours.value > *best->value))
            best = &p.maxSessionHours;
    }
    return best ? figureText(*best, QStringLiteral(" h")) : QStringLiteral("-");
}

// Reads --NAME as a number; empty optional and a usage message when it is not one.
std::optional<double> number(const ParsedArgs &p, const char *name, double fallback, QString &error)
{
    const QString opt = QLatin1String(name);
    if (!p.has(opt))
        return fallback;
    bool ok = false;
    const double v = p.value(opt).toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < 0) {
        error = tr("%1 needs a number of at least 0, not '%2'").arg(opt, p.value(opt));
        return std::nullopt;
    }
    return v;
}

} // namespace

void runCatalog(Command &cmd, const QStringList &args)
{
    auto parsed = parseArgs(args, optionSpecFor(u"catalog"));
    if (!parsed.ok())
        return cmd.usage(parsed.message());
    if (!parsed->positional.isEmpty())
        return cmd.usage(tr("usage: catalog [--json]"));
    const Catalog c = loadCatalog(cmd);
    if (cmd.json()) {
        QJsonArray arr;
        for (const auto &e : c.entries()) {
            QJsonObject o = e.raw;
            QStringList keys;
            collectSources(o, keys);
            QJsonObject sources;
            for (const auto &k : keys)
                sources[k] = c.source(k);
            o[QStringLiteral("sources")] = sources;
            arr.append(o);
        }
        cmd.printJson(arr);
        return cmd.finish(ExitOk);
    }
    QList<QStringList> rows;
    for (const auto &e : c.entries()) {
        const QString cpuUnit = e.prices.coreBased ? tr("/core") : QString();
        rows << QStringList{e.id,
                            e.name,
                            e.isolation.isEmpty() ? QStringLiteral("-") : e.isolation,
                            figureText(e.coldStartMs, QStringLiteral(" ms")),
                            longestSession(e),
                            figureText(e.prices.vcpuHour) + (e.prices.vcpuHour.known() ? cpuUnit : QString()),
                            figureText(e.prices.gibHour),
                            gpuText(e),
                            billingText(e)};
    }
    cmd.printTable({tr("ID"), tr("NAME"), tr("ISOLATION"), tr("COLD START"), tr("MAX SESSION"), tr("$/vCPU-h"),
                    tr("$/GiB-h"), tr("GPU $/h"), tr("BILLING")},
                   rows);
    cmd.out(tr("Figures with sources and dates: sandbarctl --json catalog. Corrections: %1/catalog.json")
                .arg(cmd.services().configDir));
    cmd.finish(ExitOk);
}

void runCompare(Command &cmd, const QStringList &args)
{
    auto parsed = parseArgs(args, optionSpecFor(u"compare"));
    if (!parsed.ok())
        return cmd.usage(parsed.message());
    const QString usageLine = tr("usage: compare --vcpus N --memory-gib N --hours N [--cpu-busy FRACTION] "
                                 "[--session-hours N] [--storage-gib N] [--gpu TYPE] [--gpus N] [--idle-hours N] "
                                 "[--sessions N] [--egress-gb N] [--free-credit]");
    if (!parsed->positional.isEmpty())
        return cmd.usage(usageLine);
    for (const char *required : {"--vcpus", "--memory-gib", "--hours"})
        if (!parsed->has(QLatin1String(required)))
            return cmd.usage(tr("compare needs %1; %2").arg(QLatin1String(required), usageLine));

    QString error;
    Workload w;
    const struct {
        const char *name;
        double *target;
    } numbers[] = {
        {"--vcpus", &w.vcpus},          {"--memory-gib", &w.memoryGib},       {"--hours", &w.activeHours},
        {"--cpu-busy", &w.cpuBusy},     {"--session-hours", &w.sessionHours}, {"--storage-gib", &w.storageGib},
        {"--idle-hours", &w.idleHours}, {"--sessions", &w.sessionsPerMonth},  {"--egress-gb", &w.egressGb}};
    for (const auto &n : numbers) {
        const auto v = number(*parsed, n.name, *n.target, error);
        if (!v)
            return cmd.usage(error);
        *n.target = *v;
    }
    w.gpuType = parsed->value(QStringLiteral("--gpu"));
    if (parsed->has(QStringLiteral("--gpus"))) {
        bool ok = false;
        w.gpuCount = parsed->value(QStringLiteral("--gpus")).toInt(&ok);
        if (!ok || w.gpuCount < 1)
            return cmd.usage(tr("--gpus needs a whole number of at least 1"));
        if (w.gpuType.isEmpty())
            return cmd.usage(tr("--gpus needs --gpu TYPE"));
    } else if (!w.gpuType.isEmpty()) {
        w.gpuCount = 1;
    }
    w.applyFreeCredit = parsed->has(QStringLiteral("--free-credit"));
    if (auto valid = validateWorkload(w); !valid.ok())
        return cmd.usage(valid.message());

    const QList<Estimate> estimates = estimate(loadCatalog(cmd), w);
    if (cmd.json()) {
        cmd.printJson(estimatesToJson(estimates));
        return cmd.finish(ExitOk);
    }
    QList<QStringList> priced;
    QList<QStringList> excluded;
    QStringList notes;
    for (const auto &e : estimates) {
        if (e.excluded) {
            excluded << QStringList{e.providerId, e.reason()};
            continue;
        }
        const double other = e.totalUsd - e.component(QStringLiteral("cpu")) - e.component(QStringLiteral("memory")) -
                             e.component(QStringLiteral("gpu")) - e.component(QStringLiteral("tier"));
        priced << QStringList{e.providerId,
                              money(e.totalUsd),
                              money(e.component(QStringLiteral("cpu")) + e.component(QStringLiteral("tier"))),
                              money(e.component(QStringLiteral("memory"))),
                              money(e.component(QStringLiteral("gpu"))),
                              money(other),
                              e.plan.isEmpty() ? QStringLiteral("-") : e.plan};
        if (!e.notes().isEmpty())
            notes << QStringLiteral("  %1: %2").arg(e.providerId, e.notes().join(QStringLiteral("; ")));
    }
    cmd.out(tr("Estimated USD a month (%1 vCPU, %2 GiB, %3 h running)")
                .arg(QString::number(w.vcpus, 'g', 6), QString::number(w.memoryGib, 'g', 6),
                     QString::number(w.activeHours, 'g', 6)));
    cmd.printTable({tr("PROVIDER"), tr("TOTAL"), tr("CPU"), tr("MEMORY"), tr("GPU"), tr("OTHER"), tr("PLAN")}, priced);
    if (!excluded.isEmpty()) {
        cmd.out(QString());
        cmd.printTable({tr("PROVIDER"), tr("EXCLUDED BECAUSE")}, excluded);
    }
    if (!notes.isEmpty()) {
        cmd.out(QString());
        cmd.out(tr("Notes:"));
        for (const auto &n : notes)
            cmd.out(n);
    }
    cmd.finish(ExitOk);
}

} // namespace sandbar::cli
