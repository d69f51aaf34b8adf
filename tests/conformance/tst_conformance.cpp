// The conformance suite: the same flows, in order, against one provider of the list
// (SANDBAR_CONFORMANCE_PROVIDER; CMake adds one run per provider, named after its id), made
// by its registered factory and used through the audit wrapper as the app uses it. A session
// is created with labels and found by them, runs commands (exit 0 and non-zero), a terminal
// (an echo, then a resize that `stty size` sees), a checksummed upload and download, a
// listing, a new folder and a delete (the provider's own calls where it has them), statistics,
// a snapshot taken and restored, a fork, changed settings, a command left running (its
// output followed, then a signal), stop and remove; every change leaves its audit row. A flow whose facet the
// provider lacks is skipped, and the output says which facet. Cloud providers run against their contract server on
// loopback; Docker and Podman against the test engines, Local with real bubblewrap.
#include "ContractAccount.h"
#include "PrivateSshd.h"
#include "ServerProcess.h"
#include "TestSupport.h"
#include "audit/AuditLog.h"
#include "audit/AuditedProvider.h"
#include "terminal/PtyChannel.h"
#include "wiring/AppServices.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

using namespace sandbar;
using sandbar::test::await;
using sandbar::test::waitUntil;

namespace {

constexpr int kCallMs = 90000; // generous: an engine pulling nothing still creates in seconds
const QString kLabel = QStringLiteral("dev.sandbar.conformance");

struct Ran {
    std::optional<Result<int>> code;
    QByteArray out;
};

Ran run(Provider &p, const QString &id, const QStringList &argv)
{
    Ran r;
    ExecRequest req;
    req.argv = argv;
    std::unique_ptr<ExecJob> job = p.commands()->exec(id, req);
    QObject ctx;
    QObject::connect(job.get(), &ExecJob::stdoutData, &ctx, [&r](const QByteArray &b) { r.out += b; });
    QObject::connect(job.get(), &ExecJob::finished, &ctx, [&r](const Result<int> &c) { r.code = c; });
    job->start();
    waitUntil([&] { return r.code.has_value(); }, kCallMs);
    return r;
}

// What a command's answer was, for a failure message (QVERIFY2 builds it either way).
QString outcome(const Ran &r)
{
    if (!r.code)
        return QStringLiteral("no answer");
    return r.code->ok() ? QStringLiteral("exit %1").arg(r.code->value()) : r.code->message();
}

VoidResult transfer(std::unique_ptr<TransferJob> job)
{
    std::optional<VoidResult> done;
    QObject ctx;
    QObject::connect(job.get(), &TransferJob::finished, &ctx, [&done](const VoidResult &r) { done = r; });
    job->start();
    if (!waitUntil([&] { return done.has_value(); }, kCallMs))
        return makeError(ErrorCode::Timeout, QStringLiteral("the transfer did not finish"));
    return *done;
}

} // namespace

class TestConformance : public QObject
{
    Q_OBJECT
    QString m_id; // the provider's id
    ProviderDescriptor m_descriptor;
    QString m_token; // this run's label value and names
    QTemporaryDir m_dir;
    std::unique_ptr<contract::ServerProcess> m_server;
    std::unique_ptr<test::PrivateSshd> m_sshd; // the _ssh runs: an engine over SSH
    std::unique_ptr<audit::AuditLog> m_log;
    std::unique_ptr<Provider> m_p; // the audit wrapper around the provider
    QString m_session;
    QString m_remote; // the session's scratch folder
    QList<audit::Action> m_expected;
    QList<int> m_expectedFailures; // indices into m_expected of actions that must be logged as failed

    // How to reach a test account of each provider: a cloud provider's contract server, the
    // test engines, Local's data folder. A provider added to the list fails here until it says.
    std::optional<AccountConfig> testAccount(const ProviderDescriptor &d, QString *why);
    bool requireSession()
    {
        if (m_session.isEmpty())
            qWarning("no session: an earlier flow failed");
        return !m_session.isEmpty();
    }

private Q_SLOTS:
    void initTestCase();
    void createWithLabels();
    void listByLabel();
    void execExitCodes();
    void terminalEchoAndResize();
    void uploadAndDownload();
    void listing();
    void makeFolderAndRemove();
    void renameAndPermissions();
    void statistics();
    void snapshots();
    void forkSession();
    void changeSettings();
    void backgroundCommands();
    void changeLabels();
    void stopSession();
    void removeSession();
    void auditRows();
    void cleanupTestCase();
};

