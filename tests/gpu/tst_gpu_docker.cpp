// GpuSource::sampleViaExec end to end through the Docker provider: an image derived from the
// test image (no registry is reachable: built FROM it on the engine) carries a fake
// nvidia-smi that prints canned CSV; a container from it is sampled, then removed with the
// image. SANDBAR_TEST_DOCKER_HOST, SANDBAR_TEST_IMAGE; in CI a missing engine fails.
#include "../docker/EngineKit.h"
#include "metrics/GpuSource.h"

#include <QCoreApplication>
#include <QRandomGenerator>
#include <QUrl>
#include <utility>

using namespace sandbar;
using namespace sandbar::metrics;
using namespace sandbar::test;

namespace {
const QString kTestLabel = QStringLiteral("dev.sandbar.test");

// Checks its arguments like the real one would fail on them, and answers by $FAKE_SMI_MODE
// (the session's environment, which exec inherits).
const QByteArray kFakeSmi = R"(#!/bin/sh
case "$FAKE_SMI_MODE" in
nodevices) echo "No devices were found"; exit 6 ;;
nodriver) echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."; exit 9 ;;
esac
case "$1" in
--query-gpu=index,uuid,name,utilization.gpu,utilization.memory,memory.used,memory.total,*) ;;
*) echo "Field \"$1\" is not a valid field to query." >&2; exit 2 ;;
esac
[ "$2" = "--format=csv,noheader,nounits" ] || { echo "unexpected format: $2" >&2; exit 2; }
echo "0, GPU-0bd4f3e2-8c8a-4b7e-9f1c-6a9f1d2e3c4b, NVIDIA H200, 37, 12, 20480, 143771, 41, 123.45, 700.00, Disabled"
echo "1, GPU-a100a100-0000-0000-0000-000000000000, NVIDIA A100-SXM4-40GB, [N/A], [N/A], 125, 40960, 33, 52.10, [Not Supported], Enabled"
)";

// A ustar archive of a few small files: the build context (two files do not need libarchive).
void appendTarFile(QByteArray &tar, const QByteArray &name, const QByteArray &data, int mode)
{
    QByteArray h(512, '\0');
    auto put = [&h](int at, int width, const QByteArray &v) {
        h.replace(at, qMin(width, int(v.size())), v.left(width));
    };
    auto octal = [](qint64 v, int width) { return QByteArray::number(v, 8).rightJustified(width - 1, '0'); };
    put(0, 100, name);
    put(100, 8, octal(mode, 8));
    put(108, 8, octal(0, 8));
    put(116, 8, octal(0, 8));
    put(124, 12, octal(data.size(), 12));
    put(136, 12, octal(1700000000, 12));
    put(148, 8, QByteArray(8, ' '));
    h[156] = '0';
    put(257, 6, QByteArray("ustar\0", 6));
    put(263, 2, "00");
    unsigned sum = 0;
    for (char c : std::as_const(h))
        sum += static_cast<unsigned char>(c);
    put(148, 8, octal(sum, 7) + QByteArray("\0 ", 2));
    tar += h;
    tar += data;
    tar += QByteArray((512 - data.size() % 512) % 512, '\0');
}

} // namespace

class TestGpuDocker : public QObject
{
    Q_OBJECT
    std::unique_ptr<Provider> m_p;
    QString m_image;
    QString m_gpuImage;

