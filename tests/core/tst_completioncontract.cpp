// The completion contract of Provider.h on every provider Sandbar registers, facet by facet,
// bare and through the audit wrapper: a callback never runs before the call that started it
// has returned, a job reports only after start() returned, and every call does answer. Each
// account points where nothing answers (a closed loopback port, a socket that is not there)
// and names a session that does not exist, or no session and a hostile path, so every call
// takes an error path, the kind most often answered in place. Also: what an account offers (computed from its facets)
// is what its descriptor promises, and the wrapper offers the same.
#include "audit/AuditLog.h"
#include "audit/AuditedProvider.h"
#include "providers/Provider.h"
#include "terminal/PtyChannel.h"
#include "wiring/AppServices.h"

#include <QBuffer>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace sandbar;

namespace {

const QString Nowhere = QStringLiteral("sbtest-no-such-session");

// One call: whether it answered, and whether that was before the call returned.
struct Probe {
    QString what;
    bool returned = false;
    bool answered = false;
    bool early = false;
    void answer()
    {
        if (!answered)
            early = !returned;
        answered = true;
    }
};
using Probes = QList<std::shared_ptr<Probe>>;

// Where an account of each provider points so that nothing answers: a cloud provider's every
// URL at a closed loopback port (port 1: refused at once, nothing leaves the machine), an
// engine's at a socket that is not there. A self-hosted provider added to the list fails
// here until it says how to reach nothing.
std::optional<AccountConfig> unreachableAccount(const ProviderDescriptor &d, const QString &dataDir)
{
    AccountConfig a;
    a.name = QStringLiteral("contract-") + d.id;
    a.provider = d.id;
    a.dataDir = dataDir;
    if (!d.selfHosted) {
        for (const FieldDescriptor &f : d.accountFields) {
            if (f.type == FieldType::Url)
                a.settings.insert(f.key, QStringLiteral("http://127.0.0.1:1"));
            else if (f.required && !f.secret && f.type == FieldType::String)
                a.settings.insert(f.key, QString(QStringLiteral("contract-") + f.key));
        }
        a.secrets.insert(QStringLiteral("api-key"), QStringLiteral("sbtest-secret-contract-key"));
    } else if (d.id == QLatin1String("local")) {
        a.settings.insert(QStringLiteral("dataDir"), dataDir);
    } else if (d.id == QLatin1String("docker") || d.id == QLatin1String("podman")) {
        a.settings.insert(QStringLiteral("endpoint"), QStringLiteral("unix://%1/no-engine.sock").arg(dataDir));
    } else {
        return std::nullopt;
    }
    return a;
}

class Driver
{
public:
    // session and remote: the session and the path every call names.
    Driver(QObject *holder, const QString &dir, const QString &session, const QString &remote)
        : m_holder(holder)
        , m_dir(dir)
        , m_session(session)
        , m_remote(remote)
    {
    }
    Probes probes;

