#include "catalog/Catalog.h"
#include "compare/ColdStartScatter.h"
#include "compare/CompareModel.h"
#include "compare/CompareView.h"
#include "compare/CostChart.h"
#include "compare/ProviderCards.h"
#include "compare/WorkloadForm.h"
#include "costs/CostModel.h"

#include <QBarSet>
#include <QChartView>
#include <QHorizontalStackedBarSeries>
#include <QJsonArray>
#include <QLabel>
#include <QScatterSeries>
#include <QSet>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace sandbar;
using costs::Workload;

namespace {

// A small RFC 4180 reader, written apart from the exporter so the test does not reuse its logic.
QList<QStringList> parseCsv(const QByteArray &bytes)
{
    const QString text = QString::fromUtf8(bytes);
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            row << field;
            field.clear();
        } else if (c == QLatin1Char('\r') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('\n')) {
            row << field;
            rows << row;
            row.clear();
            field.clear();
            ++i;
        } else {
            field += c;
        }
    }
    if (!field.isEmpty() || !row.isEmpty())
        rows << (row << field);
    return rows;
}

QStringList visibleIds(const ui::CompareView &v)
{
    QStringList ids;
    auto *f = v.filter();
    for (int r = 0; r < f->rowCount(); ++r)
        ids << f->index(r, 0).data(ui::CompareModel::ProviderIdRole).toString();
    return ids;
}

Workload basicWorkload()
{
    Workload w;
    w.vcpus = 2;
    w.memoryGib = 4;
    w.activeHours = 160;
    w.cpuBusy = 0.5;
    return w;
}

} // namespace

