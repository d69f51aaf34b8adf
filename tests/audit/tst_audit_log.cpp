#include "audit/AuditLog.h"
#include "audit/Sanitizer.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <thread>

using namespace sandbar;
using namespace sandbar::audit;

namespace {

// sbtest-secret-: the marker secret_watch (test.sh) searches for in every file Sandbar writes.
constexpr char Secret[] = "sbtest-secret-audit-7f3a9c";

QByteArray rawFiles(const QString &dbPath)
{
    QByteArray all;
    for (const char *suffix : {"", "-wal", "-shm", "-journal"}) {
        QFile f(dbPath + QLatin1String(suffix));
        if (f.open(QIODevice::ReadOnly))
            all += f.readAll();
    }
    return all;
}

// One entry per action, each with the detail the lead's wiring will give it.
AuditEntry entryFor(Action action)
{
    const QString secret = QLatin1String(Secret);
    const QString account = QStringLiteral("local-docker");
    const QString provider = QStringLiteral("docker");
    const QString session = QStringLiteral("c0ffee");
    switch (action) {
    case Action::AccountAdded: {
        FieldDescriptor tokenField;
        tokenField.key = QStringLiteral("auth");
        tokenField.secret = true;
        return makeEntry(action, account, provider, {},
                         sanitizeDetail({{QStringLiteral("endpoint"), QStringLiteral("unix:///run/docker.sock")},
                                         {QStringLiteral("auth"), secret}},
                                        {tokenField}));
    }
    case Action::AccountRemoved: return makeEntry(action, account, provider);
    case Action::SessionCreated: {
        CreateSpec spec;
        spec.image = QStringLiteral("busybox");
        spec.env = {QStringLiteral("API_TOKEN=") + secret};
        spec.options.insert(QStringLiteral("env"), QString(QStringLiteral("API_TOKEN=") + secret));
        return makeEntry(action, account, provider, session, createDetail(spec));
    }
    case Action::SessionTtlChanged: return makeEntry(action, account, provider, session, ttlDetail(3600));
    case Action::ExecRun: {
        ExecRequest req;
        req.argv = {QStringLiteral("sh"), QStringLiteral("-c"),
                    QString(QStringLiteral("export TOKEN=") + secret + QStringLiteral("; make"))};
        req.env = {QStringLiteral("API_TOKEN=") + secret};
        auto e = makeEntry(action, account, provider, session, execDetail(req));
        e.setError(makeError(ErrorCode::Unavailable, QString(QStringLiteral("exec failed: sh -c 'export TOKEN=") +
                                                             secret + QStringLiteral("'"))));
        return e;
    }
    case Action::PtyOpened: {
        PtyOptions o;
        o.env = {QStringLiteral("API_TOKEN=") + secret};
        return makeEntry(action, account, provider, session, ptyDetail(o));
    }
    case Action::FileUploaded:
        return makeEntry(action, account, provider, session, fileDetail(QStringLiteral("/workspace/in.txt"), 1024));
    case Action::FileDownloaded:
        return makeEntry(action, account, provider, session, fileDetail(QStringLiteral("/workspace/out.txt"), 2048));
    case Action::FileRemoved:
        return makeEntry(action, account, provider, session, fileDetail(QStringLiteral("/workspace/old"), -1));
    case Action::FolderCreated:
        return makeEntry(action, account, provider, session, fileDetail(QStringLiteral("/workspace/new"), -1));
    case Action::BudgetStop: return makeEntry(action, account, provider, session, budgetDetail(10.5, 10));
    case Action::SnapshotCreated:
        return makeEntry(action, account, provider, session,
                         snapshotDetail(QStringLiteral("v3"), QString(QStringLiteral("TOKEN=") + secret)));
    case Action::SnapshotRestored:
        return makeEntry(action, account, provider, session, snapshotDetail(QStringLiteral("v3")));
    case Action::SessionForked:
        return makeEntry(action, account, provider, session,
                         QJsonObject{{QStringLiteral("fork"), QStringLiteral("c0ffee-2")}});
    case Action::FileMoved:
        return makeEntry(action, account, provider, session,
                         moveDetail(QStringLiteral("/workspace/a"), QStringLiteral("/workspace/b")));
    case Action::FileModeChanged:
        return makeEntry(action, account, provider, session, modeDetail(QStringLiteral("/workspace/run.sh"), 0755));
    case Action::SessionSettingsChanged:
        return makeEntry(action, account, provider, session,
                         sanitizeDetail(QVariantMap{{QStringLiteral("public-url"), true},
                                                    {QStringLiteral("api_key"), QString(secret)}}));
    case Action::CommandStarted: {
        ExecRequest req;
        req.argv = {QStringLiteral("sh"), QStringLiteral("-c"), QString(QStringLiteral("API_KEY=") + secret)};
        QJsonObject detail = execDetail(req);
        detail.insert(QStringLiteral("command"), QStringLiteral("cmd_1"));
        return makeEntry(action, account, provider, session, detail);
    }
    case Action::CommandSignalled:
        return makeEntry(
            action, account, provider, session,
            QJsonObject{{QStringLiteral("command"), QStringLiteral("cmd_1")}, {QStringLiteral("signal"), 15}});
    case Action::SessionLabelsChanged:
        return makeEntry(action, account, provider, session,
                         QJsonObject{{QStringLiteral("labels"), QJsonArray{QStringLiteral("team")}}});
    case Action::SessionStopped:
    case Action::SessionKilled:
    case Action::SessionRemoved:
    case Action::SessionPaused:
    case Action::SessionResumed:
    case Action::SessionAdopted:
    case Action::SessionArchived: return makeEntry(action, account, provider, session);
    case Action::AgentCall:
        return makeEntry(
            action, account, provider, session,
            agentCallDetail(QStringLiteral("claude-code"), QStringLiteral("1.0"), QStringLiteral("stdio"),
                            QStringLiteral("exec"),
                            QJsonObject{{QStringLiteral("command"), QString(QStringLiteral("TOKEN=") + secret)},
                                        {QStringLiteral("api_key"), secret}},
                            12));
    }
    return {};
}

int rowCount(const QString &dbPath)
{
    int n = -1;
    {
        auto db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("count"));
        db.setDatabaseName(dbPath);
        if (db.open()) {
            QSqlQuery q(QStringLiteral("SELECT count(*) FROM audit"), db);
            if (q.next())
                n = q.value(0).toInt();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("count"));
    return n;
}

} // namespace

