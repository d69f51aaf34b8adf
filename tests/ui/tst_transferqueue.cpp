// The Files tab's TransferQueue over fake jobs: overall bytes, the speed's moving average
// and the time left (a test clock), one or two at a time, cancel one and all, a failure that
// leaves the rest running, and name conflicts (Rename's free name, Skip and Overwrite "for
// all", a file over a folder removed first).
#include "MemoryProvider.h"
#include "TestSupport.h"
#include "files/TransferQueue.h"
#include "terminal/PtyChannel.h"

#include <QFile>
#include <QPointer>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;
using namespace sandbar::ui;
using sandbar::test::MemoryProvider;
using sandbar::test::waitUntil;

namespace {

class FakeJob final : public TransferJob
{
public:
    void start() override { started = true; }
    void cancel() override
    {
        cancelled = true;
        Q_EMIT finished(makeError(ErrorCode::Cancelled, QStringLiteral("cancelled")));
    }
    void step(qint64 done, qint64 total) { Q_EMIT progress(done, total); }
    void succeed() { Q_EMIT finished(VoidResult{}); }
    void fail(const QString &why) { Q_EMIT finished(makeError(ErrorCode::Internal, why)); }

    bool started = false;
    bool cancelled = false;
};

struct Call {
    QString source, dest;
    QPointer<FakeJob> job;
};

ProviderDescriptor queueDescriptor()
{
    ProviderDescriptor d;
    d.id = QStringLiteral("fake");
    d.displayName = QStringLiteral("Fake");
    d.capabilities = Capability::Files | Capability::FileList | Capability::Exec;
    return d;
}

// Answers only what the queue asks (statPath, removePath, upload, download) from its own
// picture of the remote side, later, as a real engine would.
class QueueProvider final : public MemoryProvider
{
public:
    QueueProvider()
        : MemoryProvider(queueDescriptor(), QStringLiteral("fake"))
    {
        statHook = [this](const QString &, const QString &path, Callback<PathStat> done) {
            statted << path;
            PathStat s;
            s.exists = files.contains(path) || dirs.contains(path);
            s.isDir = dirs.contains(path);
            done.post(s);
        };
        removePathHook = [this](const QString &, const QString &path, Callback<void> done) {
            removed << path;
            files.remove(path);
            dirs.remove(path);
            done.post(VoidResult{});
        };
        uploadHook = [this](const QString &, const QString &local, const QString &dest) { return track(local, dest); };
        downloadHook = [this](const QString &, const QString &remote, const QString &local) {
            return track(remote, local);
        };
    }

    QList<Call> calls;
    QStringList statted, removed;
    QSet<QString> files, dirs;

private:
    std::unique_ptr<TransferJob> track(const QString &source, const QString &dest)
    {
        auto job = std::make_unique<FakeJob>();
        calls << Call{source, dest, job.get()};
        return job;
    }
};

constexpr qint64 MiB = 1024 * 1024;

// The queue schedules through queued calls: a sentinel posted behind them (and one posted
// behind whatever they post in turn) runs only once they have. A test that must show that
// something did not start waits for the sentinel instead of for a while.
bool drainQueued(QObject *queue)
{
    bool done = false;
    QMetaObject::invokeMethod(
        queue,
        [queue, &done] {
            QMetaObject::invokeMethod(
                queue, [&done] { done = true; }, Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    return waitUntil([&] { return done; }, 10000);
}

} // namespace

class TestTransferQueue : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString localFile(const QString &name, qint64 size)
    {
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly) || !f.resize(size))
            return {};
        return f.fileName();
    }
    static TransferQueue::State stateOf(const TransferQueue &q, int id) { return q.item(id)->state; }

private Q_SLOTS:
    void candidateNames()
    {
        QCOMPARE(TransferQueue::candidateName(QStringLiteral("a.txt"), false, 1), QStringLiteral("a (1).txt"));
        QCOMPARE(TransferQueue::candidateName(QStringLiteral("a.txt"), false, 12), QStringLiteral("a (12).txt"));
        QCOMPARE(TransferQueue::candidateName(QStringLiteral(".hidden"), false, 1), QStringLiteral(".hidden (1)"));
        QCOMPARE(TransferQueue::candidateName(QStringLiteral("dir.d"), true, 2), QStringLiteral("dir.d (2)"));
        QCOMPARE(TransferQueue::candidateName(QStringLiteral("x.tar.gz"), false, 1), QStringLiteral("x.tar (1).gz"));
        QCOMPARE(TransferQueue::candidateName(QStringLiteral("README"), false, 1), QStringLiteral("README (1)"));
    }

