// A fake libnvidia-ml.so.1: the NVML entry points the reader resolves, with canned GPUs per
// scenario. The scenario is read from $SANDBAR_FAKE_NVML_SCENARIO at every nvmlInit_v2:
//   one           one H200, every field, two processes
//   eight         eight H100s
//   mig           GPU 0 in MIG mode (slots 0 and 2 used, 1 empty), GPU 1 a plain GPU
//   notsupported  every optional field NOT_SUPPORTED (name and UUID only)
//   nopermission  processes and the enforced power limit NO_PERMISSION
//   lost          GPU 1's fields GPU_IS_LOST, GPU 2's handle GPU_IS_LOST
//   initfail      nvmlInit_v2 answers DRIVER_NOT_LOADED
//   countfail     nvmlInit_v2 works, nvmlDeviceGetCount_v2 answers UNKNOWN
//   growing       processes start between the count query and the fill, twice
//   memv1         nvmlDeviceGetMemoryInfo_v2 answers ARGUMENT_VERSION_MISMATCH
//   usedna        the processes' memory is NVML_VALUE_NOT_AVAILABLE
//   noprocs       one GPU without processes
// sandbarFakeNvmlCalls(name) counts calls per entry point; sandbarFakeNvmlReset() zeroes them.

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

using nvmlReturn_t = int;
constexpr nvmlReturn_t OK = 0, UNINITIALIZED = 1, INVALID_ARGUMENT = 2, NOT_SUPPORTED = 3, NO_PERMISSION = 4,
                       NOT_FOUND = 6, INSUFFICIENT_SIZE = 7, DRIVER_NOT_LOADED = 9, GPU_IS_LOST = 15,
                       ARGUMENT_VERSION_MISMATCH = 25, UNKNOWN = 999;
constexpr unsigned long long kNA = ~0ULL;
constexpr unsigned long long MiB = 1024ULL * 1024ULL;
constexpr unsigned long long GiB = 1024ULL * MiB;

struct Memory {
    unsigned long long total, free, used;
};
struct MemoryV2 {
    unsigned int version;
    unsigned long long total, reserved, free, used;
};
struct Utilization {
    unsigned int gpu, memory;
};
struct Process {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId, computeInstanceId;
};

struct Device {
    std::string name, uuid;
    unsigned utilGpu = 0, utilMem = 0;
    unsigned long long memTotal = 0, memUsed = 0, memReserved = 0;
    unsigned temp = 0, powerMw = 0, limitMw = 0, mgmtLimitMw = 0;
    std::vector<Process> procs;
    std::vector<unsigned> procGrowth; // the process count each successive call sees
    unsigned procCalls = 0;
    bool mig = false;
    std::vector<int> migSlots; // -1 = empty slot, else an index into migDevices
    std::vector<Device> migDevices;
    nvmlReturn_t rcName = OK, rcUuid = OK, rcUtil = OK, rcMem = OK, rcMemV2 = OK, rcTemp = OK, rcPower = OK,
                 rcLimit = OK, rcMgmtLimit = OK, rcProcs = OK, rcMigMode = OK;
};

struct State {
    std::string scenario;
    bool initialised = false;
    nvmlReturn_t rcInit = OK, rcCount = OK;
    std::vector<Device> gpus;
    std::vector<nvmlReturn_t> rcHandle;
    std::map<std::string, int> calls;
};

State &state()
{
    static State s;
    return s;
}

void count(const char *fn)
{
    ++state().calls[fn];
}

Device h200()
{
    Device d;
    d.name = "NVIDIA H200";
    d.uuid = "GPU-11111111-2222-3333-4444-555555555555";
    d.utilGpu = 37;
    d.utilMem = 12;
    d.memTotal = 143771 * MiB;
    d.memUsed = 20 * GiB;
    d.memReserved = 512 * MiB;
    d.temp = 41;
    d.powerMw = 123456;
    d.limitMw = 700000;
    d.mgmtLimitMw = 650000;
    d.procs = {{4242, 1 * GiB, 0, 0}, {4343, 512 * MiB, 0, 0}};
    d.rcMigMode = NOT_SUPPORTED; // not MIG-capable
    return d;
}