std::optional<AccountConfig> TestConformance::testAccount(const ProviderDescriptor &d, QString *why)
{
    AccountConfig a;
    a.name = QStringLiteral("conformance-") + d.id;
    a.provider = d.id;
    a.dataDir = m_dir.filePath(QStringLiteral("account"));
    QDir().mkpath(a.dataDir);
    if (!d.selfHosted) {
        const QString key = QStringLiteral("sbtest-secret-conformance-") + d.id; // secret_watch's marker
        m_server = std::make_unique<contract::ServerProcess>(d.id, QStringList{QStringLiteral("--api-key"), key});
        if (!m_server->start()) {
            *why = QStringLiteral("the %1 contract server did not start: %2").arg(d.id, m_server->error());
            return std::nullopt;
        }
        AccountConfig c = contract::contractAccount(d, a.name, m_server->baseUrl(), key);
        c.dataDir = a.dataDir;
        return c;
    }
    if (d.id == QLatin1String("local"))
        return a;
    if (d.id == QLatin1String("docker") || d.id == QLatin1String("podman")) {
        const QString host = d.id == QLatin1String("docker") ? test::dockerHost() : test::podmanHost();
        if (host.isEmpty()) {
            *why = QStringLiteral("no test engine for %1 (SANDBAR_TEST_%2_HOST)").arg(d.id, d.id.toUpper());
            return std::nullopt;
        }
        if (!qEnvironmentVariableIsSet("SANDBAR_CONFORMANCE_SSH")) {
            a.settings.insert(QStringLiteral("endpoint"), host);
            return a;
        }
        // The same engine on another "machine": a private sshd on loopback in front of it.
        if (!test::PrivateSshd::available() || !host.startsWith(QLatin1String("unix://"))) {
            *why = QStringLiteral("%1 over SSH needs openssh-server and a unix socket engine").arg(d.id);
            return std::nullopt;
        }
        m_sshd = std::make_unique<test::PrivateSshd>();
        if (!m_sshd->start()) {
            *why = m_sshd->error();
            return std::nullopt;
        }
        // Its own runtime folder (owner only, or Qt passes it over) for the control sockets.
        const QString run = m_dir.filePath(QStringLiteral("run"));
        QDir().mkpath(run);
        QFile::setPermissions(run, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        qputenv("XDG_RUNTIME_DIR", run.toLocal8Bit());
        a.settings.insert(QStringLiteral("endpoint"), QString(QStringLiteral("ssh://sandbar-test") + host.mid(7)));
        a.settings.insert(QStringLiteral("ssh-config"), m_sshd->sshConfig());
        return a;
    }
    *why = QStringLiteral("say in testAccount() how to reach a test account of %1").arg(d.id);
    return std::nullopt;
}

void TestConformance::initTestCase()
{
    m_id = qEnvironmentVariable("SANDBAR_CONFORMANCE_PROVIDER");
    QVERIFY2(!m_id.isEmpty(), "SANDBAR_CONFORMANCE_PROVIDER names the provider to run");
    QVERIFY(m_dir.isValid());
    m_token = QUuid::createUuid().toString(QUuid::Id128).left(12);
    ProviderFactories factories;
    registerProviders(factories);
    const ProviderFactory *factory = factories.find(m_id);
    QVERIFY2(factory, qPrintable(m_id + QStringLiteral(" is not in the provider list")));
    m_descriptor = factory->descriptor();
    QString why;
    const auto account = testAccount(factory->descriptor(), &why);
    if (!account && factory->descriptor().selfHosted)
        SANDBAR_REQUIRE(false, why); // an engine that is not here: fails in CI, skips elsewhere
    QVERIFY2(account, qPrintable(why));
    // As the registry does: the factory's blocking preparation first (an SSH login, say).
    AccountConfig prepared = *account;
    if (auto prepare = factory->preparation(prepared))
        prepared = prepare(prepared);
    auto made = factory->create(prepared);
    QVERIFY2(made.ok(), qPrintable(made.ok() ? QString() : made.error().message));
    m_log = std::make_unique<audit::AuditLog>(m_dir.filePath(QStringLiteral("audit")));
    QVERIFY(m_log->isOpen());
    m_log->setFlushDelay(0);
    m_p = std::make_unique<audit::AuditedProvider>(std::move(made.value()), *m_log);
    const auto health = await<HealthInfo>([&](auto cb) { m_p->health(cb); }, kCallMs);
    const QString unreachable =
        health.ok() ? QString() : m_id + QStringLiteral(" is not reachable: ") + health.message();
    if (!factory->descriptor().selfHosted) // its contract server is ours, on loopback: no excuse
        QVERIFY2(health.ok(), qPrintable(unreachable));
    SANDBAR_REQUIRE(health.ok(), unreachable);
    qInfo("%s offers: %s", qPrintable(m_id), qPrintable(capabilityNames(m_p->capabilities()).join(QLatin1Char(' '))));
}

void TestConformance::createWithLabels()
{
    // The person's label given as the New session dialog and sandbarctl give it: through the
    // provider's own "labels" create option, which every provider has.
    QMap<QString, QStringList> texts{
        {QLatin1String(createkeys::Labels), {QStringLiteral("conformance-owner=") + m_token}}};
    if (m_id == QLatin1String("docker") || m_id == QLatin1String("podman"))
        texts.insert(QLatin1String(createkeys::Image), {test::testImage()});
    const auto options = parseFieldValues(m_descriptor.createOptions, texts);
    QVERIFY_RESULT(options);
    CreateSpec spec = createSpecFromOptions(*options);
    spec.name = QStringLiteral("conformance-") + m_token;
    spec.ttlSeconds = 900; // never left behind for long, whatever happens below
    spec.labels.insert(kLabel, m_token);
    const auto s = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, kCallMs);
    QVERIFY_RESULT(s);
    QVERIFY(!s->id.isEmpty());
    m_session = s->id;
    m_expected << audit::Action::SessionCreated;
    QCOMPARE(s->labels.value(kLabel), m_token);
    QCOMPARE(labels::personsOnly(s->labels).value(QStringLiteral("conformance-owner")), m_token);
}

