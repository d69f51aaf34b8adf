// The terminal and the leak scenarios (LoadScenarios.h).
#include "LoadScenarios.h"
#include "net/HttpClient.h"
#include "providers/docker/DockerFactory.h"
#include "providers/local/Cgroups.h"
#include "providers/local/LocalProvider.h"
#include "terminal/LocalPtyChannel.h"
#include "terminal/TerminalScreen.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QUrl>
#include <memory>
#include <unistd.h>
#include <vector>

namespace sandbar::load {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

qint64 rssBytes()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const auto parts = f.readAll().split(' ');
    return parts.size() < 2 ? -1 : parts.at(1).toLongLong() * sysconf(_SC_PAGESIZE);
}

void spinFor(int ms)
{
    bool done = false;
    QObject ctx;
    QTimer::singleShot(ms, &ctx, [&done] { done = true; });
    spinUntil([&done] { return done; }, ms + 1000);
}

Result<net::HttpResponse> engineCall(const QString &endpoint, const QByteArray &method, const QByteArray &target)
{
    auto ep = net::Endpoint::parse(endpoint);
    if (!ep)
        return ep.error();
    net::HttpClient client(*ep);
    net::HttpRequest req;
    req.method = method;
    req.target = target;
    req.responseTimeout = std::chrono::milliseconds(30000);
    QObject ctx;
    std::optional<Result<net::HttpResponse>> out;
    client.request(req, Callback<net::HttpResponse>(&ctx, [&out](Result<net::HttpResponse> r) { out = r; }));
    spinUntil([&out] { return out.has_value(); }, 35000);
    if (!out)
        return makeError(ErrorCode::Timeout, QStringLiteral("the engine did not answer"));
    return *out;
}

// The engine's containers carrying `label` (KEY or KEY=VALUE), by id.
Result<QStringList> containersWith(const QString &endpoint, const QString &label)
{
    const QByteArray filters =
        QJsonDocument(QJsonObject{{QStringLiteral("label"), QJsonArray{label}}}).toJson(QJsonDocument::Compact);
    auto r = engineCall(endpoint, "GET",
                        "/containers/json?all=true&filters=" + QUrl::toPercentEncoding(QString::fromUtf8(filters)));
    if (!r)
        return r.error();
    if (!r->isSuccess())
        return makeError(ErrorCode::Internal, QStringLiteral("engine list: HTTP %1").arg(r->status));
    QStringList ids;
    for (const auto &v : QJsonDocument::fromJson(r->body).array())
        ids << v.toObject().value(QStringLiteral("Id")).toString();
    return ids;
}

} // namespace

// Leftovers of an earlier run that died: removed before a run starts.
QString removeLabelled(const QString &endpoint, const QString &label)
{
    auto ids = containersWith(endpoint, label);
    if (!ids)
        return ids.message();
    for (const QString &id : std::as_const(*ids))
        (void)engineCall(endpoint, "DELETE", "/containers/" + id.toLatin1() + "?force=true&v=true");
    return {};
}

// ---- 2. terminals --------------------------------------------------------------------------

