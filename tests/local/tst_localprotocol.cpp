// Pure parts of the Local provider: the agent wire protocol, the sandbox's command line,
// mount and path checks, and the session state file.

#include "TestSupport.h"
#include "providers/local/AgentProtocol.h"
#include "providers/local/SandboxLayout.h"
#include "providers/local/SessionStore.h"

#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;
using namespace sandbar::local;
namespace w = sandbar::local::wire;

Q_DECLARE_METATYPE(std::string)

class TstLocalProtocol : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void decode_data();
    void decode();
    void roundTripSplit();
    void bwrapArguments();
    void sandboxEtc();
    void mounts_data();
    void mounts();
    void entryNames();
    void endedStatus_data();
    void endedStatus();
    void recordRoundTrip();
};

static std::string header(std::uint32_t len, std::uint8_t type, std::uint32_t ch)
{
    std::string h;
    for (int s : {24, 16, 8, 0})
        h.push_back(char((len >> s) & 0xff));
    h.push_back(char(type));
    for (int s : {24, 16, 8, 0})
        h.push_back(char((ch >> s) & 0xff));
    return h;
}

void TstLocalProtocol::decode_data()
{
    QTest::addColumn<std::string>("bytes");
    QTest::addColumn<int>("frames"); // complete frames expected before the final status
    QTest::addColumn<int>("final");  // 0 NeedMore, 2 Error
    QTest::addColumn<QByteArray>("firstPayload");

    const std::string data = w::encode(w::FrameType::PtyData, 7, "hello");
    QTest::newRow("empty") << std::string() << 0 << 0 << QByteArray();
    QTest::newRow("truncated header") << data.substr(0, 5) << 0 << 0 << QByteArray();
    QTest::newRow("truncated payload") << data.substr(0, data.size() - 1) << 0 << 0 << QByteArray();
    QTest::newRow("one frame") << data << 1 << 0 << QByteArray("hello");
    QTest::newRow("two frames") << data + w::encode(w::FrameType::Reply, 1, "{}") << 2 << 0 << QByteArray("hello");
    QTest::newRow("empty payload") << w::encode(w::FrameType::Stats, 3, {}) << 1 << 0 << QByteArray();
    QTest::newRow("garbage type") << header(0, 0xee, 1) << 0 << 2 << QByteArray();
    QTest::newRow("type zero") << std::string(9, '\0') << 0 << 2 << QByteArray();
    QTest::newRow("oversize") << header(std::uint32_t(w::kMaxPayload + 1), 12, 1) << 0 << 2 << QByteArray();
    QTest::newRow("max size header only") << header(std::uint32_t(w::kMaxPayload), 12, 1) << 0 << 0 << QByteArray();
    QTest::newRow("frame then garbage") << data + "\xff\xff\xff\xff\xff\xff\xff\xff\xff" << 1 << 2
                                        << QByteArray("hello");
    QTest::newRow("ascii garbage") << std::string("GET / HTTP/1.1\r\n\r\n") << 0 << 2 << QByteArray();
}

void TstLocalProtocol::decode()
{
    QFETCH(std::string, bytes);
    QFETCH(int, frames);
    QFETCH(int, final);
    QFETCH(QByteArray, firstPayload);
    w::Decoder d;
    d.feed(bytes);
    w::Frame f;
    int n = 0;
    w::Decoder::Status st;
    while ((st = d.next(f)) == w::Decoder::Status::Ok) {
        if (n == 0)
            QCOMPARE(QByteArray::fromStdString(f.payload), firstPayload);
        ++n;
    }
    QCOMPARE(n, frames);
    QCOMPARE(int(st), final);
    if (final == 2) {
        QVERIFY(!d.error().empty());
        d.feed(w::encode(w::FrameType::Reply, 1, "{}"));
        QCOMPARE(int(d.next(f)), 2); // framing is lost for good
    }
}

