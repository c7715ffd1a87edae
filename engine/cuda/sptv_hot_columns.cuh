// SpTV's vector with its entries renumbered by how many nonzeros read them, for a vector larger
// than L2 (TENSORSCOPE_SPTV_HOT=1, for comparison: session 37, not yet measured). Private to
// engine/cuda (nvcc, C++17).
//
// Why: on the delicious-4d shape's mode 2 (a 69 MB vector, over the H200's 50 MB of L2) the CSR
// products reach 58-64% of the copy bound against 84-103% on the other modes. Each nonzero's
// gather of v[col] costs a 32-byte sector for 4 bytes; power-law columns are read very unevenly,
// but their ids are scattered (as the generator scatters them, and real ids are), so a sector
// that L2 keeps for one much-read entry mostly holds entries rarely read. Renumbered by their
// count, the much-read entries share sectors, and the part of v that L2 holds serves more of
// the gathers. The plan relabels the columns once; every product first gathers v into the new
// order on the device (vlen reads of v, vlen of the map, vlen writes), counted in its time.
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include <cstdint>

#include "cuda_util.cuh"

namespace tscope::gpu {
namespace {  // each .cu file gets its own copy (no separable compilation)

__global__ void hot_count_kernel(std::uint64_t nnz, const std::uint32_t* __restrict__ col, std::uint32_t* __restrict__ count) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t e = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; e < nnz; e += stride)
        atomicAdd(count + col[e], 1u);
}

// Loops over the vector's entries count in 64 bits: a 32-bit index near 2^32 would wrap past n.
__global__ void hot_iota_kernel(std::uint64_t n, std::uint32_t* __restrict__ ids) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
        ids[i] = static_cast<std::uint32_t>(i);
}

// rank[old[k]] = k: where each original entry went.
__global__ void hot_rank_kernel(std::uint64_t n, const std::uint32_t* __restrict__ old, std::uint32_t* __restrict__ rank) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t k = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; k < n; k += stride)
        rank[old[k]] = static_cast<std::uint32_t>(k);
}

__global__ void hot_relabel_kernel(std::uint64_t nnz, const std::uint32_t* __restrict__ rank, std::uint32_t* __restrict__ col) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t e = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; e < nnz; e += stride)
        col[e] = rank[col[e]];
}

// hot[k] = v[old[k]].
__global__ void hot_gather_kernel(std::uint64_t n, const std::uint32_t* __restrict__ old, const float* __restrict__ v,
                                  float* __restrict__ hot) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t k = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; k < n; k += stride) hot[k] = v[old[k]];
}

// The columns of a CSR on the device, relabelled in place by descending count (ties by id), and
// the map back, for the products' gathers of v.
class HotColumns {
public:
    // Device bytes it needs at most while it relabels (the counts, the ids, their sorted copies
    // and the ranks, CUB's sort buffers), beside the vector copy a plan keeps (vlen floats).
    static std::uint64_t bytes(std::uint64_t vlen) { return vlen * 8 * sizeof(std::uint32_t); }

    HotColumns(std::uint64_t nnz, std::uint32_t* col, std::uint32_t vlen) : vlen_(vlen), old_(vlen) {
        DeviceArray<std::uint32_t> rank = sorted_ids(nnz, col);
        hot_rank_kernel<<<grid_for(vlen_), 256>>>(vlen_, old_.get(), rank.get());
        hot_relabel_kernel<<<grid_for(nnz), 256>>>(nnz, rank.get(), col);
        check(cudaGetLastError(), "relabelling the vector's columns");
    }

    void gather(const float* v, float* hot) const {
        hot_gather_kernel<<<grid_for(vlen_), 256>>>(vlen_, old_.get(), v, hot);
        check(cudaGetLastError(), "gathering the vector by its columns' counts");
    }

private:
    // old_ = the ids by descending count; returns vlen scratch entries for the ranks.
    DeviceArray<std::uint32_t> sorted_ids(std::uint64_t nnz, const std::uint32_t* col) {
        DeviceArray<std::uint32_t> count(vlen_), sorted(vlen_), ids(vlen_);
        count.zero();
        hot_count_kernel<<<grid_for(nnz), 256>>>(nnz, col, count.get());
        hot_iota_kernel<<<grid_for(vlen_), 256>>>(vlen_, ids.get());
        check(cudaGetLastError(), "counting the vector's reads");
        std::size_t temp_bytes = 0;
        check(cub::DeviceRadixSort::SortPairsDescending(nullptr, temp_bytes, count.get(), sorted.get(), ids.get(), old_.get(), vlen_),
              "sizing the columns' sort");
        DeviceArray<unsigned char> temp(temp_bytes);
        check(cub::DeviceRadixSort::SortPairsDescending(temp.get(), temp_bytes, count.get(), sorted.get(), ids.get(), old_.get(), vlen_),
              "sorting the columns by their reads");
        return ids;  // free now: reused for the ranks
    }

    std::uint32_t vlen_;
    DeviceArray<std::uint32_t> old_;  // new id -> original id
};

}  // namespace
}  // namespace tscope::gpu
