#include "TestSupport.h"
#include "providers/Descriptors.h"
#include "providers/Session.h"

using namespace sandbar;

class TestDescriptors final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QVariant>("expected");
        const auto row = [](const char *name, FieldType t, const char *text, bool ok, QVariant v) {
            QTest::newRow(name) << int(t) << QString::fromUtf8(text) << ok << v;
        };
        row("int", FieldType::Integer, "42", true, 42LL);
        row("int negative", FieldType::Integer, "-3", true, -3LL);
        row("int garbage", FieldType::Integer, "4x2", false, {});
        row("int empty", FieldType::Integer, "", false, {});
        row("number", FieldType::Number, "0.5", true, 0.5);
        row("number inf", FieldType::Number, "inf", false, {});
        row("bool yes", FieldType::Boolean, "yes", true, true);
        row("bool off", FieldType::Boolean, "OFF", true, false);
        row("bool garbage", FieldType::Boolean, "maybe", false, {});
        row("bytes plain", FieldType::Bytes, "1024", true, 1024LL);
        row("bytes M", FieldType::Bytes, "512M", true, 512LL * 1024 * 1024);
        row("bytes GiB", FieldType::Bytes, "1.5GiB", true, qint64(1.5 * 1024 * 1024 * 1024));
        row("bytes unit garbage", FieldType::Bytes, "12 parsecs", false, {});
        row("bytes truncated", FieldType::Bytes, "12.", false, {});
        row("duration m", FieldType::Duration, "30m", true, 1800LL);
        row("duration h", FieldType::Duration, "2h", true, 7200LL);
        row("duration garbage", FieldType::Duration, "soon", false, {});
        row("url unix", FieldType::Url, "unix:///var/run/docker.sock", true,
            QStringLiteral("unix:///var/run/docker.sock"));
        row("url garbage", FieldType::Url, "not a url", false, {});
        row("url empty is allowed", FieldType::Url, "", true, QString());
    }
    void parse()
    {
        QFETCH(int, type);
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QVariant, expected);
        FieldDescriptor f;
        f.key = QStringLiteral("k");
        f.label = QStringLiteral("Field");
        f.type = FieldType(type);
        f.required = type != int(FieldType::Url);
        const auto r = parseFieldValue(f, text);
        QCOMPARE(r.ok(), ok);
        if (ok) {
            QCOMPARE(r.value(), expected);
        } else {
            QCOMPARE(r.code(), ErrorCode::InvalidArgument);
            QVERIFY(r.message().startsWith(QLatin1String("Field")));
        }
    }

    void limitsAndChoices()
    {
        FieldDescriptor f;
        f.label = QStringLiteral("CPUs");
        f.type = FieldType::Number;
        f.minimum = 0.1;
        f.maximum = 64;
        QVERIFY(parseFieldValue(f, QStringLiteral("2")).ok());
        QVERIFY(!parseFieldValue(f, QStringLiteral("0")).ok());
        QVERIFY(!parseFieldValue(f, QStringLiteral("65")).ok());
        FieldDescriptor c;
        c.label = QStringLiteral("Region");
        c.type = FieldType::Choice;
        c.choices = {QStringLiteral("eu"), QStringLiteral("us")};
        QVERIFY(parseFieldValue(c, QStringLiteral("eu")).ok());
        const auto bad = parseFieldValue(c, QStringLiteral("mars"));
        QVERIFY(!bad.ok());
        QVERIFY(bad.message().contains(QLatin1String("eu, us")));
    }

    void createSpecFromOptions()
    {
        QVariantMap o;
        o.insert(QStringLiteral("image"), QStringLiteral("debian:stable"));
        o.insert(QStringLiteral("cpus"), 1.5);
        o.insert(QStringLiteral("memory"), qint64(256) << 20);
        o.insert(QStringLiteral("ttl"), 600);
        o.insert(QStringLiteral("network"), true);
        o.insert(QStringLiteral("env"), QStringLiteral("A=1\n\nnot-an-assignment\nB=two"));
        const CreateSpec s = sandbar::createSpecFromOptions(o);
        QCOMPARE(s.image, QStringLiteral("debian:stable"));
        QCOMPARE(*s.cpus, 1.5);
        QCOMPARE(*s.memoryBytes, qint64(256) << 20);
        QCOMPARE(s.ttlSeconds, 600);
        QVERIFY(s.network);
        QCOMPARE(s.env, (QStringList{QStringLiteral("A=1"), QStringLiteral("B=two")}));
        const CreateSpec empty = sandbar::createSpecFromOptions({});
        QVERIFY(!empty.cpus && !empty.memoryBytes && !empty.network && empty.ttlSeconds == 0);
    }

    void stateNamesRoundTrip()
    {
        for (auto s : {SessionState::Creating, SessionState::Running, SessionState::Paused, SessionState::Stopping,
                       SessionState::Stopped, SessionState::Error, SessionState::Unknown})
            QCOMPARE(sessionStateFromName(sessionStateName(s)), s);
        QCOMPARE(sessionStateFromName(QStringLiteral("garbage")), SessionState::Unknown);
        QCOMPARE(sessionStateFromName(QString()), SessionState::Unknown);
    }
};

QTEST_GUILESS_MAIN(TestDescriptors)
#include "tst_descriptors.moc"