void TestConformance::listByLabel()
{
    QVERIFY(requireSession());
    // Listed by its label, with the ownership labels beside it.
    std::optional<SessionInfo> found;
    QVERIFY(waitUntil(
        [&] {
            const auto list = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions(ListOptions{}, cb); });
            for (const SessionInfo &s : list.valueOr({})) {
                if (s.labels.value(kLabel) == m_token)
                    found = s;
            }
            return found.has_value();
        },
        kCallMs));
    QCOMPARE(found->id, m_session);
    QCOMPARE(found->labels.value(QLatin1String(labels::App)), QLatin1String(labels::AppValue));
    QCOMPARE(found->labels.value(QStringLiteral("conformance-owner")), m_token);
    QVERIFY(waitUntil(
        [&] {
            const auto info = await<SessionInfo>([&](auto cb) { m_p->info(m_session, cb); });
            return info.ok() && info->state == SessionState::Running;
        },
        kCallMs));
}

void TestConformance::execExitCodes()
{
    QVERIFY(requireSession());
    if (!m_p->commands())
        QSKIP("no exec facet: this provider does not run commands");
    const Ran ok = run(*m_p, m_session, {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo conf-ok")});
    QVERIFY2(ok.code && ok.code->ok(), qPrintable(outcome(ok)));
    QCOMPARE(ok.code->value(), 0);
    QVERIFY2(ok.out.contains("conf-ok"), ok.out.constData());
    const Ran three =
        run(*m_p, m_session, {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo conf-3; exit 3")});
    QVERIFY2(three.code && three.code->ok(), qPrintable(outcome(three)));
    QCOMPARE(three.code->value(), 3);
    QVERIFY2(three.out.contains("conf-3"), three.out.constData());
    m_expected << audit::Action::ExecRun << audit::Action::ExecRun;
}

void TestConformance::terminalEchoAndResize()
{
    QVERIFY(requireSession());
    TerminalFacet *terminals = m_p->terminals();
    if (!terminals)
        QSKIP("no terminals facet: this provider opens no terminal");
    PtyOptions o;
    o.cols = 80;
    o.rows = 24;
    std::unique_ptr<PtyChannel> pty = terminals->openPty(m_session, o);
    QByteArray out;
    bool started = false;
    std::optional<Error> failed;
    QObject ctx;
    connect(pty.get(), &PtyChannel::started, &ctx, [&] { started = true; });
    connect(pty.get(), &PtyChannel::dataReceived, &ctx, [&](const QByteArray &b) { out += b; });
    connect(pty.get(), &PtyChannel::errorOccurred, &ctx, [&](const Error &e) { failed = e; });
    pty->start();
    m_expected << audit::Action::PtyOpened;
    QVERIFY(waitUntil([&] { return started || failed; }, kCallMs));
    QVERIFY2(!failed, qPrintable(failed ? failed->message : QString()));
    // The sum is worked out by the shell, so the echo of the typed line does not match.
    pty->write("echo conf-$((6*7))\n");
    QVERIFY2(waitUntil([&] { return out.contains("conf-42") || failed; }, kCallMs), out.right(400).constData());
    if (!m_p->capabilities().testFlag(Capability::PtyResize)) {
        qInfo("no PtyResize flag: the resize is not checked");
    } else {
        pty->resize(100, 30);
        // Ask until the new size is seen: the resize travels beside the input on some services.
        QVERIFY2(waitUntil(
                     [&] {
                         pty->write("stty size\n");
                         return waitUntil([&] { return out.contains("30 100") || failed; }, 2000);
                     },
                     kCallMs),
                 out.right(400).constData());
    }
    QVERIFY2(!failed, qPrintable(failed ? failed->message : QString()));
    pty->close();
}

void TestConformance::uploadAndDownload()
{
    QVERIFY(requireSession());
    FilesFacet *files = m_p->files();
    if (!files)
        QSKIP("no files facet: this provider copies no files");
    m_remote = QStringLiteral("/tmp/sbconf-") + m_token;
    // The folder first, through the provider's own call where it has one.
    QVERIFY_RESULT(await<void>([&](auto cb) { files->makeDir(m_session, m_remote, cb); }, kCallMs));
    m_expected << audit::Action::FolderCreated;
    QByteArray data(1 << 20, Qt::Uninitialized);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(data.data()), data.size() / 4);
    const QString local = m_dir.filePath(QStringLiteral("blob.bin"));
    {
        QFile f(local);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(data) == data.size());
    }
    QVERIFY_RESULT(transfer(files->upload(m_session, local, m_remote + QLatin1Char('/'))));
    m_expected << audit::Action::FileUploaded;
    const QString back = m_dir.filePath(QStringLiteral("back"));
    QVERIFY(QDir().mkpath(back));
    QVERIFY_RESULT(
        transfer(files->download(m_session, m_remote + QStringLiteral("/blob.bin"), back + QLatin1Char('/'))));
    m_expected << audit::Action::FileDownloaded;
    QCOMPARE(test::sha256File(back + QStringLiteral("/blob.bin")), test::sha256File(local));
}

void TestConformance::listing()
{
    QVERIFY(requireSession());
    if (!m_p->files() || !m_p->capabilities().testFlag(Capability::FileList))
        QSKIP("no FileList flag: this provider lists no folders");
    QVERIFY2(!m_remote.isEmpty(), "the upload flow made no folder");
    const auto list =
        await<QList<FileEntry>>([&](auto cb) { m_p->files()->listFiles(m_session, m_remote, cb); }, kCallMs);
    QVERIFY_RESULT(list);
    const auto it = std::find_if(list->begin(), list->end(),
                                 [](const FileEntry &e) { return e.name == QLatin1String("blob.bin"); });
    QVERIFY2(it != list->end(), "the uploaded file is not listed");
    QCOMPARE(it->size, qint64(1 << 20));
    QVERIFY(!it->isDir);
}

void TestConformance::makeFolderAndRemove()
{
    QVERIFY(requireSession());
    FilesFacet *files = m_p->files();
    if (!files)
        QSKIP("no files facet: this provider makes no folders");
    QVERIFY2(!m_remote.isEmpty(), "the upload flow made no folder");
    const QString deeper = m_remote + QStringLiteral("/sub/deeper");
    QVERIFY_RESULT(await<void>([&](auto cb) { files->makeDir(m_session, deeper, cb); }, kCallMs));
    m_expected << audit::Action::FolderCreated;
    const auto made = await<PathStat>([&](auto cb) { files->statPath(m_session, deeper, cb); }, kCallMs);
    QVERIFY_RESULT(made);
    QVERIFY(made->exists && made->isDir);
    QVERIFY_RESULT(
        await<void>([&](auto cb) { files->removePath(m_session, m_remote + QStringLiteral("/sub"), cb); }, kCallMs));
    m_expected << audit::Action::FileRemoved;
    const auto gone = await<PathStat>([&](auto cb) { files->statPath(m_session, deeper, cb); }, kCallMs);
    QVERIFY_RESULT(gone);
    QVERIFY(!gone->exists);
}

void TestConformance::renameAndPermissions()
{
    QVERIFY(requireSession());
    FilesFacet *files = m_p->files();
    if (!files)
        QSKIP("no files facet: this provider renames nothing");
    QVERIFY2(!m_remote.isEmpty(), "the upload flow made no folder");
    const QString from = m_remote + QStringLiteral("/blob.bin");
    const QString to = m_remote + QStringLiteral("/renamed blob ü.bin");
    QVERIFY_RESULT(await<void>([&](auto cb) { files->movePath(m_session, from, to, cb); }, kCallMs));
    m_expected << audit::Action::FileMoved;
    const auto oldName = await<PathStat>([&](auto cb) { files->statPath(m_session, from, cb); }, kCallMs);
    const auto newName = await<PathStat>([&](auto cb) { files->statPath(m_session, to, cb); }, kCallMs);
    QVERIFY_RESULT(oldName);
    QVERIFY_RESULT(newName);
    QVERIFY(!oldName->exists && newName->exists && !newName->isDir);
    // A name that is taken is refused, and neither the file nor what had the name is touched.
    const QString taken = m_remote + QStringLiteral("/taken");
    QVERIFY_RESULT(await<void>([&](auto cb) { files->makeDir(m_session, taken, cb); }, kCallMs));
    m_expected << audit::Action::FolderCreated;
    const auto refused = await<void>([&](auto cb) { files->movePath(m_session, to, taken, cb); }, kCallMs);
    QVERIFY2(!refused.ok(), "a taken name was not refused");
    QCOMPARE(refused.code(), ErrorCode::Conflict);
    m_expectedFailures << int(m_expected.size());
    m_expected << audit::Action::FileMoved;
    const auto still = await<PathStat>([&](auto cb) { files->statPath(m_session, to, cb); }, kCallMs);
    const auto folder = await<PathStat>([&](auto cb) { files->statPath(m_session, taken, cb); }, kCallMs);
    QVERIFY_RESULT(still);
    QVERIFY_RESULT(folder);
    QVERIFY(still->exists && !still->isDir && folder->exists && folder->isDir);
    // The mode, read back inside the session by stat(1).
    QVERIFY_RESULT(await<void>([&](auto cb) { files->setMode(m_session, to, 0640, cb); }, kCallMs));
    m_expected << audit::Action::FileModeChanged;
    if (!m_p->commands())
        QSKIP("no exec facet: the mode is not read back");
    const Ran mode = run(*m_p, m_session, {QStringLiteral("stat"), QStringLiteral("-c"), QStringLiteral("%a"), to});
    m_expected << audit::Action::ExecRun;
    QVERIFY2(mode.code && mode.code->ok() && mode.code->value() == 0, qPrintable(outcome(mode)));
    QCOMPARE(mode.out.trimmed(), QByteArray("640"));
    // The upload's file has its old name again, for the flows after this one.
    QVERIFY_RESULT(await<void>([&](auto cb) { files->movePath(m_session, to, from, cb); }, kCallMs));
    m_expected << audit::Action::FileMoved;
}

void TestConformance::statistics()
{
    QVERIFY(requireSession());
    StatsFacet *stats = m_p->statistics();
    if (!stats)
        QSKIP("no statistics facet: this provider reports no resource use");
    // A CPU share is the difference of two readings: the first sample may lack it. A one-off
    // call promises what onceFlags() says; the rest comes on the stream, checked below.
    const Capabilities flags = stats->onceFlags();
    QCOMPARE(flags & ~stats->statsFlags(), Capabilities());
    std::optional<Result<StatsSample>> s;
    QVERIFY(waitUntil(
        [&] {
            s = await<StatsSample>([&](auto cb) { stats->stats(m_session, cb); }, kCallMs);
            return !s->ok() || !flags.testFlag(Capability::StatsCpu) || (*s)->cpuPercent.has_value();
        },
        kCallMs));
    QVERIFY_RESULT(*s);
    if (flags.testFlag(Capability::StatsCpu))
        QVERIFY2((*s)->cpuPercent && *(*s)->cpuPercent >= 0, "StatsCpu, yet no CPU figure");
    if (flags.testFlag(Capability::StatsMemory))
        QVERIFY2((*s)->memoryUsedBytes && *(*s)->memoryUsedBytes >= 0, "StatsMemory, yet no memory figure");
    const Capabilities streamOnly = stats->statsFlags() & ~flags & (Capability::StatsMemory | Capability::StatsDisk);
    if (streamOnly == Capabilities())
        return;
    // What only the stream reads (inside the session) comes on its samples.
    std::unique_ptr<StatsStream> stream = stats->streamStats(m_session);
    std::optional<StatsSample> got;
    QObject ctx;
    connect(stream.get(), &StatsStream::sample, &ctx, [&](const StatsSample &sample) {
        const bool memory = !streamOnly.testFlag(Capability::StatsMemory) || sample.memoryUsedBytes.has_value();
        const bool disk = !streamOnly.testFlag(Capability::StatsDisk) || sample.filesystemUsedBytes.has_value();
        if (memory && disk)
            got = sample;
    });
    stream->start();
    QVERIFY2(waitUntil([&] { return got.has_value(); }, kCallMs), "the stream never gave its stream-only figures");
    stream->stop();
}

// A file written, a snapshot taken, the file changed, the snapshot restored: the file is as it
// was. Taking one may stop the session (Vercel): it is resumed before the change.
void TestConformance::snapshots()
{
    QVERIFY(requireSession());
    SnapshotFacet *snaps = m_p->snapshots();
    if (!snaps || !m_p->commands())
        QSKIP("no snapshots facet (or no exec to check one with)");
    const auto write = [&](const char *word) {
        return run(*m_p, m_session,
                   {QStringLiteral("sh"), QStringLiteral("-c"),
                    QStringLiteral("echo %1 > ~/conformance-snap.txt").arg(QLatin1String(word))});
    };
    // The session's state once it is no longer on its way somewhere.
    const auto settled = [&] {
        SessionState state = SessionState::Unknown;
        waitUntil(
            [&] {
                const auto info = await<SessionInfo>([&](auto cb) { m_p->info(m_session, cb); });
                state = info.ok() ? info->state : SessionState::Unknown;
                return state != SessionState::Unknown && state != SessionState::Stopping &&
                       state != SessionState::Creating;
            },
            kCallMs);
        return state;
    };
    Ran wrote = write("before");
    QVERIFY2(wrote.code && wrote.code->ok() && wrote.code->value() == 0, qPrintable(outcome(wrote)));
    m_expected << audit::Action::ExecRun;
    const QString comment = snaps->keepsComments() ? QStringLiteral("conformance ") + m_token : QString();
    const auto taken = await<SnapshotEntry>([&](auto cb) { snaps->createSnapshot(m_session, comment, cb); }, kCallMs);
    QVERIFY_RESULT(taken);
    QVERIFY(!taken->id.isEmpty());
    m_expected << audit::Action::SnapshotCreated;
    const auto listed = await<QList<SnapshotEntry>>([&](auto cb) { snaps->listSnapshots(m_session, cb); }, kCallMs);
    QVERIFY_RESULT(listed);
    QVERIFY(std::any_of(listed->begin(), listed->end(), [&](const SnapshotEntry &e) { return e.id == taken->id; }));
    if (settled() != SessionState::Running) {
        QVERIFY2(m_p->pausing(), "the snapshot stopped the session and nothing resumes it");
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->pausing()->resume(m_session, cb); }, kCallMs));
        m_expected << audit::Action::SessionResumed;
        QCOMPARE(settled(), SessionState::Running);
    }
    wrote = write("after");
    QVERIFY2(wrote.code && wrote.code->ok() && wrote.code->value() == 0, qPrintable(outcome(wrote)));
    m_expected << audit::Action::ExecRun;
    QVERIFY_RESULT(await<void>([&](auto cb) { snaps->restoreSnapshot(m_session, taken->id, cb); }, kCallMs));
    m_expected << audit::Action::SnapshotRestored;
    QCOMPARE(settled(), SessionState::Running);
    const Ran read = run(*m_p, m_session, {QStringLiteral("cat"), QStringLiteral("conformance-snap.txt")});
    QVERIFY2(read.code && read.code->ok() && read.code->value() == 0, qPrintable(outcome(read)));
    m_expected << audit::Action::ExecRun;
    QCOMPARE(read.out.trimmed(), QByteArray("before"));
}