void TstLocalProtocol::roundTripSplit()
{
    std::string stream;
    for (std::uint32_t i = 0; i < 50; ++i)
        stream += w::encode(w::FrameType::ExecStdout, i, std::string(i * 97, char('a' + i % 26)));
    w::Decoder d;
    w::Frame f;
    std::uint32_t next = 0;
    for (char c : stream) { // byte by byte: every split point
        d.feed(&c, 1);
        while (d.next(f) == w::Decoder::Status::Ok) {
            QCOMPARE(f.channel, next);
            QCOMPARE(f.payload.size(), std::size_t(next * 97));
            ++next;
        }
    }
    QCOMPARE(next, 50u);
    QCOMPARE(d.buffered(), std::size_t(0));
}

void TstLocalProtocol::bwrapArguments()
{
    SandboxPlan plan;
    plan.agentPath = QStringLiteral("/opt/sb/sandbar-agent");
    plan.sessionDir = QStringLiteral("/data/sessions/sb-1");
    plan.hostname = QStringLiteral("box");
    plan.systemDirs = {{QStringLiteral("/usr"), {}}, {QStringLiteral("/bin"), QStringLiteral("usr/bin")}};
    plan.etcDir = QStringLiteral("/data/sandbox-etc");
    plan.mounts = {MountSpec{QStringLiteral("/home/me/src"), QStringLiteral("/src"), true}};
    const QStringList a = bwrapOptions(plan);
    const QString line = a.join(QLatin1Char(' '));
    for (const char *must :
         {"--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--uid 1000",
          "--gid 1000", "--cap-drop ALL", "--ro-bind /usr /usr", "--symlink usr/bin /bin",
          "--bind /data/sessions/sb-1/workspace /workspace", "--bind /data/sessions/sb-1/run /run/sandbar",
          "--ro-bind /home/me/src /src", "--ro-bind /data/sandbox-etc /etc",
          "--ro-bind /data/sessions/sb-1/etc/hosts /etc/hosts", "--clearenv"})
        QVERIFY2(line.contains(QLatin1String(must)), must);
    for (const char *mustNot : {"--die-with-parent", "--share-net", "--bind / /", "/etc/shadow", "--new-session"})
        QVERIFY2(!line.contains(QLatin1String(mustNot)), mustNot);
    // The root becomes read-only after every mount.
    QCOMPARE(a.mid(a.size() - 2), (QStringList{QStringLiteral("--remount-ro"), QStringLiteral("/")}));
    QCOMPARE(agentCommand().value(0), QStringLiteral("/.sandbar/agent"));
    QVERIFY(!line.contains(QLatin1String("/proc/sys")));
    plan.hostRoot = true; // the sandbox user is host uid 0: global sysctls must be read-only
    QVERIFY(bwrapOptions(plan).join(QLatin1Char(' ')).contains(QLatin1String("--ro-bind /proc/sys /proc/sys")));
}