void build(const std::string &scenario)
{
    State &s = state();
    s.scenario = scenario;
    s.rcInit = OK;
    s.rcCount = OK;
    s.gpus.clear();
    if (scenario == "initfail") {
        s.rcInit = DRIVER_NOT_LOADED;
    } else if (scenario == "countfail") {
        s.rcCount = UNKNOWN;
    } else if (scenario == "eight") {
        for (int i = 0; i < 8; ++i) {
            Device d = h200();
            d.name = "NVIDIA H100 80GB HBM3";
            d.uuid = "GPU-0000000" + std::to_string(i) + "-aaaa-bbbb-cccc-dddddddddddd";
            d.utilGpu = unsigned(i * 10);
            d.memTotal = 81559 * MiB;
            d.memUsed = unsigned(i) * GiB;
            d.procs.clear();
            s.gpus.push_back(d);
        }
    } else if (scenario == "mig") {
        Device a = h200();
        a.name = "NVIDIA A100-SXM4-40GB";
        a.uuid = "GPU-a100a100-0000-0000-0000-000000000000";
        a.rcMigMode = OK;
        a.mig = true;
        a.rcUtil = NOT_SUPPORTED;
        a.procs.clear();
        a.rcProcs = NO_PERMISSION; // listing every instance's processes needs root
        Device s0;
        s0.name = "NVIDIA A100-SXM4-40GB MIG 1g.5gb";
        s0.uuid = "MIG-aaaaaaaa-0000-0000-0000-000000000000";
        s0.memTotal = 4864 * MiB;
        s0.memUsed = 100 * MiB;
        s0.rcUtil = NOT_SUPPORTED;
        s0.rcTemp = NOT_SUPPORTED;
        s0.rcPower = NOT_SUPPORTED;
        s0.rcLimit = NOT_SUPPORTED;
        s0.rcMgmtLimit = NOT_SUPPORTED;
        s0.rcMigMode = NOT_SUPPORTED;
        s0.procs = {{5151, 90 * MiB, 1, 0}};
        Device s2 = s0;
        s2.name = "NVIDIA A100-SXM4-40GB MIG 3g.20gb";
        s2.uuid = "MIG-bbbbbbbb-0000-0000-0000-000000000000";
        s2.memTotal = 19968 * MiB;
        s2.procs.clear();
        a.migDevices = {s0, s2};
        a.migSlots = {0, -1, 1, -1, -1, -1, -1};
        Device b = h200();
        b.name = "NVIDIA A100-SXM4-40GB";
        b.uuid = "GPU-a100a100-0000-0000-0000-000000000001";
        b.rcMigMode = OK; // capable, disabled
        s.gpus = {a, b};
    } else if (scenario == "notsupported") {
        Device d = h200();
        d.rcUtil = d.rcMem = d.rcMemV2 = d.rcTemp = d.rcPower = d.rcLimit = d.rcMgmtLimit = d.rcProcs = NOT_SUPPORTED;
        s.gpus = {d};
    } else if (scenario == "nopermission") {
        Device d = h200();
        d.rcProcs = NO_PERMISSION;
        d.rcLimit = NO_PERMISSION;
        s.gpus = {d};
    } else if (scenario == "lost") {
        Device d0 = h200();
        Device d1 = h200();
        d1.uuid = "GPU-lost";
        d1.rcName = d1.rcUuid = d1.rcUtil = d1.rcMem = d1.rcMemV2 = d1.rcTemp = d1.rcPower = d1.rcLimit =
            d1.rcMgmtLimit = d1.rcProcs = d1.rcMigMode = GPU_IS_LOST;
        s.gpus = {d0, d1, h200()};
    } else if (scenario == "growing") {
        Device d = h200();
        d.procs.clear();
        for (unsigned i = 0; i < 11; ++i)
            d.procs.push_back({1000 + i, (i + 1) * MiB, 0, 0});
        d.procGrowth = {2, 11}; // then 11 for good
        s.gpus = {d};
    } else if (scenario == "memv1") {
        Device d = h200();
        d.rcMemV2 = ARGUMENT_VERSION_MISMATCH;
        s.gpus = {d};
    } else if (scenario == "usedna") {
        Device d = h200();
        d.procs = {{4242, kNA, 0, 0}, {4343, 512 * MiB, 0, 0}};
        s.gpus = {d};
    } else if (scenario == "noprocs") {
        Device d = h200();
        d.procs.clear();
        s.gpus = {d};
    } else { // "one" and anything unknown
        s.gpus = {h200()};
    }
    s.rcHandle.assign(s.gpus.size(), OK);
    if (scenario == "lost")
        s.rcHandle[2] = GPU_IS_LOST;
}