// A fork runs, answers commands and carries the session's labels; where the session has
// snapshots, it starts from the last one (the snapshots flow left "before" in a file), as
// Vercel's fork does.
void TestConformance::forkSession()
{
    QVERIFY(requireSession());
    ForkFacet *fork = m_p->forking();
    if (!fork || !m_p->commands())
        QSKIP("no fork facet (or no exec to check one with)");
    const QString name = QStringLiteral("conformance-fork-") + m_token;
    const auto copy = await<SessionInfo>([&](auto cb) { fork->fork(m_session, ForkSpec{name, {}}, cb); }, kCallMs);
    QVERIFY_RESULT(copy);
    m_expected << audit::Action::SessionForked;
    QVERIFY(copy->id != m_session);
    QCOMPARE(copy->labels.value(kLabel), m_token);
    QCOMPARE(copy->labels.value(QLatin1String(labels::App)), QLatin1String(labels::AppValue));
    const Ran read = run(*m_p, copy->id,
                         {QStringLiteral("sh"), QStringLiteral("-c"),
                          QStringLiteral("cat ~/conformance-snap.txt 2>/dev/null; echo fork-ok")});
    const VoidResult removed = await<void>([&](auto cb) { m_p->remove(copy->id, cb); }, kCallMs);
    QVERIFY2(read.code && read.code->ok() && read.code->value() == 0, qPrintable(outcome(read)));
    QVERIFY2(read.out.contains("fork-ok"), read.out.constData());
    if (m_p->snapshots())
        QVERIFY2(read.out.startsWith("before"), read.out.constData());
    QVERIFY_RESULT(removed);
}

