// Local session logs: LocalLogStream over a file the test writes (tail, follow, truncation,
// the end of the session), then through a real bubblewrap session's agent.log.

#include "TestSupport.h"
#include "providers/local/LocalLogs.h"
#include "providers/local/LocalProvider.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;
using namespace sandbar::local;
using sandbar::test::await;
using sandbar::test::waitUntil;

namespace {
struct Capture {
    QByteArray all;
    QList<int> streams;
    std::optional<VoidResult> result;
    void attach(LogStream *s)
    {
        QObject::connect(s, &LogStream::data, s, [this](const QByteArray &b, int stream) {
            all += b;
            if (!streams.contains(stream))
                streams << stream;
        });
        QObject::connect(s, &LogStream::finished, s, [this](const VoidResult &r) { result = r; });
    }
};

bool append(const QString &path, const QByteArray &bytes, QIODevice::OpenMode mode = QIODevice::Append)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | mode) && f.write(bytes) == bytes.size();
}

LogOptions opts(bool follow, int tail = -1)
{
    LogOptions o;
    o.follow = follow;
    o.tail = tail;
    return o;
}
} // namespace

class TstLocalLogs : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    Capture readAll(const QString &path, int tail)
    {
        LocalLogStream s(path, opts(false, tail), [] { return true; });
        Capture c;
        c.attach(&s);
        s.start();
        waitUntil([&] { return c.result.has_value(); }, 5000);
        return c;
    }

private Q_SLOTS:
    void tailOffsets_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<int>("lines");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("everything") << QByteArray("a\nb\nc\n") << -1 << QByteArray("a\nb\nc\n");
        QTest::newRow("last two") << QByteArray("a\nb\nc\n") << 2 << QByteArray("b\nc\n");
        QTest::newRow("no final newline") << QByteArray("a\nb\nc") << 2 << QByteArray("b\nc");
        QTest::newRow("more than there are") << QByteArray("a\nb\n") << 10 << QByteArray("a\nb\n");
        QTest::newRow("zero") << QByteArray("a\nb\n") << 0 << QByteArray();
        QTest::newRow("empty") << QByteArray() << 3 << QByteArray();
        QTest::newRow("blank lines") << QByteArray("a\n\n\n") << 2 << QByteArray("\n\n");
        QByteArray big;
        for (int i = 0; i < 50000; ++i)
            big += "line " + QByteArray::number(i) + '\n';
        QTest::newRow("across blocks") << big << 3 << QByteArray("line 49997\nline 49998\nline 49999\n");
    }
    void tailOffsets()
    {
        QFETCH(QByteArray, content);
        QFETCH(int, lines);
        QFETCH(QByteArray, expected);
        const QString path = m_dir.filePath(QStringLiteral("tail.log"));
        QVERIFY(append(path, content, QIODevice::Truncate));
        const Capture c = readAll(path, lines);
        QVERIFY(c.result.has_value());
        QVERIFY_RESULT(*c.result);
        QCOMPARE(c.all, expected);
        QVERIFY(c.streams.isEmpty() || c.streams == QList<int>{0});
    }

    void missingFileIsAnEmptyLog()
    {
        const Capture c = readAll(m_dir.filePath(QStringLiteral("never-written.log")), 10);
        QVERIFY_RESULT(*c.result);
        QVERIFY(c.all.isEmpty());
    }

    void followLikeTailF()
    {
        const QString path = m_dir.filePath(QStringLiteral("follow.log"));
        QVERIFY(append(path, "old 1\nold 2\n", QIODevice::Truncate));
        bool alive = true;
        LocalLogStream s(path, opts(true, 1), [&alive] { return alive; });
        s.setPollInterval(std::chrono::milliseconds(10));
        Capture c;
        c.attach(&s);
        s.start();
        QVERIFY(waitUntil([&] { return c.all == "old 2\n"; }, 5000));
        QVERIFY(append(path, "new 1\n"));
        QVERIFY(waitUntil([&] { return c.all.endsWith("new 1\n"); }, 5000));
        // Truncated (rotated in place): read again from the start.
        QVERIFY(append(path, "fresh\n", QIODevice::Truncate));
        QVERIFY(waitUntil([&] { return c.all.endsWith("fresh\n"); }, 5000));
        QVERIFY(!c.result.has_value());
        // The session ends: what it wrote last still arrives, then the stream finishes.
        QVERIFY(append(path, "last words\n"));
        alive = false;
        QVERIFY(waitUntil([&] { return c.result.has_value(); }, 5000));
        QVERIFY_RESULT(*c.result);
        QVERIFY(c.all.endsWith("last words\n"));
    }

    void stopEndsDelivery()
    {
        const QString path = m_dir.filePath(QStringLiteral("stop.log"));
        QVERIFY(append(path, "one\n", QIODevice::Truncate));
        LocalLogStream s(path, opts(true), [] { return true; });
        s.setPollInterval(std::chrono::milliseconds(10));
        Capture c;
        c.attach(&s);
        s.start();
        QVERIFY(waitUntil([&] { return c.all == "one\n"; }, 5000));
        s.stop();
        QVERIFY(append(path, "two\n"));
        QVERIFY(!waitUntil([&] { return c.all.contains("two") || c.result.has_value(); }, 200));
    }

    void realSession()
    {
        const LocalEnvironment env = LocalEnvironment::detect();
        SANDBAR_REQUIRE(env.unavailableReason().isEmpty(), env.unavailableReason());
        AccountConfig account;
        account.name = QStringLiteral("local-logs");
        account.provider = QStringLiteral("local");
        account.dataDir = m_dir.path();
        LocalProvider p(account, env);
        QVERIFY(p.capabilities().testFlag(Capability::Logs));
        QVERIFY(p.capabilities().testFlag(Capability::Ports));

        Capture unknown;
        auto none = p.logs(QStringLiteral("no-such-session"), opts(false));
        unknown.attach(none.get());
        none->start();
        QVERIFY(waitUntil([&] { return unknown.result.has_value(); }, 5000));
        QCOMPARE(unknown.result->code(), ErrorCode::NotFound);

        CreateSpec spec;
        spec.ttlSeconds = 120; // never leave a sandbox behind if the test dies
        auto s = await<SessionInfo>([&](Callback<SessionInfo> cb) { p.create(spec, cb); });
        QVERIFY_RESULT(s);
        auto info = await<SessionInfo>([&](Callback<SessionInfo> cb) { p.info(s->id, cb); });
        QVERIFY_RESULT(info);
        QCOMPARE(QJsonDocument::fromJson(info->rawJson).object().value(QStringLiteral("id")).toString(), s->id);

        auto stream = p.logs(s->id, opts(true, 100));
        Capture c;
        c.attach(stream.get());
        stream->start();
        // What the sandbox's processes write to their inherited stderr lands in agent.log.
        const QString log = p.sessionDir(s->id) + QStringLiteral("/agent.log");
        QVERIFY(append(log, "written by the sandbox\n"));
        QVERIFY(waitUntil([&] { return c.all.contains("written by the sandbox\n") || c.result; }, 5000));
        QVERIFY(!c.result.has_value());
        QCOMPARE(c.streams, QList<int>{0});

        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { p.stop(s->id, cb); }));
        QVERIFY(waitUntil([&] { return c.result.has_value(); }, 10000));
        QVERIFY_RESULT(*c.result);
        (void)await<void>([&](Callback<void> cb) { p.remove(s->id, cb); });
    }
};

QTEST_GUILESS_MAIN(TstLocalLogs)
#include "tst_locallogs.moc"
