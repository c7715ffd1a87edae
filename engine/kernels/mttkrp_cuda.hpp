// The CUDA MTTKRP's host side (kernels/mttkrp_cuda.cpp): what the dispatch, the plan and the
// device CPD call. Private to the engine.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cuda/gpu_mttkrp.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/dense_matrix.hpp"

namespace tscope {

// The most nonzeros a fiber of the CSF family holds on the GPU, longer ones cut on upload
// (mttkrp_cuda.cpp says why, and what was measured): 16, unless TENSORSCOPE_FIBER_SPLIT=N sets
// another for comparisons. The uploads and the trees built on the device for the CPD and several
// GPUs (mttkrp_slots.cpp) both cut at it.
std::uint64_t gpu_fiber_split();

void mttkrp_cuda(const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
                 DeviceTiming* timing);
// The format flattened on the host and uploaded (COO, CSF, B-CSF, MM-CSF); tiles_rank: the rank
// its MTTKRPs will run at (shared-memory tiles only where that rank reads them), 0 for any.
std::shared_ptr<gpu::ResidentTensor> mttkrp_cuda_upload(const SparseFormat& format, std::uint64_t tiles_rank = 0);
void mttkrp_cuda_resident(const gpu::ResidentTensor& tensor, const SparseFormat& format, int mode,
                          const std::vector<DenseMatrix>& factors, DenseMatrix& out, DeviceTiming* timing);

}  // namespace tscope
