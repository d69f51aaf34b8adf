// The Local provider's client side against a hostile sandbar-agent: anything inside the
// sandbox can replace the agent, so every frame it sends is untrusted. A fake agent on
// plain blocking sockets (its own threads, so a flood really is as fast as it can go and
// its buffers are not this side's) plays each misbehaviour; the client must end the
// affected job with one clear error, keep its memory bounded and its event loop moving.

#include "FakeAgent.h"
#include "TestSupport.h"
#include "providers/local/AgentConnection.h"
#include "providers/local/LocalChannels.h"
#include "providers/local/LocalProvider.h"
#include "providers/local/SessionStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;
using namespace sandbar::local;
using namespace sandbar::test;
using namespace sandbar::test::agent;

namespace {

// An exec job's outcome, counted: every job must end exactly once.
struct ExecRun {
    std::unique_ptr<LocalExecJob> job;
    QByteArray out;
    std::optional<Result<int>> result;
    int finishes = 0;

    ExecRun(const QString &path, const QStringList &argv, const QByteArray &stdinData = {})
    {
        ExecRequest req;
        req.argv = argv;
        req.stdinData = stdinData;
        job = std::make_unique<LocalExecJob>(path, req);
        QObject::connect(job.get(), &ExecJob::stdoutData, job.get(), [this](const QByteArray &b) { out += b; });
        QObject::connect(job.get(), &ExecJob::finished, job.get(), [this](const Result<int> &r) {
            ++finishes;
            result.emplace(r);
        });
        job->start();
    }
    bool wait(int ms = 10000)
    {
        return waitUntil([this] { return result.has_value(); }, ms);
    }
    QString message() const { return result && !result->ok() ? result->message() : QString(); }
};

// The usual answer to an Exec on channel 1: stdout "ok", exit 0.
void answerExec(Peer &p)
{
    p.send(FrameType::Reply, 1, "{\"pid\":7}");
    p.send(FrameType::ExecStdout, 1, "ok");
    p.send(FrameType::ExecExit, 1, "{\"code\":0}");
}

// The first argument of an Exec request, so one fake agent can play several roles.
QString execVerb(const w::Frame &f)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(f.payload))
        .object()
        .value(QStringLiteral("argv"))
        .toArray()
        .at(0)
        .toString();
}

} // namespace

class TstHostileAgent : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void oversizeHeader();
    void garbageFrames_data();
    void garbageFrames();
    void badHello_data();
    void badHello();
    void strayAndDuplicateReplies();
    void malformedReplies_data();
    void malformedReplies();
    void outOfOrderDownload();
    void closedMidFrame_data();
    void closedMidFrame();
    void flood();
    void peerNeverReadsUpload();
    void peerNeverReadsInput();
    void nonObjectRequestReply_data();
    void nonObjectRequestReply();
};

void TstHostileAgent::oversizeHeader()
{
    // Claims 4 GiB minus a little: the claim alone must end the connection, with nothing allocated.
    FakeAgent agent([](Peer &p) {
        p.hello();
        p.sendRaw(header(0xfffffff0u, std::uint8_t(FrameType::ExecStdout), 1) + std::string(1024, 'x'));
        p.waitClosed();
    });
    test::resetPeakRss();
    const qint64 before = test::statusKb("VmRSS:");
    ExecRun run(agent.path, {QStringLiteral("true")});
    QVERIFY(run.wait());
    QVERIFY(!run.result->ok());
    QVERIFY2(run.message().contains(QLatin1String("exceeds the limit")), qPrintable(run.message()));
    QVERIFY(waitUntil([&] { return agent.scriptsDone == 1; }, 10000)); // the client hung up
    QVERIFY2(test::statusKb("VmHWM:") - before < 32 * 1024, "the claimed size was allocated");
    QCOMPARE(run.finishes, 1);
}

void TstHostileAgent::garbageFrames_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("error");
    QTest::newRow("unknown type") << QByteArray::fromStdString(header(2, 0x77, 1) + "{}")
                                  << QStringLiteral("unknown frame type 119");
    QTest::newRow("type zero") << QByteArray(9, '\0') << QStringLiteral("unknown frame type 0");
    QTest::newRow("http") << QByteArray("HTTP/1.1 200 OK\r\n\r\n") << QStringLiteral("sent garbage");
}

