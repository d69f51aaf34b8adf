// sandbar-bench contract: the cloud providers against their contract servers on loopback
// (each server a process of its own, started here). Per cloud provider P of the list:
//   contract.P.pty_roundtrip_ms_p99 / _p50  1,000 keystrokes one at a time, each from
//                                           PtyChannel::write to its byte echoed back by
//                                           `cat` on a raw terminal; target <= 5 ms
//   contract.P.create_to_shell_ms           create() to the first byte of the shell's prompt
//   contract.P.upload_MiBps                 a 64 MiB file through putItem
//   contract.P.upload_rss_growth_MiB        peak RSS growth during it; target <= 64 MiB
// Args: the providers to run (default every cloud provider). SANDBAR_CONTRACT_SERVER names the
// server.

#include "Bench.h"
#include "ContractAccount.h"
#include "providers/CopyingFiles.h"
#include "providers/Provider.h"
#include "terminal/PtyChannel.h"
#include "wiring/AppServices.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <cstdio>

namespace sandbar::bench {

namespace {

const char kGroup[] = "contract";
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
    // Empty when it listens, else why not.
    QString start(const QString &provider, const QString &apiKey)
    {
        process.start(serverBinary(),
                      {provider, QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--api-key"), apiKey});
        if (!process.waitForStarted(10000))
            return QStringLiteral("%1 did not start: %2 (build the contract tests, or set SANDBAR_CONTRACT_SERVER)")
                .arg(serverBinary(), process.errorString());
        QByteArray line;
        QElapsedTimer t;
        t.start();
        while (!line.contains('\n') && t.elapsed() < 20000 && process.state() == QProcess::Running) {
            process.waitForReadyRead(200);
            line += process.readAllStandardOutput();
        }
        line += process.readAllStandardOutput();
        const QList<QByteArray> parts = line.trimmed().split(' ');
        if (parts.size() != 2 || parts.first() != "listening") {
            const QString said = QString::fromLocal8Bit(process.readAllStandardError()).trimmed();
            return QStringLiteral("%1 %2 did not say \"listening URL\" within 20 s (stdout \"%3\"%4)")
                .arg(serverBinary(), provider, QString::fromLocal8Bit(line.trimmed()),
                     said.isEmpty() ? QString() : QStringLiteral(", stderr \"%1\"").arg(said.right(400)));
        }
        base = QString::fromUtf8(parts.last());
        return {};
    }
    ~Server()
    {
        process.terminate();
        if (!process.waitForFinished(5000))
            process.kill();
        process.waitForFinished(2000);
    }
};

// The cloud providers of the provider list: every one has a contract server.
QStringList cloudProviders()
{
    ProviderFactories factories;
    registerProviders(factories);
    QStringList out;
    for (const auto &f : factories.all()) {
        if (!f->descriptor().selfHosted)
            out << f->descriptor().id;
    }
    return out;
}

Result<std::unique_ptr<Provider>> makeProvider(const QString &provider, const QString &base, const QString &key)
{
    ProviderFactories factories;
    registerProviders(factories);
    const ProviderFactory *f = factories.find(provider);
    if (!f)
        return makeError(ErrorCode::NotFound, QStringLiteral("%1 is not in the provider list").arg(provider));
    return f->create(contract::contractAccount(f->descriptor(), QStringLiteral("bench"), base, key));
}

int runProvider(const QString &provider)
{
    Server server;
    const QString key = QStringLiteral("bench-key-") + provider;
    if (const QString why = server.start(provider, key); !why.isEmpty())
        return fail(kGroup, QStringLiteral("%1: start the contract server").arg(provider), why);
    auto made = makeProvider(provider, server.base, key);
    if (!made)
        return fail(kGroup, QStringLiteral("%1: make the provider for %2").arg(provider, server.base), made.message());
    const std::unique_ptr<Provider> p = std::move(made.value());
    const QString prefix = QStringLiteral("contract.") + provider + QLatin1Char('.');

    QElapsedTimer t;
    t.start();
    CreateSpec spec;
    spec.name = QStringLiteral("bench");
    spec.ttlSeconds = 900;
    auto s = wait<SessionInfo>([&](Callback<SessionInfo> d) { p->create(spec, d); });
    if (!s.ok())
        return fail(kGroup, QStringLiteral("%1: create").arg(provider), s.message());
    QObject ctx;
    auto pty = p->terminals()->openPty(s->id, PtyOptions{});
    QByteArray out;
    std::optional<Error> error;
    QObject::connect(pty.get(), &PtyChannel::dataReceived, &ctx, [&](const QByteArray &b) { out += b; });
    QObject::connect(pty.get(), &PtyChannel::errorOccurred, &ctx, [&](const Error &e) { error = e; });
    pty->start();
    if (!spin([&] { return !out.isEmpty() || error; }, 30000) || error)
        return fail(kGroup, QStringLiteral("%1: wait for the shell's prompt").arg(provider),
                    error ? error->message : QStringLiteral("nothing within 30 s"));
    printFigure(prefix + QStringLiteral("create_to_shell_ms"), double(t.nsecsElapsed()) / 1e6, QStringLiteral("ms"));

    pty->write("stty raw -echo; printf 'RE''ADY'; cat\n");
    if (!spin([&] { return out.contains("READY") || error; }, 20000) || error)
        return fail(kGroup, QStringLiteral("%1: start `cat` on a raw terminal").arg(provider),
                    error ? error->message
                          : QStringLiteral("no READY within 20 s; the terminal showed \"%1\"")
                                .arg(QString::fromUtf8(out.right(200))));
    spin([] { return false; }, 100);
    QList<double> samples;
    for (int i = 0; i < 1000 && !error; ++i) {
        out.clear();
        const char c = char('a' + i % 26);
        QElapsedTimer k;
        k.start();
        pty->write(QByteArray(1, c));
        if (!spin([&] { return out.contains(c) || error; }, 5000))
            return fail(kGroup, QStringLiteral("%1: keystroke %2").arg(provider).arg(i),
                        QStringLiteral("not echoed within 5 s"));
        samples << double(k.nsecsElapsed()) / 1e6;
    }
    if (error)
        return fail(kGroup, QStringLiteral("%1: keystrokes").arg(provider),
                    QStringLiteral("the terminal failed after %1 of 1000: %2").arg(samples.size()).arg(error->message));
    printFigure(prefix + QStringLiteral("pty_roundtrip_ms_p99"), percentile(samples, 99), QStringLiteral("ms"), 5.0);
    printFigure(prefix + QStringLiteral("pty_roundtrip_ms_p50"), percentile(samples, 50), QStringLiteral("ms"));
    pty->close();
    pty.reset();

    QTemporaryDir dir;
    const QString src = dir.filePath(QStringLiteral("upload.bin"));
    {
        QFile f(src);
        if (!dir.isValid() || !f.open(QIODevice::WriteOnly))
            return fail(kGroup, QStringLiteral("%1: make the 64 MiB file %2").arg(provider, src),
                        dir.isValid() ? f.errorString() : dir.errorString());
        QByteArray block(int(kMiB), Qt::Uninitialized);
        for (int i = 0; i < 64; ++i) {
            QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(block.data()), block.size() / 4);
            if (f.write(block) != block.size())
                return fail(kGroup, QStringLiteral("%1: make the 64 MiB file %2").arg(provider, src), f.errorString());
        }
    }
    // Every contract server keeps /tmp as the sandbox's own.
    const QString home = QStringLiteral("/tmp");
    const qint64 rss0 = currentRssBytes();
    qint64 peak = rss0;
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, &ctx, [&] { peak = qMax(peak, currentRssBytes()); });
    sampler.start(20);
    auto job = dynamic_cast<CopyingFiles *>(p->files())->putItem(s->id, src, home, QStringLiteral("upload.bin"));
    std::optional<VoidResult> done;
    QObject::connect(job.get(), &TransferJob::finished, &ctx, [&](const VoidResult &r) { done = r; });
    QElapsedTimer u;
    u.start();
    job->start();
    spin([&] { return done.has_value(); }, 300000);
    const double secs = double(u.nsecsElapsed()) / 1e9;
    sampler.stop();
    if (!done || !done->ok())
        return fail(kGroup, QStringLiteral("%1: upload 64 MiB into %2").arg(provider, home),
                    done ? done->message() : QStringLiteral("not finished within 300 s"));
    printFigure(prefix + QStringLiteral("upload_MiBps"), 64.0 / secs, QStringLiteral("MiB/s"));
    printFigure(prefix + QStringLiteral("upload_rss_growth_MiB"), double(peak - rss0) / kMiB, QStringLiteral("MiB"),
                64.0);
    if (auto r = wait<void>([&](Callback<void> d) { p->remove(s->id, d); }); !r.ok())
        std::fprintf(stderr, "contract: %s: the sandbox could not be removed: %s\n", qPrintable(provider),
                     qPrintable(r.message()));
    return 0;
}

int run(const QStringList &args)
{
    const QStringList providers = args.isEmpty() ? cloudProviders() : args;
    int rc = 0;
    for (const QString &provider : providers)
        rc = qMax(rc, runProvider(provider));
    return rc;
}

} // namespace

static Registration reg("contract", &run, false,
                        "Cloud providers against their contract servers: PTY round trip, create to shell, upload");

} // namespace sandbar::bench
