// sandbar-bench ui-upload [IMAGE]: the Files tab's drop path against a Docker engine
// (SANDBAR_TEST_DOCKER_HOST or DOCKER_HOST; image from SANDBAR_TEST_IMAGE or the argument).
//   ui.upload_MiBps           median of 3: a 256 MiB file dropped on a FilesPane (a synthesized
//                             drop event, then TransferQueue and the provider's upload) until the
//                             queue is idle; baseline: `docker -H HOST cp FILE ID:DIR/` of the same
//                             file into the same session, interleaved (target ratio >= 0.9)
//   ui.upload_rss_growth_MiB  peak growth of VmRSS (/proc/self/status, every 50 ms) over the
//                             value before the first drop (target <= 64)
// DIR is a fresh folder per drop under /workspace, or under /tmp where the session's user
// (uid 1000) cannot make folders in /workspace: most images have none, and the folder the
// engine then makes for the session's working directory belongs to root.
// Runs on the offscreen platform unless a display is set (xvfb-run works too); a run that
// measures nothing says why on stderr and exits non-zero.

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

const char kGroup[] = "ui-upload";
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

// The baseline's `docker` CLI; a failure costs the baseline, not the figure, and says why.
bool cli(const QString &host, const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral("docker"), QStringList{QStringLiteral("-H"), host} + args);
    const QString what = QStringLiteral("baseline `docker %1`").arg(args.join(QLatin1Char(' ')));
    if (!p.waitForStarted(30000))
        return failed(kGroup, what, QStringLiteral("did not start: %1").arg(p.errorString()));
    if (!p.waitForFinished(300000)) {
        p.kill();
        p.waitForFinished(5000);
        return failed(kGroup, what, QStringLiteral("did not finish within 300 s"));
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return failed(
            kGroup, what,
            QStringLiteral("exit %1: %2").arg(p.exitCode()).arg(QString::fromLocal8Bit(p.readAllStandardError())));
    return true;
}

// The folder the drops go under: the first of /workspace and /tmp in which the session's
// user can make a folder (the drop's upload stages and renames there as that user). Empty
// with *why when neither will do.
QString chooseRoot(Provider &p, const QString &id, QString *why)
{
    QStringList refusals;
    for (const QString &root : {QStringLiteral("/workspace"), QStringLiteral("/tmp")}) {
        const QString probe = root + QStringLiteral("/.sandbar-bench-probe");
        if (auto r = wait<void>([&](auto cb) { p.files()->makeDir(id, probe, cb); }); !r) {
            refusals << QStringLiteral("%1: %2").arg(root, r.message());
            continue;
        }
        (void)wait<void>([&](auto cb) { p.files()->removePath(id, probe, cb); });
        if (!refusals.isEmpty())
            std::fprintf(stderr, "ui-upload: the session's user cannot make folders in %s; the drops go under %s\n",
                         qPrintable(refusals.join(QStringLiteral("; "))), qPrintable(root));
        return root;
    }
    *why = refusals.join(QStringLiteral("; "));
    return {};
}

Result<int> runIn(Provider &p, const QString &id, const QStringList &argv)
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

// Why the pane takes no drop: what it shows the user, else its state.
QString paneRefusal(const ui::FilesPane &pane)
{
    const QString notice = pane.noticeText();
    if (!notice.isEmpty())
        return QStringLiteral("the Files pane refused it: \"%1\"").arg(notice);
    return pane.canUpload() ? QStringLiteral("the Files pane refused it without a notice")
                            : QStringLiteral("the Files pane refused it (it cannot upload) without a notice");
}

