// What a program inside a Local sandbox can learn about the host from the sandbox's own
// set-up: bubblewrap's command line and environment (its first process is the
// sandbox's pid 1) and the routes out of a networked sandbox.

#include "TestSupport.h"
#include "providers/local/LocalProvider.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;
using namespace sandbar::local;
using sandbar::test::await;

namespace {
struct ExecResult {
    int code = -1;
    QByteArray out;
    QString error;
};

// A fake key in the app's own environment: nothing inside a sandbox may see it.
constexpr char kFakeKeyName[] = "SANDBAR_ISOLATION_FAKE_KEY";
constexpr char kFakeKey[] = "sbtest-secret-isolation-5b1f0c7d"; // the marker secret_watch searches for
} // namespace

class TstLocalIsolation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void commandLineOfPidOneHidesHostPaths();
    void hostEnvironmentNotVisible();
    void linkLocalIsProhibited();
    void linkLocalRouteAbsentWithoutNetwork();

private:
    Result<SessionInfo> create(bool network);
    ExecResult sh(const QString &id, const QString &script);

    QTemporaryDir m_dir{QStringLiteral("/tmp/sbiso-XXXXXX")};
    AccountConfig m_account;
    std::unique_ptr<LocalProvider> m_provider;
    QString m_offline;
    QString m_online;
};

Result<SessionInfo> TstLocalIsolation::create(bool network)
{
    CreateSpec spec;
    spec.ttlSeconds = 300; // never leave a sandbox behind if the test dies
    spec.network = network;
    return await<SessionInfo>([&](Callback<SessionInfo> cb) { m_provider->create(spec, cb); });
}

ExecResult TstLocalIsolation::sh(const QString &id, const QString &script)
{
    ExecResult r;
    ExecRequest req;
    req.argv = {QStringLiteral("sh"), QStringLiteral("-c"), script};
    auto job = m_provider->exec(id, req);
    bool done = false;
    connect(job.get(), &ExecJob::stdoutData, this, [&](const QByteArray &b) { r.out += b; });
    connect(job.get(), &ExecJob::finished, this, [&](const Result<int> &res) {
        done = true;
        if (res)
            r.code = *res;
        else
            r.error = res.message();
    });
    job->start();
    if (!test::waitUntil([&] { return done; }, 30000))
        r.error = QStringLiteral("timeout");
    return r;
}

void TstLocalIsolation::initTestCase()
{
    qputenv(kFakeKeyName, kFakeKey);
    const LocalEnvironment env = LocalEnvironment::detect();
    SANDBAR_REQUIRE(env.unavailableReason().isEmpty(), env.unavailableReason());
    SANDBAR_REQUIRE(!env.slirpPath.isEmpty(), QStringLiteral("slirp4netns is not installed"));
    QVERIFY(m_dir.isValid());
    m_account.name = QStringLiteral("local-isolation");
    m_account.provider = QStringLiteral("local");
    m_account.dataDir = m_dir.path();
    m_provider = std::make_unique<LocalProvider>(m_account, env);
    auto offline = create(false);
    QVERIFY_RESULT(offline);
    m_offline = offline->id;
    auto online = create(true);
    QVERIFY_RESULT(online);
    m_online = online->id;
}

void TstLocalIsolation::cleanupTestCase()
{
    if (!m_provider)
        return;
    for (const QString &id : {m_offline, m_online}) {
        if (!id.isEmpty())
            (void)await<void>([&](auto cb) { m_provider->remove(id, cb); });
    }
}

void TstLocalIsolation::commandLineOfPidOneHidesHostPaths()
{
    // The control: the session's folder really is on bubblewrap's command line outside.
    const QString dataDir = QDir(m_dir.path()).canonicalPath();
    auto r = sh(m_offline, QStringLiteral("tr '\\0' '\\n' < /proc/1/cmdline"));
    QVERIFY2(r.error.isEmpty() && r.code == 0, qPrintable(r.error));
    QVERIFY2(r.out.contains("bwrap"), r.out.constData()); // it is pid 1 we read
    QVERIFY2(r.out.contains("--args"), r.out.constData());
    for (const QString &hostPath : {dataDir, m_dir.path(), QDir::homePath()}) {
        if (hostPath == QLatin1String("/"))
            continue;
        QVERIFY2(
            !r.out.contains(hostPath.toUtf8()),
            qPrintable(QStringLiteral("%1 visible in /proc/1/cmdline:\n%2").arg(hostPath, QString::fromUtf8(r.out))));
    }
    QVERIFY2(!r.out.contains("--bind") && !r.out.contains("--ro-bind"), r.out.constData());
}

void TstLocalIsolation::hostEnvironmentNotVisible()
{
    // Every process the session can see, pid 1 (bubblewrap) included.
    auto r = sh(m_offline, QStringLiteral("env; for f in /proc/[0-9]*/environ; do echo \"== $f\"; tr '\\0' '\\n' < $f; "
                                          "done 2>/dev/null; echo done"));
    QVERIFY2(r.error.isEmpty() && r.code == 0, qPrintable(r.error));
    QVERIFY2(r.out.contains("== /proc/1/environ"), r.out.constData());
    QVERIFY2(r.out.endsWith("done\n"), r.out.constData());
    QVERIFY2(!r.out.contains(kFakeKey), r.out.constData());
    QVERIFY2(!r.out.contains(kFakeKeyName), r.out.constData());
}

void TstLocalIsolation::linkLocalIsProhibited()
{
    // Inspected, never probed with traffic: /proc/net/route lists the prohibit route with
    // RTF_REJECT (0x0200). Destination and mask are little-endian hex: 169.254.0.0/16.
    auto r = sh(m_online, QStringLiteral("cat /proc/net/route"));
    QVERIFY2(r.error.isEmpty() && r.code == 0, qPrintable(r.error));
    bool found = false;
    bool defaultRoute = false;
    for (const QByteArray &line : r.out.split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() < 8)
            continue;
        if (f[1] == "0000FEA9" && f[7] == "0000FFFF") {
            bool ok = false;
            const uint flags = f[3].toUInt(&ok, 16);
            found = ok && (flags & 0x0200u);
        }
        if (f[1] == "00000000" && f[0] == "tap0")
            defaultRoute = true;
    }
    QVERIFY2(defaultRoute, r.out.constData()); // the control: the sandbox does route outwards
    QVERIFY2(found, r.out.constData());
}

void TstLocalIsolation::linkLocalRouteAbsentWithoutNetwork()
{
    // Without network there is nothing but loopback to route through.
    auto r = sh(m_offline, QStringLiteral("tail -n +2 /proc/net/route | wc -l"));
    QVERIFY2(r.error.isEmpty() && r.code == 0, qPrintable(r.error));
    QCOMPARE(r.out.trimmed(), QByteArray("0"));
}

QTEST_GUILESS_MAIN(TstLocalIsolation)
#include "tst_localisolation.moc"
