// cloud::TerminalKeepAlive with a fake service (its end time and lengthening kept here): nothing
// is lengthened without a terminal; with one, the session is lengthened by a slice each time its
// end comes within the lead, again and again; Sandbar's deadline caps the last slice and then
// nothing more; closing the last terminal (or the terminal finishing) stops it; a failed step
// is tried again; a session that no longer runs is left alone; an end that did not move after
// a lengthening is not lengthened twice.
#include "TestSupport.h"
#include "cloud/TerminalKeepAlive.h"
#include "terminal/PtyChannel.h"

#include <QTest>

using namespace sandbar;
using sandbar::cloud::TerminalKeepAlive;
using sandbar::test::waitUntil;

namespace {

class IdlePty final : public PtyChannel
{
public:
    using PtyChannel::PtyChannel;
    void start() override {}
    void write(const QByteArray &) override {}
    void resize(int, int) override {}
    void close() override {}
    bool isOpen() const override { return true; }
    std::optional<int> exitCode() const override { return std::nullopt; }
    void end(int code) { Q_EMIT finished(code); }
};

class IdleTerminals final : public TerminalFacet
{
public:
    Capabilities terminalFlags() const override { return Capability::Pty; }
    std::unique_ptr<PtyChannel> openPty(const QString &, const PtyOptions &) override
    {
        return std::make_unique<IdlePty>();
    }
    void listPtys(const QString &, Callback<QList<PtyEntry>> done) override { done.post(QList<PtyEntry>{}); }
};

// The service: one session whose end moves when lengthened.
struct Service {
    QDateTime end;
    QDateTime deadline; // Sandbar's
    bool running = true;
    bool moves = true; // false: extend answers ok but the end stays (a stale answer)
    int failuresLeft = 0;
    QList<qint64> extended;
};

constexpr TerminalKeepAlive::Timing kTiming{200, 400, 100};

} // namespace

class TestTerminalKeepAlive : public QObject
{
    Q_OBJECT
    IdleTerminals m_inner;
    Service m_service;
    TerminalKeepAlive::Hooks m_hooks;
    std::unique_ptr<TerminalKeepAlive> m_keep;

    QDateTime now() const { return systemClock().currentDateTimeUtc(); }
    std::unique_ptr<PtyChannel> open() { return m_keep->openPty(QStringLiteral("s1"), PtyOptions{}); }

private Q_SLOTS:
    void init()
    {
        m_service = Service{};
        m_service.end = now().addMSecs(300);
        TerminalKeepAlive::Hooks &hooks = m_hooks;
        hooks.ends = [this](const QString &, Callback<TerminalKeepAlive::Ends> done) {
            TerminalKeepAlive::Ends e;
            if (m_service.running)
                e = {m_service.end, m_service.deadline};
            done.post(e);
        };
        hooks.extend = [this](const QString &, qint64 ms, Callback<void> done) {
            if (m_service.failuresLeft > 0) {
                --m_service.failuresLeft;
                return done.post(makeError(ErrorCode::Unavailable, QStringLiteral("503")));
            }
            m_service.extended << ms;
            if (m_service.moves)
                m_service.end = m_service.end.addMSecs(ms);
            done.post(VoidResult{});
        };
        m_keep = std::make_unique<TerminalKeepAlive>(m_inner, systemClock(), hooks, kTiming, nullptr);
    }

    void nothingWithoutATerminal()
    {
        QTest::qWait(600); // a negative check: what would have happened by then
        QVERIFY(m_service.extended.isEmpty());
    }

    void lengthensAgainAndAgainWhileAttached()
    {
        auto pty = open();
        QCOMPARE(m_keep->attached(QStringLiteral("s1")), 1);
        QVERIFY(waitUntil([&] { return m_service.extended.size() >= 3; }, 10000));
        for (qint64 ms : std::as_const(m_service.extended))
            QCOMPARE(ms, kTiming.sliceMs);
        // Never lengthened while the end was still more than the lead away.
        QVERIFY(m_service.end > now());
    }

    void sandbarsDeadlineCapsIt()
    {
        m_service.deadline = m_service.end.addMSecs(550);
        auto pty = open();
        QVERIFY(waitUntil([&] { return m_service.extended.size() >= 2; }, 10000));
        QTest::qWait(1200); // past the deadline: nothing more may come
        QCOMPARE(m_service.extended, (QList<qint64>{400, 150}));
        QCOMPARE(m_service.end, m_service.deadline);
    }

    void theLastTerminalClosingStopsIt()
    {
        auto first = open();
        auto second = open();
        QCOMPARE(m_keep->attached(QStringLiteral("s1")), 2);
        first.reset();
        QCOMPARE(m_keep->attached(QStringLiteral("s1")), 1);
        QVERIFY(waitUntil([&] { return !m_service.extended.isEmpty(); }, 10000));
        // A finished shell counts as closed, and its later destruction does not count again.
        static_cast<IdlePty *>(second.get())->end(0);
        QCOMPARE(m_keep->attached(QStringLiteral("s1")), 0);
        second.reset();
        QCOMPARE(m_keep->attached(QStringLiteral("s1")), 0);
        const qsizetype seen = m_service.extended.size();
        QTest::qWait(1000);
        QCOMPARE(m_service.extended.size(), seen);
    }

    void aFailedStepIsTriedAgain()
    {
        m_service.failuresLeft = 2;
        m_service.end = now().addMSecs(1500); // time for the retries before the end
        auto pty = open();
        QVERIFY(waitUntil([&] { return !m_service.extended.isEmpty(); }, 10000));
        QCOMPARE(m_service.failuresLeft, 0);
    }

    void aSessionThatNoLongerRunsIsLeftAlone()
    {
        m_service.running = false;
        auto pty = open();
        QTest::qWait(600);
        QVERIFY(m_service.extended.isEmpty());
    }

    void anEndThatDidNotMoveIsNotLengthenedTwice()
    {
        m_service.moves = false;
        // A long retry, so that a second lengthening could only come from not waiting for it.
        m_keep = std::make_unique<TerminalKeepAlive>(m_inner, systemClock(), m_hooks,
                                                     TerminalKeepAlive::Timing{200, 400, 60000}, nullptr);
        auto pty = open();
        QVERIFY(waitUntil([&] { return !m_service.extended.isEmpty(); }, 10000));
        QTest::qWait(500);
        QCOMPARE(m_service.extended.size(), 1);
    }

    void cleanup() { m_keep.reset(); }
};

QTEST_GUILESS_MAIN(TestTerminalKeepAlive)
#include "tst_terminalkeepalive.moc"
