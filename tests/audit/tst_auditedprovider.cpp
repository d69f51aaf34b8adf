// Every virtual method of Provider and of each facet, driven through AuditedProvider: each must
// reach the inner provider's own method (the memory provider records the calls it receives)
// with its answer coming back, and leave exactly the audit rows it promises: one for a call
// that changes something, none for a read. The methods are read from Provider.h and Facets.h
// themselves, so a method added there fails everyMethodIsDriven until this table, and the
// wrapper with it, covers it. The wrapper hands out exactly the facets its provider has.
#include "MemoryProvider.h"
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

const QString Id = QStringLiteral("spy-1");

// Everything a provider can offer: every facet, with every flag.
Capabilities everything()
{
    return Capabilities::fromInt(kFacetFlags) | Capability::Adopt | Capability::Kill;
}

SessionInfo spySession()
{
    SessionInfo s;
    s.id = Id;
    s.state = SessionState::Running;
    return s;
}

template <typename T>
void answerLater(QObject *context, Callback<T> done, T value)
{
    later(context, [done, value]() { done(Result<T>(value)); });
}

// The memory provider with every facet, each answering later with a value the table checks.
std::unique_ptr<test::MemoryProvider> makeSpy()
{
    ProviderDescriptor d;
    d.id = QStringLiteral("spy");
    d.displayName = QStringLiteral("Spy");
    d.capabilities = everything();
    auto spy = std::make_unique<test::MemoryProvider>(d, QStringLiteral("spy-account"));
    test::MemoryProvider *p = spy.get();
    p->inject(spySession());
    p->healthHook = [p](Callback<HealthInfo> done) { answerLater(p, done, HealthInfo{QStringLiteral("Spy")}); };
    p->createHook = [p](const CreateSpec &, Callback<SessionInfo> &done) {
        answerLater(p, done, spySession());
        return true;
    };
    p->hostMatch = [](const QString &) { return HostProcessMatch{QStringLiteral("spy-container"), {}}; };
    p->host = QStringLiteral("build1.example");
    p->keepsSnapshotComments = false; // not the default: the wrapper must pass the spy's answer on
    p->injectBackground(Id, BackgroundCommand{QStringLiteral("cmd-1"), {QStringLiteral("sleep")}, {}, true, {}});
    p->listPtysHook = [p](const QString &, Callback<QList<PtyEntry>> done) {
        answerLater(p, done, QList<PtyEntry>{PtyEntry{QStringLiteral("pty-1")}});
    };
    p->listImagesHook = [p](Callback<QStringList> done) {
        answerLater(p, done, QStringList{QStringLiteral("spy:latest")});
    };
    p->statHook = [p](const QString &, const QString &, Callback<PathStat> done) {
        answerLater(p, done, PathStat{true, true});
    };
    p->listFilesHook = [p](const QString &, const QString &, Callback<QList<FileEntry>> done) {
        answerLater(p, done, QList<FileEntry>{FileEntry{QStringLiteral("spy.txt")}});
    };
    p->statsHook = [p](const QString &, Callback<StatsSample> done) { answerLater(p, done, StatsSample{}); };
    const auto ok = [p](const QString &, const QString &, Callback<void> done) {
        later(p, [done]() { done(VoidResult{}); });
    };
    p->removePathHook = ok;
    p->makeDirHook = ok;
    p->movePathHook = [p](const QString &, const QString &, const QString &, Callback<void> done) {
        later(p, [done]() { done(VoidResult{}); });
    };
    p->setModeHook = [p](const QString &, const QString &, quint32, Callback<void> done) {
        later(p, [done]() { done(VoidResult{}); });
    };
    p->ptyHook = [](const QString &, const PtyOptions &) { return std::make_unique<SpyPty>(); };
    p->execHook = [](const QString &, const ExecRequest &) { return std::make_unique<SpyExec>(); };
    p->logsHook = [](const QString &, const LogOptions &) { return std::make_unique<SpyLog>(); };
    p->streamHook = [](const QString &) { return std::make_unique<SpyStats>(); };
    const auto copy = [](const QString &, const QString &, const QString &) -> std::unique_ptr<TransferJob> {
        return std::make_unique<SpyTransfer>();
    };
    p->uploadHook = copy;
    p->downloadHook = copy;
    p->uploadTarHook = [](const QString &, QIODevice *, const QString &) -> std::unique_ptr<TransferJob> {
        return std::make_unique<SpyTransfer>();
    };
    p->downloadTarHook = [](const QString &, const QString &, QIODevice *) -> std::unique_ptr<TransferJob> {
        return std::make_unique<SpyTransfer>();
    };
    return spy;
}

