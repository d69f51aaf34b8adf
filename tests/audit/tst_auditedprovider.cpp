// Every virtual method of Provider, driven through AuditedProvider: each must reach the inner
// provider's own method (a spy records the calls it receives) with its answer coming back, and
// leave exactly the audit rows it promises: one for a call that changes something, none for a
// read. The methods are read from Provider.h itself, so a method added there fails
// everyMethodIsDriven until this table, and the wrapper with it, covers it.
#include "audit/AuditLog.h"
#include "audit/AuditedProvider.h"
#include "terminal/PtyChannel.h"

#include <QBuffer>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <functional>
#include <memory>

using namespace sandbar;
using namespace sandbar::audit;

namespace {

// Answers later, never from the caller's stack, as every provider must.
void later(QObject *context, std::function<void()> fn)
{
    QTimer::singleShot(0, context, std::move(fn));
}

class SpyTransfer final : public TransferJob
{
public:
    using TransferJob::TransferJob;
    void start() override
    {
        later(this, [this]() { Q_EMIT finished(VoidResult{}); });
    }
    void cancel() override {}
};

class SpyExec final : public ExecJob
{
public:
    using ExecJob::ExecJob;
    void start() override
    {
        later(this, [this]() { Q_EMIT finished(Result<int>(7)); });
    }
    void cancel() override {}
};

class SpyPty final : public PtyChannel
{
public:
    using PtyChannel::PtyChannel;
    void start() override
    {
        later(this, [this]() { Q_EMIT started(); });
    }
    void write(const QByteArray &) override {}
    void resize(int, int) override {}
    void close() override {}
    bool isOpen() const override { return true; }
    std::optional<int> exitCode() const override { return std::nullopt; }
};

class SpyLog final : public LogStream
{
public:
    using LogStream::LogStream;
    void start() override
    {
        later(this, [this]() { Q_EMIT finished(VoidResult{}); });
    }
    void stop() override {}
};

class SpyStats final : public StatsStream
{
public:
    using StatsStream::StatsStream;
    void start() override
    {
        later(this, [this]() { Q_EMIT sample(StatsSample{}); });
    }
    void stop() override {}
};

// Overrides every virtual method of Provider and records each call it receives by name.
class SpyProvider final : public Provider
{
public:
    SpyProvider()
    {
        m_desc.id = QStringLiteral("spy");
        m_desc.displayName = QStringLiteral("Spy");
    }

    mutable QStringList calls;

    const ProviderDescriptor &descriptor() const override
    {
        note("descriptor");
        return m_desc;
    }
    Capabilities capabilities() const override
    {
        note("capabilities");
        return Capability::Archive;
    }
    QString accountName() const override
    {
        note("accountName");
        return QStringLiteral("spy-account");
    }
    HostProcessMatch hostProcessMatch(const QString &) const override
    {
        note("hostProcessMatch");
        return {QStringLiteral("spy-container"), {}};
    }

    void health(Callback<HealthInfo> done) override { answer("health", done, HealthInfo{QStringLiteral("Spy")}); }
    void listSessions(const ListOptions &, Callback<QList<SessionInfo>> done) override
    {
        answer("listSessions", done, QList<SessionInfo>{session()});
    }
    void create(const CreateSpec &, Callback<SessionInfo> done) override { answer("create", done, session()); }
    void info(const QString &, Callback<SessionInfo> done) override { answer("info", done, session()); }
    void adopt(const QString &, Callback<SessionInfo> done) override { answer("adopt", done, session()); }
    void stop(const QString &, Callback<void> done) override { answerVoid("stop", done); }
    void kill(const QString &, Callback<void> done) override { answerVoid("kill", done); }
    void remove(const QString &, Callback<void> done) override { answerVoid("remove", done); }
    void pause(const QString &, Callback<void> done) override { answerVoid("pause", done); }
    void resume(const QString &, Callback<void> done) override { answerVoid("resume", done); }
    void archive(const QString &, Callback<void> done) override { answerVoid("archive", done); }
    void setTimeout(const QString &, qint64, Callback<void> done) override { answerVoid("setTimeout", done); }
    void removePath(const QString &, const QString &, Callback<void> done) override { answerVoid("removePath", done); }
    void makeDir(const QString &, const QString &, Callback<void> done) override { answerVoid("makeDir", done); }
    void statPath(const QString &, const QString &, Callback<PathStat> done) override
    {
        answer("statPath", done, PathStat{true, true});
    }
    void listFiles(const QString &, const QString &, Callback<QList<FileEntry>> done) override
    {
        answer("listFiles", done, QList<FileEntry>{FileEntry{QStringLiteral("spy.txt")}});
    }
    void stats(const QString &, Callback<StatsSample> done) override { answer("stats", done, StatsSample{}); }
    void listPtys(const QString &, Callback<QList<PtyEntry>> done) override
    {
        answer("listPtys", done, QList<PtyEntry>{PtyEntry{QStringLiteral("pty-1")}});
    }
    void listImages(Callback<QStringList> done) override
    {
        answer("listImages", done, QStringList{QStringLiteral("spy:latest")});
    }

