#include "ManualClock.h"
#include "RegistryFixture.h"
#include "metrics/StatsCollector.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace sandbar;
using namespace sandbar::metrics;
using namespace sandbar::test;

namespace {

// A stream whose samples the test pushes by hand.
class ManualStream final : public StatsStream
{
public:
    void start() override { started = true; }
    void stop() override { stopped = true; }
    void push(double cpu)
    {
        StatsSample s;
        s.time = QDateTime::currentDateTimeUtc();
        s.cpuPercent = cpu;
        Q_EMIT sample(s);
    }
    bool started = false;
    bool stopped = false;
};

StatsSample sampleNow(double cpu)
{
    StatsSample s;
    s.time = QDateTime::currentDateTimeUtc();
    s.cpuPercent = cpu;
    return s;
}

// Fast periods so that the test runs in a few seconds; the logic is the same as at 2 s.
CollectorOptions fast()
{
    CollectorOptions o;
    o.listPeriodMs = 100;
    o.detailPeriodMs = 50;
    o.firstBackoffMs = 80;
    o.maxBackoffMs = 640;
    o.requestTimeoutMs = 300;
    return o;
}

} // namespace

class TestStatsCollector : public QObject
{
    Q_OBJECT

    std::unique_ptr<RegistryFixture> fx;
    QHash<QString, int> calls; // stats() calls per session id

    QStringList makeSessions(const QString &account, int n)
    {
        QStringList refs;
        auto *p = fx->provider(account);
        for (int i = 0; i < n; ++i) {
            auto s = await<SessionInfo>([&](Callback<SessionInfo> cb) { p->create(CreateSpec{}, cb); });
            refs << s->ref();
        }
        fx->registry->refresh();
        QElapsedTimer t;
        t.start();
        while (!listed(refs)) {
            if (t.elapsed() > 5000)
                qFatal("the registry did not list the sessions");
            QTest::qWait(10);
        }
        return refs;
    }

    // Answers every stats call at once with a fresh sample.
    void answering(const QString &account)
    {
        fx->provider(account)->statsHook = [this](const QString &id, Callback<StatsSample> done) {
            ++calls[id];
            done(sampleNow(42));
        };
    }

    bool listed(const QStringList &refs) const
    {
        QSet<QString> have;
        for (const auto &s : fx->registry->sessions())
            have.insert(s.ref());
        for (const auto &r : refs) {
            if (!have.contains(r))
                return false;
        }
        return true;
    }

    static QString idOf(const QString &ref) { return ref.section(QLatin1Char('/'), 1); }

private Q_SLOTS:
    void init()
    {
        fx = std::make_unique<RegistryFixture>();
        calls.clear();
        QVERIFY_RESULT(fx->addAccount(QStringLiteral("a")));
        QVERIFY_RESULT(fx->addAccount(QStringLiteral("b")));
        // Statistics to sample, answered by each test's hook.
        for (const char *account : {"a", "b"}) {
            MemoryProvider *p = fx->provider(QLatin1String(account));
            p->offer(p->descriptor().capabilities | Capability::StatsCpu | Capability::StatsMemory);
        }
    }
    void cleanup() { fx.reset(); }

