// A Local session's processes killed from outside (SIGKILL) while a terminal, a command and
// a stats stream are open: the sandbar-agent inside the sandbox, and bubblewrap itself.
// Everything open must end with an error within seconds, later calls must fail at once,
// the session must not claim to run, and removing it must leave nothing behind.

#include "TestSupport.h"
#include "providers/local/LocalProvider.h"
#include "providers/local/SessionStore.h"
#include "terminal/PtyChannel.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <unistd.h>

using namespace sandbar;
using namespace sandbar::local;
using namespace sandbar::test;

namespace {
// A terminal, a command and a stats stream on one session, and how each ended.
struct OpenThings {
    std::unique_ptr<PtyChannel> pty;
    QByteArray ptyOutput;
    bool ptyStarted = false;
    std::optional<Error> ptyError;
    std::optional<int> ptyExit;
    std::unique_ptr<ExecJob> job;
    std::optional<Result<int>> jobResult;
    std::unique_ptr<StatsStream> stream;
    int samples = 0;
    std::optional<Error> streamError;
};

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The host pids of a process's children.
QList<qint64> childrenOf(qint64 pid)
{
    QList<qint64> out;
    const QByteArray text = readFile(QStringLiteral("/proc/%1/task/%1/children").arg(pid)).trimmed();
    for (const QByteArray &p : text.split(' ')) {
        if (!p.isEmpty())
            out << p.toLongLong();
    }
    return out;
}

QString commandName(qint64 pid)
{
    return QString::fromUtf8(readFile(QStringLiteral("/proc/%1/comm").arg(pid)).trimmed());
}
} // namespace

