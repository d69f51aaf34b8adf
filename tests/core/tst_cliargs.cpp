#include "TestSupport.h"
#include "wiring/cli/CliSupport.h"

using namespace sandbar;
using namespace sandbar::cli;

class TestCliArgs final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse()
    {
        OptionSpec spec{{QStringLiteral("--network")}, {QStringLiteral("--env"), QStringLiteral("--account")}, true};
        auto r = parseArgs({QStringLiteral("pos"), QStringLiteral("--env"), QStringLiteral("A=1"),
                            QStringLiteral("--network"), QStringLiteral("--env=B=2"), QStringLiteral("--account"),
                            QStringLiteral("x"), QStringLiteral("--"), QStringLiteral("ls"), QStringLiteral("--env")},
                           spec);
        QVERIFY_RESULT(r);
        QCOMPARE(r->positional, QStringList{QStringLiteral("pos")});
        QCOMPARE(r->values(QStringLiteral("--env")), (QStringList{QStringLiteral("A=1"), QStringLiteral("B=2")}));
        QVERIFY(r->has(QStringLiteral("--network")));
        QCOMPARE(r->value(QStringLiteral("--account")), QStringLiteral("x"));
        QCOMPARE(r->rest, (QStringList{QStringLiteral("ls"), QStringLiteral("--env")}));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("--bogus")};
        QTest::newRow("missing value") << QStringList{QStringLiteral("--account")};
        QTest::newRow("flag with value") << QStringList{QStringLiteral("--network=1")};
        QTest::newRow("rest not allowed") << QStringList{QStringLiteral("--"), QStringLiteral("x")};
    }
    void errors()
    {
        QFETCH(QStringList, args);
        OptionSpec spec{{QStringLiteral("--network")}, {QStringLiteral("--account")}, false};
        auto r = parseArgs(args, spec);
        QVERIFY(!r.ok());
        QCOMPARE(r.code(), ErrorCode::InvalidArgument);
    }

    void empty()
    {
        auto r = parseArgs({}, OptionSpec{});
        QVERIFY_RESULT(r);
        QVERIFY(r->positional.isEmpty() && r->options.isEmpty() && r->rest.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliArgs)
#include "tst_cliargs.moc"