class TestAuditLog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyActionLeavesOneRow();
    void secretsNeverReachTheFile();
    void queryFilters();
    void unknownActionRefused();
    void appendOnlyInTheFile();
    void batchedAppendsSurviveClose();
    void twoInstancesOnOneFile();
    void twoProcessesOnOneFile();
    void appendCost();
    void corruptFileMovedAside_data();
    void corruptFileMovedAside();
    void truncatedDatabaseMovedAside();
    void unwritableFolderRetried();
};

void TestAuditLog::everyActionLeavesOneRow()
{
    QTemporaryDir dir;
    const auto actions = allActions();
    QCOMPARE(actions.size(), 28);
    {
        AuditLog log(dir.path());
        QVERIFY2(log.isOpen(), qPrintable(log.openError().message));
        QVERIFY(log.openWarning().isEmpty());
        log.setFlushDelay(0);
        for (Action a : actions) {
            const auto r = log.append(entryFor(a));
            QVERIFY2(r.ok(), qPrintable(actionName(a)));
        }
        for (Action a : actions) {
            AuditQuery q;
            q.action = actionName(a);
            auto rows = log.query(q);
            QVERIFY(rows.ok());
            QCOMPARE(rows->size(), 1);
            const AuditEntry &e = rows->first();
            QCOMPARE(e.action, actionName(a));
            QCOMPARE(e.account, QStringLiteral("local-docker"));
            QCOMPARE(e.provider, QStringLiteral("docker"));
            QVERIFY(!e.osUser.isEmpty());
            QVERIFY(!e.host.isEmpty());
            QVERIFY(e.time.isValid());
            QCOMPARE(e.time.timeSpec(), Qt::UTC);
            QVERIFY(qAbs(e.time.msecsTo(QDateTime::currentDateTimeUtc())) < 60000);
            QCOMPARE(e.ok, a != Action::ExecRun);
        }
        auto exec = log.query(AuditQuery{std::nullopt, {}, {}, actionName(Action::ExecRun), {}, 0});
        QVERIFY(exec.ok());
        QCOMPARE(exec->first().errorCode, errorCodeName(ErrorCode::Unavailable));
        QCOMPARE(exec->first().detail.value(QStringLiteral("command")).toString(),
                 QStringLiteral("sh -c export TOKEN=***; make"));
        const QJsonObject json = entryToJson(exec->first());
        QCOMPARE(json.value(QStringLiteral("outcome")).toString(), QStringLiteral("error"));
        QCOMPARE(json.value(QStringLiteral("error_code")).toString(), QStringLiteral("unavailable"));
        QVERIFY(json.value(QStringLiteral("time")).toString().endsWith(QLatin1Char('Z')));
        for (const char *key : {"account", "provider", "session", "action", "detail", "os_user", "host"})
            QVERIFY2(json.contains(QLatin1String(key)), key);
        QCOMPARE(entrySummary(exec->first()),
                 QStringLiteral("sh -c export TOKEN=***; make -- exec failed: sh -c 'export TOKEN=***'"));
        auto upload = log.query(AuditQuery{std::nullopt, {}, {}, actionName(Action::FileUploaded), {}, 0});
        QCOMPARE(entrySummary(upload->first()), QStringLiteral("/workspace/in.txt (1024 bytes)"));
        QCOMPARE(upload->first().detail.value(QStringLiteral("size")).toInt(), 1024);
    }
    QCOMPARE(rowCount(QDir(dir.path()).filePath(AuditLog::fileName())), int(actions.size()));
}

