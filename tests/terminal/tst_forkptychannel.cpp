// The local pseudo-terminal (makeLocalPtyChannel: ForkPtyChannel here) against real programs.
#include "terminal/LocalPtyChannel.h"
#include "terminal/TerminalScreen.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTest>
#include <cerrno>
#include <csignal>
#include <sched.h>
#include <sys/types.h>
#include <sys/wait.h>

using namespace sandbar;

namespace {

// Reaped: the process table no longer has the pid at all. A zombie (exited, not waited
// for) still answers kill(pid, 0) and keeps its /proc entry.
bool reaped(qint64 pid)
{
    return ::kill(pid_t(pid), 0) == -1 && errno == ESRCH && !QFile::exists(QStringLiteral("/proc/%1").arg(pid));
}

// "Z" for a zombie, "R"/"S"/... for a live process, empty once reaped.
QByteArray procState(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray stat = f.readAll();
    const qsizetype paren = stat.lastIndexOf(')');
    return paren < 0 ? QByteArray() : stat.mid(paren + 2, 1);
}

#if defined(Q_OS_LINUX)
// How many of this process's threads run under the SCHED_BATCH policy.
int batchThreads()
{
    int n = 0;
    const QStringList tids = QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &tid : tids) {
        if (::sched_getscheduler(pid_t(tid.toInt())) == SCHED_BATCH)
            ++n;
    }
    return n;
}
#endif

} // namespace

class TestForkPtyChannel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void runsAndReportsExitCode()
    {
        auto ch = makeLocalPtyChannel(QStringLiteral("/bin/sh"),
                                      {QStringLiteral("-c"), QStringLiteral("echo hi-there; exit 3")});
        QByteArray got;
        connect(ch.get(), &PtyChannel::dataReceived, this, [&got](const QByteArray &b) { got += b; });
        QSignalSpy started(ch.get(), &PtyChannel::started);
        QSignalSpy finished(ch.get(), &PtyChannel::finished);
        ch->start();
        QCOMPARE(started.count(), 1);
        QVERIFY(ch->isOpen());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(finished.at(0).at(0).toInt(), 3);
        QCOMPARE(ch->exitCode(), std::optional<int>(3));
        QVERIFY(got.contains("hi-there"));
        QVERIFY(!ch->isOpen());
        // The exit code came from waitpid, so nothing of the child may be left.
        QTRY_VERIFY2_WITH_TIMEOUT(reaped(ch->pid()), procState(ch->pid()).constData(), 30000);
    }

    void missingProgram()
    {
        auto ch = makeLocalPtyChannel(QStringLiteral("/nonexistent/program"));
        QSignalSpy finished(ch.get(), &PtyChannel::finished);
        ch->start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(finished.at(0).at(0).toInt(), 127);
    }

    void sizeAndResize()
    {
        auto ch = makeLocalPtyChannel(QStringLiteral("/bin/sh"));
        ch->setInitialSize(100, 30);
        TerminalScreen screen(100, 30);
        screen.attach(ch.get());
        ch->start();
        ch->write("stty size\n");
        QTRY_VERIFY_WITH_TIMEOUT(screen.screenText().contains(QStringLiteral("30 100")), 30000);
        screen.resize(77, 22); // reaches the channel through attach()
        ch->write("stty size\n");
        QTRY_VERIFY_WITH_TIMEOUT(screen.screenText().contains(QStringLiteral("22 77")), 30000);
        QSignalSpy finished(ch.get(), &PtyChannel::finished);
        ch->close();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(finished.at(0).at(0).toInt(), 128 + SIGHUP);
        // The screen keeps what it showed.
        QVERIFY(screen.screenText().contains(QStringLiteral("22 77")));
    }

    void largeOutputArrivesWhole()
    {
        auto ch = makeLocalPtyChannel(
            QStringLiteral("/bin/sh"),
            {QStringLiteral("-c"), QStringLiteral("i=0; while [ $i -lt 3000 ]; do echo line$i; i=$((i+1)); done")});
        TerminalScreen screen(40, 10);
        screen.attach(ch.get());
        QSignalSpy finished(ch.get(), &PtyChannel::finished);
        ch->start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QTRY_COMPARE_WITH_TIMEOUT(screen.pendingBytes(), qsizetype(0), 30000);
        QCOMPARE(screen.lineText(screen.totalLines() - 2), QStringLiteral("line2999"));
        QCOMPARE(screen.lineText(0), QStringLiteral("line0"));
    }

    void floodingReaderYieldsToTheUiThread()
    {
#if defined(Q_OS_LINUX)
        // A reader carrying a flood runs as SCHED_BATCH (it must not preempt the UI thread
        // each time it is woken) and goes back to the normal policy when the program turns
        // interactive: here a flood, then cat echoing one typed line.
        constexpr int kFlood = 4 * 1024 * 1024;
        auto ch = makeLocalPtyChannel(
            QStringLiteral("/bin/sh"),
            {QStringLiteral("-c"), QStringLiteral("head -c %1 /dev/zero | tr '\\0' a; exec cat").arg(kFlood)});
        qint64 got = 0;
        QByteArray tail;
        connect(ch.get(), &PtyChannel::dataReceived, this, [&](const QByteArray &b) {
            got += b.size();
            tail = QByteArray(tail + b).right(64);
        });
        QCOMPARE(batchThreads(), 0);
        ch->start();
        // Nothing is delivered while this thread does not run its event loop, so the reader's
        // inbox fills: from then on it is a flood.
        QDeadlineTimer deadline(30000);
        while (batchThreads() == 0 && !deadline.hasExpired())
            QTest::qSleep(5);
        QCOMPARE(batchThreads(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(got >= kFlood, 60000);
        ch->write("typed-line\n");
        QTRY_VERIFY_WITH_TIMEOUT(tail.contains("typed-line"), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(batchThreads(), 0, 30000);
#else
        QSKIP("SCHED_BATCH is Linux's");
#endif
    }

    void startTwiceIsAnError()
    {
        auto ch = makeLocalPtyChannel(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("sleep 5")});
        QSignalSpy errors(ch.get(), &PtyChannel::errorOccurred);
        ch->start();
        ch->start();
        QCOMPARE(errors.count(), 1);
    }

    void destroyingARunningChannelReapsTheChild()
    {
        qint64 pid = -1;
        {
            auto ch =
                makeLocalPtyChannel(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("sleep 60")});
            ch->start();
            pid = ch->pid();
            QVERIFY(pid > 0);
            QVERIFY(!procState(pid).isEmpty()); // alive before
            QVERIFY(!reaped(pid));
        }
        // Hung up and waited for: neither running nor a zombie, within a generous deadline.
        QTRY_VERIFY2_WITH_TIMEOUT(reaped(pid), procState(pid).constData(), 30000);
        // And nobody else may reap it for us: waitpid no longer knows the child.
        QCOMPARE(::waitpid(pid_t(pid), nullptr, WNOHANG), pid_t(-1));
        QCOMPARE(errno, ECHILD);
    }
};

QTEST_GUILESS_MAIN(TestForkPtyChannel)
#include "tst_forkptychannel.moc"
