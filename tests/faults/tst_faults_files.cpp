// Damaged and contended files: a corrupt settings file (garbage bytes, cut short, values of
// the wrong type), a SQLite file another process holds locked (BEGIN EXCLUSIVE), and a
// SQLite file with a garbage header or damaged pages. Each gives a clear error or warning,
// keeps every byte that was there, and crashes nothing.
#include "FaultKit.h"
#include "audit/AuditLog.h"
#include "costs/CostLedger.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>

using namespace sandbar;
using namespace sandbar::test;
using namespace sandbar::test::faults;

namespace {

// The second process: holds an exclusive transaction on the file until stdin closes.
int holdExclusive(const char *path)
{
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"));
    db.setDatabaseName(QString::fromLocal8Bit(path));
    if (!db.open())
        return 2;
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("BEGIN EXCLUSIVE")))
        return 3;
    std::puts("held");
    std::fflush(stdout);
    while (std::fgetc(stdin) != EOF) {
    }
    (void)q.exec(QStringLiteral("ROLLBACK"));
    return 0;
}

QStringList asideCopies(const QString &dir, const QString &name)
{
    return QDir(dir).entryList({name + QStringLiteral(".corrupt-*")}, QDir::Files);
}

audit::AuditEntry row(const QString &session)
{
    return audit::makeEntry(audit::Action::ExecRun, QStringLiteral("acct"), QStringLiteral("docker"), session);
}

} // namespace

class TestFaultsFiles : public QObject
{
    Q_OBJECT
    QTemporaryDir m_root;

    // A holder of BEGIN EXCLUSIVE on path, started and holding when this returns.
    std::unique_ptr<QProcess> holdLock(const QString &path)
    {
        auto p = std::make_unique<QProcess>();
        p->start(QCoreApplication::applicationFilePath(), {QStringLiteral("--hold-exclusive"), path});
        if (!p->waitForStarted(10000))
            return nullptr;
        if (!waitUntil([&] { return p->canReadLine() || p->state() == QProcess::NotRunning; }, 20000))
            return nullptr;
        if (p->readLine().trimmed() != "held")
            return nullptr;
        return p;
    }

    static void release(QProcess &holder)
    {
        holder.closeWriteChannel();
        QVERIFY(holder.waitForFinished(10000));
        QCOMPARE(holder.exitCode(), 0);
    }

private Q_SLOTS:
    void corruptSettings_data()
    {
        QTest::addColumn<QByteArray>("damage");
        QTest::newRow("garbage bytes") << QByteArray("garbage");
        QTest::newRow("cut short") << QByteArray("truncated");
        QTest::newRow("wrong types") << QByteArray("types");
    }

    void corruptSettings()
    {
        QFETCH(QByteArray, damage);
        const QString cfg = m_root.filePath(QStringLiteral("settings-") + QString::fromLatin1(damage));
        const QString ini = cfg + QStringLiteral("/sandbar.ini");
        const QStringList add = {QStringLiteral("accounts"),
                                 QStringLiteral("add"),
                                 QStringLiteral("d1"),
                                 QStringLiteral("--provider"),
                                 QStringLiteral("docker"),
                                 QStringLiteral("--endpoint"),
                                 QStringLiteral("unix:///nonexistent/one.sock")};
        CtlRun r = runCtl(cfg, add, m_root.path());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QByteArray good = readAll(ini);
        QByteArray bad;
        if (damage == "garbage") {
            bad.resize(3000);
            QRandomGenerator rng(13);
            for (char &c : bad)
                c = char(rng.bounded(256));
        } else if (damage == "truncated") {
            // Cut in the middle of a key, as a crash during a non-atomic copy would.
            const qsizetype at = good.indexOf("settings");
            QVERIFY(at > 0);
            bad = good.left(at + 4);
        } else {
            bad = "[accounts]\nd1\\provider=@Variant(\\0\\0\\0\\x7f\\0\\0)\nd1\\created=yesterday\n"
                  "d1\\settings\\endpoint=unix:///keep/me.sock\n[store]\nversion=notanumber\n";
        }
        QVERIFY(writeAll(ini, bad));

        r = runCtl(cfg, {QStringLiteral("accounts"), QStringLiteral("list")}, m_root.path());
        QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.err.contains(QLatin1String("warning")) && r.err.contains(QLatin1String("sandbar.ini")),
                 qPrintable(r.err));
        // The damaged file is kept, byte for byte, where the warning says.
        const QStringList copies = asideCopies(cfg, QStringLiteral("sandbar.ini"));
        QCOMPARE(copies.size(), 1);
        QVERIFY2(r.err.contains(copies.first()), qPrintable(r.err));
        QCOMPARE(readAll(cfg + QLatin1Char('/') + copies.first()), bad);

