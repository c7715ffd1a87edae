// CPD's tensor side when the tensor does not fit in the GPU memory the run may use: the format
// built on the host, flattened into the kernels' layout, page-locked, and streamed through the
// GPU in chunks over k CUDA streams for every MTTKRP (gpu_streamed.hpp). The factors and the
// MTTKRP output stay on the device. Private to engine/decomp.
#pragma once

#include <memory>
#include <vector>

#include "cuda/gpu_cpd.hpp"
#include "cuda/gpu_streamed.hpp"
#include "kernels/csf_flatten.hpp"
#include "tscope/decomp/cpd_als.hpp"

namespace tscope::detail {

class StreamedCpdTensor {
public:
    // Builds the format (COO, CSF, B-CSF, MM-CSF or BLCO) on the host; its chunks and the streams'
    // buffers take at most `device_budget` bytes (Error when that is too little for any chunk).
    StreamedCpdTensor(const CooTensor& t, const CpdOptions& o, std::uint64_t device_budget, RunControl& control);
    // Mode `mode`'s MTTKRP into dev (M, fp64); the timeline's totals go into `stats`.
    void mttkrp(gpu::CpdDevice& dev, int mode, std::uint64_t rank, CpdStreaming& stats);
    // Fills stats' setup fields: chunks, bytes, the measured copy rate.
    void describe(CpdStreaming& stats);
    double build_seconds() const { return build_s_; }

private:
    bool per_mode_ = false;  // part m is mode m's tree; else every part serves every mode
    int order_ = 0;
    std::vector<csf_flat::FlatTree> trees_;  // the host arrays the streams read
    std::vector<std::vector<int>> orders_;
    csf_flat::FlatCoo coo_;
    std::unique_ptr<SparseFormat> blco_;  // BLCO: the format itself (its keys are streamed as they are)
    std::vector<float> blco_vals_;        // and its values in fp32
    gpu::Blco blco_view_;
    std::unique_ptr<gpu::StreamedTensor> streamed_;  // one set of streams and buffers for all parts
    double build_s_ = 0;
};

}  // namespace tscope::detail
