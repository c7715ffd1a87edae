// How many 128-byte factor rows a second can a GPU gather at random, from a footprint that fits
// in L2 and from one that does not? A standalone measurement (session 92), not part of the
// build; it needs only nvcc.
//
// Why: delicious-4d's shape (140M nonzeros) makes B-CSF and CSF gather 369M rows of 128 bytes a
// mode (rank 32, fp32; the ancestors once a fiber, the leaf once a nonzero: 47 GB), and a kernel
// keeping each node's product would still gather 286-313M (docs/bench/cpu-gather-counts-del4d.json).
// Issue 19's 4,500 GFLOP/s is 2.99 ms a mode there: 12-16 TB/s of rows. gather_floor.cu timed
// those gathers in the tree's order but ran latency-bound, slower than the kernels themselves
// (session 92, h100-session92.json), so it bounded nothing. This program asks the hardware
// directly: random rows of a buffer of F bytes, uniformly drawn (no reuse beyond what the
// footprint gives), as many in flight as the SMs hold. If even an L2-resident footprint gives
// under 12 TB/s, no kernel that makes those gathers reaches the line on that shape.
//
// A team of 8 lanes gathers a row (a float4 a lane), each team G rows at once from a streamed
// index array (4 bytes a row, counted apart); the sums go to one float4 a thread.
// Build: nvcc -O3 -arch=sm_90 -o row_gather_bandwidth docs/bench/scripts/row_gather_bandwidth.cu
// usage: row_gather_bandwidth [MB..]   (footprints; default 8 16 32 48 64 256 2048)
// Prints one JSON line a footprint: the rows gathered, ms (median of 11), row TB/s, index GB/s.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "launch_median.cuh"

namespace {

constexpr int kThreads = 256, kLanes = 8, kInFlight = 4;
constexpr std::uint64_t kRows = 64ull << 20;  // gathers a launch (8 GB of rows)

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "row_gather_bandwidth: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

// Team t gathers rows idx[t], idx[t + teams], ..., kInFlight at once; the index array is read
// a team's kInFlight entries at a time, all independent of the rows.
__global__ void __launch_bounds__(kThreads) gather_kernel(const float4* __restrict__ rows, const std::uint32_t* __restrict__ idx,
                                                          std::uint64_t n, float4* sink) {
    const unsigned lane = threadIdx.x % kLanes;
    const std::uint64_t team = (blockIdx.x * std::uint64_t{kThreads} + threadIdx.x) / kLanes;
    const std::uint64_t teams = std::uint64_t{gridDim.x} * kThreads / kLanes;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    for (std::uint64_t i = team; i < n; i += teams * kInFlight) {
        std::uint32_t r[kInFlight];
#pragma unroll
        for (int s = 0; s < kInFlight; ++s) {
            const std::uint64_t k = i + s * teams;
            r[s] = k < n ? __ldcs(idx + k) : 0;
        }
        float4 v[kInFlight];
#pragma unroll
        for (int s = 0; s < kInFlight; ++s) v[s] = __ldg(rows + std::uint64_t{r[s]} * kLanes + lane);
#pragma unroll
        for (int s = 0; s < kInFlight; ++s) acc.x += v[s].x, acc.y += v[s].y, acc.z += v[s].z, acc.w += v[s].w;
    }
    sink[blockIdx.x * std::uint64_t{kThreads} + threadIdx.x] = acc;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::uint64_t> mbs;
    for (int i = 1; i < argc; ++i) mbs.push_back(std::strtoull(argv[i], nullptr, 10));
    if (mbs.empty()) mbs = {8, 16, 32, 48, 64, 256, 2048};
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "reading the device");
    int per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gather_kernel, kThreads, 0), "occupancy");
    const int grid = prop.multiProcessorCount * per_sm;
    const std::uint64_t biggest = *std::max_element(mbs.begin(), mbs.end()) << 20;
    float4* rows = nullptr;
    std::uint32_t* idx = nullptr;
    float4* sink = nullptr;
    check(cudaMalloc(&rows, biggest), "allocating the rows");
    check(cudaMemset(rows, 0x3c, biggest), "filling the rows");
    check(cudaMalloc(&idx, kRows * sizeof(std::uint32_t)), "allocating the indices");
    check(cudaMalloc(&sink, std::uint64_t(grid) * kThreads * sizeof(float4)), "allocating the sink");
    std::vector<std::uint32_t> host(kRows);
    for (std::uint64_t mb : mbs) {
        const std::uint64_t count = (mb << 20) / (kLanes * sizeof(float4));  // rows in the footprint
        std::mt19937_64 gen(mb);
        std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(count - 1));
        for (auto& r : host) r = pick(gen);
        check(cudaMemcpy(idx, host.data(), kRows * sizeof(std::uint32_t), cudaMemcpyHostToDevice), "copying the indices");
        const double med = median_launch_ms([&] { gather_kernel<<<grid, kThreads>>>(rows, idx, kRows, sink); });
        const double row_bytes = double(kRows) * kLanes * sizeof(float4);
        std::printf("{\"device\":\"%s\",\"l2_bytes\":%d,\"footprint_mb\":%llu,\"blocks_per_sm\":%d,\"rows\":%llu,"
                    "\"ms\":%.4f,\"row_tbps\":%.3f,\"index_gbps\":%.1f}\n",
                    prop.name, prop.l2CacheSize, static_cast<unsigned long long>(mb), per_sm,
                    static_cast<unsigned long long>(kRows), med, row_bytes / (med * 1e-3) / 1e12,
                    double(kRows) * 4 / (med * 1e-3) / 1e9);
        std::fflush(stdout);
    }
    return 0;
}
