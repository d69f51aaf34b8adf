#include "catalog/Catalog.h"

#include "catalog/CatalogTr.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QUrl>

// Q_INIT_RESOURCE must be used outside any namespace; referencing the initialiser also keeps
// the linker from dropping the resource object out of this static library.
static void initCatalogResource()
{
    Q_INIT_RESOURCE(catalog);
}

namespace sandbar::catalog {

namespace {

const QString kValue = QStringLiteral("value");
const QString kSource = QStringLiteral("source");
const QString kUserSource = QStringLiteral("user-catalog");

bool isFigure(const QJsonValue &v)
{
    return v.isObject() && v.toObject().contains(kValue);
}

const QStringList &kinds()
{
    static const QStringList k = {QStringLiteral("sandbox-runtime"), QStringLiteral("aggregator-library"),
                                  QStringLiteral("governance-layer"), QStringLiteral("mcp-proxy")};
    return k;
}

const QStringList &isolations()
{
    static const QStringList k = {
        QStringLiteral("firecracker-microvm"), QStringLiteral("gvisor"), QStringLiteral("container"),
        QStringLiteral("dedicated-microvm"),   QStringLiteral("kata"),   QStringLiteral("linux-namespaces")};
    return k;
}

// Walks every figure below v and reports the ones whose source or date cannot be resolved.
void checkFigures(const QJsonValue &v, const QString &path, const QJsonObject &sources, QStringList &problems)
{
    if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            checkFigures(a.at(i), path + QStringLiteral("[%1]").arg(i), sources, problems);
        return;
    }
    if (!v.isObject())
        return;
    const QJsonObject o = v.toObject();
    if (o.contains(kValue)) {
        const QString src = o.value(kSource).toString();
        if (src.isEmpty()) {
            problems << tr("%1: figure has no source").arg(path);
        } else if (!sources.contains(src)) {
            problems << tr("%1: unknown source '%2'").arg(path, src);
        } else if (o.value(QStringLiteral("date")).toString().isEmpty() &&
                   sources.value(src).toObject().value(QStringLiteral("date")).toString().isEmpty()) {
            problems << tr("%1: figure has no date").arg(path);
        }
    }
    for (auto it = o.constBegin(); it != o.constEnd(); ++it)
        checkFigures(it.value(), path + QLatin1Char('.') + it.key(), sources, problems);
}

Figure parseFigure(const QJsonValue &v, const QJsonObject &sources, QStringList &problems, const QString &path)
{
    Figure f;
    if (!v.isObject())
        return f; // absent or null: unknown
    const QJsonObject o = v.toObject();
    const QJsonValue value = o.value(kValue);
    if (value.isDouble())
        f.value = value.toDouble();
    else if (!value.isNull() && !value.isUndefined())
        problems << tr("%1: value must be a number or null").arg(path);
    if (o.value(QStringLiteral("max")).isDouble())
        f.max = o.value(QStringLiteral("max")).toDouble();
    if (o.value(QStringLiteral("included")).isDouble())
        f.included = o.value(QStringLiteral("included")).toDouble();
    f.unlimited = o.value(QStringLiteral("unlimited")).toBool();
    f.source = o.value(kSource).toString();
    f.date = o.value(QStringLiteral("date")).toString();
    if (f.date.isEmpty())
        f.date = sources.value(f.source).toObject().value(QStringLiteral("date")).toString();
    f.note = o.value(QStringLiteral("note")).toString();
    return f;
}

template <typename E>
std::optional<E> pick(const QString &s, std::initializer_list<std::pair<const char *, E>> table)
{
    for (const auto &[name, e] : table)
        if (s == QLatin1String(name))
            return e;
    return std::nullopt;
}

void parseBilling(const QJsonObject &b, const QJsonObject &sources, ProviderEntry &e, QStringList &problems)
{
    const QString at = e.id + QStringLiteral(".billing");
    auto &r = e.billing;
    const QString cpu = b.value(QStringLiteral("cpu")).toString(QStringLiteral("allocated"));
    const auto c = pick<CpuRule>(cpu, {{"none", CpuRule::None},
                                       {"allocated", CpuRule::Allocated},
                                       {"active", CpuRule::Active},
                                       {"max-request-use", CpuRule::MaxRequestUse},
                                       {"tier", CpuRule::Tier}});
    if (!c)
        problems << tr("%1: unknown cpu rule '%2'").arg(at, cpu);
    r.cpu = c.value_or(CpuRule::Allocated);
    const QString mem = b.value(QStringLiteral("memory")).toString(QStringLiteral("allocated"));
    const auto m = pick<MemoryRule>(mem, {{"none", MemoryRule::None},
                                          {"allocated", MemoryRule::Allocated},
                                          {"max-request-use", MemoryRule::MaxRequestUse},
                                          {"tier", MemoryRule::Tier}});
    if (!m)
        problems << tr("%1: unknown memory rule '%2'").arg(at, mem);
    r.memory = m.value_or(MemoryRule::Allocated);
    const QJsonValue idle = b.value(QStringLiteral("idle"));
    if (idle.isString()) {
        const auto i = pick<IdleRule>(idle.toString(), {{"free", IdleRule::Free}, {"running", IdleRule::Running}});
        if (!i)
            problems << tr("%1: unknown idle rule '%2'").arg(at, idle.toString());
        r.idle = i.value_or(IdleRule::Unknown);
    }
    const QJsonValue g = b.value(QStringLiteral("granularity_s"));
    if (g.isDouble()) {
        if (g.toInt() < 1)
            problems << tr("%1: granularity_s must be at least 1").arg(at);
        else
            r.granularitySeconds = g.toInt();
    }
    r.vcpusPerCore = b.value(QStringLiteral("vcpus_per_core")).toDouble(1.0);
    if (r.vcpusPerCore <= 0)
        problems << tr("%1: vcpus_per_core must be positive").arg(at);
    if (b.value(QStringLiteral("memory_gib_per_vcpu")).isDouble())
        r.memoryGibPerVcpu = b.value(QStringLiteral("memory_gib_per_vcpu")).toDouble();
    r.source = b.value(kSource).toString();
    r.note = b.value(QStringLiteral("note")).toString();
    const QJsonArray tiers = b.value(QStringLiteral("tiers")).toObject().value(kValue).toArray();
    for (const auto &tv : tiers) {
        const QJsonObject t = tv.toObject();
        Tier tier;
        tier.name = t.value(QStringLiteral("name")).toString();
        tier.vcpus = t.value(QStringLiteral("vcpus")).toDouble();
        tier.memoryGib = t.value(QStringLiteral("memory_gib")).toDouble();
        tier.usdPerHour =
            parseFigure(t.value(QStringLiteral("usd_hour")), sources, problems, at + QStringLiteral(".tiers"));
        r.tiers << tier;
    }
    if ((r.cpu == CpuRule::Tier) != (r.memory == MemoryRule::Tier))
        problems << tr("%1: cpu and memory must both be 'tier' or neither").arg(at);
}

void parsePrices(const QJsonObject &p, const QJsonObject &sources, ProviderEntry &e, QStringList &problems)
{
    const QString at = e.id + QStringLiteral(".prices.");
    auto fig = [&](const char *key) {
        const QString k = QLatin1String(key);
        return parseFigure(p.value(k), sources, problems, at + k);
    };
    auto &x = e.prices;
    if (p.contains(QStringLiteral("core_hour"))) {
        x.vcpuHour = fig("core_hour");
        x.coreBased = true;
    } else {
        x.vcpuHour = fig("vcpu_hour");
    }
    x.gibHour = fig("gib_hour");
    x.storageGibHour = fig("storage_gib_hour");
    if (p.contains(QStringLiteral("storage_gib_month"))) {
        x.storageGibHour = fig("storage_gib_month");
        if (x.storageGibHour.value)
            *x.storageGibHour.value /= kHoursPerMonth;
    }
    x.storageFreeGib = fig("storage_free_gib");
    x.perCreate = fig("per_create");
    x.egressGb = fig("egress_gb");
    x.standbyGibHour = fig("standby_gib_hour");
    x.freeCreditUsd = fig("free_credit_usd");
    x.creditMonthly =
        p.value(QStringLiteral("free_credit_usd")).toObject().value(QStringLiteral("period")).toString() ==
        QLatin1String("month");
}

ProviderEntry parseEntry(const QJsonObject &o, const QJsonObject &sources, QStringList &problems)
{
    ProviderEntry e;
    e.raw = o;
    e.id = o.value(QStringLiteral("id")).toString();
    e.name = o.value(QStringLiteral("name")).toString();
    e.kindName = o.value(QStringLiteral("kind")).toString();
    e.kind = Kind(std::max<qsizetype>(0, kinds().indexOf(e.kindName)));
    e.managedBy = o.value(QStringLiteral("managed_by")).toString();
    e.selfHosted = o.value(QStringLiteral("hosting")).toString() == QLatin1String("self");
    e.isolation = o.value(QStringLiteral("isolation")).toObject().value(kValue).toString();
    e.coldStartMs = parseFigure(o.value(QStringLiteral("cold_start_ms")), sources, problems,
                                e.id + QStringLiteral(".cold_start_ms"));
    e.resumeMs =
        parseFigure(o.value(QStringLiteral("resume_ms")), sources, problems, e.id + QStringLiteral(".resume_ms"));
    const QJsonValue gpus = o.value(QStringLiteral("gpus")).toObject().value(kValue);
    if (gpus.isArray()) {
        QList<GpuOffer> offers;
        for (const auto &gv : gpus.toArray()) {
            const QJsonObject g = gv.toObject();
            GpuOffer offer;
            offer.type = g.value(QStringLiteral("type")).toString();
            offer.usdPerHour =
                parseFigure(g.value(QStringLiteral("usd_hour")), sources, problems, e.id + QStringLiteral(".gpus"));
            offer.maxVcpus =
                parseFigure(g.value(QStringLiteral("max_vcpus")), sources, problems, e.id + QStringLiteral(".gpus"));
            offer.includesCpuRam = g.value(QStringLiteral("includes_cpu_ram")).toBool();
            offers << offer;
        }
        e.gpus = offers;
    }
    for (const auto &pv : o.value(QStringLiteral("plans")).toArray()) {
        const QJsonObject p = pv.toObject();
        const QString at = e.id + QStringLiteral(".plans.");
        Plan plan;
        plan.name = p.value(QStringLiteral("name")).toString();
        plan.monthlyFeeUsd = parseFigure(p.value(QStringLiteral("monthly_fee_usd")), sources, problems, at + plan.name);
        plan.maxSessionHours =
            parseFigure(p.value(QStringLiteral("max_session_hours")), sources, problems, at + plan.name);
        plan.maxVcpus = parseFigure(p.value(QStringLiteral("max_vcpus")), sources, problems, at + plan.name);
        plan.maxMemoryGib = parseFigure(p.value(QStringLiteral("max_memory_gib")), sources, problems, at + plan.name);
        e.plans << plan;
    }
    parsePrices(o.value(QStringLiteral("prices")).toObject(), sources, e, problems);
    parseBilling(o.value(QStringLiteral("billing")).toObject(), sources, e, problems);
    return e;
}

void fillSources(QJsonValueRef ref, const QString &defaultSource)
{
    if (ref.isArray()) {
        QJsonArray a = ref.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            fillSources(a[i], defaultSource);
        ref = a;
    } else if (ref.isObject()) {
        QJsonObject o = ref.toObject();
        if (o.contains(kValue) && o.value(kSource).toString().isEmpty())
            o[kSource] = defaultSource;
        for (auto it = o.begin(); it != o.end(); ++it)
            fillSources(it.value(), defaultSource);
        ref = o;
    }
}

QJsonObject mergeObject(QJsonObject base, const QJsonObject &over)
{
    for (auto it = over.constBegin(); it != over.constEnd(); ++it) {
        const QJsonValue b = base.value(it.key());
        if (it.value().isObject() && b.isObject() && !isFigure(it.value()) && !isFigure(b))
            base[it.key()] = mergeObject(b.toObject(), it.value().toObject());
        else
            base[it.key()] = it.value();
    }
    return base;
}

} // namespace

