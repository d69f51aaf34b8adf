// sandbarctl catalog and compare, run as a script would run them.

#include "TestSupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

} // namespace

class TstCatalogCli : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_config;

    Run ctl(const QStringList &args)
    {
        QProcess p;
        p.start(QStringLiteral(SANDBARCTL_PATH), QStringList{QStringLiteral("--config-dir"), m_config.path()} + args);
        if (!p.waitForStarted() || !p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            return {};
        }
        return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                   p.readAllStandardError()};
    }

private Q_SLOTS:
    void catalogJson()
    {
        const Run r = ctl({QStringLiteral("--json"), QStringLiteral("catalog")});
        QCOMPARE(r.code, 0);
        const QJsonArray a = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(a.size(), 18);
        for (const auto &v : a) {
            QVERIFY(!v.toObject().value(QStringLiteral("id")).toString().isEmpty());
            QVERIFY(!v.toObject().value(QStringLiteral("name")).toString().isEmpty());
        }
    }

    void catalogTable()
    {
        const Run r = ctl({QStringLiteral("catalog")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("vercel-sandbox"));
    }

    void compareJson()
    {
        const Run r = ctl({QStringLiteral("--json"), QStringLiteral("compare"), QStringLiteral("--vcpus"),
                           QStringLiteral("2"), QStringLiteral("--memory-gib"), QStringLiteral("4"),
                           QStringLiteral("--hours"), QStringLiteral("100")});
        QCOMPARE(r.code, 0);
        bool sawE2b = false;
        for (const auto &v : QJsonDocument::fromJson(r.out).array()) {
            const QJsonObject o = v.toObject();
            QVERIFY(o.contains(QStringLiteral("excluded")) || o.value(QStringLiteral("breakdown")).isObject());
            if (o.value(QStringLiteral("provider")).toString() == QLatin1String("e2b")) {
                sawE2b = true;
                QVERIFY(qAbs(o.value(QStringLiteral("total_usd")).toDouble() - 16.56) < 1e-9);
            }
        }
        QVERIFY(sawE2b);
    }

    void compareUsage()
    {
        QCOMPARE(ctl({QStringLiteral("compare"), QStringLiteral("--vcpus"), QStringLiteral("2")}).code, 2);
        QCOMPARE(
            ctl({QStringLiteral("compare"), QStringLiteral("--vcpus"), QStringLiteral("x"),
                 QStringLiteral("--memory-gib"), QStringLiteral("1"), QStringLiteral("--hours"), QStringLiteral("1")})
                .code,
            2);
    }

    void corruptOverrideWarns()
    {
        QFile f(m_config.filePath(QStringLiteral("catalog.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"providers\": [");
        f.close();
        const Run r = ctl({QStringLiteral("--json"), QStringLiteral("catalog")});
        f.remove();
        QCOMPARE(r.code, 0);
        QVERIFY(r.err.contains("catalog.json"));
        QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 18);
    }
};

QTEST_GUILESS_MAIN(TstCatalogCli)
#include "tst_catalog_cli.moc"