void TstHostileAgent::garbageFrames()
{
    // One agent, two jobs: the one that gets garbage fails, the other is unaffected.
    QFETCH(QByteArray, bytes);
    QFETCH(QString, error);
    FakeAgent agent([bytes](Peer &p) {
        p.hello();
        w::Frame f;
        if (!p.read(f))
            return;
        if (execVerb(f) == QLatin1String("bad")) {
            p.send(FrameType::Reply, 1, "{\"pid\":7}");
            p.sendRaw(bytes.toStdString());
            p.waitClosed();
        } else {
            answerExec(p);
        }
    });
    ExecRun bad(agent.path, {QStringLiteral("bad")});
    ExecRun good(agent.path, {QStringLiteral("good")});
    QVERIFY(bad.wait() && good.wait());
    QVERIFY(!bad.result->ok());
    QVERIFY2(bad.message().contains(error), qPrintable(bad.message()));
    QCOMPARE(good.result->value(), 0);
    QCOMPARE(good.out, QByteArray("ok"));
    QCOMPARE(bad.finishes + good.finishes, 2);
}

void TstHostileAgent::badHello_data()
{
    QTest::addColumn<int>("kind"); // 0 version, 1 silent, 2 reply first, 3 garbage
    QTest::addColumn<QString>("error");
    QTest::newRow("version mismatch") << 0 << QStringLiteral("agent protocol 99");
    QTest::newRow("no hello at all") << 1 << QStringLiteral("did not greet");
    QTest::newRow("reply before hello") << 2 << QStringLiteral("before its Hello");
    QTest::newRow("garbage first bytes") << 3 << QStringLiteral("sent garbage");
}

void TstHostileAgent::badHello()
{
    QFETCH(int, kind);
    QFETCH(QString, error);
    std::atomic<bool> requestSeen{false};
    FakeAgent agent([kind, &requestSeen](Peer &p) {
        if (kind == 0)
            p.hello(99);
        else if (kind == 2)
            p.send(FrameType::ExecExit, 1, "{\"code\":0}"); // would be "success" if trusted
        else if (kind == 3)
            p.sendRaw("\xde\xad\xbe\xef\xde\xad\xbe\xef\xde\xad");
        w::Frame f;
        if (p.read(f, 3000))
            requestSeen = true;
        p.waitClosed();
    });
    ExecRun run(agent.path, {QStringLiteral("true")});
    run.job->findChild<AgentConnection *>()->setHelloTimeout(300);
    QVERIFY(run.wait());
    QVERIFY(!run.result->ok());
    QVERIFY2(run.message().contains(error), qPrintable(run.message()));
    QVERIFY(!requestSeen); // nothing was asked of an agent that did not greet properly
    QCOMPARE(run.finishes, 1);
}