// How one method is driven: `finished` runs once the call's answer (callback, job or signal)
// came back through the wrapper and matched what the spy gave.
using Driver =
    std::function<void(Provider &wrapper, QObject *context, QObject *holder, std::function<void()> finished)>;

struct Driven {
    const char *method;
    std::optional<Action> action; // the one row the call writes; none for a read
    Driver drive;
};

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

bool isSpySession(const SessionInfo &s)
{
    return s.id == Id;
}

QList<Driven> table()
{
    using F = std::function<void()>;
    return {
        {"Provider::descriptor",
         {},
         [](Provider &p, QObject *, QObject *, F f) {
             if (p.descriptor().id == QLatin1String("spy"))
                 f();
         }},
        {"Provider::coreCapabilities",
         {},
         [](Provider &p, QObject *, QObject *, F f) {
             if (p.coreCapabilities() == (Capability::Adopt | Capability::Kill) && p.capabilities() == everything())
                 f();
         }},
        {"Provider::accountName",
         {},
         [](Provider &p, QObject *, QObject *, F f) {
             if (p.accountName() == QLatin1String("spy-account"))
                 f();
         }},
        {"Provider::remoteHost",
         {},
         [](Provider &p, QObject *, QObject *, F f) {
             if (p.remoteHost() == QLatin1String("build1.example"))
                 f();
         }},
        {"Provider::hostProcessMatch",
         {},
         [](Provider &p, QObject *, QObject *, F f) {
             if (p.hostProcessMatch(Id).containerId == QLatin1String("spy-container"))
                 f();
         }},
        {"Provider::health",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.health(
                 expectOk<HealthInfo>(c, f, [](const HealthInfo &h) { return h.serverName == QLatin1String("Spy"); }));
         }},
        {"Provider::listSessions",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.listSessions({}, expectOk<QList<SessionInfo>>(c, f, [](const QList<SessionInfo> &l) {
                                return l.size() == 1 && isSpySession(l.first());
                            }));
         }},
        {"Provider::create", Action::SessionCreated,
         [](Provider &p, QObject *c, QObject *, F f) {
             p.create(CreateSpec{}, expectOk<SessionInfo>(c, f, isSpySession));
         }},
        {"Provider::info",
         {},
         [](Provider &p, QObject *c, QObject *, F f) { p.info(Id, expectOk<SessionInfo>(c, f, isSpySession)); }},
        {"Provider::adopt", Action::SessionAdopted,
         [](Provider &p, QObject *c, QObject *, F f) { p.adopt(Id, expectOk<SessionInfo>(c, f, isSpySession)); }},
        {"Provider::stop", Action::SessionStopped,
         [](Provider &p, QObject *c, QObject *, F f) { p.stop(Id, expectVoid(c, f)); }},
        {"Provider::kill", Action::SessionKilled,
         [](Provider &p, QObject *c, QObject *, F f) { p.kill(Id, expectVoid(c, f)); }},
        {"Provider::remove", Action::SessionRemoved,
         [](Provider &p, QObject *c, QObject *, F f) { p.remove(Id, expectVoid(c, f)); }},
        {"PauseFacet::pause", Action::SessionPaused,
         [](Provider &p, QObject *c, QObject *, F f) { p.pausing()->pause(Id, expectVoid(c, f)); }},
        {"PauseFacet::resume", Action::SessionResumed,
         [](Provider &p, QObject *c, QObject *, F f) { p.pausing()->resume(Id, expectVoid(c, f)); }},
        {"ArchiveFacet::archive", Action::SessionArchived,
         [](Provider &p, QObject *c, QObject *, F f) { p.archiving()->archive(Id, expectVoid(c, f)); }},
        {"TimeLimitFacet::setTimeout", Action::SessionTtlChanged,
         [](Provider &p, QObject *c, QObject *, F f) { p.timeLimit()->setTimeout(Id, 600, expectVoid(c, f)); }},
        {"SnapshotFacet::createSnapshot", Action::SnapshotCreated,
         [](Provider &p, QObject *c, QObject *, F f) {
             p.snapshots()->createSnapshot(
                 Id, QStringLiteral("before the upgrade"),
                 expectOk<SnapshotEntry>(c, f, [](const SnapshotEntry &e) { return e.id == QLatin1String("snap-1"); }));
         }},
        {"SnapshotFacet::listSnapshots",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.snapshots()->listSnapshots(
                 Id, expectOk<QList<SnapshotEntry>>(c, f, [](const QList<SnapshotEntry> &) { return true; }));
         }},
        {"SnapshotFacet::keepsComments",
         {},
         [](Provider &p, QObject *, QObject *, F f) {
             if (!p.snapshots()->keepsComments())
                 f();
         }},
        {"SnapshotFacet::restoreSnapshot", Action::SnapshotRestored,
         [](Provider &p, QObject *c, QObject *, F f) {
             p.snapshots()->restoreSnapshot(Id, QStringLiteral("snap-1"), expectVoid(c, f));
         }},
        {"ForkFacet::fork", Action::SessionForked,
         [](Provider &p, QObject *c, QObject *, F f) {
             p.forking()->fork(
                 Id, ForkSpec{QStringLiteral("copy"), {}},
                 expectOk<SessionInfo>(c, f, [](const SessionInfo &s) { return s.id == QLatin1String("copy"); }));
         }},
        {"ForkFacet::forkOrigin",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.forking()->forkOrigin(Id, expectOk<QString>(c, f, [](const QString &s) {
                                         return s.contains(QLatin1String("as they are"));
                                     }));
         }},
        {"SettingsFacet::changeSettings", Action::SessionSettingsChanged,
         [](Provider &p, QObject *c, QObject *, F f) {
             p.sessionSettings()->changeSettings(Id, QVariantMap{{QStringLiteral("public-url"), true}},
                                                 expectOk<SessionInfo>(c, f, [](const SessionInfo &s) {
                                                     return s.settings.value(QStringLiteral("public-url")).toBool();
                                                 }));
         }},
        {"FilesFacet::fileFlags",
         {},
         [](Provider &p, QObject *, QObject *, F f) {
             if (p.files()->fileFlags() == (Capability::Files | Capability::FileList))
                 f();
         }},
        {"FilesFacet::removePath", Action::FileRemoved,
         [](Provider &p, QObject *c, QObject *, F f) {
             p.files()->removePath(Id, QStringLiteral("/workspace/old"), expectVoid(c, f));
         }},
        {"FilesFacet::makeDir", Action::FolderCreated,
         [](Provider &p, QObject *c, QObject *, F f) {
             p.files()->makeDir(Id, QStringLiteral("/workspace/new"), expectVoid(c, f));
         }},
        {"FilesFacet::movePath", Action::FileMoved,
         [](Provider &p, QObject *c, QObject *, F f) {
             p.files()->movePath(Id, QStringLiteral("/workspace/a"), QStringLiteral("/workspace/b"), expectVoid(c, f));
         }},
        {"FilesFacet::setMode", Action::FileModeChanged,
         [](Provider &p, QObject *c, QObject *, F f) {
             p.files()->setMode(Id, QStringLiteral("/workspace/run.sh"), 0755, expectVoid(c, f));
         }},
        {"FilesFacet::statPath",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.files()->statPath(Id, QStringLiteral("/workspace"),
                                 expectOk<PathStat>(c, f, [](const PathStat &s) { return s.isDir; }));
         }},
        {"FilesFacet::listFiles",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.files()->listFiles(Id, QStringLiteral("/workspace"),
                                  expectOk<QList<FileEntry>>(c, f, [](const QList<FileEntry> &l) {
                                      return l.size() == 1 && l.first().name == QLatin1String("spy.txt");
                                  }));
         }},
        {"StatsFacet::statsFlags",
         {},
         [](Provider &p, QObject *, QObject *, F f) {
             if (p.statistics()->statsFlags() == Capabilities::fromInt(kStatsFlags))
                 f();
         }},
        {"StatsFacet::onceFlags",
         {},
         [](Provider &p, QObject *, QObject *, F f) {
             if (p.statistics()->onceFlags() ==
                 (Capabilities::fromInt(kStatsFlags) & ~Capabilities(Capability::StatsMemory)))
                 f();
         }},
        {"StatsFacet::stats",
         {},
         [](Provider &p, QObject *c, QObject *, F f) { p.statistics()->stats(Id, expectOk<StatsSample>(c, f)); }},
        {"TerminalFacet::terminalFlags",
         {},
         [](Provider &p, QObject *, QObject *, F f) {
             if (p.terminals()->terminalFlags() == Capabilities::fromInt(kTerminalFlags))
                 f();
         }},
        {"TerminalFacet::listPtys",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.terminals()->listPtys(Id, expectOk<QList<PtyEntry>>(c, f, [](const QList<PtyEntry> &l) {
                                         return l.size() == 1 && l.first().id == QLatin1String("pty-1");
                                     }));
         }},
        {"ImagesFacet::listImages",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.images()->listImages(expectOk<QStringList>(
                 c, f, [](const QStringList &l) { return l == QStringList{QStringLiteral("spy:latest")}; }));
         }},
        {"TerminalFacet::openPty", Action::PtyOpened,
         [](Provider &p, QObject *, QObject *h, F f) {
             PtyChannel *ch = p.terminals()->openPty(Id, PtyOptions{}).release();
             ch->setParent(h);
             QObject::connect(ch, &PtyChannel::started, h, f);
             ch->start();
         }},
        {"ExecFacet::exec", Action::ExecRun,
         [](Provider &p, QObject *, QObject *h, F f) {
             ExecJob *job = p.commands()->exec(Id, ExecRequest{{QStringLiteral("true")}}).release();
             job->setParent(h);
             QObject::connect(job, &ExecJob::finished, h, [f](const Result<int> &r) {
                 if (r.ok() && r.value() == 7)
                     f();
             });
             job->start();
         }},
        {"BackgroundFacet::startBackground", Action::CommandStarted,
         [](Provider &p, QObject *c, QObject *, F f) {
             ExecRequest req;
             req.argv = {QStringLiteral("npm"), QStringLiteral("run"), QStringLiteral("dev")};
             p.background()->startBackground(Id, req, expectOk<BackgroundCommand>(c, f, [](const BackgroundCommand &b) {
                                                 return b.running && b.argv.size() == 3;
                                             }));
         }},
        {"BackgroundFacet::listBackground",
         {},
         [](Provider &p, QObject *c, QObject *, F f) {
             p.background()->listBackground(
                 Id, expectOk<QList<BackgroundCommand>>(c, f, [](const QList<BackgroundCommand> &) { return true; }));
         }},
        {"BackgroundFacet::backgroundOutput",
         {},
         [](Provider &p, QObject *, QObject *h, F f) {
             LogStream *s = p.background()->backgroundOutput(Id, QStringLiteral("cmd-0")).release();
             s->setParent(h);
             QObject::connect(s, &LogStream::finished, h, [f](const VoidResult &r) {
                 if (r.ok())
                     f();
             });
             s->start();
         }},
        {"BackgroundFacet::signalBackground", Action::CommandSignalled,
         [](Provider &p, QObject *c, QObject *, F f) {
             p.background()->signalBackground(Id, QStringLiteral("cmd-1"), 15, expectVoid(c, f));
         }},
        {"LabelsFacet::setLabels", Action::SessionLabelsChanged,
         [](Provider &p, QObject *c, QObject *, F f) {
             p.labelling()->setLabels(Id, {{QStringLiteral("team"), QStringLiteral("blue")}},
                                      expectOk<SessionInfo>(c, f, [](const SessionInfo &s) {
                                          return s.labels.value(QStringLiteral("team")) == QLatin1String("blue");
                                      }));
         }},
        {"LogsFacet::logs",
         {},
         [](Provider &p, QObject *, QObject *h, F f) {
             LogStream *s = p.logReader()->logs(Id, LogOptions{}).release();
             s->setParent(h);
             QObject::connect(s, &LogStream::finished, h, [f](const VoidResult &r) {
                 if (r.ok())
                     f();
             });
             s->start();
         }},
        {"StatsFacet::streamStats",
         {},
         [](Provider &p, QObject *, QObject *h, F f) {
             StatsStream *s = p.statistics()->streamStats(Id).release();
             s->setParent(h);
             QObject::connect(s, &StatsStream::sample, h, f);
             s->start();
         }},
        {"FilesFacet::upload", Action::FileUploaded,
         [](Provider &p, QObject *, QObject *h, F f) {
             runTransfer(p.files()->upload(Id, QStringLiteral("/nonexistent/in.txt"), QStringLiteral("/workspace/")), h,
                         f);
         }},
        {"FilesFacet::download", Action::FileDownloaded,
         [](Provider &p, QObject *, QObject *h, F f) {
             runTransfer(p.files()->download(Id, QStringLiteral("/workspace/out.txt"), QStringLiteral("/nonexistent/")),
                         h, f);
         }},
        {"FilesFacet::uploadTar", Action::FileUploaded,
         [](Provider &p, QObject *, QObject *h, F f) {
             auto *tar = new QBuffer(h);
             tar->open(QIODevice::ReadOnly);
             runTransfer(p.files()->uploadTar(Id, tar, QStringLiteral("/workspace")), h, f);
         }},
        {"FilesFacet::downloadTar", Action::FileDownloaded,
         [](Provider &p, QObject *, QObject *h, F f) {
             auto *out = new QBuffer(h);
             out->open(QIODevice::WriteOnly);
             runTransfer(p.files()->downloadTar(Id, QStringLiteral("/workspace"), out), h, f);
         }},
    };
}

