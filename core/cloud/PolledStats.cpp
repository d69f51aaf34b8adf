#include "cloud/PolledStats.h"

#include <algorithm>

namespace sandbar::cloud {

std::optional<NetCounters> parseProcNetDev(const QByteArray &text)
{
    NetCounters c;
    bool any = false;
    for (const QByteArray &line : text.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon < 0)
            continue;
        const QByteArray iface = line.left(colon).trimmed();
        if (iface.isEmpty() || iface.contains('|'))
            continue;
        const QList<QByteArray> f = line.mid(colon + 1).simplified().split(' ');
        if (f.size() < 9)
            continue;
        bool okRx = false, okTx = false;
        const qint64 rx = f.at(0).toLongLong(&okRx);
        const qint64 tx = f.at(8).toLongLong(&okTx);
        if (!okRx || !okTx)
            continue;
        any = true;
        if (iface == "lo")
            continue;
        c.rxBytes += rx;
        c.txBytes += tx;
    }
    if (!any)
        return std::nullopt;
    return c;
}

namespace {
// A whole disk of /proc/diskstats (major minor name reads merged sectors-read ms writes merged
// sectors-written ...): its name and bytes read and written.
struct DiskLine {
    QByteArray name;
    qint64 read = 0;
    qint64 written = 0;
};
std::optional<DiskLine> diskLine(const QList<QByteArray> &f)
{
    if (f.size() < 10)
        return std::nullopt;
    bool okMajor = false, okRead = false, okWritten = false;
    f.at(0).toInt(&okMajor);
    const qint64 read = f.at(5).toLongLong(&okRead);
    const qint64 written = f.at(9).toLongLong(&okWritten);
    const QByteArray &name = f.at(2);
    constexpr qint64 kMaxSectors = qint64(1) << 50;
    if (!okMajor || !okRead || !okWritten || read < 0 || written < 0 || read > kMaxSectors || written > kMaxSectors)
        return std::nullopt;
    for (const char *virtualDisk : {"loop", "ram", "zram", "dm-", "md"})
        if (name.startsWith(virtualDisk))
            return std::nullopt;
    return DiskLine{name, read * 512, written * 512};
}

// `df -Pk /`'s line for the root (fs blocks used available capacity mountpoint).
void dfLine(const QList<QByteArray> &f, ProcReading &r)
{
    if (f.size() != 6 || f.at(5) != "/")
        return;
    bool okTotal = false, okUsed = false;
    const qint64 total = f.at(1).toLongLong(&okTotal);
    const qint64 used = f.at(2).toLongLong(&okUsed);
    if (okTotal && okUsed && used >= 0 && used <= total && total < (qint64(1) << 44)) {
        r.filesystemTotalBytes = total * 1024;
        r.filesystemUsedBytes = used * 1024;
    }
}

void addDisks(const QList<DiskLine> &disks, ProcReading &r)
{
    // A partition (vda1, nvme0n1p1) is counted in its disk already.
    qint64 read = 0, written = 0;
    bool any = false;
    for (const DiskLine &d : disks) {
        const bool partition = std::any_of(disks.begin(), disks.end(), [&d](const DiskLine &o) {
            return o.name.size() < d.name.size() && d.name.startsWith(o.name);
        });
        if (partition)
            continue;
        read += d.read;
        written += d.written;
        any = true;
    }
    if (any) {
        r.blockReadBytes = read;
        r.blockWriteBytes = written;
    }
}
} // namespace

ProcReading parseProcReading(const QByteArray &text)
{
    ProcReading r;
    std::optional<qint64> total;
    std::optional<qint64> available;
    QList<DiskLine> disks;
    for (const QByteArray &line : text.split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (const auto disk = diskLine(f)) {
            disks.append(*disk);
        } else if (f.size() == 6 && f.at(5) == "/") {
            dfLine(f, r);
        } else if (f.size() >= 5 && f.at(0) == "cpu") {
            // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
            qint64 sum = 0;
            qint64 idle = 0;
            bool ok = true;
            for (qsizetype i = 1; i < f.size() && i <= 8 && ok; ++i) {
                const qint64 v = f.at(i).toLongLong(&ok);
                if (ok && v >= 0 && v < (qint64(1) << 56)) {
                    sum += v;
                    if (i == 4 || i == 5)
                        idle += v;
                } else {
                    ok = false;
                }
            }
            if (ok) {
                r.totalTicks = sum;
                r.busyTicks = sum - idle;
            }
        } else if (f.size() >= 2 && f.at(0).startsWith("cpu") && f.at(0).size() > 3) {
            bool digits = false;
            f.at(0).mid(3).toInt(&digits);
            r.cpus += digits ? 1 : 0;
        } else if (f.size() >= 3 && (f.at(0) == "MemTotal:" || f.at(0) == "MemAvailable:") && f.at(2) == "kB") {
            bool ok = false;
            const qint64 kb = f.at(1).toLongLong(&ok);
            if (ok && kb >= 0 && kb < (qint64(1) << 40))
                (f.at(0) == "MemTotal:" ? total : available) = kb * 1024;
        }
    }
    if (total) {
        r.memoryTotalBytes = total;
        if (available && *available <= *total)
            r.memoryUsedBytes = *total - *available;
    }
    addDisks(disks, r);
    return r;
}

