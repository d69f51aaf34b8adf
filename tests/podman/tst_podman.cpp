// The same provider code against Podman's Docker-compatible service (SANDBAR_TEST_PODMAN_HOST).
#include "CopyTable.h"
#include "EngineKit.h"

#include <QFile>
#include <QTemporaryDir>

using namespace sandbar;
using namespace sandbar::test;

class TestPodman : public QObject
{
    Q_OBJECT
    std::unique_ptr<Provider> m_p;
    QString m_id;

private Q_SLOTS:
    void initTestCase()
    {
        const QString host = podmanHost();
        SANDBAR_REQUIRE(!host.isEmpty(),
                        QStringLiteral("SANDBAR_TEST_PODMAN_HOST is not set (scripts/test-services.sh start)"));
        m_p = makeEngineProvider(docker::Flavour::Podman, host);
        QVERIFY(m_p);
        QCOMPARE(m_p->descriptor().id, QStringLiteral("podman"));
        QVERIFY(!m_p->capabilities().testFlag(Capability::Gpu));
        auto h = await<HealthInfo>([&](auto cb) { m_p->health(cb); });
        SANDBAR_REQUIRE(
            h.ok(),
            QStringLiteral("the Podman service at %1 is not reachable: %2").arg(host, h ? QString() : h.message()));
        QCOMPARE(h->serverName, QStringLiteral("Podman Engine"));
        QVERIFY(h->warnings.isEmpty());
    }

    void detectDefault()
    {
        const QByteArray saved = qgetenv("CONTAINER_HOST");
        qputenv("CONTAINER_HOST", podmanHost().toUtf8());
        const auto found = docker::DockerFactory(docker::Flavour::Podman).detectDefault();
        saved.isNull() ? qunsetenv("CONTAINER_HOST") : qputenv("CONTAINER_HOST", saved);
        QVERIFY(found.has_value());
        QCOMPARE(found->value(QStringLiteral("endpoint")).toString(), podmanHost());
    }

    void cleanupTestCase()
    {
        if (m_p && !m_id.isEmpty())
            (void)await<void>([&](auto cb) { m_p->remove(m_id, cb); });
    }