class TestLocalAgentKill : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir{QStringLiteral("/tmp/sbak-XXXXXX")};
    AccountConfig m_account;
    std::unique_ptr<LocalProvider> m_p;

    Result<SessionInfo> create()
    {
        CreateSpec spec;
        spec.ttlSeconds = 120; // a safety net should the test die
        return await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, 30000);
    }

    // Opens the three and waits until each is seen working: the shell echoes, the command's
    // process shows in the sandbox, a sample came.
    void openAll(const QString &id, OpenThings &o)
    {
        o.pty = m_p->openPty(id, {});
        connect(o.pty.get(), &PtyChannel::started, this, [&o] { o.ptyStarted = true; });
        connect(o.pty.get(), &PtyChannel::dataReceived, this, [&o](const QByteArray &b) { o.ptyOutput += b; });
        connect(o.pty.get(), &PtyChannel::finished, this, [&o](int c) { o.ptyExit = c; });
        connect(o.pty.get(), &PtyChannel::errorOccurred, this, [&o](const Error &e) { o.ptyError = e; });
        o.pty->start();
        ExecRequest sleeper;
        sleeper.argv = QStringList{QStringLiteral("sleep"), QStringLiteral("30")};
        o.job = m_p->exec(id, sleeper);
        connect(o.job.get(), &ExecJob::finished, this, [&o](const Result<int> &r) { o.jobResult = r; });
        o.job->start();
        o.stream = m_p->streamStats(id);
        connect(o.stream.get(), &StatsStream::sample, this, [&o](const StatsSample &) { ++o.samples; });
        connect(o.stream.get(), &StatsStream::errorOccurred, this, [&o](const Error &e) { o.streamError = e; });
        o.stream->start();
        QVERIFY(waitUntil([&] { return o.ptyStarted || o.ptyError; }, 15000));
        QVERIFY2(!o.ptyError, qPrintable(o.ptyError ? o.ptyError->message : QString()));
        QVERIFY2(waitUntil(
                     [&] {
                         o.pty->write("ps -eo args | grep -q \"[s]leep 30\" && echo sleeper-$((2+2))\n");
                         return waitUntil([&] { return o.ptyOutput.contains("sleeper-4") || o.ptyError; }, 500) &&
                                o.ptyOutput.contains("sleeper-4");
                     },
                     20000),
                 o.ptyOutput.constData());
        QVERIFY(waitUntil([&] { return o.samples >= 1 || o.streamError; }, 15000));
        QVERIFY2(!o.streamError, qPrintable(o.streamError ? o.streamError->message : QString()));
        QVERIFY(!o.jobResult.has_value());
    }

    // Each of the three ends, with an error that says something, within seconds.
    void expectAllEnded(OpenThings &o, const QElapsedTimer &sinceKill)
    {
        QVERIFY2(waitUntil([&] { return o.ptyError || o.ptyExit; }, 10000), "the terminal did not notice");
        QVERIFY(waitUntil([&] { return !o.pty->isOpen(); }, 10000));
        QVERIFY2(waitUntil([&] { return o.jobResult.has_value(); }, 10000), "the command did not notice");
        QVERIFY(!o.jobResult->ok());
        QVERIFY(!o.jobResult->message().isEmpty());
        QVERIFY2(waitUntil([&] { return o.streamError.has_value(); }, 10000), "the stats stream did not notice");
        QVERIFY(!o.streamError->message.isEmpty());
        qInfo("everything open ended %lld ms after the kill; command: %s; stats: %s; terminal: %s",
              static_cast<long long>(sinceKill.elapsed()), qPrintable(o.jobResult->message()),
              qPrintable(o.streamError->message),
              qPrintable(o.ptyError ? o.ptyError->message : QStringLiteral("exit %1").arg(*o.ptyExit)));
        o.stream->stop();
        o.pty->write("true\n"); // a closed terminal takes no input and does not crash
    }

    // The session no longer claims to run, using it fails at once and says why, removing it
    // leaves nothing, and the provider makes a working session afterwards.
    void expectEndedAndRemovable(const SessionRecord &rec, const QString &says)
    {
        const QString id = rec.id;
        QVERIFY(waitUntil([&] { return !isAlive(rec) && !isEnding(rec); }, 10000));
        auto info = await<SessionInfo>([&](auto cb) { m_p->info(id, cb); });
        QVERIFY_RESULT(info);
        QVERIFY2(info->state == SessionState::Error || info->state == SessionState::Stopped,
                 qPrintable(info->statusText));
        QVERIFY2(info->errorMessage.contains(says), qPrintable(info->errorMessage));
        auto list = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions({}, cb); });
        QVERIFY_RESULT(list);
        const auto it = std::find_if(list->begin(), list->end(), [&](const SessionInfo &s) { return s.id == id; });
        QVERIFY(it != list->end());
        QCOMPARE(it->state, info->state);
        qInfo("after the kill: %s: %s (cgroups: %s)", qPrintable(info->statusText), qPrintable(info->errorMessage),
              qPrintable(rec.cgroupDirs.join(QLatin1Char(' '))));

        QElapsedTimer t;
        t.start();
        ExecRequest req;
        req.argv = QStringList{QStringLiteral("true")};
        auto job = m_p->exec(id, req);
        std::optional<Result<int>> late;
        connect(job.get(), &ExecJob::finished, this, [&](const Result<int> &r) { late = r; });
        job->start();
        QVERIFY(waitUntil([&] { return late.has_value(); }, 5000));
        QCOMPARE(late->code(), ErrorCode::Unavailable);
        auto pty = m_p->openPty(id, {});
        std::optional<Error> ptyError;
        connect(pty.get(), &PtyChannel::errorOccurred, this, [&](const Error &e) { ptyError = e; });
        pty->start();
        QVERIFY(waitUntil([&] { return ptyError.has_value(); }, 5000));
        QCOMPARE(ptyError->code, ErrorCode::Unavailable);
        auto st = await<StatsSample>([&](auto cb) { m_p->stats(id, cb); }, 5000);
        QCOMPARE(st.code(), ErrorCode::Unavailable);
        auto files = await<QList<FileEntry>>([&](auto cb) { m_p->listFiles(id, QString(), cb); }, 5000);
        QCOMPARE(files.code(), ErrorCode::Unavailable);
        QVERIFY2(t.elapsed() < 5000, "later calls took seconds");

        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->remove(id, cb); }, 30000));
        QCOMPARE(await<SessionInfo>([&](auto cb) { m_p->info(id, cb); }).code(), ErrorCode::NotFound);
        QVERIFY(!QFileInfo::exists(rec.dir));
        QVERIFY(!QFileInfo::exists(m_p->sessionsDir() + QStringLiteral("/.removing-") + id));
        for (const QString &cg : rec.cgroupDirs)
            QVERIFY2(!QFileInfo::exists(cg), qPrintable(cg));
        QVERIFY(processStartTime(rec.pid) != rec.startTime);
        const qint64 monitor = processStartTime(rec.bwrapPid);
        QVERIFY(monitor == 0 || monitor > rec.startTime); // gone, or its pid reused since
        QVERIFY(!readFile(QStringLiteral("/proc/self/mountinfo")).contains(m_dir.path().toUtf8()));

        // The provider is not stuck on the dead one.
        auto fresh = create();
        QVERIFY_RESULT(fresh);
        OpenThings o;
        openAll(fresh->id, o);
        if (QTest::currentTestFailed())
            return;
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->remove(fresh->id, cb); }, 30000));
    }

