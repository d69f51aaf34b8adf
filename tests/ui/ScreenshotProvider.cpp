#include "ScreenshotProvider.h"

#include <QFileInfo>
#include <QHashFunctions>
#include <cmath>

namespace sandbar::test {

namespace {

// Where the synthetic clock starts: a little before now, so integrals stay short and exact.
const qint64 kOriginMs = QDateTime::currentMSecsSinceEpoch() - 3 * 3600 * 1000;

// A repeatable random value in [-1, 1] for knot i of stream seed.
double knot(qint64 i, quint32 seed)
{
    quint64 x = quint64(i) * 0x9E3779B97F4A7C15ull ^ (quint64(seed) << 32 | seed);
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return double(x % 20001) / 10000.0 - 1.0;
}

// Value noise: random knots every step seconds joined by smoothsteps, so figures wander like
// a real workload (bursts, lulls) instead of a sine's even beat.
double noise(double t, double step, quint32 seed)
{
    const double u = t / step;
    const auto i = qint64(std::floor(u));
    const double f = u - double(i);
    const double a = knot(i, seed);
    return a + (knot(i + 1, seed) - a) * f * f * (3 - 2 * f);
}

// The integral of noise from 0 to t: whole slots are (a + b) / 2 each, the last part exact.
double noiseIntegral(double t, double step, quint32 seed)
{
    const double u = t / step;
    const auto whole = qint64(std::floor(u));
    double sum = 0;
    for (qint64 i = 0; i < whole; ++i)
        sum += (knot(i, seed) + knot(i + 1, seed)) / 2;
    const double f = u - double(whole);
    const double a = knot(whole, seed);
    sum += a * f + (knot(whole + 1, seed) - a) * (f * f * f - f * f * f * f / 2);
    return sum * step;
}

// Bytes so far at t for a rate of bytesPerS swinging +-80 %: the integral, so it only grows.
qint64 counter(double bytesPerS, double t, double step, quint32 seed)
{
    return qint64(bytesPerS * (t + 0.8 * noiseIntegral(t, step, seed)));
}

} // namespace

StatsSample sampleAt(const LoadProfile &p, qint64 ms)
{
    const double t = double(ms - kOriginMs) / 1000.0;
    const auto seed = quint32(qHash(p.cpuBase) ^ qHash(p.memBaseMiB));
    StatsSample s;
    s.time = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
    const double busy = 0.65 * noise(t, p.periodS / 3, seed) + 0.35 * noise(t, 4, seed + 1);
    s.cpuPercent = std::max(0.5, p.cpuBase + p.cpuSwing * busy);
    const double mib = p.memBaseMiB + p.memSwingMiB * noise(t, p.periodS, seed + 2);
    s.memoryUsedBytes = qint64(mib * 1024 * 1024);
    if (p.memoryLimitBytes > 0)
        s.memoryLimitBytes = p.memoryLimitBytes;
    s.networkRxBytes = counter(p.netKiBps * 1024, t, 9, seed + 3);
    s.networkTxBytes = counter(p.netKiBps * 256, t, 13, seed + 4);
    s.blockReadBytes = counter(p.diskKiBps * 1024 * 0.3, t, 11, seed + 5);
    s.blockWriteBytes = counter(p.diskKiBps * 1024, t, 7, seed + 6);
    s.pids = 18 + qint64(std::lround(6 * noise(t, 20, seed + 7)));
    // The workspace grows as the agent writes: about 40 KiB/s on average.
    s.filesystemUsedBytes = qint64(1.2 * 1024 * 1024 * 1024) + counter(40 * 1024, t, 15, seed + 8);
    s.filesystemTotalBytes = qint64(10) << 30;
    return s;
}

CrawlingUpload::CrawlingUpload(qint64 total, double stopAt)
    : m_total(total)
    , m_stop(qint64(double(total) * stopAt))
{
    m_timer.setInterval(120);
    connect(&m_timer, &QTimer::timeout, this, [this]() {
        m_done = std::min(m_stop, m_done + m_total / 60);
        Q_EMIT progress(m_done, m_total);
        if (m_done >= m_stop)
            m_timer.stop();
    });
}

void CrawlingUpload::start()
{
    Q_EMIT progress(0, m_total);
    m_timer.start();
}

namespace {

QList<FileEntry> workspaceListing(const QString &dir)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const auto entry = [&](const QString &name, bool isDir, qint64 size, quint32 mode, int minutesAgo) {
        FileEntry e;
        e.name = name;
        e.path = (dir.endsWith(QLatin1Char('/')) ? dir : dir + QLatin1Char('/')) + name;
        e.isDir = isDir;
        e.size = size;
        e.mode = mode;
        e.modified = now.addSecs(-60 * minutesAgo);
        return e;
    };
    return {entry(QStringLiteral(".git"), true, 4096, 0755, 3),
            entry(QStringLiteral("src"), true, 4096, 0755, 4),
            entry(QStringLiteral("tests"), true, 4096, 0755, 12),
            entry(QStringLiteral("node_modules"), true, 4096, 0755, 41),
            entry(QStringLiteral("README.md"), false, 5321, 0644, 9),
            entry(QStringLiteral("package.json"), false, 1187, 0644, 41),
            entry(QStringLiteral("agent.log"), false, 884736, 0644, 1),
            entry(QStringLiteral("run-agent.sh"), false, 412, 0755, 45)};
}

} // namespace

ScreenshotProvider::ScreenshotProvider(const ProviderDescriptor &desc, const QString &account, Capabilities caps,
                                       QObject *parent)
    : MemoryProvider(desc, account, parent)
{
    offer(caps);
    healthHook = [this](Callback<HealthInfo> done) {
        const ProviderDescriptor &d = descriptor();
        done(HealthInfo{d.displayName,
                        QStringLiteral("1.0"),
                        QStringLiteral("1.0"),
                        QStringLiteral("linux"),
                        d.id + QStringLiteral("://"),
                        {}});
    };
    statsHook = [this](const QString &id, Callback<StatsSample> done) {
        if (!profiles.contains(id))
            return done.post(makeError(ErrorCode::Unsupported, QStringLiteral("no load profile for %1").arg(id)));
        done.post(sampleAt(profiles.value(id), QDateTime::currentMSecsSinceEpoch()));
    };
    listFilesHook = [](const QString &, const QString &dir, Callback<QList<FileEntry>> done) {
        done.post(workspaceListing(dir));
    };
    // Nothing is in the way: the uploads start without a name conflict.
    statHook = [](const QString &, const QString &, Callback<PathStat> done) { done.post(PathStat{}); };
    uploadHook = [this](const QString &, const QString &local, const QString &) -> std::unique_ptr<TransferJob> {
        // Sizes by name, so the panel shows believable totals whatever the local files hold.
        const QString name = QFileInfo(local).fileName();
        const qint64 mib = qint64(1) << 20;
        const qint64 total = name.endsWith(QLatin1String(".parquet")) ? 734 * mib
                             : name.endsWith(QLatin1String(".bin"))   ? 268 * mib
                                                                      : 48 * mib;
        const double stops[] = {0.62, 0.38, 0.2, 0.1};
        return std::make_unique<CrawlingUpload>(total, stops[m_uploads++ % 4]);
    };
}

Result<std::unique_ptr<Provider>> ScreenshotFactory::create(const AccountConfig &account) const
{
    auto p = std::make_unique<ScreenshotProvider>(m_desc, account.name, m_caps);
    made.insert(account.name, p.get());
    return std::unique_ptr<Provider>(std::move(p));
}

} // namespace sandbar::test