// The virtual methods of each class in a header, as "Class::method" (comments left out).
QStringList declaredVirtuals(const QString &header, const QStringList &classes)
{
    QFile f(header);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QString text = QString::fromUtf8(f.readAll());
    text.remove(QRegularExpression(QStringLiteral("//[^\n]*")));
    static const QRegularExpression re(QStringLiteral("\\bvirtual\\s+[^;{(~]*?\\b(\\w+)\\s*\\("));
    QStringList out;
    for (const QString &cls : classes) {
        const int start = text.indexOf(QStringLiteral("class %1\n").arg(cls)) >= 0
                              ? text.indexOf(QStringLiteral("class %1\n").arg(cls))
                              : text.indexOf(QStringLiteral("class %1 ").arg(cls));
        if (start < 0)
            return {}; // a class gone or renamed: the test says so below
        const int end = text.indexOf(QStringLiteral("\n};"), start);
        const QString body = text.mid(start, end - start);
        for (auto it = re.globalMatch(body); it.hasNext();)
            out << cls + QStringLiteral("::") + it.next().captured(1);
    }
    return out;
}

// Provider's own virtual methods and every facet's.
QStringList declaredVirtuals()
{
    return declaredVirtuals(QStringLiteral(SANDBAR_PROVIDER_H), {QStringLiteral("Provider")}) +
           declaredVirtuals(QStringLiteral(SANDBAR_FACETS_H),
                            {QStringLiteral("TerminalFacet"), QStringLiteral("ExecFacet"), QStringLiteral("FilesFacet"),
                             QStringLiteral("StatsFacet"), QStringLiteral("LogsFacet"), QStringLiteral("ImagesFacet"),
                             QStringLiteral("PauseFacet"), QStringLiteral("ArchiveFacet"),
                             QStringLiteral("TimeLimitFacet"), QStringLiteral("SnapshotFacet"),
                             QStringLiteral("ForkFacet"), QStringLiteral("SettingsFacet"),
                             QStringLiteral("BackgroundFacet"), QStringLiteral("LabelsFacet")});
}