QString figureText(const Figure &f, const QString &suffix, const QString &unknown)
{
    if (f.unlimited)
        return tr("unlimited");
    if (!f.known())
        return unknown;
    QString s = QString::number(*f.value, 'g', 6);
    if (f.max)
        s += QLatin1Char('-') + QString::number(*f.max, 'g', 6);
    return s + suffix;
}

QStringList requiredProviderIds()
{
    return {QStringLiteral("local"),
            QStringLiteral("docker"),
            QStringLiteral("podman"),
            QStringLiteral("kubernetes"),
            QStringLiteral("e2b"),
            QStringLiteral("daytona"),
            QStringLiteral("modal"),
            QStringLiteral("vercel-sandbox"),
            QStringLiteral("cloudflare-sandbox"),
            QStringLiteral("blaxel"),
            QStringLiteral("fly-sprites"),
            QStringLiteral("northflank"),
            QStringLiteral("codesandbox"),
            QStringLiteral("aws-agentcore"),
            QStringLiteral("google-agent-engine"),
            QStringLiteral("computesdk"),
            QStringLiteral("mintmcp"),
            QStringLiteral("blekline")};
}

QStringList validateDocument(const QJsonObject &doc)
{
    QStringList problems;
    if (doc.value(QStringLiteral("schema")).toInt(-1) != kSchemaVersion)
        problems << tr("schema must be %1").arg(kSchemaVersion);
    const QJsonObject sources = doc.value(QStringLiteral("sources")).toObject();
    for (auto it = sources.constBegin(); it != sources.constEnd(); ++it) {
        const QJsonObject s = it.value().toObject();
        if (s.value(QStringLiteral("title")).toString().isEmpty() ||
            s.value(QStringLiteral("date")).toString().isEmpty())
            problems << tr("source '%1' needs a title and a date").arg(it.key());
    }
    if (!doc.value(QStringLiteral("providers")).isArray()) {
        problems << tr("providers must be an array");
        return problems;
    }
    QSet<QString> seen;
    for (const auto &pv : doc.value(QStringLiteral("providers")).toArray()) {
        const QJsonObject p = pv.toObject();
        const QString id = p.value(QStringLiteral("id")).toString();
        if (id.isEmpty()) {
            problems << tr("a provider has no id");
            continue;
        }
        if (seen.contains(id))
            problems << tr("%1: duplicate id").arg(id);
        seen.insert(id);
        if (p.value(QStringLiteral("name")).toString().isEmpty())
            problems << tr("%1: no name").arg(id);
        if (!kinds().contains(p.value(QStringLiteral("kind")).toString()))
            problems << tr("%1: kind must be one of %2").arg(id, kinds().join(QStringLiteral(", ")));
        const QJsonValue iso = p.value(QStringLiteral("isolation")).toObject().value(kValue);
        if (iso.isString() && !isolations().contains(iso.toString()))
            problems << tr("%1: unknown isolation '%2'").arg(id, iso.toString());
        if (p.contains(QStringLiteral("billing")) &&
            p.value(QStringLiteral("billing")).toObject().value(kSource).toString().isEmpty())
            problems << tr("%1: billing rule has no source").arg(id);
        checkFigures(p, id, sources, problems);
    }
    for (const auto &id : requiredProviderIds())
        if (!seen.contains(id))
            problems << tr("provider '%1' is missing").arg(id);
    return problems;
}