    // Every method of the core (create left out: on the local account it would make a
    // sandbox) and of each facet the provider has.
    void driveAll(Provider &p)
    {
        driveCore(p);
        if (TerminalFacet *t = p.terminals()) {
            callback<QList<PtyEntry>>("listPtys", [&](auto cb) { t->listPtys(m_session, cb); });
            job<PtyChannel>("openPty", t->openPty(m_session, PtyOptions{}));
        }
        if (ExecFacet *e = p.commands())
            job<ExecJob>("exec", e->exec(m_session, ExecRequest{{QStringLiteral("true")}}));
        if (FilesFacet *f = p.files())
            driveFiles(*f);
        if (StatsFacet *s = p.statistics()) {
            callback<StatsSample>("stats", [&](auto cb) { s->stats(m_session, cb); });
            job<StatsStream>("streamStats", s->streamStats(m_session));
        }
        if (LogsFacet *l = p.logReader())
            job<LogStream>("logs", l->logs(m_session, LogOptions{}));
        if (ImagesFacet *i = p.images())
            callback<QStringList>("listImages", [&](auto cb) { i->listImages(cb); });
        if (PauseFacet *pa = p.pausing()) {
            callback<void>("pause", [&](auto cb) { pa->pause(m_session, cb); });
            callback<void>("resume", [&](auto cb) { pa->resume(m_session, cb); });
        }
        if (ArchiveFacet *a = p.archiving())
            callback<void>("archive", [&](auto cb) { a->archive(m_session, cb); });
        if (TimeLimitFacet *t = p.timeLimit())
            callback<void>("setTimeout", [&](auto cb) { t->setTimeout(m_session, 60, cb); });
        if (SnapshotFacet *sn = p.snapshots()) {
            callback<QList<SnapshotEntry>>("listSnapshots", [&](auto cb) { sn->listSnapshots(m_session, cb); });
            callback<SnapshotEntry>("createSnapshot", [&](auto cb) { sn->createSnapshot(m_session, {}, cb); });
            callback<void>("restoreSnapshot",
                           [&](auto cb) { sn->restoreSnapshot(m_session, QStringLiteral("v1"), cb); });
        }
        if (ForkFacet *fo = p.forking()) {
            callback<SessionInfo>("fork", [&](auto cb) { fo->fork(m_session, ForkSpec{}, cb); });
            callback<QString>("forkOrigin", [&](auto cb) { fo->forkOrigin(m_session, cb); });
        }
        if (BackgroundFacet *b = p.background()) {
            ExecRequest req;
            req.argv = {QStringLiteral("true")};
            callback<BackgroundCommand>("startBackground", [&](auto cb) { b->startBackground(m_session, req, cb); });
            callback<QList<BackgroundCommand>>("listBackground", [&](auto cb) { b->listBackground(m_session, cb); });
            job<LogStream>("backgroundOutput", b->backgroundOutput(m_session, QStringLiteral("cmd-1")));
            callback<void>("signalBackground",
                           [&](auto cb) { b->signalBackground(m_session, QStringLiteral("cmd-1"), 15, cb); });
        }
        if (LabelsFacet *la = p.labelling())
            callback<SessionInfo>("setLabels", [&](auto cb) {
                la->setLabels(m_session, {{QStringLiteral("team"), QStringLiteral("blue")}}, cb);
            });
        if (SettingsFacet *se = p.sessionSettings()) {
            for (const FieldDescriptor &f : changeableOptions(p.descriptor()))
                callback<SessionInfo>("changeSettings", [&](auto cb) {
                    se->changeSettings(m_session, {{f.key, f.defaultValue}}, cb);
                });
        }
    }

private:
    void driveCore(Provider &p)
    {
        callback<HealthInfo>("health", [&](auto cb) { p.health(cb); });
        callback<QList<SessionInfo>>("listSessions", [&](auto cb) { p.listSessions(ListOptions{}, cb); });
        callback<SessionInfo>("info", [&](auto cb) { p.info(m_session, cb); });
        callback<SessionInfo>("adopt", [&](auto cb) { p.adopt(m_session, cb); });
        callback<void>("stop", [&](auto cb) { p.stop(m_session, cb); });
        callback<void>("kill", [&](auto cb) { p.kill(m_session, cb); });
        callback<void>("remove", [&](auto cb) { p.remove(m_session, cb); });
    }

    void driveFiles(FilesFacet &f)
    {
        const QString &remote = m_remote;
        callback<PathStat>("statPath", [&](auto cb) { f.statPath(m_session, remote, cb); });
        callback<QList<FileEntry>>("listFiles", [&](auto cb) { f.listFiles(m_session, m_remote, cb); });
        callback<void>("removePath", [&](auto cb) { f.removePath(m_session, remote, cb); });
        callback<void>("makeDir", [&](auto cb) { f.makeDir(m_session, m_remote, cb); });
        callback<void>("movePath", [&](auto cb) { f.movePath(m_session, remote, remote + QStringLiteral("-b"), cb); });
        callback<void>("setMode", [&](auto cb) { f.setMode(m_session, remote, 0640, cb); });
        job<TransferJob>("upload", f.upload(m_session, m_dir + QStringLiteral("/missing.txt"), remote));
        job<TransferJob>("download", f.download(m_session, remote, m_dir + QLatin1Char('/')));
        auto *tar = new QBuffer(m_holder);
        tar->open(QIODevice::ReadOnly);
        job<TransferJob>("uploadTar", f.uploadTar(m_session, tar, m_remote));
        auto *out = new QBuffer(m_holder);
        out->open(QIODevice::WriteOnly);
        job<TransferJob>("downloadTar", f.downloadTar(m_session, remote, out));
    }

    std::shared_ptr<Probe> probe(const char *what)
    {
        auto p = std::make_shared<Probe>();
        p->what = QLatin1String(what);
        probes << p;
        return p;
    }

    template <typename T, typename Call>
    void callback(const char *what, Call call)
    {
        auto p = probe(what);
        call(Callback<T>(m_holder, [p](Result<T>) { p->answer(); }));
        p->returned = true;
    }

    template <typename Job>
    void job(const char *what, std::unique_ptr<Job> owned)
    {
        auto p = probe(what);
        if (!owned) {
            p->what += QStringLiteral(" (no job returned)");
            p->returned = true;
            return;
        }
        Job *j = owned.release();
        j->setParent(m_holder);
        connectAnswers(j, p);
        j->start();
        p->returned = true;
    }

