#pragma once

#include "common/Result.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace sandbar::catalog {

// One published figure. value empty = unknown (never a guess); the source key points into
// the catalog's "sources" table, which gives the page and its date.
struct Figure {
    std::optional<double> value;
    std::optional<double> max;      // upper end when published as a range
    std::optional<double> included; // quantity a month included free (Cloudflare)
    bool unlimited = false;         // a limit the provider says does not exist
    QString source;
    QString date;
    QString note;

    bool known() const { return value.has_value(); }
    double valueOr(double fallback) const { return value.value_or(fallback); }
};

struct GpuOffer {
    QString type;
    Figure usdPerHour;
    Figure maxVcpus;
    bool includesCpuRam = false; // an all-inclusive GPU rate (Northflank)
};

struct Plan {
    QString name;
    Figure monthlyFeeUsd;
    Figure maxSessionHours;
    Figure maxVcpus;
    Figure maxMemoryGib;
};

struct Tier {
    QString name;
    double vcpus = 0;
    double memoryGib = 0;
    Figure usdPerHour;
};

enum class CpuRule { None, Allocated, Active, MaxRequestUse, Tier };
enum class MemoryRule { None, Allocated, MaxRequestUse, Tier };
// What a sandbox costs while nobody uses it: nothing (paused, standby, stopped), the same
// as running with an idle CPU (no pause exists), or not known.
enum class IdleRule { Unknown, Free, Running };

struct BillingRule {
    CpuRule cpu = CpuRule::Allocated;
    MemoryRule memory = MemoryRule::Allocated;
    IdleRule idle = IdleRule::Unknown;
    std::optional<int> granularitySeconds;  // empty: not published
    double vcpusPerCore = 1;                // Modal bills physical cores of 2 vCPU
    std::optional<double> memoryGibPerVcpu; // memory tied to CPU (Vercel, Blaxel)
    QList<Tier> tiers;                      // fixed sizes (CodeSandbox)
    QString source;
    QString note;
};

struct Prices {
    Figure vcpuHour; // per vCPU-hour, or per physical core-hour when coreBased
    bool coreBased = false;
    Figure gibHour;
    Figure storageGibHour; // storage_gib_month is converted on load (730 h a month)
    Figure storageFreeGib;
    Figure perCreate;
    Figure egressGb;
    Figure standbyGibHour; // memory kept while paused or on standby, when billed apart
    Figure freeCreditUsd;
    bool creditMonthly = false;
};

enum class Kind { SandboxRuntime, AggregatorLibrary, GovernanceLayer, McpProxy };

struct ProviderEntry {
    QString id;
    QString name;
    Kind kind = Kind::SandboxRuntime;
    QString kindName;
    QString managedBy; // the Sandbar provider id that runs it, if any
    bool selfHosted = false;
    QString isolation;
    Figure coldStartMs;
    Figure resumeMs;
    std::optional<QList<GpuOffer>> gpus; // empty optional: unknown; empty list: none offered
    QList<Plan> plans;
    Prices prices;
    BillingRule billing;
    QJsonObject raw; // the merged JSON entry, for display
};

inline constexpr int kSchemaVersion = 1;
inline constexpr double kHoursPerMonth = 730.0;

// The shipped catalog plus the user's corrections, parsed once. Immutable after load.
class Catalog
{
public:
    // Parses and validates one whole document (schema, ids, a source for every figure).
    static Result<Catalog> fromDocument(const QJsonObject &doc);
    static Result<Catalog> fromJson(const QByteArray &json);
    // The catalog compiled into the binary.
    static Result<Catalog> shipped();
    // The shipped catalog merged with <configDir>/catalog.json when that file exists. A broken
    // override never costs the user the catalog: the shipped one is returned and
    // *overrideError says what was wrong with the file.
    static Catalog load(const QString &configDir, std::optional<Error> *overrideError = nullptr);

    const QList<ProviderEntry> &entries() const { return m_entries; }
    const ProviderEntry *find(const QString &id) const;
    // The entry that prices a Sandbar provider's sessions: the one its descriptor names
    // (ProviderDescriptor::catalogId), else the one the catalog says that provider runs
    // (managed_by); null when the catalog has neither.
    const ProviderEntry *forProvider(const QString &catalogId, const QString &providerId) const;
    const QJsonObject &document() const { return m_doc; }
    QJsonObject source(const QString &key) const;

private:
    // Translates in the context lupdate gives this class's tr() calls, "sandbar::catalog::Catalog".
    static QString tr(const char *text);

    QJsonObject m_doc;
    QList<ProviderEntry> m_entries;
};

// A figure as text: "150 ms", "2000-5000 ms", "unlimited", or `unknown` when not published.
QString figureText(const Figure &f, const QString &suffix = {}, const QString &unknown = QStringLiteral("-"));

// The ids the catalog must always carry.
QStringList requiredProviderIds();

// Every problem found in a document (empty when valid): schema version, duplicate or
// missing ids, unknown kinds, figures without a resolvable source or date.
QStringList validateDocument(const QJsonObject &doc);

// Merges a user document into base: providers by id and sources by key, field by field.
// A figure (an object with "value") is replaced whole, because keeping the old figure's
// note or alternatives beside a corrected value would misattribute them. Figures in the
// overlay without a source get defaultSource.
QJsonObject mergeDocuments(const QJsonObject &base, const QJsonObject &overlay, const QString &defaultSource = {});

// Reads <configDir>/catalog.json as an overlay; the file's own source entry is added.
Result<QJsonObject> readOverride(const QString &path);

} // namespace sandbar::catalog