TerminalLoadResult runTerminalLoad(const TerminalLoadOptions &o, const std::function<void(const QString &)> &log)
{
    TerminalLoadResult out;
    const qint64 rss0 = rssBytes();
    std::vector<std::unique_ptr<TerminalScreen>> screens;
    std::vector<std::unique_ptr<LocalPtyChannel>> channels;
    QObject ctx;
    // Full-width lines of printable text: the scrollback's narrow (one byte a cell) case at
    // its longest, the memory a real flood of log lines costs.
    const QStringList floodArgs{QStringLiteral("-c"), QStringLiteral("exec base64 -w %1 /dev/urandom").arg(o.cols - 2)};
    for (int i = 0; i < o.terminals; ++i) {
        auto screen = std::make_unique<TerminalScreen>(o.cols, o.rows);
        screen->setScrollbackLimit(o.scrollbackLines);
        const bool flood = i < o.flooding;
        auto ch =
            makeLocalPtyChannel(QStringLiteral("/bin/sh"),
                                flood ? floodArgs : QStringList{QStringLiteral("-c"), QStringLiteral("exec cat")});
        ch->setInitialSize(o.cols, o.rows);
        screen->attach(ch.get()); // keys and replies go to the program, as in the window
        screens.push_back(std::move(screen));
        channels.push_back(std::move(ch));
    }
    QElapsedTimer floodClock;
    floodClock.start();
    for (auto &ch : channels)
        ch->start();
    // What an echo waited behind: the floods' slices parsed between a key and its echo.
    qint64 floodSlices = 0, waitedSlices = 0, waitedBytes = 0;
    for (int i = 0; i < o.flooding; ++i)
        QObject::connect(screens.at(size_t(i)).get(), &TerminalScreen::updated, &ctx,
                         [&floodSlices] { ++floodSlices; });
    auto floodParsed = [&] {
        qint64 n = 0;
        for (int i = 0; i < o.flooding; ++i)
            n += screens.at(size_t(i))->parsedBytes();
        return n;
    };

    // Keystrokes into the first idle terminal while the others flood.
    if (o.flooding < o.terminals) {
        TerminalScreen &idle = *screens.at(size_t(o.flooding));
        spinFor(200);
        QElapsedTimer clock;
        clock.start();
        for (int i = 0; i < o.keystrokes; ++i) {
            if (i % 50 == 49) {
                idle.sendKey(VTERM_KEY_ENTER); // keeps cat's line short; not measured
                spinFor(50);
            }
            const QPoint before = idle.cursorPos();
            const qint64 lines = idle.totalLines() + idle.droppedLines();
            bool seen = false;
            qint64 at = 0;
            auto c = QObject::connect(&idle, &TerminalScreen::updated, &ctx, [&] {
                if (!seen && (idle.cursorPos() != before || idle.totalLines() + idle.droppedLines() != lines)) {
                    seen = true;
                    at = clock.nsecsElapsed();
                }
            });
            const qint64 sent = clock.nsecsElapsed();
            const qint64 slicesAtSend = floodSlices;
            const qint64 parsedAtSend = floodParsed();
            idle.sendChar(uint32_t('a' + i % 26));
            spinUntil([&seen] { return seen; }, 5000);
            waitedSlices += floodSlices - slicesAtSend;
            waitedBytes += floodParsed() - parsedAtSend;
            QObject::disconnect(c);
            ++out.keystrokesTried;
            if (seen)
                out.keystrokeMs << double(at - sent) / 1e6;
            spinFor(20); // a fast typist's pace
        }
    }

    if (o.keystrokes > 0)
        log(QStringLiteral("each echo waited behind %1 flood slices (%2 KiB) on average")
                .arg(double(waitedSlices) / o.keystrokes, 0, 'f', 1)
                .arg(double(waitedBytes) / o.keystrokes / 1024, 0, 'f', 0));
    // Every flooder fills its scrollback and then drops as much again: from then on memory
    // must stay what the limit allows.
    auto minDropped = [&] {
        qint64 m = std::numeric_limits<qint64>::max();
        for (int i = 0; i < o.flooding; ++i)
            m = std::min(m, screens.at(size_t(i))->droppedLines());
        return o.flooding > 0 ? m : 0;
    };
    if (!spinUntil([&] { return minDropped() >= o.scrollbackLines; }, o.timeoutMs))
        out.error = QStringLiteral("the flooding terminals did not fill their scrollback twice within %1 s")
                        .arg(o.timeoutMs / 1000);
    const qint64 rss1 = rssBytes();
    out.rssGrowthMiB = double(rss1 - rss0) / kMiB;
    out.droppedMinLines = double(minDropped());
    size_t stored = 0;
    for (int i = 0; i < o.flooding; ++i) {
        stored += screens.at(size_t(i))->scrollback().memoryBytes();
        out.floodedBytes += screens.at(size_t(i))->parsedBytes();
    }
    out.storedMiB = double(stored) / kMiB;
    const double floodSeconds = double(floodClock.nsecsElapsed()) / 1e9;
    // What the settings allow: each flooder's full scrollback at the worst per-line cost (one
    // code point, four bytes, a cell, plus the line's own record and allocator overhead),
    // each terminal's input queue (reading pauses above 1 MiB, one read may come on top) and
    // screen grid, and 32 MiB for the process's arenas and thread stacks.
    const double perLine = double(o.cols) * 4 + 256;
    out.rssBoundMiB = (double(o.flooding) * double(o.scrollbackLines) * perLine +
                       double(o.terminals) * (3 * kMiB + double(o.cols * o.rows) * 64)) /
                          kMiB +
                      32;
    log(QStringLiteral("terminals: %1 (%2 flooding), %3 MiB parsed (%7 MiB/s), scrollbacks hold %4 MiB, RSS +%5 MiB "
                       "(bound %6)")
            .arg(o.terminals)
            .arg(o.flooding)
            .arg(double(out.floodedBytes) / kMiB, 0, 'f', 1)
            .arg(out.storedMiB, 0, 'f', 1)
            .arg(out.rssGrowthMiB, 0, 'f', 1)
            .arg(out.rssBoundMiB, 0, 'f', 1)
            .arg(double(out.floodedBytes) / kMiB / floodSeconds, 0, 'f', 1));

    for (auto &ch : channels)
        ch->close();
    if (!spinUntil(
            [&] {
                return std::all_of(channels.begin(), channels.end(),
                                   [](const auto &ch) { return ch->exitCode().has_value(); });
            },
            20000) &&
        out.error.isEmpty())
        out.error = QStringLiteral("not every terminal's program ended after close()");
    return out;
}