// The method's own name, as the memory provider records it.
QString bareName(const char *method)
{
    return QString::fromLatin1(method).section(QStringLiteral("::"), 1);
}

} // namespace

class TestAuditedProvider : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyMethodIsDriven();
    void forwardsAndAudits_data();
    void forwardsAndAudits();
    void handsOutItsProvidersFacets_data();
    void handsOutItsProvidersFacets();
};

void TestAuditedProvider::everyMethodIsDriven()
{
    const QStringList declared = declaredVirtuals();
    // Both headers were found and read: together they hold over thirty virtual methods.
    QVERIFY2(declared.size() >= 30, qPrintable(declared.join(QLatin1Char(' '))));
    QSet<QString> driven;
    for (const auto &d : table())
        driven.insert(QLatin1String(d.method));
    for (const auto &m : declared)
        QVERIFY2(driven.contains(m), qPrintable(QStringLiteral("%1 is not driven by this test: add it to "
                                                               "table() and forward it in AuditedProvider")
                                                    .arg(m)));
    for (const auto &m : std::as_const(driven))
        QVERIFY2(declared.contains(m),
                 qPrintable(QStringLiteral("table() drives %1, which Provider.h and Facets.h no longer "
                                           "declare virtual")
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

    auto spy = makeSpy();
    test::MemoryProvider *inner = spy.get();
    AuditedProvider wrapper(std::move(spy), log);
    inner->calls.clear();
    QObject holder;
    bool finished = false;
    bool returned = false;
    bool early = false; // answered before the call that started it returned
    d.drive(wrapper, &holder, &holder, [&]() {
        finished = true;
        early = !returned;
    });
    returned = true;
    QTRY_VERIFY2_WITH_TIMEOUT(finished, "the call's answer did not come back through the wrapper", 10000);
    // The completion contract, through the wrapper: plain reads answer in the call, the rest later.
    const bool read =
        QByteArray(d.method).endsWith("Flags") ||
        QByteArrayList{"Provider::descriptor",       "Provider::coreCapabilities", "Provider::accountName",
                       "Provider::hostProcessMatch", "Provider::remoteHost",       "SnapshotFacet::keepsComments"}
            .contains(d.method);
    QVERIFY2(early == read, early ? "answered before the call returned" : "a plain read did not answer in the call");
    // Reached the provider's own method, not a fallback of the base class.
    QVERIFY2(inner->calls.contains(bareName(d.method)), qPrintable(inner->calls.join(QLatin1Char(' '))));

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
    // The spy runs on another machine (as an engine over SSH): every row names it.
    QCOMPARE(e.detail.value(QStringLiteral("host")).toString(), QStringLiteral("build1.example"));
}

// The wrapper has a facet exactly where its provider has one, each pointing at the wrapper's
// own methods (so nothing bypasses the log), with the same capabilities, and follows the
// provider when it hands out another table.
void TestAuditedProvider::handsOutItsProvidersFacets_data()
{
    QTest::addColumn<Capabilities>("first");
    QTest::addColumn<Capabilities>("then");
    const Capabilities all = Capabilities::fromInt(kFacetFlags);
    QTest::newRow("none, then all") << Capabilities() << all;
    QTest::newRow("all, then none") << all << Capabilities();
    const Capability single[] = {Capability::Pty,         Capability::Exec,    Capability::Files,
                                 Capability::StatsCpu,    Capability::Logs,    Capability::Images,
                                 Capability::PauseResume, Capability::Archive, Capability::SetTimeout,
                                 Capability::Snapshots,   Capability::Fork,    Capability::Settings};
    for (Capability c : single)
        QTest::addRow("only %s", qPrintable(capabilityName(c))) << Capabilities(c) << (all & ~Capabilities(c));
}

void TestAuditedProvider::handsOutItsProvidersFacets()
{
    QFETCH(Capabilities, first);
    QFETCH(Capabilities, then);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    AuditLog log(dir.path());
    auto spy = makeSpy();
    test::MemoryProvider *inner = spy.get();
    inner->offer(first);
    AuditedProvider wrapper(std::move(spy), log);
    for (const Capabilities caps : {first, then}) {
        inner->offer(caps);
        QCOMPARE(wrapper.capabilities(), inner->capabilities());
        const Facets &in = inner->facets();
        const Facets &out = wrapper.facets();
        const auto mirrors = [&](const void *i, const void *o) { return i ? (o && o != i) : !o; };
        QVERIFY(mirrors(in.terminals, out.terminals));
        QVERIFY(mirrors(in.exec, out.exec));
        QVERIFY(mirrors(in.files, out.files));
        QVERIFY(mirrors(in.stats, out.stats));
        QVERIFY(mirrors(in.logs, out.logs));
        QVERIFY(mirrors(in.images, out.images));
        QVERIFY(mirrors(in.pause, out.pause));
        QVERIFY(mirrors(in.archive, out.archive));
        QVERIFY(mirrors(in.timeLimit, out.timeLimit));
        QVERIFY(mirrors(in.snapshots, out.snapshots));
        QVERIFY(mirrors(in.fork, out.fork));
        QVERIFY(mirrors(in.settings, out.settings));
    }
}

QTEST_GUILESS_MAIN(TestAuditedProvider)
#include "tst_auditedprovider.moc"