void TstHostileAgent::strayAndDuplicateReplies()
{
    // Answers on channels nobody asked on are ignored; a second Reply sends no second stdin.
    std::atomic<qint64> stdinBytes{0};
    std::atomic<int> eofs{0};
    FakeAgent agent([&](Peer &p) {
        p.hello();
        w::Frame f;
        if (!p.read(f))
            return;
        p.send(FrameType::ExecExit, 99, "{\"code\":5}");
        p.send(FrameType::Reply, 7, "{\"pid\":1}");
        p.send(FrameType::ExecStdout, 3, "stray");
        p.send(FrameType::Reply, 1, "{\"pid\":7}");
        p.send(FrameType::Reply, 1, "{\"pid\":7}");
        while (p.read(f, 2000) && f.type != FrameType::ExecStdinEof)
            stdinBytes += qint64(f.payload.size());
        ++eofs;
        w::Frame extra;
        if (p.read(extra, 300)) // a duplicated stdin would be here
            stdinBytes += qint64(extra.payload.size()) + 1;
        p.send(FrameType::ExecStdout, 1, "ok");
        p.send(FrameType::ExecExit, 1, "{\"code\":0}");
        p.send(FrameType::ExecExit, 1, "{\"code\":3}"); // a second end changes nothing
        p.waitClosed();
    });
    const QByteArray input(200000, 'i');
    ExecRun run(agent.path, {QStringLiteral("cat")}, input);
    QVERIFY(run.wait());
    QVERIFY_RESULT(*run.result);
    QCOMPARE(run.result->value(), 0);
    QCOMPARE(run.out, QByteArray("ok"));
    QCOMPARE(stdinBytes.load(), qint64(input.size()));
    QCOMPARE(eofs.load(), 1);
    QCoreApplication::processEvents();
    QCOMPARE(run.finishes, 1);

    // The terminal: one started() for two Replies, stray data on another channel dropped.
    FakeAgent ptyAgent([](Peer &p) {
        p.hello();
        w::Frame f;
        if (!p.read(f))
            return;
        p.send(FrameType::PtyData, 2, "stray");
        p.send(FrameType::Reply, 1, "{\"id\":\"p1\"}");
        p.send(FrameType::Reply, 1, "{\"id\":\"p2\"}");
        p.send(FrameType::PtyData, 1, "hello");
        p.send(FrameType::PtyExit, 1, "{\"code\":0}");
        p.waitClosed();
    });
    LocalPtyChannel pty(ptyAgent.path, PtyOptions{});
    int started = 0, finished = 0;
    QByteArray data;
    connect(&pty, &PtyChannel::started, this, [&] { ++started; });
    connect(&pty, &PtyChannel::dataReceived, this, [&](const QByteArray &b) { data += b; });
    connect(&pty, &PtyChannel::finished, this, [&] { ++finished; });
    pty.start();
    QVERIFY(waitUntil([&] { return finished == 1; }, 10000));
    QCOMPARE(started, 1);
    QCOMPARE(pty.ptyId(), QStringLiteral("p1"));
    QCOMPARE(data, QByteArray("hello"));
}

void TstHostileAgent::malformedReplies_data()
{
    QTest::addColumn<QByteArray>("exitPayload");
    QTest::newRow("not json") << QByteArray("{{{");
    QTest::newRow("array") << QByteArray("[0]");
    QTest::newRow("missing code") << QByteArray("{}");
    QTest::newRow("code as string") << QByteArray("{\"code\":\"0\"}");
    QTest::newRow("huge code") << QByteArray("{\"code\":1e300}");
    QTest::newRow("fraction") << QByteArray("{\"code\":0.5}");
    QTest::newRow("empty") << QByteArray();
}

void TstHostileAgent::malformedReplies()
{
    // A malformed exit status is an error, never a silent "exit 0".
    QFETCH(QByteArray, exitPayload);
    FakeAgent agent([exitPayload](Peer &p) {
        p.hello();
        w::Frame f;
        if (!p.read(f))
            return;
        p.send(FrameType::Reply, 1, "{\"pid\":7}");
        p.send(FrameType::ExecExit, 1, exitPayload.toStdString());
        p.waitClosed();
    });
    ExecRun run(agent.path, {QStringLiteral("true")});
    QVERIFY(run.wait());
    QVERIFY(!run.result->ok());
    QVERIFY2(run.message().contains(QLatin1String("malformed exit status")), qPrintable(run.message()));

    // The same payload as the terminal's Reply: no terminal without an id.
    FakeAgent ptyAgent([exitPayload](Peer &p) {
        p.hello();
        w::Frame f;
        if (p.read(f))
            p.send(FrameType::Reply, 1, exitPayload.toStdString());
        p.waitClosed();
    });
    LocalPtyChannel pty(ptyAgent.path, PtyOptions{});
    std::optional<Error> error;
    bool started = false;
    connect(&pty, &PtyChannel::started, this, [&] { started = true; });
    connect(&pty, &PtyChannel::errorOccurred, this, [&](const Error &e) { error = e; });
    pty.start();
    QVERIFY(waitUntil([&] { return error.has_value(); }, 10000));
    QVERIFY(!started);
    QVERIFY2(error->message.contains(QLatin1String("malformed")), qPrintable(error->message));
}

