// CUDA SpTV (hocfs-sptv-pipeline Sec. 6.1), the whole tensor at once, kept on the device across
// vectors: nonzero-balanced tiles for the CSR-shaped formats and HOCOO's segments (Fig. 9 and
// Alg. 3), one thread per fiber for HOCFS-ELL (Fig. 10, in sptv_kernels.cuh).
#include <cub/block/block_scan.cuh>

#include <memory>
#include <type_traits>

#include "cuda_util.cuh"
#include "gpu_sptv.hpp"
#include "piece_ranges.cuh"
#include "sptv_kernels.cuh"

namespace tscope::gpu {

namespace {

// The nonzero-balanced SpTV of rows given by a row pointer (CSR's, HOCOO's fiber segments):
// every block takes a tile of kTile consecutive nonzeros whatever rows they belong to, so a
// power-law tensor's long fibers no longer leave most lanes idle while a few walk them, and
// every load of col and val is a contiguous, vectorised one. The rows a tile touches are found
// once per tile (piece_ranges.cuh: a binary search in the row pointer); inside the tile the
// row starts are marked in shared memory, a block-wide max-scan gives each nonzero its row,
// each thread sums its four nonzeros per row, and the row sums meet in shared memory (with the
// tile's slice of the row pointer, read once, where at most kTile + 1 rows, empty ones
// included, meet the tile). The slice is kept as 32-bit offsets from the tile's start and, for
// rows that are never empty, the row marks as 16-bit: a block then needs about 11 KB of shared
// memory instead of 17.5, which leaves the L1 cache room for a vector of some 30,000 entries
// (the nell-2 shape's third mode) beside eight resident blocks. (Finding each nonzero's row by
// binary search in the slice instead, with no marks and no scan, took 0.82-0.87 ms on the
// nell-2 shape against 0.60-0.65: measured and not kept.)
//
// Writing the rows out comes in two kinds (RowWrites):
// - Cleared: the output is cleared first (which also zeroes empty rows, as HOCSR has); a row
//   wholly inside the tile is stored, the first and last rows, which may go on in a
//   neighbouring tile, are added atomically.
// - Owned, for layouts whose rows are never empty (fibers, segments): the tile holding a row's
//   first nonzero stores its share, and a tile whose first row began earlier leaves that
//   row's share in carry[t], added afterwards (piece_ranges.cuh). No clearing pass over the
//   output, and no atomics in the main kernel: the output is written once.
constexpr int kTileThreads = 256, kTileItems = 4, kTile = kTileThreads * kTileItems;

enum class RowWrites { Cleared, Owned };

// A row start as an offset from the tile's first nonzero t0, clamped to [-1, kTile + 1]: only
// its order against 0, the tile's length and its neighbour's offset matters, and the clamped
// ends keep those orders (a row before t0 can only be the tile's first, one past the tile
// only the last's end).
__device__ __forceinline__ int tile_offset(std::uint64_t p, std::uint64_t t0) {
    if (p < t0) return -1;
    return p - t0 > kTile ? kTile + 1 : static_cast<int>(p - t0);
}

struct MaxOp {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

// This thread's four consecutive nonzeros of the tile, multiplied by v. Issued before the
// tile's row bookkeeping, so that their loads are in flight while it runs.
__device__ __forceinline__ void tile_products(std::uint64_t t0, int n, int p0, const std::uint32_t* __restrict__ col,
                                              const float* __restrict__ val, const float* __restrict__ v, float (&prod)[kTileItems]) {
    if (p0 + kTileItems <= n) {
        const uint4 c4 = *reinterpret_cast<const uint4*>(col + t0 + p0);
        const float4 x4 = *reinterpret_cast<const float4*>(val + t0 + p0);
        prod[0] = x4.x * v[c4.x], prod[1] = x4.y * v[c4.y], prod[2] = x4.z * v[c4.z], prod[3] = x4.w * v[c4.w];
        return;
    }
#pragma unroll
    for (int k = 0; k < kTileItems; ++k) prod[k] = p0 + k < n ? val[t0 + p0 + k] * v[col[t0 + p0 + k]] : 0.0f;
}

// A row mark: the row's index within the tile's range. Owned rows are never empty, so at most
// kTile + 1 rows meet a tile and 16 bits hold it; HOCSR's empty rows can put millions of rows in
// one tile's range.
template <RowWrites W>
using RowMark = std::conditional_t<W == RowWrites::Owned, short, int>;

template <RowWrites W>
__global__ void __launch_bounds__(kTileThreads) sptv_tiles_kernel(std::uint64_t tiles, std::uint64_t rows, std::uint64_t nnz,
                                                                  const std::uint64_t* __restrict__ ptr,
                                                                  const std::uint64_t* __restrict__ tile_row,
                                                                  const std::uint32_t* __restrict__ col,
                                                                  const float* __restrict__ val, const float* __restrict__ v,
                                                                  float* __restrict__ out, float* __restrict__ carry) {
    using Scan = cub::BlockScan<int, kTileThreads>;
    __shared__ typename Scan::TempStorage scan_tmp;
    __shared__ RowMark<W> head[kTile];
    __shared__ float row_sum[kTile + 2];
    __shared__ int row_start[kTile + 2];  // tile_offset of the rows' starts
    const int p0 = threadIdx.x * kTileItems;
    for (std::uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        const std::uint64_t t0 = t * kTile;
        const int n = static_cast<int>(nnz - t0 < kTile ? nnz - t0 : kTile);
        float prod[kTileItems];
        tile_products(t0, n, p0, col, val, v, prod);
        const std::uint64_t r_lo = tile_row[t];
        const std::uint64_t r_hi = t + 1 < tiles ? tile_row[t + 1] : rows - 1;
        const std::uint64_t count = r_hi - r_lo + 1;  // rows met, empty ones included
        // row_start holds count + 1 entries; with no empty rows count <= kTile + 1 always
        const bool in_shared = count <= kTile + 1;
        for (int p = threadIdx.x; p < kTile; p += kTileThreads) head[p] = p == 0 ? 0 : -1;
        if (in_shared)
            for (std::uint64_t l = threadIdx.x; l <= count; l += kTileThreads)
                row_sum[l] = 0.0f, row_start[l] = tile_offset(ptr[r_lo + l], t0);
        __syncthreads();
        // the tile's slice of the row pointer: from shared memory where it fits (read once)
        const auto start_of = [&](std::uint64_t l) { return in_shared ? row_start[l] : tile_offset(ptr[r_lo + l], t0); };
        for (std::uint64_t l = 1 + threadIdx.x; l < count; l += kTileThreads) {
            const int start = start_of(l);
            if (start < n && start_of(l + 1) > start) head[start] = static_cast<RowMark<W>>(l);
        }
        __syncthreads();
        // each nonzero's row: the running max of the marks, within the thread and then across
        // the block (a scan of one value a thread keeps the four in registers)
        int row[kTileItems], run = -1;
#pragma unroll
        for (int k = 0; k < kTileItems; ++k) row[k] = run = max(run, static_cast<int>(head[p0 + k]));
        int before = -1;
        Scan(scan_tmp).ExclusiveScan(run, before, -1, MaxOp{});
#pragma unroll
        for (int k = 0; k < kTileItems; ++k) row[k] = max(row[k], before);
        // runs of one row among the four: one add per run
        const auto add = [&](int r, float x) {
            if (p0 >= n) return;
            if (in_shared) atomicAdd(&row_sum[r], x);
            else atomicAdd(&out[r_lo + static_cast<std::uint64_t>(r)], x);
        };
        float sum = prod[0];
        int current = row[0];
#pragma unroll
        for (int k = 1; k < kTileItems; ++k) {
            if (row[k] != current) add(current, sum), sum = 0.0f, current = row[k];
            sum += prod[k];
        }
        add(current, sum);
        __syncthreads();
        if (in_shared) {
            for (std::uint64_t l = threadIdx.x; l < count; l += kTileThreads) {
                const int a = row_start[l], b = row_start[l + 1];
                if constexpr (W == RowWrites::Owned) {
                    if (a >= n) continue;  // begins in a later tile
                    if (a >= 0) out[r_lo + l] = row_sum[l];
                    else carry[t] = row_sum[l];  // l == 0: the row began in an earlier tile
                } else {
                    if (a == b) continue;  // empty: the cleared output holds its zero
                    if (a >= 0 && b <= n) out[r_lo + l] = row_sum[l];
                    else atomicAdd(&out[r_lo + l], row_sum[l]);
                }
            }
        }
        __syncthreads();  // head, row_sum and scan_tmp are reused by the next tile
    }
}

std::uint64_t tile_count(std::uint64_t nnz) { return (nnz + kTile - 1) / kTile; }

// The tiles' scratch: the first row of each tile and, for owned writes, each tile's carry.
struct TileScratch {
    explicit TileScratch(std::uint64_t nnz) : tile_row(tile_count(nnz)), carry(tile_count(nnz)) {}
    static std::uint64_t bytes(std::uint64_t nnz) { return tile_count(nnz) * 12; }
    DeviceArray<std::uint64_t> tile_row;
    DeviceArray<float> carry;
};

// SpTV over a row pointer with the tiles above. `empty_rows`: whether any row may be empty
// (HOCSR's rows); fibers and segments never are, and take the owned writes.
void launch_sptv_pointer(std::uint64_t rows, std::uint64_t nnz, const std::uint64_t* ptr, const std::uint32_t* col, const float* val,
                         const float* v, float* out, bool empty_rows, TileScratch& scratch) {
    if (rows == 0) return;
    if (nnz == 0) {
        check(cudaMemsetAsync(out, 0, rows * sizeof(float)), "clearing the SpTV output");
        return;
    }
    const std::uint64_t tiles = tile_count(nnz);
    launch_piece_ranges(tiles, kTile, rows, ptr, 0, scratch.tile_row.get());  // each tile's first row
    const int grid = grid_for(tiles * kTileThreads, kTileThreads);
    if (empty_rows) {
        check(cudaMemsetAsync(out, 0, rows * sizeof(float)), "clearing the SpTV output");
        sptv_tiles_kernel<RowWrites::Cleared><<<grid, kTileThreads>>>(tiles, rows, nnz, ptr, scratch.tile_row.get(), col, val, v, out,
                                                                      nullptr);
        return;
    }
    sptv_tiles_kernel<RowWrites::Owned><<<grid, kTileThreads>>>(tiles, rows, nnz, ptr, scratch.tile_row.get(), col, val, v, out,
                                                                scratch.carry.get());
    launch_piece_carries(tiles, kTile, 1, ptr, scratch.tile_row.get(), scratch.carry.get(), out);
}

}  // namespace

struct SptvDevice::Impl {
    bool ell = false, empty_rows = false;
    std::uint64_t outputs = 0, nnz = 0, slices = 0;
    DeviceArray<std::uint64_t> ptr, ap;  // SptvRows' ptr or SptvEll's first; ap: ELL only
    DeviceArray<std::uint32_t> fiber_slice, col;
    DeviceArray<float> val, v, out;
    std::unique_ptr<TileScratch> scratch;
};

SptvDevice::SptvDevice(const SptvRows& x, std::uint64_t vlen, Timing& timing) : impl_(new Impl) {
    use_device();
    require_free((x.rows + 1) * 8 + x.nnz * 8 + vlen * 4 + x.rows * 4 + TileScratch::bytes(x.nnz), "SpTV on the whole tensor");
    Event t0, t1;
    t0.record();
    Impl& d = *impl_;
    d.outputs = x.rows, d.nnz = x.nnz, d.empty_rows = x.empty_rows;
    d.ptr = DeviceArray<std::uint64_t>(x.ptr, x.rows + 1);
    d.col = DeviceArray<std::uint32_t>(x.col, x.nnz);
    d.val = DeviceArray<float>(x.val, x.nnz);
    d.v = DeviceArray<float>(vlen);
    d.out = DeviceArray<float>(x.rows);
    d.scratch = std::make_unique<TileScratch>(x.nnz);
    t1.record();
    timing.upload_s = Event::seconds(t0, t1);
}

SptvDevice::SptvDevice(const SptvEll& x, std::uint64_t vlen, Timing& timing) : impl_(new Impl) {
    use_device();
    require_free((x.slices + 1) * 16 + x.fibers * 8 + x.entries * 8 + vlen * 4, "SpTV on the whole tensor");
    Event t0, t1;
    t0.record();
    Impl& d = *impl_;
    d.ell = true, d.outputs = x.fibers, d.nnz = x.entries, d.slices = x.slices;
    d.ptr = DeviceArray<std::uint64_t>(x.first, x.slices + 1);
    d.ap = DeviceArray<std::uint64_t>(x.ap, x.slices + 1);
    d.fiber_slice = DeviceArray<std::uint32_t>(x.fiber_slice, x.fibers);
    d.col = DeviceArray<std::uint32_t>(x.col, x.entries);
    d.val = DeviceArray<float>(x.val, x.entries);
    d.v = DeviceArray<float>(vlen);
    d.out = DeviceArray<float>(x.fibers);
    t1.record();
    timing.upload_s = Event::seconds(t0, t1);
}

SptvDevice::~SptvDevice() = default;

std::uint64_t SptvDevice::outputs() const { return impl_->outputs; }

void SptvDevice::compute(const float* v, float* out, Timing& timing) {
    use_device();
    Impl& d = *impl_;
    Event t0, t1, t2, t3;
    t0.record();
    d.v.upload(v);
    t1.record();
    if (d.ell) {
        if (d.outputs)
            sptv_ell_kernel<<<grid_for(d.outputs), 256>>>(d.outputs, 0, 0, 0, d.ptr.get(), d.ap.get(), d.fiber_slice.get(), d.col.get(),
                                                         d.val.get(), d.v.get(), d.out.get());
    } else {
        launch_sptv_pointer(d.outputs, d.nnz, d.ptr.get(), d.col.get(), d.val.get(), d.v.get(), d.out.get(), d.empty_rows, *d.scratch);
    }
    check(cudaGetLastError(), "launching the SpTV kernel");
    t2.record();
    d.out.download(out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

}  // namespace tscope::gpu
