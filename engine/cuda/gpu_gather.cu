#include "gpu_gather.hpp"

#include <cstdint>

#include "cuda_util.cuh"
#include "float4_math.cuh"

namespace tscope::gpu {

namespace {

constexpr int kThreads = 256;
constexpr int kLanes = 8;             // a row of 32 floats as 8 float4: one 128-byte line
constexpr int kInFlight = 4;          // rows a group requests before it adds the first
constexpr std::uint32_t kRows = 1u << 15;  // 4 MiB: L2-resident (50 MB and up on Hopper), far over L1
constexpr std::uint64_t kGathers = std::uint64_t{1} << 26;  // 8.6 GB gathered: milliseconds
constexpr std::uint64_t kAdds = std::uint64_t{1} << 24;     // 2.1 GB added: a millisecond or so

// A row number per gather that the compiler cannot foresee and that spreads over the table
// (an integer hash, not an index array: its stream would be DRAM traffic, which the copy
// bound already counts).
__device__ std::uint32_t row_of(std::uint64_t q) {
    std::uint32_t h = static_cast<std::uint32_t>(q) * 0x9e3779b1u;
    h ^= h >> 15;
    h *= 0x85ebca77u;
    h ^= h >> 13;
    return h & (kRows - 1);
}

// A group of 8 lanes gathers one row at a time (a lane its float4), kInFlight rows in flight,
// as the MTTKRP and SpTTM kernels' teams do; the sums go out so the loads are kept.
__global__ void __launch_bounds__(kThreads) gather_kernel(const float4* __restrict__ table, float4* __restrict__ sink) {
    const unsigned lane = threadIdx.x % kLanes;
    const std::uint64_t group = (blockIdx.x * static_cast<std::uint64_t>(kThreads) + threadIdx.x) / kLanes;
    const std::uint64_t groups = static_cast<std::uint64_t>(gridDim.x) * kThreads / kLanes;
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (std::uint64_t q0 = group; q0 < kGathers; q0 += groups * kInFlight) {
        float4 v[kInFlight];
#pragma unroll
        for (int s = 0; s < kInFlight; ++s) {
            const std::uint64_t q = q0 + s * groups;
            v[s] = q < kGathers ? __ldg(table + static_cast<std::uint64_t>(row_of(q)) * kLanes + lane) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
#pragma unroll
        for (int s = 0; s < kInFlight; ++s) acc.x += v[s].x, acc.y += v[s].y, acc.z += v[s].z, acc.w += v[s].w;
    }
    sink[blockIdx.x * static_cast<std::uint64_t>(kThreads) + threadIdx.x] = acc;
}

// A group of 8 lanes adds a float4 a lane into one row at a time, by the vector atomic that
// MM-CSF's leaves and the fiber teams use (atomic_add4; its result unused, so a reduction that
// no lane waits for).
__global__ void __launch_bounds__(kThreads) add_kernel(float4* __restrict__ table) {
    const unsigned lane = threadIdx.x % kLanes;
    const std::uint64_t group = (blockIdx.x * static_cast<std::uint64_t>(kThreads) + threadIdx.x) / kLanes;
    const std::uint64_t groups = static_cast<std::uint64_t>(gridDim.x) * kThreads / kLanes;
    const float4 one = make_float4(1.0f, 1.0f, 1.0f, 1.0f);
    for (std::uint64_t q = group; q < kAdds; q += groups)
        atomic_add4(table + static_cast<std::uint64_t>(row_of(q)) * kLanes + lane, one);
}

// GB/s of launch(), which moves `rows` rows of 128 bytes: the best of five timed launches after
// one that warms L2.
template <class Launch>
double best_rate(std::uint64_t rows, Launch launch) {
    double best = 0;
    for (int r = 0; r < 6; ++r) {
        Event t0, t1;
        t0.record();
        launch();
        check(cudaGetLastError(), "launching a row-rate measurement");
        t1.record();
        const double gbps = static_cast<double>(rows) * kLanes * sizeof(float4) / Event::seconds(t0, t1) / 1e9;
        if (r > 0 && gbps > best) best = gbps;
    }
    return best;
}

template <class Kernel>
int full_grid(Kernel kernel) {
    int per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0), "querying occupancy");
    return sm_count() * (per_sm > 0 ? per_sm : 1);  // every SM full, no tail
}

}  // namespace

double gather_bandwidth_gbps() {
    use_device();
    const int blocks = full_grid(gather_kernel);
    DeviceArray<float4> table(std::uint64_t{kRows} * kLanes), sink(static_cast<std::uint64_t>(blocks) * kThreads);
    check(cudaMemset(table.get(), 0, std::uint64_t{kRows} * kLanes * sizeof(float4)), "clearing");
    return best_rate(kGathers, [&] { gather_kernel<<<blocks, kThreads>>>(table.get(), sink.get()); });
}

double add_bandwidth_gbps() {
    use_device();
    const int blocks = full_grid(add_kernel);
    DeviceArray<float4> table(std::uint64_t{kRows} * kLanes);
    check(cudaMemset(table.get(), 0, std::uint64_t{kRows} * kLanes * sizeof(float4)), "clearing");
    return best_rate(kAdds, [&] { add_kernel<<<blocks, kThreads>>>(table.get()); });
}

}  // namespace tscope::gpu