void TstHostileAgent::outOfOrderDownload()
{
    // Answers for a request not yet made, entries that climb out of the folder and
    // fields of the wrong type: the download takes only what it asked for.
    FakeAgent agent([](Peer &p) {
        p.hello();
        w::Frame f;
        while (p.read(f)) {
            const QString path = QJsonDocument::fromJson(QByteArray::fromStdString(f.payload))
                                     .object()
                                     .value(QStringLiteral("path"))
                                     .toString();
            if (f.type == FrameType::FileList && path == QLatin1String("/workspace/d")) {
                p.send(FrameType::Reply, f.channel + 1, "{\"isDir\":false,\"entries\":\"x\"}");
                p.send(FrameType::Reply, f.channel,
                       R"({"isDir":true,"entries":[{"name":"../escape","size":1},{"name":"a","size":"big"},)"
                       R"({"name":"b","size":1e300,"dir":"yes"},[],7,{"name":null}]})");
            } else if (f.type == FrameType::FileGet) {
                p.send(FrameType::Reply, f.channel, "{\"size\":2}");
                p.send(FrameType::FileData, f.channel + 5, "WRONG");
                p.send(FrameType::FileData, f.channel, path.endsWith(QLatin1Char('a')) ? "A!" : "B!");
                p.send(FrameType::FileEnd, f.channel, "{}");
            } else {
                p.send(FrameType::Error, f.channel, "{\"message\":\"no\"}");
            }
        }
    });
    QTemporaryDir out;
    LocalDownloadJob job(agent.path, QStringLiteral("/workspace/d"), out.path(), {});
    std::optional<VoidResult> result;
    connect(&job, &TransferJob::finished, this, [&](const VoidResult &r) { result = r; });
    job.start();
    QVERIFY(waitUntil([&] { return result.has_value(); }, 10000));
    QVERIFY_RESULT(*result);
    const QDir d(out.filePath(QStringLiteral("d")));
    QCOMPARE(d.entryList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot),
             (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
    QFile a(d.filePath(QStringLiteral("a")));
    QVERIFY(a.open(QIODevice::ReadOnly));
    QCOMPARE(a.readAll(), QByteArray("A!"));
    QVERIFY(!QFile::exists(out.filePath(QStringLiteral("escape"))));
}

void TstHostileAgent::closedMidFrame_data()
{
    QTest::addColumn<QByteArray>("tail");
    QTest::addColumn<QString>("error");
    const std::string frame = w::encode(FrameType::ExecStdout, 1, "0123456789");
    QTest::newRow("truncated header") << QByteArray::fromStdString(frame.substr(0, 5))
                                      << QStringLiteral("in mid-frame");
    QTest::newRow("truncated payload") << QByteArray::fromStdString(frame.substr(0, frame.size() - 3))
                                       << QStringLiteral("in mid-frame");
    QTest::newRow("clean close") << QByteArray() << QStringLiteral("closed the connection");
}

void TstHostileAgent::closedMidFrame()
{
    // Every job on the agent fails once, with the stdout that did arrive handed on first.
    QFETCH(QByteArray, tail);
    QFETCH(QString, error);
    FakeAgent agent([tail](Peer &p) {
        p.hello();
        w::Frame f;
        if (!p.read(f))
            return;
        p.send(FrameType::Reply, 1, "{\"pid\":7}");
        p.send(FrameType::ExecStdout, 1, "before");
        p.sendRaw(tail.toStdString());
    });
    std::vector<std::unique_ptr<ExecRun>> runs;
    for (int i = 0; i < 3; ++i)
        runs.push_back(std::make_unique<ExecRun>(agent.path, QStringList{QStringLiteral("x")}));
    for (auto &r : runs) {
        QVERIFY(r->wait());
        QVERIFY(!r->result->ok());
        QVERIFY2(r->message().contains(error), qPrintable(r->message()));
        QCOMPARE(r->out, QByteArray("before"));
    }
    QCoreApplication::processEvents();
    for (auto &r : runs)
        QCOMPARE(r->finishes, 1);
}

void TstHostileAgent::flood()
{
    // 200 MiB of terminal output as fast as the agent can write it. The consumer first keeps
    // up, then pauses as TerminalScreen does when behind: the pause must reach the agent
    // (it blocks), and a request made meanwhile on another connection must still complete.
    constexpr qint64 kFlood = qint64(200) << 20;
    std::atomic<qint64> sent{0};
    FakeAgent agent([&sent](Peer &p) {
        p.hello();
        w::Frame f;
        if (!p.read(f))
            return;
        if (f.type == FrameType::Exec) {
            answerExec(p);
            p.waitClosed();
            return;
        }
        p.send(FrameType::Reply, 1, "{\"id\":\"p1\"}");
        const std::string frame = w::encode(FrameType::PtyData, 1, std::string(w::kChunkSize, 'x'));
        while (sent < kFlood) {
            if (!p.sendRaw(frame))
                return;
            sent += qint64(w::kChunkSize);
        }
        p.send(FrameType::PtyExit, 1, "{\"code\":0}");
        p.waitClosed();
    });

    QElapsedTimer clock;
    qint64 lastTick = 0, maxGap = 0;
    QTimer probe;
    probe.setInterval(10);
    connect(&probe, &QTimer::timeout, this, [&] {
        const qint64 now = clock.elapsed();
        maxGap = std::max(maxGap, now - lastTick);
        lastTick = now;
    });

    LocalPtyChannel pty(agent.path, PtyOptions{});
    qint64 received = 0;
    bool finished = false;
    connect(&pty, &PtyChannel::dataReceived, this, [&](const QByteArray &b) { received += b.size(); });
    connect(&pty, &PtyChannel::finished, this, [&] { finished = true; });
    QCoreApplication::processEvents();
    test::resetPeakRss();
    const qint64 before = test::statusKb("VmRSS:");
    clock.start();
    probe.start();
    pty.start();
    QVERIFY(waitUntil([&] { return received >= kFlood / 4; }, 60000));

    pty.setReadingPaused(true);
    const qint64 atPause = received;
    ExecRun ping(agent.path, {QStringLiteral("ping")});
    QVERIFY(ping.wait(10000));
    QVERIFY_RESULT(*ping.result);
    QCOMPARE(ping.out, QByteArray("ok"));
    // Paused: at most what was already decoded trickles out, and the agent stalls with
    // only the kernel's and one read chunk's worth in flight.
    QVERIFY(received - atPause <= qint64(2) << 20);
    QVERIFY2(sent - received < qint64(8) << 20,
             qPrintable(QStringLiteral("the agent got %1 bytes ahead").arg(sent - received)));
    QVERIFY(sent < kFlood);

    pty.setReadingPaused(false);
    QVERIFY(waitUntil([&] { return finished; }, 60000));
    probe.stop();
    const qint64 elapsed = clock.elapsed();
    const qint64 growthKb = test::statusKb("VmHWM:") - before;
    QCOMPARE(received, kFlood);
    qInfo("flood: %lld MiB in %lld ms, peak RSS growth %lld KiB, max event-loop gap %lld ms", kFlood >> 20, elapsed,
          growthKb, maxGap);
    // The client holds one 256 KiB read, the decoder at most one 1 MiB frame plus that
    // read, and a frame's few transient copies: 32 MiB is well above that and far below
    // the 200 MiB an unbounded buffer would take.
    QVERIFY2(growthKb < 32 * 1024, qPrintable(QString::number(growthKb)));
    QVERIFY2(maxGap < 500, qPrintable(QString::number(maxGap)));
}

void TstHostileAgent::peerNeverReadsUpload()
{
    // The agent takes the request, says "ready" and never reads again: the upload stops
    // at the socket's 1 MiB of buffered data, and cancel ends it once, at once.
    FakeAgent agent([](Peer &p) {
        p.hello();
        w::Frame f;
        if (!p.read(f))
            return;
        p.send(FrameType::Reply, f.channel, "{\"ready\":true}");
        p.hold();
    });
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.bin"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(qint64(64) << 20));
    }
    QCoreApplication::processEvents();
    test::resetPeakRss();
    const qint64 before = test::statusKb("VmRSS:");
    LocalUploadJob job(agent.path, path, QStringLiteral("/workspace"), {});
    qint64 done = 0;
    int finishes = 0;
    std::optional<VoidResult> result;
    connect(&job, &TransferJob::progress, this, [&](qint64 d, qint64) { done = d; });
    connect(&job, &TransferJob::finished, this, [&](const VoidResult &r) {
        ++finishes;
        result = r;
    });
    job.start();
    auto *conn = job.findChild<AgentConnection *>();
    QVERIFY(conn);
    QVERIFY(waitUntil([&] { return conn->bytesToWrite() >= (1 << 20); }, 10000));
    QVERIFY2(done < qint64(8) << 20, qPrintable(QString::number(done)));
    QVERIFY(!result);
    QVERIFY2(test::statusKb("VmHWM:") - before < 16 * 1024, "the upload buffered the file");
    job.cancel();
    QVERIFY(result.has_value());
    QCOMPARE(result->code(), ErrorCode::Cancelled);
    QCoreApplication::processEvents();
    QCOMPARE(finishes, 1);
}

