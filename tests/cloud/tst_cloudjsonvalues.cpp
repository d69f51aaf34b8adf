// The cloud kit's readers of JSON values (core/cloud/JsonValues.h), which every cloud
// provider's parsers use: times in each spec's spellings, numbers as doubles, numeric strings
// or out of range, with empty, truncated and garbage rows.
#include "cloud/JsonValues.h"

#include <QJsonObject>
#include <QTest>
#include <limits>

using namespace sandbar;

class TestCloudJsonValues : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parseTime_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QDateTime>("expected");
        const QDateTime noon(QDate(2024, 10, 1), QTime(12, 0), Qt::UTC);
        QTest::newRow("utc") << QStringLiteral("2024-10-01T12:00:00Z") << noon;
        QTest::newRow("milliseconds") << QStringLiteral("2024-10-01T12:00:00.250Z") << noon.addMSecs(250);
        QTest::newRow("offset is made utc") << QStringLiteral("2024-10-01T14:00:00+02:00") << noon;
        QTest::newRow("space for the T") << QStringLiteral("2024-10-01 12:00:00+00:00") << noon;
        QTest::newRow("empty") << QString() << QDateTime();
        QTest::newRow("truncated") << QStringLiteral("2024-10-") << QDateTime();
        QTest::newRow("garbage") << QStringLiteral("yesterday") << QDateTime();
        QTest::newRow("month 13") << QStringLiteral("2024-13-01T12:00:00Z") << QDateTime();
    }
    void parseTime()
    {
        QFETCH(QString, text);
        QFETCH(QDateTime, expected);
        const QDateTime t = cloud::parseTime(text);
        QCOMPARE(t.isValid(), expected.isValid());
        if (expected.isValid()) {
            QCOMPARE(t, expected);
            QCOMPARE(t.timeSpec(), Qt::UTC);
        }
    }

    void saturated_data()
    {
        QTest::addColumn<double>("in");
        QTest::addColumn<qint64>("expected");
        QTest::addColumn<int>("expectedInt");
        constexpr qint64 max64 = std::numeric_limits<qint64>::max();
        constexpr qint64 min64 = std::numeric_limits<qint64>::min();
        constexpr int maxInt = std::numeric_limits<int>::max();
        constexpr int minInt = std::numeric_limits<int>::min();
        QTest::newRow("zero") << 0.0 << qint64(0) << 0;
        QTest::newRow("fraction is cut") << 41.9 << qint64(41) << 41;
        QTest::newRow("negative") << -7.0 << qint64(-7) << -7;
        QTest::newRow("beyond int") << 5e9 << qint64(5000000000) << maxInt;
        QTest::newRow("below int") << -5e9 << qint64(-5000000000) << minInt;
        QTest::newRow("huge") << 1e30 << max64 << maxInt;
        QTest::newRow("huge negative") << -1e30 << min64 << minInt;
        QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << max64 << maxInt;
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << qint64(0) << 0;
    }
    void saturated()
    {
        QFETCH(double, in);
        QFETCH(qint64, expected);
        QFETCH(int, expectedInt);
        QCOMPARE(cloud::saturated(in), expected);
        QCOMPARE(cloud::saturatedInt(in), expectedInt);
    }

    void numbers_data()
    {
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<bool>("isNumber");
        QTest::addColumn<double>("number");
        QTest::addColumn<qint64>("int64");
        QTest::newRow("json number") << QJsonValue(2.5) << true << 2.5 << qint64(2);
        QTest::newRow("numeric string") << QJsonValue(QStringLiteral("2.5")) << true << 2.5 << qint64(2);
        // protobuf's JSON: a 64-bit integer as a string, read exactly (a double would round it).
        QTest::newRow("int64 string") << QJsonValue(QStringLiteral("9007199254740993")) << true << 9007199254740993.0
                                      << qint64(9007199254740993LL);
        QTest::newRow("string beyond int64")
            << QJsonValue(QStringLiteral("1e30")) << true << 1e30 << std::numeric_limits<qint64>::max();
        QTest::newRow("empty string") << QJsonValue(QString()) << false << 0.0 << qint64(0);
        QTest::newRow("truncated") << QJsonValue(QStringLiteral("12e")) << false << 0.0 << qint64(0);
        QTest::newRow("garbage string") << QJsonValue(QStringLiteral("lots")) << false << 0.0 << qint64(0);
        QTest::newRow("null") << QJsonValue(QJsonValue::Null) << false << 0.0 << qint64(0);
        QTest::newRow("bool") << QJsonValue(true) << false << 0.0 << qint64(0);
        QTest::newRow("object") << QJsonValue(QJsonObject{}) << false << 0.0 << qint64(0);
    }
    void numbers()
    {
        QFETCH(QJsonValue, value);
        QFETCH(bool, isNumber);
        QFETCH(double, number);
        QFETCH(qint64, int64);
        const auto n = cloud::number(value);
        QCOMPARE(n.has_value(), isNumber);
        if (n)
            QCOMPARE(*n, number);
        QCOMPARE(cloud::int64Of(value), int64);
    }
};

QTEST_GUILESS_MAIN(TestCloudJsonValues)
#include "tst_cloudjsonvalues.moc"
