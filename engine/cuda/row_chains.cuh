// How many fp32 adds the output rows of an index array take, counted on the device: COO's
// upload (measure_coo_shape, the team kernel's chains) and MM-CSF's hot rows (hot_rows.cuh)
// both count with these. Private to engine/cuda (nvcc, no separable compilation).
#pragma once

#include <cstdint>

namespace tscope::gpu {
namespace {

// The fp32 chain of adds each row of idx takes where a row's runs flush once each and a long
// run once per `group` positions (COO's team kernel; a level between of a tree): counts[i] +=
// group per run start and 1 per position of row i (counts zeroed), so counts[i] / group is row
// i's chain. With group 0, counts[i] is row i's positions (a tree's leaves: an add each). A
// warp's positions of one row are added by one lane (a heavy row's millions would otherwise
// queue on one address).
__global__ void row_chain_kernel(const std::uint32_t* idx, std::uint64_t nnz, std::uint64_t group,
                                 unsigned long long* counts) {
    const std::uint64_t thread = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    const unsigned lane = threadIdx.x % 32;
    for (std::uint64_t z = thread; z - lane < nnz;
         z += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {  // warp-uniform
        const bool in = z < nnz;
        const unsigned row = in ? idx[z] : 0xffffffffu;
        const bool start = in && (z == 0 || idx[z - 1] != row);
        const unsigned peers = __match_any_sync(0xffffffffu, row);
        const unsigned starts = __ballot_sync(0xffffffffu, start) & peers;
        if (in && __ffs(peers) - 1 == static_cast<int>(lane))
            atomicAdd(&counts[row], group * __popc(starts) + __popc(peers));
    }
}

// *out = max(*out, the largest of a's n entries).
template <class T>
__global__ void max_kernel(const T* a, std::uint64_t n, T* out) {
    T m = 0;
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        m = max(m, a[i]);
    atomicMax(out, m);
}

}  // namespace
}  // namespace tscope::gpu