void TstHostileAgent::peerNeverReadsInput()
{
    // A paste into a terminal whose agent never reads: the channel gives up with a clear
    // error instead of holding every byte.
    FakeAgent agent([](Peer &p) {
        p.hello();
        w::Frame f;
        if (!p.read(f))
            return;
        p.send(FrameType::Reply, 1, "{\"id\":\"p1\"}");
        p.hold();
    });
    LocalPtyChannel pty(agent.path, PtyOptions{});
    std::optional<Error> error;
    int errors = 0;
    bool started = false;
    connect(&pty, &PtyChannel::started, this, [&] { started = true; });
    connect(&pty, &PtyChannel::errorOccurred, this, [&](const Error &e) {
        ++errors;
        error = e;
    });
    pty.start();
    QVERIFY(waitUntil([&] { return started; }, 10000));
    QCoreApplication::processEvents();
    test::resetPeakRss();
    const qint64 before = test::statusKb("VmRSS:");
    const QByteArray chunk(64 * 1024, 'p');
    qint64 written = 0;
    for (int i = 0; i < 1024 && !error; ++i) { // up to 64 MiB
        pty.write(chunk);
        written += chunk.size();
        if (i % 16 == 0)
            QCoreApplication::processEvents();
    }
    QVERIFY(error.has_value());
    QVERIFY2(error->message.contains(QLatin1String("stopped reading")), qPrintable(error->message));
    QVERIFY2(written <= qint64(20) << 20, qPrintable(QString::number(written)));
    QVERIFY2(test::statusKb("VmHWM:") - before < 40 * 1024, "terminal input grew without bound");
    pty.write(chunk); // after the end: dropped, no second error
    QCoreApplication::processEvents();
    QCOMPARE(errors, 1);
    QVERIFY(!pty.isOpen());
}