class TestCompareView final : public QObject
{
    Q_OBJECT
private:
    std::shared_ptr<const catalog::Catalog> m_catalog;

private Q_SLOTS:
    void initTestCase()
    {
        auto c = catalog::Catalog::shipped();
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.message()));
        m_catalog = std::make_shared<const catalog::Catalog>(std::move(c).value());
        QVERIFY(m_catalog->entries().size() >= 18);
    }

    void everyProviderIsInTheModel()
    {
        ui::CompareView v(m_catalog);
        QCOMPARE(v.model()->rowCount(), int(m_catalog->entries().size()));
        QCOMPARE(v.filter()->rowCount(), v.model()->rowCount());
        const QStringList shown = visibleIds(v);
        const QSet<QString> ids(shown.cbegin(), shown.cend());
        for (const auto &id : catalog::requiredProviderIds())
            QVERIFY2(ids.contains(id), qPrintable(id));
        // The default workload prices someone and excludes the non-runtimes with a reason.
        const auto *mintmcp = v.model()->estimateFor(QStringLiteral("mintmcp"));
        QVERIFY(mintmcp && mintmcp->excluded);
        const int row = v.model()->rowOf(QStringLiteral("mintmcp"));
        QVERIFY(v.model()->index(row, ui::CompareModel::Monthly).data().toString().contains(mintmcp->reason()));
    }

    void gpuFilterKeepsProvidersListingGpus()
    {
        ui::CompareView v(m_catalog);
        v.filter()->setNeedsGpu(true);
        QStringList expected;
        for (const auto &e : m_catalog->entries()) {
            const QJsonValue g = e.raw.value(QStringLiteral("gpus")).toObject().value(QStringLiteral("value"));
            if (g.isArray() && !g.toArray().isEmpty())
                expected << e.id;
        }
        QVERIFY(expected.contains(QStringLiteral("modal")));
        QStringList got = visibleIds(v);
        got.sort();
        expected.sort();
        QCOMPARE(got, expected);
        v.filter()->setNeedsGpu(false);
        QCOMPARE(v.filter()->rowCount(), v.model()->rowCount());
    }

    void sessionHoursFilterUsesTheLongestPlan()
    {
        ui::CompareView v(m_catalog);
        v.filter()->setMinSessionHours(8);
        QStringList ids = visibleIds(v);
        QVERIFY(ids.contains(QStringLiteral("aws-agentcore")));   // 8 h exactly
        QVERIFY(ids.contains(QStringLiteral("e2b")));             // Pro allows 24 h though Hobby allows 1
        QVERIFY(ids.contains(QStringLiteral("daytona")));         // unlimited
        QVERIFY(!ids.contains(QStringLiteral("vercel-sandbox"))); // 5 h at most
        QVERIFY(!ids.contains(QStringLiteral("modal")));          // limit unknown
        v.filter()->setMinSessionHours(24.5);
        ids = visibleIds(v);
        QVERIFY(!ids.contains(QStringLiteral("e2b")));
        QVERIFY(!ids.contains(QStringLiteral("aws-agentcore")));
        QVERIFY(ids.contains(QStringLiteral("google-agent-engine"))); // 336 h
        for (const auto &id : ids) {
            const auto h = ui::compare::longestSessionHours(*m_catalog->find(id));
            QVERIFY(h && *h >= 24.5);
        }
    }

    void isolationAndRegionFilters()
    {
        ui::CompareView v(m_catalog);
        v.filter()->setIsolation(QStringLiteral("gvisor"));
        QCOMPARE(visibleIds(v), QStringList{QStringLiteral("modal")});
        v.filter()->setIsolation(QStringLiteral("firecracker-microvm"));
        for (const auto &id : visibleIds(v))
            QCOMPARE(m_catalog->find(id)->isolation, QStringLiteral("firecracker-microvm"));
        QVERIFY(visibleIds(v).contains(QStringLiteral("e2b")));
        v.filter()->setIsolation({});
        v.filter()->setRegion(QStringLiteral("IAD1")); // case does not matter
        QCOMPARE(visibleIds(v), QStringList{QStringLiteral("vercel-sandbox")});
        v.filter()->setRegion(QStringLiteral("nowhere"));
        QCOMPARE(v.filter()->rowCount(), 0);
        v.flushPendingUpdates();
        QCOMPARE(v.scatter()->pointCount(), 0);
        QVERIFY(!v.costChart()->series());
    }

    void selfHostOrByocFilter()
    {
        ui::CompareView v(m_catalog);
        v.filter()->setSelfHostOrByoc(true);
        const QStringList ids = visibleIds(v);
        for (const char *id : {"local", "docker", "podman", "kubernetes", "e2b", "northflank"})
            QVERIFY2(ids.contains(QLatin1String(id)), id);
        for (const char *id : {"modal", "daytona", "vercel-sandbox", "aws-agentcore"})
            QVERIFY2(!ids.contains(QLatin1String(id)), id); // "managed only; no self-hosted or BYOC"
        v.filter()->setNeedsGpu(true);
        QCOMPARE(visibleIds(v), QStringList{QStringLiteral("northflank")});
    }

    void sortsCostNumericallyWithExcludedLast()
    {
        ui::CompareView v(m_catalog);
        v.setWorkload(basicWorkload());
        for (const auto order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            v.table()->sortByColumn(ui::CompareModel::Monthly, order);
            auto *f = v.filter();
            bool seenExcluded = false;
            double last = order == Qt::AscendingOrder ? -1 : 1e300;
            int priced = 0;
            for (int r = 0; r < f->rowCount(); ++r) {
                const QModelIndex idx = f->index(r, ui::CompareModel::Monthly);
                const bool excluded = idx.data(ui::CompareModel::ExcludedRole).toBool();
                if (excluded) {
                    seenExcluded = true;
                    continue;
                }
                QVERIFY2(!seenExcluded, "a priced row after an excluded one");
                const double usd = idx.data(ui::CompareModel::SortRole).toDouble();
                QVERIFY(order == Qt::AscendingOrder ? usd >= last : usd <= last);
                last = usd;
                ++priced;
            }
            QVERIFY(priced >= 5);
            QVERIFY(seenExcluded);
        }
    }

    void chartStacksEveryComponent()
    {
        ui::CompareView v(m_catalog);
        Workload w = basicWorkload();
        w.storageGib = 10;
        w.sessionsPerMonth = 100;
        w.egressGb = 5;
        w.idleHours = 100;
        v.setWorkload(w);
        v.flushPendingUpdates();
        auto *series = v.costChart()->series();
        QVERIFY(series);
        const QList<costs::Estimate> ests = costs::estimate(*m_catalog, w);
        QSet<QString> components;
        int charged = 0; // priced and not self-hosted: self-hosted ones have no charges to stack
        int excluded = 0;
        for (const auto &e : ests) {
            if (e.excluded)
                ++excluded;
            else if (!e.selfHosted)
                ++charged;
            for (const auto &l : e.breakdown)
                components.insert(l.component);
        }
        QCOMPARE(series->count(), int(components.size()));
        QSet<QString> labels;
        for (auto *set : series->barSets())
            labels.insert(set->label());
        QCOMPARE(labels.size(), components.size());
        const QStringList ids = v.costChart()->providerIds();
        QCOMPARE(ids.size(), charged);
        for (int i = 0; i < ids.size(); ++i) {
            double sum = 0;
            for (auto *set : series->barSets())
                sum += set->at(i);
            const auto *est = v.model()->estimateFor(ids.at(i));
            QVERIFY(est && !est->excluded);
            QVERIFY2(std::abs(sum - est->totalUsd) < 1e-6, qPrintable(ids.at(i)));
        }
        // Cheapest on top: the last category (top of a horizontal chart) costs least.
        for (int i = 1; i < ids.size(); ++i)
            QVERIFY(v.model()->estimateFor(ids.at(i - 1))->totalUsd >= v.model()->estimateFor(ids.at(i))->totalUsd);
        QCOMPARE(v.costChart()->excludedLines().size(), excluded);
    }

    void scatterPlotsKnownColdStartAndPrice()
    {
        ui::CompareView v(m_catalog);
        v.setWorkload(basicWorkload());
        v.flushPendingUpdates();
        int expected = 0;
        for (const auto &e : v.model()->estimates())
            if (!e.excluded && m_catalog->find(e.providerId)->coldStartMs.known())
                ++expected;
        QVERIFY(expected >= 3);
        QCOMPARE(v.scatter()->pointCount(), expected);
        QCOMPARE(v.scatter()->series()->count(), expected);
        QCOMPARE(v.scatter()->notPlotted().size(), v.model()->rowCount() - expected);
        // 90 ms to 2000 ms spans more than a decade: the x axis is logarithmic.
        QVERIFY(v.scatter()->logarithmicX());
        for (int i = 0; i < expected; ++i) {
            const QString id = v.scatter()->plottedIds().at(i);
            const QPointF p = v.scatter()->series()->at(i);
            QCOMPARE(p.x(), *m_catalog->find(id)->coldStartMs.value);
            QCOMPARE(p.y(), v.model()->estimateFor(id)->totalUsd);
        }
    }

    void cardsShowTwoOrThreeProvidersWithSources()
    {
        ui::CompareView v(m_catalog);
        v.setWorkload(basicWorkload());
        v.selectProviders({QStringLiteral("e2b"), QStringLiteral("modal")});
        v.flushPendingUpdates();
        QCOMPARE(v.cards()->cardCount(), 2);
        const QString e2b = v.cards()->cardText(v.cards()->providerIds().indexOf(QStringLiteral("e2b")));
        QVERIFY(e2b.contains(QStringLiteral("E2B")));
        QVERIFY(e2b.contains(QStringLiteral("survey-mintmcp, 2026-06"))); // figure with source and date
        QVERIFY(
            e2b.contains(m_catalog->source(QStringLiteral("e2b-billing")).value(QStringLiteral("title")).toString()));
        QVERIFY(e2b.contains(QStringLiteral("Cold start")));
        QVERIFY(e2b.contains(ui::compare::money(v.model()->estimateFor(QStringLiteral("e2b"))->totalUsd)));

        v.selectProviders(
            {QStringLiteral("e2b"), QStringLiteral("modal"), QStringLiteral("daytona"), QStringLiteral("northflank")});
        v.flushPendingUpdates();
        QCOMPARE(v.cards()->cardCount(), 3);
        QVERIFY(!v.cards()->findChild<QLabel *>(QStringLiteral("cardsHint"))->isHidden());

        v.selectProviders({QStringLiteral("mintmcp")});
        v.flushPendingUpdates();
        QCOMPARE(v.cards()->cardCount(), 1);
        QVERIFY(v.cards()->cardText(0).contains(QStringLiteral("Excluded")));
        QVERIFY(!v.cards()->findChild<QLabel *>(QStringLiteral("cardsHint"))->isHidden());
    }

    void csvRoundTrip()
    {
        // A provider renamed through the user-override path, with a comma and quotes.
        QJsonObject renamed{{QStringLiteral("id"), QStringLiteral("e2b")},
                            {QStringLiteral("name"), QStringLiteral("Acme, \"Cloud\" Sandboxes")}};
        QJsonObject overlay{{QStringLiteral("providers"), QJsonArray{renamed}}};
        auto c = catalog::Catalog::fromDocument(catalog::mergeDocuments(m_catalog->document(), overlay));
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.message()));
        ui::CompareView v(std::make_shared<const catalog::Catalog>(std::move(c).value()));
        v.setWorkload(basicWorkload());
        v.filter()->setSelfHostOrByoc(true);

        const QList<QStringList> rows = parseCsv(v.toCsv());
        QVERIFY(v.toCsv().endsWith("\r\n"));
        QCOMPARE(rows.size(), 1 + v.filter()->rowCount());
        const QStringList header = rows.first();
        QCOMPARE(header.first(), QStringLiteral("provider"));
        for (const char *col : {"name", "total_usd", "cpu_usd", "memory_usd", "gpu_usd", "plan_usd", "free_credit_usd",
                                "excluded_reason"})
            QVERIFY2(header.contains(QLatin1String(col)), col);
        for (const auto &r : rows)
            QCOMPARE(r.size(), header.size());
        const int name = int(header.indexOf(QStringLiteral("name")));
        const int total = int(header.indexOf(QStringLiteral("total_usd")));
        const int reason = int(header.indexOf(QStringLiteral("excluded_reason")));
        bool foundAcme = false;
        for (const auto &r : rows.mid(1)) {
            const auto *est = v.model()->estimateFor(r.first());
            QVERIFY(est);
            if (r.first() == QStringLiteral("e2b")) {
                foundAcme = true;
                QCOMPARE(r.at(name), QStringLiteral("Acme, \"Cloud\" Sandboxes"));
            }
            if (est->excluded) {
                QCOMPARE(r.at(reason), est->reason());
                QVERIFY(r.at(total).isEmpty());
                continue;
            }
            QVERIFY(std::abs(r.at(total).toDouble() - est->totalUsd) < 1e-4);
            double sum = 0;
            for (const auto &comp : ui::compare::componentOrder())
                sum += r.at(int(header.indexOf(comp + QStringLiteral("_usd")))).toDouble();
            QVERIFY(std::abs(sum - est->totalUsd) < 1e-3);
        }
        QVERIFY(foundAcme);

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.csv"));
        QVERIFY(v.exportCsv(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), v.toCsv());
    }

    void pngExportWritesTheCurrentTab()
    {
        ui::CompareView v(m_catalog);
        v.resize(1200, 800);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.tabs()->setCurrentWidget(v.costChart());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chart.png"));
        QVERIFY(v.exportPng(path));
        QImage img(path);
        QVERIFY(!img.isNull());
        const qreal dpr = v.costChart()->devicePixelRatioF();
        QCOMPARE(img.size(), (QSizeF(v.costChart()->size()) * dpr).toSize());
        // Not a blank page: the bars and labels put more than one colour in it.
        QSet<QRgb> colours;
        for (int y = 0; y < img.height(); y += 7)
            for (int x = 0; x < img.width(); x += 7)
                colours.insert(img.pixel(x, y));
        QVERIFY(colours.size() > 4);
        QVERIFY(!v.exportPng(dir.filePath(QStringLiteral("no/such/dir/x.png"))));
    }

    void zeroHoursWorkload()
    {
        ui::CompareView v(m_catalog);
        Workload w = basicWorkload();
        w.activeHours = 0;
        v.setWorkload(w);
        v.flushPendingUpdates();
        QVERIFY(v.workloadForm()->errorText().isEmpty());
        QCOMPARE(v.workload().activeHours, 0.0);
        for (const auto &e : v.model()->estimates()) {
            if (e.excluded)
                continue;
            QCOMPARE(e.component(QStringLiteral("cpu")), 0.0);
            QVERIFY(e.totalUsd >= 0);
        }
        QVERIFY(v.costChart()->series());
        QCOMPARE(v.costChart()->chart()->axes().size(), 2);
    }

    void gpuWorkloadExcludesGpuLessProviders()
    {
        ui::CompareView v(m_catalog);
        Workload w = basicWorkload();
        w.gpuType = QStringLiteral("H100");
        w.gpuCount = 1;
        v.setWorkload(w);
        v.flushPendingUpdates();
        QCOMPARE(v.workload().gpuType, QStringLiteral("H100"));
        for (const auto &e : m_catalog->entries()) {
            const auto *est = v.model()->estimateFor(e.id);
            QVERIFY(est);
            if (e.gpus && e.gpus->isEmpty())
                QVERIFY2(est->excluded && est->reason().contains(QStringLiteral("GPU")), qPrintable(e.id));
        }
        const auto *modal = v.model()->estimateFor(QStringLiteral("modal"));
        QVERIFY(modal && !modal->excluded && modal->component(QStringLiteral("gpu")) > 0);
        bool gpuSet = false;
        for (auto *set : v.costChart()->series()->barSets())
            gpuSet |= set->label() == ui::compare::componentLabel(QStringLiteral("gpu"));
        QVERIFY(gpuSet);
        // A GPU type nobody lists excludes every managed provider but still renders.
        w.gpuType = QStringLiteral("TPU-v9");
        v.setWorkload(w);
        v.flushPendingUpdates();
        QVERIFY(v.model()->estimateFor(QStringLiteral("modal"))->excluded);
    }

    void invalidWorkloadIsShownNotPriced()
    {
        ui::CompareView v(m_catalog);
        v.setWorkload(basicWorkload());
        const double before = v.workload().vcpus;
        Workload bad = basicWorkload();
        bad.vcpus = 0;
        v.setWorkload(bad);
        QVERIFY(!v.workloadForm()->errorText().isEmpty());
        QCOMPARE(v.workload().vcpus, before);
        v.setWorkload(basicWorkload());
        QVERIFY(v.workloadForm()->errorText().isEmpty());
    }

    // Screenshots for review; written only when SANDBAR_COMPARE_SHOTS names a folder.
    void screenshots()
    {
        const QString dir = qEnvironmentVariable("SANDBAR_COMPARE_SHOTS");
        ui::CompareView v(m_catalog);
        v.resize(1400, 900);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setWorkload(basicWorkload());
        const QStringList tabs = {QStringLiteral("table"), QStringLiteral("chart"), QStringLiteral("scatter"),
                                  QStringLiteral("cards")};
        v.selectProviders({QStringLiteral("e2b"), QStringLiteral("daytona"), QStringLiteral("modal")});
        for (int i = 0; i < tabs.size(); ++i) {
            v.tabs()->setCurrentIndex(i);
            v.flushPendingUpdates();
            QCoreApplication::processEvents();
            const QImage img = ui::CompareView::renderPng(&v);
            QVERIFY(!img.isNull());
            if (!dir.isEmpty())
                QVERIFY(img.save(dir + QStringLiteral("/compare-%1.png").arg(tabs.at(i))));
        }
        // A workload that uses every component, free credit (negative) included.
        Workload busy = basicWorkload();
        busy.gpuType = QStringLiteral("H100");
        busy.storageGib = 20;
        busy.sessionsPerMonth = 200;
        busy.egressGb = 50;
        busy.idleHours = 300;
        busy.applyFreeCredit = true;
        v.setWorkload(busy);
        v.filter()->setNeedsGpu(false);
        v.tabs()->setCurrentWidget(v.costChart());
        v.flushPendingUpdates();
        QCoreApplication::processEvents();
        if (!dir.isEmpty())
            QVERIFY(ui::CompareView::renderPng(&v).save(dir + QStringLiteral("/compare-gpu-chart.png")));
        busy.gpuType.clear();
        v.setWorkload(busy);
        v.flushPendingUpdates();
        QCoreApplication::processEvents();
        if (!dir.isEmpty())
            QVERIFY(ui::CompareView::renderPng(&v).save(dir + QStringLiteral("/compare-busy-chart.png")));
    }
};

QTEST_MAIN(TestCompareView)
#include "tst_compareview.moc"
