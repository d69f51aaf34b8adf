// The engine's images for the New session dialog (GET /images/json) and the progress a create
// reports while it pulls a missing image, against the private Docker engine
// (SANDBAR_TEST_DOCKER_HOST) and, with SANDBAR_TEST_ENGINE=podman, Podman. No network: the pull of
// an image that exists nowhere fails, after saying it was pulling.
#include "EngineFlavour.h"

#include <QSignalSpy>

using namespace sandbar;
using namespace sandbar::test;

class TestDockerImages : public QObject
{
    Q_OBJECT
    std::unique_ptr<Provider> m_p;

private Q_SLOTS:
    void initTestCase()
    {
        const QString why = openEngine(m_p);
        SANDBAR_REQUIRE(why.isEmpty(), why);
    }

    void listsTaggedImages()
    {
        const auto images = await<QStringList>([&](auto cb) { m_p->images()->listImages(cb); });
        QVERIFY_RESULT(images);
        // Podman names the registry: docker.io/sandbar-test/busybox:latest.
        const bool listed = std::any_of(images->cbegin(), images->cend(), [](const QString &i) {
            return i == testImage() || i.endsWith(QLatin1Char('/') + testImage());
        });
        QVERIFY2(listed, qPrintable(images->join(QLatin1Char(' '))));
        for (const QString &i : *images)
            QVERIFY2(!i.contains(QStringLiteral("<none>")), qPrintable(i));
    }

    void pullReportsProgressByName()
    {
        QSignalSpy progress(m_p.get(), &Provider::createProgress);
        CreateSpec spec;
        spec.name = QStringLiteral("sandbar-test-pull-%1").arg(QCoreApplication::applicationPid());
        spec.image = QStringLiteral("sandbar-test/not-anywhere:1");
        spec.ttlSeconds = 60;
        const auto made = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, 120000);
        QVERIFY(!made.ok());
        QVERIFY2(made.message().contains(spec.image), qPrintable(made.message()));
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.first().at(0).toString(), spec.name);
        QVERIFY2(progress.first().at(1).toString().startsWith(QStringLiteral("Pulling image")),
                 qPrintable(progress.first().at(1).toString()));
    }
};

QTEST_GUILESS_MAIN(TestDockerImages)
#include "tst_docker_images.moc"
