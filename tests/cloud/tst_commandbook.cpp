// The kit's CommandBook: the background commands an account started, kept in a file that two
// processes share: newest first, at most kPerSession a session, updated in place, dropped with
// the session, and a damaged file read as empty (and replaced whole by the next write).
#include "cloud/CommandBook.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace sandbar;
using sandbar::cloud::CommandBook;

namespace {
BackgroundCommand command(const QString &id)
{
    BackgroundCommand c;
    c.id = id;
    c.argv = {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo ") + id};
    c.started = QDateTime::fromMSecsSinceEpoch(1765000000000, QTimeZone::utc());
    return c;
}
} // namespace

class TestCommandBook : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sharedThroughTheFile()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("account/commands.json"));
        CommandBook window(file);
        CommandBook cli(file); // another process's book on the same account
        window.add(QStringLiteral("s1"), command(QStringLiteral("a")));
        cli.add(QStringLiteral("s1"), command(QStringLiteral("b")));
        cli.add(QStringLiteral("s2"), command(QStringLiteral("c")));
        const QList<BackgroundCommand> s1 = window.commands(QStringLiteral("s1"));
        QCOMPARE(s1.size(), 2);
        QCOMPARE(s1.at(0).id, QStringLiteral("b")); // newest first
        QCOMPARE(s1.at(1).argv, command(QStringLiteral("a")).argv);
        QCOMPARE(s1.at(1).started, command(QStringLiteral("a")).started);
        QVERIFY(s1.at(1).running);

        BackgroundCommand ended = command(QStringLiteral("a"));
        ended.running = false;
        ended.exitCode = 143;
        window.update(QStringLiteral("s1"), ended);
        const BackgroundCommand a = cli.commands(QStringLiteral("s1")).at(1);
        QVERIFY(!a.running);
        QCOMPARE(a.exitCode.value_or(-1), 143);

        cli.drop(QStringLiteral("s1"), QStringLiteral("b"));
        QCOMPARE(window.commands(QStringLiteral("s1")).size(), 1);
        window.dropSession(QStringLiteral("s1"));
        QVERIFY(cli.commands(QStringLiteral("s1")).isEmpty());
        QCOMPARE(cli.commands(QStringLiteral("s2")).size(), 1);
    }

    void keepsTheNewestOnly()
    {
        CommandBook book; // in memory
        for (int i = 0; i < CommandBook::kPerSession + 5; ++i)
            book.add(QStringLiteral("s"), command(QString::number(i)));
        const QList<BackgroundCommand> list = book.commands(QStringLiteral("s"));
        QCOMPARE(list.size(), CommandBook::kPerSession);
        QCOMPARE(list.first().id, QString::number(CommandBook::kPerSession + 4));
        // The same id again moves to the front instead of standing twice.
        book.add(QStringLiteral("s"), command(QStringLiteral("10")));
        QCOMPARE(book.commands(QStringLiteral("s")).first().id, QStringLiteral("10"));
        QCOMPARE(book.commands(QStringLiteral("s")).size(), CommandBook::kPerSession);
    }

    void damagedFilesReadAsEmpty_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("truncated") << QByteArray(R"({"s":[{"id":"a","argv":["sh")");
        QTest::newRow("garbage") << QByteArray("\xff\xfe\x00 not json", 13);
        QTest::newRow("wrong shape") << QByteArray(R"({"s":{"id":"a"}})");
        QTest::newRow("idless entries") << QByteArray(R"({"s":[{"argv":["x"]},7,"y"]})");
    }
    void damagedFilesReadAsEmpty()
    {
        QFETCH(QByteArray, content);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("commands.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        CommandBook book(file);
        QVERIFY(book.commands(QStringLiteral("s")).isEmpty());
        book.add(QStringLiteral("s"), command(QStringLiteral("a")));
        QCOMPARE(book.commands(QStringLiteral("s")).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestCommandBook)
#include "tst_commandbook.moc"