void TestConformance::changeSettings()
{
    QVERIFY(requireSession());
    SettingsFacet *settings = m_p->sessionSettings();
    const QList<FieldDescriptor> fields = changeableOptions(m_p->descriptor());
    if (!settings) {
        QVERIFY2(fields.isEmpty(), "changeable create options, but no settings facet to change them");
        QSKIP("no settings facet: this provider changes nothing on a session that exists");
    }
    QVERIFY2(!fields.isEmpty(), "a settings facet, but no create option marked changeable");
    const auto setTo = [&](const QString &key, const QVariant &value) {
        return await<SessionInfo>(
            [&](auto cb) {
                settings->changeSettings(m_session, QVariantMap{{key, value}}, cb);
            },
            kCallMs);
    };
    for (const FieldDescriptor &f : fields) {
        if (f.type != FieldType::Boolean) {
            qInfo("%s: only yes/no options are flipped here", qPrintable(f.key));
            continue;
        }
        const auto before = await<SessionInfo>([&](auto cb) { m_p->info(m_session, cb); }, kCallMs);
        QVERIFY_RESULT(before);
        QVERIFY2(before->settings.contains(f.key), qPrintable(f.key + QStringLiteral(": info does not say its value")));
        const bool was = before->settings.value(f.key).toBool();
        const auto changed = setTo(f.key, !was);
        QVERIFY_RESULT(changed);
        m_expected << audit::Action::SessionSettingsChanged;
        QCOMPARE(changed->settings.value(f.key).toBool(), !was);
        const auto after = await<SessionInfo>([&](auto cb) { m_p->info(m_session, cb); }, kCallMs);
        QVERIFY_RESULT(after);
        QCOMPARE(after->settings.value(f.key).toBool(), !was);
        QVERIFY_RESULT(setTo(f.key, was));
        m_expected << audit::Action::SessionSettingsChanged;
    }
    // An option the provider cannot change later is refused, and the log says it failed.
    const auto fixed = std::find_if(m_p->descriptor().createOptions.cbegin(), m_p->descriptor().createOptions.cend(),
                                    [](const FieldDescriptor &f) { return !f.changeable; });
    if (fixed != m_p->descriptor().createOptions.cend()) {
        const auto refused = setTo(fixed->key, fixed->defaultValue.isValid() ? fixed->defaultValue : QVariant(1));
        QVERIFY2(!refused.ok(), qPrintable(fixed->key + QStringLiteral(" was changed")));
        QCOMPARE(refused.code(), ErrorCode::InvalidArgument);
        m_expectedFailures << int(m_expected.size());
        m_expected << audit::Action::SessionSettingsChanged;
    }
}