    Result<QString> createSession(const QString &image, const QStringList &env = {})
    {
        CreateSpec spec;
        spec.image = image;
        spec.env = env;
        spec.labels.insert(kTestLabel, QStringLiteral("tst_gpu_docker"));
        auto r = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, 60000);
        if (!r)
            return r.error();
        return r->id;
    }
    void removeSession(const QString &id)
    {
        (void)await<void>([&](auto cb) { m_p->remove(id, cb); }, 60000);
    }
    Result<QList<GpuReading>> sampleOnce(GpuSource &src, const QString &id)
    {
        QObject ctx;
        std::optional<Result<QList<GpuReading>>> out;
        src.sampleViaExec(m_p.get(), id, &ctx, [&out](Result<QList<GpuReading>> r) { out.emplace(std::move(r)); });
        if (!waitUntil([&] { return out.has_value(); }, 40000))
            return makeError(ErrorCode::Timeout, QStringLiteral("test: sampleViaExec did not answer"));
        return std::move(*out);
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString host = dockerHost();
        SANDBAR_REQUIRE(!host.isEmpty(),
                        QStringLiteral("SANDBAR_TEST_DOCKER_HOST is not set (scripts/test-services.sh start)"));
        m_image = testImage();
        m_p = makeEngineProvider(docker::Flavour::Docker, host);
        QVERIFY(m_p);
        auto h = await<HealthInfo>([&](auto cb) { m_p->health(cb); });
        SANDBAR_REQUIRE(
            h.ok(),
            QStringLiteral("the Docker engine at %1 is not reachable: %2").arg(host, h ? QString() : h.message()));

        // The derived image, built on the engine from the local test image (no pull, no network).
        m_gpuImage = QStringLiteral("sandbar-test/gpu-smi:t%1-%2")
                         .arg(QCoreApplication::applicationPid())
                         .arg(QRandomGenerator::global()->bounded(1000000));
        QByteArray context;
        appendTarFile(context, "Dockerfile",
                      "FROM " + m_image.toUtf8() + "\nCOPY nvidia-smi /usr/local/bin/nvidia-smi\n", 0644);
        appendTarFile(context, "nvidia-smi", kFakeSmi, 0755);
        context += QByteArray(1024, '\0');
        const QByteArray target = "/build?rm=1&forcerm=1&networkmode=none&t=" + QUrl::toPercentEncoding(m_gpuImage);
        auto built = engineRequest(dockerHost(), "POST", target, context, 120000);
        QVERIFY_RESULT(built);
        QVERIFY2(built->status == 200 && !built->body.contains("\"error"), built->body.constData());
        QVERIFY2(built->body.contains("Successfully tagged"), built->body.constData());
    }

    void cleanupTestCase()
    {
        if (m_p) {
            ListOptions all;
            all.all = true;
            auto list = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions(all, cb); });
            if (list) {
                for (const auto &s : *list) {
                    if (s.labels.value(kTestLabel) == QLatin1String("tst_gpu_docker"))
                        removeSession(s.id);
                }
            }
        }
        if (!m_gpuImage.isEmpty()) {
            auto removed =
                engineRequest(dockerHost(), "DELETE", "/images/" + QUrl::toPercentEncoding(m_gpuImage) + "?force=1");
            QVERIFY_RESULT(removed);
            QVERIFY2(removed->status == 200, removed->body.constData());
            auto gone = engineRequest(dockerHost(), "GET", "/images/" + QUrl::toPercentEncoding(m_gpuImage) + "/json");
            QVERIFY_RESULT(gone);
            QCOMPARE(gone->status, 404);
        }
    }

    void readingsThroughExec()
    {
        auto id = createSession(m_gpuImage);
        QVERIFY_RESULT(id);
        GpuSource src;
        auto r = sampleOnce(src, *id);
        removeSession(*id);
        QVERIFY_RESULT(r);
        const QList<GpuReading> &g = r.value();
        QCOMPARE(g.size(), 2);
        QCOMPARE(g[0].index, 0);
        QCOMPARE(g[0].uuid, QStringLiteral("GPU-0bd4f3e2-8c8a-4b7e-9f1c-6a9f1d2e3c4b"));
        QCOMPARE(g[0].name, QStringLiteral("NVIDIA H200"));
        QCOMPARE(g[0].utilizationPercent, std::optional<double>(37));
        QCOMPARE(g[0].memoryUtilizationPercent, std::optional<double>(12));
        QCOMPARE(g[0].memoryUsedBytes, std::optional<qint64>(20480LL * 1024 * 1024));
        QCOMPARE(g[0].memoryTotalBytes, std::optional<qint64>(143771LL * 1024 * 1024));
        QCOMPARE(g[0].temperatureC, std::optional<double>(41));
        QCOMPARE(g[0].powerWatts, std::optional<double>(123.45));
        QCOMPARE(g[0].powerLimitWatts, std::optional<double>(700));
        QVERIFY(!g[0].mig);
        QCOMPARE(g[1].index, 1);
        QVERIFY(g[1].mig);
        QVERIFY(!g[1].utilizationPercent);
        QVERIFY(!g[1].powerLimitWatts);
        QCOMPARE(g[1].memoryUsedBytes, std::optional<qint64>(125LL * 1024 * 1024));
    }

    void noDevicesAndNoDriver()
    {
        auto none = createSession(m_gpuImage, {QStringLiteral("FAKE_SMI_MODE=nodevices")});
        QVERIFY_RESULT(none);
        auto noDriver = createSession(m_gpuImage, {QStringLiteral("FAKE_SMI_MODE=nodriver")});
        QVERIFY_RESULT(noDriver);
        GpuSource src;
        auto a = sampleOnce(src, *none);
        auto b = sampleOnce(src, *noDriver);
        removeSession(*none);
        removeSession(*noDriver);
        QVERIFY_RESULT(a);
        QVERIFY(a->isEmpty());
        QVERIFY(!b);
        QCOMPARE(b.code(), ErrorCode::Unavailable);
        QVERIFY2(b.message().startsWith(QLatin1String("nvidia-smi: NVIDIA-SMI has failed")), qPrintable(b.message()));
    }

    // The plain test image has no nvidia-smi: a clear error, the same on the second sample
    // (which answers from memory: tst_gpu_source counts that no exec runs).
    void missingNvidiaSmi()
    {
        auto id = createSession(m_image);
        QVERIFY_RESULT(id);
        GpuSource src;
        auto first = sampleOnce(src, *id);
        auto second = sampleOnce(src, *id);
        removeSession(*id);
        QVERIFY(!first);
        QCOMPARE(first.code(), ErrorCode::NotFound);
        QVERIFY2(first.message().startsWith(QLatin1String("nvidia-smi is not installed in this session")),
                 qPrintable(first.message()));
        QVERIFY(!second);
        QCOMPARE(second.message(), first.message());
    }
};

QTEST_GUILESS_MAIN(TestGpuDocker)
#include "tst_gpu_docker.moc"