// ---- 3. leaks ------------------------------------------------------------------------------

QString ResourceCounts::toString() const
{
    return QStringLiteral("fds %1, threads %2, cgroup folders %3, temp files %4, session folders %5, containers %6")
        .arg(fds)
        .arg(threads)
        .arg(cgroupDirs)
        .arg(tempFiles)
        .arg(sessionDirs)
        .arg(containers);
}

int growth(const ResourceCounts &a, const ResourceCounts &b)
{
    auto up = [](int x, int y) { return std::max(0, y - x); };
    return up(a.fds, b.fds) + up(a.threads, b.threads) + up(a.cgroupDirs, b.cgroupDirs) + up(a.tempFiles, b.tempFiles) +
           up(a.sessionDirs, b.sessionDirs) + up(a.containers, b.containers);
}

namespace {

int entries(const QString &dir)
{
    return int(QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot).size());
}

// Our own cgroup folder in every hierarchy and its parent: where Local makes sessions' ones.
QStringList cgroupParents()
{
    QStringList dirs;
    QFile f(QStringLiteral("/proc/self/cgroup"));
    if (!f.open(QIODevice::ReadOnly))
        return dirs;
    const QString base = QStringLiteral("/sys/fs/cgroup");
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QList<QByteArray> parts = line.split(':');
        if (parts.size() < 3)
            continue;
        const QString path = QString::fromUtf8(parts.at(2));
        QStringList roots;
        if (parts.at(1).isEmpty())
            roots << base << base + QStringLiteral("/unified");
        else
            roots << base + QLatin1Char('/') + QString::fromUtf8(parts.at(1)).remove(QStringLiteral("name="));
        for (const QString &root : std::as_const(roots)) {
            const QString own = QDir::cleanPath(root + path);
            for (const QString &d : {own, QFileInfo(own).path()}) {
                const QString canon = QFileInfo(d).canonicalFilePath();
                if (!canon.isEmpty() && !dirs.contains(canon))
                    dirs << canon;
            }
        }
    }
    return dirs;
}