private Q_SLOTS:
    void initTestCase()
    {
        // Run directly (bench/reliability runs it as a faults suite): the agent of this build.
        if (qEnvironmentVariableIsEmpty("SANDBAR_AGENT_PATH"))
            qputenv("SANDBAR_AGENT_PATH", SANDBAR_AGENT_BUILT);
        const LocalEnvironment env = LocalEnvironment::detect();
        SANDBAR_REQUIRE(env.unavailableReason().isEmpty(), env.unavailableReason());
        QVERIFY(m_dir.isValid());
        m_account.name = QStringLiteral("local-kill");
        m_account.provider = QStringLiteral("local");
        m_account.dataDir = m_dir.path();
        m_p = std::make_unique<LocalProvider>(m_account, env);
    }

    void cleanupTestCase()
    {
        if (!m_p)
            return;
        auto list = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions({}, cb); });
        if (list) {
            for (const auto &s : *list)
                (void)await<void>([&](auto cb) { m_p->remove(s.id, cb); }, 30000);
        }
    }

    // The agent is the child of the sandbox's first process (bubblewrap's init).
    void agentKilled()
    {
        auto s = create();
        QVERIFY_RESULT(s);
        auto rec = loadRecord(m_p->sessionDir(s->id));
        QVERIFY_RESULT(rec);
        OpenThings o;
        openAll(s->id, o);
        if (QTest::currentTestFailed())
            return;
        const QList<qint64> agents = childrenOf(rec->pid);
        QCOMPARE(agents.size(), 1);
        QVERIFY2(commandName(agents.first()).contains(QLatin1String("agent")), qPrintable(commandName(agents.first())));
        QElapsedTimer sinceKill;
        sinceKill.start();
        QCOMPARE(::kill(pid_t(agents.first()), SIGKILL), 0);
        expectAllEnded(o, sinceKill);
        if (QTest::currentTestFailed())
            return;
        expectEndedAndRemovable(*rec, QStringLiteral("agent was killed from outside Sandbar (signal 9)"));
    }

    // bubblewrap's outer process (the monitor on the host) killed first: the sandbox goes
    // on, truthfully running. Then its init, the sandbox's pid 1: everything in it ends.
    void bwrapKilled()
    {
        auto s = create();
        QVERIFY_RESULT(s);
        auto rec = loadRecord(m_p->sessionDir(s->id));
        QVERIFY_RESULT(rec);
        OpenThings o;
        openAll(s->id, o);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(rec->bwrapPid > 0);
        QCOMPARE(commandName(rec->bwrapPid), QStringLiteral("bwrap"));
        QCOMPARE(commandName(rec->pid), QStringLiteral("bwrap"));
        QCOMPARE(::kill(pid_t(rec->bwrapPid), SIGKILL), 0);
        QVERIFY(waitUntil([&] { return processStartTime(rec->bwrapPid) == 0; }, 10000));
        o.ptyOutput.clear();
        o.pty->write("echo still-$((5+5))\n");
        QVERIFY2(waitUntil([&] { return o.ptyOutput.contains("still-10") || o.ptyError; }, 10000),
                 o.ptyOutput.constData());
        auto info = await<SessionInfo>([&](auto cb) { m_p->info(s->id, cb); });
        QVERIFY_RESULT(info);
        QCOMPARE(info->state, SessionState::Running);
        QVERIFY(!o.jobResult.has_value());

        QElapsedTimer sinceKill;
        sinceKill.start();
        QCOMPARE(::kill(pid_t(rec->pid), SIGKILL), 0);
        expectAllEnded(o, sinceKill);
        if (QTest::currentTestFailed())
            return;
        expectEndedAndRemovable(*rec, QStringLiteral("bubblewrap process was killed"));
    }
};

QTEST_GUILESS_MAIN(TestLocalAgentKill)
#include "tst_local_agentkill.moc"
