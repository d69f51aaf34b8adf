#pragma once

#include "catalog/Catalog.h"

#include <QHash>
#include <QJsonArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <array>

namespace sandbar::costs {

// The model prices what the catalog describes.
using catalog::BillingRule;
using catalog::Catalog;
using catalog::CpuRule;
using catalog::Figure;
using catalog::IdleRule;
using catalog::Kind;
using catalog::MemoryRule;
using catalog::Prices;
using catalog::ProviderEntry;

// A month of use, as the compare view and `sandbarctl compare` describe it.
struct Workload {
    double vcpus = 1;
    double memoryGib = 1;
    QString gpuType; // empty: no GPU
    int gpuCount = 0;
    double activeHours = 0;  // running hours a month
    double cpuBusy = 1.0;    // share of running time the CPU is busy (0..1)
    double idleHours = 0;    // hours a month the sandbox exists but nobody uses it
    double sessionHours = 0; // length of one session; 0: activeHours / sessions, else unchecked
    double storageGib = 0;
    double sessionsPerMonth = 0;
    double egressGb = 0;
    bool applyFreeCredit = false;
    QHash<QString, double> creditUsedUsd; // provider id -> credit already spent
};

// Checks ranges (no negatives, cpuBusy within 0..1, a GPU type when GPUs are asked).
VoidResult validateWorkload(const Workload &w);

// A sentence kept as its untranslated text and arguments and rendered only when read, so
// that pricing a sweep of workloads does not format thousands of strings nobody shows.
struct Message {
    struct Arg {
        QString text;
        const char *translatable = nullptr; // a word from the same context, translated on render
        double number = 0;
        bool isNumber = false;
        Arg() = default;
        Arg(const QString &s)
            : text(s)
        {
        }
        Arg(const char *word)
            : translatable(word)
        {
        }
        Arg(double n)
            : number(n)
            , isNumber(true)
        {
        }
    };
    const char *text = nullptr; // translation context "sandbar::catalog"
    std::array<Arg, 4> args;
    int argCount = 0;

    bool isEmpty() const { return !text; }
    QString toString() const;
};

struct CostLine {
    QString component; // cpu, memory, gpu, tier, idle, storage, creates, egress, plan, free_credit
    double usd = 0;
    Message detail;
};

struct Estimate {
    QString providerId;
    QString providerName;
    bool excluded = false;
    bool selfHosted = false;
    QString plan;
    double totalUsd = 0;
    QList<CostLine> breakdown;
    Message reasonMessage;       // why excluded
    QList<Message> noteMessages; // components left out because a price is unknown, assumptions

    QString reason() const { return reasonMessage.toString(); }
    QStringList notes() const;
    double component(const QString &name) const;
};

// One provider against one workload, honouring its billing rule.
Estimate estimateProvider(const ProviderEntry &entry, const Workload &w);

// The whole catalog: priced providers by total, cheapest first, then the excluded ones.
QList<Estimate> estimate(const Catalog &catalog, const Workload &w);

// The running cost of one live session. billedSeconds is the time the provider bills so
// far; it is rounded up to the provider's granularity.
struct LiveResources {
    double vcpus = 1;
    double memoryGib = 1;
    QString gpuType;
    int gpuCount = 0;
    double cpuBusy = 1.0;
};

struct LiveCost {
    bool known = false;
    QString reason; // when not known
    double costSoFarUsd = 0;
    double usdPerHour = 0;
};

LiveCost liveCost(const ProviderEntry &entry, const LiveResources &r, double billedSeconds);

QJsonObject estimateToJson(const Estimate &e);
QJsonArray estimatesToJson(const QList<Estimate> &list);

} // namespace sandbar::costs
