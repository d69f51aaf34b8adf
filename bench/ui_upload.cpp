// sandbar-bench ui-upload [IMAGE]: the Files tab's drop path against a Docker engine
// (SANDBAR_TEST_DOCKER_HOST or DOCKER_HOST; image from SANDBAR_TEST_IMAGE or the argument).
//   ui.upload_MiBps           median of 3: a 256 MiB file dropped on a FilesPane (a synthesized
//                             drop event, then TransferQueue and the provider's upload) until the
//                             queue is idle; baseline: `docker -H HOST cp FILE ID:DIR/` of the same
//                             file into the same session, interleaved (target ratio >= 0.9)
//   ui.upload_rss_growth_MiB  peak growth of VmRSS (/proc/self/status, every 50 ms) over the
//                             value before the first drop (target <= 64)

#include "Bench.h"
#include "files/FilesPane.h"
#include "providers/docker/DockerFactory.h"

#include <QApplication>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QMimeData>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

namespace sandbar::bench {

namespace {

constexpr qint64 kMiB = 1024 * 1024;
constexpr qint64 kSize = 256 * kMiB;

// VmRSS in bytes, as the figure's definition reads it.
qint64 vmRss()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return -1;
}

bool cli(const QString &host, const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral("docker"), QStringList{QStringLiteral("-H"), host} + args);
    if (!p.waitForFinished(300000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        std::fprintf(stderr, "docker %s failed: %s\n", qPrintable(args.join(QLatin1Char(' '))),
                     p.readAllStandardError().constData());
        return false;
    }
    return true;
}

Result<int> runIn(Provider &p, const QString &id, const QStringList &argv)
{
    ExecRequest req;
    req.argv = argv;
    auto job = p.exec(id, req);
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

// Drops the file on the pane as a desktop would and waits for the queue to run dry.
bool dropAndWait(ui::FilesPane &pane, const QString &local, qint64 *peakRss)
{
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(local)});
    const QPoint pos(4, 4);
    QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&pane, &enter);
    QDropEvent drop(QPointF(pos), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&pane, &drop);
    if (!drop.isAccepted())
        return false;
    QEventLoop loop;
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, &loop, [&] { *peakRss = std::max(*peakRss, vmRss()); });
    sampler.start(50);
    QObject::connect(pane.queue(), &ui::TransferQueue::idle, &loop, &QEventLoop::quit);
    QTimer::singleShot(600000, &loop, &QEventLoop::quit);
    if (!pane.queue()->isIdle())
        loop.exec();
    const auto items = pane.queue()->items();
    const bool ok = !items.isEmpty() && items.last().state == ui::TransferQueue::State::Done;
    if (!ok)
        std::fprintf(stderr, "upload: %s\n", items.isEmpty() ? "nothing queued" : qPrintable(items.last().error));
    pane.queue()->clearFinished();
    return ok;
}