    void progressSums()
    {
        QueueProvider p;
        TransferQueue q(&p, QStringLiteral("s"));
        const int a = q.enqueueUpload(localFile(QStringLiteral("a.bin"), 1000), QStringLiteral("/w"));
        const int b = q.enqueueUpload(localFile(QStringLiteral("b.bin"), 3000), QStringLiteral("/w/"));
        QCOMPARE(q.totalBytes(), 4000);
        QVERIFY(waitUntil([&] { return p.calls.size() == 2; }, 5000));
        // No conflict: each goes into the folder under its own name.
        QCOMPARE(p.calls[0].dest, QStringLiteral("/w/"));
        QCOMPARE(p.calls[1].dest, QStringLiteral("/w/"));
        QCOMPARE(p.statted, (QStringList{QStringLiteral("/w/a.bin"), QStringLiteral("/w/b.bin")}));
        QVERIFY(p.calls[0].job->started && p.calls[1].job->started);
        p.calls[0].job->step(500, 1000);
        p.calls[1].job->step(1000, 3000);
        QCOMPARE(q.doneBytes(), 1500);
        QCOMPARE(q.item(a)->doneBytes, 500);
        p.calls[0].job->succeed();
        QCOMPARE(stateOf(q, a), TransferQueue::State::Done);
        QCOMPARE(q.doneBytes(), 2000);
        QVERIFY(!q.isIdle());
        QSignalSpy idle(&q, &TransferQueue::idle);
        p.calls[1].job->succeed();
        QCOMPARE(stateOf(q, b), TransferQueue::State::Done);
        QCOMPARE(q.doneBytes(), 4000);
        QCOMPARE(q.totalBytes(), 4000);
        QCOMPARE(idle.size(), 1);
        q.clearFinished();
        QVERIFY(q.items().isEmpty());
        QCOMPARE(q.totalBytes(), 0);
    }

    void speedAndTimeLeft()
    {
        QueueProvider p;
        TransferQueue q(&p, QStringLiteral("s"));
        qint64 now = 10000;
        q.setClock([&now] { return now; });
        q.enqueueUpload(localFile(QStringLiteral("big.bin"), 10 * MiB), QStringLiteral("/w"));
        QVERIFY(waitUntil([&] { return !p.calls.isEmpty(); }, 5000));
        FakeJob *job = p.calls[0].job;
        QCOMPARE(q.bytesPerSecond(), 0.0);
        QCOMPARE(q.secondsLeft(), -1);
        now = 11000;
        job->step(1 * MiB, 10 * MiB);
        now = 12000;
        job->step(2 * MiB, 10 * MiB);
        QCOMPARE(q.bytesPerSecond(), double(MiB)); // 2 MiB over 2 s
        QCOMPARE(q.secondsLeft(), 8);              // 8 MiB at 1 MiB/s
        now = 13000;
        job->step(5 * MiB, 10 * MiB);
        // The window is the last 3 s: 5 MiB since 10 s.
        QCOMPARE(q.bytesPerSecond(), 5.0 * MiB / 3.0);
        QCOMPARE(q.secondsLeft(), 3); // ceil(5 / (5/3))
        now = 14000;
        job->step(6 * MiB, 10 * MiB);
        // Since 11 s: 1 MiB had moved then, 6 MiB now.
        QCOMPARE(q.bytesPerSecond(), 5.0 * MiB / 3.0);
        now = 20000;
        // A stall: nothing for longer than the window brings the speed to zero.
        QCOMPARE(q.bytesPerSecond(), 0.0);
        QCOMPARE(q.secondsLeft(), -1);
        now = 21000;
        job->step(8 * MiB, 10 * MiB);
        QCOMPARE(q.bytesPerSecond(), 2.0 * MiB / 3.0);
        job->succeed();
        QCOMPARE(q.bytesPerSecond(), 0.0); // idle
    }