void TestConformance::backgroundCommands()
{
    QVERIFY(requireSession());
    BackgroundFacet *background = m_p->background();
    if (!background)
        QSKIP("no background facet: this provider leaves no command running");
    ExecRequest req;
    // exec: the signal reaches the command itself, not a shell waiting for it.
    req.argv = {QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                QStringLiteral("echo started-$1; echo to-stderr >&2; exec sleep 600"), QStringLiteral("sh"), m_token};
    const auto started =
        await<BackgroundCommand>([&](auto cb) { background->startBackground(m_session, req, cb); }, kCallMs);
    QVERIFY_RESULT(started);
    m_expected << audit::Action::CommandStarted;
    QVERIFY(started->running);
    QVERIFY(!started->id.isEmpty());
    const auto find = [&]() -> std::optional<BackgroundCommand> {
        const auto list =
            await<QList<BackgroundCommand>>([&](auto cb) { background->listBackground(m_session, cb); }, kCallMs);
        if (!list.ok())
            return std::nullopt;
        for (const BackgroundCommand &c : list.value()) {
            if (c.id == started->id)
                return c;
        }
        return std::nullopt;
    };
    const auto listed = find();
    QVERIFY2(listed && listed->running, "the command started is not listed as running");
    QCOMPARE(listed->argv, req.argv);

    // Its output, as it was and as it comes; the stream ends when the command does.
    QByteArray out, err;
    std::optional<VoidResult> ended;
    std::unique_ptr<LogStream> stream = background->backgroundOutput(m_session, started->id);
    QObject ctx;
    connect(stream.get(), &LogStream::data, &ctx, [&](const QByteArray &b, int fd) { (fd == 2 ? err : out) += b; });
    connect(stream.get(), &LogStream::finished, &ctx, [&](const VoidResult &r) { ended = r; });
    stream->start();
    const QByteArray marker = "started-" + m_token.toUtf8();
    QVERIFY2(waitUntil([&] { return out.contains(marker) && err.contains("to-stderr"); }, kCallMs),
             QByteArray(out + '|' + err).constData());
    QVERIFY(!ended.has_value());

    QVERIFY_RESULT(
        await<void>([&](auto cb) { background->signalBackground(m_session, started->id, 15, cb); }, kCallMs));
    m_expected << audit::Action::CommandSignalled;
    QVERIFY2(waitUntil([&] { return ended.has_value(); }, kCallMs), "the output did not end with the command");
    QVERIFY_RESULT(*ended);
    std::optional<BackgroundCommand> after;
    QVERIFY(waitUntil(
        [&] {
            after = find();
            return after && !after->running;
        },
        kCallMs));
    if (after->exitCode)
        QCOMPARE(*after->exitCode, 128 + 15);

    // A command the session never had: refused as not found, and logged as failed.
    const auto unknown = await<void>(
        [&](auto cb) { background->signalBackground(m_session, QStringLiteral("sandbar-no-such-command"), 15, cb); },
        kCallMs);
    QVERIFY(!unknown.ok());
    QCOMPARE(unknown.code(), ErrorCode::NotFound);
    m_expectedFailures << int(m_expected.size());
    m_expected << audit::Action::CommandSignalled;
}

