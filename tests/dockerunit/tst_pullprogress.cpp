// Pull progress: the JSON-lines stream of POST /images/create read into one overall figure,
// table-driven for odd lines and replayed from a recorded pull.
#include "providers/docker/PullProgress.h"

#include <QFile>
#include <QTest>

using namespace sandbar::docker;

class TestPullProgress : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void lines_data();
    void lines();
    void splitAnywhere();
    void replay();
    void errorLine();
};

void TestPullProgress::lines_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<qint64>("done");
    QTest::addColumn<qint64>("total");
    QTest::addColumn<int>("percent");
    QTest::addColumn<QString>("text");

    const QByteArray dl = R"({"status":"Downloading","progressDetail":{"current":50,"total":200},"id":"a"})";
    QTest::newRow("empty") << QByteArray() << qint64(0) << qint64(0) << 0 << QStringLiteral("Pulling image…");
    QTest::newRow("blank lines") << QByteArray("\n\r\n  \n") << qint64(0) << qint64(0) << 0
                                 << QStringLiteral("Pulling image…");
    QTest::newRow("garbage") << QByteArray("not json\n[1,2]\n\"x\"\n{\"status\":\n") << qint64(0) << qint64(0) << 0
                             << QStringLiteral("Pulling image…");
    QTest::newRow("truncated after a good line")
        << (dl + "\n{\"status\":\"Downloading\",\"progressDetail\":{\"cur\n") << qint64(50) << qint64(200) << 25
        << QStringLiteral("Pulling image… 25% (50 B of 200 B)");
    QTest::newRow("no sizes yet") << QByteArray(R"({"status":"Pulling fs layer","progressDetail":{},"id":"a"})"
                                                "\n")
                                  << qint64(0) << qint64(0) << 0 << QStringLiteral("Pulling image… Pulling fs layer");
    QTest::newRow("download complete") << (dl + "\n" + R"({"status":"Download complete","id":"a"})" + "\n")
                                       << qint64(200) << qint64(200) << 99
                                       << QStringLiteral("Pulling image… 99% (200 B of 200 B)");
    QTest::newRow("extracting does not go back")
        << (dl + "\n" + R"({"status":"Extracting","progressDetail":{"current":1,"total":200},"id":"a"})" + "\n")
        << qint64(200) << qint64(200) << 99 << QStringLiteral("Pulling image… 99% (200 B of 200 B)");
    QTest::newRow("status line finishes")
        << (dl + "\n" + R"({"status":"Status: Downloaded newer image for busybox:latest"})" + "\n") << qint64(200)
        << qint64(200) << 100 << QStringLiteral("Pulling image… 100% (200 B of 200 B)");
    QTest::newRow("up to date") << QByteArray(R"({"status":"Status: Image is up to date for busybox:latest"})"
                                              "\n")
                                << qint64(0) << qint64(0) << 100 << QStringLiteral("Pulling image… 100%");
    QTest::newRow("negative and huge current clamp")
        << QByteArray(R"({"status":"Downloading","progressDetail":{"current":-5,"total":100},"id":"a"})"
                      "\n"
                      R"({"status":"Downloading","progressDetail":{"current":900,"total":100},"id":"b"})"
                      "\n")
        << qint64(100) << qint64(200) << 50 << QStringLiteral("Pulling image… 50% (100 B of 200 B)");
}

void TestPullProgress::lines()
{
    QFETCH(QByteArray, stream);
    QFETCH(qint64, done);
    QFETCH(qint64, total);
    QFETCH(int, percent);
    QFETCH(QString, text);
    PullProgress p;
    p.feed(stream);
    QCOMPARE(p.done(), done);
    QCOMPARE(p.total(), total);
    QCOMPARE(p.percent(), percent);
    QCOMPARE(p.text(), text);
    QVERIFY(p.error().isEmpty());
}

// The engine's chunks do not follow lines.
void TestPullProgress::splitAnywhere()
{
    const QByteArray stream = R"({"status":"Downloading","progressDetail":{"current":120,"total":480},"id":"a"})"
                              "\r\n";
    for (int cut = 0; cut <= stream.size(); ++cut) {
        PullProgress p;
        p.feed(stream.left(cut));
        p.feed(stream.mid(cut));
        QCOMPARE(p.done(), qint64(120));
        QCOMPARE(p.percent(), 25);
    }
}

void TestPullProgress::replay()
{
    QFile f(QStringLiteral(SANDBAR_DOCKERUNIT_DATA "/pull-python-3.12-slim.jsonl"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray stream = f.readAll();
    QVERIFY(stream.count('\n') > 40);
    PullProgress p;
    int lastPercent = 0;
    qint64 lastDone = 0;
    int changes = 0;
    // 7-byte chunks, as a socket might deliver them.
    for (qsizetype i = 0; i < stream.size(); i += 7) {
        p.feed(stream.mid(i, 7));
        QVERIFY2(p.percent() >= lastPercent, qPrintable(QStringLiteral("%1 < %2").arg(p.percent()).arg(lastPercent)));
        QVERIFY(p.done() >= lastDone);
        QVERIFY(p.done() <= p.total());
        if (p.percent() != lastPercent)
            ++changes;
        if (!p.finished())
            QVERIFY(p.percent() < 100);
        lastPercent = p.percent();
        lastDone = p.done();
    }
    QVERIFY(p.finished());
    QCOMPARE(p.percent(), 100);
    QCOMPARE(p.total(), qint64(29'150'000 + 3'510'000 + 12'720'000 + 249'000));
    QCOMPARE(p.done(), p.total());
    QVERIFY2(changes >= 10, "the figure moves as the layers download");
    QCOMPARE(p.text(), QStringLiteral("Pulling image… 100% (44 MiB of 44 MiB)"));
}

void TestPullProgress::errorLine()
{
    PullProgress p;
    p.feed(R"({"status":"Pulling from library/nope","id":"latest"})"
           "\n"
           R"({"errorDetail":{"message":"manifest unknown"},"error":"manifest unknown"})"
           "\n");
    QCOMPARE(p.error(), QStringLiteral("manifest unknown"));
    QVERIFY(p.text().contains(QStringLiteral("manifest unknown")));
}

QTEST_GUILESS_MAIN(TestPullProgress)
#include "tst_pullprogress.moc"
