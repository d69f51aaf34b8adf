// The shipped catalog's schema and sources, and the user's override file.

#include "TestSupport.h"
#include "catalog/Catalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;
using namespace sandbar::catalog;

namespace {

// An independent walk (not validateDocument's) so a bug there cannot hide a missing source.
void collectFigures(const QJsonValue &v, const QString &path, QList<QPair<QString, QJsonObject>> &out)
{
    if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            collectFigures(a.at(i), path + QStringLiteral("[%1]").arg(i), out);
    } else if (v.isObject()) {
        const QJsonObject o = v.toObject();
        if (o.contains(QStringLiteral("value")))
            out.append({path, o});
        for (auto it = o.constBegin(); it != o.constEnd(); ++it)
            collectFigures(it.value(), path + QLatin1Char('.') + it.key(), out);
    }
}

QJsonObject shippedDoc()
{
    auto c = Catalog::shipped();
    return c.ok() ? c->document() : QJsonObject{};
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

} // namespace

class TstCatalog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shippedIsValid()
    {
        auto c = Catalog::shipped();
        QVERIFY_RESULT(c);
        QCOMPARE(validateDocument(c->document()), QStringList{});
        QCOMPARE(c->entries().size(), requiredProviderIds().size());
        for (const auto &id : requiredProviderIds()) {
            const auto *e = c->find(id);
            QVERIFY2(e, qPrintable(id));
            QVERIFY(!e->name.isEmpty());
        }
    }

    void everyFigureHasSourceAndDate()
    {
        const QJsonObject doc = shippedDoc();
        const QJsonObject sources = doc.value(QStringLiteral("sources")).toObject();
        QList<QPair<QString, QJsonObject>> figures;
        collectFigures(doc.value(QStringLiteral("providers")), QStringLiteral("providers"), figures);
        QVERIFY(figures.size() > 200);
        for (const auto &[path, f] : figures) {
            const QString src = f.value(QStringLiteral("source")).toString();
            QVERIFY2(sources.contains(src), qPrintable(path + QStringLiteral(": source ") + src));
            const QString date = f.value(QStringLiteral("date"))
                                     .toString(sources.value(src).toObject().value(QStringLiteral("date")).toString());
            QVERIFY2(!date.isEmpty(), qPrintable(path));
            const QJsonValue v = f.value(QStringLiteral("value"));
            QVERIFY2(!v.isUndefined(), qPrintable(path));
        }
        for (const auto &pv : doc.value(QStringLiteral("providers")).toArray()) {
            const QJsonObject billing = pv.toObject().value(QStringLiteral("billing")).toObject();
            QVERIFY(sources.contains(billing.value(QStringLiteral("source")).toString()));
        }
    }

    void fieldsPerProvider()
    {
        auto c = Catalog::shipped();
        QVERIFY_RESULT(c);
        for (const auto &id : {QStringLiteral("local"), QStringLiteral("docker"), QStringLiteral("podman")}) {
            QCOMPARE(c->find(id)->managedBy, id);
            QVERIFY(c->find(id)->selfHosted);
        }
        QVERIFY(c->find(QStringLiteral("e2b"))->managedBy.isEmpty());
        QCOMPARE(c->find(QStringLiteral("computesdk"))->kind, Kind::AggregatorLibrary);
        QCOMPARE(c->find(QStringLiteral("mintmcp"))->kind, Kind::GovernanceLayer);
        QCOMPARE(c->find(QStringLiteral("blekline"))->kind, Kind::McpProxy);
        QCOMPARE(c->find(QStringLiteral("modal"))->isolation, QStringLiteral("gvisor"));
        QCOMPARE(c->find(QStringLiteral("aws-agentcore"))->isolation, QStringLiteral("dedicated-microvm"));
        QCOMPARE(c->find(QStringLiteral("modal"))->billing.vcpusPerCore, 2.0);
        QVERIFY(c->find(QStringLiteral("modal"))->prices.coreBased);
        QCOMPARE(c->find(QStringLiteral("vercel-sandbox"))->billing.memoryGibPerVcpu.value_or(0), 2.0);
        QCOMPARE(c->find(QStringLiteral("codesandbox"))->billing.tiers.size(), 7);
        QCOMPARE(*c->find(QStringLiteral("daytona"))->billing.granularitySeconds, 60);
        // Unknown stays null rather than guessed.
        QVERIFY(!c->find(QStringLiteral("blaxel"))->prices.gibHour.known());
        QVERIFY(!c->find(QStringLiteral("blaxel"))->gpus.has_value());
        QVERIFY(c->find(QStringLiteral("e2b"))->gpus->isEmpty());
        // Storage published per month is held per hour.
        QVERIFY(qFuzzyCompare(c->find(QStringLiteral("fly-sprites"))->prices.storageGibHour.valueOr(0),
                              0.5 / kHoursPerMonth));
    }

    void disagreeingSourcesKeptProviderDefault()
    {
        const QJsonObject doc = shippedDoc();
        QJsonObject vercel;
        for (const auto &pv : doc.value(QStringLiteral("providers")).toArray())
            if (pv.toObject().value(QStringLiteral("id")).toString() == QLatin1String("vercel-sandbox"))
                vercel = pv.toObject();
        const QJsonObject mem =
            vercel.value(QStringLiteral("prices")).toObject().value(QStringLiteral("gib_hour")).toObject();
        QCOMPARE(mem.value(QStringLiteral("value")).toDouble(), 0.0212);
        QCOMPARE(mem.value(QStringLiteral("source")).toString(), QStringLiteral("vercel-pricing"));
        bool older = false;
        for (const auto &a : mem.value(QStringLiteral("alternatives")).toArray())
            older |= a.toObject().value(QStringLiteral("value")).toDouble() == 0.0106;
        QVERIFY(older);
        // Session limit: the provider's page (5 h) is the default, the survey's 24 h kept beside it.
        auto c = Catalog::shipped();
        QVERIFY_RESULT(c);
        QCOMPARE(*c->find(QStringLiteral("vercel-sandbox"))->plans.at(1).maxSessionHours.value, 5.0);
        QCOMPARE(c->find(QStringLiteral("vercel-sandbox"))->plans.at(1).maxSessionHours.source,
                 QStringLiteral("vercel-pricing"));
    }

    void validationRejects_data()
    {
        QTest::addColumn<QByteArray>("mutation");
        QTest::addColumn<QString>("expect");
        QTest::newRow("empty") << QByteArray("{}") << QStringLiteral("schema");
        QTest::newRow("schema2") << QByteArray("schema=2") << QStringLiteral("schema must be 1");
        QTest::newRow("providers-not-array")
            << QByteArray("providers=object") << QStringLiteral("providers must be an array");
        QTest::newRow("missing-id") << QByteArray("drop=blekline") << QStringLiteral("'blekline' is missing");
        QTest::newRow("duplicate") << QByteArray("dup=e2b") << QStringLiteral("duplicate id");
        QTest::newRow("no-source") << QByteArray("nosource") << QStringLiteral("figure has no source");
        QTest::newRow("bad-source") << QByteArray("badsource") << QStringLiteral("unknown source 'nowhere'");
        QTest::newRow("bad-kind") << QByteArray("kind") << QStringLiteral("kind must be one of");
        QTest::newRow("bad-isolation") << QByteArray("isolation") << QStringLiteral("unknown isolation");
        QTest::newRow("undated-source") << QByteArray("undated") << QStringLiteral("needs a title and a date");
    }

    void validationRejects()
    {
        QFETCH(QByteArray, mutation);
        QFETCH(QString, expect);
        QJsonObject doc = shippedDoc();
        QJsonArray providers = doc.value(QStringLiteral("providers")).toArray();
        auto editE2b = [&](auto fn) {
            for (qsizetype i = 0; i < providers.size(); ++i) {
                QJsonObject p = providers.at(i).toObject();
                if (p.value(QStringLiteral("id")).toString() == QLatin1String("e2b")) {
                    fn(p);
                    providers[i] = p;
                }
            }
        };
        if (mutation == "{}") {
            doc = {};
        } else if (mutation == "schema=2") {
            doc[QStringLiteral("schema")] = 2;
        } else if (mutation == "providers=object") {
            doc[QStringLiteral("providers")] = QJsonObject{};
        } else if (mutation == "drop=blekline") {
            providers.removeLast();
        } else if (mutation == "dup=e2b") {
            for (const auto &p : providers)
                if (p.toObject().value(QStringLiteral("id")).toString() == QLatin1String("e2b")) {
                    providers.append(p);
                    break;
                }
        } else if (mutation == "nosource" || mutation == "badsource") {
            editE2b([&](QJsonObject &p) {
                QJsonObject prices = p.value(QStringLiteral("prices")).toObject();
                QJsonObject f{{QStringLiteral("value"), 1.0}};
                if (mutation == "badsource")
                    f[QStringLiteral("source")] = QStringLiteral("nowhere");
                prices[QStringLiteral("vcpu_hour")] = f;
                p[QStringLiteral("prices")] = prices;
            });
        } else if (mutation == "kind") {
            editE2b([](QJsonObject &p) { p[QStringLiteral("kind")] = QStringLiteral("toaster"); });
        } else if (mutation == "isolation") {
            editE2b([](QJsonObject &p) {
                p[QStringLiteral("isolation")] = QJsonObject{{QStringLiteral("value"), QStringLiteral("hope")},
                                                             {QStringLiteral("source"), QStringLiteral("sandbar")}};
            });
        } else if (mutation == "undated") {
            QJsonObject sources = doc.value(QStringLiteral("sources")).toObject();
            sources[QStringLiteral("x")] = QJsonObject{{QStringLiteral("title"), QStringLiteral("t")}};
            doc[QStringLiteral("sources")] = sources;
        }
        if (mutation != "{}" && mutation != "providers=object")
            doc[QStringLiteral("providers")] = providers;
        const QStringList problems = validateDocument(doc);
        QVERIFY2(problems.join(QLatin1Char('\n')).contains(expect), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY(!Catalog::fromDocument(doc).ok());
    }

    void garbageJson_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("truncated") << QByteArray("{\"schema\": 1, \"providers\": [");
        QTest::newRow("garbage") << QByteArray("\x01\x02not json");
        QTest::newRow("array") << QByteArray("[]");
    }

    void garbageJson()
    {
        QFETCH(QByteArray, bytes);
        auto c = Catalog::fromJson(bytes);
        QVERIFY(!c.ok());
        QCOMPARE(c.code(), ErrorCode::InvalidArgument);
    }

    void noOverrideIsShipped()
    {
        QTemporaryDir dir;
        std::optional<Error> err;
        const Catalog c = Catalog::load(dir.path(), &err);
        QVERIFY(!err);
        QCOMPARE(c.entries().size(), requiredProviderIds().size());
    }

    void overrideMergesFieldByField()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("catalog.json")), R"({
            "schema": 1,
            "providers": [
              {"id": "e2b", "prices": {"vcpu_hour": {"value": 0.06, "note": "our contract"}}},
              {"id": "my-cloud", "name": "My cloud", "kind": "sandbox-runtime",
               "prices": {"vcpu_hour": {"value": 0.01}, "gib_hour": {"value": 0.001}},
               "billing": {"cpu": "allocated", "memory": "allocated", "granularity_s": 1}}
            ]})");
        std::optional<Error> err;
        const Catalog c = Catalog::load(dir.path(), &err);
        QVERIFY2(!err, err ? qPrintable(err->message) : "");
        const auto *e2b = c.find(QStringLiteral("e2b"));
        QVERIFY(e2b);
        QCOMPARE(*e2b->prices.vcpuHour.value, 0.06);
        QCOMPARE(e2b->prices.vcpuHour.source, QStringLiteral("user-catalog"));
        QVERIFY(!e2b->prices.vcpuHour.date.isEmpty());
        QCOMPARE(*e2b->prices.gibHour.value, 0.0162); // untouched field kept
        QCOMPARE(e2b->name, QStringLiteral("E2B"));
        QCOMPARE(e2b->plans.size(), 2);
        const auto *mine = c.find(QStringLiteral("my-cloud"));
        QVERIFY(mine);
        QCOMPARE(*mine->prices.vcpuHour.value, 0.01);
        QCOMPARE(c.entries().size(), requiredProviderIds().size() + 1);
    }

    void corruptOverrideFallsBack_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expect");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("not valid JSON");
        QTest::newRow("truncated") << QByteArray("{\"providers\": [{\"id\": \"e2b\", \"pri")
                                   << QStringLiteral("not valid JSON");
        QTest::newRow("garbage") << QByteArray("\xff\xfe garbage") << QStringLiteral("not valid JSON");
        QTest::newRow("array") << QByteArray("[1,2]") << QStringLiteral("must hold a JSON object");
        QTest::newRow("schema") << QByteArray("{\"schema\": 99}") << QStringLiteral("schema 99");
        QTest::newRow("providers-object")
            << QByteArray("{\"providers\": {}}") << QStringLiteral("providers must be an array");
        QTest::newRow("no-id") << QByteArray("{\"providers\": [{\"name\": \"x\"}]}") << QStringLiteral("needs an id");
        QTest::newRow("bad-source")
            << QByteArray(
                   R"({"providers": [{"id": "e2b", "prices": {"vcpu_hour": {"value": 1, "source": "nowhere"}}}]})")
            << QStringLiteral("was ignored");
        QTest::newRow("bad-kind") << QByteArray(R"({"providers": [{"id": "e2b", "kind": "toaster"}]})")
                                  << QStringLiteral("was ignored");
        QTest::newRow("string-price")
            << QByteArray(R"({"providers": [{"id": "e2b", "prices": {"vcpu_hour": {"value": "cheap"}}}]})")
            << QStringLiteral("number or null");
    }

    void corruptOverrideFallsBack()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expect);
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("catalog.json")), bytes);
        std::optional<Error> err;
        const Catalog c = Catalog::load(dir.path(), &err);
        QVERIFY(err.has_value());
        QVERIFY2(err->message.contains(expect), qPrintable(err->message));
        QVERIFY2(err->message.contains(QStringLiteral("catalog.json")), qPrintable(err->message));
        QCOMPARE(c.entries().size(), requiredProviderIds().size());
        QCOMPARE(*c.find(QStringLiteral("e2b"))->prices.vcpuHour.value, 0.0504);
    }
};

QTEST_GUILESS_MAIN(TstCatalog)
#include "tst_catalog.moc"