void TestConformance::changeLabels()
{
    QVERIFY(requireSession());
    LabelsFacet *facet = m_p->labelling();
    if (!facet)
        QSKIP("no labels facet: this provider changes no labels on a session that exists");
    const auto setTo = [&](const QMap<QString, QString> &l) {
        return await<SessionInfo>([&](auto cb) { facet->setLabels(m_session, l, cb); }, kCallMs);
    };
    const QMap<QString, QString> mine{{QStringLiteral("team"), QStringLiteral("blue")},
                                      {QStringLiteral("purpose"), QStringLiteral("conformance")}};
    const auto changed = setTo(mine);
    QVERIFY_RESULT(changed);
    m_expected << audit::Action::SessionLabelsChanged;
    QCOMPARE(labels::personsOnly(changed->labels), mine);
    // Read back, with Sandbar's own labels as they were: the session is still Sandbar's and is
    // still found by the label it was made with.
    const auto after = await<SessionInfo>([&](auto cb) { m_p->info(m_session, cb); }, kCallMs);
    QVERIFY_RESULT(after);
    QCOMPARE(labels::personsOnly(after->labels), mine);
    QVERIFY(after->owned);
    QCOMPARE(after->labels.value(kLabel), m_token);
    const auto cleared = setTo({});
    QVERIFY_RESULT(cleared);
    m_expected << audit::Action::SessionLabelsChanged;
    QVERIFY(labels::personsOnly(cleared->labels).isEmpty());
    QCOMPARE(cleared->labels.value(kLabel), m_token);
    // Sandbar's labels are not the person's to change: refused, and logged as failed.
    const auto refused = setTo({{QStringLiteral("dev.sandbar.account"), QStringLiteral("other")}});
    QVERIFY(!refused.ok());
    QCOMPARE(refused.code(), ErrorCode::InvalidArgument);
    m_expectedFailures << int(m_expected.size());
    m_expected << audit::Action::SessionLabelsChanged;
}

