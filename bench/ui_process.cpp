// sandbar-bench ui-process (also run at the end of `sandbar-bench ui`): the real `sandbar`
// process, timed and measured from outside it. A temporary config folder holds three
// accounts: Local, Docker at $SANDBAR_TEST_DOCKER_HOST, Podman at $SANDBAR_TEST_PODMAN_HOST.
// SANDBAR_REPORT_STARTUP=1 makes the window print "sandbar-startup exposed" at its first
// expose and "sandbar-startup listed" once every account answered; the clock runs here, from
// the moment the process is started.
//   ui.cold_start_ms      median of 5 launches, exec until the first expose (target <= 500)
//   ui.cold_first_list_ms median of 5 launches, exec until all three accounts are listed
//   ui.idle_rss_MiB       resident memory with 20 Docker sessions listed and their sparklines
//                         sampled, after 10 s of settling (target <= 120)
//   ui.idle_cpu_percent   user + system CPU time over 30 s of wall time in that state,
//                         100 = one core (target <= 2)
// Without a display it runs on the offscreen platform (painting costs are then smaller than on
// a real screen: run under xvfb-run for the figures in an issue note).

#include "Bench.h"
#include "UiProcess.h"
#include "wiring/AppServices.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <cstdio>
#include <unistd.h>

using namespace sandbar;

namespace {

const char kGroup[] = "ui-process";
constexpr int kLaunches = 5;
constexpr int kSessions = 20;
constexpr int kSettleMs = 10000;
constexpr int kIdleMs = 30000;

struct Launch {
    qint64 exposedMs = -1;
    qint64 listedMs = -1;
};

QString sandbarBinary()
{
    const QString env = qEnvironmentVariable("SANDBAR_BIN");
    if (!env.isEmpty())
        return env;
    return QStringLiteral(SANDBAR_GUI_BINARY);
}

void startSandbar(QProcess &p, const QString &configDir)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SANDBAR_REPORT_STARTUP"), QStringLiteral("1"));
    if (env.value(QStringLiteral("DISPLAY")).isEmpty() && env.value(QStringLiteral("WAYLAND_DISPLAY")).isEmpty())
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.setStandardErrorFile(QProcess::nullDevice());
    p.start(sandbarBinary(), {QStringLiteral("--config-dir"), configDir});
}

// Why a launch did not report: it did not start, it ended, or it was still silent.
QString launchFailure(const QProcess &p, const Launch &l, int deadlineMs)
{
    const QString seen = QStringLiteral("exposed %1 ms, listed %2 ms").arg(l.exposedMs).arg(l.listedMs);
    if (p.error() == QProcess::FailedToStart)
        return QStringLiteral("%1 did not start: %2").arg(sandbarBinary(), p.errorString());
    if (p.state() == QProcess::NotRunning)
        return QStringLiteral("%1 ended (%2 %3) before reporting (%4)")
            .arg(sandbarBinary(), p.exitStatus() == QProcess::CrashExit ? QStringLiteral("crashed, signal or")
                                                                        : QStringLiteral("exit code"))
            .arg(p.exitCode())
            .arg(seen);
    return QStringLiteral("%1 did not report within %2 s (%3)").arg(sandbarBinary()).arg(deadlineMs / 1000).arg(seen);
}

// Reads the process's report lines until `until` is seen or the deadline passes.
Launch watch(QProcess &p, const QElapsedTimer &clock, const char *until, int deadlineMs)
{
    Launch l;
    QByteArray buffer;
    while (clock.elapsed() < deadlineMs && p.state() != QProcess::NotRunning) {
        p.waitForReadyRead(50);
        buffer += p.readAllStandardOutput();
        if (l.exposedMs < 0 && buffer.contains("sandbar-startup exposed"))
            l.exposedMs = clock.elapsed();
        if (l.listedMs < 0 && buffer.contains("sandbar-startup listed"))
            l.listedMs = clock.elapsed();
        if (buffer.contains(QByteArray(QByteArray("sandbar-startup ") + until)))
            break;
    }
    return l;
}

void stopSandbar(QProcess &p)
{
    p.terminate();
    if (!p.waitForFinished(10000)) {
        p.kill();
        p.waitForFinished(5000);
    }
}

double cpuSeconds(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray line = f.readAll();
    // Fields after the command name (which may hold spaces) start past the last ')'.
    const QList<QByteArray> rest = line.mid(line.lastIndexOf(')') + 2).split(' ');
    if (rest.size() < 13)
        return -1;
    const double ticks = double(rest.at(11).toLongLong() + rest.at(12).toLongLong()); // utime, stime
    return ticks / double(sysconf(_SC_CLK_TCK));
}

double rssMiB(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    }
    return -1;
}

bool addAccount(AccountStore &store, const QString &name, const QString &provider, const QVariantMap &settings)
{
    Account a;
    a.name = name;
    a.provider = provider;
    a.settings = settings;
    const auto r = bench::wait<void>([&](Callback<void> cb) { store.add(a, {}, cb); });
    if (!r)
        return bench::failed(kGroup, QStringLiteral("add the account %1").arg(name), r.message());
    return true;
}

} // namespace

