// The cost model against the shipped catalog. Every expectation below was worked out by
// hand from the published prices in resources/catalog/providers.json (see each row's note).

#include "TestSupport.h"
#include "costs/CostModel.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace sandbar;
using namespace sandbar::catalog;
using namespace sandbar::costs;

Q_DECLARE_METATYPE(sandbar::costs::Workload)

namespace {

const Catalog &shippedCatalog()
{
    static const Catalog c = [] {
        auto r = Catalog::shipped();
        return r.ok() ? std::move(r).value() : Catalog{};
    }();
    return c;
}

Workload wl(double vcpus, double mem, double hours, double busy = 1.0)
{
    Workload w;
    w.vcpus = vcpus;
    w.memoryGib = mem;
    w.activeHours = hours;
    w.cpuBusy = busy;
    return w;
}

Estimate run(const QString &id, const Workload &w)
{
    const auto *e = shippedCatalog().find(id);
    return e ? estimateProvider(*e, w) : Estimate{};
}

bool near(double a, double b)
{
    return std::abs(a - b) < 1e-9;
}

} // namespace

class TstCostModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QCOMPARE(shippedCatalog().entries().size(), requiredProviderIds().size()); }

    void totals_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<Workload>("w");
        QTest::addColumn<double>("total");
        QTest::addColumn<double>("cpu");
        QTest::addColumn<double>("memory");

        // Allocated CPU and memory, per second.
        QTest::newRow("e2b allocated") << "e2b" << wl(2, 4, 100, 0.3) << 16.56 << 10.08
                                       << 6.48; // 2*100*.0504, 4*100*.0162
        QTest::newRow("northflank allocated") << "northflank" << wl(4, 8, 200) << 26.664 << 13.336 << 13.328;
        QTest::newRow("sprites allocated") << "fly-sprites" << wl(1, 1, 10) << 0.71254 << 0.27504 << 0.4375;
        // Active CPU: only the busy share of CPU time; memory for the whole running time.
        QTest::newRow("vercel active") << "vercel-sandbox" << wl(2, 4, 100, 0.25) << 14.88 << 6.4 << 8.48;
        QTest::newRow("agentcore active") << "aws-agentcore" << wl(2, 4, 50, 0.5) << 6.365 << 4.475 << 1.89;
        QTest::newRow("vercel idle cpu") << "vercel-sandbox" << wl(1, 2, 10, 0) << 0.424 << 0.0 << 0.424;
        // max(request, use): a mostly idle CPU still pays the request; Modal cores = 2 vCPU.
        QTest::newRow("modal max busy 0.1") << "modal" << wl(2, 4, 100, 0.1) << 17.3868 << 14.19 << 3.1968;
        QTest::newRow("modal max busy 0.9") << "modal" << wl(2, 4, 100, 0.9) << 17.3868 << 14.19 << 3.1968;
        QTest::newRow("daytona max") << "daytona" << wl(2, 4, 100, 0.2) << 16.56 << 10.08 << 6.48;
        // Memory tied to CPU (Vercel 2 GB per vCPU): 8 GiB forces 4 vCPU.
        QTest::newRow("vercel tied mem") << "vercel-sandbox" << wl(1, 8, 10) << 6.816 << 5.12 << 1.696;
        QTest::newRow("vercel tied cpu") << "vercel-sandbox" << wl(2, 1, 10) << 3.408 << 2.56 << 0.848;
        // Monthly inclusions (Cloudflare: 6.25 vCPU-h, 25 GiB-h).
        QTest::newRow("cloudflare included") << "cloudflare-sandbox" << wl(1, 2, 10) << 0.27 << 0.27 << 0.0;
        QTest::newRow("cloudflare over") << "cloudflare-sandbox" << wl(2, 4, 20) << 2.925 << 2.43
                                         << 0.495; // 33.75*.072, 55*.009
        // Fractional vCPUs.
        QTest::newRow("e2b half vcpu") << "e2b" << wl(0.5, 0.5, 10) << 0.333 << 0.252 << 0.081;
        QTest::newRow("modal quarter vcpu") << "modal" << wl(0.25, 0.5, 10) << 0.217335 << 0.177375 << 0.03996;
        // 0 hours costs nothing.
        QTest::newRow("e2b zero") << "e2b" << wl(2, 4, 0) << 0.0 << 0.0 << 0.0;
        QTest::newRow("modal zero") << "modal" << wl(2, 4, 0) << 0.0 << 0.0 << 0.0;
    }

    void totals()
    {
        QFETCH(QString, provider);
        QFETCH(Workload, w);
        QFETCH(double, total);
        QFETCH(double, cpu);
        QFETCH(double, memory);
        const Estimate e = run(provider, w);
        QVERIFY2(!e.excluded, qPrintable(e.reason()));
        QVERIFY2(near(e.totalUsd, total), qPrintable(QString::number(e.totalUsd, 'g', 12)));
        QVERIFY2(near(e.component(QStringLiteral("cpu")), cpu),
                 qPrintable(QString::number(e.component(QStringLiteral("cpu")), 'g', 12)));
        QVERIFY2(near(e.component(QStringLiteral("memory")), memory),
                 qPrintable(QString::number(e.component(QStringLiteral("memory")), 'g', 12)));
    }

    void perMinuteRounding()
    {
        // Daytona bills per minute: 120 sessions of 30 s are billed as 120 minutes.
        Workload w = wl(1, 1, 1);
        w.sessionsPerMonth = 120;
        Estimate e = run(QStringLiteral("daytona"), w);
        QVERIFY(near(e.totalUsd, 0.1332)); // 2 h * (.0504 + .0162)
        QVERIFY(e.notes().join(QLatin1Char(' ')).contains(QStringLiteral("per-create price unknown")));
        // E2B bills per second: the same sessions cost exactly one hour.
        e = run(QStringLiteral("e2b"), w);
        QVERIFY(near(e.totalUsd, 0.0666));
        // Exactly a minute is not rounded up.
        w.sessionsPerMonth = 60;
        QVERIFY(near(run(QStringLiteral("daytona"), w).totalUsd, 0.0666));
    }

    void fixedTiers_data()
    {
        QTest::addColumn<double>("vcpus");
        QTest::addColumn<double>("mem");
        QTest::addColumn<double>("hours");
        QTest::addColumn<double>("total");
        QTest::newRow("pico") << 2.0 << 1.0 << 100.0 << 7.43;  // .0743 * 100
        QTest::newRow("micro") << 3.0 << 2.0 << 10.0 << 2.972; // 4 cores/8 GB is the first fit
        QTest::newRow("nano by memory") << 1.0 << 3.0 << 10.0 << 1.486;
    }

    void fixedTiers()
    {
        QFETCH(double, vcpus);
        QFETCH(double, mem);
        QFETCH(double, hours);
        QFETCH(double, total);
        const Estimate e = run(QStringLiteral("codesandbox"), wl(vcpus, mem, hours));
        QVERIFY2(!e.excluded, qPrintable(e.reason()));
        QVERIFY(near(e.totalUsd, total));
        QVERIFY(near(e.component(QStringLiteral("tier")), total));
        QVERIFY(run(QStringLiteral("codesandbox"), wl(100, 1, 1)).excluded);
    }

    void gpus()
    {
        Workload w = wl(8, 32, 10);
        w.gpuType = QStringLiteral("h100");
        w.gpuCount = 1;
        // Northflank's H100 rate includes CPU and memory.
        Estimate e = run(QStringLiteral("northflank"), w);
        QVERIFY2(!e.excluded, qPrintable(e.reason()));
        QVERIFY(near(e.totalUsd, 27.4));
        QVERIFY(near(e.component(QStringLiteral("cpu")), 0));
        // Daytona GPU sandboxes go to 16 vCPU, past the 4 vCPU default cap.
        w.memoryGib = 16;
        e = run(QStringLiteral("daytona"), w);
        QVERIFY2(!e.excluded, qPrintable(e.reason()));
        QVERIFY(near(e.totalUsd, 4.032 + 2.592 + 22.7));
        // Modal: 2 GPUs, 4 vCPU = 2 cores.
        w = wl(4, 16, 10);
        w.gpuType = QStringLiteral("H100");
        w.gpuCount = 2;
        e = run(QStringLiteral("modal"), w);
        QVERIFY(near(e.totalUsd, 2.838 + 1.27872 + 79));
        QVERIFY(near(e.component(QStringLiteral("gpu")), 79));
    }

    void exclusions_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<Workload>("w");
        QTest::addColumn<QString>("reason");
        Workload gpu = wl(2, 4, 10);
        gpu.gpuType = QStringLiteral("H100");
        gpu.gpuCount = 1;
        QTest::newRow("no gpu") << "e2b" << gpu << "no GPUs offered";
        QTest::newRow("gpu unknown") << "blaxel" << gpu << "GPU offering unknown";
        QTest::newRow("local gpu") << "local" << gpu << "no GPUs offered";
        Workload t4 = gpu;
        t4.gpuType = QStringLiteral("T4");
        QTest::newRow("gpu no price") << "modal" << t4 << "no price known for GPU T4";
        Workload a100 = gpu;
        a100.gpuType = QStringLiteral("A100");
        QTest::newRow("gpu type") << "modal" << a100 << "GPU type A100 not offered";
        Workload longSession = wl(1, 1, 100);
        longSession.sessionHours = 9;
        QTest::newRow("agentcore 8h") << "aws-agentcore" << longSession << "exceeds the longest plan limit (8 h";
        longSession.sessionHours = 25;
        QTest::newRow("e2b 24h") << "e2b" << longSession << "exceeds the longest plan limit (24 h";
        longSession.sessionHours = 6;
        QTest::newRow("vercel 5h") << "vercel-sandbox" << longSession << "exceeds the longest plan limit (5 h";
        QTest::newRow("vcpus") << "cloudflare-sandbox" << wl(8, 8, 1) << "needs 8 vCPUs; at most 4";
        QTest::newRow("daytona vcpus") << "daytona" << wl(6, 4, 1) << "needs 6 vCPUs";
        QTest::newRow("no price") << "blaxel" << wl(1, 2, 10) << "no price known for memory";
        QTest::newRow("library") << "computesdk" << wl(1, 1, 1) << "not a sandbox runtime";
        QTest::newRow("governance") << "mintmcp" << wl(1, 1, 1) << "not a sandbox runtime";
        QTest::newRow("proxy") << "blekline" << wl(1, 1, 1) << "not a sandbox runtime";
    }

    void exclusions()
    {
        QFETCH(QString, provider);
        QFETCH(Workload, w);
        QFETCH(QString, reason);
        const Estimate e = run(provider, w);
        QVERIFY(e.excluded);
        QVERIFY2(e.reason().contains(reason), qPrintable(e.reason()));
        const QJsonObject o = estimateToJson(e);
        QCOMPARE(o.value(QStringLiteral("excluded")).toString(), e.reason());
        QVERIFY(!o.contains(QStringLiteral("total_usd")));
    }

    void plansAndSessions()
    {
        // A 2 h session needs E2B Pro ($150 a month) instead of Hobby (1 h).
        Workload w = wl(1, 0.5, 10);
        w.sessionHours = 2;
        Estimate e = run(QStringLiteral("e2b"), w);
        QCOMPARE(e.plan, QStringLiteral("Pro"));
        QVERIFY(near(e.totalUsd, 150.585));
        QVERIFY(near(e.component(QStringLiteral("plan")), 150));
        // Session length derived from hours / sessions: 10 h in 20 sessions fits Hobby.
        w.sessionHours = 0;
        w.sessionsPerMonth = 20;
        QCOMPARE(run(QStringLiteral("e2b"), w).plan, QStringLiteral("Hobby"));
        // Vercel: a 3 h session needs Pro, whose fee is not published.
        w = wl(1, 2, 10);
        w.sessionHours = 3;
        e = run(QStringLiteral("vercel-sandbox"), w);
        QCOMPARE(e.plan, QStringLiteral("Pro"));
        QVERIFY(e.notes().join(QLatin1Char(' ')).contains(QStringLiteral("fee of plan Pro unknown")));
        // Google keeps state for 14 days.
        w.sessionHours = 300;
        QVERIFY(!run(QStringLiteral("google-agent-engine"), w).excluded);
    }

    void otherComponents()
    {
        Workload w = wl(2, 4, 100);
        w.storageGib = 10;
        // Daytona storage: 5 GiB free, then $0.000108 per GiB-hour.
        const Estimate d = run(QStringLiteral("daytona"), w);
        QVERIFY(near(d.component(QStringLiteral("storage")), 5 * 100 * 0.000108));
        QVERIFY(near(d.totalUsd, 16.614));
        // Vercel: creations, egress and snapshot storage.
        w = wl(1, 2, 10, 0.5);
        w.sessionsPerMonth = 1000000;
        w.egressGb = 10;
        w.storageGib = 73;
        const Estimate v = run(QStringLiteral("vercel-sandbox"), w);
        QVERIFY(near(v.component(QStringLiteral("creates")), 0.6));
        QVERIFY(near(v.component(QStringLiteral("egress")), 1.5));
        QVERIFY(near(v.component(QStringLiteral("storage")), 73 * 10 * 0.08 / kHoursPerMonth));
        // Idle hours: free on E2B (paused); billed as running with an idle CPU on Modal.
        w = wl(2, 4, 0);
        w.idleHours = 10;
        QVERIFY(near(run(QStringLiteral("e2b"), w).totalUsd, 0));
        QVERIFY(near(run(QStringLiteral("modal"), w).component(QStringLiteral("idle")), 1.73868));
        QVERIFY(run(QStringLiteral("codesandbox"), w)
                    .notes()
                    .join(QLatin1Char(' '))
                    .contains(QStringLiteral("idle unknown")));
    }

    void standbyRateFromCorrection()
    {
        // A user correction adds a standby memory rate: 4 GiB x 10 idle h x $0.001.
        const QJsonObject overlay{
            {QStringLiteral("providers"),
             QJsonArray{QJsonObject{
                 {QStringLiteral("id"), QStringLiteral("e2b")},
                 {QStringLiteral("prices"),
                  QJsonObject{{QStringLiteral("standby_gib_hour"), QJsonObject{{QStringLiteral("value"), 0.001}}}}}}}}};
        QJsonObject base = shippedCatalog().document();
        QJsonObject sources = base.value(QStringLiteral("sources")).toObject();
        sources[QStringLiteral("mine")] = QJsonObject{{QStringLiteral("title"), QStringLiteral("test")},
                                                      {QStringLiteral("date"), QStringLiteral("2026-11-29")}};
        base[QStringLiteral("sources")] = sources;
        auto c = Catalog::fromDocument(mergeDocuments(base, overlay, QStringLiteral("mine")));
        QVERIFY_RESULT(c);
        Workload w = wl(2, 4, 0);
        w.idleHours = 10;
        QVERIFY(near(estimateProvider(*c->find(QStringLiteral("e2b")), w).component(QStringLiteral("idle")), 0.04));
    }

    void freeCredit()
    {
        Workload w = wl(2, 4, 100);
        w.applyFreeCredit = true;
        Estimate e = run(QStringLiteral("e2b"), w);
        QVERIFY(near(e.totalUsd, 0)); // $16.56 covered by the $100 credit
        QVERIFY(near(e.component(QStringLiteral("free_credit")), -16.56));
        w.creditUsedUsd.insert(QStringLiteral("e2b"), 90);
        QVERIFY(near(run(QStringLiteral("e2b"), w).totalUsd, 6.56));
        // Used up: no deduction, and the estimate says so.
        w.creditUsedUsd.insert(QStringLiteral("e2b"), 100);
        e = run(QStringLiteral("e2b"), w);
        QVERIFY(near(e.totalUsd, 16.56));
        QVERIFY(e.notes().contains(QStringLiteral("free credit used up")));
        // Credit does not pay the plan fee.
        w = wl(1, 0.5, 10);
        w.sessionHours = 2;
        w.applyFreeCredit = true;
        QVERIFY(near(run(QStringLiteral("e2b"), w).totalUsd, 150));
        // Modal's $30 a month.
        w = wl(2, 4, 100);
        w.applyFreeCredit = true;
        QVERIFY(near(run(QStringLiteral("modal"), w).totalUsd, 17.3868 - 17.3868));
        w.activeHours = 200;
        QVERIFY(near(run(QStringLiteral("modal"), w).totalUsd, 2 * 17.3868 - 30));
    }

    void selfHosted()
    {
        for (const auto &id : {QStringLiteral("local"), QStringLiteral("docker"), QStringLiteral("podman"),
                               QStringLiteral("kubernetes")}) {
            const Estimate e = run(id, wl(8, 32, 720));
            QVERIFY(!e.excluded);
            QVERIFY(e.selfHosted);
            QCOMPARE(e.totalUsd, 0.0);
            QVERIFY(e.notes().join(QLatin1Char(' ')).contains(QStringLiteral("self-hosted")));
            QVERIFY(estimateToJson(e).value(QStringLiteral("self_hosted")).toBool());
        }
    }

    void wholeCatalogSorted()
    {
        const QList<Estimate> all = estimate(shippedCatalog(), wl(2, 4, 100));
        QCOMPARE(all.size(), requiredProviderIds().size());
        bool seenExcluded = false;
        double last = -1;
        for (const auto &e : all) {
            if (e.excluded) {
                seenExcluded = true;
                continue;
            }
            QVERIFY(!seenExcluded);
            QVERIFY(e.totalUsd >= last);
            last = e.totalUsd;
        }
        const QJsonArray a = estimatesToJson(all);
        for (const auto &v : a) {
            const QJsonObject o = v.toObject();
            QVERIFY(o.contains(QStringLiteral("provider")));
            QVERIFY(o.contains(QStringLiteral("excluded")) || (o.value(QStringLiteral("total_usd")).isDouble() &&
                                                               o.value(QStringLiteral("breakdown")).isObject()));
        }
    }

    void workloadValidation_data()
    {
        QTest::addColumn<Workload>("w");
        QTest::addColumn<bool>("ok");
        QTest::newRow("fine") << wl(1, 1, 1) << true;
        QTest::newRow("zero vcpu") << wl(0, 1, 1) << false;
        QTest::newRow("negative hours") << wl(1, 1, -1) << false;
        QTest::newRow("busy > 1") << wl(1, 1, 1, 1.5) << false;
        QTest::newRow("nan") << wl(1, std::nan(""), 1) << false;
        Workload g = wl(1, 1, 1);
        g.gpuCount = 1;
        QTest::newRow("gpu without type") << g << false;
    }

    void workloadValidation()
    {
        QFETCH(Workload, w);
        QFETCH(bool, ok);
        QCOMPARE(validateWorkload(w).ok(), ok);
    }

    void live()
    {
        LiveResources r;
        r.vcpus = 2;
        r.memoryGib = 4;
        LiveCost c = liveCost(*shippedCatalog().find(QStringLiteral("e2b")), r, 1800);
        QVERIFY(c.known);
        QVERIFY(near(c.usdPerHour, 0.1656));
        QVERIFY(near(c.costSoFarUsd, 0.0828));
        // Per minute: 61 s are billed as 120 s.
        r.vcpus = 1;
        r.memoryGib = 1;
        c = liveCost(*shippedCatalog().find(QStringLiteral("daytona")), r, 61);
        QVERIFY(near(c.costSoFarUsd, 0.0666 * 120 / 3600));
        QVERIFY(near(liveCost(*shippedCatalog().find(QStringLiteral("daytona")), r, 0).costSoFarUsd, 0));
        // Active CPU follows the busy share.
        r.vcpus = 2;
        r.memoryGib = 4;
        r.cpuBusy = 0.5;
        QVERIFY(near(liveCost(*shippedCatalog().find(QStringLiteral("vercel-sandbox")), r, 3600).costSoFarUsd, 0.2128));
        c = liveCost(*shippedCatalog().find(QStringLiteral("docker")), r, 3600);
        QVERIFY(c.known);
        QCOMPARE(c.costSoFarUsd, 0.0);
        QVERIFY(!liveCost(*shippedCatalog().find(QStringLiteral("computesdk")), r, 10).known);
        r.gpuType = QStringLiteral("H100");
        c = liveCost(*shippedCatalog().find(QStringLiteral("e2b")), r, 10);
        QVERIFY(!c.known);
        QVERIFY(c.reason.contains(QStringLiteral("no GPUs")));
    }
};

QTEST_GUILESS_MAIN(TstCostModel)
#include "tst_costmodel.moc"
