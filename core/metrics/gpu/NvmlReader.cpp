#include "metrics/gpu/NvmlReader.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#else
#include <dlfcn.h>
#endif

namespace sandbar::gpu {

// The few NVML declarations we need, from nvml.h (NVML 12.x): no SDK at build time. A named
// namespace, not an anonymous one: NvmlReader::Impl holds these types, and a class with
// external linkage may not (GCC's -Wsubobject-linkage, seen when a unity batch includes this).
namespace nvmlabi {

using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st *;
constexpr nvmlReturn_t NVML_SUCCESS = 0;
constexpr nvmlReturn_t NVML_ERROR_NOT_SUPPORTED = 3;
constexpr nvmlReturn_t NVML_ERROR_NOT_FOUND = 6;
constexpr nvmlReturn_t NVML_ERROR_INSUFFICIENT_SIZE = 7;
constexpr unsigned NVML_TEMPERATURE_GPU = 0;
constexpr unsigned NVML_DEVICE_MIG_ENABLE = 1;
constexpr unsigned kNameSize = 96; // NVML_DEVICE_NAME_V2_BUFFER_SIZE
constexpr unsigned kUuidSize = 96; // NVML_DEVICE_UUID_V2_BUFFER_SIZE
// nvmlProcessInfo_t's usedGpuMemory when the driver cannot tell (NVML_VALUE_NOT_AVAILABLE).
constexpr unsigned long long kValueNotAvailable = ~0ULL;

struct nvmlUtilization_t {
    unsigned int gpu, memory;
};
struct nvmlMemory_t {
    unsigned long long total, free, used;
};
struct nvmlMemory_v2_t {
    unsigned int version;
    unsigned long long total, reserved, free, used;
};
// NVML_STRUCT_VERSION(Memory, 2)
constexpr unsigned kMemoryV2Version = unsigned(sizeof(nvmlMemory_v2_t)) | (2U << 24U);
// nvmlTemperature_v1_t, for nvmlDeviceGetTemperatureV (NVML 12.6+), where the deprecated
// nvmlDeviceGetTemperature is gone.
struct nvmlTemperature_v1_t {
    unsigned int version;
    int sensorType;
    int temperature;
};
constexpr unsigned kTemperatureV1Version = unsigned(sizeof(nvmlTemperature_v1_t)) | (1U << 24U);
// nvmlProcessInfo_t (v2 and v3 of the call share it).
struct nvmlProcessInfo_t {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId, computeInstanceId;
};

using FnVoid = nvmlReturn_t (*)();
using FnErrorString = const char *(*)(nvmlReturn_t);
using FnCount = nvmlReturn_t (*)(unsigned *);
using FnHandle = nvmlReturn_t (*)(unsigned, nvmlDevice_t *);
using FnString = nvmlReturn_t (*)(nvmlDevice_t, char *, unsigned);
using FnUtil = nvmlReturn_t (*)(nvmlDevice_t, nvmlUtilization_t *);
using FnMem = nvmlReturn_t (*)(nvmlDevice_t, nvmlMemory_t *);
using FnMemV2 = nvmlReturn_t (*)(nvmlDevice_t, nvmlMemory_v2_t *);
using FnTemp = nvmlReturn_t (*)(nvmlDevice_t, unsigned, unsigned *);
using FnTempV = nvmlReturn_t (*)(nvmlDevice_t, nvmlTemperature_v1_t *);
using FnUint = nvmlReturn_t (*)(nvmlDevice_t, unsigned *);
using FnProcs = nvmlReturn_t (*)(nvmlDevice_t, unsigned *, nvmlProcessInfo_t *);
using FnMigMode = nvmlReturn_t (*)(nvmlDevice_t, unsigned *, unsigned *);
using FnMigHandle = nvmlReturn_t (*)(nvmlDevice_t, unsigned, nvmlDevice_t *);

} // namespace nvmlabi
using namespace nvmlabi;

namespace {

#ifdef _WIN32
using LibHandle = HMODULE;
#else
using LibHandle = void *;
#endif

std::string defaultLibrary()
{
#ifdef _WIN32
    return "nvml.dll";
#else
    return "libnvidia-ml.so.1";
#endif
}

LibHandle openLibrary(const std::string &path, std::string &error)
{
#ifdef _WIN32
    // With DCH drivers nvml.dll is in System32; older drivers put it under NVSMI. Only these
    // two places are searched, never the current folder (DLL planting).
    HMODULE h = nullptr;
    if (path.find_first_of("\\/") != std::string::npos)
        h = LoadLibraryA(path.c_str());
    else
        h = LoadLibraryExA(path.c_str(), nullptr, LOAD_LIBRARY_SEARCH_SYSTEM32);
    if (!h && path == defaultLibrary()) {
        char pf[MAX_PATH] = {};
        const DWORD n = GetEnvironmentVariableA("ProgramW6432", pf, MAX_PATH);
        if (n > 0 && n < MAX_PATH)
            h = LoadLibraryA((std::string(pf) + "\\NVIDIA Corporation\\NVSMI\\nvml.dll").c_str());
    }
    if (!h)
        error = path + ": error " + std::to_string(GetLastError());
    return h;
#else
    void *h = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        error = e ? e : path + ": cannot be loaded";
    }
    return h;
#endif
}

void closeLibrary(LibHandle h)
{
#ifdef _WIN32
    FreeLibrary(h);
#else
    dlclose(h);
#endif
}

template <typename Fn>
Fn resolve(LibHandle h, const char *name)
{
#ifdef _WIN32
    return reinterpret_cast<Fn>(reinterpret_cast<void *>(GetProcAddress(h, name)));
#else
    return reinterpret_cast<Fn>(dlsym(h, name));
#endif
}

std::string fromBuffer(const char *buf, std::size_t size)
{
    return std::string(buf, strnlen(buf, size));
}

} // namespace