    void create()
    {
        CreateSpec spec;
        spec.image = testImage();
        spec.name = QStringLiteral("podman box");
        spec.memoryBytes = 128 * 1024 * 1024;
        spec.options.insert(QStringLiteral("tmpfs"), QStringLiteral("/scratch:rw,size=64m,mode=1777"));
        auto s = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, 60000);
        QVERIFY_RESULT(s);
        m_id = s->id;
        QCOMPARE(s->state, SessionState::Running);
        QCOMPARE(s->provider, QStringLiteral("podman"));
        QVERIFY(s->owned);
        auto list = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions({}, cb); });
        QVERIFY_RESULT(list);
        QVERIFY(std::any_of(list->begin(), list->end(), [&](const SessionInfo &x) { return x.id == m_id; }));
        CreateSpec gpu = spec;
        gpu.gpus = 1;
        auto refused = await<SessionInfo>([&](auto cb) { m_p->create(gpu, cb); });
        QCOMPARE(refused.code(), ErrorCode::Unsupported);
    }

    void exec()
    {
        QVERIFY(!m_id.isEmpty());
        auto r = runIn(
            m_p.get(), m_id,
            {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo out; echo err >&2; id -u; exit 4")});
        QVERIFY_RESULT(*r.code);
        QCOMPARE(r.code->value(), 4);
        QCOMPARE(r.out, QByteArray("out\n1000\n"));
        QCOMPARE(r.err, QByteArray("err\n"));
        auto cat = runIn(m_p.get(), m_id, {QStringLiteral("cat")}, QByteArray(200000, 'p'));
        QCOMPARE(cat.out.size(), 200000);
    }

    void pty()
    {
        QVERIFY(!m_id.isEmpty());
        auto pty = m_p->terminals()->openPty(m_id, {});
        PtyProbe probe;
        probe.attach(pty.get());
        pty->start();
        QVERIFY(waitUntil([&] { return probe.started || probe.error; }, 15000));
        QVERIFY2(!probe.error, qPrintable(probe.error ? probe.error->message : QString()));
        pty->write("echo pod-$((20+3))\n");
        QVERIFY2(probe.waitFor("pod-23"), probe.output.constData());
        pty->resize(77, 22);
        // The resize reaches the engine on its own request: ask again until the new size shows.
        QVERIFY2(waitUntil(
                     [&] {
                         pty->write("stty size\n");
                         return probe.waitFor("22 77", 500);
                     },
                     30000),
                 probe.output.constData());
        pty->write("exit 2\n");
        QVERIFY(waitUntil([&] { return probe.finishedCode.has_value() || probe.error; }, 15000));
        QCOMPARE(probe.finishedCode.value_or(-1), 2);
    }

    void upload()
    {
        QVERIFY(!m_id.isEmpty());
        QTemporaryDir local;
        const QString dir = local.filePath(QStringLiteral("up dir"));
        QDir().mkpath(dir);
        const QStringList names{QStringLiteral("-dash"), QString::fromUtf8("ünï 😀"), QStringLiteral("sp ace")};
        for (const QString &n : names) {
            QFile f(dir + QLatin1Char('/') + n);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(n.toUtf8());
        }
        QFile big(local.filePath(QStringLiteral("big")));
        QVERIFY(big.open(QIODevice::WriteOnly));
        QVERIFY(big.resize(20 * 1024 * 1024));
        big.close();
        for (const QString &target : {QStringLiteral("/workspace"), QStringLiteral("/scratch")}) {
            QVERIFY_RESULT(runTransfer(m_p->files()->upload(m_id, dir, target).get()));
            auto list = await<QList<FileEntry>>(
                [&](auto cb) { m_p->files()->listFiles(m_id, target + QStringLiteral("/up dir"), cb); });
            QVERIFY_RESULT(list);
            QCOMPARE(list->size(), names.size());
            auto cat = runIn(m_p.get(), m_id,
                             {QStringLiteral("cat"), QStringLiteral("--"), target + QStringLiteral("/up dir/-dash")});
            QCOMPARE(cat.out, QByteArray("-dash"));
        }
        QVERIFY_RESULT(runTransfer(m_p->files()->upload(m_id, big.fileName(), QStringLiteral("/workspace")).get()));
        auto size = runIn(
            m_p.get(), m_id,
            {QStringLiteral("stat"), QStringLiteral("-c"), QStringLiteral("%s"), QStringLiteral("/workspace/big")});
        QCOMPARE(size.out.trimmed(), QByteArray("20971520"));
        QTemporaryDir back;
        QVERIFY_RESULT(
            runTransfer(m_p->files()->download(m_id, QStringLiteral("/workspace/up dir"), back.path()).get()));
        QVERIFY(QFile::exists(back.filePath(QString::fromUtf8("up dir/ünï 😀"))));
    }

    void stats()
    {
        QVERIFY(!m_id.isEmpty());
        ExecRequest busy;
        busy.argv = QStringList{QStringLiteral("timeout"), QStringLiteral("30"), QStringLiteral("sh"),
                                QStringLiteral("-c"), QStringLiteral("while :; do :; done")};
        auto job = m_p->commands()->exec(m_id, busy);
        job->start();
        auto first = await<StatsSample>([&](auto cb) { m_p->statistics()->stats(m_id, cb); });
        QVERIFY_RESULT(first);
        // The figure needs two engine readings a moment apart and the loop to be running:
        // asked again until it shows the load, within a deadline a busy machine still meets.
        Result<StatsSample> second = first;
        QVERIFY(waitUntil(
            [&] {
                second = await<StatsSample>([&](auto cb) { m_p->statistics()->stats(m_id, cb); });
                return !second.ok() || second->cpuPercent.value_or(0) > 5;
            },
            60000));
        QVERIFY_RESULT(second);
        QVERIFY(second->cpuPercent.has_value());
        QVERIFY2(*second->cpuPercent > 5 && *second->cpuPercent < 400,
                 qPrintable(QString::number(*second->cpuPercent)));
        QVERIFY(second->memoryUsedBytes.value_or(0) > 0);
        QVERIFY(second->pids.value_or(0) >= 1);
        auto stream = m_p->statistics()->streamStats(m_id);
        int samples = 0;
        std::optional<Error> err;
        connect(stream.get(), &StatsStream::sample, this, [&](const StatsSample &) { ++samples; });
        connect(stream.get(), &StatsStream::errorOccurred, this, [&](const Error &e) { err = e; });
        stream->start();
        QVERIFY(waitUntil([&] { return samples >= 2 || err; }, 10000));
        QVERIFY2(!err, qPrintable(err ? err->message : QString()));
        stream->stop();
    }

    void remove()
    {
        QVERIFY(!m_id.isEmpty());
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->remove(m_id, cb); }));
        auto gone = await<SessionInfo>([&](auto cb) { m_p->info(m_id, cb); });
        QCOMPARE(gone.code(), ErrorCode::NotFound);
        m_id.clear();
    }

    // Podman's compatible API answers 201 to DeviceRequests and attaches nothing: every
    // form of GPU request is refused up front, honestly, and nothing is created.
    void gpuRequestRefused()
    {
        for (const QString &text :
             {QStringLiteral("all"), QStringLiteral("2"), QStringLiteral("GPU-0f5e2c1a-7b3d-4e89-a1b2-c3d4e5f60718")}) {
            const auto g = parseGpuRequest(text);
            QVERIFY_RESULT(g);
            CreateSpec spec;
            spec.image = testImage();
            spec.name = QStringLiteral("podman-gpu-") + QString::number(QDateTime::currentMSecsSinceEpoch());
            spec.gpus = g->gpus;
            spec.gpuUuids = g->deviceIds;
            auto refused = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); });
            QCOMPARE(refused.code(), ErrorCode::Unsupported);
            QVERIFY2(refused.message().startsWith(
                         QLatin1String("Podman's Docker-compatible API ignores GPU requests; use podman with CDI")),
                     qPrintable(refused.message()));
            QVERIFY(refused.message().contains(QLatin1String("--device nvidia.com/gpu=all")));
            ListOptions all;
            all.all = true;
            auto list = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions(all, cb); });
            QVERIFY_RESULT(list);
            QVERIFY(
                std::none_of(list->begin(), list->end(), [&](const SessionInfo &x) { return x.name == spec.name; }));
        }
    }

    // docker cp's rules (issue 11): the same table as Docker's, through Podman's compatible API.
    void copyRules()
    {
        CreateSpec spec;
        spec.image = testImage();
        spec.options.insert(QStringLiteral("tmpfs"), QStringLiteral("/scratch:rw,size=64m,mode=1777"));
        auto s = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, 60000);
        QVERIFY_RESULT(s);
        for (const QString &base : {QStringLiteral("/workspace/cp"), QStringLiteral("/scratch/cp")}) {
            const QStringList failures = runCopyTable(m_p.get(), s->id, base);
            QVERIFY2(failures.isEmpty(), qPrintable(base + QStringLiteral(":\n") + failures.join(QLatin1Char('\n'))));
        }
        (void)await<void>([&](auto cb) { m_p->remove(s->id, cb); });
    }
};

QTEST_GUILESS_MAIN(TestPodman)
#include "tst_podman.moc"