    void oneAtATimeAndCancel()
    {
        QueueProvider p;
        TransferQueue q(&p, QStringLiteral("s"));
        q.setMaxConcurrent(1);
        QList<int> ids;
        for (int i = 0; i < 4; ++i)
            ids << q.enqueueUpload(localFile(QStringLiteral("c%1").arg(i), 100), QStringLiteral("/w"));
        QVERIFY(waitUntil([&] { return p.calls.size() == 1; }, 5000));
        QVERIFY(drainQueued(&q));
        QCOMPARE(p.calls.size(), 1);
        QCOMPARE(stateOf(q, ids[1]), TransferQueue::State::Queued);
        // Cancel the running one: it is told to stop and the next one starts.
        QSignalSpy finished(&q, &TransferQueue::itemFinished);
        q.cancel(ids[0]);
        QCOMPARE(stateOf(q, ids[0]), TransferQueue::State::Cancelled);
        QVERIFY(p.calls[0].job.isNull() || p.calls[0].job->cancelled);
        QVERIFY(waitUntil([&] { return p.calls.size() == 2; }, 5000));
        // Cancel a queued one: it never starts.
        q.cancel(ids[3]);
        QCOMPARE(stateOf(q, ids[3]), TransferQueue::State::Cancelled);
        q.cancelAll();
        QCOMPARE(stateOf(q, ids[1]), TransferQueue::State::Cancelled);
        QCOMPARE(stateOf(q, ids[2]), TransferQueue::State::Cancelled);
        QVERIFY(q.isIdle());
        QVERIFY(drainQueued(&q));
        QCOMPARE(p.calls.size(), 2);
        QCOMPARE(finished.size(), 4);
        QCOMPARE(q.doneBytes(), 0); // cancelled items leave the figures
        QCOMPARE(q.totalBytes(), 0);
    }

    void failureDoesNotStopOthers()
    {
        QueueProvider p;
        TransferQueue q(&p, QStringLiteral("s"));
        const int bad = q.enqueueUpload(localFile(QStringLiteral("bad"), 10), QStringLiteral("/w"));
        const int good = q.enqueueUpload(localFile(QStringLiteral("good"), 10), QStringLiteral("/w"));
        const int dl = q.enqueueDownload(QStringLiteral("/w/x"), m_dir.filePath(QStringLiteral("x")));
        const int missing = q.enqueueUpload(m_dir.filePath(QStringLiteral("not-there")), QStringLiteral("/w"));
        QVERIFY(waitUntil([&] { return p.calls.size() == 2; }, 5000));
        p.calls[0].job->fail(QStringLiteral("disk full"));
        QCOMPARE(stateOf(q, bad), TransferQueue::State::Failed);
        QCOMPARE(q.item(bad)->error, QStringLiteral("disk full"));
        QVERIFY(waitUntil([&] { return p.calls.size() == 3; }, 5000));
        QCOMPARE(p.calls[2].source, QStringLiteral("/w/x")); // the download
        p.calls[1].job->succeed();
        p.calls[2].job->step(7, -1);
        QCOMPARE(q.totalBytes(), -1); // a download's size is unknown until it says
        p.calls[2].job->succeed();
        QVERIFY(waitUntil([&] { return q.isIdle(); }, 5000));
        QCOMPARE(stateOf(q, good), TransferQueue::State::Done);
        QCOMPARE(stateOf(q, dl), TransferQueue::State::Done);
        QCOMPARE(stateOf(q, missing), TransferQueue::State::Failed);
        QVERIFY(q.item(missing)->error.contains(QLatin1String("not-there")));
        QCOMPARE(q.totalBytes(), 17);
    }

