// GPU requests: the `gpus` option's syntax (one parse for the form, sandbarctl and
// createSpecFromOptions), the DeviceRequests JSON sent to Docker (golden), what a daemon
// without the NVIDIA toolkit answers, and what an inspect says a session was given.
#include "TestSupport.h"
#include "providers/Descriptors.h"
#include "providers/docker/DockerFactory.h"
#include "providers/docker/DockerGpu.h"
#include "providers/docker/DockerParsers.h"

#include <QJsonDocument>
#include <QTest>

using namespace sandbar;
using namespace sandbar::docker;

namespace {
const QString kUuidA = QStringLiteral("GPU-0f5e2c1a-7b3d-4e89-a1b2-c3d4e5f60718");
const QString kUuidB = QStringLiteral("GPU-11111111-2222-3333-4444-555555555555");
const QString kMig = QStringLiteral("MIG-8b3e4f0a-1c2d-5e6f-7a8b-9c0d1e2f3a4b");
} // namespace

class TestDockerGpu : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data();
    void parse();
    void descriptorDriven();
    void deviceRequests_data();
    void deviceRequests();
    void sameShapeAsDockerCli();
    void noNvidiaRuntime_data();
    void noNvidiaRuntime();
    void inspectCarriesGpus();
};

void TestDockerGpu::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<QString>("canonical");
    const auto row = [](const char *name, const QString &text, bool ok, int gpus, const QStringList &ids,
                        const QString &canonical) { QTest::newRow(name) << text << ok << gpus << ids << canonical; };
    const QStringList none;
    row("empty", QString(), true, 0, none, QStringLiteral("none"));
    row("none", QStringLiteral("None"), true, 0, none, QStringLiteral("none"));
    row("zero", QStringLiteral("0"), true, 0, none, QStringLiteral("none"));
    row("all", QStringLiteral("all"), true, -1, none, QStringLiteral("all"));
    row("ALL spaced", QStringLiteral("  ALL "), true, -1, none, QStringLiteral("all"));
    row("legacy -1", QStringLiteral("-1"), true, -1, none, QStringLiteral("all"));
    row("count", QStringLiteral("2"), true, 2, none, QStringLiteral("2"));
    row("count max", QStringLiteral("64"), true, 64, none, QStringLiteral("64"));
    row("count too many", QStringLiteral("65"), false, 0, none, QString());
    row("uuid", kUuidA, true, 1, {kUuidA}, kUuidA);
    row("uuids spaced", kUuidA + QStringLiteral(" , ") + kUuidB, true, 2, {kUuidA, kUuidB},
        kUuidA + QLatin1Char(',') + kUuidB);
    row("uuid repeated", kUuidA + QLatin1Char(',') + kUuidA, true, 1, {kUuidA}, kUuidA);
    row("mig", kMig, true, 1, {kMig}, kMig);
    row("old mig", QStringLiteral("MIG-GPU-0f5e2c1a-7b3d-4e89-a1b2-c3d4e5f60718/1/0"), true, 1,
        {QStringLiteral("MIG-GPU-0f5e2c1a-7b3d-4e89-a1b2-c3d4e5f60718/1/0")},
        QStringLiteral("MIG-GPU-0f5e2c1a-7b3d-4e89-a1b2-c3d4e5f60718/1/0"));
    row("indices", QStringLiteral("0,2"), true, 2, {QStringLiteral("0"), QStringLiteral("2")}, QStringLiteral("0,2"));
    row("device= one index", QStringLiteral("device=1"), true, 1, {QStringLiteral("1")}, QStringLiteral("device=1"));
    row("device= mixed", QStringLiteral("device=1,") + kUuidB, true, 2, {QStringLiteral("1"), kUuidB},
        QStringLiteral("1,") + kUuidB);
    row("mig index", QStringLiteral("0:1"), true, 1, {QStringLiteral("0:1")}, QStringLiteral("device=0:1"));
    row("garbage", QStringLiteral("lots"), false, 0, none, QString());
    row("negative", QStringLiteral("-2"), false, 0, none, QString());
    row("fraction", QStringLiteral("1.5"), false, 0, none, QString());
    row("truncated uuid", QStringLiteral("GPU-0f5e2c1a-7b3d"), false, 0, none, QString());
    row("lower-case prefix", QStringLiteral("gpu-0f5e2c1a-7b3d-4e89-a1b2-c3d4e5f60718"), false, 0, none, QString());
    row("empty item", kUuidA + QStringLiteral(",,") + kUuidB, false, 0, none, QString());
    row("trailing comma", kUuidA + QLatin1Char(','), false, 0, none, QString());
    row("device= nothing", QStringLiteral("device="), false, 0, none, QString());
    row("shell text", QStringLiteral("all;rm -rf /"), false, 0, none, QString());
}