    std::unique_ptr<PtyChannel> openPty(const QString &, const PtyOptions &) override
    {
        note("openPty");
        return std::make_unique<SpyPty>();
    }
    std::unique_ptr<ExecJob> exec(const QString &, const ExecRequest &) override
    {
        note("exec");
        return std::make_unique<SpyExec>();
    }
    std::unique_ptr<LogStream> logs(const QString &, const LogOptions &) override
    {
        note("logs");
        return std::make_unique<SpyLog>();
    }
    std::unique_ptr<StatsStream> streamStats(const QString &) override
    {
        note("streamStats");
        return std::make_unique<SpyStats>();
    }
    std::unique_ptr<TransferJob> upload(const QString &, const QString &, const QString &) override
    {
        return transfer("upload");
    }
    std::unique_ptr<TransferJob> download(const QString &, const QString &, const QString &) override
    {
        return transfer("download");
    }
    std::unique_ptr<TransferJob> uploadTar(const QString &, QIODevice *, const QString &) override
    {
        return transfer("uploadTar");
    }
    std::unique_ptr<TransferJob> downloadTar(const QString &, const QString &, QIODevice *) override
    {
        return transfer("downloadTar");
    }
    std::unique_ptr<TransferJob> putItem(const QString &, const QString &, const QString &, const QString &) override
    {
        return transfer("putItem");
    }
    std::unique_ptr<TransferJob> getItem(const QString &, const QString &, const QString &, const QString &) override
    {
        return transfer("getItem");
    }
    std::unique_ptr<TransferJob> putTar(const QString &, QIODevice *, const QString &) override
    {
        return transfer("putTar");
    }
    std::unique_ptr<TransferJob> getTar(const QString &, const QString &, QIODevice *) override
    {
        return transfer("getTar");
    }

private:
    void note(const char *method) const { calls << QLatin1String(method); }
    static SessionInfo session()
    {
        SessionInfo s;
        s.id = QStringLiteral("spy-1");
        return s;
    }
    template <typename T>
    void answer(const char *method, Callback<T> done, T value)
    {
        note(method);
        later(this, [done, value]() { done(Result<T>(value)); });
    }
    void answerVoid(const char *method, Callback<void> done)
    {
        note(method);
        later(this, [done]() { done(VoidResult{}); });
    }
    std::unique_ptr<TransferJob> transfer(const char *method)
    {
        note(method);
        return std::make_unique<SpyTransfer>();
    }

