#pragma once

// Plain readings of NVIDIA GPUs, shared by the NVML reader and the nvidia-smi parser. This
// folder is plain C++20 and the C library only (no Qt): a GPU machine without Qt compiles it
// with g++ alone (scripts/gpu-probe.sh).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sandbar::gpu {

// A process using a GPU: a host PID (NVML sees the host's PID namespace) and the memory it
// holds on that device, absent where the driver does not tell (Windows WDDM, no permission).
struct ProcessInfo {
    unsigned pid = 0;
    std::optional<std::uint64_t> usedMemoryBytes;
};

// One GPU, or one MIG device of a GPU in MIG mode. Every figure is optional: NVML answers
// NOT_SUPPORTED, NO_PERMISSION or GPU_IS_LOST per field, and then the field is absent.
struct DeviceInfo {
    int index = -1;              // the physical GPU's index (a MIG device: its parent's)
    std::optional<int> migIndex; // a MIG device: its slot under the parent
    bool mig = false;            // a MIG device, or a GPU in MIG mode (no utilisation figures)
    std::string uuid;            // "GPU-…", a MIG device "MIG-…"
    std::string parentUuid;      // a MIG device: its GPU's UUID
    std::string name;
    std::optional<double> utilizationGpuPercent;    // busy time of the last sample period
    std::optional<double> utilizationMemoryPercent; // memory-controller busy time
    std::optional<std::uint64_t> memoryUsedBytes;
    std::optional<std::uint64_t> memoryTotalBytes;
    std::optional<double> temperatureC;
    std::optional<double> powerWatts;
    std::optional<double> powerLimitWatts;
    bool processesKnown = false; // false: the list below is not the device's full list
    std::vector<ProcessInfo> processes;
};

} // namespace sandbar::gpu