Device *dev(void *handle)
{
    return static_cast<Device *>(handle);
}

void copyString(const std::string &s, char *buf, unsigned size)
{
    std::strncpy(buf, s.c_str(), size);
    if (size)
        buf[size - 1] = '\0';
}

} // namespace

#define FAKE_API extern "C" __attribute__((visibility("default")))

FAKE_API int sandbarFakeNvmlCalls(const char *fn)
{
    auto it = state().calls.find(fn);
    return it == state().calls.end() ? 0 : it->second;
}

FAKE_API void sandbarFakeNvmlReset()
{
    state().calls.clear();
}

FAKE_API nvmlReturn_t nvmlInit_v2()
{
    count("nvmlInit_v2");
    const char *env = std::getenv("SANDBAR_FAKE_NVML_SCENARIO");
    build(env ? env : "one");
    if (state().rcInit != OK)
        return state().rcInit;
    state().initialised = true;
    return OK;
}

FAKE_API nvmlReturn_t nvmlShutdown()
{
    count("nvmlShutdown");
    if (!state().initialised)
        return UNINITIALIZED;
    state().initialised = false;
    return OK;
}

FAKE_API const char *nvmlErrorString(nvmlReturn_t r)
{
    switch (r) {
    case OK: return "Success";
    case NOT_SUPPORTED: return "Not Supported";
    case NO_PERMISSION: return "Insufficient Permissions";
    case DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case GPU_IS_LOST: return "GPU is lost";
    default: return "Unknown Error";
    }
}

FAKE_API nvmlReturn_t nvmlDeviceGetCount_v2(unsigned *n)
{
    count("nvmlDeviceGetCount_v2");
    if (!state().initialised)
        return UNINITIALIZED;
    if (state().rcCount != OK)
        return state().rcCount;
    *n = unsigned(state().gpus.size());
    return OK;
}

FAKE_API nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned i, void **out)
{
    count("nvmlDeviceGetHandleByIndex_v2");
    if (!state().initialised)
        return UNINITIALIZED;
    if (i >= state().gpus.size())
        return INVALID_ARGUMENT;
    if (state().rcHandle[i] != OK)
        return state().rcHandle[i];
    *out = &state().gpus[i];
    return OK;
}

FAKE_API nvmlReturn_t nvmlDeviceGetName(void *h, char *buf, unsigned size)
{
    if (dev(h)->rcName != OK)
        return dev(h)->rcName;
    copyString(dev(h)->name, buf, size);
    return OK;
}

FAKE_API nvmlReturn_t nvmlDeviceGetUUID(void *h, char *buf, unsigned size)
{
    if (dev(h)->rcUuid != OK)
        return dev(h)->rcUuid;
    copyString(dev(h)->uuid, buf, size);
    return OK;
}

FAKE_API nvmlReturn_t nvmlDeviceGetUtilizationRates(void *h, Utilization *u)
{
    count("nvmlDeviceGetUtilizationRates");
    if (dev(h)->rcUtil != OK)
        return dev(h)->rcUtil;
    u->gpu = dev(h)->utilGpu;
    u->memory = dev(h)->utilMem;
    return OK;
}

