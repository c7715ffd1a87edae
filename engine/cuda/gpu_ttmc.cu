// COO TTMc: a warp per 32 nonzeros, summing those of one output row before its atomics.
#include <cuda_runtime.h>

#include "cuda_util.cuh"
#include "env_switch.hpp"
#include "gpu_ttmc.hpp"

namespace tscope::gpu {

namespace {

constexpr int kMaxModes = 16;

struct Args {
    const std::uint32_t* idx[kMaxModes];
    const float* factor[kMaxModes];
    std::uint64_t rank[kMaxModes];
};

// A warp per nonzero, lanes over the columns, an fp64 atomic per column and nonzero: the kernel
// until session 76, kept for comparisons (TENSORSCOPE_TTMC_KERNEL=warp).
__global__ void ttmc_coo_kernel(std::uint64_t nnz, int order, int mode, std::uint64_t cols, Args a, const float* __restrict__ vals,
                                double* out) {
    const std::uint64_t warp = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    for (std::uint64_t z = warp; z < nnz; z += warps) {
        const float x = vals[z];
        double* row = out + static_cast<std::uint64_t>(a.idx[mode][z]) * cols;
        for (std::uint64_t c = lane; c < cols; c += 32) {
            // column c = (r_first, ..., r_last) over the other modes, the last varying fastest
            std::uint64_t rest = c;
            float v = x;
            for (int m = order - 1; m >= 0; --m) {
                if (m == mode) continue;
                const std::uint64_t r = rest % a.rank[m];
                rest /= a.rank[m];
                v *= a.factor[m][static_cast<std::uint64_t>(a.idx[m][z]) * a.rank[m] + r];
            }
            atomicAdd(&row[c], static_cast<double>(v));
        }
    }
}

// A warp takes 32 consecutive nonzeros, a lane each, and finds which of them share an output row
// (__match_any_sync). Then, 32 columns at a time (a lane a column of the Kronecker product of the
// other modes' rows), it sums each row's nonzeros in fp32 registers and adds the sum by one fp64
// atomic a column: an atomic per row and column of the 32 nonzeros, where the warp-per-nonzero
// kernel made one per nonzero and column. Rows repeat within 32 nonzeros along the COO's first
// mode in its sort order (its slices), along its second (its fibers), and on any mode where a
// power-law tensor's heavy rows are a large share of the nonzeros, whose atomics queue on one
// address. (bench sorts TTMc's COO by mode 1; kernels/ttmc.cpp's ttmc_options by the mode.)
// Measured against the warp-per-nonzero kernel (docs/bench/h200-ttmc-session76.json call 5, one
// H200, rank 8, bench's COO sorted by mode 1, us a mode): powerlaw-3d 136-283 against 803-1,024,
// powerlaw-3d-20m 3,556-7,862 against 15,589-16,575, uniform-3d-20m 3,605-5,304 against
// 7,552-8,092, Last.fm 55-102 against 84-152, MovieLens 39-52 against 52-82; slower on JF17K's
// modes 3-4 alone (221-230 against 183-207). Summing only consecutive nonzeros of one row (call
// 4) took 0.86-1.36x this kernel's time (call 5) on modes 1-2, and was 8-37% slower than the
// warp-per-nonzero kernel on some others, where a warp's 32 nonzeros made 32 flushes one after
// another.
// ORDER: the tensor's order compiled in (3 or 4), so that the loops over modes unroll and each
// mode's column offset stays in a register; 0 takes `order` at run time (the offsets in a
// 128-byte stack frame). Compiled in, 20M uniform nonzeros took 3,386-4,691 us a mode against
// 3,672-5,322, 20M power-law ones 3,327-7,754 against 3,622-7,833, powerlaw-4d 731-1,017
// against 797-1,041; MovieLens's mode 2 52-55 against 48 (session 76 call 7, rank 8).
template <int ORDER>
__global__ void ttmc_peers_kernel(std::uint64_t nnz, int order, int mode, std::uint64_t cols, Args a,
                                  const float* __restrict__ vals, double* out) {
    if constexpr (ORDER != 0) order = ORDER;
    const std::uint64_t warp = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    const std::uint64_t groups = (nnz + 31) / 32;
    for (std::uint64_t g = warp; g < groups; g += warps) {  // warp-uniform
        const std::uint64_t first = g * 32, mine = first + lane;
        const bool in = mine < nnz;
        const std::uint32_t row = in ? a.idx[mode][mine] : 0xffffffffu;
        // lanes past nnz are no lane's peers, even where a real row index equals their sentinel
        const unsigned peers = __match_any_sync(0xffffffffu, row) & __ballot_sync(0xffffffffu, in);
        const unsigned leaders = __ballot_sync(0xffffffffu, in && __ffs(peers) - 1 == static_cast<int>(lane));
        for (std::uint64_t c0 = 0; c0 < cols; c0 += 32) {
            const std::uint64_t c = c0 + lane;
            const bool active = c < cols;
            // column c = (r_first, ..., r_last) over the other modes, the last varying fastest:
            // each mode's offset into its factor row
            std::uint64_t pick[kMaxModes];
            std::uint64_t rest = c;
#pragma unroll
            for (int m = (ORDER != 0 ? ORDER : order) - 1; m >= 0; --m) {
                if (m == mode) continue;
                pick[m] = rest % a.rank[m];
                rest /= a.rank[m];
            }
            for (unsigned left = leaders; left; left &= left - 1) {
                const int k = __ffs(left) - 1;
                const unsigned same = __shfl_sync(0xffffffffu, peers, k);
                const std::uint32_t r = __shfl_sync(0xffffffffu, row, k);
                float acc = 0.0f;
                for (unsigned each = same; each; each &= each - 1) {
                    const std::uint64_t z = first + static_cast<std::uint64_t>(__ffs(each) - 1);
                    float v = vals[z];
#pragma unroll
                    for (int m = 0; m < (ORDER != 0 ? ORDER : order); ++m)
                        if (m != mode && active)
                            v *= a.factor[m][static_cast<std::uint64_t>(a.idx[m][z]) * a.rank[m] + pick[m]];
                    acc += v;
                }
                if (active) atomicAdd(&out[static_cast<std::uint64_t>(r) * cols + c], static_cast<double>(acc));
            }
        }
    }
}

Args args_of(int order, const std::uint32_t* const* idx, const float* const* factors, const std::uint64_t* ranks) {
    if (order > kMaxModes) throw Error("the CUDA TTMc handles up to 16 modes");
    Args a{};
    for (int m = 0; m < order; ++m) a.idx[m] = idx[m], a.factor[m] = factors[m], a.rank[m] = ranks[m];
    return a;
}

}  // namespace

void launch_ttmc_peers(std::uint64_t nnz, int order, int mode, std::uint64_t cols, const std::uint32_t* const* idx,
                       const float* const* factors, const std::uint64_t* ranks, const float* vals, double* out) {
    const Args a = args_of(order, idx, factors, ranks);
    if (nnz == 0) return;
    const int grid = grid_for((nnz + 31) / 32 * 32);
    // the order compiled in for 3 and 4; TENSORSCOPE_TTMC_KERNEL=any-order forces the run-time one, for comparisons
    const int compiled = env_is("TENSORSCOPE_TTMC_KERNEL", "any-order") ? 0 : order;
    if (compiled == 3)
        ttmc_peers_kernel<3><<<grid, 256>>>(nnz, order, mode, cols, a, vals, out);
    else if (compiled == 4)
        ttmc_peers_kernel<4><<<grid, 256>>>(nnz, order, mode, cols, a, vals, out);
    else
        ttmc_peers_kernel<0><<<grid, 256>>>(nnz, order, mode, cols, a, vals, out);
    check(cudaGetLastError(), "launching the COO TTMc kernel");
}

void ttmc_coo(const Coo& coo, const TtmcDense& d, Timing& timing) {
    use_device();
    const int order = static_cast<int>(coo.idx.size());
    if (order > kMaxModes) throw Error("the CUDA TTMc handles up to 16 modes");
    std::uint64_t cols = 1;
    for (int m = 0; m < order; ++m)
        if (m != d.mode) cols *= d.ranks[static_cast<std::size_t>(m)];
    const std::uint64_t out_n = d.rows[static_cast<std::size_t>(d.mode)] * cols;
    require_free(coo.nnz * (4ull * static_cast<std::uint64_t>(order) + 4) + out_n * 8, "TTMc");
    Event t0, t1, t2, t3;
    t0.record();
    std::vector<DeviceArray<std::uint32_t>> idx;
    for (auto* p : coo.idx) idx.emplace_back(p, coo.nnz);
    DeviceArray<float> vals(coo.vals, coo.nnz);
    std::vector<DeviceArray<float>> factors;
    for (int m = 0; m < order; ++m)
        factors.emplace_back(m == d.mode || !d.factors[static_cast<std::size_t>(m)]
                                 ? DeviceArray<float>()
                                 : DeviceArray<float>(d.factors[static_cast<std::size_t>(m)], d.rows[static_cast<std::size_t>(m)] * d.ranks[static_cast<std::size_t>(m)]));
    DeviceArray<double> out(out_n);
    out.zero();
    std::vector<const std::uint32_t*> ip;
    std::vector<const float*> fp;
    for (int m = 0; m < order; ++m)
        ip.push_back(idx[static_cast<std::size_t>(m)].get()), fp.push_back(factors[static_cast<std::size_t>(m)].get());
    t1.record();
    if (env_is("TENSORSCOPE_TTMC_KERNEL", "warp")) {
        const Args a = args_of(order, ip.data(), fp.data(), d.ranks.data());
        if (coo.nnz)
            ttmc_coo_kernel<<<grid_for(coo.nnz * 32), 256>>>(coo.nnz, order, d.mode, cols, a, vals.get(), out.get());
        check(cudaGetLastError(), "launching the COO TTMc kernel");
    } else {
        launch_ttmc_peers(coo.nnz, order, d.mode, cols, ip.data(), fp.data(), d.ranks.data(), vals.get(), out.get());
    }
    t2.record();
    out.download(d.out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

}  // namespace tscope::gpu