int run(const QStringList &args)
{
    QString host = qEnvironmentVariable("SANDBAR_TEST_DOCKER_HOST");
    if (host.isEmpty())
        host = qEnvironmentVariable("DOCKER_HOST");
    const QString image = args.value(0, qEnvironmentVariable("SANDBAR_TEST_IMAGE"));
    if (host.isEmpty() || image.isEmpty()) {
        std::fputs("sandbar-bench ui-upload: set SANDBAR_TEST_DOCKER_HOST (or DOCKER_HOST) and SANDBAR_TEST_IMAGE "
                   "(or pass the image)\n",
                   stderr);
        return 2;
    }
    docker::DockerFactory factory(docker::Flavour::Docker);
    AccountConfig acct;
    acct.name = QStringLiteral("bench");
    acct.settings.insert(QStringLiteral("endpoint"), host);
    auto created = factory.create(acct);
    if (!created) {
        std::fprintf(stderr, "%s\n", qPrintable(created.message()));
        return 1;
    }
    Provider &p = *created.value();
    CreateSpec spec;
    spec.image = image;
    spec.labels.insert(QStringLiteral("dev.sandbar.bench"), QStringLiteral("1"));
    auto s = wait<SessionInfo>([&](auto cb) { p.create(spec, cb); });
    if (!s) {
        std::fprintf(stderr, "create: %s\n", qPrintable(s.message()));
        return 1;
    }
    auto info = wait<SessionInfo>([&](auto cb) { p.info(s->id, cb); });
    const QString id = s->id;
    const auto cleanup = [&] { (void)wait<void>([&](auto cb) { p.remove(id, cb); }); };
    if (!info) {
        cleanup();
        return 1;
    }
    auto ws = wait<PathStat>([&](auto cb) { p.statPath(id, QStringLiteral("/workspace"), cb); });
    const QString root = ws && ws->isDir ? QStringLiteral("/workspace") : QStringLiteral("/tmp");

    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("upload.bin")));
    if (!file.open(QIODevice::WriteOnly) || !file.resize(kSize)) {
        std::fputs("cannot make the 256 MiB file\n", stderr);
        cleanup();
        return 1;
    }
    file.close();
    const bool haveCli = !QStandardPaths::findExecutable(QStringLiteral("docker")).isEmpty();

    ui::FilesPane pane(&p, *info);
    pane.resize(900, 600);
    pane.show();
    QList<double> ours, theirs;
    const qint64 before = vmRss();
    qint64 peak = before;
    const auto oursOnce = [&](int i) {
        // A fresh folder each time: no name conflict, nothing to overwrite.
        const QString appDir = root + QStringLiteral("/app-%1").arg(i);
        if (!wait<void>([&](auto cb) { p.makeDir(id, appDir, cb); }))
            return false;
        pane.setCurrentDir(appDir);
        QElapsedTimer t;
        t.start();
        if (!dropAndWait(pane, file.fileName(), &peak))
            return false;
        ours << double(kSize / kMiB) / (double(t.nsecsElapsed()) / 1e9);
        (void)runIn(p, id, {QStringLiteral("rm"), QStringLiteral("-rf"), QStringLiteral("--"), appDir});
        return true;
    };
    const auto theirsOnce = [&](int i) {
        const QString cpDest = root + QStringLiteral("/cp-%1.bin").arg(i);
        QElapsedTimer t;
        t.start();
        if (cli(host, {QStringLiteral("cp"), file.fileName(), id + QLatin1Char(':') + cpDest}))
            theirs << double(kSize / kMiB) / (double(t.nsecsElapsed()) / 1e9);
        (void)runIn(p, id, {QStringLiteral("rm"), QStringLiteral("-f"), QStringLiteral("--"), cpDest});
    };
    // Interleaved, and which goes first alternates: the first copy of a pair pays for the
    // engine's writeback of the one before.
    for (int i = 0; i < 3; ++i) {
        if (haveCli && i % 2 == 1)
            theirsOnce(i);
        if (!oursOnce(i)) {
            cleanup();
            return 1;
        }
        if (haveCli && i % 2 == 0)
            theirsOnce(i);
    }
    cleanup();
    printFigure(QStringLiteral("ui.upload_MiBps"), percentile(ours, 50), QStringLiteral("MiB/s"),
                theirs.isEmpty() ? std::nullopt : std::optional<double>(percentile(theirs, 50)));
    // The target (64 MiB) is not a baseline: no ratio.
    printFigure(QStringLiteral("ui.upload_rss_growth_MiB"), double(peak - before) / double(kMiB),
                QStringLiteral("MiB"));
    std::fprintf(
        stderr, "ui-upload: ours %s MiB/s, docker cp %s MiB/s\n",
        qPrintable(QStringList(QList<QString>{QString::number(ours.value(0)), QString::number(ours.value(1)),
                                              QString::number(ours.value(2))})
                       .join(QLatin1Char(' '))),
        qPrintable(QStringList(QList<QString>{QString::number(theirs.value(0)), QString::number(theirs.value(1)),
                                              QString::number(theirs.value(2))})
                       .join(QLatin1Char(' '))));
    return 0;
}

} // namespace

static Registration reg("ui-upload", &run, true,
                        "Files tab: 256 MiB dropped on a Docker session vs docker cp, and RSS growth");

} // namespace sandbar::bench