void TestDockerGpu::parse()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(int, gpus);
    QFETCH(QStringList, ids);
    QFETCH(QString, canonical);
    const auto r = parseGpuRequest(text);
    QCOMPARE(r.ok(), ok);
    if (!ok) {
        QCOMPARE(r.code(), ErrorCode::InvalidArgument);
        QVERIFY(!r.message().isEmpty());
        QVERIFY(!r.message().contains(QLatin1Char('\n')));
        return;
    }
    QCOMPARE(r->gpus, gpus);
    QCOMPARE(r->deviceIds, ids);
    QCOMPARE(gpuRequestText(*r), canonical);
    // The canonical text reads back as the same request.
    const auto again = parseGpuRequest(canonical);
    QVERIFY(again.ok());
    QCOMPARE(again->gpus, gpus);
    QCOMPARE(again->deviceIds, ids);
}

// The form and sandbarctl both go through the descriptor, then createSpecFromOptions.
void TestDockerGpu::descriptorDriven()
{
    const ProviderDescriptor d = makeDescriptor(Flavour::Docker);
    const FieldDescriptor *f = d.createOption(QStringLiteral("gpus"));
    QVERIFY(f);
    QCOMPARE(f->type, FieldType::Gpus);
    QVERIFY(validateFieldValue(*f, f->defaultValue).ok());
    const auto v = parseFieldValue(*f, kUuidB + QStringLiteral(", ") + kUuidA);
    QVERIFY_RESULT(v);
    QCOMPARE(v->toString(), kUuidB + QLatin1Char(',') + kUuidA);
    const CreateSpec s = createSpecFromOptions({{QStringLiteral("gpus"), *v}});
    QCOMPARE(s.gpus, 2);
    QCOMPARE(s.gpuUuids, (QStringList{kUuidB, kUuidA}));
    QCOMPARE(createSpecFromOptions({{QStringLiteral("gpus"), *parseFieldValue(*f, QStringLiteral("all"))}}).gpus, -1);
    QCOMPARE(createSpecFromOptions({{QStringLiteral("gpus"), *parseFieldValue(*f, QStringLiteral("3"))}}).gpus, 3);
    // Settings written when the option was a number still read.
    QCOMPARE(createSpecFromOptions({{QStringLiteral("gpus"), -1}}).gpus, -1);
    QCOMPARE(createSpecFromOptions({}).gpus, 0);
    const auto bad = parseFieldValue(*f, QStringLiteral("two"));
    QVERIFY(!bad.ok());
    QCOMPARE(bad.code(), ErrorCode::InvalidArgument);
    QVERIFY2(bad.message().startsWith(QLatin1String("GPUs: 'two' is not all, a number of GPUs")),
             qPrintable(bad.message()));
    QVERIFY(!validateFieldValue(*f, QStringLiteral("two")).ok());
    QVERIFY(!makeDescriptor(Flavour::Podman).createOption(QStringLiteral("gpus")));
}

void TestDockerGpu::deviceRequests_data()
{
    QTest::addColumn<int>("gpus");
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<QByteArray>("golden");
    // nlohmann writes keys sorted; the daemon does not mind the order.
    QTest::newRow("none") << 0 << QStringList() << QByteArray();
    QTest::newRow("all") << -1 << QStringList()
                         << QByteArray(R"([{"Capabilities":[["gpu","compute","utility"]],"Count":-1,)"
                                       R"("DeviceIDs":null,"Driver":"","Options":{}}])");
    QTest::newRow("count") << 2 << QStringList()
                           << QByteArray(R"([{"Capabilities":[["gpu","compute","utility"]],"Count":2,)"
                                         R"("DeviceIDs":null,"Driver":"","Options":{}}])");
    QTest::newRow("uuids") << 2 << QStringList{kUuidA, kUuidB}
                           << QByteArray(R"([{"Capabilities":[["gpu","compute","utility"]],"Count":0,)"
                                         R"("DeviceIDs":[")" +
                                         kUuidA.toLatin1() + R"(",")" + kUuidB.toLatin1() +
                                         R"("],"Driver":"","Options":{}}])");
    QTest::newRow("one index") << 1 << QStringList{QStringLiteral("1")}
                               << QByteArray(R"([{"Capabilities":[["gpu","compute","utility"]],"Count":0,)"
                                             R"("DeviceIDs":["1"],"Driver":"","Options":{}}])");
}