void TstLocalProtocol::sandboxEtc()
{
    QTemporaryDir root, cache;
    QDir r(root.path());
    QVERIFY(r.mkpath(QStringLiteral("etc/ssl/private")) && r.mkpath(QStringLiteral("etc/ssl/certs")));
    auto put = [&](const QString &rel, const QByteArray &data, QFile::Permissions perms) {
        QFile f(r.filePath(rel));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
        f.close();
        QVERIFY(QFile::setPermissions(f.fileName(), perms));
    };
    const auto world = QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther;
    put(QStringLiteral("etc/ld.so.cache"), "cache", world);
    put(QStringLiteral("etc/shadow"), "root:secret", QFile::ReadOwner | QFile::WriteOwner);
    put(QStringLiteral("etc/nsswitch.conf"), "passwd: files", QFile::ReadOwner); // owner only: left out
    put(QStringLiteral("etc/ssl/private/key.pem"), "KEY", QFile::ReadOwner);
    put(QStringLiteral("etc/ssl/certs/ca.pem"), "CA", world);
    QVERIFY(QFile::setPermissions(r.filePath(QStringLiteral("etc/ssl/private")),
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    QVERIFY(QFile::link(QStringLiteral("ca.pem"), r.filePath(QStringLiteral("etc/ssl/certs/link.pem"))));

    auto etc = prepareSandboxEtc(cache.path(), QStringLiteral("/bin/sh"), root.path());
    QVERIFY_RESULT(etc);
    const QDir e(*etc);
    QVERIFY(e.exists(QStringLiteral("ld.so.cache")));
    QVERIFY(e.exists(QStringLiteral("ssl/certs/ca.pem")));
    QCOMPARE(QFileInfo(e.filePath(QStringLiteral("ssl/certs/link.pem"))).symLinkTarget(),
             e.filePath(QStringLiteral("ssl/certs/ca.pem")));
    QVERIFY(!e.exists(QStringLiteral("shadow")));
    QVERIFY(!e.exists(QStringLiteral("nsswitch.conf")));
    QVERIFY(!e.exists(QStringLiteral("ssl/private")));
    for (const char *mountPoint : {"hosts", "hostname", "resolv.conf", "passwd", "group"})
        QVERIFY2(e.exists(QLatin1String(mountPoint)), mountPoint);
    QFile passwd(e.filePath(QStringLiteral("passwd")));
    QVERIFY(passwd.open(QIODevice::ReadOnly));
    QVERIFY(passwd.readAll().contains("sandbox:x:1000:1000:Sandbar sandbox:/workspace:/bin/sh"));
    // Second call: same tree, not rebuilt.
    const QDateTime built = QFileInfo(e.filePath(QStringLiteral(".sandbar-stamp"))).lastModified();
    auto again = prepareSandboxEtc(cache.path(), QStringLiteral("/bin/sh"), root.path());
    QVERIFY_RESULT(again);
    QCOMPARE(QFileInfo(e.filePath(QStringLiteral(".sandbar-stamp"))).lastModified(), built);
    // Another shell: rebuilt in place.
    QVERIFY_RESULT(prepareSandboxEtc(cache.path(), QStringLiteral("/bin/bash"), root.path()));
    QVERIFY(passwd.seek(0) || true);
    QFile passwd2(e.filePath(QStringLiteral("passwd")));
    QVERIFY(passwd2.open(QIODevice::ReadOnly));
    QVERIFY(passwd2.readAll().contains("/workspace:/bin/bash"));
}

void TstLocalProtocol::mounts_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("target");
    QTest::addColumn<bool>("ok");
    const QString tmp = QDir::tempPath();
    QTest::newRow("plain") << tmp << QStringLiteral("/src") << true;
    QTest::newRow("under workspace") << tmp << QStringLiteral("/workspace/data") << true;
    QTest::newRow("missing host") << QStringLiteral("/no/such/dir") << QStringLiteral("/src") << false;
    QTest::newRow("relative host") << QStringLiteral("tmp") << QStringLiteral("/src") << false;
    QTest::newRow("relative target") << tmp << QStringLiteral("src") << false;
    QTest::newRow("empty target") << tmp << QString() << false;
    QTest::newRow("root") << tmp << QStringLiteral("/") << false;
    QTest::newRow("over usr") << tmp << QStringLiteral("/usr/local") << false;
    QTest::newRow("over etc via dots") << tmp << QStringLiteral("/src/../etc") << false;
    QTest::newRow("over agent") << tmp << QStringLiteral("/.sandbar") << false;
    QTest::newRow("over run") << tmp << QStringLiteral("/run/sandbar") << false;
    QTest::newRow("over proc") << tmp << QStringLiteral("/proc") << false;
    QTest::newRow("workspace itself") << tmp << QStringLiteral("/workspace/") << false;
}

void TstLocalProtocol::mounts()
{
    QFETCH(QString, host);
    QFETCH(QString, target);
    QFETCH(bool, ok);
    QCOMPARE(validateMount(MountSpec{host, target, false}).ok(), ok);
}

void TstLocalProtocol::entryNames()
{
    QVERIFY(isSafeEntryName(QStringLiteral("a.txt")));
    QVERIFY(isSafeEntryName(QStringLiteral("..hidden")));
    for (const QString &bad : {QString(), QStringLiteral("."), QStringLiteral(".."), QStringLiteral("../x"),
                               QStringLiteral("a/b"), QStringLiteral("/etc")})
        QVERIFY2(!isSafeEntryName(bad), qPrintable(bad));
}

void TstLocalProtocol::endedStatus_data()
{
    QTest::addColumn<bool>("killed");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QByteArray>("status");
    QTest::addColumn<int>("state");
    QTest::addColumn<QString>("messageHas");
    const QByteArray started = "{ \"child-pid\": 12 }\n";
    QTest::newRow("killed by sandbar") << true << QString() << QByteArray(started + "{ \"exit-code\": 137 }\n")
                                       << int(SessionState::Stopped) << QString();
    QTest::newRow("ttl") << false << QStringLiteral("ttl") << started << int(SessionState::Stopped) << QString();
    QTest::newRow("stopped") << false << QStringLiteral("stopped") << started << int(SessionState::Stopped)
                             << QString();
    QTest::newRow("signal") << false << QString() << QByteArray(started + "{ \"exit-code\": 137 }\n")
                            << int(SessionState::Error) << QStringLiteral("signal 9");
    QTest::newRow("exit code") << false << QString() << QByteArray(started + "{ \"exit-code\": 3 }\n")
                               << int(SessionState::Error) << QStringLiteral("exit code 3");
    QTest::newRow("no status") << false << QString() << QByteArray() << int(SessionState::Error)
                               << QStringLiteral("no exit status");
    QTest::newRow("garbage status") << false << QString() << QByteArray("\x01{{{") << int(SessionState::Error)
                                    << QStringLiteral("no exit status");
    QTest::newRow("truncated status") << false << QString() << QByteArray(started + "{ \"exit-co")
                                      << int(SessionState::Error) << QStringLiteral("no exit status");
}

void TstLocalProtocol::endedStatus()
{
    QFETCH(bool, killed);
    QFETCH(QString, reason);
    QFETCH(QByteArray, status);
    QFETCH(int, state);
    QFETCH(QString, messageHas);
    const SessionStatus s = local::endedStatus(killed, reason, status);
    QCOMPARE(int(s.state), state);
    QVERIFY2(s.errorMessage.contains(messageHas), qPrintable(s.errorMessage));
}

void TstLocalProtocol::recordRoundTrip()
{
    QTemporaryDir dir;
    SessionRecord r;
    r.id = QStringLiteral("sb-1");
    r.name = QStringLiteral("n");
    r.dir = dir.path();
    r.created = QDateTime::currentDateTimeUtc();
    r.cpus = 1.5;
    r.memoryBytes = 1 << 20;
    r.network = true;
    r.mounts = {MountSpec{QStringLiteral("/a"), QStringLiteral("/b"), true}};
    r.pid = 42;
    r.startTime = 7;
    r.cgroupDirs = {QStringLiteral("/sys/fs/cgroup/x")};
    QVERIFY_RESULT(saveRecord(r));
    auto back = loadRecord(dir.path());
    QVERIFY_RESULT(back);
    QCOMPARE(back->id, r.id);
    QCOMPARE(*back->cpus, 1.5);
    QCOMPARE(*back->memoryBytes, qint64(1 << 20));
    QVERIFY(!back->pidsLimit);
    QCOMPARE(back->mounts.value(0).sessionPath, QStringLiteral("/b"));
    QVERIFY(back->mounts.value(0).readOnly);
    QCOMPARE(back->cgroupDirs, r.cgroupDirs);
    QCOMPARE(back->created, r.created);
    for (const QByteArray &bad : {QByteArray(), QByteArray("{"), QByteArray("[]"), QByteArray("{\"name\":\"x\"}")})
        QVERIFY(!recordFromJson(bad).ok());
    QVERIFY(!loadRecord(dir.path() + QStringLiteral("/missing")).ok());
}

QTEST_GUILESS_MAIN(TstLocalProtocol)
#include "tst_localprotocol.moc"