    ProviderDescriptor m_desc;
};

// How one method is driven: `finished` runs once the call's answer (callback, job or signal)
// came back through the wrapper and matched what the spy gave.
using Driver =
    std::function<void(Provider &wrapper, QObject *context, QObject *holder, std::function<void()> finished)>;

struct Driven {
    const char *method;
    std::optional<Action> action; // the one row the call writes; none for a read
    Driver drive;
};

const QString Id = QStringLiteral("spy-1");

template <typename T>
Callback<T> expectOk(QObject *context, std::function<void()> finished, std::function<bool(const T &)> check = {})
{
    return Callback<T>(context, [finished, check](Result<T> r) {
        if (r.ok() && (!check || check(r.value())))
            finished();
    });
}

Callback<void> expectVoid(QObject *context, std::function<void()> finished)
{
    return Callback<void>(context, [finished](VoidResult r) {
        if (r.ok())
            finished();
    });
}

// Starts a transfer job the caller must keep (holder owns it) and finishes when it succeeds.
void runTransfer(std::unique_ptr<TransferJob> job, QObject *holder, std::function<void()> finished)
{
    TransferJob *raw = job.release();
    raw->setParent(holder);
    QObject::connect(raw, &TransferJob::finished, holder, [finished](const VoidResult &r) {
        if (r.ok())
            finished();
    });
    raw->start();
}

bool spySession(const SessionInfo &s)
{
    return s.id == Id;
}

QList<Driven> table()
{
    using F = std::function<void()>;
    return {
        {"descriptor",
         {},
         [](Provider &p, QObject *, QObject *, F f) {
             if (p.descriptor().id == QLatin1String("spy"))
                 f();
         }},
        {"capabilities",
         {},
         [](Provider &p, QObject *, QObject *, F f) {
             if (p.capabilities() == Capability::Archive)
                 f();
         }},
        {"accountName",
         {},
         [](Provider &p, QObject *, QObject *, F f) {
             if (p.accountName() == QLatin1String("spy-account"))
                 f();
         }},
        {"hostProcessMatch",
         {},
         [](Provider &p, QObject *, QObject *, F f) {
             if (p.hostProcessMatch(Id).containerId == QLatin1String("spy-container"))
                 f();
         }},
        {"health",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.health(
                 expectOk<HealthInfo>(c, f, [](const HealthInfo &h) { return h.serverName == QLatin1String("Spy"); }));
         }},
        {"listSessions",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.listSessions({}, expectOk<QList<SessionInfo>>(c, f, [](const QList<SessionInfo> &l) {
                                return l.size() == 1 && spySession(l.first());
                            }));
         }},
        {"create", Action::SessionCreated,
         [](Provider &p, QObject *c, QObject *, F f) {
             p.create(CreateSpec{}, expectOk<SessionInfo>(c, f, spySession));
         }},
        {"info",
         {},
         [](Provider &p, QObject *c, QObject *, F f) { p.info(Id, expectOk<SessionInfo>(c, f, spySession)); }},
        {"adopt", Action::SessionAdopted,
         [](Provider &p, QObject *c, QObject *, F f) { p.adopt(Id, expectOk<SessionInfo>(c, f, spySession)); }},
        {"stop", Action::SessionStopped, [](Provider &p, QObject *c, QObject *, F f) { p.stop(Id, expectVoid(c, f)); }},
        {"kill", Action::SessionKilled, [](Provider &p, QObject *c, QObject *, F f) { p.kill(Id, expectVoid(c, f)); }},
        {"remove", Action::SessionRemoved,
         [](Provider &p, QObject *c, QObject *, F f) { p.remove(Id, expectVoid(c, f)); }},
        {"pause", Action::SessionPaused,
         [](Provider &p, QObject *c, QObject *, F f) { p.pause(Id, expectVoid(c, f)); }},
        {"resume", Action::SessionResumed,
         [](Provider &p, QObject *c, QObject *, F f) { p.resume(Id, expectVoid(c, f)); }},
        {"archive", Action::SessionArchived,
         [](Provider &p, QObject *c, QObject *, F f) { p.archive(Id, expectVoid(c, f)); }},
        {"setTimeout", Action::SessionTtlChanged,
         [](Provider &p, QObject *c, QObject *, F f) { p.setTimeout(Id, 600, expectVoid(c, f)); }},
        {"removePath", Action::FileRemoved,
         [](Provider &p, QObject *c, QObject *, F f) {
             p.removePath(Id, QStringLiteral("/workspace/old"), expectVoid(c, f));
         }},
        {"makeDir", Action::FolderCreated,
         [](Provider &p, QObject *c, QObject *, F f) {
             p.makeDir(Id, QStringLiteral("/workspace/new"), expectVoid(c, f));
         }},
        {"statPath",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.statPath(Id, QStringLiteral("/workspace"),
                        expectOk<PathStat>(c, f, [](const PathStat &s) { return s.isDir; }));
         }},
        {"listFiles",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.listFiles(Id, QStringLiteral("/workspace"),
                         expectOk<QList<FileEntry>>(c, f, [](const QList<FileEntry> &l) {
                             return l.size() == 1 && l.first().name == QLatin1String("spy.txt");
                         }));
         }},
        {"stats", {}, [](Provider &p, QObject *c, QObject *, F f) { p.stats(Id, expectOk<StatsSample>(c, f)); }},
        {"listPtys",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.listPtys(Id, expectOk<QList<PtyEntry>>(c, f, [](const QList<PtyEntry> &l) {
                            return l.size() == 1 && l.first().id == QLatin1String("pty-1");
                        }));
         }},
        {"listImages",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.listImages(expectOk<QStringList>(
                 c, f, [](const QStringList &l) { return l == QStringList{QStringLiteral("spy:latest")}; }));
         }},
        {"openPty", Action::PtyOpened,
         [](Provider &p, QObject *, QObject *h, F f) {
             PtyChannel *ch = p.openPty(Id, PtyOptions{}).release();
             ch->setParent(h);
             QObject::connect(ch, &PtyChannel::started, h, f);
             ch->start();
         }},
        {"exec", Action::ExecRun,
         [](Provider &p, QObject *, QObject *h, F f) {
             ExecJob *job = p.exec(Id, ExecRequest{{QStringLiteral("true")}}).release();
             job->setParent(h);
             QObject::connect(job, &ExecJob::finished, h, [f](const Result<int> &r) {
                 if (r.ok() && r.value() == 7)
                     f();
             });
             job->start();
         }},
        {"logs",
         {},
         [](Provider &p, QObject *, QObject *h, F f) {
             LogStream *s = p.logs(Id, LogOptions{}).release();
             s->setParent(h);
             QObject::connect(s, &LogStream::finished, h, [f](const VoidResult &r) {
                 if (r.ok())
                     f();
             });
             s->start();
         }},
        {"streamStats",
         {},
         [](Provider &p, QObject *, QObject *h, F f) {
             StatsStream *s = p.streamStats(Id).release();
             s->setParent(h);
             QObject::connect(s, &StatsStream::sample, h, f);
             s->start();
         }},
        {"upload", Action::FileUploaded,
         [](Provider &p, QObject *, QObject *h, F f) {
             runTransfer(p.upload(Id, QStringLiteral("/nonexistent/in.txt"), QStringLiteral("/workspace/")), h, f);
         }},
        {"download", Action::FileDownloaded,
         [](Provider &p, QObject *, QObject *h, F f) {
             runTransfer(p.download(Id, QStringLiteral("/workspace/out.txt"), QStringLiteral("/nonexistent/")), h, f);
         }},
        {"uploadTar", Action::FileUploaded,
         [](Provider &p, QObject *, QObject *h, F f) {
             auto *tar = new QBuffer(h);
             tar->open(QIODevice::ReadOnly);
             runTransfer(p.uploadTar(Id, tar, QStringLiteral("/workspace")), h, f);
         }},
        {"downloadTar", Action::FileDownloaded,
         [](Provider &p, QObject *, QObject *h, F f) {
             auto *out = new QBuffer(h);
             out->open(QIODevice::WriteOnly);
             runTransfer(p.downloadTar(Id, QStringLiteral("/workspace"), out), h, f);
         }},
        {"putItem", Action::FileUploaded,
         [](Provider &p, QObject *, QObject *h, F f) {
             runTransfer(p.putItem(Id, QStringLiteral("/nonexistent/in.txt"), QStringLiteral("/workspace"),
                                   QStringLiteral("in.txt")),
                         h, f);
         }},
        {"getItem", Action::FileDownloaded,
         [](Provider &p, QObject *, QObject *h, F f) {
             runTransfer(p.getItem(Id, QStringLiteral("/workspace/out.txt"), QStringLiteral("/nonexistent"),
                                   QStringLiteral("out.txt")),
                         h, f);
         }},
        {"putTar", Action::FileUploaded,
         [](Provider &p, QObject *, QObject *h, F f) {
             auto *tar = new QBuffer(h);
             tar->open(QIODevice::ReadOnly);
             runTransfer(p.putTar(Id, tar, QStringLiteral("/workspace")), h, f);
         }},
        {"getTar", Action::FileDownloaded,
         [](Provider &p, QObject *, QObject *h, F f) {
             auto *out = new QBuffer(h);
             out->open(QIODevice::WriteOnly);
             runTransfer(p.getTar(Id, QStringLiteral("/workspace"), out), h, f);
         }},
    };
}