void TestAuditLog::secretsNeverReachTheFile()
{
    QTemporaryDir dir;
    const QString path = QDir(dir.path()).filePath(AuditLog::fileName());
    {
        AuditLog log(dir.path());
        for (Action a : allActions())
            QVERIFY(log.append(entryFor(a)).ok());
        // The CLI's own line, as typed: --env values and secret-looking pairs go.
        auto e = makeEntry(Action::ExecRun, QStringLiteral("a"), QStringLiteral("docker"), QStringLiteral("s1"));
        e.detail[QStringLiteral("cli")] = redactCommandLine(
            QString(QStringLiteral("sandbarctl exec --env API_TOKEN=") + QLatin1String(Secret) +
                    QStringLiteral(" a/s1 -- sh -c 'export TOKEN=") + QLatin1String(Secret) + QStringLiteral("'")));
        QVERIFY(log.append(e).ok());
        // A careless caller who skipped the sanitizer.
        auto raw =
            makeEntry(Action::SessionCreated, QStringLiteral("a"), QStringLiteral("docker"), QStringLiteral("s2"));
        raw.detail[QStringLiteral("api_token")] = QLatin1String(Secret);
        raw.detail[QStringLiteral("env")] = QJsonArray{QString(QStringLiteral("PLAIN=") + QLatin1String(Secret))};
        raw.detail[QStringLiteral("argv")] =
            QJsonArray{QStringLiteral("--env"), QString(QStringLiteral("X=") + QLatin1String(Secret))};
        raw.detail[QStringLiteral("nested")] = QJsonObject{{QStringLiteral("password"), QLatin1String(Secret)}};
        QVERIFY(log.append(raw).ok());
        QVERIFY(log.flush().ok());
        AuditQuery created;
        created.sessionId = QStringLiteral("s2");
        const auto back = log.query(created);
        QCOMPARE(back->size(), 1);
        QCOMPARE(back->first().detail.value(QStringLiteral("env")).toArray().at(0).toString(),
                 QStringLiteral("PLAIN=***"));
        QCOMPARE(back->first().detail.value(QStringLiteral("argv")).toArray().at(1).toString(),
                 QStringLiteral("X=***"));
        // While open: the rows are in the write-ahead log.
        QVERIFY(!rawFiles(path).contains(Secret));
        QVERIFY(rawFiles(path).contains("API_TOKEN=***"));
    }
    const QByteArray raw = rawFiles(path);
    QVERIFY(raw.contains("API_TOKEN=***"));
    QVERIFY(!raw.contains(Secret));
    QVERIFY(!raw.contains("7f3a9c"));
}

