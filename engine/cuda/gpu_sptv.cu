// CUDA SpTV (hocfs-sptv-pipeline Sec. 6.1), the whole tensor at once: nonzero-balanced tiles for
// the CSR-shaped formats and HOCOO's segments (Fig. 9 and Alg. 3), one thread per fiber for
// HOCFS-ELL (Fig. 10, in sptv_kernels.cuh).
#include <cub/block/block_scan.cuh>

#include "cuda_util.cuh"
#include "gpu_sptv.hpp"
#include "sptv_kernels.cuh"

namespace tscope::gpu {

namespace {

// The nonzero-balanced SpTV of rows given by a row pointer (CSR's, HOCOO's fiber segments):
// every block takes a tile of kTile consecutive nonzeros whatever rows they belong to, so a
// power-law tensor's long fibers no longer leave most lanes idle while a few walk them, and
// every load of col and val is a contiguous, vectorised one. The rows a tile touches are found
// once per tile (tile_rows_kernel, a binary search in the row pointer); inside the tile the
// row starts are marked in shared memory, a block-wide max-scan gives each nonzero its row,
// each thread sums its four nonzeros per row, and the row sums meet in shared memory (with the
// tile's slice of the row pointer, read once, where at most kTile + 1 rows, empty ones
// included, meet the tile). A row
// wholly inside the tile is stored; the first and last rows, which may go on in a neighbouring
// tile, are added atomically (the output is cleared first, which also zeroes empty rows).
constexpr int kTileThreads = 256, kTileItems = 4, kTile = kTileThreads * kTileItems;

__global__ void tile_rows_kernel(std::uint64_t tiles, std::uint64_t rows, const std::uint64_t* __restrict__ ptr,
                                 std::uint64_t* __restrict__ tile_row) {
    const std::uint64_t t = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (t >= tiles) return;
    const std::uint64_t pos = t * kTile;
    std::uint64_t lo = 0, hi = rows;  // the last row r with ptr[r] <= pos
    while (hi - lo > 1) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (ptr[mid] <= pos) lo = mid;
        else hi = mid;
    }
    tile_row[t] = lo;
}

struct MaxOp {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

__global__ void __launch_bounds__(kTileThreads) sptv_tiles_kernel(std::uint64_t tiles, std::uint64_t rows, std::uint64_t nnz,
                                                                  const std::uint64_t* __restrict__ ptr,
                                                                  const std::uint64_t* __restrict__ tile_row,
                                                                  const std::uint32_t* __restrict__ col,
                                                                  const float* __restrict__ val, const float* __restrict__ v,
                                                                  float* __restrict__ out) {
    using Scan = cub::BlockScan<int, kTileThreads>;
    __shared__ typename Scan::TempStorage scan_tmp;
    __shared__ int head[kTile];
    __shared__ float row_sum[kTile + 2];
    __shared__ std::uint64_t row_ptr[kTile + 2];
    for (std::uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        const std::uint64_t t0 = t * kTile;
        const int n = static_cast<int>(nnz - t0 < kTile ? nnz - t0 : kTile);
        const std::uint64_t r_lo = tile_row[t];
        const std::uint64_t r_hi = t + 1 < tiles ? tile_row[t + 1] : rows - 1;
        const std::uint64_t count = r_hi - r_lo + 1;  // rows met, empty ones included
        const bool in_shared = count <= kTile + 1;  // row_ptr holds count + 1 entries
        for (int p = threadIdx.x; p < kTile; p += kTileThreads) head[p] = p == 0 ? 0 : -1;
        if (in_shared)
            for (std::uint64_t l = threadIdx.x; l <= count; l += kTileThreads) row_sum[l] = 0.0f, row_ptr[l] = ptr[r_lo + l];
        __syncthreads();
        // the tile's slice of the row pointer: from shared memory where it fits (read once)
        const std::uint64_t* __restrict__ rp = in_shared ? row_ptr : ptr + r_lo;
        for (std::uint64_t l = 1 + threadIdx.x; l < count; l += kTileThreads) {
            const std::uint64_t start = rp[l];
            if (start < t0 + n && rp[l + 1] > start) head[start - t0] = static_cast<int>(l);
        }
        __syncthreads();
        // this thread's four consecutive nonzeros: their products and their rows
        const int p0 = threadIdx.x * kTileItems;
        float prod[kTileItems];
        int row[kTileItems];
        if (p0 + kTileItems <= n) {
            const uint4 c4 = *reinterpret_cast<const uint4*>(col + t0 + p0);
            const float4 x4 = *reinterpret_cast<const float4*>(val + t0 + p0);
            prod[0] = x4.x * v[c4.x], prod[1] = x4.y * v[c4.y], prod[2] = x4.z * v[c4.z], prod[3] = x4.w * v[c4.w];
        } else {
#pragma unroll
            for (int k = 0; k < kTileItems; ++k) prod[k] = p0 + k < n ? val[t0 + p0 + k] * v[col[t0 + p0 + k]] : 0.0f;
        }
#pragma unroll
        for (int k = 0; k < kTileItems; ++k) row[k] = head[p0 + k];
        Scan(scan_tmp).InclusiveScan(row, row, MaxOp{});
        // runs of one row among the four: one add per run
        float sum = prod[0];
        int current = row[0];
#pragma unroll
        for (int k = 1; k <= kTileItems; ++k) {
            if (k == kTileItems || row[k] != current) {
                if (p0 < n) {
                    if (in_shared) atomicAdd(&row_sum[current], sum);
                    else atomicAdd(&out[r_lo + static_cast<std::uint64_t>(current)], sum);
                }
                if (k == kTileItems) break;
                sum = 0.0f, current = row[k];
            }
            sum += prod[k];
        }
        __syncthreads();
        if (in_shared) {
            for (std::uint64_t l = threadIdx.x; l < count; l += kTileThreads) {
                const std::uint64_t a = row_ptr[l], b = row_ptr[l + 1];
                if (a == b) continue;  // empty: the cleared output holds its zero
                if (a >= t0 && b <= t0 + n) out[r_lo + l] = row_sum[l];
                else atomicAdd(&out[r_lo + l], row_sum[l]);
            }
        }
        __syncthreads();  // head, row_sum and scan_tmp are reused by the next tile
    }
}

std::uint64_t tile_count(std::uint64_t nnz) { return (nnz + kTile - 1) / kTile; }

// SpTV over a row pointer with the tiles above; tile_row holds tile_count(nnz) entries.
void launch_sptv_pointer(std::uint64_t rows, std::uint64_t nnz, const std::uint64_t* ptr, const std::uint32_t* col, const float* val,
                         const float* v, float* out, DeviceArray<std::uint64_t>& tile_row) {
    if (rows == 0) return;
    if (nnz == 0) {
        check(cudaMemsetAsync(out, 0, rows * sizeof(float)), "clearing the SpTV output");
        return;
    }
    const std::uint64_t tiles = tile_count(nnz);
    check(cudaMemsetAsync(out, 0, rows * sizeof(float)), "clearing the SpTV output");
    tile_rows_kernel<<<static_cast<unsigned>((tiles + 255) / 256), 256>>>(tiles, rows, ptr, tile_row.get());
    sptv_tiles_kernel<<<grid_for(tiles * kTileThreads, kTileThreads), kTileThreads>>>(tiles, rows, nnz, ptr, tile_row.get(), col, val, v,
                                                                                    out);
}

}  // namespace

void sptv_rows(const SptvRows& x, const float* v, std::uint64_t vlen, float* out, Timing& timing) {
    use_device();
    require_free((x.rows + 1) * 8 + x.nnz * 8 + vlen * 4 + x.rows * 4 + tile_count(x.nnz) * 8, "SpTV on the whole tensor");
    Event t0, t1, t2, t3;
    t0.record();
    DeviceArray<std::uint64_t> ptr(x.ptr, x.rows + 1);
    DeviceArray<std::uint32_t> col(x.col, x.nnz);
    DeviceArray<float> val(x.val, x.nnz), dv(v, vlen), dout(x.rows);
    DeviceArray<std::uint64_t> tile_row(tile_count(x.nnz));
    t1.record();
    launch_sptv_pointer(x.rows, x.nnz, ptr.get(), col.get(), val.get(), dv.get(), dout.get(), tile_row);
    check(cudaGetLastError(), "launching the SpTV row kernel");
    t2.record();
    dout.download(out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

void sptv_ell(const SptvEll& x, const float* v, std::uint64_t vlen, float* out, Timing& timing) {
    use_device();
    require_free((x.slices + 1) * 16 + x.fibers * 8 + x.entries * 8 + vlen * 4, "SpTV on the whole tensor");
    Event t0, t1, t2, t3;
    t0.record();
    DeviceArray<std::uint64_t> first(x.first, x.slices + 1), ap(x.ap, x.slices + 1);
    DeviceArray<std::uint32_t> slice(x.fiber_slice, x.fibers), col(x.col, x.entries);
    DeviceArray<float> val(x.val, x.entries), dv(v, vlen), dout(x.fibers);
    t1.record();
    if (x.fibers)
        sptv_ell_kernel<<<grid_for(x.fibers), 256>>>(x.fibers, 0, 0, 0, first.get(), ap.get(), slice.get(), col.get(), val.get(), dv.get(),
                                                dout.get());
    check(cudaGetLastError(), "launching the SpTV ELL kernel");
    t2.record();
    dout.download(out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

// HOCOO (Alg. 3): the products and the segmented reduction of its two loops fused into one pass
// over the fiber segments, as the row kernel does: a separate product pass wrote every value
// back and read it again, and a segmented reduction over tens of millions of segments of a few
// nonzeros each reached 13% of the copy bandwidth on the nell-2 shape.
void sptv_segments(const SptvSegments& x, const float* v, std::uint64_t vlen, float* out, Timing& timing) {
    use_device();
    require_free((x.segments + 1) * 8 + x.nnz * 8 + vlen * 4 + x.segments * 4 + tile_count(x.nnz) * 8, "SpTV on the whole tensor");
    Event t0, t1, t2, t3;
    t0.record();
    DeviceArray<std::uint64_t> starts(x.starts, x.segments + 1);
    DeviceArray<std::uint32_t> col(x.col, x.nnz);
    DeviceArray<float> val(x.val, x.nnz), dv(v, vlen), dout(x.segments);
    DeviceArray<std::uint64_t> tile_row(tile_count(x.nnz));
    t1.record();
    launch_sptv_pointer(x.segments, x.nnz, starts.get(), col.get(), val.get(), dv.get(), dout.get(), tile_row);
    check(cudaGetLastError(), "launching the SpTV segment kernel");
    t2.record();
    dout.download(out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

}  // namespace tscope::gpu