        // Later starts, in later seconds (copies are stamped to the second), keep working with
        // what they have and keep no further copy: a file that was set aside is gone, and
        // values of the wrong type are already kept by the first copy. Wrong values are still
        // named, with the copy that keeps them.
        for (int start = 0; start < 2; ++start) {
            const QString second = QDateTime::currentDateTimeUtc().toString(QStringLiteral("HHmmss"));
            QVERIFY(waitUntil(
                [&] { return QDateTime::currentDateTimeUtc().toString(QStringLiteral("HHmmss")) != second; }, 5000));
            r = runCtl(cfg, {QStringLiteral("accounts"), QStringLiteral("list")}, m_root.path());
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            if (damage == "types")
                QVERIFY2(r.err.contains(QLatin1String("still has values")) && r.err.contains(copies.first()),
                         qPrintable(r.err));
            else
                QVERIFY2(!r.err.contains(QLatin1String("sandbar.ini")), qPrintable(r.err));
            QCOMPARE(asideCopies(cfg, QStringLiteral("sandbar.ini")), copies);
        }
        QCOMPARE(readAll(cfg + QLatin1Char('/') + copies.first()), bad);
    }

    void lockedSqlite()
    {
        const QString cfg = m_root.filePath(QStringLiteral("locked"));
        audit::AuditLog log(cfg);
        log.setFlushDelay(0);
        costs::CostLedger ledger(cfg);
        const QDate today = QDate::currentDate();
        for (int i = 0; i < 5; ++i)
            QVERIFY_RESULT(log.append(row(QStringLiteral("s%1").arg(i))));
        QVERIFY_RESULT(ledger.addSpend(QStringLiteral("acct"), today, 2.0));

        auto holder = holdLock(log.path());
        QVERIFY2(holder, "the second process did not take the lock");
        QElapsedTimer t;
        t.start();
        const VoidResult blocked = log.append(row(QStringLiteral("while-locked")));
        const qint64 waited = t.elapsed();
        QVERIFY(!blocked.ok());
        QCOMPARE(blocked.code(), ErrorCode::Unavailable);
        QVERIFY2(blocked.message().contains(QLatin1String("locked"), Qt::CaseInsensitive),
                 qPrintable(blocked.message()));
        // The busy timeout (250 ms while running) is waited out, and not much more.
        QVERIFY2(waited >= 200 && waited < 5000, qPrintable(QString::number(waited)));
        QCOMPARE(log.pendingCount(), 1);
        // Readers are not blocked: the committed rows, in process and through sandbarctl.
        auto page = audit::readAuditFile(log.path(), {});
        QVERIFY_RESULT(page);
        QCOMPARE(page->total, qint64(5));
        CtlRun r = runCtl(cfg, {QStringLiteral("--json"), QStringLiteral("audit")}, m_root.path());
        QVERIFY2(r.exitCode >= 0, "sandbarctl crashed or hung on a locked audit log");
        QVERIFY2(r.out.count(QLatin1String("\"action\"")) >= 5, qPrintable(r.out + r.err));
        release(*holder);
        QVERIFY_RESULT(log.flush());
        page = audit::readAuditFile(log.path(), {});
        QVERIFY_RESULT(page);
        QCOMPARE(page->total, qint64(6));

        // The ledger the same way.
        holder = holdLock(ledger.path());
        QVERIFY(holder);
        t.restart();
        const VoidResult spend = ledger.addSpend(QStringLiteral("acct"), today, 1.0);
        QVERIFY(!spend.ok());
        QVERIFY2(spend.message().contains(QLatin1String("locked"), Qt::CaseInsensitive), qPrintable(spend.message()));
        QVERIFY2(t.elapsed() < 15000, qPrintable(QString::number(t.elapsed())));
        auto sum = ledger.spend(QStringLiteral("acct"), today);
        QVERIFY_RESULT(sum);
        QCOMPARE(*sum, 2.0);
        release(*holder);
        QVERIFY_RESULT(ledger.addSpend(QStringLiteral("acct"), today, 1.0));
        QCOMPARE(*ledger.spend(QStringLiteral("acct"), today), 3.0);
    }

    void corruptSqlite()
    {
        // Garbage where the header should be: moved aside byte for byte, a new file started,
        // sandbarctl says where the old one went.
        const QString cfg = m_root.filePath(QStringLiteral("corrupt"));
        QDir().mkpath(cfg);
        const QByteArray garbage = QByteArray("this is not a database\n").repeated(300);
        QVERIFY(writeAll(cfg + QStringLiteral("/audit.sqlite"), garbage));
        QVERIFY(writeAll(cfg + QStringLiteral("/ledger.sqlite"), garbage));
        CtlRun r = runCtl(cfg, {QStringLiteral("audit")}, m_root.path());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("moved to")), qPrintable(r.err));
        const QStringList aside = asideCopies(cfg, QStringLiteral("audit.sqlite"));
        QCOMPARE(aside.size(), 1);
        QCOMPARE(readAll(cfg + QLatin1Char('/') + aside.first()), garbage);
        r = runCtl(cfg, {QStringLiteral("budget")}, m_root.path());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(asideCopies(cfg, QStringLiteral("ledger.sqlite")).size(), 1);

        // Damaged pages after committed rows: the damaged file is kept whole, never
        // deleted or rewritten, and the log goes on in a new one.
        const QString cfg2 = m_root.filePath(QStringLiteral("damaged"));
        {
            audit::AuditLog log(cfg2);
            log.setFlushDelay(0);
            for (int i = 0; i < 200; ++i)
                QVERIFY_RESULT(log.append(row(QStringLiteral("committed-%1").arg(i))));
        }
        const QString path = cfg2 + QStringLiteral("/audit.sqlite");
        QByteArray bytes = readAll(path);
        QVERIFY(bytes.size() > 3 * 4096);
        for (qsizetype i = 4096 + 8; i < 3 * 4096; ++i)
            bytes[i] = char(0xA5);
        QVERIFY(writeAll(path, bytes));
        audit::AuditLog reopened(cfg2);
        QVERIFY(reopened.isOpen());
        QVERIFY2(!reopened.openWarning().isEmpty(), "a damaged log was opened without a word");
        const QStringList kept = asideCopies(cfg2, QStringLiteral("audit.sqlite"));
        QCOMPARE(kept.size(), 1);
        QCOMPARE(readAll(cfg2 + QLatin1Char('/') + kept.first()), bytes);
        reopened.setFlushDelay(0);
        QVERIFY_RESULT(reopened.append(row(QStringLiteral("after"))));
    }
};

int main(int argc, char **argv)
{
    if (argc == 3 && qstrcmp(argv[1], "--hold-exclusive") == 0) {
        QCoreApplication app(argc, argv);
        return holdExclusive(argv[2]);
    }
    QCoreApplication app(argc, argv);
    TestFaultsFiles t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_faults_files.moc"