void TestAuditLog::queryFilters()
{
    QTemporaryDir dir;
    AuditLog log(dir.path());
    log.setFlushDelay(0);
    const QDateTime base(QDate(2026, 11, 1), QTime(8, 0), Qt::UTC);
    for (int i = 0; i < 10; ++i) {
        auto e = makeEntry(i % 2 ? Action::SessionStopped : Action::ExecRun,
                           i < 5 ? QStringLiteral("alpha") : QStringLiteral("beta"), QStringLiteral("docker"),
                           QStringLiteral("s%1").arg(i % 3));
        e.time = base.addSecs(3600 * i);
        e.detail[QStringLiteral("command")] = QStringLiteral("echo Needle-%1").arg(i);
        QVERIFY(log.append(e).ok());
    }
    auto all = log.query({});
    QVERIFY(all.ok());
    QCOMPARE(all->size(), 10);
    QVERIFY(all->first().time < all->last().time); // newest last

    AuditQuery q;
    q.since = base.addSecs(3600 * 7);
    QCOMPARE(log.query(q)->size(), 3);
    q = {};
    q.account = QStringLiteral("alpha");
    QCOMPARE(log.query(q)->size(), 5);
    q.sessionId = QStringLiteral("s0");
    QCOMPARE(log.query(q)->size(), 2); // i = 0, 3
    q = {};
    q.action = actionName(Action::SessionStopped);
    QCOMPARE(log.query(q)->size(), 5);
    q = {};
    q.text = QStringLiteral("needle-4");
    auto found = log.query(q);
    QCOMPARE(found->size(), 1);
    QCOMPARE(found->first().detail.value(QStringLiteral("command")).toString(), QStringLiteral("echo Needle-4"));
    q = {};
    q.limit = 3;
    auto last3 = log.query(q);
    QCOMPARE(last3->size(), 3);
    QCOMPARE(last3->first().time, base.addSecs(3600 * 7));
    QCOMPARE(last3->last().time, base.addSecs(3600 * 9));
    q = {};
    q.text = QStringLiteral("'; DROP TABLE audit; --");
    QCOMPARE(log.query(q)->size(), 0);
    QCOMPARE(log.query({})->size(), 10);
}

void TestAuditLog::unknownActionRefused()
{
    QTemporaryDir dir;
    AuditLog log(dir.path());
    AuditEntry e;
    e.action = QStringLiteral("session.teleported");
    const auto r = log.append(e);
    QVERIFY(!r.ok());
    QCOMPARE(r.code(), ErrorCode::InvalidArgument);
    QCOMPARE(log.pendingCount(), 0);
}

void TestAuditLog::appendOnlyInTheFile()
{
    QTemporaryDir dir;
    AuditLog log(dir.path());
    log.setFlushDelay(0);
    QVERIFY(log.append(entryFor(Action::SessionKilled)).ok());
    auto db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("tamper"));
    db.setDatabaseName(log.path());
    QVERIFY(db.open());
    QSqlQuery del(db);
    QVERIFY(!del.exec(QStringLiteral("DELETE FROM audit")));
    QVERIFY(del.lastError().text().contains(QStringLiteral("append-only")));
    QSqlQuery upd(db);
    QVERIFY(!upd.exec(QStringLiteral("UPDATE audit SET action = 'x'")));
    del = QSqlQuery();
    upd = QSqlQuery();
    db.close();
    db = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("tamper"));
    QCOMPARE(log.query({})->size(), 1);
}

void TestAuditLog::batchedAppendsSurviveClose()
{
    QTemporaryDir dir;
    {
        AuditLog log(dir.path());
        log.setFlushDelay(60000); // never fires in this test: only the destructor writes
        for (int i = 0; i < 50; ++i)
            QVERIFY(log.append(entryFor(Action::FileDownloaded)).ok());
        QCOMPARE(log.pendingCount(), 50);
    }
    QCOMPARE(rowCount(QDir(dir.path()).filePath(AuditLog::fileName())), 50);

    // The timer path: rows appear without an explicit flush once it fires.
    AuditLog log(dir.path());
    log.setFlushDelay(10);
    QVERIFY(log.append(entryFor(Action::SessionPaused)).ok());
    QTRY_COMPARE(log.pendingCount(), 0);
    QCOMPARE(rowCount(log.path()), 51);
}

