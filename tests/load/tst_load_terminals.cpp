// Load held: ten terminals open at once on the app's terminal model (TerminalScreen and its
// Scrollback over real ptys), three of them flooding full-width lines. Memory stays within
// what the scrollback settings allow, and an idle terminal still echoes every key.

#include "LoadScenarios.h"
#include "TestSupport.h"

#include <QTest>
#include <cstdio>

using namespace sandbar;

class TstLoadTerminals : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void floodBoundedByScrollback();
};

void TstLoadTerminals::floodBoundedByScrollback()
{
    load::TerminalLoadOptions o;
    o.terminals = 10;
    o.flooding = 3;
    o.scrollbackLines = 2000;
    o.keystrokes = 40;
    o.timeoutMs = 60000;
    const auto r = load::runTerminalLoad(o, [](const QString &line) { qInfo("%s", qPrintable(line)); });
    const double p99 = load::percentile(r.keystrokeMs, 99);
    qInfo("keystrokes echoed %lld of %d, p50 %.2f ms, p99 %.2f ms", static_cast<long long>(r.keystrokeMs.size()),
          r.keystrokesTried, load::percentile(r.keystrokeMs, 50), p99);
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
    QVERIFY2(p99 < 1000, qPrintable(QString::number(p99))); // sanity, not a target
}

QTEST_GUILESS_MAIN(TstLoadTerminals)
#include "tst_load_terminals.moc"