// Drops the file on the pane as a desktop would and waits for the queue to run dry.
bool dropAndWait(ui::FilesPane &pane, const QString &local, qint64 *peakRss)
{
    const int timeoutMs = 600000;
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(local)});
    const QPoint pos(4, 4);
    QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&pane, &enter);
    if (!enter.isAccepted())
        return failed(kGroup, QStringLiteral("drag onto the Files pane"), paneRefusal(pane));
    QDropEvent drop(QPointF(pos), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&pane, &drop);
    if (!drop.isAccepted())
        return failed(kGroup, QStringLiteral("drop on the Files pane"), paneRefusal(pane));
    QEventLoop loop;
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, &loop, [&] { *peakRss = std::max(*peakRss, vmRss()); });
    sampler.start(50);
    QObject::connect(pane.queue(), &ui::TransferQueue::idle, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    if (!pane.queue()->isIdle())
        loop.exec();
    const auto items = pane.queue()->items();
    QString why;
    if (items.isEmpty()) {
        why = QStringLiteral("the drop was accepted but nothing was queued (%1)").arg(paneRefusal(pane));
    } else if (const auto &last = items.last(); !last.isFinished()) {
        why = QStringLiteral("not finished within %1 s (%2 of %3 bytes%4)")
                  .arg(timeoutMs / 1000)
                  .arg(last.doneBytes)
                  .arg(last.totalBytes)
                  .arg(last.awaitingAnswer ? QStringLiteral(", waiting for a name-conflict answer") : QString());
    } else if (last.state != ui::TransferQueue::State::Done) {
        why = QStringLiteral("%1 into %2: %3")
                  .arg(ui::transferStateName(last.state), last.destination,
                       last.error.isEmpty() ? QStringLiteral("no error given") : last.error);
    }
    if (!pane.queue()->isIdle())
        pane.queue()->cancelAll(); // timed out: the next step must not share the engine with it
    pane.queue()->clearFinished();
    if (!why.isEmpty())
        return failed(kGroup, QStringLiteral("upload through the Files pane"), why);
    return true;
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
    CreateSpec spec;
    spec.image = image;
    spec.labels.insert(QStringLiteral("dev.sandbar.bench"), QStringLiteral("1"));
    auto s = wait<SessionInfo>([&](auto cb) { p.create(spec, cb); });
    if (!s)
        return fail(kGroup, QStringLiteral("create a session of %1").arg(image), s.message());
    auto info = wait<SessionInfo>([&](auto cb) { p.info(s->id, cb); });
    const QString id = s->id;
    const auto cleanup = [&] {
        if (auto r = wait<void>([&](auto cb) { p.remove(id, cb); }); !r)
            sayWhy(kGroup, QStringLiteral("remove session %1").arg(id.left(12)), r.message());
    };
    if (!info) {
        cleanup();
        return fail(kGroup, QStringLiteral("read session %1").arg(id.left(12)), info.message());
    }
    QString noRoot;
    const QString root = chooseRoot(p, id, &noRoot);
    if (root.isEmpty()) {
        cleanup();
        return fail(kGroup, QStringLiteral("find a folder the session's user can write"), noRoot);
    }

    QTemporaryDir dir;
    if (!dir.isValid()) {
        cleanup();
        return fail(kGroup, QStringLiteral("make a temporary folder"), dir.errorString());
    }
    QFile file(dir.filePath(QStringLiteral("upload.bin")));
    if (!file.open(QIODevice::WriteOnly) || !file.resize(kSize)) {
        cleanup();
        return fail(kGroup, QStringLiteral("make the 256 MiB file %1").arg(file.fileName()), file.errorString());
    }
    file.close();
    const bool haveCli = !QStandardPaths::findExecutable(QStringLiteral("docker")).isEmpty();
    if (!haveCli)
        sayWhy(kGroup, QStringLiteral("baseline"),
               QStringLiteral("no `docker` CLI on PATH: the figure has no baseline"));

    ui::FilesPane pane(&p, *info);
    pane.resize(900, 600);
    pane.show();
    QList<double> ours, theirs;
    const qint64 before = vmRss();
    qint64 peak = before;
    const auto oursOnce = [&](int i) {
        // A fresh folder each time: no name conflict, nothing to overwrite.
        const QString appDir = root + QStringLiteral("/app-%1").arg(i);
        if (auto r = wait<void>([&](auto cb) { p.files()->makeDir(id, appDir, cb); }); !r)
            return failed(kGroup, QStringLiteral("make the folder %1 in the session").arg(appDir), r.message());
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
