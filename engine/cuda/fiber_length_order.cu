// Each parent's fibers of a large tree ordered by length (fiber_length_order.cuh): one stable CUB
// radix sort of the fibers keyed by (parent, 31 - length), then the ancestors (gather_kernel,
// permutation_kernels.cuh), offsets and nonzeros moved to their new places.
//
// Measured on one H200 (session 42, call 1, e5847a0; docs/bench/h200-issue19-session42.json): the
// CPD's device-built trees ordered so against their own order, rank 32, each iteration's three
// MTTKRPs: on the nell-2 shape B-CSF 4.2-4.3 ms against 5.4-5.5 and MM-CSF 5.0-5.1 against
// 5.6-5.7 (two rounds); on the uniform shape B-CSF 7.1 against 7.6-7.7 and MM-CSF 7.9 against
// 8.2-8.3 (one round); the same fits. The device's peak rose while it ordered (then with CUB's
// sort into separate buffers, 36 bytes a fiber; double buffered since, 24): nell-2 B-CSF 4,703 MiB
// against 4,442, uniform B-CSF 7,947 against 6,231, uniform MM-CSF 4,183 against 3,227. Uploaded
// trees ordered here rather than on the host run the same kernels at the same speed (nell-2
// B-CSF 1.370-1.497 ms a mode against 1.370-1.485) and build sooner on the host (2.21-2.39 s a
// B-CSF tree against 2.21-2.56; MM-CSF 12.7 s against 13.5 on the H200's 16-core host).
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>

#include "cuda_util.cuh"
#include "env_switch.hpp"
#include "fiber_length_order.cuh"
#include "permutation_kernels.cuh"

namespace tscope::gpu {
namespace {

// lengths of 31 and up share a key (ties keep their order), as csf_flat::kLongestOrdered on the host
constexpr std::uint64_t kLengthBits = 5;

// flag[f]: fiber f starts a new parent (a level above the fibers' own changes there); 0 at f = 0,
// so that an inclusive sum numbers the parents from 0.
__global__ void parent_flag_kernel(const std::uint32_t* const* anc, int above, std::uint64_t fibers,
                                   std::uint32_t* flag) {
    for (std::uint64_t f = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; f < fibers;
         f += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        bool next = false;
        for (int l = 0; f > 0 && !next && l < above; ++l) next = anc[l][f] != anc[l][f - 1];
        flag[f] = next;
    }
}

__device__ inline std::uint64_t length_of(const std::uint64_t* fiber_ptr, std::uint64_t f) {
    return fiber_ptr[f + 1] - fiber_ptr[f];
}

__global__ void length_key_kernel(const std::uint32_t* parent, const std::uint64_t* fiber_ptr, std::uint64_t fibers,
                                  std::uint64_t* key, std::uint32_t* id) {
    constexpr std::uint64_t top = (std::uint64_t{1} << kLengthBits) - 1;
    for (std::uint64_t f = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; f < fibers;
         f += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        const std::uint64_t len = length_of(fiber_ptr, f);
        key[f] = (static_cast<std::uint64_t>(parent[f]) << kLengthBits) | (top - (len < top ? len : top));
        id[f] = static_cast<std::uint32_t>(f);
    }
}

// length[k]: the length of the fiber that moves to k (from[k]); length[fibers] = 0, so that an
// exclusive sum over fibers + 1 gives the new offsets.
__global__ void moved_length_kernel(const std::uint32_t* from, const std::uint64_t* fiber_ptr, std::uint64_t fibers,
                                    std::uint64_t* length) {
    for (std::uint64_t k = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; k <= fibers;
         k += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        length[k] = k < fibers ? length_of(fiber_ptr, from[k]) : 0;
}

// A thread a fiber (the fibers are short where this runs: cut at the GPU's split length).
__global__ void move_nonzeros_kernel(const std::uint32_t* from, const std::uint64_t* old_ptr,
                                     const std::uint64_t* new_ptr, std::uint64_t fibers, const std::uint32_t* leaf,
                                     const float* vals, std::uint32_t* leaf_out, float* vals_out) {
    for (std::uint64_t k = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; k < fibers;
         k += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        const std::uint64_t src = old_ptr[from[k]], dst = new_ptr[k], n = new_ptr[k + 1] - dst;
        for (std::uint64_t z = 0; z < n; ++z) leaf_out[dst + z] = leaf[src + z], vals_out[dst + z] = vals[src + z];
    }
}

// The order of the fibers: from[k] is the fiber that moves to place k.
DeviceArray<std::uint32_t> length_order(const ResidentTensor::Impl::Part& part) {
    const std::uint64_t F = part.meta.fibers;
    const int above = part.meta.levels - 1;  // the levels above the fibers' own
    std::vector<const std::uint32_t*> host_anc;
    for (const auto& a : part.anc) host_anc.push_back(a.get());
    DeviceArray<const std::uint32_t*> anc(host_anc.data(), host_anc.size());
    DeviceArray<std::uint32_t> parent(F);
    parent_flag_kernel<<<grid_for(F), 256>>>(anc.get(), above, F, parent.get());
    check(cudaGetLastError(), "finding the fibers' parents");
    std::size_t bytes = 0;
    check(cub::DeviceScan::InclusiveSum(nullptr, bytes, parent.get(), parent.get(), F), "sizing the scan");
    DeviceArray<unsigned char> temp(bytes);
    check(cub::DeviceScan::InclusiveSum(temp.get(), bytes, parent.get(), parent.get(), F), "numbering the parents");
    DeviceArray<std::uint64_t> key(F), key_alt(F);
    DeviceArray<std::uint32_t> id(F), id_alt(F);
    length_key_kernel<<<grid_for(F), 256>>>(parent.get(), part.fiber_ptr.get(), F, key.get(), id.get());
    check(cudaGetLastError(), "keying the fibers");
    parent = DeviceArray<std::uint32_t>();
    temp = DeviceArray<unsigned char>();
    int bits = static_cast<int>(kLengthBits) + 1;
    while (bits < 64 && (std::uint64_t{1} << (bits - kLengthBits)) <= F) ++bits;  // parents < F
    // double buffered: CUB sorts between the two pairs of arrays, with little scratch of its own
    cub::DoubleBuffer<std::uint64_t> keys(key.get(), key_alt.get());
    cub::DoubleBuffer<std::uint32_t> ids(id.get(), id_alt.get());
    bytes = 0;
    check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, ids, F, 0, bits), "sizing the sort");
    temp = DeviceArray<unsigned char>(bytes);
    check(cub::DeviceRadixSort::SortPairs(temp.get(), bytes, keys, ids, F, 0, bits), "ordering the fibers by length");
    return ids.Current() == id.get() ? std::move(id) : std::move(id_alt);
}

}  // namespace