void TstHostileAgent::nonObjectRequestReply_data()
{
    QTest::addColumn<QByteArray>("payload");
    QTest::newRow("array") << QByteArray("[{\"id\":\"p1\"}]");
    QTest::newRow("string") << QByteArray("\"ok\"");
    QTest::newRow("number") << QByteArray("0");
    QTest::newRow("not json") << QByteArray("{\"ptys\":");
    QTest::newRow("empty") << QByteArray();
}

void TstHostileAgent::nonObjectRequestReply()
{
    // The provider's one-shot requests (list terminals, stats, files, time limit): a Reply
    // whose payload is no JSON object is a protocol error, never an empty success (here an
    // empty terminal list that would hide the session's terminals).
    QFETCH(QByteArray, payload);
    FakeAgent agent([payload](Peer &p) {
        p.hello();
        w::Frame f;
        if (p.read(f))
            p.send(FrameType::Reply, 1, payload.toStdString());
        p.waitClosed();
    });
    QTemporaryDir data;
    AccountConfig account;
    account.name = QStringLiteral("hostile");
    account.settings.insert(QStringLiteral("dataDir"), data.path());
    LocalProvider provider(account, LocalEnvironment{});
    // A session that counts as running (this process stands in for its sandbox) whose
    // agent socket is the fake agent's.
    SessionRecord r;
    r.id = QStringLiteral("sb-hostile");
    r.created = QDateTime::currentDateTimeUtc();
    r.pid = QCoreApplication::applicationPid();
    r.startTime = processStartTime(r.pid);
    r.dir = provider.sessionDir(r.id);
    QVERIFY(QDir().mkpath(r.dir + QStringLiteral("/run")));
    QVERIFY_RESULT(saveRecord(r));
    QVERIFY(QFile::link(agent.path, provider.socketPath(r.id)));

    const auto listed = await<QList<PtyEntry>>([&](Callback<QList<PtyEntry>> cb) { provider.listPtys(r.id, cb); });
    QVERIFY2(!listed.ok(), "a malformed reply was taken for an empty success");
    QVERIFY2(listed.message().contains(QLatin1String("malformed")), qPrintable(listed.message()));
}

QTEST_GUILESS_MAIN(TstHostileAgent)
#include "tst_hostileagent.moc"
