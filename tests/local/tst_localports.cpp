// Forwarded ports of a real bubblewrap + slirp4netns session: a server in the sandbox answers
// on 127.0.0.1 of this computer, the endpoint survives a restart, a taken port fails the
// create and leaves nothing behind, and ports without the network are refused.

#include "TestSupport.h"
#include "providers/local/LocalProvider.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;
using namespace sandbar::local;
using sandbar::test::await;
using sandbar::test::waitUntil;

namespace {
PortSpec port(int sessionPort, int hostPort = 0)
{
    PortSpec p;
    p.sessionPort = sessionPort;
    p.hostPort = hostPort;
    return p;
}

// What a connection to 127.0.0.1:hostPort reads before the far end closes; slirp4netns accepts
// on the host side before the sandbox's server does, so an early try reads nothing.
QByteArray readFrom(quint16 hostPort)
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, hostPort);
    if (!s.waitForConnected(1000))
        return {};
    QByteArray got;
    while (s.waitForReadyRead(1000))
        got += s.readAll();
    return got + s.readAll();
}

// Local addresses (hex, as /proc/net/tcp writes them) of the sockets listening on port.
QStringList listenersOn(quint16 port)
{
    QStringList out;
    for (const char *table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        QFile f(QString::fromLatin1(table));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> lines = f.readAll().split('\n');
        for (const QByteArray &line : lines) {
            const QList<QByteArray> cols = line.simplified().split(' ');
            if (cols.size() < 4 || cols.at(3) != "0A") // LISTEN
                continue;
            const QList<QByteArray> local = cols.at(1).split(':');
            if (local.size() == 2 && local.at(1).toUShort(nullptr, 16) == port)
                out << QString::fromLatin1(local.at(0));
        }
    }
    return out;
}

int sessionCount(const QString &sessionsDir)
{
    return int(QDir(sessionsDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size());
}
} // namespace