const char *nvmlStatusText(NvmlStatus status)
{
    switch (status) {
    case NvmlStatus::Ok: return "ok";
    case NvmlStatus::NoLibrary: return "no NVIDIA driver";
    case NvmlStatus::NoDriver: return "the NVIDIA driver is not loaded";
    case NvmlStatus::Incompatible: return "the NVIDIA driver is too old";
    case NvmlStatus::Failed: return "the NVIDIA driver stopped answering";
    }
    return "unknown";
}

struct NvmlReader::Impl {
    NvmlOptions options;
    std::string path;
    LibHandle lib = nullptr;
    bool initialised = false;
    bool loadTried = false;
    NvmlStatus status = NvmlStatus::Ok;
    std::string detail;
    bool reported = false; // the current status went out with statusChanged
    std::chrono::steady_clock::time_point nextTry{};
    int loads = 0;
    int inits = 0;

    // Required.
    FnVoid init = nullptr;
    FnVoid shutdown = nullptr;
    FnCount count = nullptr;
    FnHandle handle = nullptr;
    // Optional: an absent symbol leaves its field absent.
    FnErrorString errorString = nullptr;
    FnString name = nullptr;
    FnString uuid = nullptr;
    FnUtil util = nullptr;
    FnMem mem = nullptr;
    FnMemV2 memV2 = nullptr;
    FnTemp temp = nullptr;
    FnTempV tempV = nullptr;
    FnUint power = nullptr;
    FnUint powerLimit = nullptr;
    FnUint powerMgmtLimit = nullptr;
    FnProcs procs = nullptr;
    FnMigMode migMode = nullptr;
    FnUint maxMig = nullptr;
    FnMigHandle migHandle = nullptr;

    void setStatus(NvmlStatus s, std::string why)
    {
        if (s != status)
            reported = false;
        status = s;
        detail = std::move(why);
    }

    std::string errorText(nvmlReturn_t r) const
    {
        const char *s = errorString ? errorString(r) : nullptr;
        return s ? std::string(s) + " (" + std::to_string(r) + ")" : "NVML error " + std::to_string(r);
    }

    bool load()
    {
        loadTried = true;
        ++loads;
        std::string error;
        lib = openLibrary(path, error);
        if (!lib) {
            setStatus(NvmlStatus::NoLibrary, error);
            return false;
        }
        init = resolve<FnVoid>(lib, "nvmlInit_v2");
        shutdown = resolve<FnVoid>(lib, "nvmlShutdown");
        count = resolve<FnCount>(lib, "nvmlDeviceGetCount_v2");
        handle = resolve<FnHandle>(lib, "nvmlDeviceGetHandleByIndex_v2");
        if (!init || !shutdown || !count || !handle) {
            setStatus(NvmlStatus::Incompatible, path + " lacks nvmlInit_v2, nvmlDeviceGetCount_v2 or "
                                                       "nvmlDeviceGetHandleByIndex_v2");
            closeLibrary(lib);
            lib = nullptr;
            return false;
        }
        errorString = resolve<FnErrorString>(lib, "nvmlErrorString");
        name = resolve<FnString>(lib, "nvmlDeviceGetName");
        uuid = resolve<FnString>(lib, "nvmlDeviceGetUUID");
        util = resolve<FnUtil>(lib, "nvmlDeviceGetUtilizationRates");
        mem = resolve<FnMem>(lib, "nvmlDeviceGetMemoryInfo");
        memV2 = resolve<FnMemV2>(lib, "nvmlDeviceGetMemoryInfo_v2");
        temp = resolve<FnTemp>(lib, "nvmlDeviceGetTemperature");
        if (!temp)
            tempV = resolve<FnTempV>(lib, "nvmlDeviceGetTemperatureV");
        power = resolve<FnUint>(lib, "nvmlDeviceGetPowerUsage");
        powerLimit = resolve<FnUint>(lib, "nvmlDeviceGetEnforcedPowerLimit");
        powerMgmtLimit = resolve<FnUint>(lib, "nvmlDeviceGetPowerManagementLimit");
        procs = resolve<FnProcs>(lib, "nvmlDeviceGetComputeRunningProcesses_v3");
        if (!procs) // R470..R510 drivers; the v2 call fills the same struct
            procs = resolve<FnProcs>(lib, "nvmlDeviceGetComputeRunningProcesses_v2");
        migMode = resolve<FnMigMode>(lib, "nvmlDeviceGetMigMode");
        maxMig = resolve<FnUint>(lib, "nvmlDeviceGetMaxMigDeviceCount");
        migHandle = resolve<FnMigHandle>(lib, "nvmlDeviceGetMigDeviceHandleByIndex");
        return true;
    }