    void conflicts()
    {
        QueueProvider p;
        p.files = {QStringLiteral("/w/a.txt"), QStringLiteral("/w/a (1).txt"), QStringLiteral("/w/b.txt"),
                   QStringLiteral("/w/c.txt")};
        p.dirs = {QStringLiteral("/w/d.txt")};
        TransferQueue q(&p, QStringLiteral("s"));
        q.setMaxConcurrent(1);
        QSignalSpy asked(&q, &TransferQueue::conflict);
        const int a = q.enqueueUpload(localFile(QStringLiteral("a.txt"), 1), QStringLiteral("/w"));
        const int b = q.enqueueUpload(localFile(QStringLiteral("b.txt"), 1), QStringLiteral("/w"));
        const int c = q.enqueueUpload(localFile(QStringLiteral("c.txt"), 1), QStringLiteral("/w"));
        QVERIFY(waitUntil([&] { return asked.size() == 1; }, 5000));
        QCOMPARE(asked[0][0].toInt(), a);
        QCOMPARE(asked[0][1].toString(), QStringLiteral("a.txt"));
        QVERIFY(q.item(a)->awaitingAnswer);
        // Rename: "a (1).txt" is taken, so "a (2).txt".
        q.answerConflict(a, TransferQueue::ConflictChoice::Rename, false);
        QVERIFY(waitUntil([&] { return p.calls.size() == 1; }, 5000));
        QCOMPARE(p.calls[0].dest, QStringLiteral("/w/a (2).txt"));
        QCOMPARE(q.item(a)->target, QStringLiteral("/w/a (2).txt"));
        p.calls[0].job->succeed();
        // Skip for all: b is skipped and c is not asked about.
        QVERIFY(waitUntil([&] { return asked.size() == 2; }, 5000));
        QCOMPARE(asked[1][0].toInt(), b);
        q.answerConflict(b, TransferQueue::ConflictChoice::Skip, true);
        QVERIFY(waitUntil([&] { return q.isIdle(); }, 5000));
        QCOMPARE(stateOf(q, b), TransferQueue::State::Skipped);
        QCOMPARE(stateOf(q, c), TransferQueue::State::Skipped);
        QCOMPARE(asked.size(), 2);
        QCOMPARE(p.calls.size(), 1);

        // The policy lasts until the queue runs dry: a new batch asks again.
        q.setMaxConcurrent(2);
        const int b2 = q.enqueueUpload(m_dir.filePath(QStringLiteral("b.txt")), QStringLiteral("/w"));
        const int c2 = q.enqueueUpload(m_dir.filePath(QStringLiteral("c.txt")), QStringLiteral("/w"));
        const int d = q.enqueueUpload(localFile(QStringLiteral("d.txt"), 1), QStringLiteral("/w"));
        QVERIFY(waitUntil([&] { return asked.size() == 3; }, 5000));
        QVERIFY(drainQueued(&q));
        QCOMPARE(asked.size(), 3); // one question at a time, c2 waits behind it
        QCOMPARE(asked[2][0].toInt(), b2);
        q.answerConflict(b2, TransferQueue::ConflictChoice::Overwrite, true);
        // Overwrite a file with a file: into the folder, replacing it; c2 follows the policy.
        QVERIFY(waitUntil([&] { return p.calls.size() == 3; }, 5000));
        QCOMPARE(p.calls[1].dest, QStringLiteral("/w/"));
        QCOMPARE(p.calls[2].dest, QStringLiteral("/w/"));
        p.calls[1].job->succeed();
        p.calls[2].job->succeed();
        // d.txt is a folder there: Overwrite removes it before the file goes in.
        QVERIFY(waitUntil([&] { return p.calls.size() == 4; }, 5000));
        QCOMPARE(p.removed, QStringList{QStringLiteral("/w/d.txt")});
        QCOMPARE(p.calls[3].dest, QStringLiteral("/w/"));
        p.calls[3].job->succeed();
        QVERIFY(waitUntil([&] { return q.isIdle(); }, 5000));
        for (int id : {b2, c2, d})
            QCOMPARE(stateOf(q, id), TransferQueue::State::Done);
        QCOMPARE(asked.size(), 3);
    }

    void cancelWhileAsking()
    {
        QueueProvider p;
        p.files = {QStringLiteral("/w/a.txt"), QStringLiteral("/w/b.txt")};
        TransferQueue q(&p, QStringLiteral("s"));
        QSignalSpy asked(&q, &TransferQueue::conflict);
        const int a = q.enqueueUpload(localFile(QStringLiteral("a.txt"), 1), QStringLiteral("/w"));
        const int b = q.enqueueUpload(localFile(QStringLiteral("b.txt"), 1), QStringLiteral("/w"));
        QVERIFY(waitUntil([&] { return asked.size() == 1; }, 5000));
        // Cancelling the item asked about moves the question on to the next.
        q.cancel(asked[0][0].toInt());
        QVERIFY(waitUntil([&] { return asked.size() == 2; }, 5000));
        QCOMPARE(asked[1][0].toInt(), asked[0][0].toInt() == a ? b : a);
        q.answerConflict(asked[1][0].toInt(), TransferQueue::ConflictChoice::Skip, false);
        QVERIFY(waitUntil([&] { return q.isIdle(); }, 5000));
        QVERIFY(p.calls.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTransferQueue)
#include "tst_transferqueue.moc"
