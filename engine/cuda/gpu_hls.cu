// HLS MTTKRP / TTMc: WMMA for the dense tiles, CUDA cores for the sparse nonzeros.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
#include <algorithm>
#include <optional>
#include <vector>

#include "cuda_util.cuh"
#include "env_switch.hpp"
#include "gpu_hls.hpp"
#include "gpu_mttkrp.hpp"

namespace tscope::gpu {

namespace {

constexpr int kWarpsPerBlock = 4;
// From this many dense tiles a warp takes all of a tile's output chunks: 132 SMs hold about 16
// warps of this kernel each, so 4,096 tiles still fill the device twice over.
constexpr std::uint64_t kTilesForWholeWarps = 4096;

struct Dense3 {
    const float* f[3];
    std::uint64_t rank[3];
    std::uint64_t dims[3];
};

// Row `r`'s factor value for output column `col` of the product operand: the Khatri-Rao
// product's column pairs column col of both factors (MTTKRP), the Kronecker product's the
// column col / rank_b of mode a's factor with column col % rank_b of mode b's (TTMc); 0 past
// the factor's rows (a tile at the tensor's edge) or the operand's columns.
__device__ float factor_value(const Dense3& d, int m, bool first, std::uint64_t r, std::uint64_t col,
                              std::uint64_t cols, std::uint64_t rank_b, bool kron) {
    if (r >= d.dims[m] || col >= cols) return 0.0f;
    const std::uint64_t c = !kron ? col : first ? col / rank_b : col % rank_b;
    return d.f[m][r * d.rank[m] + c];
}

// One warp per tile and chunk of 16 output columns, or per tile for all its chunks (per_warp).
// A = the tile unfolded in `mode` (16 x 256, fp16, in shared memory); B = 16 x 16 slices of the
// Khatri-Rao / Kronecker rows; C += A B on the tensor cores, then added into the fp64 output rows.
__global__ void tile_kernel(std::uint64_t tiles, const float* __restrict__ cells,
                            const std::uint32_t* __restrict__ origin, int mode, bool kron, Dense3 d, std::uint64_t cols,
                            std::uint64_t per_warp, double* out) {
    using namespace nvcuda;
    __shared__ __half sa[kWarpsPerBlock][16 * 256];
    __shared__ __half sb[kWarpsPerBlock][16 * 16];
    __shared__ float sc[kWarpsPerBlock][16 * 16];
    // the 16 rows of each other mode's factor under the tile, at this chunk's 16 columns: the
    // operand's 4,096 entries are their products, where each had read both factors from global
    // memory (8,192 loads a tile and chunk for these 512)
    __shared__ float pa[kWarpsPerBlock][16 * 16];
    __shared__ float pb[kWarpsPerBlock][16 * 16];
    const unsigned lane = threadIdx.x % 32, w = threadIdx.x / 32;
    // a warp takes `per_warp` of the tile's chunks of 16 columns, and loads the tile once for them
    const std::uint64_t chunks = (cols + 15) / 16, groups = (chunks + per_warp - 1) / per_warp;
    const std::uint64_t item = blockIdx.x * static_cast<std::uint64_t>(kWarpsPerBlock) + w;
    if (item >= tiles * groups) return;
    const std::uint64_t q = item / groups, first = (item % groups) * per_warp;
    const std::uint64_t last = first + per_warp < chunks ? first + per_warp : chunks;
    const int a = mode == 0 ? 1 : 0, b = mode == 2 ? 1 : 2;  // the other two modes, ascending
    // the unfolding: row = the mode's offset, column = (offset in a) * 16 + (offset in b)
    for (int c = static_cast<int>(lane); c < 4096; c += 32) {
        const int i = c >> 8, j = (c >> 4) & 15, k = c & 15;
        const int off[3] = {i, j, k};
        sa[w][off[mode] * 256 + off[a] * 16 + off[b]] = __float2half(cells[q * 4096 + static_cast<std::uint64_t>(c)]);
    }
    const std::uint64_t base[3] = {origin[q * 3], origin[q * 3 + 1], origin[q * 3 + 2]};
    const std::uint64_t rank_b = d.rank[b];
    for (std::uint64_t nc = first; nc < last; ++nc) {
        __syncwarp();  // the last chunk's products read from pa, pb and sc
        for (int e = static_cast<int>(lane); e < 256; e += 32) {
            const std::uint64_t o = static_cast<std::uint64_t>(e / 16),
                                col = nc * 16 + static_cast<std::uint64_t>(e % 16);
            pa[w][e] = factor_value(d, a, true, base[a] + o, col, cols, rank_b, kron);
            pb[w][e] = factor_value(d, b, false, base[b] + o, col, cols, rank_b, kron);
        }
        __syncwarp();
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
        wmma::fill_fragment(acc, 0.0f);
        for (int kk = 0; kk < 16; ++kk) {  // K = 256 in 16 steps: offset in a = kk, offset in b = 0..15
            for (int e = static_cast<int>(lane); e < 256; e += 32) {
                const int s = e / 16, n = e % 16;
                sb[w][e] = __float2half(pa[w][kk * 16 + n] * pb[w][s * 16 + n]);
            }
            __syncwarp();
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
            wmma::load_matrix_sync(fa, sa[w] + kk * 16, 256);
            wmma::load_matrix_sync(fb, sb[w], 16);
            wmma::mma_sync(acc, fa, fb, acc);
            __syncwarp();
        }
        wmma::store_matrix_sync(sc[w], acc, 16, wmma::mem_row_major);
        __syncwarp();
        for (int e = static_cast<int>(lane); e < 256; e += 32) {
            const std::uint64_t row = base[mode] + static_cast<std::uint64_t>(e / 16),
                                col = nc * 16 + static_cast<std::uint64_t>(e % 16);
            if (row < d.dims[mode] && col < cols && sc[w][e] != 0.0f)
                atomicAdd(&out[row * cols + col], static_cast<double>(sc[w][e]));
        }
    }
}

// out[i] = in[i], widened: the sparse part's single fp32 output copy as the fp64 output the
// tiles then add into.
__global__ void widen_kernel(const float* in, double* out, std::uint64_t n) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        out[i] = in[i];
}

// TTMc's sparse part (HLS-S) on CUDA cores, as the paper's element-wise kernel (Sec. IV-A) with
// a warp per nonzero, lanes over the columns; the COO TTMc (gpu_ttmc.cu) walks its nonzeros
// the same way.
__global__ void sparse_kernel(std::uint64_t nnz, const std::uint32_t* __restrict__ i0, const std::uint32_t* __restrict__ i1,
                              const std::uint32_t* __restrict__ i2, const float* __restrict__ vals, int mode, bool kron, Dense3 d,
                              std::uint64_t cols, double* out) {
    const std::uint64_t warp = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    const int a = mode == 0 ? 1 : 0, b = mode == 2 ? 1 : 2;
    for (std::uint64_t z = warp; z < nnz; z += warps) {
        const std::uint64_t c[3] = {i0[z], i1[z], i2[z]};
        for (std::uint64_t col = lane; col < cols; col += 32)
            atomicAdd(&out[c[mode] * cols + col],
                      static_cast<double>(vals[z] * factor_value(d, a, true, c[a], col, cols, d.rank[b], kron) *
                                          factor_value(d, b, false, c[b], col, cols, d.rank[b], kron)));
    }
}

// Where MTTKRP's sparse part stays on the element-wise kernel: under kElementNonzeros nonzeros
// none of whose output rows takes over kElementRowAdds of them. There the COO kernels' teams (a
// team of lanes per 128 nonzeros) leave most of the device idle and their copies cost two more
// launches, while the element-wise kernel's fp64 adds into one row queue on it only as far as
// that row's nonzeros go (about 10 ns each: powerlaw-3d-steep's heaviest rows, 42K-69K
// nonzeros, took it 439-695 us a mode). Session 76 call 2 (one H200, rank 32, us a mode, COO
// kernels against element-wise): MovieLens (100K sparse nonzeros, heaviest rows 583-3,550)
// 94-116 against 54-72; Last.fm (186K; 931-7,503) 124-149 against 98-142, mode 1 alone
// faster on the COO kernels (124-126 against 140-142); uniform-3d (600K; 192-358) 109-130
// against 184-202; powerlaw-3d-steep (400K) 119-150 against 439-695.
constexpr std::uint64_t kElementNonzeros = 256 * 1024, kElementRowAdds = 8192;
bool element_wise_fits(const HlsDevInput& x, int mode) {
    if (x.nnz >= kElementNonzeros) return false;
    std::vector<std::uint32_t> rows(x.idx[static_cast<std::size_t>(mode)],
                                    x.idx[static_cast<std::size_t>(mode)] + x.nnz);
    std::sort(rows.begin(), rows.end());
    for (std::uint64_t a = 0, b = 0; a < rows.size(); a = b) {
        while (b < rows.size() && rows[b] == rows[a]) ++b;
        if (b - a > kElementRowAdds) return false;
    }
    return true;
}

}  // namespace

