// The account every cloud provider shares (core/cloud/CloudAccount.h): its three fields as a
// descriptor carries them, and an account's values read back checked, row by row, from the
// good account to a missing key, a bad URL and an unreadable CA file. No secret may appear in
// an error.
#include "cloud/CloudAccount.h"

#include <QTest>

using namespace sandbar;

namespace {
cloud::CloudAccountSpec spec()
{
    cloud::CloudAccountSpec s;
    s.service = QStringLiteral("Acme");
    s.defaultEndpoint = QStringLiteral("https://api.acme.test/v1");
    s.keyHelp = QStringLiteral("Acme's key");
    s.endpointHelp = QStringLiteral("Acme's API");
    return s;
}

QString tlsFile(const char *name)
{
    return QStringLiteral(SANDBAR_TLS_DATA "/") + QLatin1String(name);
}
} // namespace

class TestCloudAccount : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fieldsAreTheSharedThree()
    {
        const cloud::CloudAccountFields f = cloud::cloudAccountFields(spec());
        QCOMPARE(f.apiKey.key, QStringLiteral("api-key"));
        QCOMPARE(f.apiKey.type, FieldType::Secret);
        QVERIFY(f.apiKey.secret);
        QVERIFY(f.apiKey.required);
        QCOMPARE(f.apiKey.help, QStringLiteral("Acme's key"));
        QCOMPARE(f.endpoint.key, QStringLiteral("endpoint"));
        QCOMPARE(f.endpoint.type, FieldType::Url);
        QCOMPARE(f.endpoint.defaultValue.toString(), QStringLiteral("https://api.acme.test/v1"));
        QVERIFY(!f.endpoint.secret);
        QCOMPARE(f.caFile.key, QStringLiteral("ca-file"));
        QCOMPARE(f.caFile.type, FieldType::Path);
        QVERIFY(!f.caFile.help.isEmpty()); // the kit's own words when the spec gives none
    }

    void read_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QString>("caFile");
        QTest::addColumn<int>("code");         // -1: read
        QTest::addColumn<QString>("expected"); // the endpoint read, or a word of the error
        QTest::newRow("defaults") << QStringLiteral("sbtest-secret-k1") << QString() << QString() << -1
                                  << QStringLiteral("https://api.acme.test/v1");
        QTest::newRow("own endpoint, trailing slash")
            << QStringLiteral("k") << QStringLiteral(" https://acme.example/api/ ") << QString() << -1
            << QStringLiteral("https://acme.example/api");
        QTest::newRow("loopback http") << QStringLiteral("k") << QStringLiteral("http://127.0.0.1:8080") << QString()
                                       << -1 << QStringLiteral("http://127.0.0.1:8080");
        QTest::newRow("CA file") << QStringLiteral("k") << QString() << tlsFile("ca.pem") << -1
                                 << QStringLiteral("https://api.acme.test/v1");
        QTest::newRow("no key") << QString() << QString() << QString() << int(ErrorCode::Unauthorized)
                                << QStringLiteral("Acme account acct");
        QTest::newRow("blank key") << QStringLiteral("  ") << QString() << QString() << int(ErrorCode::Unauthorized)
                                   << QStringLiteral("no API key");
        QTest::newRow("plain http afar") << QStringLiteral("sbtest-secret-k2") << QStringLiteral("http://acme.example")
                                         << QString() << int(ErrorCode::InvalidArgument)
                                         << QStringLiteral("The Acme API URL");
        QTest::newRow("garbage URL") << QStringLiteral("k") << QStringLiteral("::") << QString()
                                     << int(ErrorCode::InvalidArgument) << QStringLiteral("not a URL");
        QTest::newRow("missing CA file") << QStringLiteral("k") << QString() << QStringLiteral("/nonexistent/ca.pem")
                                         << int(ErrorCode::InvalidArgument) << QStringLiteral("cannot be read");
        QTest::newRow("CA file of no PEM") << QStringLiteral("k") << QString() << tlsFile("README.md")
                                           << int(ErrorCode::InvalidArgument) << QStringLiteral("no PEM");
    }
    void read()
    {
        QFETCH(QString, key);
        QFETCH(QString, endpoint);
        QFETCH(QString, caFile);
        QFETCH(int, code);
        QFETCH(QString, expected);
        AccountConfig a;
        a.name = QStringLiteral("acct");
        a.provider = QStringLiteral("acme");
        if (!key.isNull())
            a.secrets.insert(QStringLiteral("api-key"), key);
        if (!endpoint.isNull())
            a.settings.insert(QStringLiteral("endpoint"), endpoint);
        if (!caFile.isNull())
            a.settings.insert(QStringLiteral("ca-file"), caFile);
        const auto r = cloud::readCloudAccount(a, spec());
        if (code < 0) {
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.message()));
            QCOMPARE(r->endpoint.toString(), expected);
            QCOMPARE(r->apiKey, key.trimmed());
            QCOMPARE(r->caCertificates.isEmpty(), caFile.isEmpty());
            return;
        }
        QVERIFY(!r.ok());
        QCOMPARE(int(r.code()), code);
        QVERIFY2(r.message().contains(expected), qPrintable(r.message()));
        QVERIFY2(!r.message().contains(QLatin1String("sbtest-secret-")), qPrintable(r.message()));
    }
};

QTEST_GUILESS_MAIN(TestCloudAccount)
#include "tst_cloudaccount.moc"
