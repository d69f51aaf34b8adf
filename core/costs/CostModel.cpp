#include "costs/CostModel.h"

#include "costs/CostsTr.h"

#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <vector>

namespace sandbar::costs {

using catalog::GpuOffer;
using catalog::Plan;
using catalog::Tier;

namespace {

template <typename... A>
Message msg(const char *text, A &&...args)
{
    static_assert(sizeof...(A) <= 4);
    Message m;
    m.text = text;
    ((m.args[m.argCount++] = Message::Arg(std::forward<A>(args))), ...);
    return m;
}

// The size the provider actually bills once its rules are applied.
struct Shape {
    double vcpus = 0;
    double memoryGib = 0;
    const Tier *tier = nullptr;
    const GpuOffer *gpu = nullptr;
    int gpuCount = 0;
};

struct Rates {
    double cpu = 0; // USD per hour, each
    double memory = 0;
    double gpu = 0;
    double tier = 0;
    double total() const { return cpu + memory + gpu + tier; }
};

const GpuOffer *findGpu(const ProviderEntry &e, const QString &type)
{
    if (!e.gpus)
        return nullptr;
    for (const auto &g : *e.gpus)
        if (g.type.compare(type, Qt::CaseInsensitive) == 0)
            return &g;
    return nullptr;
}

// Empty when the provider can size the request; otherwise why it cannot.
Message resolveShape(const ProviderEntry &e, double vcpus, double memoryGib, const QString &gpuType, int gpuCount,
                     Shape &out, QList<Message> &notes)
{
    out.vcpus = vcpus;
    out.memoryGib = memoryGib;
    out.gpuCount = gpuCount;
    if (gpuCount > 0) {
        if (!e.gpus)
            return msg(QT_TRANSLATE_NOOP("sandbar::catalog", "GPU offering unknown"));
        if (e.gpus->isEmpty())
            return msg(QT_TRANSLATE_NOOP("sandbar::catalog", "no GPUs offered"));
        out.gpu = findGpu(e, gpuType);
        if (!out.gpu) {
            QStringList types;
            for (const auto &g : *e.gpus)
                types << g.type;
            return msg(QT_TRANSLATE_NOOP("sandbar::catalog", "GPU type %1 not offered (offers %2)"), gpuType,
                       types.join(QStringLiteral(", ")));
        }
        if (!out.gpu->usdPerHour.known())
            return msg(QT_TRANSLATE_NOOP("sandbar::catalog", "no price known for GPU %1"), out.gpu->type);
    }
    const auto &b = e.billing;
    if (b.cpu == CpuRule::Tier) {
        for (const auto &t : b.tiers) {
            if (t.vcpus + 1e-9 >= vcpus && t.memoryGib + 1e-9 >= memoryGib) {
                out.tier = &t;
                break;
            }
        }
        if (!out.tier)
            return msg(QT_TRANSLATE_NOOP("sandbar::catalog", "needs more than the largest fixed size offers"));
        if (!out.tier->usdPerHour.known())
            return msg(QT_TRANSLATE_NOOP("sandbar::catalog", "no price known for size %1"), out.tier->name);
        out.vcpus = out.tier->vcpus;
        out.memoryGib = out.tier->memoryGib;
        notes << msg(QT_TRANSLATE_NOOP("sandbar::catalog", "billed as fixed size %1 (%2 vCPU, %3 GiB)"), out.tier->name,
                     out.vcpus, out.memoryGib);
        return {};
    }
    if (b.memoryGibPerVcpu && *b.memoryGibPerVcpu > 0) {
        // Memory comes with CPU: whichever of the two asks for more sets both.
        const double ratio = *b.memoryGibPerVcpu;
        const double v = std::max(vcpus, memoryGib / ratio);
        out.vcpus = v;
        out.memoryGib = v * ratio;
        if (std::abs(out.vcpus - vcpus) > 1e-9 || std::abs(out.memoryGib - memoryGib) > 1e-9)
            notes << msg(QT_TRANSLATE_NOOP("sandbar::catalog",
                                           "memory is tied to CPU (%1 GiB per vCPU): billed as %2 vCPU, %3 GiB"),
                         ratio, out.vcpus, out.memoryGib);
    }
    const bool gpuIncludesRest = out.gpu && out.gpu->includesCpuRam;
    if (!gpuIncludesRest) {
        if (b.cpu != CpuRule::None && !e.prices.vcpuHour.known())
            return msg(QT_TRANSLATE_NOOP("sandbar::catalog", "no price known for CPU"));
        if (b.memory != MemoryRule::None && !e.prices.gibHour.known())
            return msg(QT_TRANSLATE_NOOP("sandbar::catalog", "no price known for memory"));
        if (b.cpu == CpuRule::None && b.memory == MemoryRule::None)
            return msg(QT_TRANSLATE_NOOP("sandbar::catalog", "no price known"));
    }
    return {};
}

Rates ratesFor(const ProviderEntry &e, const Shape &s, double busy)
{
    Rates r;
    if (s.tier) {
        r.tier = s.tier->usdPerHour.valueOr(0);
        return r;
    }
    if (s.gpu)
        r.gpu = s.gpuCount * s.gpu->usdPerHour.valueOr(0);
    if (s.gpu && s.gpu->includesCpuRam)
        return r;
    const double cores = s.vcpus / (e.prices.coreBased ? e.billing.vcpusPerCore : 1.0);
    switch (e.billing.cpu) {
    case CpuRule::Allocated:
    case CpuRule::MaxRequestUse: // use never exceeds the request here, so the request is billed
        r.cpu = cores * e.prices.vcpuHour.valueOr(0);
        break;
    case CpuRule::Active: r.cpu = cores * busy * e.prices.vcpuHour.valueOr(0); break;
    case CpuRule::None:
    case CpuRule::Tier: break;
    }
    if (e.billing.memory == MemoryRule::Allocated || e.billing.memory == MemoryRule::MaxRequestUse)
        r.memory = s.memoryGib * e.prices.gibHour.valueOr(0);
    return r;
}

// Billed hours after rounding each session up to the provider's granularity.
double billedHours(double hours, double sessions, std::optional<int> granularity)
{
    if (hours <= 0)
        return 0;
    if (!granularity)
        return hours;
    const double n = std::max(1.0, sessions);
    const double perSession = hours * 3600.0 / n;
    const double g = *granularity;
    return std::ceil(perSession / g - 1e-9) * g * n / 3600.0;
}

// Monthly inclusions (Cloudflare) are taken off the quantity before pricing.
double afterIncluded(double quantity, const Figure &price)
{
    return std::max(0.0, quantity - price.included.value_or(0));
}

const char *cpuRuleName(CpuRule r)
{
    switch (r) {
    case CpuRule::Allocated: return QT_TRANSLATE_NOOP("sandbar::catalog", "allocated");
    case CpuRule::Active: return QT_TRANSLATE_NOOP("sandbar::catalog", "active CPU");
    case CpuRule::MaxRequestUse: return QT_TRANSLATE_NOOP("sandbar::catalog", "max of request and use");
    case CpuRule::Tier: return QT_TRANSLATE_NOOP("sandbar::catalog", "fixed size");
    case CpuRule::None: break;
    }
    return QT_TRANSLATE_NOOP("sandbar::catalog", "not billed");
}

struct PlanChoice {
    const Plan *plan = nullptr;
    Message reason; // when none fits
};

PlanChoice choosePlan(const ProviderEntry &e, const Shape &s, double sessionHours, QList<Message> &notes)
{
    PlanChoice c;
    if (e.plans.isEmpty())
        return c;
    for (const auto &p : e.plans) {
        // GPU sandboxes come in their own sizes, which replace the plan's CPU and memory caps.
        const bool gpuSized = s.gpu && s.gpu->maxVcpus.known();
        const double maxV = gpuSized ? *s.gpu->maxVcpus.value : p.maxVcpus.valueOr(INFINITY);
        if (sessionHours > 0 && p.maxSessionHours.known() && sessionHours > *p.maxSessionHours.value + 1e-9) {
            c.reason =
                msg(QT_TRANSLATE_NOOP("sandbar::catalog", "a %1 h session exceeds the longest plan limit (%2 h on %3)"),
                    sessionHours, *p.maxSessionHours.value, p.name);
            continue;
        }
        if (!s.tier && s.vcpus > maxV + 1e-9) {
            c.reason =
                msg(QT_TRANSLATE_NOOP("sandbar::catalog", "needs %1 vCPUs; at most %2 (%3)"), s.vcpus, maxV, p.name);
            continue;
        }
        if (!s.tier && !gpuSized && p.maxMemoryGib.known() && s.memoryGib > *p.maxMemoryGib.value + 1e-9) {
            c.reason = msg(QT_TRANSLATE_NOOP("sandbar::catalog", "needs %1 GiB memory; at most %2 (%3)"), s.memoryGib,
                           *p.maxMemoryGib.value, p.name);
            continue;
        }
        if (sessionHours > 0 && !p.maxSessionHours.known() && !p.maxSessionHours.unlimited)
            notes << msg(QT_TRANSLATE_NOOP("sandbar::catalog", "session limit of plan %1 unknown"), p.name);
        c.plan = &p;
        c.reason = Message{};
        return c;
    }
    return c;
}

void add(Estimate &est, const QString &component, double v, const Message &detail)
{
    est.breakdown << CostLine{component, v, detail};
    est.totalUsd += v;
}

// The running charges: a fixed size, or CPU, memory and GPUs each on their own.
void addComputeCosts(Estimate &est, const ProviderEntry &e, const Shape &shape, const Rates &r, double hours)
{
    const auto &b = e.billing;
    if (shape.tier) {
        add(est, QStringLiteral("tier"), r.tier * hours,
            msg(QT_TRANSLATE_NOOP("sandbar::catalog", "%1 × %2 h × $%3"), shape.tier->name, hours, r.tier));
        return;
    }
    if (b.cpu != CpuRule::None) {
        const double unitHours = r.cpu * hours / std::max(1e-12, e.prices.vcpuHour.valueOr(1));
        const double billed = afterIncluded(unitHours, e.prices.vcpuHour);
        const char *unit = e.prices.coreBased ? QT_TRANSLATE_NOOP("sandbar::catalog", "core-h")
                                              : QT_TRANSLATE_NOOP("sandbar::catalog", "vCPU-h");
        add(est, QStringLiteral("cpu"), billed * e.prices.vcpuHour.valueOr(0),
            shape.gpu && shape.gpu->includesCpuRam
                ? msg(QT_TRANSLATE_NOOP("sandbar::catalog", "included in the GPU price"))
                : msg(QT_TRANSLATE_NOOP("sandbar::catalog", "%1 %2 × $%3 (%4)"), billed, unit,
                      e.prices.vcpuHour.valueOr(0), cpuRuleName(b.cpu)));
    }
    if (b.memory != MemoryRule::None) {
        const double gibHours = afterIncluded(shape.memoryGib * hours, e.prices.gibHour);
        const double cost = (shape.gpu && shape.gpu->includesCpuRam) ? 0 : gibHours * e.prices.gibHour.valueOr(0);
        add(est, QStringLiteral("memory"), cost,
            shape.gpu && shape.gpu->includesCpuRam
                ? msg(QT_TRANSLATE_NOOP("sandbar::catalog", "included in the GPU price"))
                : msg(QT_TRANSLATE_NOOP("sandbar::catalog", "%1 GiB-h × $%2"), gibHours, e.prices.gibHour.valueOr(0)));
    }
    if (shape.gpu)
        add(est, QStringLiteral("gpu"), r.gpu * hours,
            msg(QT_TRANSLATE_NOOP("sandbar::catalog", "%1 × %2 × %3 h × $%4"), double(shape.gpuCount), shape.gpu->type,
                hours, shape.gpu->usdPerHour.valueOr(0)));
}

void addIdleCost(Estimate &est, const ProviderEntry &e, const Shape &shape, double idleHours)
{
    switch (e.billing.idle) {
    case IdleRule::Free: {
        const double standby = e.prices.standbyGibHour.valueOr(0) * shape.memoryGib * idleHours;
        add(est, QStringLiteral("idle"), standby,
            standby > 0 ? msg(QT_TRANSLATE_NOOP("sandbar::catalog", "%1 GiB-h on standby × $%2"),
                              shape.memoryGib * idleHours, e.prices.standbyGibHour.valueOr(0))
                        : msg(QT_TRANSLATE_NOOP("sandbar::catalog", "paused or on standby: no compute charge")));
        break;
    }
    case IdleRule::Running: {
        const double idleRate = ratesFor(e, shape, 0).total();
        add(est, QStringLiteral("idle"), idleRate * idleHours,
            msg(QT_TRANSLATE_NOOP("sandbar::catalog", "no pause: %1 h billed as running with an idle CPU"), idleHours));
        break;
    }
    case IdleRule::Unknown:
        est.noteMessages << msg(QT_TRANSLATE_NOOP("sandbar::catalog", "cost while idle unknown; not included"));
        break;
    }
}

// Storage, creates and data transfer, each noted when its price is unknown.
void addUsageCosts(Estimate &est, const ProviderEntry &e, const Workload &w)
{
    if (w.storageGib > 0) {
        const Figure &p = e.prices.storageGibHour;
        if (p.known()) {
            const double gib = std::max(0.0, w.storageGib - e.prices.storageFreeGib.valueOr(0));
            const double gibHours = afterIncluded(gib * (w.activeHours + w.idleHours), p);
            add(est, QStringLiteral("storage"), gibHours * *p.value,
                msg(QT_TRANSLATE_NOOP("sandbar::catalog", "%1 GiB-h × $%2"), gibHours, *p.value));
        } else {
            est.noteMessages << msg(QT_TRANSLATE_NOOP("sandbar::catalog", "storage price unknown; not included"));
        }
    }
    if (w.sessionsPerMonth > 0) {
        if (e.prices.perCreate.known())
            add(est, QStringLiteral("creates"), w.sessionsPerMonth * *e.prices.perCreate.value,
                msg(QT_TRANSLATE_NOOP("sandbar::catalog", "%1 × $%2"), w.sessionsPerMonth, *e.prices.perCreate.value));
        else
            est.noteMessages << msg(QT_TRANSLATE_NOOP("sandbar::catalog", "per-create price unknown; not included"));
    }
    if (w.egressGb > 0) {
        if (e.prices.egressGb.known())
            add(est, QStringLiteral("egress"), w.egressGb * *e.prices.egressGb.value,
                msg(QT_TRANSLATE_NOOP("sandbar::catalog", "%1 GB × $%2"), w.egressGb, *e.prices.egressGb.value));
        else
            est.noteMessages << msg(QT_TRANSLATE_NOOP("sandbar::catalog", "data transfer price unknown; not included"));
    }
}

void applyFreeCredit(Estimate &est, const ProviderEntry &e, const Workload &w)
{
    const double left = std::max(0.0, *e.prices.freeCreditUsd.value - w.creditUsedUsd.value(e.id, 0));
    if (left <= 0)
        est.noteMessages << msg(QT_TRANSLATE_NOOP("sandbar::catalog", "free credit used up"));
    else if (est.totalUsd > 0)
        add(est, QStringLiteral("free_credit"), -std::min(est.totalUsd, left),
            e.prices.creditMonthly ? msg(QT_TRANSLATE_NOOP("sandbar::catalog", "$%1 a month"), left)
                                   : msg(QT_TRANSLATE_NOOP("sandbar::catalog", "$%1 once"), left));
}

void addPlanFee(Estimate &est, const Plan &plan)
{
    const Figure &fee = plan.monthlyFeeUsd;
    if (fee.known() && *fee.value > 0)
        add(est, QStringLiteral("plan"), *fee.value, msg(QT_TRANSLATE_NOOP("sandbar::catalog", "plan %1"), plan.name));
    else if (!fee.known())
        est.noteMessages << msg(QT_TRANSLATE_NOOP("sandbar::catalog", "fee of plan %1 unknown; not included"),
                                plan.name);
}

} // namespace

VoidResult validateWorkload(const Workload &w)
{
    auto bad = [](const QString &m) { return VoidResult(makeError(ErrorCode::InvalidArgument, m)); };
    const double values[] = {w.vcpus,        w.memoryGib,  w.activeHours,      w.idleHours,
                             w.sessionHours, w.storageGib, w.sessionsPerMonth, w.egressGb};
    for (double v : values)
        if (!std::isfinite(v) || v < 0)
            return bad(tr("quantities must be finite and not negative"));
    if (w.vcpus <= 0)
        return bad(tr("vCPUs must be more than 0"));
    if (!(w.cpuBusy >= 0 && w.cpuBusy <= 1))
        return bad(tr("the busy share of CPU time must lie between 0 and 1"));
    if (w.gpuCount < 0)
        return bad(tr("the GPU count must not be negative"));
    if (w.gpuCount > 0 && w.gpuType.isEmpty())
        return bad(tr("name the GPU type with the GPU count"));
    return {};
}

QString Message::toString() const
{
    if (!text)
        return {};
    QString out = QCoreApplication::translate("sandbar::catalog", text);
    QString rendered[4];
    for (int i = 0; i < argCount; ++i)
        rendered[i] = args[i].isNumber ? QString::number(args[i].number, 'g', 6)
                                       : (args[i].translatable ? tr(args[i].translatable) : args[i].text);
    switch (argCount) {
    case 1: return out.arg(rendered[0]);
    case 2: return out.arg(rendered[0], rendered[1]);
    case 3: return out.arg(rendered[0], rendered[1], rendered[2]);
    case 4: return out.arg(rendered[0], rendered[1], rendered[2], rendered[3]);
    default: return out;
    }
}

QStringList Estimate::notes() const
{
    QStringList out;
    out.reserve(noteMessages.size());
    for (const auto &m : noteMessages)
        out << m.toString();
    return out;
}

double Estimate::component(const QString &name) const
{
    double sum = 0;
    for (const auto &l : breakdown)
        if (l.component == name)
            sum += l.usd;
    return sum;
}

Estimate estimateProvider(const ProviderEntry &e, const Workload &w)
{
    Estimate est;
    est.providerId = e.id;
    est.providerName = e.name;
    auto exclude = [&](const Message &reason) {
        est.excluded = true;
        est.reasonMessage = reason;
        est.breakdown.clear();
        est.totalUsd = 0;
        return std::move(est); // est is finished; copying it showed up in the sweep's profile
    };
    const int gpuCount = w.gpuType.isEmpty() ? 0 : std::max(1, w.gpuCount);
    if (e.kind != Kind::SandboxRuntime)
        return exclude(msg(QT_TRANSLATE_NOOP("sandbar::catalog",
                                             "not a sandbox runtime (%1): costs are those of the provider it drives"),
                           e.kindName));
    if (e.selfHosted) {
        est.selfHosted = true;
        if (gpuCount > 0 && e.gpus && e.gpus->isEmpty())
            return exclude(msg(QT_TRANSLATE_NOOP("sandbar::catalog", "no GPUs offered")));
        if (gpuCount > 0 && !e.gpus)
            est.noteMessages << msg(QT_TRANSLATE_NOOP("sandbar::catalog", "GPU availability depends on the host"));
        est.noteMessages << msg(
            QT_TRANSLATE_NOOP("sandbar::catalog", "self-hosted: runs on your own hardware; no provider charges"));
        return est;
    }
    Shape shape;
    const Message why = resolveShape(e, w.vcpus, w.memoryGib, w.gpuType, gpuCount, shape, est.noteMessages);
    if (!why.isEmpty())
        return exclude(why);
    double sessionHours = w.sessionHours;
    if (sessionHours <= 0 && w.sessionsPerMonth >= 1)
        sessionHours = w.activeHours / w.sessionsPerMonth;
    const PlanChoice choice = choosePlan(e, shape, sessionHours, est.noteMessages);
    if (!choice.plan && !choice.reason.isEmpty())
        return exclude(choice.reason);
    if (choice.plan)
        est.plan = choice.plan->name;

    const auto &b = e.billing;
    if (!b.granularitySeconds && w.activeHours > 0)
        est.noteMessages << msg(
            QT_TRANSLATE_NOOP("sandbar::catalog", "billing granularity not published; billed exactly"));
    const double hours = billedHours(w.activeHours, w.sessionsPerMonth, b.granularitySeconds);
    addComputeCosts(est, e, shape, ratesFor(e, shape, w.cpuBusy), hours);
    if (w.idleHours > 0)
        addIdleCost(est, e, shape, w.idleHours);
    addUsageCosts(est, e, w);
    // Credits pay for usage, not for subscriptions, so they are applied before the plan fee.
    if (w.applyFreeCredit && e.prices.freeCreditUsd.known())
        applyFreeCredit(est, e, w);
    if (choice.plan)
        addPlanFee(est, *choice.plan);
    return est;
}

QList<Estimate> estimate(const Catalog &catalog, const Workload &w)
{
    const auto &entries = catalog.entries();
    std::vector<Estimate> all;
    all.reserve(size_t(entries.size()));
    for (const auto &e : entries)
        all.push_back(estimateProvider(e, w));
    // Sorting indices moves each Estimate once instead of at every swap. Excluded ones keep
    // catalog order.
    std::vector<int> order(all.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = int(i);
    std::stable_sort(order.begin(), order.end(), [&all](int x, int y) {
        const Estimate &a = all[size_t(x)];
        const Estimate &b = all[size_t(y)];
        if (a.excluded != b.excluded)
            return !a.excluded;
        return !a.excluded && a.totalUsd < b.totalUsd;
    });
    QList<Estimate> out;
    out.reserve(qsizetype(all.size()));
    for (int i : order)
        out.append(std::move(all[size_t(i)]));
    return out;
}

LiveCost liveCost(const ProviderEntry &e, const LiveResources &res, double billedSeconds)
{
    LiveCost c;
    if (e.kind != Kind::SandboxRuntime) {
        c.reason = tr("not a sandbox runtime");
        return c;
    }
    if (e.selfHosted) {
        c.known = true;
        return c;
    }
    Shape shape;
    QList<Message> notes;
    const int gpuCount = res.gpuType.isEmpty() ? 0 : std::max(1, res.gpuCount);
    const Message why = resolveShape(e, res.vcpus, res.memoryGib, res.gpuType, gpuCount, shape, notes);
    if (!why.isEmpty()) {
        c.reason = why.toString();
        return c;
    }
    c.known = true;
    c.usdPerHour = ratesFor(e, shape, std::clamp(res.cpuBusy, 0.0, 1.0)).total();
    double seconds = std::max(0.0, billedSeconds);
    if (e.billing.granularitySeconds && seconds > 0)
        seconds = std::ceil(seconds / *e.billing.granularitySeconds - 1e-9) * *e.billing.granularitySeconds;
    c.costSoFarUsd = c.usdPerHour * seconds / 3600.0;
    return c;
}

QJsonObject estimateToJson(const Estimate &e)
{
    QJsonObject o;
    o[QStringLiteral("provider")] = e.providerId;
    o[QStringLiteral("name")] = e.providerName;
    if (e.excluded) {
        o[QStringLiteral("excluded")] = e.reason();
        return o;
    }
    o[QStringLiteral("total_usd")] = e.totalUsd;
    QJsonObject breakdown;
    QJsonObject details;
    for (const auto &l : e.breakdown) {
        breakdown[l.component] = breakdown.value(l.component).toDouble() + l.usd;
        details[l.component] = l.detail.toString();
    }
    o[QStringLiteral("breakdown")] = breakdown;
    o[QStringLiteral("details")] = details;
    if (!e.plan.isEmpty())
        o[QStringLiteral("plan")] = e.plan;
    o[QStringLiteral("self_hosted")] = e.selfHosted;
    if (!e.noteMessages.isEmpty())
        o[QStringLiteral("notes")] = QJsonArray::fromStringList(e.notes());
    return o;
}

QJsonArray estimatesToJson(const QList<Estimate> &list)
{
    QJsonArray a;
    for (const auto &e : list)
        a.append(estimateToJson(e));
    return a;
}

} // namespace sandbar::costs