    void connectAnswers(TransferJob *j, const std::shared_ptr<Probe> &p)
    {
        QObject::connect(j, &TransferJob::finished, m_holder, [p]() { p->answer(); });
    }
    void connectAnswers(ExecJob *j, const std::shared_ptr<Probe> &p)
    {
        QObject::connect(j, &ExecJob::finished, m_holder, [p]() { p->answer(); });
    }
    void connectAnswers(LogStream *j, const std::shared_ptr<Probe> &p)
    {
        QObject::connect(j, &LogStream::finished, m_holder, [p]() { p->answer(); });
    }
    void connectAnswers(StatsStream *j, const std::shared_ptr<Probe> &p)
    {
        QObject::connect(j, &StatsStream::sample, m_holder, [p]() { p->answer(); });
        QObject::connect(j, &StatsStream::errorOccurred, m_holder, [p]() { p->answer(); });
    }
    void connectAnswers(PtyChannel *j, const std::shared_ptr<Probe> &p)
    {
        QObject::connect(j, &PtyChannel::started, m_holder, [p]() { p->answer(); });
        QObject::connect(j, &PtyChannel::finished, m_holder, [p]() { p->answer(); });
        QObject::connect(j, &PtyChannel::errorOccurred, m_holder, [p]() { p->answer(); });
    }

    QObject *m_holder;
    QString m_dir;
    QString m_session;
    QString m_remote;
};

QString unanswered(const Probes &probes)
{
    QStringList out;
    for (const auto &p : probes) {
        if (!p->answered)
            out << p->what;
    }
    return out.join(QStringLiteral(", "));
}

QString early(const Probes &probes)
{
    QStringList out;
    for (const auto &p : probes) {
        if (p->early)
            out << p->what;
    }
    return out.join(QStringLiteral(", "));
}

} // namespace

class TestCompletionContract : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theListIsWhatIsRegistered();
    void everyFacetAnswersLater_data();
    void everyFacetAnswersLater();
};

// registerProviders is made from the provider list: each factory's descriptor carries the id
// of its line, in the list's order.
void TestCompletionContract::theListIsWhatIsRegistered()
{
    ProviderFactories factories;
    registerProviders(factories);
    QCOMPARE(factories.ids().join(QLatin1Char(',')), QStringLiteral(SANDBAR_PROVIDER_IDS));
}

void TestCompletionContract::everyFacetAnswersLater_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<bool>("audited");
    QTest::addColumn<QString>("session");
    QTest::addColumn<QString>("remote");
    ProviderFactories factories;
    registerProviders(factories);
    QVERIFY(factories.all().size() >= 5);
    for (const auto &f : factories.all()) {
        const QString id = f->descriptor().id;
        const QString remote = QStringLiteral("/workspace/contract.txt");
        QTest::addRow("%s", qPrintable(id)) << id << false << Nowhere << remote;
        QTest::addRow("%s audited", qPrintable(id)) << id << true << Nowhere << remote;
        // What a caller should not send, refused: the kind of answer most often given at once.
        const QString hostile = QStringLiteral("relative/../pa") + QChar(0) + QStringLiteral("th");
        QTest::addRow("%s bad input", qPrintable(id)) << id << false << QString() << hostile;
        QTest::addRow("%s audited bad input", qPrintable(id)) << id << true << QString() << hostile;
    }
}

void TestCompletionContract::everyFacetAnswersLater()
{
    QFETCH(QString, provider);
    QFETCH(bool, audited);
    QFETCH(QString, session);
    QFETCH(QString, remote);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ProviderFactories factories;
    registerProviders(factories);
    const ProviderFactory *factory = factories.find(provider);
    QVERIFY(factory);
    const auto account = unreachableAccount(factory->descriptor(), dir.path());
    QVERIFY2(account, qPrintable(provider + QStringLiteral(": say in unreachableAccount() how to reach nothing")));
    auto made = factory->create(*account);
    QVERIFY2(made.ok(), qPrintable(made.ok() ? QString() : made.error().message));
    std::unique_ptr<Provider> p = std::move(made.value());

    // Computed from the facets, what it offers is what its descriptor promises (the core's
    // bits may narrow to the machine: no GPU here).
    const Capabilities facetBits = Capabilities::fromInt(kFacetFlags);
    QCOMPARE(p->capabilities() & facetBits, factory->descriptor().capabilities & facetBits);
    std::unique_ptr<audit::AuditLog> log;
    if (audited) {
        log = std::make_unique<audit::AuditLog>(dir.filePath(QStringLiteral("audit")));
        QVERIFY(log->isOpen());
        const Capabilities before = p->capabilities();
        p = std::make_unique<audit::AuditedProvider>(std::move(p), *log);
        QCOMPARE(p->capabilities(), before);
    }

    QObject holder;
    Driver driver(&holder, dir.path(), session, remote);
    driver.driveAll(*p);
    QVERIFY(driver.probes.size() >= 8);
    QVERIFY2(early(driver.probes).isEmpty(),
             qPrintable(QStringLiteral("answered before the call returned: ") + early(driver.probes)));
    // Generous: an account that retries a refused connection backs off before it gives up.
    QTRY_VERIFY2_WITH_TIMEOUT(unanswered(driver.probes).isEmpty(),
                              qPrintable(QStringLiteral("no answer from ") + unanswered(driver.probes)), 60000);
    QVERIFY2(early(driver.probes).isEmpty(),
             qPrintable(QStringLiteral("answered before the call returned: ") + early(driver.probes)));
}

QTEST_GUILESS_MAIN(TestCompletionContract)
#include "tst_completioncontract.moc"
