// Load held: ten terminals open at once on the app's terminal model (TerminalScreen and its
// Scrollback over real ptys), five of them flooding full-width lines. Memory stays within
// what the scrollback settings allow, and an idle terminal still echoes every key without
// waiting for the floods (they take turns, SliceScheduler): before that, its echo waited
// behind about two slices of every flood: p50 36 ms, p99 105 ms on a busy 2-core machine;
// since, p50 6 to 9 ms, p99 16 to 72 ms.

#include "LoadScenarios.h"
#include "TestSupport.h"
#include "terminal/TerminalScreen.h"

#include <QTest>
#include <cstdio>
#include <memory>
#include <vector>

using namespace sandbar;

class TstLoadTerminals : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void floodBoundedByScrollback();
    void floodsTakeTurns();
};

void TstLoadTerminals::floodBoundedByScrollback()
{
    load::TerminalLoadOptions o;
    o.terminals = 10;
    o.flooding = 5;
    o.scrollbackLines = 2000;
    o.keystrokes = 60;
    o.timeoutMs = 60000;
    const auto r = load::runTerminalLoad(o, [](const QString &line) { qInfo("%s", qPrintable(line)); });
    const double p50 = load::percentile(r.keystrokeMs, 50);
    const double p95 = load::percentile(r.keystrokeMs, 95);
    const double p99 = load::percentile(r.keystrokeMs, 99);
    qInfo("keystrokes echoed %lld of %d, p50 %.2f ms, p95 %.2f ms, p99 %.2f ms",
          static_cast<long long>(r.keystrokeMs.size()), r.keystrokesTried, p50, p95, p99);
    std::printf("{\"name\":\"load.idle_keystroke_ms\",\"value\":%.2f,\"unit\":\"ms\"}\n", p99);
    std::printf("{\"name\":\"load.terminals_rss_growth_mib\",\"value\":%.1f,\"unit\":\"MiB\",\"baseline\":%.1f}\n",
                r.rssGrowthMiB, r.rssBoundMiB);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QVERIFY(r.droppedMinLines >= o.scrollbackLines);
    QCOMPARE(r.keystrokesTried, o.keystrokes);
    QCOMPARE(int(r.keystrokeMs.size()), o.keystrokes); // every key came back
    QVERIFY2(r.rssGrowthMiB <= r.rssBoundMiB,
             qPrintable(QStringLiteral("RSS grew %1 MiB, the scrollback settings allow %2 MiB")
                            .arg(r.rssGrowthMiB)
                            .arg(r.rssBoundMiB)));
    // Bounds a busy 2-core CI machine meets with room to spare (the target, issue 13, is the
    // full-size run's, in sandbar-bench reliability). Of 60 keys the p99 is the slowest one,
    // which any scheduling hiccup of the machine sets: it is printed, not asserted.
    QVERIFY2(p50 <= 25, qPrintable(QStringLiteral("idle echo p50 %1 ms").arg(p50)));
    QVERIFY2(p95 <= 100, qPrintable(QStringLiteral("idle echo p95 %1 ms").arg(p95)));
}

void TstLoadTerminals::floodsTakeTurns()
{
    // Ten floods queued at once: a turn of the event loop parses the few bytes someone waits
    // for first, then only as many floods' slices as its time budget allows (not one of each,
    // which is how the echo above used to wait behind ten slices, twice), and the turns go
    // round, so that every flood moves on.
    QByteArray flood;
    while (flood.size() < 1024 * 1024)
        flood += QByteArray(118, 'x') + "\r\n";
    std::vector<std::unique_ptr<TerminalScreen>> floods;
    for (int i = 0; i < 10; ++i) {
        floods.push_back(std::make_unique<TerminalScreen>(120, 40));
        floods.back()->feed(flood);
    }
    TerminalScreen typing(120, 40);
    typing.feed("a"); // parsed at once: nothing was queued
    QCOMPARE(typing.pendingBytes(), qsizetype(0));
    typing.feed("b"); // queued behind the floods, but parsed before them
    QCOMPARE(typing.pendingBytes(), qsizetype(1));
    QCoreApplication::processEvents();
    QCOMPARE(typing.pendingBytes(), qsizetype(0));
    QCOMPARE(typing.screenText().left(2), QStringLiteral("ab"));
    const auto moved = [&] {
        int n = 0;
        for (const auto &f : floods)
            n += f->pendingBytes() < flood.size() ? 1 : 0;
        return n;
    };
    const int first = moved();
    QVERIFY2(first >= 1 && first < 10, qPrintable(QStringLiteral("%1 floods got a slice in one turn").arg(first)));
    for (int turn = 0; turn < 10 && moved() < 10; ++turn)
        QCoreApplication::processEvents();
    QCOMPARE(moved(), 10);
}

QTEST_GUILESS_MAIN(TstLoadTerminals)
#include "tst_load_terminals.moc"
