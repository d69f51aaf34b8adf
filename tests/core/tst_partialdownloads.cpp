// Downloads staged beside their target, moved into place when complete, and a journal
// that lets the next start remove what a killed app left half-done.

#include "TestSupport.h"
#include "providers/PartialDownloads.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;

namespace {
void writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

QJsonArray journal(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).array() : QJsonArray();
}

// The pid of a process that has ended (and been reaped).
qint64 deadPid()
{
    QProcess p;
    p.start(QStringLiteral("true"), QStringList{});
    p.waitForFinished();
    return p.processId() ? p.processId() : 999999;
}
} // namespace

class TstPartialDownloads : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void beginAndEndKeepTheJournal()
    {
        QTemporaryDir target, state;
        const PartialDownloads partials(PartialDownloads::journalIn(state.path()));
        auto staging = partials.begin(target.path());
        QVERIFY_RESULT(staging);
        QVERIFY(QFileInfo(*staging).isDir());
        QVERIFY(QFileInfo(*staging).fileName().startsWith(QLatin1String(PartialDownloads::kPrefix)));
        QCOMPARE(QFileInfo(*staging).absolutePath(), QFileInfo(target.path()).absoluteFilePath());
        const QJsonArray records = journal(PartialDownloads::journalIn(state.path()));
        QCOMPARE(records.size(), 1);
        QCOMPARE(records.at(0).toObject().value(QStringLiteral("path")).toString(), *staging);
        writeFile(QDir(*staging).filePath(QStringLiteral("half/done.bin")), "partial");
        partials.end(*staging);
        QVERIFY(!QFileInfo::exists(*staging));
        QCOMPARE(journal(PartialDownloads::journalIn(state.path())).size(), 0);
    }

    void unwritableTargetIsAClearError()
    {
        const PartialDownloads partials(QString{});
        auto staging = partials.begin(QStringLiteral("/nonexistent/sandbar/target"));
        QVERIFY(!staging.ok());
        QVERIFY2(staging.message().contains(QStringLiteral("/nonexistent/sandbar/target")),
                 qPrintable(staging.message()));
    }

    // What a killed app leaves: a staging folder and its record with a pid that is gone.
    void sweepRemovesWhatADeadProcessLeft()
    {
        QTemporaryDir target, state;
        const QString journalPath = PartialDownloads::journalIn(state.path());
        const PartialDownloads partials(journalPath);
        auto live = partials.begin(target.path()); // this process: alive, kept
        QVERIFY_RESULT(live);
        const QString dead = QDir(target.path()).filePath(QStringLiteral(".sandbar-partial-deadbeef0001"));
        writeFile(QDir(dead).filePath(QStringLiteral("big.iso")), QByteArray(4096, 'x'));
        // A journal entry naming something that is not a staging folder is dropped, never removed.
        const QString precious = QDir(target.path()).filePath(QStringLiteral("precious"));
        writeFile(QDir(precious).filePath(QStringLiteral("keep.txt")), "keep");
        QJsonArray records = journal(journalPath);
        const qint64 gone = deadPid();
        records.append(QJsonObject{{QStringLiteral("path"), dead}, {QStringLiteral("pid"), gone}});
        records.append(QJsonObject{{QStringLiteral("path"), precious}, {QStringLiteral("pid"), gone}});
        QFile f(journalPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(records).toJson());
        f.close();

        QCOMPARE(partials.sweep(), 1);
        QVERIFY(!QFileInfo::exists(dead));
        QCOMPARE(readFile(QDir(precious).filePath(QStringLiteral("keep.txt"))), QByteArray("keep"));
        QVERIFY(QFileInfo(*live).isDir());
        const QJsonArray after = journal(journalPath);
        QCOMPARE(after.size(), 1);
        QCOMPARE(after.at(0).toObject().value(QStringLiteral("path")).toString(), *live);
        partials.end(*live);
    }

    void corruptJournalLosesNothing()
    {
        QTemporaryDir target, state;
        const QString journalPath = PartialDownloads::journalIn(state.path());
        writeFile(journalPath, "{not json");
        const PartialDownloads partials(journalPath);
        QCOMPARE(partials.sweep(), 0);
        auto staging = partials.begin(target.path());
        QVERIFY_RESULT(staging);
        QCOMPARE(journal(journalPath).size(), 1);
        partials.end(*staging);
    }

    void fileReplacesFile()
    {
        QTemporaryDir dir;
        const QString staged = dir.filePath(QStringLiteral("s/report.txt"));
        const QString final = dir.filePath(QStringLiteral("report.txt"));
        writeFile(staged, "new");
        writeFile(final, "old");
        QVERIFY_RESULT(PartialDownloads::moveIntoPlace(staged, final));
        QCOMPARE(readFile(final), QByteArray("new"));
        QVERIFY(!QFileInfo::exists(staged));
    }

    void folderMergesIntoFolder()
    {
        QTemporaryDir dir;
        const QString staged = dir.filePath(QStringLiteral("s/proj"));
        const QString final = dir.filePath(QStringLiteral("proj"));
        writeFile(staged + QStringLiteral("/a.txt"), "a-new");
        writeFile(staged + QStringLiteral("/sub/b.txt"), "b-new");
        writeFile(final + QStringLiteral("/a.txt"), "a-old");
        writeFile(final + QStringLiteral("/mine.txt"), "untouched");
        QVERIFY_RESULT(PartialDownloads::moveIntoPlace(staged, final));
        QCOMPARE(readFile(final + QStringLiteral("/a.txt")), QByteArray("a-new"));
        QCOMPARE(readFile(final + QStringLiteral("/sub/b.txt")), QByteArray("b-new"));
        QCOMPARE(readFile(final + QStringLiteral("/mine.txt")), QByteArray("untouched"));
    }

    void kindConflictLeavesTheExistingOne()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("s/x/inner.txt")), "folder");
        writeFile(dir.filePath(QStringLiteral("x")), "a file");
        auto r =
            PartialDownloads::moveIntoPlace(dir.filePath(QStringLiteral("s/x")), dir.filePath(QStringLiteral("x")));
        QVERIFY(!r.ok());
        QCOMPARE(r.code(), ErrorCode::Conflict);
        QCOMPARE(readFile(dir.filePath(QStringLiteral("x"))), QByteArray("a file"));

        writeFile(dir.filePath(QStringLiteral("s/y")), "a file");
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("y/keep"))));
        r = PartialDownloads::moveIntoPlace(dir.filePath(QStringLiteral("s/y")), dir.filePath(QStringLiteral("y")));
        QCOMPARE(r.code(), ErrorCode::Conflict);
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("y/keep"))).isDir());
    }
};

QTEST_GUILESS_MAIN(TstPartialDownloads)
#include "tst_partialdownloads.moc"