struct Counter {
    QString tempDir;
    QString sessionsDir;
    QString endpoint;
    QString accountLabel;
    QStringList cgroupDirs = cgroupParents();
    QSet<QString> localIds;

    ResourceCounts count() const
    {
        ResourceCounts c;
        c.fds = entries(QStringLiteral("/proc/self/fd"));
        c.threads = entries(QStringLiteral("/proc/self/task"));
        for (const QString &id : localIds) {
            for (const QString &d : cgroupDirs)
                c.cgroupDirs += QFileInfo::exists(d + QStringLiteral("/sandbar-") + id) ? 1 : 0;
        }
        c.tempFiles = entries(tempDir);
        c.sessionDirs = sessionsDir.isEmpty() ? 0 : entries(sessionsDir);
        c.containers = -1;
        if (!endpoint.isEmpty()) {
            auto ids = containersWith(endpoint, accountLabel);
            c.containers = ids ? int(ids->size()) : -1;
        }
        return c;
    }
};

QString execTrue(Provider &p, const QString &id)
{
    ExecRequest req;
    req.argv = {QStringLiteral("true")};
    auto job = p.commands()->exec(id, req);
    std::optional<Result<int>> code;
    QObject::connect(job.get(), &ExecJob::finished, job.get(), [&code](const Result<int> &r) { code = r; });
    job->start();
    if (!spinUntil([&code] { return code.has_value(); }, 30000))
        return QStringLiteral("exec did not finish");
    if (!*code)
        return code->message();
    return **code == 0 ? QString() : QStringLiteral("exec true exited %1").arg(**code);
}

} // namespace