// v1: `used` includes what the driver reserves.
FAKE_API nvmlReturn_t nvmlDeviceGetMemoryInfo(void *h, Memory *m)
{
    count("nvmlDeviceGetMemoryInfo");
    if (dev(h)->rcMem != OK)
        return dev(h)->rcMem;
    m->total = dev(h)->memTotal;
    m->used = dev(h)->memUsed + dev(h)->memReserved;
    m->free = m->total - m->used;
    return OK;
}

FAKE_API nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(void *h, MemoryV2 *m)
{
    count("nvmlDeviceGetMemoryInfo_v2");
    if (dev(h)->rcMemV2 != OK)
        return dev(h)->rcMemV2;
    if (m->version != (unsigned(sizeof(MemoryV2)) | (2U << 24U)))
        return ARGUMENT_VERSION_MISMATCH;
    m->total = dev(h)->memTotal;
    m->reserved = dev(h)->memReserved;
    m->used = dev(h)->memUsed;
    m->free = m->total - m->used - m->reserved;
    return OK;
}

FAKE_API nvmlReturn_t nvmlDeviceGetTemperature(void *h, int sensor, unsigned *t)
{
    if (sensor != 0)
        return INVALID_ARGUMENT;
    if (dev(h)->rcTemp != OK)
        return dev(h)->rcTemp;
    *t = dev(h)->temp;
    return OK;
}

FAKE_API nvmlReturn_t nvmlDeviceGetPowerUsage(void *h, unsigned *mw)
{
    if (dev(h)->rcPower != OK)
        return dev(h)->rcPower;
    *mw = dev(h)->powerMw;
    return OK;
}

FAKE_API nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(void *h, unsigned *mw)
{
    if (dev(h)->rcLimit != OK)
        return dev(h)->rcLimit;
    *mw = dev(h)->limitMw;
    return OK;
}

FAKE_API nvmlReturn_t nvmlDeviceGetPowerManagementLimit(void *h, unsigned *mw)
{
    if (dev(h)->rcMgmtLimit != OK)
        return dev(h)->rcMgmtLimit;
    *mw = dev(h)->mgmtLimitMw;
    return OK;
}

FAKE_API nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(void *h, unsigned *n, Process *out)
{
    count("nvmlDeviceGetComputeRunningProcesses_v3");
    Device *d = dev(h);
    if (d->rcProcs != OK)
        return d->rcProcs;
    if (!n)
        return INVALID_ARGUMENT;
    unsigned have = unsigned(d->procs.size());
    if (d->procCalls < d->procGrowth.size())
        have = d->procGrowth[d->procCalls];
    ++d->procCalls;
    if (*n < have) {
        *n = have;
        return INSUFFICIENT_SIZE;
    }
    if (have > 0 && !out)
        return INVALID_ARGUMENT;
    for (unsigned i = 0; i < have; ++i)
        out[i] = d->procs[i];
    *n = have;
    return OK;
}

FAKE_API nvmlReturn_t nvmlDeviceGetMigMode(void *h, unsigned *current, unsigned *pending)
{
    if (dev(h)->rcMigMode != OK)
        return dev(h)->rcMigMode;
    *current = dev(h)->mig ? 1 : 0;
    *pending = *current;
    return OK;
}

FAKE_API nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(void *h, unsigned *n)
{
    if (!dev(h)->mig)
        return NOT_SUPPORTED;
    *n = unsigned(dev(h)->migSlots.size());
    return OK;
}

FAKE_API nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(void *h, unsigned i, void **out)
{
    Device *d = dev(h);
    if (!d->mig)
        return NOT_SUPPORTED;
    if (i >= d->migSlots.size())
        return INVALID_ARGUMENT;
    if (d->migSlots[i] < 0)
        return NOT_FOUND;
    *out = &d->migDevices[std::size_t(d->migSlots[i])];
    return OK;
}