class TstLocalPorts : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir{QStringLiteral("/tmp/sbp-XXXXXX")};
    AccountConfig m_account;

    std::unique_ptr<LocalProvider> provider()
    {
        return std::make_unique<LocalProvider>(m_account, LocalEnvironment::detect());
    }
    static CreateSpec spec(bool network, const QList<PortSpec> &ports)
    {
        CreateSpec s;
        s.ttlSeconds = 120; // never leave a sandbox behind if the test dies
        s.network = network;
        s.ports = ports;
        return s;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_account.name = QStringLiteral("local-ports");
        m_account.provider = QStringLiteral("local");
        m_account.dataDir = m_dir.path();
    }

    void descriptor()
    {
        const auto p = provider();
        QVERIFY(p->descriptor().capabilities.testFlag(Capability::Ports));
        const FieldDescriptor *f = p->descriptor().createOption(QLatin1String(createkeys::Ports));
        QVERIFY(f);
        QCOMPARE(f->type, FieldType::Ports);
    }

    void portsNeedTheNetwork()
    {
        const LocalEnvironment env = LocalEnvironment::detect();
        // Without bubblewrap every create is refused for that reason first.
        SANDBAR_REQUIRE(env.unavailableReason().isEmpty(), env.unavailableReason());
        const auto p = provider();
        auto s = await<SessionInfo>([&](Callback<SessionInfo> cb) { p->create(spec(false, {port(8080)}), cb); });
        QCOMPARE(s.code(), ErrorCode::InvalidArgument);
        QVERIFY2(s.message().contains(QStringLiteral("network on")), qPrintable(s.message()));
        CreateSpec bad = spec(true, {port(70000)});
        s = await<SessionInfo>([&](Callback<SessionInfo> cb) { p->create(bad, cb); });
        QCOMPARE(s.code(), ErrorCode::InvalidArgument);
        QCOMPARE(sessionCount(p->sessionsDir()), 0);
    }

    void serverInsideAnswersOnLoopback()
    {
        const LocalEnvironment env = LocalEnvironment::detect();
        SANDBAR_REQUIRE(env.unavailableReason().isEmpty(), env.unavailableReason());
        SANDBAR_REQUIRE(!env.slirpPath.isEmpty(), QStringLiteral("slirp4netns is not installed"));
        SANDBAR_REQUIRE(QFile::exists(QStringLiteral("/usr/bin/perl")), QStringLiteral("perl is needed for a server"));
        QElapsedTimer timer;
        timer.start();
        auto p = provider();
        QVERIFY(p->capabilities().testFlag(Capability::Ports));
        auto s = await<SessionInfo>([&](Callback<SessionInfo> cb) { p->create(spec(true, {port(8080)}), cb); });
        QVERIFY_RESULT(s);
        QCOMPARE(s->endpoints.size(), 1);
        const SessionEndpoint e = s->endpoints.constFirst();
        QCOMPARE(e.name, QStringLiteral("8080/tcp"));
        QCOMPARE(e.sessionPort, 8080);
        QVERIFY(e.hostPort > 0 && e.hostPort <= 65535);
        QCOMPARE(e.url, QStringLiteral("http://127.0.0.1:%1").arg(e.hostPort));
        qInfo("created with a forwarded port in %lld ms", qint64(timer.elapsed()));

        ExecRequest req;
        req.argv = {QStringLiteral("perl"), QStringLiteral("-MIO::Socket::INET"), QStringLiteral("-e"),
                    QStringLiteral("$|=1; $s=IO::Socket::INET->new(LocalAddr=>'0.0.0.0',LocalPort=>8080,Listen=>5,"
                                   "ReuseAddr=>1) or die \"no listener: $!\\n\"; print \"LISTENING\\n\";"
                                   "while($c=$s->accept){print $c \"hello-from-sandbox\\n\"; close $c}")};
        auto server = p->exec(s->id, req);
        QByteArray out;
        connect(server.get(), &ExecJob::stdoutData, this, [&out](const QByteArray &b) { out += b; });
        connect(server.get(), &ExecJob::stderrData, this, [&out](const QByteArray &b) { out += b; });
        server->start();
        QVERIFY2(waitUntil([&] { return out.contains("LISTENING"); }, 10000), out.constData());

        QByteArray answer;
        QVERIFY(waitUntil(
            [&] {
                answer = readFrom(quint16(e.hostPort));
                return answer.contains("hello-from-sandbox");
            },
            10000));
        qInfo("answered through 127.0.0.1:%d after %lld ms", e.hostPort, qint64(timer.elapsed()));
        // Never on the other addresses of this computer: the one listener is 127.0.0.1's.
        QCOMPARE(listenersOn(quint16(e.hostPort)), QStringList{QStringLiteral("0100007F")});

        // A restarted Sandbar reads the forward from the session's record.
        const auto restarted = provider();
        auto listed =
            await<QList<SessionInfo>>([&](Callback<QList<SessionInfo>> cb) { restarted->listSessions({}, cb); });
        QVERIFY_RESULT(listed);
        QCOMPARE(listed->size(), 1);
        QCOMPARE(listed->constFirst().endpoints.size(), 1);
        QCOMPARE(listed->constFirst().endpoints.constFirst().url, e.url);
        auto info = await<SessionInfo>([&](Callback<SessionInfo> cb) { restarted->info(s->id, cb); });
        QVERIFY_RESULT(info);
        QCOMPARE(info->endpoints.size(), 1);
        QCOMPARE(info->endpoints.constFirst().hostPort, e.hostPort);

        server->cancel();
        QVERIFY_RESULT(await<void>([&](Callback<void> cb) { p->remove(s->id, cb); }));
        // The forward ends with the sandbox.
        QVERIFY(waitUntil(
            [&] {
                QTcpServer again;
                return again.listen(QHostAddress::LocalHost, quint16(e.hostPort));
            },
            5000));
    }

    void takenPortFailsTheCreate()
    {
        const LocalEnvironment env = LocalEnvironment::detect();
        SANDBAR_REQUIRE(env.unavailableReason().isEmpty(), env.unavailableReason());
        SANDBAR_REQUIRE(!env.slirpPath.isEmpty(), QStringLiteral("slirp4netns is not installed"));
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost));
        const auto p = provider();
        const int before = sessionCount(p->sessionsDir());
        auto s = await<SessionInfo>(
            [&](Callback<SessionInfo> cb) { p->create(spec(true, {port(8080, taken.serverPort())}), cb); });
        QVERIFY(!s);
        QCOMPARE(s.code(), ErrorCode::Conflict);
        QVERIFY2(s.message().contains(QString::number(taken.serverPort())), qPrintable(s.message()));
        qInfo("%s", qPrintable(s.message()));
        QCOMPARE(sessionCount(p->sessionsDir()), before);
        auto listed = await<QList<SessionInfo>>([&](Callback<QList<SessionInfo>> cb) { p->listSessions({}, cb); });
        QVERIFY_RESULT(listed);
        QVERIFY(listed->isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstLocalPorts)
#include "tst_localports.moc"