    // True once NVML is usable; otherwise answers from memory until a retry is due.
    bool ready()
    {
        if (initialised)
            return true;
        if (loadTried && !lib)
            return false; // NoLibrary / Incompatible: never retried (see NvmlOptions)
        const auto now = std::chrono::steady_clock::now();
        if (loadTried && now < nextTry)
            return false;
        if (!lib && !load())
            return false;
        ++inits;
        const nvmlReturn_t r = init();
        if (r != NVML_SUCCESS) {
            setStatus(NvmlStatus::NoDriver, "nvmlInit_v2: " + errorText(r));
            nextTry = now + options.retryInterval;
            return false;
        }
        initialised = true;
        setStatus(NvmlStatus::Ok, {});
        return true;
    }

    void readProcesses(nvmlDevice_t dev, DeviceInfo &out) const
    {
        if (!procs)
            return;
        // Ask for the count first (INSUFFICIENT_SIZE), then fill; processes may start in
        // between, so leave room and try again a few times.
        unsigned n = 0;
        nvmlReturn_t r = procs(dev, &n, nullptr);
        if (r == NVML_SUCCESS) {
            out.processesKnown = true; // none
            return;
        }
        std::vector<nvmlProcessInfo_t> buf;
        for (int attempt = 0; attempt < 4 && r == NVML_ERROR_INSUFFICIENT_SIZE; ++attempt) {
            n += 8;
            buf.assign(n, nvmlProcessInfo_t{});
            r = procs(dev, &n, buf.data());
        }
        if (r != NVML_SUCCESS)
            return; // NOT_SUPPORTED, NO_PERMISSION, GPU_IS_LOST, still growing: unknown
        out.processesKnown = true;
        const std::size_t got = std::min<std::size_t>(n, buf.size());
        out.processes.reserve(got);
        for (std::size_t i = 0; i < got; ++i) {
            ProcessInfo p;
            p.pid = buf[i].pid;
            if (buf[i].usedGpuMemory != kValueNotAvailable)
                p.usedMemoryBytes = buf[i].usedGpuMemory;
            out.processes.push_back(p);
        }
    }

    // The figures every device has (a GPU or a MIG device); each is absent on any error.
    void readCommon(nvmlDevice_t dev, DeviceInfo &out) const
    {
        char buf[kUuidSize > kNameSize ? kUuidSize : kNameSize];
        if (name && name(dev, buf, kNameSize) == NVML_SUCCESS)
            out.name = fromBuffer(buf, kNameSize);
        if (uuid && uuid(dev, buf, kUuidSize) == NVML_SUCCESS)
            out.uuid = fromBuffer(buf, kUuidSize);
        nvmlUtilization_t u{};
        if (util && util(dev, &u) == NVML_SUCCESS) {
            out.utilizationGpuPercent = u.gpu;
            out.utilizationMemoryPercent = u.memory;
        }
        // v2 separates memory reserved by the driver from what programs use; v1's `used`
        // includes it. Fall back to v1 on drivers without v2 (or that refuse the version).
        nvmlMemory_v2_t m2{};
        m2.version = kMemoryV2Version;
        nvmlMemory_t m1{};
        if (memV2 && memV2(dev, &m2) == NVML_SUCCESS) {
            out.memoryUsedBytes = m2.used;
            out.memoryTotalBytes = m2.total;
        } else if (mem && mem(dev, &m1) == NVML_SUCCESS) {
            out.memoryUsedBytes = m1.used;
            out.memoryTotalBytes = m1.total;
        }
        readProcesses(dev, out);
    }