// The names of Provider's virtual methods, as Provider.h declares them (comments left out).
QStringList declaredVirtuals()
{
    QFile f(QStringLiteral(SANDBAR_PROVIDER_H));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QString text = QString::fromUtf8(f.readAll());
    text.remove(QRegularExpression(QStringLiteral("//[^\n]*")));
    const int start = text.indexOf(QStringLiteral("class Provider : public QObject"));
    const int end = text.indexOf(QStringLiteral("\n};"), start);
    text = text.mid(start, end - start);
    static const QRegularExpression re(QStringLiteral("\\bvirtual\\s+[^;{(]*?\\b(\\w+)\\s*\\("));
    QStringList out;
    for (auto it = re.globalMatch(text); it.hasNext();)
        out << it.next().captured(1);
    return out;
}

} // namespace

class TestAuditedProvider : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyMethodIsDriven();
    void forwardsAndAudits_data();
    void forwardsAndAudits();
};

void TestAuditedProvider::everyMethodIsDriven()
{
    const QStringList declared = declaredVirtuals();
    // Provider.h was found and read: it has held over thirty virtual methods.
    QVERIFY2(declared.size() >= 30, qPrintable(declared.join(QLatin1Char(' '))));
    QSet<QString> driven;
    for (const auto &d : table())
        driven.insert(QLatin1String(d.method));
    for (const auto &m : declared)
        QVERIFY2(driven.contains(m), qPrintable(QStringLiteral("Provider::%1 is not driven by this test: add it to "
                                                               "table() and forward it in AuditedProvider")
                                                    .arg(m)));
    for (const auto &m : std::as_const(driven))
        QVERIFY2(declared.contains(m), qPrintable(QStringLiteral("table() drives %1, which Provider.h no longer "
                                                                 "declares virtual")
                                                      .arg(m)));
}