void TestAuditLog::twoInstancesOnOneFile()
{
    // The GUI and sandbarctl: two connections writing the same file at the same time.
    QTemporaryDir dir;
    constexpr int PerWriter = 150;
    AuditLog gui(dir.path());
    gui.setFlushDelay(0);
    std::atomic<int> cliFailures{0};
    std::thread cli([&] {
        AuditLog log(dir.path());
        log.setFlushDelay(0);
        for (int i = 0; i < PerWriter; ++i) {
            auto e = entryFor(Action::ExecRun);
            e.account = QStringLiteral("cli");
            if (!log.append(e).ok())
                ++cliFailures; // kept queued; the next append or the destructor writes it
        }
        for (int tries = 0; tries < 50 && log.pendingCount() > 0; ++tries)
            (void)log.flush();
    });
    int guiFailures = 0;
    for (int i = 0; i < PerWriter; ++i) {
        auto e = entryFor(Action::SessionCreated);
        e.account = QStringLiteral("gui");
        if (!gui.append(e).ok())
            ++guiFailures;
    }
    cli.join();
    for (int tries = 0; tries < 50 && gui.pendingCount() > 0; ++tries)
        (void)gui.flush();
    QCOMPARE(gui.pendingCount(), 0);
    AuditQuery q;
    q.account = QStringLiteral("gui");
    QCOMPARE(gui.query(q)->size(), PerWriter);
    q.account = QStringLiteral("cli");
    QCOMPARE(gui.query(q)->size(), PerWriter);
    qInfo("busy retries: gui %d, cli %d", guiFailures, cliFailures.load());
}

void TestAuditLog::twoProcessesOnOneFile()
{
    // A real second process, as sandbarctl beside the GUI: this executable in writer mode.
    QTemporaryDir dir;
    constexpr int PerWriter = 150;
    QProcess child;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TST_AUDIT_WRITER_DIR"), dir.path());
    env.insert(QStringLiteral("TST_AUDIT_WRITER_ROWS"), QString::number(PerWriter));
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(child.waitForStarted());
    {
        AuditLog gui(dir.path());
        gui.setFlushDelay(0);
        for (int i = 0; i < PerWriter; ++i) {
            auto e = entryFor(Action::SessionStopped);
            e.account = QStringLiteral("gui");
            (void)gui.append(e); // a busy write stays queued and goes with the next
        }
    }
    QVERIFY(child.waitForFinished(60000));
    QCOMPARE(child.exitCode(), 0);
    AuditLog log(dir.path());
    AuditQuery q;
    q.account = QStringLiteral("gui");
    QCOMPARE(log.query(q)->size(), PerWriter);
    q.account = QStringLiteral("cli");
    QCOMPARE(log.query(q)->size(), PerWriter);
}

void TestAuditLog::appendCost()
{
    // What the UI thread pays: one append written at once (the batching timer only
    // makes it cheaper). Reported, not asserted: the machine is shared.
    QTemporaryDir dir;
    AuditLog log(dir.path());
    log.setFlushDelay(0);
    constexpr int N = 300;
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < N; ++i)
        QVERIFY(log.append(entryFor(Action::ExecRun)).ok());
    const double unbatchedUs = double(t.nsecsElapsed()) / 1000.0 / N;
    log.setFlushDelay(200);
    t.restart();
    for (int i = 0; i < N; ++i)
        QVERIFY(log.append(entryFor(Action::ExecRun)).ok());
    const double queuedUs = double(t.nsecsElapsed()) / 1000.0 / N;
    t.restart();
    QVERIFY(log.flush().ok());
    const double flushMs = double(t.nsecsElapsed()) / 1e6;
    qInfo("append: %.1f us each written at once; %.1f us queued; %.2f ms to flush %d queued", unbatchedUs, queuedUs,
          flushMs, N);
    QCOMPARE(log.query({})->size(), 2 * N);
}

void TestAuditLog::corruptFileMovedAside_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::newRow("garbage") << QByteArray("this is not a database, only text\n").repeated(200);
    QTest::newRow("bad header") << QByteArray("SQLite format 2\0", 16) + QByteArray(4096, 'x');
    QTest::newRow("truncated header") << QByteArray("SQLite for");
    QByteArray zeros(8192, '\0');
    QTest::newRow("zeros") << zeros;
    QByteArray torn = QByteArray("SQLite format 3\0", 16) + QByteArray(16384, '\x5a');
    QTest::newRow("valid header, garbage pages") << torn;
}

