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
    void nvidiaSmiTable();
    void gpuSelection_data();
    void gpuSelection();
    void gpuBwrapArguments();
    void recordKeepsGpus();
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

namespace {
// A fake /dev with what the NVIDIA driver makes: regular files stand in for the nodes.
void touchAll(const QString &root, const QStringList &names)
{
    for (const QString &n : names) {
        QFile f(root + QLatin1Char('/') + n);
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
}
} // namespace

void TstLocalProtocol::nvidiaSmiTable()
{
    const QByteArray csv = "0, GPU-0f5e2c1a-7b3d-4e89-a1b2-c3d4e5f60718, 0\n"
                           "1, GPU-11111111-2222-3333-4444-555555555555, 3\n"
                           "2, GPU-22222222-2222-3333-4444-555555555555, [N/A]\n" // no minor: left out
                           "garbage\n"
                           "3, GPU-3333\n"; // truncated
    const auto rows = parseNvidiaSmiGpus(csv);
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows.at(1).index, 1);
    QCOMPARE(rows.at(1).uuid, QStringLiteral("GPU-11111111-2222-3333-4444-555555555555"));
    QCOMPARE(rows.at(1).minor, 3);
    QVERIFY(parseNvidiaSmiGpus({}).isEmpty());
    QVERIFY(parseNvidiaSmiGpus("No devices were found\n").isEmpty());
    QCOMPARE(nvidiaSmiQueryArgs().join(QLatin1Char(' ')),
             QStringLiteral("--query-gpu=index,uuid,minor_number --format=csv,noheader"));
}

void TstLocalProtocol::gpuSelection_data()
{
    QTest::addColumn<int>("gpus");
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<bool>("withSmi");
    QTest::addColumn<QStringList>("devices"); // empty with an error
    QTest::addColumn<QStringList>("gpuIds");
    QTest::addColumn<QString>("error");
    const QStringList shared{QStringLiteral("nvidiactl"), QStringLiteral("nvidia-uvm"),
                             QStringLiteral("nvidia-uvm-tools"), QStringLiteral("nvidia-modeset"),
                             QStringLiteral("nvidia-caps")};
    const QString uuid3 = QStringLiteral("GPU-11111111-2222-3333-4444-555555555555");
    const auto with = [&shared](QStringList gpus) { return gpus + shared; };
    QTest::newRow("none") << 0 << QStringList() << false << QStringList() << QStringList() << QString();
    QTest::newRow("all") << -1 << QStringList() << false
                         << with({QStringLiteral("nvidia0"), QStringLiteral("nvidia1"), QStringLiteral("nvidia3")})
                         << QStringList{QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("3")} << QString();
    QTest::newRow("all, named by nvidia-smi")
        << -1 << QStringList() << true
        << with({QStringLiteral("nvidia0"), QStringLiteral("nvidia1"), QStringLiteral("nvidia3")})
        << QStringList{QStringLiteral("GPU-0f5e2c1a-7b3d-4e89-a1b2-c3d4e5f60718"), QStringLiteral("1"), uuid3}
        << QString();
    QTest::newRow("count 2: the lowest") << 2 << QStringList() << false
                                         << with({QStringLiteral("nvidia0"), QStringLiteral("nvidia1")})
                                         << QStringList{QStringLiteral("0"), QStringLiteral("1")} << QString();
    QTest::newRow("count too many") << 4 << QStringList() << false << QStringList() << QStringList()
                                    << QStringLiteral("4 GPUs asked for; this computer has 3.");
    QTest::newRow("indices") << 2 << QStringList{QStringLiteral("3"), QStringLiteral("1")} << false
                             << with({QStringLiteral("nvidia3"), QStringLiteral("nvidia1")})
                             << QStringList{QStringLiteral("3"), QStringLiteral("1")} << QString();
    QTest::newRow("uuid via nvidia-smi") << 1 << QStringList{uuid3} << true << with({QStringLiteral("nvidia3")})
                                         << QStringList{uuid3} << QString();
    QTest::newRow("uuid without nvidia-smi") << 1 << QStringList{uuid3} << false << QStringList() << QStringList()
                                             << QStringLiteral("needs nvidia-smi, which is not installed");
    QTest::newRow("unknown uuid") << 1 << QStringList{QStringLiteral("GPU-99999999-2222-3333-4444-555555555555")}
                                  << true << QStringList() << QStringList()
                                  << QStringLiteral("No GPU GPU-99999999-2222-3333-4444-555555555555 on this computer");
    QTest::newRow("missing index") << 1 << QStringList{QStringLiteral("2")} << false << QStringList() << QStringList()
                                   << QStringLiteral("GPU 2 is not on this computer (no ");
    QTest::newRow("mig") << 1 << QStringList{QStringLiteral("MIG-8b3e4f0a-1c2d-5e6f-7a8b-9c0d1e2f3a4b")} << true
                         << QStringList() << QStringList() << QStringLiteral("cannot be given a MIG device");
}

