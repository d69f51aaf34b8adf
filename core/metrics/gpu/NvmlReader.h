#pragma once

// Reads NVIDIA GPUs through NVML, loaded at run time (dlopen of libnvidia-ml.so.1, or
// LoadLibrary of nvml.dll on Windows): the library is never a build-time dependency, and a
// machine without an NVIDIA driver simply has no GPU readings. Qt-free.

#include "metrics/gpu/GpuTypes.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace sandbar::gpu {

enum class NvmlStatus {
    Ok,
    NoLibrary,    // libnvidia-ml / nvml.dll is not installed: no NVIDIA driver
    NoDriver,     // the library is there but nvmlInit failed (kernel module not loaded, ...)
    Incompatible, // the library lacks nvmlInit_v2 and friends (a driver older than R450)
    Failed,       // the driver stopped answering (nvmlDeviceGetCount failed)
};

struct NvmlSnapshot {
    NvmlStatus status = NvmlStatus::Ok;
    std::string detail;         // for logs: dlerror() or nvmlErrorString(); empty when Ok
    bool statusChanged = false; // the first snapshot with this status: report it, once
    std::vector<DeviceInfo> devices;
};

struct NvmlOptions {
    // Empty: $SANDBAR_NVML_LIBRARY, else libnvidia-ml.so.1 (nvml.dll on Windows). Tests pass
    // the path of a fake library built with the same entry points.
    std::string libraryPath;
    // After a failed nvmlInit (NoDriver) or a driver that stopped answering (Failed), how long
    // to answer from memory before calling nvmlInit again. A missing library (NoLibrary) or
    // one without the needed symbols (Incompatible) is never retried: installing a driver's
    // user-space library while Sandbar runs is rare and a restart picks it up, while a kernel
    // module can be loaded later (nvidia-modprobe on the first CUDA program, a driver reload)
    // and a retry then costs one nvmlInit call, not a dlopen that walks the library path.
    std::chrono::milliseconds retryInterval = std::chrono::seconds(60);
};

// Not thread-safe: one owner samples it (the GUI thread; a sample is a few NVML calls of a
// few microseconds each per GPU).
class NvmlReader
{
public:
    explicit NvmlReader(NvmlOptions options = {});
    ~NvmlReader(); // nvmlShutdown and unload
    NvmlReader(const NvmlReader &) = delete;
    NvmlReader &operator=(const NvmlReader &) = delete;

    // Loads and initialises NVML on the first call; then reads every GPU and MIG device.
    // Without a driver it answers from memory (status set, devices empty).
    NvmlSnapshot sample();

    NvmlStatus status() const;
    // The library path tried (after the option and the environment were applied).
    const std::string &libraryPath() const;
    // How many times the library was opened, and nvmlInit called (for tests: a missing driver
    // must cost nothing per sample).
    int loadAttempts() const;
    int initAttempts() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// "no NVIDIA driver", "NVIDIA driver too old", ... (English; the Qt side translates by status).
const char *nvmlStatusText(NvmlStatus status);

} // namespace sandbar::gpu
