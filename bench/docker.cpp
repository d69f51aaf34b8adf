// sandbar-bench docker [IMAGE]: the Docker provider against an engine
// (SANDBAR_TEST_DOCKER_HOST or DOCKER_HOST; image from SANDBAR_TEST_IMAGE or the argument).
//   docker.create_to_ready_ms    median of 10: create a session and finish `exec true`;
//                                baseline: `docker run -d --network none IMAGE sleep 60` + `docker exec ID true`
//   docker.upload_MiBps          median of 3: a 256 MiB file into /workspace of a fresh session;
//                                baseline: `docker cp FILE ID:/workspace/` the same way, interleaved
//   docker.upload_rss_growth_MiB peak RSS growth during that upload (target <= 64)

#include "Bench.h"
#include "providers/Provider.h"
#include "providers/docker/DockerFactory.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

namespace sandbar::bench {

namespace {

const char kGroup[] = "docker";
constexpr qint64 kMiB = 1024 * 1024;

Result<int> runExec(Provider &p, const QString &id, const QStringList &argv)
{
    ExecRequest req;
    req.argv = argv;
    auto job = p.commands()->exec(id, req);
    std::optional<Result<int>> out;
    QEventLoop loop;
    QObject::connect(job.get(), &ExecJob::finished, &loop, [&](const Result<int> &r) {
        out = r;
        loop.quit();
    });
    job->start();
    if (!out)
        loop.exec();
    return *out;
}

VoidResult runTransfer(TransferJob *job, qint64 *peakRss)
{
    std::optional<VoidResult> out;
    QEventLoop loop;
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, &loop, [&] { *peakRss = qMax(*peakRss, currentRssBytes()); });
    sampler.start(20);
    QObject::connect(job, &TransferJob::finished, &loop, [&](const VoidResult &r) {
        out = r;
        loop.quit();
    });
    job->start();
    if (!out)
        loop.exec();
    return *out;
}

// Runs the docker CLI (the baselines); stdout trimmed, or nullopt when it failed, which costs
// a baseline sample, not a figure, and says why.
std::optional<QByteArray> cli(const QString &host, const QStringList &args)
{
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DOCKER_HOST"), host);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral("docker"), args);
    const QString what = QStringLiteral("baseline `docker %1`").arg(args.join(QLatin1Char(' ')));
    if (!p.waitForStarted(30000)) {
        sayWhy(kGroup, what, QStringLiteral("did not start: %1").arg(p.errorString()));
        return std::nullopt;
    }
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished(5000);
        sayWhy(kGroup, what, QStringLiteral("did not finish within 120 s"));
        return std::nullopt;
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        sayWhy(kGroup, what,
               QStringLiteral("exit %1: %2").arg(p.exitCode()).arg(QString::fromLocal8Bit(p.readAllStandardError())));
        return std::nullopt;
    }
    return p.readAllStandardOutput().trimmed();
}