LeakResult runLeakCycles(const LeakOptions &o, const std::function<void(const QString &)> &log)
{
    LeakResult out;
    QTemporaryDir dir(QStringLiteral("/tmp/sbleak-XXXXXX"));
    const QString tmp = dir.filePath(QStringLiteral("tmp"));
    QDir().mkpath(tmp);
    const QByteArray oldTmp = qgetenv("TMPDIR");
    qputenv("TMPDIR", tmp.toLocal8Bit());
    Counter counter;
    counter.tempDir = tmp;

    std::unique_ptr<local::LocalProvider> local;
    if (o.local && o.localCycles > 0) {
        const local::LocalEnvironment env = local::LocalEnvironment::detect();
        out.localSkipped = env.unavailableReason();
        if (out.localSkipped.isEmpty()) {
            AccountConfig acct;
            acct.name = QStringLiteral("load-leaks");
            acct.provider = QStringLiteral("local");
            acct.dataDir = dir.filePath(QStringLiteral("local"));
            local = std::make_unique<local::LocalProvider>(acct, env);
            out.cgroupsUsable = local::detectCgroups(env.cgroupOverride).kind != local::CgroupSupport::Kind::None;
            counter.sessionsDir = QFileInfo(local->sessionDir(QStringLiteral("x"))).path();
        }
    } else {
        out.localSkipped = QStringLiteral("not asked for");
    }
    std::unique_ptr<Provider> engine;
    QString container;
    if (!o.dockerEndpoint.isEmpty() && o.dockerExecs > 0) {
        docker::DockerFactory factory(docker::Flavour::Docker);
        AccountConfig acct;
        acct.name = QStringLiteral("load-leaks-%1").arg(::getpid());
        acct.provider = factory.descriptor().id;
        acct.settings.insert(QStringLiteral("endpoint"), o.dockerEndpoint);
        acct.dataDir = dir.filePath(QStringLiteral("docker"));
        auto made = factory.create(acct);
        if (!made) {
            out.error = made.message();
        } else {
            engine = std::move(made.value());
            removeLabelled(o.dockerEndpoint, QStringLiteral("dev.sandbar.load-leaks"));
            CreateSpec spec;
            spec.image = o.image;
            spec.ttlSeconds = 3600;
            spec.labels.insert(QStringLiteral("dev.sandbar.load-leaks"), QStringLiteral("1"));
            auto s = waitFor<SessionInfo>([&](Callback<SessionInfo> cb) { engine->create(spec, cb); }, 60000);
            if (!s)
                out.error = QStringLiteral("docker create: ") + s.message();
            else
                container = s->id;
            counter.endpoint = o.dockerEndpoint;
            counter.accountLabel = QStringLiteral("dev.sandbar.account=") + acct.name;
        }
    }

    QList<double> cycleMs, execMs;
    auto localCycle = [&]() -> QString {
        QElapsedTimer t;
        t.start();
        CreateSpec spec;
        spec.ttlSeconds = 300; // never outlives a run that dies
        auto s = waitFor<SessionInfo>([&](Callback<SessionInfo> cb) { local->create(spec, cb); }, 60000);
        if (!s)
            return QStringLiteral("local create: ") + s.message();
        counter.localIds.insert(s->id);
        if (out.liveCgroupDirs < 0) {
            // The counts must see what a live session has, or zero growth proves nothing.
            const ResourceCounts live = counter.count();
            out.liveCgroupDirs = live.cgroupDirs;
            out.liveSessionDirs = live.sessionDirs;
        }
        auto r = waitFor<void>([&](Callback<void> cb) { local->remove(s->id, cb); }, 60000);
        cycleMs << double(t.nsecsElapsed()) / 1e6;
        return r ? QString() : QStringLiteral("local remove: ") + r.message();
    };
    auto exec = [&]() -> QString {
        QElapsedTimer t;
        t.start();
        const QString err = execTrue(*engine, container);
        execMs << double(t.nsecsElapsed()) / 1e6;
        return err.isEmpty() ? err : QStringLiteral("docker exec: ") + err;
    };
    auto cycles = [&](int localN, int execN) -> QString {
        for (int i = 0; local && i < localN; ++i) {
            if (QString e = localCycle(); !e.isEmpty())
                return e;
        }
        for (int i = 0; !container.isEmpty() && i < execN; ++i) {
            if (QString e = exec(); !e.isEmpty())
                return e;
        }
        return {};
    };

    if (out.error.isEmpty())
        out.error = cycles(o.warmup, o.warmup);
    if (out.error.isEmpty()) {
        spinFor(500); // deferred deletes of the warm-up's objects
        out.afterWarmup = counter.count();
        log(QStringLiteral("after warm-up: ") + out.afterWarmup.toString());
        QElapsedTimer t;
        t.start();
        out.error = cycles(o.localCycles, o.dockerExecs);
        log(QStringLiteral("%1 Local cycles and %2 Docker execs in %3 s")
                .arg(local ? o.localCycles : 0)
                .arg(container.isEmpty() ? 0 : o.dockerExecs)
                .arg(double(t.nsecsElapsed()) / 1e9, 0, 'f', 1));
        // A leak stays; a descriptor or thread on its way out (deleteLater, a reaper) goes
        // within moments. Count until nothing is above the warm-up or the settle time is up.
        QElapsedTimer settle;
        settle.start();
        do {
            spinFor(100);
            out.atEnd = counter.count();
        } while (growth(out.afterWarmup, out.atEnd) > 0 && settle.elapsed() < o.settleMs);
        out.leaks = growth(out.afterWarmup, out.atEnd);
        log(QStringLiteral("at the end:    ") + out.atEnd.toString());
    }
    out.localCycleMs = percentile(cycleMs, 50);
    out.execMs = percentile(execMs, 50);
    if (engine && !container.isEmpty())
        (void)waitFor<void>([&](Callback<void> cb) { engine->remove(container, cb); }, 60000);
    if (oldTmp.isNull())
        qunsetenv("TMPDIR");
    else
        qputenv("TMPDIR", oldTmp);
    return out;
}

} // namespace sandbar::load