    // Only the sessions the UI names are sampled; the rest cost nothing.
    void samplesOnlyWhatIsOfInterest()
    {
        const QStringList refs = makeSessions(QStringLiteral("a"), 3);
        answering(QStringLiteral("a"));
        StatsCollector c(*fx->registry, fast());
        c.setListInterest({refs[0]});
        QTRY_VERIFY_WITH_TIMEOUT(calls.value(idOf(refs[0])) >= 3, 5000);
        QCOMPARE(calls.value(idOf(refs[1])), 0);
        QCOMPARE(calls.value(idOf(refs[2])), 0);
        QVERIFY(c.find(refs[0]));
        QVERIFY(!c.find(refs[1]));
        QVERIFY(c.find(refs[0])->history().has({Metric::Cpu}));
        QCOMPARE(c.find(refs[0])->state(), SessionStats::State::Polling);
        // Interest withdrawn: sampling stops. refs[1], sampled from now on at the same period,
        // is the marker: three of its samples are three periods in which refs[0] was not asked
        // (beyond a request already due when the interest went).
        c.setListInterest({refs[1]});
        const int before = calls.value(idOf(refs[0]));
        QTRY_VERIFY_WITH_TIMEOUT(calls.value(idOf(refs[1])) >= 3, 10000);
        QVERIFY2(calls.value(idOf(refs[0])) <= before + 1,
                 qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(calls.value(idOf(refs[0])))));
    }

    // An open Stats tab samples at the detail period, faster than a list row.
    void detailPeriodIsFaster()
    {
        const QStringList refs = makeSessions(QStringLiteral("a"), 2);
        answering(QStringLiteral("a"));
        CollectorOptions o = fast();
        o.listPeriodMs = 400;
        o.detailPeriodMs = 50;
        StatsCollector c(*fx->registry, o);
        c.setListInterest(refs);
        c.addDetailInterest(refs[1]);
        QTRY_VERIFY_WITH_TIMEOUT(calls.value(idOf(refs[1])) >= 16, 10000);
        const int list = calls.value(idOf(refs[0]));
        QVERIFY2(list <= 5, qPrintable(QString::number(list)));
        QVERIFY(list >= 1);
        // Counted interest: two views, two removes.
        c.addDetailInterest(refs[1]);
        c.removeDetailInterest(refs[1]);
        // Still one view: detail periods go on, several within one list period of refs[0].
        int n = calls.value(idOf(refs[1]));
        int m = calls.value(idOf(refs[0]));
        QTRY_VERIFY_WITH_TIMEOUT(calls.value(idOf(refs[1])) - n >= 6, 10000);
        QVERIFY2(calls.value(idOf(refs[0])) - m <= 2, qPrintable(QString::number(calls.value(idOf(refs[0])) - m)));
        c.removeDetailInterest(refs[1]);
        // No view left: refs[1] falls back to the list period; refs[0], at that period all
        // along, is the marker (two list periods, about sixteen detail ones).
        n = calls.value(idOf(refs[1]));
        m = calls.value(idOf(refs[0]));
        QTRY_VERIFY_WITH_TIMEOUT(calls.value(idOf(refs[0])) - m >= 2, 10000);
        QVERIFY2(calls.value(idOf(refs[1])) - n <= 4, qPrintable(QString::number(calls.value(idOf(refs[1])) - n)));
    }

    // At most four requests in flight per account, and a stuck account delays only itself.
    void slowAccountDelaysOnlyItself()
    {
        const QStringList slow = makeSessions(QStringLiteral("a"), 8);
        const QStringList quick = makeSessions(QStringLiteral("b"), 2);
        int slowCalls = 0;
        fx->provider(QStringLiteral("a"))->statsHook = [&slowCalls](const QString &, Callback<StatsSample>) {
            ++slowCalls; // never answers
        };
        answering(QStringLiteral("b"));
        CollectorOptions o = fast();
        o.requestTimeoutMs = 60000;
        StatsCollector c(*fx->registry, o);
        c.setListInterest(slow + quick);
        QTRY_VERIFY_WITH_TIMEOUT(calls.value(idOf(quick[0])) >= 5 && calls.value(idOf(quick[1])) >= 5, 5000);
        QCOMPARE(slowCalls, 4);
        QCOMPARE(c.inFlight(QStringLiteral("a")), 4);
        QVERIFY(c.inFlight(QStringLiteral("b")) <= 4);
    }

    // A request that never answers times out, frees its slot and backs off.
    void unansweredRequestTimesOut()
    {
        const QStringList refs = makeSessions(QStringLiteral("a"), 1);
        QList<Callback<StatsSample>> held;
        fx->provider(QStringLiteral("a"))->statsHook = [&held](const QString &, Callback<StatsSample> done) {
            held << done;
        };
        StatsCollector c(*fx->registry, fast());
        c.setListInterest(refs);
        QTRY_COMPARE_WITH_TIMEOUT(c.find(refs[0])->state(), SessionStats::State::BackingOff, 5000);
        QCOMPARE(c.find(refs[0])->lastError()->code, ErrorCode::Timeout);
        QCOMPARE(c.inFlight(QStringLiteral("a")), 0);
        // The late answer is dropped, not appended.
        held.first()(sampleNow(1));
        QCOMPARE(c.find(refs[0])->history().sampleCount(), 0);
    }

    // A failing session backs off 2, 4, ... up to the cap, and says why; success resets.
    // Time is the collector's ManualClock: each back-off is stepped through exactly, a
    // millisecond short of it (nothing is asked) and then on it (the retry), and
    // sampleDue() looks at once instead of waiting for the collector's timer.
    void failingSessionBacksOff()
    {
        const QStringList refs = makeSessions(QStringLiteral("a"), 1);
        test::ManualClock clock;
        QList<qint64> times; // on the collector's clock
        bool failing = true;
        fx->provider(QStringLiteral("a"))->statsHook = [&](const QString &, Callback<StatsSample> done) {
            times << clock.monotonicMs();
            if (failing)
                done(makeError(ErrorCode::Unavailable, QStringLiteral("engine hiccup")));
            else
                done(sampleNow(3));
        };
        StatsCollector c(*fx->registry, fast(), clock);
        QSignalSpy status(c.stats(refs[0]), &SessionStats::statusChanged);
        c.setListInterest(refs);
        c.sampleDue(); // a session that just became of interest is due at once
        QCOMPARE(times.size(), 1);
        SessionStats *st = c.find(refs[0]);
        QCOMPARE(st->state(), SessionStats::State::BackingOff);
        QCOMPARE(st->lastError()->message, QStringLiteral("engine hiccup"));
        QVERIFY(st->nextRetry().isValid());
        QVERIFY(status.count() >= 1);
        // Gaps: 80, 160, 320, 640, 640 (the cap); nextRetry says each on the wall clock.
        const QList<int> expected{80, 160, 320, 640, 640};
        for (int i = 0; i < expected.size(); ++i) {
            QCOMPARE(st->state(), SessionStats::State::BackingOff);
            QCOMPARE(st->nextRetry(), clock.currentDateTimeUtc().addMSecs(expected[i]));
            clock.advance(expected[i] - 1);
            c.sampleDue();
            QVERIFY2(times.size() == i + 1, qPrintable(QStringLiteral("retry %1 came early").arg(i)));
            clock.advance(1);
            c.sampleDue();
            QCOMPARE(times.size(), i + 2);
            QCOMPARE(times[i + 1] - times[i], qint64(expected[i]));
        }
        failing = false;
        clock.advance(640);
        c.sampleDue();
        QCOMPARE(st->state(), SessionStats::State::Polling);
        QVERIFY(!st->lastError());
        // Back at the list period (100 ms), three times.
        const int n = times.size();
        for (int k = 1; k <= 3; ++k) {
            clock.advance(99);
            c.sampleDue();
            QCOMPARE(times.size(), n + k - 1);
            clock.advance(1);
            c.sampleDue();
            QCOMPARE(times.size(), n + k);
        }
    }

    // A stopped session is not sampled but keeps its history; a removed one is freed.
    void stoppedKeepsHistoryRemovedIsFreed()
    {
        // refs[1] keeps running: the marker for periods in which the stopped one is not asked.
        const QStringList refs = makeSessions(QStringLiteral("a"), 2);
        answering(QStringLiteral("a"));
        StatsCollector c(*fx->registry, fast());
        c.setListInterest(refs);
        QPointer<SessionStats> st = c.find(refs[0]);
        QTRY_VERIFY_WITH_TIMEOUT(st->history().sampleCount() >= 2, 5000);
        auto *p = fx->provider(QStringLiteral("a"));
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { p->stop(idOf(refs[0]), cb); }));
        fx->registry->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(st->state(), SessionStats::State::Stopped, 5000);
        const int n = calls.value(idOf(refs[0]));
        const int samples = st->history().sampleCount();
        const int marker = calls.value(idOf(refs[1]));
        QTRY_VERIFY_WITH_TIMEOUT(calls.value(idOf(refs[1])) >= marker + 3, 10000);
        // At most a request already due when it stopped.
        QVERIFY2(calls.value(idOf(refs[0])) <= n + 1, qPrintable(QString::number(calls.value(idOf(refs[0])) - n)));
        QVERIFY(st->history().sampleCount() <= samples + 1);
        QVERIFY(samples >= 2);
        // Started again: sampling resumes into the same history.
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { p->resume(idOf(refs[0]), cb); }));
        fx->registry->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(st->history().sampleCount() > samples, 5000);

        QSignalSpy removed(&c, &StatsCollector::statsRemoved);
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { p->remove(idOf(refs[0]), cb); }));
        fx->registry->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(removed.count(), 1, 5000);
        QCOMPARE(removed.first().first().toString(), refs[0]);
        QVERIFY(st.isNull());
        QVERIFY(!c.find(refs[0]));
    }

    // Where the provider streams, an open Stats tab uses the stream and polling stops for
    // that session; the list keeps one-shot samples for the others; closing the tab stops it.
    void openTabStreamsListPolls()
    {
        const QStringList refs = makeSessions(QStringLiteral("a"), 2);
        answering(QStringLiteral("a"));
        auto *p = fx->provider(QStringLiteral("a"));
        p->offer(Capabilities(Capability::StatsCpu | Capability::StatsStream));
        QList<QPointer<ManualStream>> streams;
        p->streamHook = [&streams](const QString &) {
            auto s = std::make_unique<ManualStream>();
            streams << s.get();
            return std::unique_ptr<StatsStream>(std::move(s));
        };
        fx->registry->refresh(); // the collector learns the capabilities at reconcile
        StatsCollector c(*fx->registry, fast());
        c.setListInterest(refs);
        c.addDetailInterest(refs[0]);
        QTRY_COMPARE_WITH_TIMEOUT(streams.size(), 1, 5000);
        QVERIFY(streams[0]->started);
        SessionStats *st = c.find(refs[0]);
        QCOMPARE(st->state(), SessionStats::State::Streaming);
        // Three polls of the list's other session: periods in which refs[0] was not polled.
        QTRY_VERIFY_WITH_TIMEOUT(calls.value(idOf(refs[1])) >= 3, 10000);
        QCOMPARE(calls.value(idOf(refs[0])), 0); // streamed, not polled
        QVERIFY(calls.value(idOf(refs[1])) >= 1);
        streams[0]->push(77);
        QCOMPARE(st->history().last({Metric::Cpu})->avg, 77.0f);

        c.removeDetailInterest(refs[0]);
        QTRY_VERIFY_WITH_TIMEOUT(streams[0].isNull() || streams[0]->stopped, 2000);
        QTRY_VERIFY_WITH_TIMEOUT(calls.value(idOf(refs[0])) >= 1, 5000); // the list row polls again
    }

    // A stream that fails falls back to polling after the back-off, and says why.
    void failingStreamBacksOff()
    {
        const QStringList refs = makeSessions(QStringLiteral("a"), 1);
        answering(QStringLiteral("a"));
        auto *p = fx->provider(QStringLiteral("a"));
        p->offer(Capabilities(Capability::StatsCpu | Capability::StatsStream));
        int opened = 0;
        p->streamHook = [&opened](const QString &) {
            ++opened;
            auto s = std::make_unique<ManualStream>();
            auto *raw = s.get();
            QTimer::singleShot(0, raw, [raw] {
                Q_EMIT raw->errorOccurred(makeError(ErrorCode::Unavailable, QStringLiteral("stream broke")));
            });
            return std::unique_ptr<StatsStream>(std::move(s));
        };
        fx->registry->refresh();
        test::ManualClock clock;
        StatsCollector c(*fx->registry, fast(), clock);
        c.addDetailInterest(refs[0]);
        SessionStats *st = c.find(refs[0]);
        // The stream's error arrives from the event loop; the clock does not move meanwhile.
        QTRY_COMPARE_WITH_TIMEOUT(st->state(), SessionStats::State::BackingOff, 5000);
        QCOMPARE(st->lastError()->message, QStringLiteral("stream broke"));
        QCOMPARE(opened, 1);
        // Tried again after the back-off (80 ms on the clock), not before.
        clock.advance(79);
        c.sampleDue();
        QCOMPARE(opened, 1);
        clock.advance(1);
        c.sampleDue();
        QCOMPARE(opened, 2);
    }

    // Docker lists no limits and no GPUs: the collector asks info() once and the session's
    // facts (the CPU limit line, whether to read GPUs) come from there.
    void limitsAndGpusFromInfo()
    {
        auto *p = fx->provider(QStringLiteral("a"));
        p->listWithoutLimits = true;
        CreateSpec spec;
        spec.cpus = 1.5;
        spec.memoryBytes = qint64(256) << 20;
        spec.gpus = 1;
        spec.gpuUuids = {QStringLiteral("GPU-1")};
        auto made = await<SessionInfo>([&](Callback<SessionInfo> cb) { p->create(spec, cb); });
        QVERIFY_RESULT(made);
        fx->registry->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!fx->registry->sessions().isEmpty(), 5000);
        QVERIFY(!fx->registry->sessions().first().cpus);
        answering(QStringLiteral("a"));
        StatsCollector c(*fx->registry, fast());
        int asked = 0;
        c.setGpuSampler(
            [&asked](Provider *, const SessionInfo &s, QObject *, std::function<void(QList<GpuReading>)> done) {
                ++asked;
                QCOMPARE(s.gpuUuids, QStringList{QStringLiteral("GPU-1")});
                done({});
            });
        c.setListInterest({made->ref()});
        SessionStats *st = c.find(made->ref());
        QTRY_VERIFY_WITH_TIMEOUT(st->session().cpus.has_value(), 5000);
        QCOMPARE(*st->session().cpus, 1.5);
        QCOMPARE(*st->session().memoryBytes, qint64(256) << 20);
        QTRY_VERIFY_WITH_TIMEOUT(asked >= 1, 5000);
        // A later listing (without limits) does not take them away: waited for until the
        // listing is done and the collector has sampled after it.
        // (The listing's own answer says when it is done: a fake account lists within the
        // millisecond, so its refresh time may not change.)
        const int sampled = calls.value(made->id);
        bool listed = false;
        fx->registry->refreshAccount(
            QStringLiteral("a"),
            Callback<QList<SessionInfo>>(this, [&listed](const Result<QList<SessionInfo>> &) { listed = true; }));
        QTRY_VERIFY_WITH_TIMEOUT(listed && calls.value(made->id) > sampled, 10000);
        QCOMPARE(st->session().cpus.value_or(0), 1.5);
        p->listWithoutLimits = false;
    }

    // Sessions with GPUs get the GPU sampler's readings merged into their samples.
    void gpuSamplerMerges()
    {
        auto *p = fx->provider(QStringLiteral("a"));
        CreateSpec spec;
        spec.gpus = 1;
        auto made = await<SessionInfo>([&](Callback<SessionInfo> cb) { p->create(spec, cb); });
        QVERIFY_RESULT(made);
        fx->registry->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!fx->registry->sessions().isEmpty(), 5000);
        answering(QStringLiteral("a"));
        StatsCollector c(*fx->registry, fast());
        int asked = 0;
        c.setGpuSampler(
            [&asked](Provider *, const SessionInfo &, QObject *context, std::function<void(QList<GpuReading>)> done) {
                ++asked;
                GpuReading g;
                g.index = 0;
                g.utilizationPercent = 64;
                QTimer::singleShot(0, context, [done, g] { done({g}); });
            });
        const QString ref = fx->registry->sessions().first().ref();
        c.setListInterest({ref});
        QTRY_VERIFY_WITH_TIMEOUT(c.find(ref)->history().has({Metric::GpuUtilization, 0}), 5000);
        QVERIFY(asked >= 1);
        QCOMPARE(c.find(ref)->history().last({Metric::Cpu})->avg, 42.0f);
    }
};

QTEST_GUILESS_MAIN(TestStatsCollector)
#include "tst_statscollector.moc"