QJsonObject mergeDocuments(const QJsonObject &base, const QJsonObject &overlay, const QString &defaultSource)
{
    QJsonObject over = overlay;
    if (!defaultSource.isEmpty()) {
        fillSources(over[QStringLiteral("providers")], defaultSource);
        QJsonArray ps = over.value(QStringLiteral("providers")).toArray();
        for (qsizetype i = 0; i < ps.size(); ++i) {
            QJsonObject p = ps.at(i).toObject();
            QJsonObject billing = p.value(QStringLiteral("billing")).toObject();
            if (p.contains(QStringLiteral("billing")) && billing.value(kSource).toString().isEmpty()) {
                billing[kSource] = defaultSource;
                p[QStringLiteral("billing")] = billing;
                ps[i] = p;
            }
        }
        over[QStringLiteral("providers")] = ps;
    }
    QJsonObject out = base;
    out[QStringLiteral("sources")] =
        mergeObject(base.value(QStringLiteral("sources")).toObject(), over.value(QStringLiteral("sources")).toObject());
    QJsonArray providers = base.value(QStringLiteral("providers")).toArray();
    for (const auto &pv : over.value(QStringLiteral("providers")).toArray()) {
        const QJsonObject p = pv.toObject();
        const QString id = p.value(QStringLiteral("id")).toString();
        bool merged = false;
        for (qsizetype i = 0; i < providers.size() && !merged; ++i) {
            if (providers.at(i).toObject().value(QStringLiteral("id")).toString() == id) {
                providers[i] = mergeObject(providers.at(i).toObject(), p);
                merged = true;
            }
        }
        if (!merged)
            providers.append(p);
    }
    out[QStringLiteral("providers")] = providers;
    return out;
}

