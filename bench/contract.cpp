// sandbar-bench contract: the cloud providers against their contract servers on loopback
// (each server a process of its own, started here). Per provider P (e2b, daytona):
//   contract.P.pty_roundtrip_ms_p99 / _p50  1,000 keystrokes one at a time, each from
//                                           PtyChannel::write to its byte echoed back by
//                                           `cat` on a raw terminal; target <= 5 ms
//   contract.P.create_to_shell_ms           create() to the first byte of the shell's prompt
//   contract.P.upload_MiBps                 a 64 MiB file through putItem
//   contract.P.upload_rss_growth_MiB        peak RSS growth during it; target <= 64 MiB
// Args: the providers to run (default both). SANDBAR_CONTRACT_SERVER names the server.

#include "Bench.h"
#include "providers/Provider.h"
#include "providers/daytona/DaytonaFactory.h"
#include "providers/e2b/E2bFactory.h"
#include "terminal/PtyChannel.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <cstdio>

namespace sandbar::bench {

namespace {

constexpr qint64 kMiB = 1024 * 1024;

QString serverBinary()
{
    const QString env = qEnvironmentVariable("SANDBAR_CONTRACT_SERVER");
    return env.isEmpty() ? QStringLiteral(SANDBAR_CONTRACT_SERVER_BINARY) : env;
}

bool spin(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
    }
    return true;
}

struct Server {
    QProcess process;
    QString base;
    bool start(const QString &provider)
    {
        process.start(serverBinary(), {provider, QStringLiteral("--port"), QStringLiteral("0")});
        if (!process.waitForStarted(10000))
            return false;
        QByteArray line;
        QElapsedTimer t;
        t.start();
        while (!line.contains('\n') && t.elapsed() < 20000) {
            process.waitForReadyRead(200);
            line += process.readAllStandardOutput();
        }
        const QList<QByteArray> parts = line.trimmed().split(' ');
        if (parts.size() != 2 || parts.first() != "listening")
            return false;
        base = QString::fromUtf8(parts.last());
        return true;
    }
    ~Server()
    {
        process.terminate();
        if (!process.waitForFinished(5000))
            process.kill();
        process.waitForFinished(2000);
    }
};

std::unique_ptr<Provider> makeProvider(const QString &provider, const QString &base)
{
    AccountConfig a;
    a.name = QStringLiteral("bench");
    a.provider = provider;
    if (provider == QLatin1String("e2b")) {
        a.settings.insert(QStringLiteral("endpoint"), base);
        a.settings.insert(QStringLiteral("sandbox-endpoint"), base);
        a.secrets.insert(QStringLiteral("api-key"), QStringLiteral("e2b_contract_test_key"));
        auto p = e2b::makeE2bFactory()->create(a);
        return p.ok() ? std::move(p.value()) : nullptr;
    }
    a.settings.insert(QStringLiteral("endpoint"), QString(base + QStringLiteral("/api")));
    a.secrets.insert(QStringLiteral("api-key"), QStringLiteral("dtn_contract_test_key"));
    auto p = daytona::makeDaytonaFactory()->create(a);
    return p.ok() ? std::move(p.value()) : nullptr;
}

int runProvider(const QString &provider)
{
    Server server;
    if (!server.start(provider)) {
        std::fprintf(stderr, "contract: the %s server did not start (%s)\n", qPrintable(provider),
                     qPrintable(serverBinary()));
        return 1;
    }
    auto p = makeProvider(provider, server.base);
    if (!p)
        return 1;
    const QString prefix = QStringLiteral("contract.") + provider + QLatin1Char('.');

    QElapsedTimer t;
    t.start();
    CreateSpec spec;
    spec.name = QStringLiteral("bench");
    spec.ttlSeconds = 900;
    auto s = wait<SessionInfo>([&](Callback<SessionInfo> d) { p->create(spec, d); });
    if (!s.ok()) {
        std::fprintf(stderr, "contract: create failed: %s\n", qPrintable(s.message()));
        return 1;
    }
    QObject ctx;
    auto pty = p->openPty(s->id, PtyOptions{});
    QByteArray out;
    std::optional<Error> error;
    QObject::connect(pty.get(), &PtyChannel::dataReceived, &ctx, [&](const QByteArray &b) { out += b; });
    QObject::connect(pty.get(), &PtyChannel::errorOccurred, &ctx, [&](const Error &e) { error = e; });
    pty->start();
    if (!spin([&] { return !out.isEmpty() || error; }, 30000) || error) {
        std::fprintf(stderr, "contract: no prompt: %s\n", error ? qPrintable(error->message) : "timeout");
        return 1;
    }
    printFigure(prefix + QStringLiteral("create_to_shell_ms"), double(t.nsecsElapsed()) / 1e6, QStringLiteral("ms"));

    pty->write("stty raw -echo; printf 'RE''ADY'; cat\n");
    if (!spin([&] { return out.contains("READY") || error; }, 20000))
        return 1;
    spin([] { return false; }, 100);
    QList<double> samples;
    for (int i = 0; i < 1000 && !error; ++i) {
        out.clear();
        const char c = char('a' + i % 26);
        QElapsedTimer k;
        k.start();
        pty->write(QByteArray(1, c));
        if (!spin([&] { return out.contains(c) || error; }, 5000)) {
            std::fprintf(stderr, "contract: keystroke %d was not echoed\n", i);
            return 1;
        }
        samples << double(k.nsecsElapsed()) / 1e6;
    }
    printFigure(prefix + QStringLiteral("pty_roundtrip_ms_p99"), percentile(samples, 99), QStringLiteral("ms"), 5.0);
    printFigure(prefix + QStringLiteral("pty_roundtrip_ms_p50"), percentile(samples, 50), QStringLiteral("ms"));
    pty->close();
    pty.reset();

    QTemporaryDir dir;
    const QString src = dir.filePath(QStringLiteral("upload.bin"));
    {
        QFile f(src);
        if (!f.open(QIODevice::WriteOnly))
            return 1;
        QByteArray block(int(kMiB), Qt::Uninitialized);
        for (int i = 0; i < 64; ++i) {
            QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(block.data()), block.size() / 4);
            f.write(block);
        }
    }
    const QString home =
        provider == QLatin1String("e2b") ? QStringLiteral("/home/user") : QStringLiteral("/home/daytona");
    const qint64 rss0 = currentRssBytes();
    qint64 peak = rss0;
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, &ctx, [&] { peak = qMax(peak, currentRssBytes()); });
    sampler.start(20);
    auto job = p->putItem(s->id, src, home, QStringLiteral("upload.bin"));
    std::optional<VoidResult> done;
    QObject::connect(job.get(), &TransferJob::finished, &ctx, [&](const VoidResult &r) { done = r; });
    QElapsedTimer u;
    u.start();
    job->start();
    spin([&] { return done.has_value(); }, 300000);
    const double secs = double(u.nsecsElapsed()) / 1e9;
    sampler.stop();
    if (!done || !done->ok()) {
        std::fprintf(stderr, "contract: upload failed: %s\n", done ? qPrintable(done->message()) : "timeout");
        return 1;
    }
    printFigure(prefix + QStringLiteral("upload_MiBps"), 64.0 / secs, QStringLiteral("MiB/s"));
    printFigure(prefix + QStringLiteral("upload_rss_growth_MiB"), double(peak - rss0) / kMiB, QStringLiteral("MiB"),
                64.0);
    if (!wait<void>([&](Callback<void> d) { p->remove(s->id, d); }).ok())
        std::fprintf(stderr, "contract: the sandbox could not be removed\n");
    return 0;
}

int run(const QStringList &args)
{
    const QStringList providers = args.isEmpty() ? QStringList{QStringLiteral("e2b"), QStringLiteral("daytona")} : args;
    int rc = 0;
    for (const QString &provider : providers)
        rc = qMax(rc, runProvider(provider));
    return rc;
}

} // namespace

static Registration reg("contract", &run, false,
                        "Cloud providers against their contract servers: PTY round trip, create to shell, upload");

} // namespace sandbar::bench