int run(const QStringList &args)
{
    QString host = qEnvironmentVariable("SANDBAR_TEST_DOCKER_HOST");
    if (host.isEmpty())
        host = qEnvironmentVariable("DOCKER_HOST");
    const QString image = args.value(0, qEnvironmentVariable("SANDBAR_TEST_IMAGE"));
    if (host.isEmpty() || image.isEmpty())
        return fail(kGroup, QString(),
                    QStringLiteral("set SANDBAR_TEST_DOCKER_HOST (or DOCKER_HOST) and SANDBAR_TEST_IMAGE (or pass the "
                                   "image)"),
                    2);
    docker::DockerFactory factory(docker::Flavour::Docker);
    AccountConfig acct;
    acct.name = QStringLiteral("bench");
    acct.settings.insert(QStringLiteral("endpoint"), host);
    auto created = factory.create(acct);
    if (!created)
        return fail(kGroup, QStringLiteral("Docker account at %1").arg(host), created.message());
    Provider &p = *created.value();
    if (auto h = wait<HealthInfo>([&](auto cb) { p.health(cb); }); !h)
        return fail(kGroup, QStringLiteral("reach the engine at %1").arg(host), h.message());
    const bool haveCli = !QStandardPaths::findExecutable(QStringLiteral("docker")).isEmpty();
    if (!haveCli)
        sayWhy(kGroup, QStringLiteral("baselines"), QStringLiteral("no `docker` CLI on PATH: the figures have none"));
    CreateSpec spec;
    spec.image = image;
    spec.labels.insert(QStringLiteral("dev.sandbar.bench"), QStringLiteral("1"));

    // create -> ready
    QList<double> ours, theirs;
    for (int i = 0; i < 10; ++i) {
        QElapsedTimer t;
        t.start();
        auto s = wait<SessionInfo>([&](auto cb) { p.create(spec, cb); });
        if (!s)
            return fail(kGroup, QStringLiteral("create a session of %1").arg(image), s.message());
        auto r = runExec(p, s->id, {QStringLiteral("true")});
        ours << double(t.nsecsElapsed()) / 1e6;
        (void)wait<void>([&](auto cb) { p.remove(s->id, cb); });
        if (!r || *r != 0)
            return fail(kGroup, QStringLiteral("exec true in session %1").arg(s->id.left(12)),
                        r ? QStringLiteral("exit code %1").arg(*r) : r.message());
        if (haveCli) {
            t.restart();
            auto id = cli(host, {QStringLiteral("run"), QStringLiteral("-d"), QStringLiteral("--network"),
                                 QStringLiteral("none"), image, QStringLiteral("sleep"), QStringLiteral("60")});
            if (id && cli(host, {QStringLiteral("exec"), QString::fromUtf8(*id), QStringLiteral("true")}))
                theirs << double(t.nsecsElapsed()) / 1e6;
            if (id)
                cli(host, {QStringLiteral("rm"), QStringLiteral("-f"), QString::fromUtf8(*id)});
        }
    }
    printFigure(QStringLiteral("docker.create_to_ready_ms"), percentile(ours, 50), QStringLiteral("ms"),
                theirs.isEmpty() ? std::nullopt : std::optional<double>(percentile(theirs, 50)));

    // 256 MiB upload, ours and `docker cp` interleaved into fresh containers, medians of three:
    // one run of either swings with the engine's writeback of the previous one.
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("upload.bin")));
    if (!dir.isValid())
        return fail(kGroup, QStringLiteral("make a temporary folder"), dir.errorString());
    if (!file.open(QIODevice::WriteOnly) || !file.resize(256 * kMiB))
        return fail(kGroup, QStringLiteral("make the 256 MiB file %1").arg(file.fileName()), file.errorString());
    file.close();
    QList<double> upOurs, upTheirs;
    const qint64 before = currentRssBytes();
    qint64 peak = before;
    for (int i = 0; i < 3; ++i) {
        auto s = wait<SessionInfo>([&](auto cb) { p.create(spec, cb); });
        if (!s)
            return fail(kGroup, QStringLiteral("create a session of %1 for the upload").arg(image), s.message());
        auto job = p.files()->upload(s->id, file.fileName(), QStringLiteral("/workspace"));
        QElapsedTimer t;
        t.start();
        auto up = runTransfer(job.get(), &peak);
        const double secs = double(t.nsecsElapsed()) / 1e9;
        (void)wait<void>([&](auto cb) { p.remove(s->id, cb); });
        if (!up)
            return fail(kGroup, QStringLiteral("upload 256 MiB into /workspace"), up.message());
        upOurs << 256.0 / secs;
        if (!haveCli)
            continue;
        auto id = cli(host, {QStringLiteral("run"), QStringLiteral("-d"), QStringLiteral("--network"),
                             QStringLiteral("none"), image, QStringLiteral("sleep"), QStringLiteral("120")});
        if (!id)
            continue;
        QElapsedTimer c;
        c.start();
        if (cli(host, {QStringLiteral("cp"), file.fileName(), QString::fromUtf8(*id) + QStringLiteral(":/workspace/")}))
            upTheirs << 256.0 / (double(c.nsecsElapsed()) / 1e9);
        cli(host, {QStringLiteral("rm"), QStringLiteral("-f"), QString::fromUtf8(*id)});
    }
    const std::optional<double> cpBaseline =
        upTheirs.isEmpty() ? std::nullopt : std::optional<double>(percentile(upTheirs, 50));
    printFigure(QStringLiteral("docker.upload_MiBps"), percentile(upOurs, 50), QStringLiteral("MiB/s"), cpBaseline);
    printFigure(QStringLiteral("docker.upload_rss_growth_MiB"), double(peak - before) / double(kMiB),
                QStringLiteral("MiB"), 64.0);
    return 0;
}

} // namespace

static Registration reg("docker", &run, false, "Docker provider: create-to-ready and 256 MiB upload against an engine");

} // namespace sandbar::bench
