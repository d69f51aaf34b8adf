// A tiny CUDA workload for scripts/gpu-probe.sh: holds MIB MiB of device memory and keeps the
// GPU busy for SECONDS, so that NVML shows utilisation above zero and this PID with its memory.
//   gpu_busy [SECONDS=15] [MIB=512]
// Prints "ready pid=N" once the memory is held and the first kernel ran, "done" at the end.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <unistd.h>

namespace {

__global__ void spin(float *data, int n, long long cycles)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const long long start = clock64();
    float v = i < n ? data[i] : 0.0f;
    while (clock64() - start < cycles)
        v = v * 0.999999f + 0.5f;
    if (i < n)
        data[i] = v;
}

bool check(cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return true;
    std::fprintf(stderr, "gpu_busy: %s: %s\n", what, cudaGetErrorString(e));
    return false;
}

} // namespace

int main(int argc, char **argv)
{
    const double seconds = argc > 1 ? std::atof(argv[1]) : 15.0;
    const std::size_t mib = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 512;
    const std::size_t bytes = mib * 1024 * 1024;
    float *buf = nullptr;
    if (!check(cudaMalloc(&buf, bytes), "cudaMalloc") || !check(cudaMemset(buf, 0, bytes), "cudaMemset"))
        return 1;
    const int threads = 256;
    const int blocks = 1024;
    const int n = threads * blocks;
    // About 5 ms per launch at 2 GHz: the GPU is busy nearly all the time, and the host
    // still checks the clock often.
    const long long cycles = 10000000;
    spin<<<blocks, threads>>>(buf, n, cycles);
    if (!check(cudaGetLastError(), "launch") || !check(cudaDeviceSynchronize(), "first kernel"))
        return 1;
    std::printf("ready pid=%d mib=%zu\n", int(getpid()), mib);
    std::fflush(stdout);
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    long long launches = 1;
    while (std::chrono::steady_clock::now() < end) {
        spin<<<blocks, threads>>>(buf, n, cycles);
        if (!check(cudaDeviceSynchronize(), "kernel"))
            return 1;
        ++launches;
    }
    check(cudaFree(buf), "cudaFree");
    std::printf("done launches=%lld\n", launches);
    return 0;
}
