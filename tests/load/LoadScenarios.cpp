#include "LoadScenarios.h"

#include "accounts/AccountStore.h"
#include "metrics/StatsCollector.h"
#include "net/HttpClient.h"
#include "providers/docker/DockerFactory.h"
#include "sessions/SessionRegistry.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QHash>
#include <QTemporaryDir>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace sandbar::load {

double percentile(QList<double> samples, double p)
{
    if (samples.isEmpty())
        return std::nan("");
    std::sort(samples.begin(), samples.end());
    const auto rank = static_cast<qsizetype>(std::ceil(p / 100.0 * double(samples.size())));
    return samples.at(std::clamp<qsizetype>(rank - 1, 0, samples.size() - 1));
}

bool spinUntil(const std::function<bool()> &pred, int timeoutMs)
{
    if (pred())
        return true;
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (pred())
            loop.quit();
    });
    poll.start(5);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return pred();
}

// ---- EventLoopProbe ------------------------------------------------------------------------

namespace {
qint64 monoNs()
{
    static const QElapsedTimer clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return clock.nsecsElapsed();
}
} // namespace

EventLoopProbe::EventLoopProbe(int periodMs, QObject *parent)
    : QObject(parent)
    , m_period(periodMs)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &EventLoopProbe::tick);
}

void EventLoopProbe::start()
{
    m_lateness.clear();
    m_last = monoNs();
    m_timer.start(m_period);
}

void EventLoopProbe::stop()
{
    m_timer.stop();
}

void EventLoopProbe::tick()
{
    const qint64 now = monoNs();
    // A loop blocked for 100 ms fires this once, 90 ms late: the time a user's input would
    // have waited too.
    m_lateness << std::max(0.0, double(now - m_last) / 1e6 - double(m_period));
    m_last = now;
    if (m_onTick)
        m_onTick();
}

// ---- CountingUnixProxy ----------------------------------------------------------------------