// Free device memory the ordering leaves untouched: the kernels' code and CUB's scratch.
constexpr std::uint64_t kOrderingMargin = 64ull << 20;

bool device_order_applies(std::uint64_t fibers) {
    return !env_is("TENSORSCOPE_FIBER_ORDER", "tree") && fibers >= static_cast<std::uint64_t>(sm_count()) * 2048;
}

std::uint64_t ordering_bytes(std::uint64_t fibers, std::uint64_t nnz) {
    return std::max(24 * fibers, 16 * fibers + 8 * nnz);
}

bool order_fibers_by_length(ResidentTensor::Impl::Part& part) {
    const std::uint64_t F = part.meta.fibers, n = part.meta.nnz;
    if (part.meta.levels < 2 || F < 2) return false;
    if (free_device_bytes() < ordering_bytes(F, n) + kOrderingMargin) return false;
    const DeviceArray<std::uint32_t> from = length_order(part);
    DeviceArray<std::uint64_t> fiber_ptr(F + 1);
    moved_length_kernel<<<grid_for(F + 1), 256>>>(from.get(), part.fiber_ptr.get(), F, fiber_ptr.get());
    check(cudaGetLastError(), "measuring the moved fibers");
    std::size_t bytes = 0;
    check(cub::DeviceScan::ExclusiveSum(nullptr, bytes, fiber_ptr.get(), fiber_ptr.get(), F + 1), "sizing the scan");
    DeviceArray<unsigned char> temp(bytes);
    check(cub::DeviceScan::ExclusiveSum(temp.get(), bytes, fiber_ptr.get(), fiber_ptr.get(), F + 1),
          "placing the fibers");
    for (auto& a : part.anc) {
        DeviceArray<std::uint32_t> moved(F);
        gather_kernel<<<grid_for(F), 256>>>(a.get(), from.get(), moved.get(), F);
        check(cudaGetLastError(), "moving the fibers' ancestors");
        a = std::move(moved);
    }
    DeviceArray<std::uint32_t> leaf(n);
    DeviceArray<float> vals(n);
    move_nonzeros_kernel<<<grid_for(F), 256>>>(from.get(), part.fiber_ptr.get(), fiber_ptr.get(), F, part.leaf.get(),
                                               part.vals.get(), leaf.get(), vals.get());
    check(cudaGetLastError(), "moving the fibers' nonzeros");
    check(cudaDeviceSynchronize(), "ordering the fibers on the device");
    part.fiber_ptr = std::move(fiber_ptr);
    part.leaf = std::move(leaf);
    part.vals = std::move(vals);
    return true;
}

}  // namespace tscope::gpu
