// Which GPU kernel takes HLS's sparse part (HLS-S) in gpu_hls.cu. Plain C++17, no CUDA, so that
// the rule is tested on machines without a GPU (tests/engine/cuda/test_hls_sparse_kernel.cpp).
// Private to the engine.
#pragma once

#include <string_view>

namespace tscope::gpu {

// Coo: the COO format's resident kernels (gpu_mttkrp.cu; MTTKRP). Peers: the COO TTMc's kernel
// (gpu_ttmc.cu; TTMc). ElementWise: the paper's kernel (hls Sec. IV-A), a warp a nonzero here,
// an fp64 atomic a column.
enum class HlsSparseKernel { Coo, Peers, ElementWise };

// MTTKRP's sparse part runs on the COO kernels unless the element-wise one is forced. Session
// 76 kept parts under 256K nonzeros without heavy rows on the element-wise kernel, where COO's
// teams of 128 nonzeros left most of the device idle; since session 77 COO's teams take smaller
// groups where the tensor is small (coo_group.hpp), and the COO kernels took
// MovieLens's sparse part in 24-32 us a mode against the element-wise kernel's 55-71, Last.fm's
// in 68-91 against 104-146 (one H200, rank 32, docs/bench/h200-session77.json call 1).
// `forced` is TENSORSCOPE_HLS_SPARSE's value ("element"; else ignored, or nullptr). TTMc (kron)
// always takes the peers kernel unless the element-wise one is forced.
inline HlsSparseKernel hls_sparse_kernel(bool kron, const char* forced) {
    const std::string_view f = forced ? forced : "";
    if (f == "element") return HlsSparseKernel::ElementWise;
    return kron ? HlsSparseKernel::Peers : HlsSparseKernel::Coo;
}

}  // namespace tscope::gpu