namespace sandbar::bench {

int runUiProcessFigures(const QString &docker, const QString &podman, const QString &image)
{
    QTemporaryDir dir;
    if (!dir.isValid())
        return fail(kGroup, QStringLiteral("make a temporary folder"), dir.errorString());
    const QString configDir = dir.filePath(QStringLiteral("config"));
    auto setup = buildServices(configDir);
    if (!addAccount(*setup->accounts, QStringLiteral("local"), QStringLiteral("local"), {}) ||
        !addAccount(*setup->accounts, QStringLiteral("docker"), QStringLiteral("docker"),
                    {{QStringLiteral("endpoint"), docker}}) ||
        !addAccount(*setup->accounts, QStringLiteral("podman"), QStringLiteral("podman"),
                    {{QStringLiteral("endpoint"), podman}}))
        return 1;
    setup->accounts->createDefaultAccounts(); // sets the first-start flag: no detection at start

    QList<double> exposed;
    QList<double> listed;
    for (int i = 0; i < kLaunches; ++i) {
        QProcess p;
        QElapsedTimer clock;
        clock.start();
        startSandbar(p, configDir);
        const Launch l = watch(p, clock, "listed", 60000);
        const QString why = l.exposedMs < 0 || l.listedMs < 0 ? launchFailure(p, l, 60000) : QString();
        stopSandbar(p);
        if (!why.isEmpty())
            return fail(kGroup, QStringLiteral("launch %1 of %2").arg(i + 1).arg(kLaunches), why);
        exposed << double(l.exposedMs);
        listed << double(l.listedMs);
    }
    printFigure(QStringLiteral("ui.cold_start_ms"), percentile(exposed, 50), QStringLiteral("ms"));
    printFigure(QStringLiteral("ui.cold_first_list_ms"), percentile(listed, 50), QStringLiteral("ms"));

    if (image.isEmpty())
        return fail(kGroup, QStringLiteral("ui.idle_rss_MiB, ui.idle_cpu_percent"),
                    QStringLiteral("set SANDBAR_TEST_IMAGE for the idle figures"), 2);
    auto provider =
        wait<Provider *>([&](Callback<Provider *> cb) { setup->registry->provider(QStringLiteral("docker"), cb); });
    if (!provider)
        return fail(kGroup, QStringLiteral("connect the Docker account at %1").arg(docker), provider.message());
    QStringList made;
    int status = 0;
    for (int i = 0; i < kSessions && status == 0; ++i) {
        CreateSpec spec;
        spec.name = QStringLiteral("idle-%1").arg(i);
        spec.image = image;
        spec.ttlSeconds = 3600;
        const auto s = wait<SessionInfo>([&](Callback<SessionInfo> cb) { provider.value()->create(spec, cb); });
        if (!s) {
            status =
                fail(kGroup, QStringLiteral("create idle session %1 of %2 (%3)").arg(i + 1).arg(kSessions).arg(image),
                     s.message());
            break;
        }
        made << s.value().id;
    }
    if (status == 0) {
        QProcess p;
        QElapsedTimer clock;
        clock.start();
        startSandbar(p, configDir);
        const Launch l = watch(p, clock, "listed", 60000);
        if (l.listedMs < 0) {
            status = fail(kGroup, QStringLiteral("the idle launch"), launchFailure(p, l, 60000));
        } else {
            QEventLoop settle;
            QTimer::singleShot(kSettleMs, &settle, &QEventLoop::quit);
            settle.exec();
            const double cpu0 = cpuSeconds(p.processId());
            QElapsedTimer wall;
            wall.start();
            QEventLoop idle;
            QTimer::singleShot(kIdleMs, &idle, &QEventLoop::quit);
            idle.exec();
            const double cpu1 = cpuSeconds(p.processId());
            const double rss = rssMiB(p.processId());
            if (cpu0 < 0 || cpu1 < 0 || rss < 0) {
                // /proc no longer has it: the window ended while idle.
                status = fail(
                    kGroup, QStringLiteral("the idle launch"),
                    p.state() == QProcess::NotRunning
                        ? QStringLiteral("%1 ended while idle (exit code %2)").arg(sandbarBinary()).arg(p.exitCode())
                        : QStringLiteral("cannot read /proc/%1/stat or status").arg(p.processId()));
            } else {
                printFigure(QStringLiteral("ui.idle_rss_MiB"), rss, QStringLiteral("MiB"));
                printFigure(QStringLiteral("ui.idle_cpu_percent"),
                            100.0 * (cpu1 - cpu0) / (double(wall.elapsed()) / 1000.0), QStringLiteral("%"));
            }
        }
        stopSandbar(p);
    }
    for (const QString &id : std::as_const(made))
        (void)wait<void>([&](Callback<void> cb) { provider.value()->remove(id, cb); });
    return status;
}

} // namespace sandbar::bench

namespace {

int run(const QStringList &args)
{
    const QString docker = qEnvironmentVariable("SANDBAR_TEST_DOCKER_HOST");
    const QString podman = qEnvironmentVariable("SANDBAR_TEST_PODMAN_HOST");
    if (docker.isEmpty() || podman.isEmpty())
        return bench::fail(kGroup, QString(),
                           QStringLiteral("set SANDBAR_TEST_DOCKER_HOST and SANDBAR_TEST_PODMAN_HOST"), 2);
    return bench::runUiProcessFigures(docker, podman, args.value(0, qEnvironmentVariable("SANDBAR_TEST_IMAGE")));
}

} // namespace

const bench::Registration reg("ui-process", &run, false,
                              "The real sandbar process: cold start, first listing, idle memory and CPU");