void TestAuditLog::corruptFileMovedAside()
{
    QFETCH(QByteArray, content);
    QTemporaryDir dir;
    const QString path = QDir(dir.path()).filePath(AuditLog::fileName());
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
    }
    AuditLog log(dir.path());
    QVERIFY2(log.isOpen(), qPrintable(log.openError().message));
    QVERIFY(!log.openWarning().isEmpty());
    const QStringList aside = QDir(dir.path()).entryList({QStringLiteral("audit.sqlite.corrupt-*")}, QDir::Files);
    QCOMPARE(aside.size(), 1);
    QVERIFY(log.openWarning().contains(aside.first()));
    QFile moved(QDir(dir.path()).filePath(aside.first()));
    QVERIFY(moved.open(QIODevice::ReadOnly));
    QCOMPARE(moved.readAll(), content); // kept byte for byte, never deleted
    log.setFlushDelay(0);
    QVERIFY(log.append(entryFor(Action::SessionResumed)).ok());
    QCOMPARE(log.query({})->size(), 1);

    // A healthy file is left alone.
    AuditLog again(dir.path());
    QVERIFY(again.openWarning().isEmpty());
    QCOMPARE(again.query({})->size(), 1);
}

void TestAuditLog::truncatedDatabaseMovedAside()
{
    QTemporaryDir dir;
    const QString path = QDir(dir.path()).filePath(AuditLog::fileName());
    {
        AuditLog log(dir.path());
        for (int i = 0; i < 400; ++i)
            QVERIFY(log.append(entryFor(Action::FileUploaded)).ok());
    }
    QFile f(path);
    const qint64 full = f.size();
    QVERIFY(full > 8 * 4096);
    QVERIFY(f.resize(full / 3)); // a copy cut short
    AuditLog log(dir.path());
    QVERIFY(log.isOpen());
    QVERIFY2(!log.openWarning().isEmpty(), "a truncated file must not be written to");
    QCOMPARE(log.query({})->size(), 0);
    const QStringList aside = QDir(dir.path()).entryList({QStringLiteral("audit.sqlite.corrupt-*")}, QDir::Files);
    QCOMPARE(aside.size(), 1);
    QCOMPARE(QFileInfo(QDir(dir.path()).filePath(aside.first())).size(), full / 3);
}

void TestAuditLog::unwritableFolderRetried()
{
    QTemporaryDir dir;
    const QString cfg = QDir(dir.path()).filePath(QStringLiteral("cfg"));
    {
        QFile blocker(cfg); // a file where the folder should be
        QVERIFY(blocker.open(QIODevice::WriteOnly));
    }
    AuditLog log(cfg);
    QVERIFY(!log.isOpen());
    QVERIFY(log.openWarning().isEmpty()); // nothing was moved aside
    QVERIFY(!log.openError().message.isEmpty());
    log.setFlushDelay(0);
    QVERIFY(!log.append(entryFor(Action::SessionKilled)).ok());
    QCOMPARE(log.pendingCount(), 1); // kept, not lost
    QVERIFY(QFile::remove(cfg));
    QVERIFY(QDir().mkpath(cfg));
    QVERIFY(log.flush().ok());
    QVERIFY(log.isOpen());
    QCOMPARE(log.query({})->size(), 1);
    QCOMPARE(QDir(cfg).entryList({QStringLiteral("*.corrupt-*")}).size(), 0);
}

// Writer mode for twoProcessesOnOneFile: append rows as "cli" and exit.
static int runWriter(const QString &dir, int rows)
{
    AuditLog log(dir);
    if (!log.isOpen())
        return 3;
    log.setFlushDelay(0);
    for (int i = 0; i < rows; ++i) {
        auto e = entryFor(Action::ExecRun);
        e.account = QStringLiteral("cli");
        (void)log.append(e);
    }
    for (int tries = 0; tries < 100 && log.pendingCount() > 0; ++tries)
        (void)log.flush();
    return log.pendingCount() == 0 ? 0 : 4;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (qEnvironmentVariableIsSet("TST_AUDIT_WRITER_DIR"))
        return runWriter(qEnvironmentVariable("TST_AUDIT_WRITER_DIR"),
                         qEnvironmentVariableIntValue("TST_AUDIT_WRITER_ROWS"));
    TestAuditLog test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_audit_log.moc"