void TestConformance::stopSession()
{
    QVERIFY(requireSession());
    QVERIFY_RESULT(await<void>([&](auto cb) { m_p->stop(m_session, cb); }, kCallMs));
    m_expected << audit::Action::SessionStopped;
    // Stopped, paused where stopping keeps the sandbox's memory (E2B), or asleep where nothing
    // stops and a stop ends what runs in it (a sprite).
    QVERIFY(waitUntil(
        [&] {
            const auto info = await<SessionInfo>([&](auto cb) { m_p->info(m_session, cb); });
            return info.ok() && (info->state != SessionState::Running || info->asleep) &&
                   info->state != SessionState::Stopping;
        },
        kCallMs));
}

void TestConformance::removeSession()
{
    QVERIFY(requireSession());
    QVERIFY_RESULT(await<void>([&](auto cb) { m_p->remove(m_session, cb); }, kCallMs));
    m_expected << audit::Action::SessionRemoved;
    QVERIFY(waitUntil(
        [&] {
            const auto list = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions(ListOptions{}, cb); });
            return list.ok() &&
                   std::none_of(list->begin(), list->end(), [&](const SessionInfo &s) { return s.id == m_session; });
        },
        kCallMs));
}

void TestConformance::auditRows()
{
    QVERIFY(requireSession());
    QVERIFY(m_log->flush().ok());
    audit::AuditQuery q;
    q.sessionId = m_session;
    const auto rows = m_log->query(q);
    QVERIFY_RESULT(rows);
    QStringList got, want;
    for (const audit::AuditEntry &e : *rows) {
        const bool mustFail = m_expectedFailures.contains(int(got.size()));
        got << e.action;
        QVERIFY2(e.ok != mustFail, qPrintable(e.action + (mustFail ? QStringLiteral(" did not fail")
                                                                   : QStringLiteral(" failed: ") + e.errorMessage)));
        QCOMPARE(e.provider, m_id);
    }
    for (audit::Action a : std::as_const(m_expected))
        want << audit::actionName(a);
    QCOMPARE(got, want);
}

void TestConformance::cleanupTestCase()
{
    // Whatever a failed flow left: gone before the contract server, engine or sshd is.
    if (m_p && !m_session.isEmpty())
        (void)await<void>([&](auto cb) { m_p->remove(m_session, cb); }, kCallMs);
    m_p.reset();
    if (m_sshd) {
        m_sshd->endMaster(m_dir.filePath(QStringLiteral("run/sandbar/ssh")));
        m_sshd->stop();
    }
}

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
