// A Qt-free probe of the GPU readers on a real GPU machine (scripts/gpu-probe.sh builds it with
// g++ alone): prints every NVML reading, times samples, compares with nvidia-smi through the
// product's parser, and watches a workload's PID.
//   nvml_probe [--lib PATH] [--bench N] [--smi] [--watch PID --samples N --interval-ms MS]
// Exit: 0 all asked checks held; 1 a check failed; 2 NVML not usable; 3 the workload ran
// (utilisation > 0) but its PID is not in NVML's list (PID namespace: NVML lists host PIDs).
#include "metrics/gpu/NvidiaSmi.h"
#include "metrics/gpu/NvmlReader.h"
#include "metrics/gpu/ProcCgroup.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace sandbar::gpu;

namespace {

template <typename T>
std::string opt(const std::optional<T> &v)
{
    if (!v)
        return "null";
    std::ostringstream s;
    s << *v;
    return s.str();
}

std::string quoted(const std::string &s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

void printDevice(const DeviceInfo &d, const char *indent)
{
    std::printf("%s{\"index\": %d, \"migIndex\": %s, \"mig\": %s, \"uuid\": %s, \"parentUuid\": %s, \"name\": %s,\n",
                indent, d.index, opt(d.migIndex).c_str(), d.mig ? "true" : "false", quoted(d.uuid).c_str(),
                quoted(d.parentUuid).c_str(), quoted(d.name).c_str());
    std::printf("%s \"utilizationGpuPercent\": %s, \"utilizationMemoryPercent\": %s,\n", indent,
                opt(d.utilizationGpuPercent).c_str(), opt(d.utilizationMemoryPercent).c_str());
    std::printf("%s \"memoryUsedBytes\": %s, \"memoryTotalBytes\": %s, \"temperatureC\": %s,\n", indent,
                opt(d.memoryUsedBytes).c_str(), opt(d.memoryTotalBytes).c_str(), opt(d.temperatureC).c_str());
    std::printf("%s \"powerWatts\": %s, \"powerLimitWatts\": %s, \"processesKnown\": %s, \"processes\": [", indent,
                opt(d.powerWatts).c_str(), opt(d.powerLimitWatts).c_str(), d.processesKnown ? "true" : "false");
    for (std::size_t i = 0; i < d.processes.size(); ++i)
        std::printf("%s{\"pid\": %u, \"usedMemoryBytes\": %s}", i ? ", " : "", d.processes[i].pid,
                    opt(d.processes[i].usedMemoryBytes).c_str());
    std::printf("]}");
}

void printSnapshot(const NvmlSnapshot &s)
{
    std::printf("{\"status\": %s, \"detail\": %s, \"devices\": [\n", quoted(nvmlStatusText(s.status)).c_str(),
                quoted(s.detail).c_str());
    for (std::size_t i = 0; i < s.devices.size(); ++i) {
        printDevice(s.devices[i], "  ");
        std::printf("%s\n", i + 1 < s.devices.size() ? "," : "");
    }
    std::printf("]}\n");
}

// Our own cgroup path (v2's line, else the first), to check the matcher on a live process.
std::string ownCgroupPath()
{
    std::ifstream f("/proc/self/cgroup");
    std::string line, first;
    while (std::getline(f, line)) {
        const auto c1 = line.find(':');
        const auto c2 = c1 == std::string::npos ? std::string::npos : line.find(':', c1 + 1);
        if (c2 == std::string::npos)
            continue;
        const std::string path = line.substr(c2 + 1);
        if (line.compare(0, 3, "0::") == 0)
            return path;
        if (first.empty())
            first = path;
    }
    return first;
}

int compareWithSmi(const NvmlSnapshot &nvml)
{
    std::string cmd;
    for (const std::string &a : nvidiaSmiArgv())
        cmd += "'" + a + "' ";
    cmd += "2>&1";
    std::FILE *p = popen(cmd.c_str(), "r");
    if (!p) {
        std::printf("nvidia-smi: cannot run\n");
        return 1;
    }
    std::string out;
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
        out.append(buf, n);
    const int status = pclose(p);
    std::printf("nvidia-smi (exit %d) printed:\n%s", WIFEXITED(status) ? WEXITSTATUS(status) : -1, out.c_str());
    const SmiParse parsed = parseNvidiaSmiQuery(out);
    std::printf("parsed: %zu GPU(s), %d skipped line(s), failure %s\n", parsed.devices.size(), parsed.skippedLines,
                quoted(parsed.failure).c_str());
    for (const DeviceInfo &d : parsed.devices) {
        printDevice(d, "  ");
        std::printf("\n");
    }
    std::set<std::string> a, b;
    for (const DeviceInfo &d : nvml.devices) {
        if (!d.migIndex)
            a.insert(d.uuid);
    }
    for (const DeviceInfo &d : parsed.devices)
        b.insert(d.uuid);
    const bool same = a == b && !a.empty();
    std::printf("nvidia-smi and NVML list the same GPUs: %s\n", same ? "yes" : "NO");
    return same ? 0 : 1;
}

int watch(NvmlReader &reader, unsigned pid, int samples, int intervalMs)
{
    double maxUtil = 0;
    bool pidListed = false;
    std::optional<std::uint64_t> pidMemory;
    std::set<unsigned> otherPids;
    for (int i = 0; i < samples; ++i) {
        const NvmlSnapshot s = reader.sample();
        std::printf("sample %d:", i);
        for (const DeviceInfo &d : s.devices) {
            std::printf(" [gpu %d%s util=%s mem=%s power=%s procs=%zu]", d.index,
                        d.migIndex ? (" mig " + std::to_string(*d.migIndex)).c_str() : "",
                        opt(d.utilizationGpuPercent).c_str(), opt(d.memoryUsedBytes).c_str(), opt(d.powerWatts).c_str(),
                        d.processes.size());
            maxUtil = std::max(maxUtil, d.utilizationGpuPercent.value_or(0));
            for (const ProcessInfo &p : d.processes) {
                if (p.pid == pid) {
                    pidListed = true;
                    if (p.usedMemoryBytes)
                        pidMemory = std::max(pidMemory.value_or(0), *p.usedMemoryBytes);
                } else {
                    otherPids.insert(p.pid);
                }
            }
        }
        std::printf("\n");
        std::fflush(stdout);
        std::this_thread::sleep_for(std::chrono::milliseconds(intervalMs));
    }
    std::printf("workload pid %u: max utilisation %.0f %%, in NVML's process list: %s, its memory: %s\n", pid, maxUtil,
                pidListed ? "yes" : "no", opt(pidMemory).c_str());
    // The matcher on the live workload: it shares our cgroup (we started it).
    const std::string own = ownCgroupPath();
    const bool matched = pidInSession(pid, CgroupMatch{{}, own});
    std::printf("cgroup matcher: pid %u in our cgroup %s: %s\n", pid, quoted(own).c_str(), matched ? "yes" : "NO");
    if (maxUtil <= 0)
        return 1;
    if (!pidListed) {
        std::printf("the workload's PID is not listed; NVML listed %zu other PID(s)", otherPids.size());
        for (unsigned p : otherPids)
            std::printf(" %u", p);
        std::printf(" (host PIDs: this machine runs in a PID namespace of its own)\n");
        return 3;
    }
    return (pidMemory.value_or(0) > 0 && matched) ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    NvmlOptions options;
    int bench = 0, samples = 10, intervalMs = 250;
    unsigned watchPid = 0;
    bool smi = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : std::string(); };
        if (a == "--lib")
            options.libraryPath = next();
        else if (a == "--bench")
            bench = std::atoi(next().c_str());
        else if (a == "--smi")
            smi = true;
        else if (a == "--watch")
            watchPid = unsigned(std::strtoul(next().c_str(), nullptr, 10));
        else if (a == "--samples")
            samples = std::atoi(next().c_str());
        else if (a == "--interval-ms")
            intervalMs = std::atoi(next().c_str());
        else {
            std::fprintf(stderr,
                         "usage: %s [--lib PATH] [--bench N] [--smi] [--watch PID --samples N "
                         "--interval-ms MS]\n",
                         argv[0]);
            return 2;
        }
    }
    NvmlReader reader(options);
    const NvmlSnapshot first = reader.sample();
    std::printf("library: %s\n", reader.libraryPath().c_str());
    printSnapshot(first);
    if (first.status != NvmlStatus::Ok)
        return 2;
    int rc = 0;
    if (bench > 0) {
        std::vector<double> ms;
        for (int i = 0; i < bench; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            const NvmlSnapshot s = reader.sample();
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            if (s.status != NvmlStatus::Ok)
                rc = 1;
        }
        std::sort(ms.begin(), ms.end());
        std::printf("{\"name\": \"gpu.sample_ms\", \"p50\": %.4f, \"p99\": %.4f, \"max\": %.4f, \"samples\": %d}\n",
                    ms[ms.size() / 2], ms[std::min(ms.size() - 1, ms.size() * 99 / 100)], ms.back(), bench);
    }
    if (smi && compareWithSmi(first) != 0)
        rc = 1;
    if (watchPid) {
        const int w = watch(reader, watchPid, samples, intervalMs);
        if (w != 0)
            rc = rc ? rc : w;
    }
    return rc;
}