void TestDockerGpu::deviceRequests()
{
    QFETCH(int, gpus);
    QFETCH(QStringList, ids);
    QFETCH(QByteArray, golden);
    QCOMPARE(gpuDeviceRequests(gpus, ids), golden);
}

// The shape `docker run --gpus all` sends (CLI opts/gpus.go), with the capabilities
// nvidia-smi needs added to the same AND-list.
void TestDockerGpu::sameShapeAsDockerCli()
{
    const QJsonDocument cli = QJsonDocument::fromJson(
        R"([{"Driver":"","Count":-1,"DeviceIDs":null,"Capabilities":[["gpu","compute","utility"]],"Options":{}}])");
    QVERIFY(cli.isArray());
    QCOMPARE(QJsonDocument::fromJson(gpuDeviceRequests(-1, {})), cli);
}

void TestDockerGpu::noNvidiaRuntime_data()
{
    QTest::addColumn<QString>("message");
    QTest::addColumn<bool>("mapped");
    QTest::newRow("docker 24+")
        << QStringLiteral("failed to create task for container: could not select device driver \"\" with capabilities: "
                          "[[gpu compute utility]]")
        << true;
    QTest::newRow("bare") << QStringLiteral("could not select device driver \"\" with capabilities: [[gpu]]") << true;
    QTest::newRow("other") << QStringLiteral("No such image: busybox") << false;
    QTest::newRow("empty") << QString() << false;
}

void TestDockerGpu::noNvidiaRuntime()
{
    QFETCH(QString, message);
    QFETCH(bool, mapped);
    const auto e = gpuDriverError(message);
    QCOMPARE(e.has_value(), mapped);
    if (!mapped)
        return;
    QCOMPARE(e->code, ErrorCode::Unsupported);
    QVERIFY(
        e->message.startsWith(QLatin1String("This Docker engine has no NVIDIA runtime (nvidia-container-toolkit)")));
    QVERIFY(e->message.contains(message));
    QVERIFY(!e->message.contains(QLatin1Char('\n')));
}

void TestDockerGpu::inspectCarriesGpus()
{
    const QByteArray ids = R"({"Id":"abc","Name":"/x","State":{"Status":"running"},"Config":{},
      "HostConfig":{"DeviceRequests":[{"Driver":"","Count":0,"DeviceIDs":[")" +
                           kUuidA.toLatin1() + R"(","1"],"Capabilities":[["gpu","compute","utility"]]}]}})";
    auto s = sessionFromInspect(ids, {QStringLiteral("a"), QStringLiteral("docker")});
    QVERIFY_RESULT(s);
    QCOMPARE(s->gpus, 2);
    QCOMPARE(s->gpuUuids, (QStringList{kUuidA, QStringLiteral("1")}));

    const QByteArray count = R"({"Id":"abc","Name":"/x","State":{"Status":"running"},"Config":{},
      "HostConfig":{"DeviceRequests":[{"Driver":"","Count":3,"DeviceIDs":null,"Capabilities":[["gpu"]]}]}})";
    s = sessionFromInspect(count, {QStringLiteral("a"), QStringLiteral("docker")});
    QVERIFY_RESULT(s);
    QCOMPARE(s->gpus, 3);
    QVERIFY(s->gpuUuids.isEmpty());

    // "all" stays all whatever follows; garbage ids are skipped, not fatal.
    const QByteArray mixed = R"({"Id":"abc","Name":"/x","State":{"Status":"running"},"Config":{},
      "HostConfig":{"DeviceRequests":[{"Count":-1},{"Count":0,"DeviceIDs":[7,"GPU-x"]}]}})";
    s = sessionFromInspect(mixed, {QStringLiteral("a"), QStringLiteral("docker")});
    QVERIFY_RESULT(s);
    QCOMPARE(s->gpus, -1);
    QCOMPARE(s->gpuUuids, QStringList{QStringLiteral("GPU-x")});

    const QByteArray none = R"({"Id":"abc","Name":"/x","State":{"Status":"running"},"Config":{},
      "HostConfig":{"DeviceRequests":null}})";
    s = sessionFromInspect(none, {QStringLiteral("a"), QStringLiteral("docker")});
    QVERIFY_RESULT(s);
    QCOMPARE(s->gpus, 0);
    QVERIFY(s->gpuUuids.isEmpty());
}

QTEST_GUILESS_MAIN(TestDockerGpu)
#include "tst_dockergpu.moc"
