#include "metrics/GpuSource.h"

#include "metrics/gpu/NvidiaSmi.h"
#include "metrics/gpu/NvmlReader.h"
#include "metrics/gpu/ProcCgroup.h"
#include "providers/Provider.h"

#include <QLoggingCategory>
#include <QPointer>
#include <QTimer>
#include <limits>

namespace sandbar::metrics {

namespace {

Q_LOGGING_CATEGORY(lcGpu, "sandbar.gpu", QtInfoMsg)

constexpr qsizetype kMaxExecOutput = 1024 * 1024; // eight GPUs print under 2 KiB
constexpr int kMaxRemembered = 1024;

qint64 clampBytes(std::uint64_t v)
{
    return v > std::uint64_t(std::numeric_limits<qint64>::max()) ? std::numeric_limits<qint64>::max() : qint64(v);
}

QString firstLine(const QByteArray &bytes)
{
    const QList<QByteArray> lines = bytes.split('\n');
    for (const QByteArray &l : lines) {
        const QByteArray t = l.trimmed();
        if (!t.isEmpty())
            return QString::fromUtf8(t.left(300));
    }
    return {};
}

// A shell's "nvidia-smi: not found", runc's "executable file not found in $PATH", execvp's
// "No such file or directory".
bool saysNotFound(const QString &text)
{
    return text.contains(QLatin1String("not found"), Qt::CaseInsensitive) ||
           text.contains(QLatin1String("No such file or directory"), Qt::CaseInsensitive);
}

} // namespace

GpuReading toGpuReading(const gpu::DeviceInfo &device)
{
    GpuReading r;
    r.index = device.index;
    r.name = QString::fromStdString(device.name);
    r.uuid = QString::fromStdString(device.uuid);
    r.mig = device.mig;
    r.migIndex = device.migIndex;
    r.parentUuid = QString::fromStdString(device.parentUuid);
    r.utilizationPercent = device.utilizationGpuPercent;
    r.memoryUtilizationPercent = device.utilizationMemoryPercent;
    if (device.memoryUsedBytes)
        r.memoryUsedBytes = clampBytes(*device.memoryUsedBytes);
    if (device.memoryTotalBytes)
        r.memoryTotalBytes = clampBytes(*device.memoryTotalBytes);
    r.powerWatts = device.powerWatts;
    r.powerLimitWatts = device.powerLimitWatts;
    r.temperatureC = device.temperatureC;
    r.processes.reserve(qsizetype(device.processes.size()));
    for (const gpu::ProcessInfo &p : device.processes) {
        GpuProcessReading pr;
        pr.pid = qint64(p.pid);
        if (p.usedMemoryBytes)
            pr.usedMemoryBytes = clampBytes(*p.usedMemoryBytes);
        r.processes << pr;
    }
    return r;
}

bool gpuSelected(const gpu::DeviceInfo &device, const QStringList &ids)
{
    if (ids.isEmpty())
        return true;
    const QString uuid = QString::fromStdString(device.uuid);
    const QString parent = QString::fromStdString(device.parentUuid);
    for (const QString &raw : ids) {
        const QString id = raw.trimmed();
        bool isIndex = false;
        const int n = id.toInt(&isIndex);
        if (isIndex) {
            if (!device.migIndex && device.index == n)
                return true;
            continue;
        }
        if (id.isEmpty())
            continue;
        if (id.compare(uuid, Qt::CaseInsensitive) == 0 || id.compare(parent, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

GpuSource::GpuSource(GpuSourceOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
}

GpuSource::~GpuSource() = default;

Result<QList<GpuReading>> GpuSource::localReadings(const QStringList &uuids, const SessionCgroupMatch &match)
{
    if (!m_nvml) {
        gpu::NvmlOptions o;
        o.libraryPath = m_options.nvmlLibrary.toStdString();
        o.retryInterval = std::chrono::seconds(m_options.nvmlRetrySeconds);
        m_nvml = std::make_unique<gpu::NvmlReader>(o);
        m_clock.start();
    }
    const qint64 now = m_clock.elapsed();
    if (m_lastSampleMs < 0 || now - m_lastSampleMs >= m_options.nvmlMaxAgeMs) {
        gpu::NvmlSnapshot snap = m_nvml->sample();
        m_lastSampleMs = now;
        m_lastDevices = std::move(snap.devices);
        m_lastError.reset();
        if (snap.status != gpu::NvmlStatus::Ok) {
            const QString detail = QString::fromStdString(snap.detail);
            switch (snap.status) {
            case gpu::NvmlStatus::NoLibrary:
            case gpu::NvmlStatus::NoDriver:
                m_lastError = makeError(ErrorCode::Unavailable, tr("no NVIDIA driver"));
                break;
            case gpu::NvmlStatus::Incompatible:
                m_lastError = makeError(ErrorCode::Unsupported, tr("the NVIDIA driver is too old for GPU statistics"));
                break;
            case gpu::NvmlStatus::Failed:
            case gpu::NvmlStatus::Ok:
                m_lastError = makeError(ErrorCode::Unavailable, tr("the NVIDIA driver stopped answering"));
                break;
            }
            if (snap.statusChanged)
                qCInfo(lcGpu).noquote() << "GPU statistics:" << m_lastError->message << "-" << detail;
        } else if (snap.statusChanged) {
            qCInfo(lcGpu).noquote() << "GPU statistics: NVML from" << QString::fromStdString(m_nvml->libraryPath())
                                    << "lists" << m_lastDevices.size() << "device(s)";
        }
    }
    if (m_lastError)
        return *m_lastError;

    gpu::CgroupMatch cg;
    cg.containerId = match.containerId.toStdString();
    cg.cgroupPath = match.cgroupPath.toStdString();
    const std::string procRoot = m_options.procRoot.toStdString();
    QHash<unsigned, bool> mine; // a PID on several GPUs is looked up once
    auto isMine = [&](unsigned pid) {
        auto it = mine.constFind(pid);
        if (it != mine.constEnd())
            return *it;
        const bool m = gpu::pidInSession(pid, cg, procRoot);
        mine.insert(pid, m);
        return m;
    };

    QList<GpuReading> out;
    for (const gpu::DeviceInfo &d : m_lastDevices) {
        if (!gpuSelected(d, uuids))
            continue;
        GpuReading r = toGpuReading(d);
        if (!cg.empty() && d.processesKnown) {
            std::optional<qint64> sum = 0;
            for (const gpu::ProcessInfo &p : d.processes) {
                if (!isMine(p.pid))
                    continue;
                if (!p.usedMemoryBytes) {
                    sum.reset(); // one of ours holds an unknown amount: the sum is unknown
                    break;
                }
                *sum += clampBytes(*p.usedMemoryBytes);
            }
            r.sessionMemoryBytes = sum;
        }
        out << r;
    }
    return out;
}

void GpuSource::rememberMissing(const QString &key, const Error &error)
{
    if (m_noSmi.contains(key))
        return;
    if (m_noSmi.size() >= kMaxRemembered)
        m_noSmi.clear();
    m_noSmi.insert(key, error);
    qCInfo(lcGpu).noquote() << "GPU statistics:" << key << "-" << error.message;
}

void GpuSource::forgetSession(Provider *provider, const QString &sessionId)
{
    if (provider)
        m_noSmi.remove(provider->accountName() + QLatin1Char('/') + sessionId);
}

Result<QList<GpuReading>> GpuSource::fromExec(int exitCode, const QByteArray &out, const QByteArray &err)
{
    const gpu::SmiParse parsed = gpu::parseNvidiaSmiQuery(std::string_view(out.constData(), size_t(out.size())));
    if (!parsed.failure.empty())
        return makeError(ErrorCode::Unavailable,
                         tr("nvidia-smi: %1").arg(QString::fromStdString(parsed.failure).left(300)));
    // "No devices were found" (exit 6): the session has nvidia-smi but was given no GPU.
    if (parsed.devices.empty() && (out.contains("No devices were found") || err.contains("No devices were found")))
        return QList<GpuReading>{};
    if (exitCode != 0) {
        const QString why = firstLine(err).isEmpty() ? firstLine(out) : firstLine(err);
        return makeError(ErrorCode::Unavailable, tr("nvidia-smi failed with exit code %1: %2").arg(exitCode).arg(why));
    }
    if (parsed.devices.empty() && parsed.skippedLines > 0)
        return makeError(ErrorCode::Unavailable, tr("nvidia-smi printed no GPU rows Sandbar understands"));
    QList<GpuReading> readings;
    for (const gpu::DeviceInfo &d : parsed.devices)
        readings << toGpuReading(d);
    return readings;
}

void GpuSource::sampleViaExec(Provider *provider, const QString &sessionId, QObject *context,
                              std::function<void(Result<QList<GpuReading>>)> done)
{
    using Readings = QList<GpuReading>;
    Callback<Readings> cb(context ? context : this, std::move(done));
    if (!provider) {
        cb.post(makeError(ErrorCode::InvalidArgument, tr("no provider for the session")));
        return;
    }
    const QString key = provider->accountName() + QLatin1Char('/') + sessionId;
    if (auto it = m_noSmi.constFind(key); it != m_noSmi.constEnd()) {
        cb.post(*it);
        return;
    }
    ExecRequest req;
    for (const std::string &a : gpu::nvidiaSmiArgv())
        req.argv << QString::fromStdString(a);
    std::unique_ptr<ExecJob> owned = provider->commands() ? provider->commands()->exec(sessionId, req) : nullptr;
    if (!owned) {
        cb.post(makeError(ErrorCode::Unsupported, tr("this session cannot run commands")));
        return;
    }
    // The job lives as long as the context: a context that goes away takes it along.
    QObject *ctx = cb.context();
    ExecJob *job = owned.release();
    job->setParent(ctx);

    struct State {
        QByteArray out, err;
        bool finished = false;
    };
    auto st = std::make_shared<State>();
    QPointer<GpuSource> self(this);
    auto timer = new QTimer(job);
    timer->setSingleShot(true);
    auto finish = [st, job, cb, timer](Result<Readings> r) {
        if (st->finished)
            return;
        st->finished = true;
        timer->stop();
        job->deleteLater();
        cb.post(std::move(r)); // queued: never inside job->start() or the caller's call
    };
    auto overflow = [st, job, finish] {
        if (st->finished || st->out.size() + st->err.size() <= kMaxExecOutput)
            return;
        finish(makeError(ErrorCode::Internal,
                         QCoreApplication::translate("sandbar::metrics::GpuSource", "nvidia-smi printed too much")));
        job->cancel();
    };
    connect(job, &ExecJob::stdoutData, ctx, [st, overflow](const QByteArray &b) {
        st->out += b;
        overflow();
    });
    connect(job, &ExecJob::stderrData, ctx, [st, overflow](const QByteArray &b) {
        st->err += b;
        overflow();
    });
    connect(job, &ExecJob::finished, ctx, [self, key, st, finish](const Result<int> &code) {
        if (st->finished)
            return;
        if (!self) {
            finish(makeError(ErrorCode::Cancelled,
                             QCoreApplication::translate("sandbar::metrics::GpuSource", "GPU sampling was stopped")));
            return;
        }
        const QString said = QString::fromUtf8(st->err + st->out);
        if (!code.ok()) {
            if (code.code() != ErrorCode::Cancelled && saysNotFound(code.message() + said)) {
                const Error e = makeError(ErrorCode::NotFound, tr("nvidia-smi is not installed in this session"));
                self->rememberMissing(key, e);
                finish(e);
                return;
            }
            finish(makeError(code.code(), tr("nvidia-smi could not run: %1").arg(code.message())));
            return;
        }
        if (*code == 127 || (*code == 126 && saysNotFound(said))) {
            const Error e =
                makeError(ErrorCode::NotFound, tr("nvidia-smi is not installed in this session (exit %1)").arg(*code));
            self->rememberMissing(key, e);
            finish(e);
            return;
        }
        finish(self->fromExec(*code, st->out, st->err));
    });
    connect(timer, &QTimer::timeout, ctx, [job, finish, ms = m_options.execTimeoutMs] {
        finish(makeError(ErrorCode::Timeout, QCoreApplication::translate("sandbar::metrics::GpuSource",
                                                                         "nvidia-smi did not answer within %1 seconds")
                                                 .arg(ms / 1000)));
        job->cancel();
    });
    timer->start(m_options.execTimeoutMs);
    job->start();
}

} // namespace sandbar::metrics
