#pragma once

// GPU readings for sessions: NVML on this machine where the session's engine runs here
// (Local, a Docker or Podman engine on this host), nvidia-smi run inside the session where
// it does not (cloud sandboxes, remote engines). The readers underneath are Qt-free
// (core/metrics/gpu, library sandbar-gpu); this file turns their plain structs into
// GpuReading.

#include "common/Result.h"
#include "metrics/StatsSample.h"
#include "metrics/gpu/GpuTypes.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace sandbar {
class Provider;
}

namespace sandbar::gpu {
class NvmlReader;
}

namespace sandbar::metrics {

// Which host processes are a session's, by /proc/PID/cgroup (see gpu::CgroupMatch): a
// container id (Docker, Podman) or a cgroup path tail ("sandbar-<id>" for the Local provider).
struct SessionCgroupMatch {
    QString containerId;
    QString cgroupPath;

    bool isEmpty() const { return containerId.isEmpty() && cgroupPath.isEmpty(); }
};

struct GpuSourceOptions {
    QString nvmlLibrary;                        // empty: $SANDBAR_NVML_LIBRARY, else the system's
    QString procRoot = QStringLiteral("/proc"); // tests pass a fake tree
    int nvmlRetrySeconds = 60;                  // after nvmlInit failed (see gpu::NvmlOptions)
    // Several sessions sampled within this time share one NVML sample (NVML's own figures
    // change at most every 1/6 s).
    int nvmlMaxAgeMs = 200;
    int execTimeoutMs = 15000; // nvidia-smi can hang for seconds on a sick driver
};

// A plain reading as the charts take it.
GpuReading toGpuReading(const gpu::DeviceInfo &device);

// The devices a session was given: ids are UUIDs (GPU-..., MIG-..., case-insensitive) or
// indexes, as SessionInfo::gpuUuids holds them. A GPU's UUID also selects its MIG devices;
// an index selects the GPU only. No ids: every device.
bool gpuSelected(const gpu::DeviceInfo &device, const QStringList &ids);

class GpuSource : public QObject
{
    Q_OBJECT
public:
    explicit GpuSource(GpuSourceOptions options = {}, QObject *parent = nullptr);
    ~GpuSource() override;

    // NVML on this machine, for a session whose engine runs here: the session's GPUs (see
    // gpuSelected) with the whole device's figures, and sessionMemoryBytes from the device's
    // processes whose /proc/PID/cgroup matches (absent when match is empty or the driver
    // does not list processes). Synchronous: a few NVML calls of microseconds each. Without
    // a driver the error (Unavailable, "no NVIDIA driver") comes from memory, the library is
    // not loaded again, and it is logged once.
    Result<QList<GpuReading>> localReadings(const QStringList &uuids, const SessionCgroupMatch &match);

    // Runs nvidia-smi in the session through Provider::exec and parses its output; the only
    // way for cloud sessions and remote engines. done is called once, on context's thread,
    // and never once context is gone (also not synchronously from this call). A session
    // without nvidia-smi (exit 127, "not found") gets a NotFound error, logged once; later
    // calls for it answer that error at once without running anything, until
    // forgetSession().
    void sampleViaExec(Provider *provider, const QString &sessionId, QObject *context,
                       std::function<void(Result<QList<GpuReading>>)> done);
    void forgetSession(Provider *provider, const QString &sessionId);

    const GpuSourceOptions &options() const { return m_options; }

private:
    Result<QList<GpuReading>> fromExec(int exitCode, const QByteArray &out, const QByteArray &err);
    void rememberMissing(const QString &key, const Error &error);

    GpuSourceOptions m_options;
    std::unique_ptr<gpu::NvmlReader> m_nvml;
    QElapsedTimer m_clock;
    std::vector<gpu::DeviceInfo> m_lastDevices;
    std::optional<Error> m_lastError;
    qint64 m_lastSampleMs = -1;
    QHash<QString, Error> m_noSmi; // account/session -> why nvidia-smi cannot run there
};

} // namespace sandbar::metrics