void hls_multiply(const HlsDevInput& x, int mode, bool kron, const std::array<const float*, 3>& factors,
                  const std::array<std::uint64_t, 3>& ranks, double* out, Timing& timing) {
    use_device();
    const int a = mode == 0 ? 1 : 0, b = mode == 2 ? 1 : 2;
    const std::uint64_t cols = kron ? ranks[static_cast<std::size_t>(a)] * ranks[static_cast<std::size_t>(b)] : ranks[static_cast<std::size_t>(a)];
    const std::uint64_t out_n = x.dims[static_cast<std::size_t>(mode)] * cols;
    Event t0, t1, t2, t3;
    t0.record();
    DeviceArray<float> cells(x.cells, x.tiles * 4096);
    DeviceArray<std::uint32_t> origin(x.origin, x.tiles * 3);
    // MTTKRP's sparse part is a COO and runs on the COO format's own kernels (gpu_mttkrp.cu:
    // teams of lanes summing each run of one output row in registers, fp32 vector atomics into
    // output copies as the mode's longest chain of adds asks, summed in fp64), but for small
    // parts without heavy rows (element_wise_fits). The paper's element-wise kernel (Sec. IV-A;
    // a warp a nonzero here, an fp64 atomic a column) walks the same nonzeros; on every part it
    // took 1.6-13x COO's time on the uniform and power-law tensors of session 75's GPU
    // evaluation. Session 76 call 2 (one H200, rank 32, us a mode, on the COO kernels against
    // element-wise, docs/bench/h200-session76.json): uniform-3d-20m 1,288-1,428 against
    // 5,414-5,558, powerlaw-3d-20m 1,199-1,720 against 12,311-14,121, check-powerlaw-3d-5m
    // 367-485 against 3,578-3,944, powerlaw-3d 112-145 against 694-788 (COO itself 90-149); on
    // the blocks tensors, whose nonzeros lie mostly in dense tiles, even. TTMc keeps the
    // element-wise kernel, as the COO TTMc (gpu_ttmc.cu) does. TENSORSCOPE_HLS_SPARSE=element or
    // =coo forces either on MTTKRP, for comparisons.
    const bool element = kron || env_is("TENSORSCOPE_HLS_SPARSE", "element") ||
                         (!env_is("TENSORSCOPE_HLS_SPARSE", "coo") && element_wise_fits(x, mode));
    const bool coo_part = !element && x.nnz > 0;
    std::optional<ResidentTensor> sparse;
    if (coo_part) {
        Coo coo;
        coo.nnz = x.nnz, coo.vals = x.vals;
        coo.idx.assign(x.idx.begin(), x.idx.end());
        sparse.emplace(coo);
    }
    DeviceArray<std::uint32_t> i0, i1, i2;
    DeviceArray<float> vals;
    if (element) {
        i0 = DeviceArray<std::uint32_t>(x.idx[0], x.nnz), i1 = DeviceArray<std::uint32_t>(x.idx[1], x.nnz);
        i2 = DeviceArray<std::uint32_t>(x.idx[2], x.nnz);
        vals = DeviceArray<float>(x.vals, x.nnz);
    }
    DeviceArray<float> f[3];
    Dense3 d{};
    for (int m = 0; m < 3; ++m) {
        d.rank[m] = ranks[static_cast<std::size_t>(m)];
        d.dims[m] = x.dims[static_cast<std::size_t>(m)];
        if (m != mode) f[m] = DeviceArray<float>(factors[static_cast<std::size_t>(m)], x.dims[static_cast<std::size_t>(m)] * ranks[static_cast<std::size_t>(m)]);
        d.f[m] = f[m].get();
    }
    DeviceArray<double> dout(out_n);
    // the outputs allocated and cleared here, outside the kernels' time, as the other formats'
    // are (cudaMalloc waits on the device: with the sparse part's output copies allocated in the
    // timed launch, MovieLens's mode 1 took 195-231 us against 72-84 by the element-wise kernel,
    // session 76 call 1). Where the sparse part's adds all go into one fp32 output copy, that
    // copy widened is the fp64 output the tiles add into.
    const bool single_copy = coo_part && !sparse->accumulates_in_double(mode, cols);
    DeviceArray<float> out_f(single_copy ? out_n : 0);
    if (single_copy)
        out_f.zero();
    else
        dout.zero();
    if (coo_part) sparse->reserve_copies(mode, cols);
    t1.record();
    if (single_copy) {
        sparse->launch(mode, cols, d.f, out_f.get(), nullptr);
        widen_kernel<<<grid_for(out_n), 256>>>(out_f.get(), dout.get(), out_n);
        check(cudaGetLastError(), "widening the HLS sparse part's output");
    } else if (coo_part) {
        sparse->launch(mode, cols, d.f, nullptr, dout.get());
    }
    // each warp loads its tile once for all its chunks of 16 columns (TTMc at rank 8 has 4, and
    // had read the 16 kB tile 4 times), where there are tiles enough to fill the device;
    // otherwise a warp per tile and chunk, as before
    const std::uint64_t chunks = (cols + 15) / 16;
    const std::uint64_t per_warp = x.tiles >= kTilesForWholeWarps ? chunks : 1;
    const std::uint64_t items = x.tiles * ((chunks + per_warp - 1) / per_warp);
    if (items)
        tile_kernel<<<static_cast<unsigned>((items + kWarpsPerBlock - 1) / kWarpsPerBlock), 32 * kWarpsPerBlock>>>(
            x.tiles, cells.get(), origin.get(), mode, kron, d, cols, per_warp, dout.get());
    check(cudaGetLastError(), "launching the HLS tensor-core kernel");
    if (element && x.nnz)
        sparse_kernel<<<grid_for(x.nnz * 32), 256>>>(x.nnz, i0.get(), i1.get(), i2.get(), vals.get(), mode, kron, d, cols, dout.get());
    check(cudaGetLastError(), "launching the HLS sparse kernel");
    t2.record();
    dout.download(out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

}  // namespace tscope::gpu
