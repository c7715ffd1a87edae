// Which GPU kernel takes HLS's sparse part (HLS-S) in gpu_hls.cu. Plain C++17, no CUDA, so that
// the rule is tested on machines without a GPU (tests/engine/cuda/test_hls_sparse_kernel.cpp).
// Private to the engine.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace tscope::gpu {

// Coo: the COO format's resident kernels (gpu_mttkrp.cu; MTTKRP). Peers: the COO TTMc's kernel
// (gpu_ttmc.cu; TTMc). ElementWise: the paper's kernel (hls Sec. IV-A), a warp a nonzero here,
// an fp64 atomic a column.
enum class HlsSparseKernel { Coo, Peers, ElementWise };

// MTTKRP's sparse part stays on the element-wise kernel where it has under kElementNonzeros
// nonzeros and none of its output rows takes over kElementRowAdds of them. There the COO
// kernels' teams (a team of lanes per 128 nonzeros) leave most of the device idle and their
// output copies cost two more launches, while the element-wise kernel's fp64 adds into one row
// queue on it only as far as that row's nonzeros go (about 10 ns each: powerlaw-3d-steep's
// heaviest rows, 42K-69K nonzeros, took it 439-695 us a mode). Session 76 call 2 (one H200,
// rank 32, us a mode, COO kernels against element-wise; heaviest rows counted on this VM from
// the same files and generator commands): MovieLens (100K sparse nonzeros, heaviest rows
// 583-3,550) 94-116 against 54-72; Last.fm (186K; 931-7,503) 124-149 against 98-142, its
// mode 1 alone faster on the COO kernels (124-126 against 140-142); uniform-3d (600K; 192-358)
// 109-130 against 184-202; powerlaw-3d-steep (400K) 119-150 against 439-695.
constexpr std::uint64_t kElementNonzeros = 256 * 1024, kElementRowAdds = 8192;

// Whether `nnz` nonzeros whose output rows are rows[0..nnz) fit the element-wise kernel.
inline bool fits_element_wise(std::uint64_t nnz, const std::uint32_t* rows) {
    if (nnz >= kElementNonzeros) return false;
    std::vector<std::uint32_t> sorted(rows, rows + nnz);
    std::sort(sorted.begin(), sorted.end());
    for (std::uint64_t a = 0, b = 0; a < sorted.size(); a = b) {
        while (b < sorted.size() && sorted[b] == sorted[a]) ++b;
        if (b - a > kElementRowAdds) return false;
    }
    return true;
}

// The kernel for a product in `mode` (kron: TTMc) whose sparse part's output rows are
// rows[0..nnz); `forced` is TENSORSCOPE_HLS_SPARSE's value ("element" or "coo"; else nullptr).
// TTMc always takes the peers kernel unless the element-wise one is forced.
inline HlsSparseKernel hls_sparse_kernel(bool kron, std::uint64_t nnz, const std::uint32_t* rows, const char* forced) {
    const std::string_view f = forced ? forced : "";
    if (f == "element") return HlsSparseKernel::ElementWise;
    if (kron) return HlsSparseKernel::Peers;
    if (f == "coo") return HlsSparseKernel::Coo;
    return fits_element_wise(nnz, rows) ? HlsSparseKernel::ElementWise : HlsSparseKernel::Coo;
}

}  // namespace tscope::gpu
