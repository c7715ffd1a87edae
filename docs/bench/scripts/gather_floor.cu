// How fast can any MTTKRP be on a tensor whose fibers hold about one nonzero (delicious-4d's
// shape)? A standalone measurement (session 91), not part of the build; see the usage below.
//
// Why: on one H100 B-CSF and CSF run delicious-4d's shape at 1,615-1,781 GFLOP/s a mode (session
// 91, h100-session91-standing.json) against issue 19's 4,500 and 2,500. There nearly every fiber
// holds one nonzero, so every nonzero gathers a row of each factor but the output's (128 bytes at
// rank 32 in fp32), and mode 2's factor is 2.2 GB, mode 3's 317 MB: far past the 50 MB L2. This
// program times those gathers alone, in the order of the CSF tree the bench builds for the mode
// (the mode at the root, the others by increasing length: SPLATT's order), with no arithmetic
// beyond a sum and no output adds. Three ways, a nonzero's leaf row gathered in each:
//   every   each nonzero gathers the N-1 rows (COO's loads);
//   fiber   the ancestors' rows once a fiber (the CSF kernels' fiber heads: B-CSF's and CSF's loads);
//   node    an ancestor's row once a node of its level (a kernel keeping each node's product).
// Each way's time, at MTTKRP's 3 x nnz x rank flops, gives the GFLOP/s no kernel that makes those
// loads in that order with this many in flight can pass. A team of 8 lanes takes a nonzero, a
// lane a float4 of each row, four nonzeros in flight a team; the row numbers are streamed (12
// bytes a nonzero at order 4, as a format streams its indices, and a byte saying where the
// nonzero's nodes start) and the sums written once a thread:
// 16 float4 loads a lane in flight at 80 registers (three blocks of 256 an SM), more bytes in
// flight than the MTTKRP kernels hold (40 registers, six blocks, one nonzero's rows a team).
// GATHER_FLOOR_COUNT_ONLY=1 counts each way's gathers on the host alone (no device needed).
//
// Build (here, with the engine built in build/; the binary then runs where the bundle's libraries
// are on LD_LIBRARY_PATH):
//   nvcc -O3 -arch=sm_90 -std=c++20 -Iengine/include -Iengine -Xcompiler -fopenmp -o gather_floor docs/bench/scripts/gather_floor.cu \
//     build/lib/libtscope_engine.a -lz -llapacke -llapack -lblas -ldl   (make_bundle.sh --gather-floor does this)
// usage: gather_floor FILE.tsb [MODE..]   (modes from 1; default every mode)
// Prints one JSON line a mode: ms (median of 11) and GFLOP/s each way, and the gathers made.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "formats/format_builders.hpp"  // default_mode_order: the bench's CSF order
#include "tscope/io/tensor_io.hpp"
#include "launch_median.cuh"
#include "tscope/tensor/coo_ops.hpp"