    void readBoard(nvmlDevice_t dev, DeviceInfo &out) const
    {
        unsigned v = 0;
        nvmlTemperature_v1_t t{kTemperatureV1Version, int(NVML_TEMPERATURE_GPU), 0};
        if (temp && temp(dev, NVML_TEMPERATURE_GPU, &v) == NVML_SUCCESS)
            out.temperatureC = v;
        else if (tempV && tempV(dev, &t) == NVML_SUCCESS)
            out.temperatureC = t.temperature;
        if (power && power(dev, &v) == NVML_SUCCESS)
            out.powerWatts = v / 1000.0;
        if (powerLimit && powerLimit(dev, &v) == NVML_SUCCESS)
            out.powerLimitWatts = v / 1000.0;
        else if (powerMgmtLimit && powerMgmtLimit(dev, &v) == NVML_SUCCESS)
            out.powerLimitWatts = v / 1000.0;
    }

    void readMigDevices(nvmlDevice_t parent, const DeviceInfo &gpu, std::vector<DeviceInfo> &out) const
    {
        unsigned max = 0;
        if (!maxMig || !migHandle || maxMig(parent, &max) != NVML_SUCCESS)
            return;
        for (unsigned i = 0; i < max && i < 64; ++i) {
            nvmlDevice_t mig = nullptr;
            const nvmlReturn_t r = migHandle(parent, i, &mig);
            if (r == NVML_ERROR_NOT_FOUND)
                continue; // an empty slot
            if (r != NVML_SUCCESS || !mig)
                continue;
            DeviceInfo slice;
            slice.index = gpu.index;
            slice.migIndex = int(i);
            slice.mig = true;
            slice.parentUuid = gpu.uuid;
            readCommon(mig, slice);
            // Utilisation is not reported for MIG devices (NOT_SUPPORTED); should a driver
            // answer anyway, it is the whole GPU's, which would mislead next to a slice.
            slice.utilizationGpuPercent.reset();
            slice.utilizationMemoryPercent.reset();
            out.push_back(std::move(slice));
        }
    }

    std::vector<DeviceInfo> readAll()
    {
        std::vector<DeviceInfo> out;
        unsigned n = 0;
        const nvmlReturn_t r = count(&n);
        if (r != NVML_SUCCESS) {
            // The driver went away (unloaded, GPU fallen off the bus): start over later.
            setStatus(NvmlStatus::Failed, "nvmlDeviceGetCount_v2: " + errorText(r));
            shutdown();
            initialised = false;
            nextTry = std::chrono::steady_clock::now() + options.retryInterval;
            return out;
        }
        out.reserve(n);
        for (unsigned i = 0; i < n; ++i) {
            nvmlDevice_t dev = nullptr;
            if (handle(i, &dev) != NVML_SUCCESS || !dev)
                continue; // GPU_IS_LOST, NO_PERMISSION (a GPU cgroup hides it): not listed
            DeviceInfo info;
            info.index = int(i);
            unsigned current = 0, pending = 0;
            const nvmlReturn_t mr = migMode ? migMode(dev, &current, &pending) : NVML_ERROR_NOT_SUPPORTED;
            info.mig = mr == NVML_SUCCESS && current == NVML_DEVICE_MIG_ENABLE;
            readCommon(dev, info);
            readBoard(dev, info);
            if (info.mig) {
                info.utilizationGpuPercent.reset();
                info.utilizationMemoryPercent.reset();
            }
            const DeviceInfo gpu = info;
            out.push_back(std::move(info));
            if (gpu.mig)
                readMigDevices(dev, gpu, out);
        }
        return out;
    }
};

NvmlReader::NvmlReader(NvmlOptions options)
    : d(std::make_unique<Impl>())
{
    d->options = std::move(options);
    d->path = d->options.libraryPath;
    if (d->path.empty()) {
        const char *env = std::getenv("SANDBAR_NVML_LIBRARY");
        d->path = env && *env ? env : defaultLibrary();
    }
}

NvmlReader::~NvmlReader()
{
    if (d->initialised)
        d->shutdown();
    if (d->lib)
        closeLibrary(d->lib);
}

NvmlSnapshot NvmlReader::sample()
{
    NvmlSnapshot s;
    if (d->ready())
        s.devices = d->readAll();
    s.status = d->status;
    s.detail = d->detail;
    s.statusChanged = !d->reported;
    d->reported = true;
    return s;
}

NvmlStatus NvmlReader::status() const
{
    return d->status;
}

const std::string &NvmlReader::libraryPath() const
{
    return d->path;
}

int NvmlReader::loadAttempts() const
{
    return d->loads;
}

int NvmlReader::initAttempts() const
{
    return d->inits;
}

} // namespace sandbar::gpu