void TstLocalProtocol::gpuSelection()
{
    QFETCH(int, gpus);
    QFETCH(QStringList, ids);
    QFETCH(bool, withSmi);
    QFETCH(QStringList, devices);
    QFETCH(QStringList, gpuIds);
    QFETCH(QString, error);
    QTemporaryDir dev;
    touchAll(dev.path(), {QStringLiteral("nvidia0"), QStringLiteral("nvidia1"), QStringLiteral("nvidia3"),
                          QStringLiteral("nvidiactl"), QStringLiteral("nvidia-uvm"), QStringLiteral("nvidia-uvm-tools"),
                          QStringLiteral("nvidia-modeset"), QStringLiteral("nvidiafoo"), QStringLiteral("null")});
    QVERIFY(QDir(dev.path()).mkdir(QStringLiteral("nvidia-caps")));
    QCOMPARE(hostNvidiaGpus(dev.path()), (QList<int>{0, 1, 3}));
    std::optional<QList<NvidiaSmiGpu>> smi;
    if (withSmi)
        smi = parseNvidiaSmiGpus("0, GPU-0f5e2c1a-7b3d-4e89-a1b2-c3d4e5f60718, 0\n"
                                 "1, GPU-11111111-2222-3333-4444-555555555555, 3\n");
    const auto r = selectGpuDevices(gpus, ids, dev.path(), smi);
    if (!error.isEmpty()) {
        QVERIFY(!r.ok());
        QVERIFY2(r.message().contains(error), qPrintable(r.message()));
        return;
    }
    QVERIFY_RESULT(r);
    QCOMPARE(r->devices, devices);
    QCOMPARE(r->gpuIds, gpuIds);
}

void TstLocalProtocol::gpuBwrapArguments()
{
    QTemporaryDir dev;
    // No GPU here: any request says so; none asked for binds nothing.
    const auto none = selectGpuDevices(-1, {}, dev.path(), std::nullopt);
    QVERIFY(!none.ok());
    QCOMPARE(none.code(), ErrorCode::Unsupported);
    QCOMPARE(none.message(), QStringLiteral("No NVIDIA GPU on this computer (no %1/nvidia0); create the session "
                                            "without GPUs.")
                                 .arg(dev.path()));
    QVERIFY(selectGpuDevices(0, {}, dev.path(), std::nullopt).ok());

    touchAll(dev.path(), {QStringLiteral("nvidia0"), QStringLiteral("nvidia1"), QStringLiteral("nvidiactl"),
                          QStringLiteral("nvidia-uvm")});
    const auto one = selectGpuDevices(1, {QStringLiteral("1")}, dev.path(), std::nullopt);
    QVERIFY_RESULT(one);
    SandboxPlan plan;
    plan.agentPath = QStringLiteral("/opt/sb/sandbar-agent");
    plan.sessionDir = QStringLiteral("/data/sessions/sb-1");
    plan.hostname = QStringLiteral("box");
    plan.etcDir = QStringLiteral("/data/sandbox-etc");
    const QStringList without = bwrapOptions(plan);
    QVERIFY(!without.join(QLatin1Char(' ')).contains(QLatin1String("nvidia")));
    QVERIFY(!without.contains(QLatin1String("--dev-bind")));
    plan.gpuDevices = one->devices;
    plan.devRoot = dev.path();
    const QStringList a = bwrapOptions(plan);
    const QString d = dev.path();
    // Golden: the nodes come right after bwrap's own /dev, each bound as a device.
    const qsizetype at = a.indexOf(QStringLiteral("--dev"));
    QVERIFY(at > 0);
    QCOMPARE(a.mid(at, 11), (QStringList{QStringLiteral("--dev"), QStringLiteral("/dev"), QStringLiteral("--dev-bind"),
                                         d + QStringLiteral("/nvidia1"), QStringLiteral("/dev/nvidia1"),
                                         QStringLiteral("--dev-bind"), d + QStringLiteral("/nvidiactl"),
                                         QStringLiteral("/dev/nvidiactl"), QStringLiteral("--dev-bind"),
                                         d + QStringLiteral("/nvidia-uvm"), QStringLiteral("/dev/nvidia-uvm")}));
    QCOMPARE(a.count(QStringLiteral("--dev-bind")), 3);
    QVERIFY(!a.contains(d + QStringLiteral("/nvidia0")));
    // Everything else is as it was, and the root still ends read-only.
    QCOMPARE(a.size(), without.size() + 9);
    QCOMPARE(a.mid(a.size() - 2), (QStringList{QStringLiteral("--remount-ro"), QStringLiteral("/")}));
}

void TstLocalProtocol::recordKeepsGpus()
{
    QTemporaryDir dir;
    SessionRecord r;
    r.id = QStringLiteral("sb-2");
    r.dir = dir.path();
    r.created = QDateTime::currentDateTimeUtc();
    r.gpuDevices = {QStringLiteral("nvidia1"), QStringLiteral("nvidiactl")};
    r.gpuIds = {QStringLiteral("GPU-11111111-2222-3333-4444-555555555555")};
    QVERIFY_RESULT(saveRecord(r));
    auto back = loadRecord(dir.path());
    QVERIFY_RESULT(back);
    QCOMPARE(back->gpuDevices, r.gpuDevices);
    QCOMPARE(back->gpuIds, r.gpuIds);
    const SessionInfo info = toSessionInfo(*back, QStringLiteral("local"));
    QCOMPARE(info.gpus, 1);
    QCOMPARE(info.gpuUuids, r.gpuIds);
    // A record from before GPUs reads as none.
    auto old = recordFromJson(R"({"id":"sb-3","name":"n"})");
    QVERIFY_RESULT(old);
    QVERIFY(old->gpuDevices.isEmpty());
    QCOMPARE(toSessionInfo(*old, QStringLiteral("local")).gpus, 0);
}

QTEST_GUILESS_MAIN(TstLocalProtocol)
#include "tst_localprotocol.moc"
