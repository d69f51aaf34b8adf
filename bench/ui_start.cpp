// sandbar-bench ui: the window's first start, the way app/wiring/GuiMain.cpp does it, over a
// temporary config folder with four accounts: Local, Docker at $SANDBAR_TEST_DOCKER_HOST,
// Podman at $SANDBAR_TEST_PODMAN_HOST and an unreachable Docker at unix:///nonexistent.sock.
//   ui.max_stall_ms    longest gap between ticks of a 1 ms timer from show() (the window's
//                      first refresh is queued before its first expose, so a blocking first
//                      refresh hides there) until the three reachable accounts are listed
//                      (target <= 50); the window's first paint counts as well
//   ui.first_expose_ms time from buildServices (the start of GuiMain's sequence) to the
//                      window's first expose (or paint)
//   ui.first_list_ms   time from the first expose until those three are listed
// Then the figures of bench/ui_process.cpp (the real process), unless --in-process.
// --autodetect adds a fifth Docker account with no endpoint while DOCKER_HOST names a socket
// that accepts and never answers (the discovery probe's worst case). --first-start leaves the
// first-start flag unset, so the window's start also looks for engines and bubblewrap.

#include "Bench.h"
#include "UiProcess.h"
#include "main/MainWindow.h"
#include "wiring/AppServices.h"
#include "wiring/GuiMain.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTemporaryDir>
#include <cstdio>

using namespace sandbar;

namespace {

// Notes the first expose of the window.
class ExposeWatch : public QObject
{
public:
    bool exposed = false;
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Expose || event->type() == QEvent::Paint)
            exposed = true;
        return QObject::eventFilter(watched, event);
    }
};

bool addAccount(AccountStore &store, const QString &name, const QString &provider, const QVariantMap &settings)
{
    Account a;
    a.name = name;
    a.provider = provider;
    a.settings = settings;
    const auto r = bench::wait<void>([&](Callback<void> cb) { store.add(a, {}, cb); });
    if (!r)
        return bench::failed("ui", QStringLiteral("add the account %1").arg(name), r.message());
    return true;
}

int run(const QStringList &args)
{
    const QString docker = qEnvironmentVariable("SANDBAR_TEST_DOCKER_HOST");
    const QString podman = qEnvironmentVariable("SANDBAR_TEST_PODMAN_HOST");
    if (docker.isEmpty() || podman.isEmpty())
        return bench::fail("ui", QString(), QStringLiteral("set SANDBAR_TEST_DOCKER_HOST and SANDBAR_TEST_PODMAN_HOST"),
                           2);
    const bool autodetect = args.contains(QStringLiteral("--autodetect"));
    QTemporaryDir dir;
    // A socket that accepts and never answers: discovery's probe waits on it.
    QLocalServer silent;
    QList<QLocalSocket *> held;
    if (autodetect) {
        const QString path = dir.filePath(QStringLiteral("silent.sock"));
        if (!silent.listen(path))
            return bench::fail("ui", QStringLiteral("--autodetect: listen on %1").arg(path), silent.errorString());
        QObject::connect(&silent, &QLocalServer::newConnection, &silent, [&silent, &held] {
            while (QLocalSocket *s = silent.nextPendingConnection())
                held << s;
        });
        qputenv("DOCKER_HOST", (QStringLiteral("unix://") + path).toUtf8());
    }
    const QString configDir = dir.filePath(QStringLiteral("config"));
    const QStringList reachable{QStringLiteral("local"), QStringLiteral("docker"), QStringLiteral("podman")};
    {
        auto setup = buildServices(configDir);
        bool ok = addAccount(*setup->accounts, QStringLiteral("local"), QStringLiteral("local"), {}) &&
                  addAccount(*setup->accounts, QStringLiteral("docker"), QStringLiteral("docker"),
                             {{QStringLiteral("endpoint"), docker}}) &&
                  addAccount(*setup->accounts, QStringLiteral("podman"), QStringLiteral("podman"),
                             {{QStringLiteral("endpoint"), podman}}) &&
                  addAccount(*setup->accounts, QStringLiteral("gone"), QStringLiteral("docker"),
                             {{QStringLiteral("endpoint"), QStringLiteral("unix:///nonexistent.sock")}});
        if (ok && autodetect)
            ok = addAccount(*setup->accounts, QStringLiteral("found"), QStringLiteral("docker"), {});
        if (!ok)
            return 1;
        if (!args.contains(QStringLiteral("--first-start")))
            setup->accounts->createDefaultAccounts(); // sets the first-start flag: no detection below
    }

    // As GuiMain does, from here on.
    QElapsedTimer sinceStart;
    sinceStart.start();
    auto services = buildGuiServices(configDir);
    auto windowPtr = makeMainWindow(*services);
    ui::MainWindow &window = *windowPtr;
    ExposeWatch expose;
    window.installEventFilter(&expose);
    window.resize(1200, 800);
    window.show();
    QTimer::singleShot(0, &window, [&window]() { window.refreshAll(); });
    services->costs->start();

    QElapsedTimer sinceExpose;
    QElapsedTimer sinceTick;
    sinceTick.start();
    qint64 firstExpose = -1;
    qint64 maxGap = 0;
    qint64 firstList = -1;
    QEventLoop loop;
    QTimer heartbeat;
    heartbeat.setTimerType(Qt::PreciseTimer);
    heartbeat.setInterval(1);
    const auto listed = [&] {
        for (const auto &a : reachable)
            if (services->registry->status(a).state != AccountStatus::State::Ok)
                return false;
        return true;
    };
    QObject::connect(&heartbeat, &QTimer::timeout, &loop, [&] {
        maxGap = std::max(maxGap, sinceTick.restart());
        if (!expose.exposed)
            return;
        if (!sinceExpose.isValid()) {
            firstExpose = sinceStart.elapsed();
            sinceExpose.start();
        }
        if (listed()) {
            firstList = sinceExpose.elapsed();
            loop.quit();
        }
    });
    heartbeat.start();
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    loop.exec();
    heartbeat.stop();
    if (firstList < 0) {
        QStringList why;
        for (const auto &a : reachable) {
            const auto st = services->registry->status(a);
            if (st.state != AccountStatus::State::Ok)
                why << QStringLiteral("%1: %2").arg(a, st.lastError.message.isEmpty() ? QStringLiteral("not listed yet")
                                                                                      : st.lastError.message);
        }
        return bench::fail("ui", QStringLiteral("list local, docker and podman within 60 s"),
                           expose.exposed ? why.join(QStringLiteral("; "))
                                          : QStringLiteral("the window was never exposed"));
    }
    bench::printFigure(QStringLiteral("ui.max_stall_ms"), double(maxGap), QStringLiteral("ms"));
    bench::printFigure(QStringLiteral("ui.first_expose_ms"), double(firstExpose), QStringLiteral("ms"));
    bench::printFigure(QStringLiteral("ui.first_list_ms"), double(firstList), QStringLiteral("ms"));
    for (QLocalSocket *s : std::as_const(held))
        s->abort();
    if (args.contains(QStringLiteral("--in-process")))
        return 0;
    // The same start as a real process, measured from outside, and its idle cost.
    return bench::runUiProcessFigures(docker, podman, qEnvironmentVariable("SANDBAR_TEST_IMAGE"));
}

} // namespace

const bench::Registration reg("ui", &run, true,
                              "Window start: longest UI stall and time until Local, Docker and Podman are listed");