namespace {
bool writeAll(int fd, const char *data, ssize_t len)
{
    while (len > 0) {
        const ssize_t n = ::send(fd, data, size_t(len), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        len -= n;
    }
    return true;
}

int connectUnix(const QString &path)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const QByteArray p = path.toLocal8Bit();
    std::strncpy(addr.sun_path, p.constData(), sizeof(addr.sun_path) - 1);
    // The POSIX call, named apart from QObject's (scripts/check-connects.sh reads connect calls).
    const auto socketConnect = &::connect;
    if (socketConnect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}
} // namespace

CountingUnixProxy::CountingUnixProxy(QString upstreamPath)
    : m_upstream(std::move(upstreamPath))
{
}

CountingUnixProxy::~CountingUnixProxy()
{
    stop();
}

bool CountingUnixProxy::start(const QString &listenPath, QString *error)
{
    m_listenPath = listenPath;
    const QByteArray p = listenPath.toLocal8Bit();
    ::unlink(p.constData());
    m_listen = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, p.constData(), sizeof(addr.sun_path) - 1);
    if (m_listen < 0 || ::bind(m_listen, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) != 0 ||
        ::listen(m_listen, 1024) != 0 || ::pipe2(m_wake, O_CLOEXEC) != 0) {
        if (error)
            *error = QStringLiteral("proxy socket %1: %2").arg(listenPath, QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    m_acceptor = std::thread([this] { acceptLoop(); });
    return true;
}

void CountingUnixProxy::stop()
{
    if (!m_acceptor.joinable())
        return;
    m_stopping = true;
    (void)!::write(m_wake[1], "x", 1); // stays readable: every relay sees it
    m_acceptor.join();
    // Relays are detached (thousands over a run); wait for the last to finish.
    for (;;) {
        {
            std::lock_guard<std::mutex> g(m_lock);
            if (m_relays == 0)
                break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::close(m_listen);
    ::close(m_wake[0]);
    ::close(m_wake[1]);
    m_listen = m_wake[0] = m_wake[1] = -1;
    ::unlink(m_listenPath.toLocal8Bit().constData());
}

void CountingUnixProxy::acceptLoop()
{
    for (;;) {
        pollfd fds[2] = {{m_listen, POLLIN, 0}, {m_wake[0], POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0 && errno != EINTR)
            return;
        if (fds[1].revents)
            return;
        if (!(fds[0].revents & POLLIN))
            continue;
        const int client = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0)
            continue;
        const int now = ++m_current;
        int prev = m_max.load();
        while (now > prev && !m_max.compare_exchange_weak(prev, now)) {
        }
        ++m_total;
        std::lock_guard<std::mutex> g(m_lock);
        ++m_relays;
        std::thread([this, client] { relay(client); }).detach();
    }
}

void CountingUnixProxy::relay(int client)
{
    const int up = connectUnix(m_upstream);
    bool clientOpen = up >= 0;
    bool upOpen = up >= 0;
    // The exchange is over at the first end of either side: the engine closed after its
    // answer, or the client closed having read it. The relay's own teardown is not counted.
    bool counted = true;
    auto done = [&] {
        if (std::exchange(counted, false))
            --m_current;
    };
    std::vector<char> buf(64 * 1024);
    while (clientOpen || upOpen) {
        pollfd fds[3] = {{clientOpen ? client : -1, POLLIN, 0}, {upOpen ? up : -1, POLLIN, 0}, {m_wake[0], POLLIN, 0}};
        if (::poll(fds, 3, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (fds[2].revents)
            break;
        bool failed = false;
        if (fds[0].revents) {
            const ssize_t n = ::read(client, buf.data(), buf.size());
            if (n <= 0) {
                clientOpen = false;
                done();
                ::shutdown(up, SHUT_WR);
            } else {
                failed = !writeAll(up, buf.data(), n);
            }
        }
        if (!failed && fds[1].revents) {
            const ssize_t n = ::read(up, buf.data(), buf.size());
            if (n <= 0) {
                upOpen = false;
                done();
                ::shutdown(client, SHUT_WR);
            } else {
                failed = !writeAll(client, buf.data(), n);
            }
        }
        if (failed)
            break;
    }
    if (up >= 0)
        ::close(up);
    ::close(client);
    done();
    std::lock_guard<std::mutex> g(m_lock);
    --m_relays;
}

// ---- 1. many Docker sessions -----------------------------------------------------------------

namespace {

// Secrets in memory: the Docker account has none, and the keychain is not under test here.
class MemorySecrets final : public SecretStore
{
public:
    void write(const QString &key, const QString &value, Callback<void> done) override
    {
        m_values.insert(key, value);
        done(VoidResult{});
    }
    void read(const QString &key, Callback<QString> done) override { done(m_values.value(key)); }
    void remove(const QString &key, Callback<void> done) override
    {
        m_values.remove(key);
        done(VoidResult{});
    }

private:
    QHash<QString, QString> m_values;
};

// Runs `count` asynchronous steps with at most `width` at once; the first error, if any.
QString runConcurrent(int count, int width, const std::function<void(int, std::function<void(QString)>)> &step,
                      int timeoutMs)
{
    int next = 0, running = 0, finished = 0;
    QString firstError;
    QObject ctx;
    std::function<void()> fill;
    fill = [&] {
        while (running < width && next < count && firstError.isEmpty()) {
            ++running;
            step(next++, [&](QString err) {
                --running;
                ++finished;
                if (!err.isEmpty() && firstError.isEmpty())
                    firstError = err;
                QMetaObject::invokeMethod(
                    &ctx, [&] { fill(); }, Qt::QueuedConnection);
            });
        }
    };
    fill();
    if (!spinUntil([&] { return running == 0 && (finished == count || !firstError.isEmpty()); }, timeoutMs))
        return firstError.isEmpty() ? QStringLiteral("timed out after %1 of %2").arg(finished).arg(count) : firstError;
    return firstError;
}

} // namespace

QString removeLabelled(const QString &endpoint, const QString &label); // LoadCycles.cpp

DockerLoadResult runDockerLoad(const DockerLoadOptions &options, const std::function<void(const QString &)> &log)
{
    DockerLoadResult out;
    out.sessions = options.sessions;
    auto ep = net::Endpoint::parse(options.endpoint);
    if (!ep || ep->kind != net::Endpoint::Kind::Unix) {
        out.error = QStringLiteral("the engine endpoint must be a unix socket: %1").arg(options.endpoint);
        return out;
    }
    const QString label = QStringLiteral("dev.sandbar.load");
    if (QString err = removeLabelled(options.endpoint, label); !err.isEmpty()) {
        out.error = err;
        return out;
    }
    QTemporaryDir dir(QStringLiteral("/tmp/sbload-XXXXXX"));
    CountingUnixProxy proxy(ep->path);
    if (QString err; !proxy.start(dir.filePath(QStringLiteral("engine.sock")), &err)) {
        out.error = err;
        return out;
    }
    ProviderFactories factories;
    factories.add(std::make_unique<docker::DockerFactory>(docker::Flavour::Docker));
    MemorySecrets secrets;
    AccountStore accounts(dir.filePath(QStringLiteral("config")), factories, secrets);
    SessionRegistry registry(accounts, factories);
    Account account;
    account.name = QStringLiteral("load");
    account.provider = QStringLiteral("docker");
    account.settings.insert(QStringLiteral("endpoint"),
                            QString(QStringLiteral("unix://") + dir.filePath(QStringLiteral("engine.sock"))));
    if (auto r = waitFor<void>([&](Callback<void> cb) { accounts.add(account, {}, cb); }); !r) {
        out.error = r.message();
        return out;
    }
    auto provider = waitFor<Provider *>([&](Callback<Provider *> cb) { registry.provider(account.name, cb); });
    if (!provider) {
        out.error = provider.message();
        return out;
    }
    Provider *p = *provider;

    QElapsedTimer clock;
    clock.start();
    QStringList ids(options.sessions);
    QObject ctx;
    out.error = runConcurrent(
        options.sessions, 6,
        [&](int i, std::function<void(QString)> done) {
            CreateSpec spec;
            spec.image = options.image;
            spec.ttlSeconds = 3600;
            spec.labels.insert(label, QStringLiteral("1"));
            p->create(spec, Callback<SessionInfo>(&ctx, [&ids, i, done](Result<SessionInfo> r) {
                          if (r)
                              ids[i] = r->id;
                          done(r ? QString() : r.message());
                      }));
        },
        options.sessions * 10000);
    out.setupSeconds = double(clock.nsecsElapsed()) / 1e9;
    log(QStringLiteral("created %1 sessions in %2 s").arg(options.sessions).arg(out.setupSeconds, 0, 'f', 1));

    if (out.error.isEmpty()) {
        // From here on the engine sees what the window would make it do.
        proxy.resetMax();
        metrics::StatsCollector collector(registry);
        out.collectorLimit = collector.options().maxInFlightPerAccount;
        out.collectorInFlightMax = 0;
        EventLoopProbe probe;
        probe.setOnTick(
            [&] { out.collectorInFlightMax = std::max(out.collectorInFlightMax, collector.inFlight(account.name)); });
        bool refreshing = false;
        QString refreshError;
        auto refresh = [&] {
            if (refreshing)
                return;
            refreshing = true;
            registry.refreshAccount(account.name, Callback<QList<SessionInfo>>(&ctx, [&](Result<QList<SessionInfo>> r) {
                                        refreshing = false;
                                        ++out.refreshes;
                                        if (r)
                                            out.listed = int(r->size());
                                        else
                                            refreshError = r.message();
                                    }));
        };
        clock.restart();
        probe.start();
        refresh();
        spinUntil([&] { return out.refreshes > 0; }, 60000);
        QStringList refs;
        for (const QString &id : std::as_const(ids))
            refs << account.name + QLatin1Char('/') + id;
        collector.setListInterest(refs);
        QTimer refresher;
        QObject::connect(&refresher, &QTimer::timeout, &ctx, refresh);
        refresher.start(1000);
        auto sampled = [&] {
            int n = 0;
            for (const QString &ref : std::as_const(refs)) {
                auto *st = collector.find(ref);
                if (st && st->history().sampleCount() >= options.minSamples)
                    ++n;
            }
            return n;
        };
        spinUntil([&] { return out.refreshes >= options.minRefreshes && sampled() == int(refs.size()); },
                  options.timeoutMs);
        probe.stop();
        refresher.stop();
        out.seconds = double(clock.nsecsElapsed()) / 1e9;
        out.sampledSessions = sampled();
        out.latenessMs = probe.latenessMs();
        out.connectionsMax = proxy.maxConcurrent();
        if (!refreshError.isEmpty())
            out.error = QStringLiteral("refresh: ") + refreshError;
        else if (out.sampledSessions < out.sessions)
            out.error = QStringLiteral("only %1 of %2 sessions were sampled %3 times within %4 s")
                            .arg(out.sampledSessions)
                            .arg(out.sessions)
                            .arg(options.minSamples)
                            .arg(options.timeoutMs / 1000);
        spinUntil([&] { return !refreshing; }, 30000);
    }
    clock.restart();
    const QString removeError = runConcurrent(
        int(ids.size()), 6,
        [&](int i, std::function<void(QString)> done) {
            if (ids.at(i).isEmpty())
                return done({});
            p->remove(ids.at(i), Callback<void>(&ctx, [done](VoidResult r) { done(r ? QString() : r.message()); }));
        },
        options.sessions * 10000);
    log(QStringLiteral("removed them in %1 s").arg(double(clock.nsecsElapsed()) / 1e9, 0, 'f', 1));
    if (out.error.isEmpty() && !removeError.isEmpty())
        out.error = QStringLiteral("remove: ") + removeError;
    return out;
}

} // namespace sandbar::load