namespace {

constexpr int kThreads = 256, kLanes = 8, kInFlight = 4, kMaxGathered = 4;

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "gather_floor: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

// Which rows a nonzero gathers (the tree's levels 1 to N-1; level 0 is the output's), its leaf
// row always: every ancestor row too (Every); the ancestors' rows where its fiber starts, as the
// CSF kernels' fiber heads gather them (Fiber); or an ancestor's row only where that ancestor's
// node starts, as a kernel keeping each node's product would (Node). first: the first level
// whose index differs from the previous nonzero's (nodes start there and below). One rule for
// the kernel and the host's count.
enum class Reuse { Every, Fiber, Node };
const char* name_of(Reuse r) { return r == Reuse::Every ? "every" : r == Reuse::Fiber ? "fiber" : "node"; }
__host__ __device__ inline bool gathers_at(Reuse reuse, int level, int first, int n) {
    return level == n - 1 || reuse == Reuse::Every || (reuse == Reuse::Fiber && first <= n - 2) ||
           (reuse == Reuse::Node && level >= first);
}

// A tree's order of the nonzeros: each level's indices in that order, and each nonzero's first.
struct Ordered {
    std::vector<std::vector<std::uint32_t>> index;  // [level][k]
    std::vector<std::uint8_t> first;
};

Ordered ordered(const tscope::CooTensor& t, const std::vector<std::uint64_t>& perm, const std::vector<int>& levels) {
    const int n = t.order();
    const auto nnz = static_cast<std::int64_t>(t.nnz());
    Ordered o;
    o.index.assign(static_cast<std::size_t>(n), std::vector<std::uint32_t>(t.nnz()));
    for (int l = 0; l < n; ++l) {
        auto& col = o.index[static_cast<std::size_t>(l)];
        const int mode = levels[static_cast<std::size_t>(l)];
#pragma omp parallel for schedule(static)
        for (std::int64_t k = 0; k < nnz; ++k)
            col[static_cast<std::size_t>(k)] =
                static_cast<std::uint32_t>(t.index(mode, perm[static_cast<std::size_t>(k)]));
    }
    o.first.assign(t.nnz(), 0);
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 1; k < nnz; ++k) {
        int f = 0;
        while (f < n && o.index[static_cast<std::size_t>(f)][static_cast<std::size_t>(k)] ==
                            o.index[static_cast<std::size_t>(f)][static_cast<std::size_t>(k - 1)])
            ++f;
        o.first[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(f);
    }
    return o;
}

std::uint64_t gathers(const Ordered& o, Reuse reuse) {
    const int n = static_cast<int>(o.index.size());
    const auto nnz = static_cast<std::int64_t>(o.first.size());
    std::uint64_t count = 0;
#pragma omp parallel for schedule(static) reduction(+ : count)
    for (std::int64_t k = 0; k < nnz; ++k)
        for (int l = 1; l < n; ++l) count += gathers_at(reuse, l, o.first[static_cast<std::size_t>(k)], n);
    return count;
}

// One tree order on the device: levels 1 to N-1's indices, each nonzero's first, and those
// levels' factors, 8 float4 a row.
struct Rows {
    int n = 0;  // the order
    const std::uint32_t* row[kMaxGathered] = {};
    const std::uint8_t* first = nullptr;
    const float4* factor[kMaxGathered] = {};
};

// Team t takes nonzeros t, t + teams, ...; kInFlight of them at once.
__global__ void __launch_bounds__(kThreads) gather_kernel(Rows r, Reuse reuse, std::uint64_t nnz, float4* sink) {
    const unsigned lane = threadIdx.x % kLanes;
    const std::uint64_t team = (blockIdx.x * std::uint64_t{kThreads} + threadIdx.x) / kLanes;
    const std::uint64_t teams = std::uint64_t{gridDim.x} * kThreads / kLanes;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    for (std::uint64_t z0 = team; z0 < nnz; z0 += teams * kInFlight) {
        float4 v[kInFlight][kMaxGathered];
#pragma unroll
        for (int s = 0; s < kInFlight; ++s) {
            const std::uint64_t z = z0 + s * teams;
            const int first = z < nnz ? __ldcs(r.first + z) : 0;
#pragma unroll
            for (int k = 0; k < kMaxGathered; ++k) {
                v[s][k] = make_float4(0.f, 0.f, 0.f, 0.f);
                if (k < r.n - 1 && z < nnz && gathers_at(reuse, k + 1, first, r.n))
                    v[s][k] = __ldg(r.factor[k] + std::uint64_t{__ldcs(r.row[k] + z)} * kLanes + lane);
            }
        }
#pragma unroll
        for (int s = 0; s < kInFlight; ++s)
#pragma unroll
            for (int k = 0; k < kMaxGathered; ++k)
                acc.x += v[s][k].x, acc.y += v[s][k].y, acc.z += v[s][k].z, acc.w += v[s][k].w;
    }
    sink[blockIdx.x * std::uint64_t{kThreads} + threadIdx.x] = acc;
}

double median_ms(const Rows& r, Reuse reuse, std::uint64_t nnz, float4* sink, int grid) {
    return median_launch_ms([&] { gather_kernel<<<grid, kThreads>>>(r, reuse, nnz, sink); });
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: gather_floor FILE.tsb [MODE..]  (modes from 1)\n");
        return 2;
    }
    const tscope::CooTensor t = tscope::load_tensor(argv[1]).tensor;
    const int n = t.order();
    if (n < 2 || n - 1 > kMaxGathered) {
        std::fprintf(stderr, "gather_floor: order %d; this program takes orders 2 to %d\n", n, kMaxGathered + 1);
        return 2;
    }
    std::vector<int> modes;
    for (int i = 2; i < argc; ++i) modes.push_back(std::atoi(argv[i]) - 1);
    if (modes.empty())
        for (int m = 0; m < n; ++m) modes.push_back(m);
    constexpr std::uint64_t rank = 32;
    // GATHER_FLOOR_COUNT_ONLY=1: the gathers each way, counted here without a device
    if (const char* c = std::getenv("GATHER_FLOOR_COUNT_ONLY"); c && *c == '1') {
        for (int m : modes) {
            const std::vector<int> levels = tscope::default_mode_order(t, m);
            const Ordered o = ordered(t, tscope::sorted_order(t, levels), levels);
            std::printf("{\"file\":\"%s\",\"nnz\":%llu,\"mode\":%d", argv[1], static_cast<unsigned long long>(t.nnz()),
                        m + 1);
            for (Reuse reuse : {Reuse::Every, Reuse::Fiber, Reuse::Node})
                std::printf(",\"%s_gathers\":%llu", name_of(reuse), static_cast<unsigned long long>(gathers(o, reuse)));
            std::printf("}\n");
        }
        return 0;
    }
    // every factor on the device, rows of 32 floats (their values do not matter)
    std::vector<float4*> factor(static_cast<std::size_t>(n));
    for (int m = 0; m < n; ++m) {
        const std::size_t bytes = t.dim(m) * rank * sizeof(float);
        check(cudaMalloc(&factor[static_cast<std::size_t>(m)], bytes), "allocating a factor");
        check(cudaMemset(factor[static_cast<std::size_t>(m)], 0x3c, bytes), "filling a factor");
    }
    int sms = 0, per_sm = 0;
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "counting SMs");
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gather_kernel, kThreads, 0), "occupancy");
    const int grid = sms * per_sm;
    float4* sink = nullptr;
    check(cudaMalloc(&sink, std::uint64_t{static_cast<unsigned>(grid)} * kThreads * sizeof(float4)),
          "allocating the sink");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "reading the device");
    const double flops = 3.0 * static_cast<double>(t.nnz()) * rank;
    for (int m : modes) {
        const std::vector<int> levels = tscope::default_mode_order(t, m);
        const Ordered o = ordered(t, tscope::sorted_order(t, levels), levels);
        std::printf("{\"device\":\"%s\",\"file\":\"%s\",\"nnz\":%llu,\"mode\":%d,\"rank\":32,\"blocks_per_sm\":%d",
                    prop.name, argv[1], static_cast<unsigned long long>(t.nnz()), m + 1, per_sm);
        // the order's indices and firsts go to the device once; each way reads what it gathers
        std::vector<void*> dev;
        auto upload = [&](const auto& h) {
            void* d = nullptr;
            const std::size_t bytes = h.size() * sizeof(h[0]);
            check(cudaMalloc(&d, bytes), "allocating the order");
            check(cudaMemcpy(d, h.data(), bytes, cudaMemcpyHostToDevice), "copying the order");
            dev.push_back(d);
            return d;
        };
        Rows r;
        r.n = n;
        r.first = static_cast<const std::uint8_t*>(upload(o.first));
        for (int l = 1; l < n; ++l) {
            r.row[l - 1] = static_cast<const std::uint32_t*>(upload(o.index[static_cast<std::size_t>(l)]));
            r.factor[l - 1] = factor[static_cast<std::size_t>(levels[static_cast<std::size_t>(l)])];
        }
        for (Reuse reuse : {Reuse::Every, Reuse::Fiber, Reuse::Node}) {
            const double ms = median_ms(r, reuse, t.nnz(), sink, grid);
            const char* way = name_of(reuse);
            std::printf(",\"%s_ms\":%.4f,\"%s_gflops\":%.1f,\"%s_gathers\":%llu", way, ms, way,
                        flops / (ms * 1e-3) / 1e9, way, static_cast<unsigned long long>(gathers(o, reuse)));
        }
        for (void* p : dev) cudaFree(p);
        std::printf("}\n");
        std::fflush(stdout);
    }
    return 0;
}