void TestAuditedProvider::forwardsAndAudits_data()
{
    QTest::addColumn<int>("row");
    const auto t = table();
    for (int i = 0; i < t.size(); ++i)
        QTest::newRow(t[i].method) << i;
}

void TestAuditedProvider::forwardsAndAudits()
{
    QFETCH(int, row);
    const Driven d = table().at(row);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    AuditLog log(dir.path());
    QVERIFY(log.isOpen());
    log.setFlushDelay(0);

    auto spy = std::make_unique<SpyProvider>();
    SpyProvider *inner = spy.get();
    AuditedProvider wrapper(std::move(spy), log);
    QObject holder;
    bool finished = false;
    d.drive(wrapper, &holder, &holder, [&finished]() { finished = true; });
    QTRY_VERIFY2_WITH_TIMEOUT(finished, "the call's answer did not come back through the wrapper", 10000);
    // Reached the provider's own method, not a fallback of the base class.
    QVERIFY2(inner->calls.contains(QLatin1String(d.method)), qPrintable(inner->calls.join(QLatin1Char(' '))));

    // The answer came back after the wrapper recorded (its handlers run first), so the rows
    // are all there now.
    QVERIFY(log.flush().ok());
    const auto rows = log.query(AuditQuery{});
    QVERIFY(rows.ok());
    if (!d.action) {
        QVERIFY2(rows->isEmpty(), qPrintable(rows->isEmpty() ? QString() : rows->first().action));
        return;
    }
    QCOMPARE(rows->size(), 1);
    const AuditEntry &e = rows->first();
    QCOMPARE(e.action, actionName(*d.action));
    QVERIFY(e.ok);
    QCOMPARE(e.account, QStringLiteral("spy-account"));
    QCOMPARE(e.provider, QStringLiteral("spy"));
    QCOMPARE(e.sessionId, Id);
}

QTEST_GUILESS_MAIN(TestAuditedProvider)
#include "tst_auditedprovider.moc"