std::optional<double> cpuPercentBetween(const ProcReading &before, const ProcReading &now)
{
    if (!before.totalTicks || !now.totalTicks || !before.busyTicks || !now.busyTicks || now.cpus <= 0)
        return std::nullopt;
    const qint64 total = *now.totalTicks - *before.totalTicks;
    const qint64 busy = *now.busyTicks - *before.busyTicks;
    if (total <= 0 || busy < 0 || busy > total)
        return std::nullopt;
    return 100.0 * double(now.cpus) * double(busy) / double(total);
}

PolledStatsStream::PolledStatsStream(Provider *provider, QString sessionId, QObject *parent)
    : StatsStream(parent)
    , m_provider(provider)
    , m_sessionId(std::move(sessionId))
{
    m_timer = new QTimer(this);
    m_timer->setInterval(kIntervalMs);
    connect(m_timer, &QTimer::timeout, this, &PolledStatsStream::poll);
}

void PolledStatsStream::start()
{
    if (m_running)
        return;
    m_running = true;
    m_timer->start();
    poll();
}

void PolledStatsStream::stop()
{
    m_running = false;
    m_timer->stop();
}

void PolledStatsStream::poll()
{
    if (!m_running || m_inFlight || !m_provider || !m_provider->statistics())
        return;
    m_inFlight = true;
    m_provider->statistics()->stats(
        m_sessionId, Callback<StatsSample>(this, [this](Result<StatsSample> r) {
            if (!m_running || !m_provider) {
                m_inFlight = false;
                return;
            }
            if (!r) {
                m_inFlight = false;
                Q_EMIT errorOccurred(r.error());
                return;
            }
            if (!m_netWorks || !m_provider->commands()) {
                m_inFlight = false;
                Q_EMIT sample(r.value());
                return;
            }
            ExecRequest req;
            // The VM's own CPU and memory ride along, for services that report none.
            // The VM's disk rides along too; the network's read decides whether /proc is there.
            req.argv = {QStringLiteral("sh"), QStringLiteral("-c"),
                        QStringLiteral("cat /proc/net/dev /proc/stat /proc/meminfo; cat /proc/diskstats 2>/dev/null; "
                                       "df -Pk / 2>/dev/null; exit 0")};
            ExecJob *job = m_provider->commands()->exec(m_sessionId, req).release();
            job->setParent(this);
            auto out = std::make_shared<QByteArray>();
            auto s = std::make_shared<StatsSample>(r.value());
            connect(job, &ExecJob::stdoutData, this, [out](const QByteArray &b) { out->append(b); });
            connect(job, &ExecJob::finished, this, [this, job, out, s](const Result<int> &code) {
                job->deleteLater();
                m_inFlight = false;
                if (!m_running)
                    return;
                const auto net = code.ok() && code.value() == 0 ? parseProcNetDev(*out) : std::nullopt;
                if (net) {
                    s->networkRxBytes = net->rxBytes;
                    s->networkTxBytes = net->txBytes;
                    fillFromProc(*s, parseProcReading(*out));
                } else {
                    m_netWorks = false; // no /proc here: don't keep asking
                }
                Q_EMIT sample(*s);
            });
            job->start();
        }));
}

void PolledStatsStream::fillFromProc(StatsSample &s, const ProcReading &now)
{
    // The service's own figures win; the VM's fill only what it left out.
    if (!s.cpuPercent && m_lastProc)
        s.cpuPercent = cpuPercentBetween(*m_lastProc, now);
    m_lastProc = now;
    if (!s.memoryUsedBytes) {
        s.memoryUsedBytes = now.memoryUsedBytes;
        if (!s.memoryLimitBytes)
            s.memoryLimitBytes = now.memoryTotalBytes;
    }
    if (!s.blockReadBytes && !s.blockWriteBytes) {
        s.blockReadBytes = now.blockReadBytes;
        s.blockWriteBytes = now.blockWriteBytes;
    }
    if (!s.filesystemUsedBytes) {
        s.filesystemUsedBytes = now.filesystemUsedBytes;
        s.filesystemTotalBytes = now.filesystemTotalBytes;
    }
}

PolledStats::PolledStats(Provider *owner, Capabilities flags, Fetch fetch, Capabilities procFlags)
    : m_owner(owner)
    , m_flags(flags)
    , m_fetch(std::move(fetch))
    , m_procFlags(procFlags)
{
}

Capabilities PolledStats::statsFlags() const
{
    return m_flags | m_procFlags | Capability::StatsNetwork | Capability::StatsStream;
}

void PolledStats::stats(const QString &sessionId, Callback<StatsSample> done)
{
    m_fetch(sessionId, std::move(done));
}

std::unique_ptr<StatsStream> PolledStats::streamStats(const QString &sessionId)
{
    return std::make_unique<PolledStatsStream>(m_owner.data(), sessionId);
}

} // namespace sandbar::cloud
