// MM-CSF's hot leaves ranked on the device (mmcsf_hot_leaves.cuh): the rows' counts by a
// histogram of the leaf arrays, then a CUB radix sort of the rows by count, most first.
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>

#include <algorithm>

#include "mmcsf_hot_leaves.cuh"

namespace tscope::gpu {
namespace {

__global__ void leaf_count_kernel(const std::uint32_t* leaf, std::uint64_t n, std::uint32_t* counts) {
    for (std::uint64_t z = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; z < n;
         z += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        atomicAdd(&counts[leaf[z]], 1u);
}

__global__ void iota_kernel(std::uint32_t* a, std::uint64_t n) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        a[i] = static_cast<std::uint32_t>(i);
}

__global__ void rank_slots_kernel(const std::uint32_t* row, std::uint32_t ranked, std::uint16_t* slot) {
    for (std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < ranked; k += gridDim.x * blockDim.x)
        slot[row[k]] = static_cast<std::uint16_t>(k);
}

// One past the largest row any leaf array names.
std::uint64_t rows_named(const std::vector<std::pair<const std::uint32_t*, std::uint64_t>>& leaves) {
    DeviceArray<std::uint32_t> top(1);
    std::uint64_t rows = 0;
    for (const auto& [leaf, n] : leaves) {
        if (n == 0) continue;
        std::size_t bytes = 0;
        check(cub::DeviceReduce::Max(nullptr, bytes, leaf, top.get(), n), "sizing the leaves' reduction");
        DeviceArray<char> temp(bytes);
        check(cub::DeviceReduce::Max(temp.get(), bytes, leaf, top.get(), n), "finding the leaves' largest row");
        std::uint32_t host = 0;
        top.download(&host);
        rows = std::max<std::uint64_t>(rows, std::uint64_t{host} + 1);
    }
    return rows;
}

}  // namespace

HotLeaves rank_hot_leaves(const std::vector<std::pair<const std::uint32_t*, std::uint64_t>>& leaves) {
    HotLeaves h;
    const std::uint64_t rows = rows_named(leaves);
    if (rows == 0) return h;
    DeviceArray<std::uint32_t> counts(rows), ids(rows), counts_sorted(rows), ids_sorted(rows);
    counts.zero();
    for (const auto& [leaf, n] : leaves) {
        h.leaf_nnz += n;
        if (n) leaf_count_kernel<<<grid_for(n), 256>>>(leaf, n, counts.get());
    }
    iota_kernel<<<grid_for(rows), 256>>>(ids.get(), rows);
    check(cudaGetLastError(), "counting the leaves' rows");
    const auto n = static_cast<int>(rows);  // under 2^32 rows (32-bit indices), CUB's count is an int
    std::size_t bytes = 0;
    check(cub::DeviceRadixSort::SortPairsDescending(nullptr, bytes, counts.get(), counts_sorted.get(), ids.get(),
                                                    ids_sorted.get(), n),
          "sizing the rows' sort");
    DeviceArray<char> temp(bytes);
    check(cub::DeviceRadixSort::SortPairsDescending(temp.get(), bytes, counts.get(), counts_sorted.get(), ids.get(),
                                                    ids_sorted.get(), n),
          "ranking the leaves' rows");
    const auto head = static_cast<std::uint32_t>(std::min<std::uint64_t>(rows, kHotRanked));
    std::vector<std::uint32_t> top_counts(head), top_rows(head);
    check(cudaMemcpy(top_counts.data(), counts_sorted.get(), head * 4ull, cudaMemcpyDeviceToHost), "reading the ranks");
    check(cudaMemcpy(top_rows.data(), ids_sorted.get(), head * 4ull, cudaMemcpyDeviceToHost), "reading the ranks");
    std::uint32_t ranked = 0;
    std::uint64_t sum = 0;
    while (ranked < head && top_counts[ranked] >= 2) h.covered.push_back(sum += top_counts[ranked++]);
    h.slot = DeviceArray<std::uint16_t>(rows);
    check(cudaMemset(h.slot.get(), 0xff, rows * sizeof(std::uint16_t)), "clearing the ranks");
    if (ranked == 0) return h;
    h.row = DeviceArray<std::uint32_t>(top_rows.data(), ranked);
    rank_slots_kernel<<<grid_for(ranked), 256>>>(h.row.get(), ranked, h.slot.get());
    check(cudaGetLastError(), "ranking the leaves' rows");
    return h;
}

}  // namespace tscope::gpu
