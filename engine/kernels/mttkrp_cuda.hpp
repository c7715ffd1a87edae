// The CUDA MTTKRP's host side (kernels/mttkrp_cuda.cpp): what the dispatch, the plan and the
// device CPD call. Private to the engine.
#pragma once

#include <memory>
#include <vector>

#include "cuda/gpu_mttkrp.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/dense_matrix.hpp"

namespace tscope {

void mttkrp_cuda(const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
                 DeviceTiming* timing);
// The format flattened on the host and uploaded (COO, CSF, B-CSF, MM-CSF).
std::shared_ptr<gpu::ResidentTensor> mttkrp_cuda_upload(const SparseFormat& format);
void mttkrp_cuda_resident(const gpu::ResidentTensor& tensor, const SparseFormat& format, int mode,
                          const std::vector<DenseMatrix>& factors, DenseMatrix& out, DeviceTiming* timing);

}  // namespace tscope