Result<QJsonObject> readOverride(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Unavailable, tr("Cannot read %1: %2").arg(path, f.errorString()));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError)
        return makeError(ErrorCode::InvalidArgument,
                         tr("%1 is not valid JSON at offset %2: %3").arg(path).arg(pe.offset).arg(pe.errorString()));
    if (!doc.isObject())
        return makeError(ErrorCode::InvalidArgument, tr("%1 must hold a JSON object").arg(path));
    QJsonObject o = doc.object();
    if (o.contains(QStringLiteral("schema")) && o.value(QStringLiteral("schema")).toInt(-1) != kSchemaVersion)
        return makeError(ErrorCode::Unsupported,
                         tr("%1 has schema %2; this Sandbar reads schema %3")
                             .arg(path, o.value(QStringLiteral("schema")).toVariant().toString())
                             .arg(kSchemaVersion));
    if (o.contains(QStringLiteral("providers")) && !o.value(QStringLiteral("providers")).isArray())
        return makeError(ErrorCode::InvalidArgument, tr("%1: providers must be an array").arg(path));
    for (const auto &pv : o.value(QStringLiteral("providers")).toArray())
        if (pv.toObject().value(QStringLiteral("id")).toString().isEmpty())
            return makeError(ErrorCode::InvalidArgument, tr("%1: every provider needs an id").arg(path));
    QJsonObject sources = o.value(QStringLiteral("sources")).toObject();
    QJsonObject own;
    own[QStringLiteral("title")] = tr("Your corrections in %1").arg(path);
    own[QStringLiteral("url")] = QUrl::fromLocalFile(path).toString();
    own[QStringLiteral("date")] = QFileInfo(path).lastModified().toUTC().date().toString(Qt::ISODate);
    own[QStringLiteral("kind")] = QStringLiteral("user");
    sources[kUserSource] = own;
    o[QStringLiteral("sources")] = sources;
    return o;
}

