// Removing a Local session with a large workspace (20,000 small files) leaves the caller's
// thread free: a 5 ms heartbeat keeps ticking, and the session is gone from the listing at once.
#include "TestSupport.h"
#include "providers/local/LocalProvider.h"
#include "providers/local/SessionStore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace sandbar;
using namespace sandbar::local;

class TestLocalRemove final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void largeWorkspace()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        AccountConfig account;
        account.name = QStringLiteral("local");
        account.provider = QStringLiteral("local");
        account.dataDir = dir.path();
        LocalProvider provider(account, LocalEnvironment{});

        // A session that has ended (no process), as a restart finds it.
        SessionRecord rec;
        rec.id = QStringLiteral("big1");
        rec.name = QStringLiteral("big");
        rec.account = account.name;
        rec.created = QDateTime::currentDateTimeUtc();
        rec.dir = dir.path() + QStringLiteral("/sessions/big1");
        const QString workspace = rec.dir + QStringLiteral("/workspace");
        for (int d = 0; d < 100; ++d) {
            const QString sub = workspace + QStringLiteral("/d%1").arg(d);
            QVERIFY(QDir().mkpath(sub));
            for (int f = 0; f < 200; ++f) {
                QFile file(sub + QStringLiteral("/f%1.txt").arg(f));
                QVERIFY(file.open(QIODevice::WriteOnly));
                file.write("x");
            }
        }
        const auto saved = saveRecord(rec);
        QVERIFY_RESULT(saved);

        QTimer beat;
        beat.setTimerType(Qt::PreciseTimer);
        beat.setInterval(5);
        QElapsedTimer since;
        qint64 maxGap = 0;
        connect(&beat, &QTimer::timeout, this, [&] { maxGap = std::max(maxGap, since.restart()); });
        since.start();
        beat.start();

        QSignalSpy removed(&provider, &Provider::sessionRemoved);
        std::optional<VoidResult> done;
        QObject ctx;
        provider.remove(rec.id, Callback<void>(&ctx, [&](VoidResult r) { done.emplace(std::move(r)); }));
        QVERIFY(!QFileInfo::exists(rec.dir)); // out of the listing before the deletion ends
        QTRY_VERIFY_WITH_TIMEOUT(done.has_value(), 60000);
        maxGap = std::max(maxGap, since.elapsed());
        QVERIFY_RESULT(*done);
        QCOMPARE(removed.count(), 1);
        QVERIFY(!QFileInfo::exists(rec.dir));
        QVERIFY(QDir(dir.path() + QStringLiteral("/sessions"))
                    .isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot));
        QVERIFY2(maxGap < 200, qPrintable(QStringLiteral("stalled %1 ms").arg(maxGap)));
    }

    // A deletion cut short (the app quit or crashed mid-way) is finished at the next start;
    // sessions are left alone.
    void leftoversDeletedOnStart()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString sessions = dir.path() + QStringLiteral("/sessions");
        const QString leftover = sessions + QStringLiteral("/.removing-old1");
        QVERIFY(QDir().mkpath(leftover + QStringLiteral("/workspace/sub")));
        QFile f(leftover + QStringLiteral("/workspace/sub/file"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("left");
        f.close();
        QVERIFY(QDir().mkpath(sessions + QStringLiteral("/keep1/workspace")));
        AccountConfig account;
        account.name = QStringLiteral("local");
        account.provider = QStringLiteral("local");
        account.dataDir = dir.path();
        LocalProvider provider(account, LocalEnvironment{});
        QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(leftover), 10000);
        QVERIFY(QFileInfo::exists(sessions + QStringLiteral("/keep1/workspace")));
    }
};

QTEST_GUILESS_MAIN(TestLocalRemove)
#include "tst_localremove.moc"
