// HLS MTTKRP / TTMc: WMMA for the dense tiles, CUDA cores for the sparse nonzeros.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
#include <cstdlib>
#include <optional>

#include "cuda_util.cuh"
#include "gpu_hls.hpp"
#include "gpu_mttkrp.hpp"
#include "gpu_ttmc.hpp"
#include "hls_sparse_kernel.hpp"

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

// The sparse part (HLS-S) by the paper's element-wise kernel (Sec. IV-A): a warp per nonzero
// here, lanes over the columns, an fp64 atomic a column.
__global__ void element_wise_kernel(std::uint64_t nnz, const std::uint32_t* __restrict__ i0,
                                    const std::uint32_t* __restrict__ i1, const std::uint32_t* __restrict__ i2,
                                    const float* __restrict__ vals, int mode, bool kron, Dense3 d, std::uint64_t cols,
                                    double* out) {
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

// HLS's sparse part on the device, and the kernel that takes it (hls_sparse_kernel.hpp). MTTKRP's
// is a COO and runs on the COO format's own kernels (gpu_mttkrp.cu: teams of lanes summing each
// run of one output row in registers, fp32 vector atomics into output copies as the mode's
// longest chain of adds asks, summed in fp64). The paper's element-wise kernel walks the same
// nonzeros; on every part it took 1.6-13x COO's time
// on the uniform and power-law tensors of session 75's GPU evaluation. Session 76 call 2 (one
// H200, rank 32, us a mode, on the COO kernels against element-wise,
// docs/bench/h200-session76.json): uniform-3d-20m 1,288-1,429 against 5,414-5,558,
// powerlaw-3d-20m 1,199-1,720 against 12,311-14,121, check-powerlaw-3d-5m 367-485 against
// 3,578-3,944, powerlaw-3d 112-145 against 694-788 (COO itself 90-149); on the blocks tensors,
// whose nonzeros lie mostly in dense tiles, even. TTMc's sparse part runs the COO TTMc's peers
// kernel (gpu_ttmc.cu): session 76 call 6 (rank 8, us a mode, docs/bench/h200-ttmc-session76.json)
// powerlaw-3d 132-264 against the element-wise kernel's 795-1,016, powerlaw-3d-20m 3,772-7,531
// against 15,586-16,350, MovieLens 36-49 against 65-85; the blocks tensor even.
// TENSORSCOPE_HLS_SPARSE=element forces the element-wise kernel, for comparisons.
class SparsePart {
public:
    // Uploads the part and allocates its output copies, outside the kernels' time as the other
    // formats' outputs are (cudaMalloc waits on the device: with the output copies allocated in the timed launch,
    // MovieLens's mode 1 took 195-231 us against 72-84 by the element-wise kernel, session 76
    // call 1).
    SparsePart(const HlsDevInput& x, int mode, bool kron, std::uint64_t cols)
        : x_(x),
          mode_(mode),
          kron_(kron),
          cols_(cols),
          kernel_(hls_sparse_kernel(kron, std::getenv("TENSORSCOPE_HLS_SPARSE"))) {
        if (x.nnz == 0) return;
        if (kernel_ == HlsSparseKernel::Coo) {
            Coo coo;
            coo.nnz = x.nnz, coo.vals = x.vals;
            coo.idx.assign(x.idx.begin(), x.idx.end());
            coo_.emplace(coo);
            coo_->reserve_copies(mode, cols);
            return;
        }
        for (int m = 0; m < 3; ++m) idx_[m] = DeviceArray<std::uint32_t>(x.idx[static_cast<std::size_t>(m)], x.nnz);
        vals_ = DeviceArray<float>(x.vals, x.nnz);
    }

    void launch(const Dense3& d, double* dout) {
        if (x_.nnz == 0) return;
        switch (kernel_) {
        case HlsSparseKernel::Coo:  // its fp32 copies, one or more, summed into dout
            coo_->launch(mode_, cols_, d.f, nullptr, dout);
            return;
        case HlsSparseKernel::Peers: {
            const std::uint32_t* idx[3] = {idx_[0].get(), idx_[1].get(), idx_[2].get()};
            launch_ttmc_peers(x_.nnz, 3, mode_, cols_, idx, d.f, d.rank, vals_.get(), dout);
            return;
        }
        case HlsSparseKernel::ElementWise:
            element_wise_kernel<<<grid_for(x_.nnz * 32), 256>>>(x_.nnz, idx_[0].get(), idx_[1].get(), idx_[2].get(),
                                                                vals_.get(), mode_, kron_, d, cols_, dout);
            check(cudaGetLastError(), "launching the HLS sparse kernel");
            return;
        }
    }

private:
    const HlsDevInput& x_;
    int mode_;
    bool kron_;
    std::uint64_t cols_;
    HlsSparseKernel kernel_;
    std::optional<ResidentTensor> coo_;
    DeviceArray<std::uint32_t> idx_[3];
    DeviceArray<float> vals_;
};

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
    SparsePart sparse(x, mode, kron, cols);
    DeviceArray<float> f[3];
    Dense3 d{};
    for (int m = 0; m < 3; ++m) {
        d.rank[m] = ranks[static_cast<std::size_t>(m)];
        d.dims[m] = x.dims[static_cast<std::size_t>(m)];
        if (m != mode) f[m] = DeviceArray<float>(factors[static_cast<std::size_t>(m)], x.dims[static_cast<std::size_t>(m)] * ranks[static_cast<std::size_t>(m)]);
        d.f[m] = f[m].get();
    }
    DeviceArray<double> dout(out_n);
    dout.zero();
    // t0..t1 holds the sparse part's set-up too (on the COO kernels the resident COO's row
    // counts), t1..t2 the sum of its output copies into dout even where there is one, which the
    // COO format widens on the host after its kernels' time
    t1.record();
    sparse.launch(d, dout.get());
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
    t2.record();
    dout.download(out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

}  // namespace tscope::gpu