QString Catalog::tr(const char *text)
{
    return QCoreApplication::translate("sandbar::catalog::Catalog", text);
}

Result<Catalog> Catalog::fromDocument(const QJsonObject &doc)
{
    QStringList problems = validateDocument(doc);
    Catalog c;
    c.m_doc = doc;
    const QJsonObject sources = doc.value(QStringLiteral("sources")).toObject();
    for (const auto &pv : doc.value(QStringLiteral("providers")).toArray())
        c.m_entries << parseEntry(pv.toObject(), sources, problems);
    if (!problems.isEmpty())
        return makeError(ErrorCode::InvalidArgument,
                         tr("Invalid catalog: %1").arg(problems.join(QStringLiteral("; "))));
    return c;
}

Result<Catalog> Catalog::fromJson(const QByteArray &json)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError)
        return makeError(ErrorCode::InvalidArgument,
                         tr("Catalog is not valid JSON at offset %1: %2").arg(pe.offset).arg(pe.errorString()));
    if (!doc.isObject())
        return makeError(ErrorCode::InvalidArgument, tr("Catalog must be a JSON object"));
    return fromDocument(doc.object());
}

Result<Catalog> Catalog::shipped()
{
    initCatalogResource();
    QFile f(QStringLiteral(":/sandbar/catalog/providers.json"));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Internal, tr("The built-in provider catalog is missing"));
    return fromJson(f.readAll());
}

Catalog Catalog::load(const QString &configDir, std::optional<Error> *overrideError)
{
    auto base = shipped();
    if (!base.ok()) {
        if (overrideError)
            *overrideError = base.error();
        return Catalog{};
    }
    const QString path = QDir(configDir).filePath(QStringLiteral("catalog.json"));
    if (configDir.isEmpty() || !QFileInfo::exists(path))
        return std::move(base).value();
    auto overlay = readOverride(path);
    if (!overlay.ok()) {
        if (overrideError)
            *overrideError = overlay.error();
        return std::move(base).value();
    }
    auto merged = fromDocument(mergeDocuments(base->document(), *overlay, kUserSource));
    if (!merged.ok()) {
        if (overrideError)
            *overrideError = makeError(merged.code(), tr("%1 was ignored: %2").arg(path, merged.message()));
        return std::move(base).value();
    }
    return std::move(merged).value();
}

const ProviderEntry *Catalog::find(const QString &id) const
{
    for (const auto &e : m_entries)
        if (e.id == id)
            return &e;
    return nullptr;
}

const ProviderEntry *Catalog::forProvider(const QString &catalogId, const QString &providerId) const
{
    if (const ProviderEntry *e = find(catalogId))
        return e;
    for (const auto &e : m_entries)
        if (e.managedBy == providerId)
            return &e;
    return nullptr;
}

QJsonObject Catalog::source(const QString &key) const
{
    return m_doc.value(QStringLiteral("sources")).toObject().value(key).toObject();
}

} // namespace sandbar::catalog
